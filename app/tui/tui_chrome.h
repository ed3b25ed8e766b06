/*
 * tui_chrome.h - what every screen shares and no screen owns (tui_chrome.c):
 * the stack of screens, the one-line message, the key bar, the "too small"
 * notice, and the fatal exit that leaves curses first.
 */
#ifndef ATTN_TUI_CHROME_H
#define ATTN_TUI_CHROME_H

#include "tui_keys.h"
#include "tui_layout.h"

typedef struct Tui Tui;
struct TuiScreen;

/* The screen on top: the one that takes the keys and draws the frame. */
const struct TuiScreen *tui_screen(const Tui *t);
/* The screen at the bottom of the stack: the menu or the lesson. */
void tui_set_base(Tui *t, const struct TuiScreen *s);
int tui_on_base(const Tui *t, const struct TuiScreen *s);
/* Put s on top (nothing when it is there already); take s off wherever it
 * is above the base (nothing when it is not on the stack). */
void tui_push(Tui *t, const struct TuiScreen *s);
void tui_pop(Tui *t, const struct TuiScreen *s);

/* A one-line message in the key bar until the next key. */
void tui_message(Tui *t, int error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A presenter on a projector (PROJECTOR_COLS x PROJECTOR_ROWS or more):
 * the knobs, the panes' names and labels in the block font too. The one
 * test of it. */
int tui_on_projector(const Tui *t);

/* What a screen asks of the key bar. */
typedef struct {
    int where;          /* KEYS_MENU or KEYS_LESSON: whose keys            */
    Rect rect;          /* where (w 0: the terminal's last row)            */
    int has_exercise;   /* hint and answer apply                           */
    int scrolls;        /* overview applies                                */
    int quiet;          /* presenter mode: no keys on the class's screen   */
    const char *alert;  /* shown in place of the keys (NULL: none)          */
    const char *answer_label; /* a's word (NULL: "answer")                  */
} KeyBarWant;

/* The prompt as it is typed, else the message, else want->alert, else the
 * screen's keys (read from the key table), help and quit at the right. */
void tui_keybar_draw(const Tui *t, const KeyBarWant *want);
/* The terminal is below TUI_MIN_COLS x TUI_MIN_ROWS: say so. */
void tui_draw_too_small(const Tui *t);
/* The layout of a screen that only needs that much: t->layout_ok says
 * whether the terminal has it (a screen object's prepare). */
void tui_prepare_min_size(Tui *t);

/* Curses is running (tui.c, after newterm): leave it at exit. */
void tui_curses_began(void);
/* Leave curses if it is running. */
void tui_curses_end(void);
/* Leave curses, print msg to stderr and exit(2): the fatal error path. */
void tui_fatal(const char *msg) __attribute__((noreturn));

#endif
