/*
 * explain_text.c - the growing text an explanation is written into: printf
 * appends that grow the buffer (a failure is remembered, not reported on
 * each call) and numbers in the one format explanations use.
 */
#include "alloc.h"
#include "explain.h"
#include "explain_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void text_vadd(Text *t, const char *fmt, va_list ap)
{
    if (t->failed)
        return;
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, again);
    va_end(again);
    if (n < 0) {
        t->failed = 1;
        return;
    }
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 128;
        while (cap < t->len + (size_t)n + 1)
            cap *= 2;
        char *s = attn_realloc(t->s, cap);
        if (!s) {
            t->failed = 1;
            return;
        }
        t->s = s;
        t->cap = cap;
    }
    vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    t->len += (size_t)n;
}

void text_add(Text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    text_vadd(t, fmt, ap);
    va_end(ap);
}

/* A number as the explanations print it: the one formatter, in ASCII. */
const char *fmt_num(char *buf, size_t size, double v, int decimals)
{
    num_format(buf, size, v, decimals, 0);
    return buf;
}

void text_num(Text *t, double v)
{
    char buf[48];
    text_add(t, "%s", fmt_num(buf, sizeof buf, v, t->decimals));
}

/* A number inside a product or sum: negatives in parentheses. */
void text_term(Text *t, double v)
{
    char buf[48];
    fmt_num(buf, sizeof buf, v, t->decimals);
    text_add(t, v < 0 ? "(%s)" : "%s", buf);
}
