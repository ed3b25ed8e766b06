/*
 * heat.h - the one heat scale, shared by the screen's heatmaps and the
 * handout's shaded rows, so paper and screen read alike. One scale per kind
 * of matrix: weights (every value in [0, 1]) on a fixed 0..1 scale, other
 * non-negative values on 0..max, signed values (scores) on a symmetric
 * -max|v|..max|v| scale. Infinities and NaN stay off the scale. Pure.
 */
#ifndef ATTN_HEAT_H
#define ATTN_HEAT_H

#include "mat.h"
#include "ramp.h"

/* The decimals of a heatmap's colour bar's ends, on the screen and in an
 * SVG. */
#define HEAT_LEGEND_DECIMALS 2

typedef struct {
    int diverging;      /* signed: -hi..hi, shaded by size               */
    float lo, hi;       /* sequential: lo..hi                            */
} HeatScale;

/* The scale of m's finite values. */
HeatScale heat_scale(const Mat *m);

/* The scale of finite values from lo to hi (lo > hi: there are none), for
 * a caller that has them already (the screen, from its one pass). */
HeatScale heat_scale_of_range(float lo, float hi);

/* Where x sits on the scale: t in [0, 1] (sequential) or [-1, 1]
 * (diverging), what the ramps of ramp.h take. */
float heat_position(const HeatScale *h, float x);

/* The colour of x on the scale: the ramps of ramp.h (viridis for
 * sequential values, blue-white-red for signed ones), unquantised. */
Rgb heat_rgb(const HeatScale *h, float x);

/* The shade of x (one of ramp_shade's five: blocks, or " .:#@" in ASCII);
 * a blank for a value off the scale (infinite or NaN). */
const char *heat_shade(const HeatScale *h, float x, int utf8);

/* One line saying what the shades stand for, for a printed heatmap:
 * "shades ' .:#@': ' ' is 0.0000, '@' is 1.0000", or for signed values
 * "shades ' .:#@' by size: ' ' is 0, '@' is -0.2853 or 0.2853". */
void heat_legend(const HeatScale *h, char *buf, size_t size, int decimals);

#endif
