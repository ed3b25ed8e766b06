/*
 * tui_screen.h - the screens of attn as objects: the lesson menu, the
 * lesson, the help, the whole text, the cost of attention, the blanked
 * screen and a bug hunt's two lists. They stand in a stack (tui_chrome.h),
 * each with its own state (self); the one on top takes the keys, lays out
 * its frame and draws it. A screen's functions take the terminal
 * (TuiTerm) and their own state, nothing else, and hand back the actions
 * the main loop carries out (quit, help, back, reload, the cost view, a
 * screen to open or close); the loop (tui.c) knows no more than that.
 * Each screen lives beside the code it draws: the menu in tui_menu.c, the
 * lesson in tui_lesson.c (its actions) and tui_lesson_draw.c (its frame),
 * help and text in tui_overlay.c, the cost in tui_cost.c, a hunt's lists
 * in tui_bug.c, the blank screen in tui.c.
 */
#ifndef ATTN_TUI_SCREEN_H
#define ATTN_TUI_SCREEN_H

#include "tui_keys.h"
#include "tui_term.h"

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

/* Each screen's object; self is what its comment names. */
extern const TuiScreen tui_screen_menu;      /* MenuView (tui_menu.h)            */
extern const TuiScreen tui_screen_lesson;    /* LessonScreen (tui_lesson.h)      */
extern const TuiScreen tui_screen_help;      /* OverlayView (tui_overlay.h)      */
extern const TuiScreen tui_screen_text;      /* OverlayView                      */
extern const TuiScreen tui_screen_blank;     /* none                             */
extern const TuiScreen tui_screen_cost;      /* CostView (tui_cost.c)            */
extern const TuiScreen tui_screen_bug_kinds; /* LessonScreen                     */
extern const TuiScreen tui_screen_bug_fix;   /* LessonScreen                     */

/* tui_cost.c: the cost of attention (C): a new view (timing from the
 * start, BLAS given back its threads, blas_threads of them), NULL on no
 * memory; freed (BLAS back on one thread) with cost_free. */
typedef struct CostView CostView;
CostView *cost_new(int blas_threads);
void cost_free(CostView *c);

#endif
