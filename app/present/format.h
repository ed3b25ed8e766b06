/*
 * format.h - columns of numbers, the same on the screen and in `attn run`:
 * how wide a column must be so its numbers line up, and display widths.
 * Each number is written by the engine's one formatter (numfmt.h).
 */
#ifndef ATTN_FORMAT_H
#define ATTN_FORMAT_H

#include <stddef.h>

#include "numfmt.h"

/* The width num_format needs for the widest value of data[0..n-1] (stride
 * 1), so a column of numbers lines up on its decimal point. */
int fmt_width(const float *data, long n, int decimals, int utf8);

/* The same in two parts, so one pass over the numbers serves every count
 * of decimals: what of the numbers decides a column's width (the largest
 * and smallest |v| of each sign, and whether zero, nan or an infinity is
 * among them), gathered over any number of runs; then the width. */
typedef struct {
    double big[2], small[2];    /* [0] positive, [1] negative; -1 / inf: none */
    int zero, nan, inf[2];
} FmtExtremes;
void fmt_extremes_begin(FmtExtremes *e);
void fmt_extremes_add(FmtExtremes *e, const float *data, long n);
int fmt_width_of(const FmtExtremes *e, int decimals, int utf8);
/* The smallest and largest finite value gathered (lo > hi: none was). */
void fmt_extremes_range(const FmtExtremes *e, float *lo, float *hi);

/* The number of display columns of a UTF-8 string (1 per code point). */
int fmt_display_width(const char *s);

#endif
