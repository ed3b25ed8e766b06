/*
 * minmax.h - the smaller and the larger of two ints, for the engine and the
 * app alike (one definition instead of a copy per file).
 */
#ifndef ATTN_MINMAX_H
#define ATTN_MINMAX_H

static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int imax(int a, int b) { return a > b ? a : b; }

#endif
