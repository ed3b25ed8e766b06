/*
 * strbuf.c - the growing string (see strbuf.h).
 */
#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/* Room for need more bytes and the NUL; 0 (and b->failed) when there is none. */
static int reserve(StrBuf *b, size_t need)
{
    if (b->failed)
        return 0;
    if (need > (size_t)-1 / 2 - b->len) {
        b->failed = 1;
        return 0;
    }
    if (b->len + need + 1 <= b->cap)
        return 1;
    size_t cap = b->cap ? b->cap : 128;
    while (cap < b->len + need + 1)
        cap *= 2;
    char *s = attn_realloc(b->s, cap);
    if (!s) {
        b->failed = 1;
        return 0;
    }
    b->s = s;
    b->cap = cap;
    return 1;
}

void strbuf_vadd(StrBuf *b, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, again);
    va_end(again);
    if (n < 0) {
        b->failed = 1;
        return;
    }
    if (!reserve(b, (size_t)n))
        return;
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    b->len += (size_t)n;
}

void strbuf_add(StrBuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    strbuf_vadd(b, fmt, ap);
    va_end(ap);
}

void strbuf_put(StrBuf *b, const char *s, size_t n)
{
    if (!reserve(b, n))
        return;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

char *strbuf_take(StrBuf *b)
{
    if (!b->failed && !b->s)
        strbuf_put(b, "", 0);
    char *s = b->failed ? NULL : b->s;
    if (!s)
        free(b->s);
    *b = (StrBuf){ 0 };
    return s;
}

void strbuf_free(StrBuf *b)
{
    free(b->s);
    *b = (StrBuf){ 0 };
}

const char *str_clip(char *buf, size_t size, const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n <= max) {
        snprintf(buf, size, "%s", s);
        return buf;
    }
    while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
        max--;      /* not inside a character */
    snprintf(buf, size, "%.*s...", (int)max, s);
    return buf;
}
