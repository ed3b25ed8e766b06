/*
 * lesson_src.c - the source text of a lesson: positions as line and column,
 * errors that quote the offending line (every character the list of
 * engine/base/utf8.h names, and every control, shown as a harmless one of
 * the same length, so the line an error carries is safe wherever it is
 * shown), an expression's text as written (for messages), and the checks
 * that refuse text that is not lesson text. How an error is shown on a
 * terminal is app/present/escape.c's.
 */
#include "lesson_tree.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "utf8.h"

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
        if (k > 1 && utf8_control_name(cp)) {
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
        if (utf8_control_refused_in_text(cp))
            return src_error(s, err, ATTN_E_SYNTAX, i, "U+%04X (%s) is not allowed in a lesson", cp,
                             utf8_control_name(cp));
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
