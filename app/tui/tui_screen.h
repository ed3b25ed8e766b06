/*
 * tui_screen.h - the screens of attn as objects: the lesson menu, the
 * lesson, the help, the whole text and the blanked screen. The one on top
 * (tui_screen) takes the keys, lays out its frame and draws it; the main
 * loop (tui.c) knows no more than that. Each screen lives beside the code
 * it draws: the menu in tui_menu.c, the lesson in tui_lesson.c (its
 * actions) and tui_lesson_draw.c (its frame), help and text in
 * tui_overlay.c, the cost of attention in tui_cost.c, the blank screen in
 * tui.c.
 */
#ifndef ATTN_TUI_SCREEN_H
#define ATTN_TUI_SCREEN_H

#include "tui_state.h"

typedef struct {
    const char *name;
    /* one key (a character, a KEY_* code, KEY_MOUSE) */
    void (*key)(Tui *t, int ch);
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

/* The screen on top: blank, else help or text, else the cost of
 * attention, else the menu or the lesson. */
const TuiScreen *tui_screen(const Tui *t);

/* The actions the menu and the lesson share (quit, help, back, reload,
 * hide the reload error): 1 when a was one of them and is done (tui.c). */
int tui_common_action(Tui *t, TuiAction a);

#endif
