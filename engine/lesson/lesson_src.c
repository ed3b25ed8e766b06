/*
 * lesson_src.c - the source text of a lesson: positions as line and column,
 * errors that quote the offending line, an expression's text as written
 * (for messages), the checks that refuse text that is not lesson text, and
 * the formatted error a person reads.
 */
#include "lesson_tree.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void src_linecol(const Src *s, size_t pos, int *line, int *col)
{
    int ln = 1;
    size_t start = 0;
    if (pos > s->len)
        pos = s->len;
    for (size_t i = 0; i < pos; i++)
        if (s->text[i] == '\n') {
            ln++;
            start = i + 1;
        }
    *line = ln;
    *col = (int)(pos - start) + 1;
}

/* The length of the UTF-8 sequence at p (at most n bytes), 0 if invalid;
 * its code point in *cp. */
static size_t utf8_decode(const unsigned char *p, size_t n, unsigned *cp_out)
{
    unsigned char c = p[0];
    size_t len;
    unsigned min;
    unsigned cp;
    *cp_out = c;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) { len = 2; cp = c & 0x1F; min = 0x80; }
    else if (c >= 0xE0 && c <= 0xEF) { len = 3; cp = c & 0x0F; min = 0x800; }
    else if (c >= 0xF0 && c <= 0xF4) { len = 4; cp = c & 0x07; min = 0x10000; }
    else
        return 0;
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    *cp_out = cp;
    return len;
}

/* The name of a code point that is valid UTF-8 but may not be in a lesson
 * (a terminal or a bidi algorithm would act on it), or NULL. */
static const char *refused_codepoint(unsigned cp)
{
    static const char *const bidi[] = {
        "left-to-right embedding", "right-to-left embedding", "pop directional formatting",
        "left-to-right override", "right-to-left override",
    };
    static const char *const isolates[] = {
        "left-to-right isolate", "right-to-left isolate", "first strong isolate", "pop directional isolate",
    };
    if (cp == 0x9B)
        return "control sequence introducer, a C1 control character";
    if (cp >= 0x80 && cp <= 0x9F)
        return "a C1 control character";
    if (cp >= 0x202A && cp <= 0x202E)
        return bidi[cp - 0x202A];
    if (cp >= 0x2066 && cp <= 0x2069)
        return isolates[cp - 0x2066];
    return NULL;
}

/* 1 when the character at t[0..n) (of length *len) is one a terminal may
 * act on: C0 but tab, DEL, invalid UTF-8, C1, bidi controls. */
static int char_unsafe(const unsigned char *t, size_t n, size_t *len)
{
    unsigned cp;
    size_t k = utf8_decode(t, n, &cp);
    *len = k ? k : 1;
    if (k == 0)
        return 1;
    if (k == 1)
        return (cp < 0x20 && cp != '\t') || cp == 0x7f;
    return refused_codepoint(cp) != NULL;
}

/* The one escaping of text for a terminal; doubled: a backslash as \\ too,
 * so an escaped name reads back unambiguously. */
static const char *escape(const char *s, char *buf, size_t size, int doubled)
{
    if (!buf || size == 0)
        return buf;
    static const char hex[] = "0123456789abcdef";
    size_t n = 0, len = strlen(s);
    const unsigned char *t = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        size_t k;
        int bad = char_unsafe(t + i, len - i, &k) || t[i] == '\t';
        if (!bad && (t[i] != '\\' || !doubled)) {
            if (n + k >= size)
                break;
            memcpy(buf + n, s + i, k);
            n += k;
            i += k;
            continue;
        }
        if (n + (bad ? 4 * k : 2) >= size)
            break;
        if (!bad) {
            buf[n++] = '\\';
            buf[n++] = '\\';
            i++;
            continue;
        }
        for (size_t j = 0; j < k; j++, i++) {
            buf[n++] = '\\';
            buf[n++] = 'x';
            buf[n++] = hex[t[i] >> 4];
            buf[n++] = hex[t[i] & 15];
        }
    }
    buf[n] = '\0';
    return buf;
}

const char *lesson_escape(const char *s, char *buf, size_t size) { return escape(s, buf, size, 1); }

const char *lesson_escape_text(const char *s, char *buf, size_t size) { return escape(s, buf, size, 0); }

/* Shown of a line too long for LessonError.source_line: this many bytes,
 * about a third of them before the column. */
#define WINDOW_BYTES 200
#define WINDOW_BEFORE 70

/* Copy text[from..to) into out as it can be shown (see LessonError): every
 * byte stays one byte, so offsets into the line are offsets into out; a
 * refused character is shown as a harmless one of the same length. */
static size_t copy_shown(char *out, const char *text, size_t from, size_t to)
{
    size_t n = 0;
    for (size_t i = from; i < to;) {
        unsigned char c = (unsigned char)text[i];
        unsigned cp;
        size_t k = utf8_decode((const unsigned char *)text + i, to - i, &cp);
        if (k > 1 && refused_codepoint(cp)) {
            /* shown as a stand-in of the same length: U+00BF or U+FFFD */
            memcpy(out + n, k == 2 ? "\xc2\xbf" : "\xef\xbf\xbd", k);
            n += k;
            i += k;
            continue;
        }
        if (k > 1) {
            memcpy(out + n, text + i, k);
            n += k;
            i += k;
            continue;
        }
        out[n++] = k == 0 ? '?' : (c < 0x20 || c == 0x7f) ? ' ' : (char)c;
        i++;
    }
    return n;
}

/* The first byte at or after i (and before end) that starts a character. */
static size_t char_start(const char *text, size_t i, size_t end)
{
    while (i < end && ((unsigned char)text[i] & 0xC0) == 0x80)
        i++;
    return i;
}

int src_verror(const Src *s, LessonError *err, attn_status code, size_t pos, const char *fmt, va_list ap)
{
    if (!err)
        return -1;
    memset(err, 0, sizeof *err);
    err->code = code;
    snprintf(err->file, sizeof err->file, "%s", s->file ? s->file : "<lesson>");
    src_linecol(s, pos, &err->line, &err->col);
    if (pos > s->len)
        pos = s->len;
    size_t start = pos, end = pos;
    while (start > 0 && s->text[start - 1] != '\n')
        start--;
    while (end < s->len && s->text[end] != '\n')
        end++;
    if (end > start && s->text[end - 1] == '\r')
        end--;
    if (end - start < sizeof err->source_line) {
        err->source_line[copy_shown(err->source_line, s->text, start, end)] = '\0';
    } else {
        /* a window around the column, on character boundaries */
        size_t from = pos - start > WINDOW_BEFORE ? pos - WINDOW_BEFORE : start;
        if (end - from < WINDOW_BYTES)
            from = end - WINDOW_BYTES;
        from = char_start(s->text, from, end);
        size_t to = from + WINDOW_BYTES < end ? from + WINDOW_BYTES : end;
        while (to < end && to > from && ((unsigned char)s->text[to] & 0xC0) == 0x80)
            to--;
        size_t n = 0;
        if (from > start) {
            memcpy(err->source_line, "...", 3);
            n = 3;
        }
        err->source_col = (int)(n + (pos - from)) + 1;
        n += copy_shown(err->source_line + n, s->text, from, to);
        if (to < end) {
            memcpy(err->source_line + n, "...", 3);
            n += 3;
        }
        err->source_line[n] = '\0';
    }
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    return -1;
}

int src_error(const Src *s, LessonError *err, attn_status code, size_t pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    src_verror(s, err, code, pos, fmt, ap);
    va_end(ap);
    return -1;
}

int src_validate(const Src *s, LessonError *err)
{
    const unsigned char *t = (const unsigned char *)s->text;
    size_t line_start = 0;
    for (size_t i = 0; i < s->len;) {
        unsigned char c = t[i];
        if (c == '\n') {
            line_start = ++i;
            continue;
        }
        if (i - line_start >= LESSON_MAX_LINE) {
            size_t end = i;
            while (end < s->len && t[end] != '\n')
                end++;
            return src_error(s, err, ATTN_E_LIMIT, i,
                             "this line is %zu characters long; the limit is %d "
                             "(end a line with '\\' to continue it on the next)",
                             end - line_start, LESSON_MAX_LINE);
        }
        if (c == '\r') {
            if (i + 1 < s->len && t[i + 1] != '\n')
                return src_error(s, err, ATTN_E_SYNTAX, i,
                                 "a carriage return in the middle of a line (only CRLF line ends are allowed)");
            i++;
            continue;
        }
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return src_error(s, err, ATTN_E_SYNTAX, i,
                             "control character 0x%02x is not allowed in a lesson", c);
        unsigned cp;
        size_t n = utf8_decode(t + i, s->len - i, &cp);
        if (n == 0)
            return src_error(s, err, ATTN_E_SYNTAX, i,
                             "byte 0x%02x is not valid UTF-8 (save the lesson as UTF-8)", c);
        const char *name = refused_codepoint(cp);
        if (name)
            return src_error(s, err, ATTN_E_SYNTAX, i, "U+%04X (%s) is not allowed in a lesson", cp, name);
        i += n;
    }
    return 0;
}

size_t src_joint(const char *text, size_t p, size_t end)
{
    if (p >= end || text[p] != '\\')
        return 0;
    if (p + 1 < end && text[p + 1] == '\n')
        return 2;
    if (p + 2 < end && text[p + 1] == '\r' && text[p + 2] == '\n')
        return 3;
    return 0;
}

int lesson_edit_distance(const char *a, size_t na, const char *b, size_t nb)
{
    enum { CAP = 100 };
    if (na > 64 || nb > 64)
        return CAP;
    int prev[65], cur[65];
    for (size_t j = 0; j <= nb; j++)
        prev[j] = (int)j;
    for (size_t i = 1; i <= na; i++) {
        cur[0] = (int)i;
        for (size_t j = 1; j <= nb; j++) {
            int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            int del = prev[j] + 1, ins = cur[j - 1] + 1;
            int best = sub < del ? sub : del;
            cur[j] = best < ins ? best : ins;
        }
        memcpy(prev, cur, sizeof(int) * (nb + 1));
    }
    return prev[nb];
}

/* The code point at s (n bytes left) and its length; a byte that does not
 * start valid UTF-8 counts as one column of its own. */
static unsigned utf8_at(const char *s, size_t n, size_t *len)
{
    const unsigned char *u = (const unsigned char *)s;
    int k = u[0] < 0x80 ? 1 : (u[0] & 0xE0) == 0xC0 ? 2 : (u[0] & 0xF0) == 0xE0 ? 3 : (u[0] & 0xF8) == 0xF0 ? 4 : 1;
    if ((size_t)k > n)
        k = 1;
    unsigned cp = k == 1 ? u[0] : u[0] & (0x7F >> k);
    for (int i = 1; i < k; i++) {
        if ((u[i] & 0xC0) != 0x80) {
            *len = 1;
            return u[0];
        }
        cp = cp << 6 | (u[i] & 0x3F);
    }
    *len = (size_t)k;
    return cp;
}

/* Does a terminal give cp two columns (East Asian wide and full-width,
 * emoji)? So a caret stands under its character after them. */
static int wide_char(unsigned cp)
{
    return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF && cp != 0x303F)
           || (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F)
           || (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F)
           || (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD);
}

const char *lesson_error_format(const LessonError *e, char *buf, size_t size)
{
    if (!buf || size == 0)
        return buf;
    /* the file name is whatever the user gave, and the message may quote a
     * data file's bytes: both shown escaped, so nothing in them reaches a
     * terminal as a control */
    char file[sizeof e->file * 4], msg[sizeof e->msg * 4];
    lesson_escape(e->file, file, sizeof file);
    lesson_escape_text(e->msg, msg, sizeof msg);
    if (e->line <= 0) {
        snprintf(buf, size, "%s: error: %s\n", file, msg);
        return buf;
    }
    /* the caret goes under the character at col (bytes; in a window of a
     * long line, at source_col), in display columns */
    char caret[sizeof e->source_line + 2];
    size_t w = 0, bytes = (size_t)((e->source_col > 0 ? e->source_col : e->col) - 1);
    size_t shown = strlen(e->source_line);
    if (bytes > shown)
        bytes = shown;
    for (size_t i = 0; i < bytes && w + 3 < sizeof caret;) {
        size_t len;
        unsigned cp = utf8_at(e->source_line + i, bytes - i, &len);
        for (int k = wide_char(cp) ? 2 : 1; k > 0; k--)
            caret[w++] = ' ';
        i += len;
    }
    caret[w++] = '^';
    caret[w] = '\0';
    snprintf(buf, size, "%s:%d:%d: error: %s\n%s\n%s\n", file, e->line, e->col, msg, e->source_line, caret);
    return buf;
}

/* An expression as written, blanks and comments squeezed, cut to 40
 * characters with "...". */
const char *expr_text(const Src *s, const Expr *e, char *buf, size_t size)
{
    size_t n = 0, max = size > 44 ? 40 : size - 4;
    int blank = 0;
    for (size_t i = e->start; i < e->end && i < s->len; i++) {
        char c = s->text[i];
        if (c == '\n' || c == '\t' || c == ' ' || c == '\r') {
            blank = 1;
            continue;
        }
        if (c == '#') {
            while (i < e->end && s->text[i] != '\n')
                i++;
            blank = 1;
            continue;
        }
        if (n >= max) {
            memcpy(buf + n, "...", 3);
            n += 3;
            break;
        }
        if (blank && n > 0 && n < max)
            buf[n++] = ' ';
        blank = 0;
        buf[n++] = c;
    }
    buf[n] = '\0';
    return buf;
}
