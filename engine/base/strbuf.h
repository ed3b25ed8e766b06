/*
 * strbuf.h - the one growing string of attn, engine and app alike: printf
 * appends and byte appends that grow the buffer through the engine's
 * allocator. A failed allocation is remembered, not reported at each call:
 * later appends do nothing and strbuf_take gives NULL, so a writer checks
 * once, at the end.
 *
 * Ownership: the StrBuf owns s until strbuf_take hands it over (free() it)
 * or strbuf_free releases it. A zeroed StrBuf is an empty one.
 */
#ifndef ATTN_STRBUF_H
#define ATTN_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct {
    char *s;            /* NUL-terminated once anything was added           */
    size_t len, cap;
    int failed;         /* an allocation failed: the text is incomplete    */
} StrBuf;

void strbuf_vadd(StrBuf *b, const char *fmt, va_list ap);
void strbuf_add(StrBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append the n bytes at s (which need not be NUL-terminated). */
void strbuf_put(StrBuf *b, const char *s, size_t n);
/* The text (an empty string when nothing was added), now the caller's; NULL
 * when an append failed or the empty string cannot be allocated. b is
 * empty again either way. */
char *strbuf_take(StrBuf *b);
void strbuf_free(StrBuf *b);

/* s for quoting in a message: whole when it has at most max bytes, else
 * its first max bytes (back to a UTF-8 character's start) and "...", so a
 * quote is never cut without a mark. Into buf; returns buf. */
const char *str_clip(char *buf, size_t size, const char *s, size_t max);

#endif
