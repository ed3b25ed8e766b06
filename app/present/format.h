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

/* The number of display columns of a UTF-8 string (1 per code point). */
int fmt_display_width(const char *s);

#endif
