/*
 * tui_term.h - the terminal as every screen shares it, and the only thing
 * they share (TuiTerm): the canvas drawn on, its size, its palette (the
 * semantic colours and the heat scale's pairs, tui_colors.c), whether the
 * last frame fitted, the one-line message in the key bar (tui_term.c) and
 * a failure to say again when the screen ends.
 * A screen's functions take the terminal and their own state, nothing
 * else (tui_screen.h).
 *
 * Ownership: the main loop owns the one TuiTerm; the canvas's window is
 * curses' (stdscr), or none in the layout tests.
 */
#ifndef ATTN_TUI_TERM_H
#define ATTN_TUI_TERM_H

#include "tui_colors.h"
#include "tui_put.h"

typedef struct TuiTerm {
    Canvas cv;          /* where the screen draws (stdscr in the main loop) */
    int utf8;
    ColorMode color;
    int attr[C_COUNT];
    int heat_seq[HEAT_SEQ_LEVELS];
    int heat_div[2 * HEAT_DIV_HALF + 1];
    /* the heat pairs are [heat_first, heat_first + heat_n); each has a
     * twin heat_fill pairs on with the same background and the terminal's
     * own foreground, for the blank rows of a tall cell (tui_heat_fill) */
    int heat_first, heat_n, heat_fill;
    int heat_inf_fill;  /* the same for the colour of -inf */
    /* two pixels a cell (tui_pixels.c): the pair of each upper and lower
     * level of the sequential ramp, 0 where the terminal has too few pairs */
    int half[HALF_LEVELS * HALF_LEVELS];
    int rows, cols;
    unsigned frame_no;  /* frames laid out so far (tui_prepare)            */
    int layout_ok;      /* the frame laid out fits the terminal            */
    /* a one-line message in the key bar until the next key */
    char message[512];
    int message_error;
    int message_brief;  /* goes by itself after a few seconds too */
    /* a failure said in the message line when it happens and again on
     * stderr when the screen ends, attn then exiting with 1 (a save of
     * progress that failed: the last one kept); "": none */
    char exit_note[600];
} TuiTerm;

/* A one-line message in the key bar until the next key. */
void tui_message(TuiTerm *term, int error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Curses is running (tui.c, after newterm): leave it at exit. */
void tui_curses_began(void);
/* Leave curses if it is running. */
void tui_curses_end(void);
/* Leave curses, print msg to stderr and exit(2): the fatal error path. */
void tui_fatal(const char *msg) __attribute__((noreturn));

#endif
