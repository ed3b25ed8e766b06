/*
 * tui_screen.h - the screens of attn as objects: the lesson menu, the
 * lesson, the help, the whole text and the blanked screen. They stand in a
 * stack (tui_chrome.h); the one on top takes the keys, lays out its frame
 * and draws it, and hands back the actions they all share; the main loop
 * (tui.c) knows no more than that. Each screen lives beside the code
 * it draws: the menu in tui_menu.c, the lesson in tui_lesson.c (its
 * actions) and tui_lesson_draw.c (its frame), help and text in
 * tui_overlay.c, the cost of attention in tui_cost.c, the blank screen in
 * tui.c.
 */
#ifndef ATTN_TUI_SCREEN_H
#define ATTN_TUI_SCREEN_H

#include "tui_state.h"

typedef struct TuiScreen {
    const char *name;
    /* one key (a character, a KEY_* code, KEY_MOUSE); returns the action
     * it leaves to the main loop (one the screens share: quit, help, back,
     * reload, hide the error, the cost view), else ACT_NONE */
    TuiAction (*key)(Tui *t, int ch);
    /* lay out the frame for t->rows x t->cols: sets t->layout_ok */
    void (*prepare)(Tui *t);
    /* draw it (only when t->layout_ok) */
    void (*draw)(Tui *t);
    /* between keys (each 200 ms without one): work in steps; 1 when the
     * screen changed. NULL: nothing to do. */
    int (*idle)(Tui *t);
} TuiScreen;

extern const TuiScreen tui_screen_menu;
extern const TuiScreen tui_screen_lesson;
extern const TuiScreen tui_screen_help;
extern const TuiScreen tui_screen_text;
extern const TuiScreen tui_screen_blank;
extern const TuiScreen tui_screen_cost;

/* tui_cost.c: the cost of attention (C): open it (timing from the
 * start), close it. */
void cost_open(Tui *t);
void cost_close(Tui *t);

#endif
