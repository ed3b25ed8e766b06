/*
 * tui_put.h - putting text on the curses screen (tui_put.c). Every string
 * is cleaned of control characters and clipped to its width, so lesson
 * text can never move the cursor or recolour the terminal.
 */
#ifndef ATTN_TUI_PUT_H
#define ATTN_TUI_PUT_H

#include <curses.h>

#include "bigtext.h"
#include "tui_layout.h"

/* Where a screen draws: a curses window and what the terminal can show.
 * Every screen object draws into the Canvas it is given, never straight
 * to stdscr, so a second window (a presenter view) can hold another. */
typedef struct {
    WINDOW *win;
    int utf8;           /* 1 when the locale is UTF-8: glyphs, -∞, box
                           characters; else ASCII */
} Canvas;

/* s, cleaned, at (y, x) in at most w columns, with attribute attr: whole,
 * or cut at a word's end with "…" ("..." without UTF-8) after it, never
 * cut without a mark (trailing blanks aside, and but for a width too
 * narrow to hold the mark). */
void ui_put(const Canvas *cv, int y, int x, int w, int attr, const char *s);
/* The same (an older name, kept where a call says that it may cut). */
void ui_put_fit(const Canvas *cv, int y, int x, int w, int attr, const char *s);

/* Test hook: fn sees every string ui_put is given (cleaned), what it drew
 * and the columns it had; NULL stops it. */
typedef void (*UiPutWatch)(const char *want, const char *drawn, int room, void *ctx);
void ui_put_watch(UiPutWatch fn, void *ctx);
void ui_putf(const Canvas *cv, int y, int x, int w, int attr, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* s right-aligned in w columns (blanks before it take attr too). */
void ui_put_right(const Canvas *cv, int y, int x, int w, int attr, const char *s);
/* text in the block font of size, its rows from (y, x) down, each in at
 * most w columns. */
void ui_put_big(const Canvas *cv, int y, int x, int w, int attr, const char *text, BigSize size);
/* w blanks with attribute attr. */
void ui_fill(const Canvas *cv, int y, int x, int w, int attr);
/* The UTF-8 glyph, or its ASCII stand-in. */
const char *ui_glyph(const Canvas *cv, const char *utf8, const char *ascii);
/* The '\n'-separated lines of text in r (one column of margin each side);
 * when they do not all fit, the last row ends with `more` (if not NULL). */
void ui_lines(const Canvas *cv, const char *text, Rect r, int attr, int more_attr, const char *more);

#endif
