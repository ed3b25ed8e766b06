/*
 * numfmt.c - the one number formatter (see numfmt.h).
 */
#include "numfmt.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "6.1e-06" -> "6.1e-6": no '+' and no leading zeros in the exponent. */
static int short_exponent(char *buf)
{
    char *e = strchr(buf, 'e');
    if (!e)
        return (int)strlen(buf);
    char *d = e + 1, *src = e + 1;
    if (*src == '+')
        src++;
    else if (*src == '-')
        *d++ = *src++;
    while (*src == '0' && src[1])
        src++;
    memmove(d, src, strlen(src) + 1);
    return (int)strlen(buf);
}

int num_format(char *buf, size_t size, double v, int decimals, int utf8)
{
    if (isnan(v))
        return snprintf(buf, size, "nan");
    if (isinf(v))
        return snprintf(buf, size, "%s", v > 0 ? (utf8 ? "∞" : "inf") : (utf8 ? "-∞" : "-inf"));
    if (decimals < 0)
        decimals = 0;
    if (decimals > NUM_DECIMALS_MAX)
        decimals = NUM_DECIMALS_MAX;
    if (v == 0)
        return snprintf(buf, size, "%.*f", decimals, 0.0);     /* -0 too */
    if (fabs(v) < 0.5 * pow(10.0, -decimals)) {
        char tmp[32];
        snprintf(tmp, sizeof tmp, "%.1e", v);
        short_exponent(tmp);
        return snprintf(buf, size, "%s", tmp);
    }
    return snprintf(buf, size, "%.*f", decimals, v);
}

int num_shortest(char *buf, size_t size, double v)
{
    if (!isfinite(v))
        return num_format(buf, size, v, 0, 0);
    char tmp[40];
    /* a whole number's digits are written out (10, not 1e1) up to 17 */
    int whole = v != 0 && fabs(v) < 1e17 ? (int)floor(log10(fabs(v))) + 1 : 0;
    for (int p = 1; p <= 17; p++) {
        snprintf(tmp, sizeof tmp, "%.*g", p > whole ? p : whole, v);
        if (strtod(tmp, NULL) == v)
            break;
    }
    short_exponent(tmp);
    return snprintf(buf, size, "%s", tmp);
}

int num_decimals_for(double tol, int least)
{
    int d = least;
    if (tol > 0 && isfinite(tol)) {
        int need = (int)ceil(-log10(tol) - 1e-9);
        if (need > d)
            d = need;
    }
    return d < 0 ? 0 : d > NUM_DECIMALS_MAX ? NUM_DECIMALS_MAX : d;
}

int num_fits_float(double v)
{
    return isfinite(v) && isfinite((float)v);
}

int num_parse_whole(const char *s, long lo, long hi, long *out)
{
    if (!s || !*s || isspace((unsigned char)*s))
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int num_parse_real(const char *s, double lo, double hi, double *out)
{
    if (!s || !*s || isspace((unsigned char)*s))
        return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v) || !(v >= lo && v <= hi))
        return -1;
    *out = v;
    return 0;
}
