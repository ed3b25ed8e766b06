/*
 * tui_state.h - the screen as the main loop holds it (tui.c, the start in
 * tui_main.c, and the tests that drive it): the terminal, the stack of
 * screens (tui_chrome.h) each with the state it made for itself, what runs
 * beside them (a plug-in), and the table of screens a screen asks for by
 * action. No screen includes this, and it names no screen: a screen sees
 * the terminal and itself. Only the main loop asks for a frame.
 */
#ifndef ATTN_TUI_STATE_H
#define ATTN_TUI_STATE_H

#include "tui_screen.h"
#include "tui_term.h"

#define TUI_STACK_MAX 8

typedef struct Tui Tui;

struct TuiPlugin;

/* A screen the app makes for an action a screen asks for (tui_screen.h's
 * TuiAsk): given the terminal, the app's ctx and the ask's arg, the screen
 * to open (ACT_OPEN), or ACT_NONE with why in the message line. */
typedef struct {
    TuiAction act;
    TuiAsk (*open)(TuiTerm *term, void *ctx, const char *arg);
} TuiOpener;

/* The screen as a whole. Ownership: the stack owns each entry's state (let
 * go through its screen's close); the plug-in and the openers' ctx are
 * tui_main's, borrowed. */
struct Tui {
    TuiTerm term;       /* the terminal: canvas, size, palette, message */
    /* the screens, stack[depth - 1] on top, each with its state */
    struct {
        const TuiScreen *screen;
        void *self;
    } stack[TUI_STACK_MAX];
    int depth;
    /* the screens made by action, ended by ACT_NONE (NULL: none), and
     * what their open is given */
    const TuiOpener *openers;
    void *open_ctx;
    /* what runs beside the screens in the same loop (class mode): its
     * descriptors polled beside the keyboard; NULL: none */
    struct TuiPlugin *plug;
    int quit;
};

/* tui_start.c: curses set up for term (leaves with a message when there is
 * no terminal or it cannot place the cursor); on_signal gets every signal
 * that would end the process. */
void tui_start_curses(TuiTerm *term, int no_color, void (*on_signal)(int));
/* The terminal has gone away (hung up, closed, stdin at its end). */
int tui_terminal_gone(void);
/* tui.c: after newterm, before the first frame: put curses in the state
 * in which a frame leaves in one write rather than one per cursor move. */
void tui_curses_running(void);
/* tui.c: the terminal taken for the loop (no_color: monochrome), its
 * signals turned into the loop's end; t->plug set already. */
void tui_begin(Tui *t, int no_color);
/* The loop on the stack t holds (at least one screen), until a quit, the
 * last screen closed, a signal or the terminal gone; the terminal is
 * given back before the screens left have their last word and are closed.
 * Returns the
 * exit status: 128 + a signal's number when one stopped it (unless a
 * screen asked for a status of its own at exit), else a screen's, else 1
 * when a failure was kept for the exit (term.exit_note, said on stderr),
 * else 0. */
int tui_run(Tui *t);
/* A key as the loop takes it: to the screen on top, and what it asks
 * carried out (a screen opened or closed, the end). */
void tui_key(Tui *t, int ch);
/* A frame of the screen on top (tui_screen.h). */
/* Lay it out (regions, pane geometry, scroll) for the terminal's size. */
void tui_prepare(Tui *t);
/* Draw it, or the "too small" notice. */
void tui_draw(Tui *t);

#endif
