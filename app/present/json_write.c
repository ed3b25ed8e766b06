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

static void put_s(StrBuf *out, const char *s) { strbuf_put(out, s, strlen(s)); }
static void put_c(StrBuf *out, char c) { strbuf_put(out, &c, 1); }

void jw_string(StrBuf *out, const char *s)
{
    if (!s)
        put_s(out, "null");
    else
        jw_string_n(out, s, strlen(s));
}

void jw_string_n(StrBuf *out, const char *s, size_t n)
{
    put_c(out, '"');
    const unsigned char *end = (const unsigned char *)s + n;
    for (const unsigned char *p = (const unsigned char *)s; p < end;) {
        unsigned cp;
        size_t len = utf8_decode(p, (size_t)(end - p), &cp);    /* a NUL byte: a character too */
        if (len == 0) {
            put_s(out, "\\ufffd");
            p++;
            continue;
        }
        if (cp == '"' || cp == '\\')
            strbuf_add(out, "\\%c", (char)cp);
        else if (cp == '\n')
            put_s(out, "\\n");
        else if (cp == '\r')
            put_s(out, "\\r");
        else if (cp == '\t')
            put_s(out, "\\t");
        /* the C1 and the bidirectional controls (utf8.h's list: U+202E once
         * reached a terminal through attn model --json), DEL, and the line
         * and paragraph separators JavaScript ends a line at */
        else if (cp < 0x20 || cp == 0x7f || cp == 0x2028 || cp == 0x2029 || utf8_control_name(cp))
            strbuf_add(out, "\\u%04x", cp);
        else
            strbuf_put(out, (const char *)p, len);
        p += len;
    }
    put_c(out, '"');
}

void jw_number(StrBuf *out, double v)
{
    if (isnan(v))
        put_s(out, "\"nan\"");
    else if (isinf(v))
        put_s(out, v > 0 ? "\"inf\"" : "\"-inf\"");
    else {
        char buf[40];
        num_shortest(buf, sizeof buf, v);
        put_s(out, buf);
    }
}

/* ---- documents ------------------------------------------------------------ */

/* The comma, the break or the blank, and the key before an item at the
 * current level. */
static void item(JsonWriter *w, const char *key)
{
    int first = w->count[w->depth]++ == 0;
    if (!first)
        put_c(&w->out, ',');
    int brk = w->next_line || w->lines[w->depth] || (!key && w->depth > 0 && !w->inl[w->depth]);
    w->next_line = 0;
    if (brk) {
        put_c(&w->out, '\n');
        for (int i = 0; i < w->depth; i++)
            put_c(&w->out, ' ');
    } else if (!first) {
        put_c(&w->out, ' ');
    }
    if (key) {
        jw_string(&w->out, key);
        put_s(&w->out, ": ");
    }
}

static void open_level(JsonWriter *w, const char *key, char bracket, int inl, int lines)
{
    item(w, key);
    put_c(&w->out, bracket);
    if (w->depth + 1 < JW_DEPTH_MAX) {
        int parent = w->inl[w->depth];
        w->count[++w->depth] = 0;
        w->inl[w->depth] = (unsigned char)(parent || inl);
        w->lines[w->depth] = (unsigned char)lines;
    }
}

void jw_begin(JsonWriter *w)
{
    memset(w, 0, sizeof *w);
    put_c(&w->out, '{');
    w->depth = 1;
}

void jw_end(JsonWriter *w)
{
    jw_close(w, '}');
    put_c(&w->out, '\n');
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
    put_c(&w->out, bracket);
}

void jw_int(JsonWriter *w, const char *key, long long v)
{
    item(w, key);
    strbuf_add(&w->out, "%lld", v);
}

void jw_num(JsonWriter *w, const char *key, double v, int decimals)
{
    item(w, key);
    if (decimals < 0 || !isfinite(v))
        jw_number(&w->out, v);
    else
        strbuf_add(&w->out, "%.*f", decimals, v);
}

void jw_bool(JsonWriter *w, const char *key, int v)
{
    item(w, key);
    put_s(&w->out, v ? "true" : "false");
}

void jw_str(JsonWriter *w, const char *key, const char *s)
{
    item(w, key);
    jw_string(&w->out, s);
}

void jw_str_n(JsonWriter *w, const char *key, const char *s, size_t n)
{
    item(w, key);
    jw_string_n(&w->out, s, n);
}

void jw_null(JsonWriter *w, const char *key)
{
    item(w, key);
    put_s(&w->out, "null");
}

void jw_literal(JsonWriter *w, const char *key, const char *json)
{
    item(w, key);
    put_s(&w->out, json);
}

int jw_print(JsonWriter *w, FILE *f)
{
    int ok = !w->out.failed && (w->out.len == 0 || fwrite(w->out.s, 1, w->out.len, f) == w->out.len)
             && fflush(f) == 0 && !ferror(f);
    strbuf_free(&w->out);
    return ok ? 0 : -1;
}
