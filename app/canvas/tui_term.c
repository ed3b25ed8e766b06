/*
 * tui_term.c - the terminal's one-line message, and the way out when
 * something fatal happens, curses left first (tui_term.h).
 */
#include "tui_term.h"

#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void tui_message(TuiTerm *term, int error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(term->message, sizeof term->message, fmt, ap);
    va_end(ap);
    term->message_error = error;
    term->message_brief = 0;
}

/* Whether the terminal is in curses mode, for the atexit and fatal-error
 * paths that must restore it: the process's, not a screen's. */
static int curses_active;

void tui_curses_began(void)
{
    curses_active = 1;
    atexit(tui_curses_end);
}

void tui_curses_end(void)
{
    if (curses_active) {
        curses_active = 0;
        endwin();
    }
}

void tui_fatal(const char *msg)
{
    tui_curses_end();
    fprintf(stderr, "attn: %s\n", msg);
    exit(2);
}
