/*
 * tui_screen.h - what a screen of attn is: an object with a key, a
 * prepare, a draw and an idle function, each given the terminal (TuiTerm)
 * and the screen's own state (self), nothing else. The screens stand in
 * the main loop's stack (app/tui/tui_chrome.h); the one on top takes the
 * keys, lays out its frame and draws it, and hands back the actions the
 * loop carries out (quit, help, back, reload, the cost view, a screen to
 * open or close); the loop knows no more than that. Each screen's object
 * is declared beside its state: the menu in tui_menu.h, the lesson and a
 * hunt's two lists in app/lessonscreen/tui_lesson.h, help and text in
 * tui_overlay.h, the cost in tui_cost.h, the blank screen in tui_state.h.
 */
#ifndef ATTN_TUI_SCREEN_H
#define ATTN_TUI_SCREEN_H

#include "tui_keys.h"
#include "tui_term.h"

/* The loop's tick: getch's timeout, the plug-in's poll; a screen that
 * works between keys (idle) may ask for no wait while it works and give
 * the tick back after. */
#define TUI_TICK_MS 200

typedef struct TuiScreen {
    const char *name;
    /* one key (a character, a KEY_* code, KEY_MOUSE); returns the action
     * it leaves to the main loop, else ACT_NONE */
    TuiAction (*key)(TuiTerm *term, void *self, int ch);
    /* lay out the frame for term->rows x term->cols: sets term->layout_ok */
    void (*prepare)(TuiTerm *term, void *self);
    /* draw it (only when term->layout_ok) */
    void (*draw)(TuiTerm *term, void *self);
    /* between keys (each 200 ms without one): work in steps; 1 when the
     * screen changed. NULL: nothing to do. */
    int (*idle)(TuiTerm *term, void *self);
} TuiScreen;

#endif
