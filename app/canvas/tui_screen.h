/*
 * tui_screen.h - what a screen of attn is (tig's view_ops): an object whose
 * functions take the terminal (TuiTerm) and the screen's own state (self),
 * nothing else, and what a key asks of the main loop (TuiAsk). The screens
 * stand in the loop's stack (app/tui/tui_chrome.h), which owns each one's
 * state from the moment it goes on: the one on top takes the keys, lays
 * out its frame and draws it; every one on the stack works between keys
 * (idle), watches what it watches (tick) and does what waited for the frame
 * (frame_done); a screen taken off is closed (close), and when the loop
 * ends, each screen still on the stack has its last word (at_exit) once the
 * terminal is the shell's again. The loop knows no more than that.
 *
 * Each screen's object is declared beside its state: the menu in
 * app/tui/tui_menu.h, the cost in tui_cost.h, the lesson and a hunt's two
 * lists in app/lessonscreen/tui_lesson.h, the models in
 * app/modelscreen/tui_model.h, attn train's in tui_train.h, the help in
 * tui_help.h; the blank screen, which any screen may open, is here
 * (tui_screen.c), with the frame of a screen that needs only a minimum size.
 */
#ifndef ATTN_TUI_SCREEN_H
#define ATTN_TUI_SCREEN_H

#include "tui_keys.h"
#include "tui_term.h"

/* The loop's tick: getch's timeout, the plug-in's poll; a screen that
 * works between keys (idle) may ask for no wait while it works and give
 * the tick back after. */
#define TUI_TICK_MS 200

typedef struct TuiScreen TuiScreen;

/* What a key asks of the main loop:
 *   ACT_NONE   nothing;
 *   ACT_QUIT   the process ends;
 *   ACT_CLOSE  the screen on top closes (the last one closing ends the
 *              loop too);
 *   ACT_OPEN   screen goes on top with its state self, which the stack
 *              owns from then on (a screen a screen can make: the help, the
 *              blank screen, a lesson's whole text, a hunt's lists);
 *   any other  the screen the app makes for that action (the loop's table
 *              of openers, app/tui/tui_main.c: a lesson at the path arg,
 *              the cost view, the models), for a screen that cannot see the
 *              room the other is made in. arg is read before the loop
 *              returns to the keys. */
typedef struct {
    TuiAction act;
    const TuiScreen *screen;
    void *self;
    const char *arg;
} TuiAsk;

static inline TuiAsk tui_ask(TuiAction a) { return (TuiAsk){ .act = a }; }
static inline TuiAsk tui_ask_open(const TuiScreen *s, void *self) { return (TuiAsk){ .act = ACT_OPEN, .screen = s, .self = self }; }
static inline TuiAsk tui_ask_for(TuiAction a, const char *arg) { return (TuiAsk){ .act = a, .arg = arg }; }

struct TuiScreen {
    const char *name;
    /* one key (a character, a KEY_* code, KEY_MOUSE) on the screen on top:
     * what it leaves to the main loop */
    TuiAsk (*key)(TuiTerm *term, void *self, int ch);
    /* lay out the frame for term->rows x term->cols: sets term->layout_ok */
    void (*prepare)(TuiTerm *term, void *self);
    /* draw it (only when term->layout_ok) */
    void (*draw)(TuiTerm *term, void *self);
    /* on the stack, on top or under others, between keys (each 200 ms
     * without one, or at once while a screen asks for no wait): work in
     * steps; 1 when the screen changed. NULL: nothing to do. */
    int (*idle)(TuiTerm *term, void *self);
    /* on the stack, on top or under others, at each tick and after each
     * key: what the screen watches (a lesson's file saved in another
     * window); 1 when it changed. NULL: nothing. */
    int (*tick)(TuiTerm *term, void *self);
    /* on the stack, after each frame is on the terminal: what could wait
     * for it (a lesson's step saved); 1 when there is something new to
     * show. NULL: nothing. */
    int (*frame_done)(TuiTerm *term, void *self);
    /* the loop has ended with the screen on the stack and the terminal is
     * the shell's again: its last work and words (on stderr), and the exit
     * status it asks of the process (0: none; a signal's is the loop's).
     * Called before close. NULL: nothing to say. */
    int (*at_exit)(TuiTerm *term, void *self);
    /* the screen leaves the stack: its state is let go. NULL: the state is
     * not the stack's (none, or borrowed from the screen under it). */
    void (*close)(void *self);
};

/* The blank screen (b; self: none): the next key only brings back the
 * screen under it. */
extern const TuiScreen tui_screen_blank;

/* The layout of a screen that needs only TUI_MIN_COLS x TUI_MIN_ROWS:
 * term->layout_ok says whether the terminal has it (a screen object's
 * prepare; self unused). */
void tui_prepare_min_size(TuiTerm *term, void *self);
/* The terminal is below that: say so. */
void tui_draw_too_small(const TuiTerm *term);

#endif
