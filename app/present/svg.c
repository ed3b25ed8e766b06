/*
 * svg.c - the SVG document (see svg.h): its head and its mark, rectangles
 * and text, every colour through one gate and every text through one
 * escape.
 */
#include "svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "text.h"
#include "utf8.h"

/* The fonts, a monospace family list: the numbers line up and a token's
 * width is known before it is drawn. */
#define SVG_FONTS "DejaVu Sans Mono, Menlo, Consolas, Liberation Mono, monospace"
/* A monospace character's advance, as a share of its size. */
#define SVG_ADVANCE 0.6

static void put_text(Svg *s, const char *text, int comment);

void svg_begin(Svg *s, double w, double h, int grey, const char *what)
{
    memset(s, 0, sizeof *s);
    s->grey = grey;
    strbuf_add(&s->b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" SVG_MARK ": ");
    put_text(s, what, 1);
    strbuf_add(&s->b, " -->\n");
    strbuf_add(&s->b,
               "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.1f\" height=\"%.1f\" "
               "viewBox=\"0 0 %.1f %.1f\" font-family=\"%s\" shape-rendering=\"crispEdges\">\n",
               w, h, w, h, SVG_FONTS);
    svg_rect(s, "page", 0, 0, w, h, svg_hex(0xffffff));
}

char *svg_end(Svg *s)
{
    strbuf_add(&s->b, "</svg>\n");
    return strbuf_take(&s->b);
}

Rgb svg_hex(unsigned rgb)
{
    Rgb c = { (float)((rgb >> 16) & 0xff) / 255.0f, (float)((rgb >> 8) & 0xff) / 255.0f, (float)(rgb & 0xff) / 255.0f };
    return c;
}

Rgb svg_colour(const Svg *s, Rgb c)
{
    return s->grey ? ramp_grey(c) : c;
}

static int channel(float v)
{
    long k = lroundf(v * 255.0f);
    return k < 0 ? 0 : k > 255 ? 255 : (int)k;
}

/* fill="#rrggbb", through the gate. */
static void put_fill(Svg *s, Rgb c)
{
    c = svg_colour(s, c);
    strbuf_add(&s->b, " fill=\"#%02x%02x%02x\"", channel(c.r), channel(c.g), channel(c.b));
}

static void put_class(Svg *s, const char *cls)
{
    if (cls)
        strbuf_add(&s->b, " class=\"%s\"", cls);
}

void svg_rect(Svg *s, const char *cls, double x, double y, double w, double h, Rgb fill)
{
    strbuf_add(&s->b, "<rect");
    put_class(s, cls);
    strbuf_add(&s->b, " x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"", x, y, w, h);
    put_fill(s, fill);
    strbuf_add(&s->b, "/>\n");
}

/* The length of the character at p (at most n bytes) when XML may hold it (well-formed
 * UTF-8: no overlong form, no surrogate, nothing past U+10FFFF, neither
 * U+FFFE nor U+FFFF), else 0. text_clean has taken the controls. */
static int xml_char(const unsigned char *p, size_t n)
{
    unsigned cp;
    size_t len = utf8_decode(p, n, &cp);
    return cp == 0xFFFE || cp == 0xFFFF ? 0 : (int)len;
}

/* text as XML character data: cleaned as the screen cleans it, the five
 * markup characters as references, what XML may not hold as '?'; in a
 * comment (comment) the markup stays and no "--" is written. */
static void put_text(Svg *s, const char *text, int comment)
{
    char clean[2048];
    text_clean(clean, sizeof clean, text, 0, 1);
    const unsigned char *end = (const unsigned char *)clean + strlen(clean);
    for (const unsigned char *p = (const unsigned char *)clean; *p;) {
        int n = xml_char(p, (size_t)(end - p));
        if (comment && *p == '-' && p > (const unsigned char *)clean && p[-1] == '-') {
            strbuf_put(&s->b, " ", 1);      /* the second of "--": a blank */
            p++;
            continue;
        }
        if (comment && n) {
            strbuf_put(&s->b, (const char *)p, (size_t)n);
            p += n;
            continue;
        }
        switch (n ? *p : 0) {
        case '<': strbuf_add(&s->b, "&lt;"); break;
        case '>': strbuf_add(&s->b, "&gt;"); break;
        case '&': strbuf_add(&s->b, "&amp;"); break;
        case '"': strbuf_add(&s->b, "&quot;"); break;
        case '\'': strbuf_add(&s->b, "&apos;"); break;
        case 0: strbuf_put(&s->b, "?", 1); break;
        default: strbuf_put(&s->b, (const char *)p, (size_t)n); break;
        }
        if (n)
            p += n;
        else    /* one '?' for the whole of a sequence XML may not hold */
            for (p++; (*p & 0xC0) == 0x80; p++)
                ;
    }
}

void svg_text(Svg *s, const SvgFont *f, double x, double y, const char *text)
{
    static const char *const anchor[] = { "start", "middle", "end" };
    strbuf_add(&s->b, "<text");
    put_class(s, f->cls);
    strbuf_add(&s->b, " x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\"", x, y, f->size);
    if (f->anchor != SVG_START)
        strbuf_add(&s->b, " text-anchor=\"%s\"", anchor[f->anchor]);
    if (f->bold)
        strbuf_add(&s->b, " font-weight=\"bold\"");
    if (f->vertical)
        strbuf_add(&s->b, " transform=\"rotate(-90 %.1f %.1f)\"", x, y);
    put_fill(s, f->fill);
    strbuf_add(&s->b, ">");
    put_text(s, text, 0);
    strbuf_add(&s->b, "</text>\n");
}

double svg_text_width(const char *text, double size)
{
    char clean[2048];
    text_clean(clean, sizeof clean, text, 0, 1);
    return fmt_display_width(clean) * SVG_ADVANCE * size;
}

void svg_group(Svg *s, const char *cls)
{
    strbuf_add(&s->b, "<g");
    put_class(s, cls);
    strbuf_add(&s->b, ">\n");
}

void svg_group_end(Svg *s)
{
    strbuf_add(&s->b, "</g>\n");
}

const char *svg_file_stem(char *buf, size_t size, const char *text)
{
    size_t k = 0;
    for (const char *c = text; *c && k + 1 < size; c++) {
        int ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '_'
              || *c == '-' || (*c == '.' && k > 0);
        buf[k++] = ok ? *c : '_';
    }
    if (size)
        buf[k] = '\0';
    return buf;
}
