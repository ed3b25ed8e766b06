/*
 * tui_put.h - putting text on the curses screen (tui_put.c). Every string
 * is cleaned of control characters and clipped to its width, so lesson
 * text can never move the cursor or recolour the terminal.
 */
#ifndef ATTN_TUI_PUT_H
#define ATTN_TUI_PUT_H

#include "tui_layout.h"

/* 1 when the locale is UTF-8: glyphs, -∞, box characters; else ASCII. */
extern int ui_utf8;

/* s, cleaned, at (y, x) in at most w columns, with attribute attr. */
void ui_put(int y, int x, int w, int attr, const char *s);
/* The same, ending in an ellipsis when s had to be cut. */
void ui_put_fit(int y, int x, int w, int attr, const char *s);
void ui_putf(int y, int x, int w, int attr, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* s right-aligned in w columns (blanks before it take attr too). */
void ui_put_right(int y, int x, int w, int attr, const char *s);
/* w blanks with attribute attr. */
void ui_fill(int y, int x, int w, int attr);
/* The UTF-8 glyph, or its ASCII stand-in. */
const char *ui_glyph(const char *utf8, const char *ascii);
/* The '\n'-separated lines of text in r (one column of margin each side);
 * when they do not all fit, the last row ends with `more` (if not NULL). */
void ui_lines(const char *text, Rect r, int attr, int more_attr, const char *more);

#endif
