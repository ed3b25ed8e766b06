/*
 * heat.c - the one heat scale (see heat.h).
 */
#include "heat.h"

#include <math.h>
#include <stdio.h>

#include "numfmt.h"
#include "ramp.h"

HeatScale heat_scale(const Mat *m)
{
    float lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < m->rows; i++)
        for (int j = 0; j < m->cols; j++) {
            float x = mat_get(m, i, j);
            if (!isfinite(x))
                continue;
            lo = x < lo ? x : lo;
            hi = x > hi ? x : hi;
        }
    return heat_scale_of_range(lo, hi);
}

HeatScale heat_scale_of_range(float lo, float hi)
{
    HeatScale h = { 0, 0, 1 };
    if (lo > hi)
        lo = hi = 0;
    if (lo >= 0 && hi <= 1)
        return h;                       /* weights: 0..1 */
    if (lo >= 0) {
        h.hi = hi;
        return h;
    }
    h.diverging = 1;
    h.hi = fmaxf(fabsf(lo), fabsf(hi));
    h.lo = -h.hi;
    return h;
}

float heat_position(const HeatScale *h, float x)
{
    if (h->diverging)
        return h->hi > 0 ? x / h->hi : 0;
    return h->hi > h->lo ? (x - h->lo) / (h->hi - h->lo) : 0;
}

Rgb heat_rgb(const HeatScale *h, float x)
{
    float t = heat_position(h, x);
    return h->diverging ? ramp_diverging(t) : ramp_sequential(t);
}

const char *heat_shade(const HeatScale *h, float x, int utf8)
{
    if (!isfinite(x))
        return " ";
    float t = heat_position(h, x);
    return h->diverging ? ramp_shade_signed(t, utf8) : ramp_shade(t, utf8);
}

void heat_legend(const HeatScale *h, char *buf, size_t size, int decimals)
{
    char lo[48], hi[48];
    num_format(lo, sizeof lo, h->lo, decimals, 0);
    num_format(hi, sizeof hi, h->hi, decimals, 0);
    char ramp[RAMP_SHADE_LEVELS + 1];     /* the shades, light to dark */
    for (int k = 0; k < RAMP_SHADE_LEVELS; k++)
        ramp[k] = ramp_shade(((float)k + 0.5f) / RAMP_SHADE_LEVELS, 0)[0];
    ramp[RAMP_SHADE_LEVELS] = '\0';
    char light = ramp[0], dark = ramp[RAMP_SHADE_LEVELS - 1];
    if (h->diverging)
        snprintf(buf, size, "shades '%s' by size: '%c' is 0, '%c' is -%s or %s", ramp, light, dark, hi, hi);
    else
        snprintf(buf, size, "shades '%s': '%c' is %s, '%c' is %s", ramp, light, lo, dark, hi);
}
