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

int fmt_width(const float *data, long n, int decimals, int utf8)
{
    int widest = 1;
    char buf[64];
    for (long i = 0; i < n; i++) {
        num_format(buf, sizeof buf, data[i], decimals, utf8);
        int w = fmt_display_width(buf);
        if (w > widest)
            widest = w;
    }
    return widest;
}
