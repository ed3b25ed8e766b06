/*
 * tui_state.h - the screen as the main loop holds it (tui.c, and the tests
 * that drive it): the terminal, the stack of screens (tui_chrome.h), and
 * each screen's own state in a struct of its own (MenuView in tui_menu.h,
 * LessonScreen in tui_lesson.h, OverlayView in tui_overlay.h, the cost view
 * private to tui_cost.c). No screen includes this: a screen sees the
 * terminal and itself. Only the main loop asks for a frame.
 */
#ifndef ATTN_TUI_STATE_H
#define ATTN_TUI_STATE_H

#include "tui_term.h"
#include "tui_lesson.h"
#include "tui_menu.h"
#include "tui_cost.h"
#include "tui_overlay.h"
#include "tui_model.h"
#include "tui_train.h"
#include "tui_screen.h"

#define TUI_STACK_MAX 8

typedef struct Tui Tui;

struct TuiScreen;
struct TuiPlugin;

/* The screen as a whole: the terminal, the stack of screens each with its
 * state, and what the process keeps across them. Ownership: the menu's
 * catalogue, the lesson screen's session and frame, the cost view. */
struct Tui {
    TuiTerm term;       /* the terminal: canvas, size, palette, message */
    /* the screens: stack[0] the menu or the lesson, above it help, the
     * whole text, the cost of attention, a hunt's lists or the blank
     * screen (tui_chrome.h), each with its state */
    struct {
        const struct TuiScreen *screen;
        void *self;
    } stack[TUI_STACK_MAX];
    int depth;
    int direct;         /* opened on one file: Esc quits */
    MenuView menu;
    LessonScreen ls;    /* the lesson screen: its view, frame, prompt, bars */
    OverlayView overlay; /* the help's or the text's scroll              */
    CostView *cost;     /* the cost of attention (C), owned; NULL: closed   */
    ModelScreen *models; /* the real models (m), owned; NULL: closed        */
    TrainScreen *train;  /* attn train on the screen, owned; NULL: none     */
    int lesson_of_model; /* the lesson open is a model's head: Esc goes back
                            to the model                                   */
    /* what runs beside the lesson in the same loop (class mode), owned by
     * tui_main; NULL: none */
    struct TuiPlugin *plug;
    /* progress saves: the session's count of notes last shown, and whether
     * any save failed (attn then exits with 1 and says why on stderr) */
    int save_notes_seen;
    int save_failed;
    char save_warning[600];
    int quit;
};

/* tui.c: the blank screen (b; self: none). */
extern const TuiScreen tui_screen_blank;

/* tui_start.c: curses set up for term (leaves with a message when there is
 * no terminal or it cannot place the cursor); on_signal gets every signal
 * that would end the process. */
void tui_start_curses(TuiTerm *term, int no_color, void (*on_signal)(int));
/* The terminal has gone away (hung up, closed, stdin at its end). */
int tui_terminal_gone(void);
/* tui.c: after newterm, before the first frame: put curses in the state
 * in which a frame leaves in one write rather than one per cursor move. */
void tui_curses_running(void);
/* tui.c: a frame of the screen on top (tui_screen.h). */
/* Lay it out (regions, pane geometry, scroll) for the terminal's size. */
void tui_prepare(Tui *t);
/* Draw it, or the "too small" notice. */
void tui_draw(Tui *t);

#endif
