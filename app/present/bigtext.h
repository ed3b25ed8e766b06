/*
 * bigtext.h - numbers and titles in a block font, for a screen read from
 * the back of a room (digits, . - + e ? /, the letters, drawn as capitals,
 * and a title's punctuation): each character a 3x5 grid of pixels (1 or 2
 * wide for '.' and its like), drawn with
 * half blocks in 3 rows (UTF-8) or with a pair of full blocks per pixel in
 * 5 rows ("##" without UTF-8). Pure text, no curses: the caller puts the
 * rows where it likes.
 */
#ifndef ATTN_BIGTEXT_H
#define ATTN_BIGTEXT_H

#include <stddef.h>

typedef enum {
    BIG_NONE,   /* plain text                                   */
    BIG_HALF,   /* 3 rows, a pixel a half block (UTF-8 only)    */
    BIG_FULL,   /* 5 rows, a pixel two full blocks              */
} BigSize;

#define BIG_MAX_ROWS 5

/* The rows a size takes (1 for BIG_NONE). */
int big_rows(BigSize size);
/* The columns text takes in that size, or -1 when a character of it has
 * no glyph (the caller shows it as plain text). */
int big_width(const char *text, BigSize size);
/* Row k (0-based, below big_rows) of text in that size, into out
 * (UTF-8 or ASCII as utf8 says); returns out. A character with no glyph
 * makes the row empty. */
const char *big_row(const char *text, BigSize size, int k, int utf8, char *out, size_t out_size);
/* The largest size in which text fits w columns and h rows (BIG_HALF
 * only with UTF-8). */
BigSize big_fit(const char *text, int w, int h, int utf8);

#endif
