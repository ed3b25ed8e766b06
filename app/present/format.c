/*
 * format.c - column widths and display widths (see format.h).
 */
#include "format.h"

#include <math.h>
#include <stdio.h>

int fmt_display_width(const char *s)
{
    int w = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            w++;
    return w;
}

/* The display width num_format gives v. */
static int width_of(double v, int decimals, int utf8)
{
    char buf[64];
    num_format(buf, sizeof buf, v, decimals, utf8);
    return fmt_display_width(buf);
}

void fmt_extremes_begin(FmtExtremes *e)
{
    e->big[0] = e->big[1] = -1.0;
    e->small[0] = e->small[1] = INFINITY;
    e->zero = e->nan = e->inf[0] = e->inf[1] = 0;
}

void fmt_extremes_add(FmtExtremes *e, const float *data, long n)
{
    /* without a branch on the sign (scores have random signs: every other
     * number was a misprediction) and with the extremes in locals (through
     * e->big[neg] every number waited on the one before): the largest and
     * smallest finite value, and the smallest of each sign's magnitudes */
    float hi = -INFINITY, lo = INFINITY, small_pos = INFINITY, small_neg = INFINITY;
    int odd = 0;    /* a 0, nan or infinity seen: sorted out below */
    for (long i = 0; i < n; i++) {
        float v = data[i], a = fabsf(v);
        int finite = a < INFINITY;
        odd |= !(a > 0.0f) | !finite;
        v = finite ? v : 0.0f;
        hi = v > hi ? v : hi;
        lo = v < lo ? v : lo;
        float pos = v > 0.0f ? v : INFINITY, neg = v < 0.0f ? -v : INFINITY;
        small_pos = pos < small_pos ? pos : small_pos;
        small_neg = neg < small_neg ? neg : small_neg;
    }
    for (long i = 0; odd && i < n; i++) {
        float v = data[i];
        if (isnan(v))
            e->nan = 1;
        else if (isinf(v))
            e->inf[v < 0] = 1;
        else if (v == 0)
            e->zero = 1;
    }
    /* a 0 stood in for each nan and infinity above: only a sign's own
     * numbers count for it */
    if (hi > 0)
        e->big[0] = fmax(e->big[0], hi);
    if (lo < 0)
        e->big[1] = fmax(e->big[1], -lo);
    e->small[0] = fmin(e->small[0], small_pos);
    e->small[1] = fmin(e->small[1], small_neg);
}

void fmt_extremes_range(const FmtExtremes *e, float *lo, float *hi)
{
    *lo = e->big[1] > 0 ? (float)-e->big[1] : e->zero ? 0.0f : e->small[0] < INFINITY ? (float)e->small[0] : INFINITY;
    *hi = e->big[0] > 0 ? (float)e->big[0] : e->zero ? 0.0f : e->small[1] < INFINITY ? (float)-e->small[1] : -INFINITY;
}

int fmt_width_of(const FmtExtremes *e, int decimals, int utf8)
{
    /* num_format's width only grows with |v| where it writes digits
     * (%.*f: rounding up can add a digit, never take one), and only
     * shrinks with |v| where it writes an exponent (the tiny values: a
     * smaller one has as many exponent digits or more). So the widest is
     * among: the largest |v| of each sign if it is written in digits, the
     * smallest if it is written with an exponent, zero, nan, the
     * infinities. */
    int d = decimals < 0 ? 0 : decimals > NUM_DECIMALS_MAX ? NUM_DECIMALS_MAX : decimals;
    double tiny = 0.5 * pow(10.0, -d);      /* num_format's own bound */
    int widest = 1;
    for (int neg = 0; neg < 2; neg++) {
        double sign = neg ? -1.0 : 1.0;
        double cand[3] = { e->big[neg] >= tiny ? e->big[neg] : NAN, e->small[neg] < tiny ? e->small[neg] : NAN,
                           e->inf[neg] ? INFINITY : NAN };
        for (int k = 0; k < 3; k++)
            if (!isnan(cand[k]) && width_of(sign * cand[k], decimals, utf8) > widest)
                widest = width_of(sign * cand[k], decimals, utf8);
    }
    if (e->zero && width_of(0.0, decimals, utf8) > widest)
        widest = width_of(0.0, decimals, utf8);
    if (e->nan && width_of(NAN, decimals, utf8) > widest)
        widest = width_of(NAN, decimals, utf8);
    return widest;
}

int fmt_width(const float *data, long n, int decimals, int utf8)
{
    /* printing every value decided it: 60 ms for 512 x 512 on the screen */
    FmtExtremes e;
    fmt_extremes_begin(&e);
    fmt_extremes_add(&e, data, n);
    return fmt_width_of(&e, decimals, utf8);
}
