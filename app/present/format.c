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
    for (long i = 0; i < n; i++) {
        double v = data[i], a = fabs(v);
        int neg = v < 0;
        if (isnan(v))
            e->nan = 1;
        else if (isinf(v))
            e->inf[neg] = 1;
        else if (v == 0)
            e->zero = 1;
        else {
            e->big[neg] = a > e->big[neg] ? a : e->big[neg];
            e->small[neg] = a < e->small[neg] ? a : e->small[neg];
        }
    }
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
