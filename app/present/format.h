/*
 * format.h - numbers as text, the same way on the screen and in `attn run`:
 * fixed decimals, "-inf"/"inf"/"nan" for non-finite values (or -∞ and ∞
 * where the output is UTF-8).
 */
#ifndef ATTN_FORMAT_H
#define ATTN_FORMAT_H

#include <stddef.h>

/* Write v with `decimals` digits after the point into buf; returns the
 * length written (as snprintf). Negative zero prints as 0. */
int fmt_value(char *buf, size_t size, float v, int decimals, int utf8);

/* The width fmt_value needs for the widest value of data[0..n-1] (stride
 * 1), so a column of numbers lines up on its decimal point. */
int fmt_width(const float *data, long n, int decimals, int utf8);

/* The number of display columns of a UTF-8 string (1 per code point). */
int fmt_display_width(const char *s);

#endif
