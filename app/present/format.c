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

int fmt_width(const float *data, long n, int decimals, int utf8)
{
    /* Printing every value decided it, 60 ms for 512 x 512 on the screen.
     * num_format's width only grows with |v| where it writes digits
     * (%.*f: rounding up can add a digit, never take one), and only
     * shrinks with |v| where it writes an exponent (the tiny values: a
     * smaller one has as many exponent digits or more). So the widest is
     * among: the largest |v| of each sign in the first regime, the
     * smallest of each sign in the second, zero, nan and the infinities. */
    int d = decimals < 0 ? 0 : decimals > NUM_DECIMALS_MAX ? NUM_DECIMALS_MAX : decimals;
    double tiny = 0.5 * pow(10.0, -d);      /* num_format's own bound */
    double big[2] = { -1.0, -1.0 }, small[2] = { INFINITY, INFINITY };
    int zero = 0, nan_seen = 0, inf_seen[2] = { 0, 0 };
    for (long i = 0; i < n; i++) {
        double v = data[i], a = fabs(v);
        int neg = v < 0;
        if (isnan(v))
            nan_seen = 1;
        else if (isinf(v))
            inf_seen[neg] = 1;
        else if (v == 0)
            zero = 1;
        else if (a < tiny)
            small[neg] = a < small[neg] ? a : small[neg];
        else
            big[neg] = a > big[neg] ? a : big[neg];
    }
    int widest = 1;
    for (int neg = 0; neg < 2; neg++) {
        double sign = neg ? -1.0 : 1.0;
        int w = 0;
        if (big[neg] >= 0)
            w = width_of(sign * big[neg], decimals, utf8);
        if (small[neg] < INFINITY && width_of(sign * small[neg], decimals, utf8) > w)
            w = width_of(sign * small[neg], decimals, utf8);
        if (inf_seen[neg] && width_of(sign * INFINITY, decimals, utf8) > w)
            w = width_of(sign * INFINITY, decimals, utf8);
        widest = w > widest ? w : widest;
    }
    if (zero && width_of(0.0, decimals, utf8) > widest)
        widest = width_of(0.0, decimals, utf8);
    if (nan_seen && width_of(NAN, decimals, utf8) > widest)
        widest = width_of(NAN, decimals, utf8);
    return widest;
}
