/*
 * format.c - number formatting shared by the screen and the CLI.
 */
#include "format.h"

#include <math.h>
#include <stdio.h>

int fmt_value(char *buf, size_t size, float v, int decimals, int utf8)
{
    if (isnan(v))
        return snprintf(buf, size, "nan");
    if (isinf(v))
        return snprintf(buf, size, "%s", v > 0 ? (utf8 ? "∞" : "inf") : (utf8 ? "-∞" : "-inf"));
    if (decimals < 0)
        decimals = 0;
    if (decimals > 9)
        decimals = 9;
    double x = v;
    /* a value that rounds to zero prints without a sign */
    if (fabs(x) < 0.5 * pow(10.0, -decimals))
        x = 0.0;
    return snprintf(buf, size, "%.*f", decimals, x);
}

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
        fmt_value(buf, sizeof buf, data[i], decimals, utf8);
        int w = fmt_display_width(buf);
        if (w > widest)
            widest = w;
    }
    return widest;
}
