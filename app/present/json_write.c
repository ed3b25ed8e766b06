/*
 * json_write.c - JSON strings and numbers (json_write.h). Strings are
 * decoded as UTF-8 so that a C1 control, which is two bytes in UTF-8, is
 * escaped like a C0 one and a malformed byte never passes through.
 */
#include "json_write.h"
#include "numfmt.h"
#include "utf8.h"

#include <math.h>
#include <string.h>

void jw_string(FILE *out, const char *s)
{
    if (!s)
        fputs("null", out);
    else
        jw_string_n(out, s, strlen(s));
}

void jw_string_n(FILE *out, const char *s, size_t n)
{
    fputc('"', out);
    const unsigned char *end = (const unsigned char *)s + n;
    for (const unsigned char *p = (const unsigned char *)s; p < end;) {
        unsigned cp;
        size_t len = utf8_decode(p, (size_t)(end - p), &cp);    /* a NUL byte: a character too */
        if (len == 0) {
            fputs("\\ufffd", out);
            p++;
            continue;
        }
        if (cp == '"' || cp == '\\')
            fprintf(out, "\\%c", (char)cp);
        else if (cp == '\n')
            fputs("\\n", out);
        else if (cp == '\r')
            fputs("\\r", out);
        else if (cp == '\t')
            fputs("\\t", out);
        /* the C1 and the bidirectional controls (utf8.h's list: U+202E once
         * reached a terminal through attn model --json), DEL, and the line
         * and paragraph separators JavaScript ends a line at */
        else if (cp < 0x20 || cp == 0x7f || cp == 0x2028 || cp == 0x2029 || utf8_control_name(cp))
            fprintf(out, "\\u%04x", cp);
        else
            fwrite(p, 1, len, out);
        p += len;
    }
    fputc('"', out);
}

void jw_number(FILE *out, double v)
{
    if (isnan(v))
        fputs("\"nan\"", out);
    else if (isinf(v))
        fputs(v > 0 ? "\"inf\"" : "\"-inf\"", out);
    else {
        char buf[40];
        num_shortest(buf, sizeof buf, v);
        fputs(buf, out);
    }
}

/* ---- documents ------------------------------------------------------------ */

/* The comma, the break or the blank, and the key before an item at the
 * current level. */
static void item(JsonWriter *w, const char *key)
{
    int first = w->count[w->depth]++ == 0;
    if (!first)
        fputc(',', w->f);
    int brk = w->next_line || w->lines[w->depth] || (!key && w->depth > 0 && !w->inl[w->depth]);
    w->next_line = 0;
    if (brk) {
        fputc('\n', w->f);
        for (int i = 0; i < w->depth; i++)
            fputc(' ', w->f);
    } else if (!first) {
        fputc(' ', w->f);
    }
    if (key) {
        jw_string(w->f, key);
        fputs(": ", w->f);
    }
}

static void open_level(JsonWriter *w, const char *key, char bracket, int inl, int lines)
{
    item(w, key);
    fputc(bracket, w->f);
    if (w->depth + 1 < JW_DEPTH_MAX) {
        int parent = w->inl[w->depth];
        w->count[++w->depth] = 0;
        w->inl[w->depth] = (unsigned char)(parent || inl);
        w->lines[w->depth] = (unsigned char)lines;
    }
}

void jw_begin(JsonWriter *w, FILE *f)
{
    memset(w, 0, sizeof *w);
    w->f = f;
    fputc('{', f);
    w->depth = 1;
}

void jw_end(JsonWriter *w)
{
    jw_close(w, '}');
    fputc('\n', w->f);
}

void jw_object(JsonWriter *w, const char *key) { open_level(w, key, '{', 0, 0); }
void jw_object_lines(JsonWriter *w, const char *key) { open_level(w, key, '{', 0, 1); }
void jw_array(JsonWriter *w, const char *key) { open_level(w, key, '[', 0, 0); }
void jw_inline(JsonWriter *w, const char *key) { open_level(w, key, '[', 1, 0); }
void jw_newline(JsonWriter *w) { w->next_line = 1; }

void jw_close(JsonWriter *w, char bracket)
{
    if (w->depth > 0)
        w->depth--;
    fputc(bracket, w->f);
}

void jw_int(JsonWriter *w, const char *key, long long v)
{
    item(w, key);
    fprintf(w->f, "%lld", v);
}

void jw_num(JsonWriter *w, const char *key, double v, int decimals)
{
    item(w, key);
    if (decimals < 0 || !isfinite(v))
        jw_number(w->f, v);
    else
        fprintf(w->f, "%.*f", decimals, v);
}

void jw_bool(JsonWriter *w, const char *key, int v)
{
    item(w, key);
    fputs(v ? "true" : "false", w->f);
}

void jw_str(JsonWriter *w, const char *key, const char *s)
{
    item(w, key);
    jw_string(w->f, s);
}

void jw_str_n(JsonWriter *w, const char *key, const char *s, size_t n)
{
    item(w, key);
    jw_string_n(w->f, s, n);
}

void jw_null(JsonWriter *w, const char *key)
{
    item(w, key);
    fputs("null", w->f);
}
