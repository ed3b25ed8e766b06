/*
 * numfmt.h - the one way attn writes a number, on the screen, in handouts
 * and in explanations: fixed decimals; never "-0.0000"; a value too small
 * for the decimals but not zero in short scientific notation ("6.1e-6"), so
 * it is never mistaken for zero; "inf", "-inf", "nan" (or ∞ and -∞ where
 * the output is UTF-8). Pure: writes into a buffer.
 */
#ifndef ATTN_NUMFMT_H
#define ATTN_NUMFMT_H

#include <stddef.h>

/* The decimals shown unless the user asks for more or fewer. */
#define NUM_DECIMALS_DEFAULT 4
#define NUM_DECIMALS_MAX 9

/* Write v into buf; returns the length written (as snprintf). decimals is
 * clamped to 0..NUM_DECIMALS_MAX. */
int num_format(char *buf, size_t size, double v, int decimals, int utf8);

/* v in the fewest significant digits that read back (strtod) as the very
 * same double: 0.5, 2147483648, 0.073663376271724701, 6.144e-6; "inf",
 * "-inf", "nan" as num_format writes them. For JSON and every file a
 * program reads back. Returns the length written (as snprintf). */
int num_shortest(char *buf, size_t size, double v);

/* The decimals an answer judged within tol needs (1e-3: 3, 5e-7: 7), and
 * at least `least`: so a confirmed answer shows the digits that were
 * checked. Within NUM_DECIMALS_MAX. */
int num_decimals_for(double tol, int least);

/* Does v, read as a decimal, become a finite float32 once rounded? The one
 * rule for numbers attn reads, in a lesson, a CSV or a .npy file:
 * 3.40282347e+38 (FLT_MAX as attn's JSON writes it) yes, 1e39 and 1e400
 * no, NaN no. */
int num_fits_float(double v);

/* The one way attn reads a number a person gave as an option: s whole (no
 * trailing text), a whole number in [lo, hi] (4294967304 for an int is
 * refused, never wrapped to 8), or a real number in [lo, hi] (NaN and
 * inf refused). 0 with *out, or -1. */
int num_parse_whole(const char *s, long lo, long hi, long *out);
int num_parse_real(const char *s, double lo, double hi, double *out);

#endif
