/*
 * text.c - cleaning, wrapping and walking prose (see text.h); the one
 * wrapper of the screen and the handout.
 */
#include "text.h"

#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minmax.h"
#include "utf8.h"

char *text_clean(char *out, size_t size, const char *in, int keep_newlines, int utf8)
{
    if (size == 0)
        return out;
    size_t o = 0;
    const unsigned char *s = (const unsigned char *)(in ? in : "");
    while (*s && o + 1 < size) {
        unsigned cp;
        size_t n = utf8_decode(s, 4, &cp);     /* the NUL at the end stops a sequence cut short */
        if (*s == '\t') {
            out[o++] = ' ';
            s++;
        } else if (*s == '\n' && keep_newlines) {
            out[o++] = '\n';
            s++;
        } else if (*s < 0x20 || *s == 0x7F) {
            s++;
        } else if (*s < 0x80) {
            out[o++] = (char)*s++;
        } else if (!utf8) {
            out[o++] = '?';
            s += n > 0 ? n : 1;
        } else {
            if (n == 0) {
                /* one '?' for a malformed sequence: its lead and the
                 * continuation bytes it holds (an overlong form, a surrogate) */
                out[o++] = '?';
                int lead = *s++ >= 0xC0;
                for (int k = 0; lead && k < 3 && (*s & 0xC0) == 0x80; k++)
                    s++;
            } else if (utf8_control_name(cp)) {
                s += n;   /* a C1 control or a bidirectional control (utf8.h's list): the first a
                             terminal acts on, the second would turn the rest of a line around, as
                             a server's title or a file may try */
            } else if (o + n < size) {
                memcpy(out + o, s, n);
                o += n;
                s += n;
            } else {
                break;
            }
        }
    }
    out[o] = '\0';
    return out;
}

int text_wrap_lines(char *out, size_t size, const char *text, int width, int indent)
{
    if (size == 0)
        return 0;
    out[0] = '\0';
    indent = imax(0, imin(indent, width / 2));
    size_t len = 0;
    int lines = 0;
    char line[1024], wrapped[4096], part[1024];
    for (const char *p = text ? text : ""; (p = text_line(p, line, sizeof line));) {
        /* every piece fits width less the indent, so all line up */
        int n = text_wrap(wrapped, sizeof wrapped, line, width - indent);
        if (n == 0)
            snprintf(wrapped, sizeof wrapped, "%s", "");
        int k = 0;
        for (const char *q = wrapped; (q = text_line(q, part, sizeof part)) || k == 0; k++) {
            int w = snprintf(out + len, size - len, "%s%*s%s", lines > 0 ? "\n" : "", k > 0 ? indent : 0, "",
                             q ? part : "");
            if (w < 0 || (size_t)w >= size - len) {
                out[len] = '\0';
                return lines;
            }
            len += (size_t)w;
            lines++;
            if (!q)
                break;
        }
    }
    return lines;
}

const char *text_line(const char *p, char *line, size_t size)
{
    if (!p || !*p)
        return NULL;
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    size_t keep = size > 0 && n > size - 1 ? size - 1 : n;
    if (size > 0) {
        memcpy(line, p, keep);
        line[keep] = '\0';
    }
    return nl ? nl + 1 : p + n;
}

size_t text_fit(const char *s, int w)
{
    size_t i = 0;
    int cols = 0;
    while (s[i]) {
        size_t n = 1;
        while (s[i + n] && ((unsigned char)s[i + n] & 0xC0) == 0x80)
            n++;
        if (cols + 1 > w)
            break;
        cols++;
        i += n;
    }
    return i;
}


int text_locale_utf8(void)
{
    const char *cs = nl_langinfo(CODESET);
    return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

int text_no_color(void)
{
    const char *nc = getenv("NO_COLOR");
    return nc && *nc;
}

char *text_shorten(char *out, size_t size, const char *s, int w, int utf8)
{
    size_t whole = text_fit(s, w);
    if (!s[whole]) {
        snprintf(out, size, "%s", s);
        return out;
    }
    const char *mark = utf8 ? "…" : "...";
    int mw = utf8 ? 1 : 3;
    size_t cut = text_fit(s, w > mw ? w - mw : 0);
    size_t at = cut;
    while (at > 0 && s[at] != ' ' && s[at - 1] != ' ')
        at--;
    while (at > 0 && s[at - 1] == ' ')
        at--;
    if (at == 0)
        at = cut;   /* one long word: cut it, the mark says so */
    snprintf(out, size, "%.*s%s", (int)at, s, mark);
    return out;
}

/* Display columns of the first n bytes of s. */
static int width_n(const char *s, size_t n)
{
    int w = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            w++;
    return w;
}

/* The growing output of text_wrap. */
typedef struct {
    char *out;
    size_t size, len;
    int lines;
    int line_w;     /* display width of the open line, -1 when none is open */
    int words;      /* words on the open line */
    int full;
} WrapOut;

static void wrap_newline(WrapOut *o)
{
    if (o->full)
        return;
    if (o->len + 2 > o->size) {
        o->full = 1;
        return;
    }
    if (o->lines > 0)
        o->out[o->len++] = '\n';
    o->out[o->len] = '\0';
    o->lines++;
    o->line_w = 0;
    o->words = 0;
}

static void wrap_put(WrapOut *o, const char *s, size_t n)
{
    if (o->full)
        return;
    if (o->len + n + 1 > o->size) {
        o->full = 1;
        return;
    }
    memcpy(o->out + o->len, s, n);
    o->len += n;
    o->out[o->len] = '\0';
    o->line_w += width_n(s, n);
}

/* Add one word (n bytes) to the paragraph being wrapped. */
static void wrap_word(WrapOut *o, const char *s, size_t n, int width)
{
    int ww = width_n(s, n);
    if (o->line_w < 0)
        wrap_newline(o);
    else if (o->words > 0 && o->line_w + 1 + ww > width)
        wrap_newline(o);
    else if (o->words > 0)
        wrap_put(o, " ", 1);
    /* a word too long for any line is split at the width */
    while (!o->full && ww > width - o->line_w && width - o->line_w > 0) {
        size_t cut = 0;
        int cols = 0;
        while (cut < n && cols < width - o->line_w) {
            cut++;
            while (cut < n && ((unsigned char)s[cut] & 0xC0) == 0x80)
                cut++;
            cols++;
        }
        wrap_put(o, s, cut);
        s += cut;
        n -= cut;
        ww -= cols;
        wrap_newline(o);
    }
    if (n > 0) {
        if (o->line_w >= width)
            wrap_newline(o);
        wrap_put(o, s, n);
    }
    o->words++;
}

int text_wrap(char *out, size_t size, const char *text, int width)
{
    WrapOut o = { out, size, 0, 0, -1, 0, 0 };
    if (size == 0)
        return 0;
    out[0] = '\0';
    if (width < 1)
        width = 1;
    const char *p = text ? text : "";
    int in_para = 0, para_indent = 0, prev_deeper = 0;
    while (*p && !o.full) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        int indent = 0;
        while ((size_t)indent < len && (p[indent] == ' ' || p[indent] == '\t'))
            indent++;
        if ((size_t)indent == len) {
            /* a blank line ends the paragraph */
            in_para = 0;
            prev_deeper = 0;
        } else {
            if (!in_para) {
                if (o.lines > 0)
                    wrap_newline(&o);   /* the empty line between paragraphs */
                o.line_w = -1;
                para_indent = indent;
                in_para = 1;
            } else if (indent > para_indent) {
                /* an indented line keeps its own line and indentation */
                o.line_w = -1;
                wrap_newline(&o);
                int pad = imin(indent - para_indent, width / 2);
                for (int k = 0; k < pad; k++)
                    wrap_put(&o, " ", 1);
            } else if (prev_deeper) {
                /* back to the paragraph's indentation: a line of its own */
                o.line_w = -1;
            }
            prev_deeper = in_para && indent > para_indent;
            const char *q = p + indent, *end = p + len;
            while (q < end) {
                while (q < end && (*q == ' ' || *q == '\t'))
                    q++;
                const char *w0 = q;
                while (q < end && *q != ' ' && *q != '\t')
                    q++;
                if (q > w0)
                    wrap_word(&o, w0, (size_t)(q - w0), width);
            }
        }
        p = eol ? eol + 1 : p + len;
    }
    if (o.full && o.len > 0 && out[o.len - 1] == '\n') {
        out[--o.len] = '\0';   /* cut off at a line boundary */
        o.lines--;
    }
    return o.lines;
}
