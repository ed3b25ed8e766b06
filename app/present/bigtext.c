/*
 * bigtext.c - the block font of bigtext.h: a 3x5 pixel glyph (narrower
 * for punctuation) for each character a number can show, and for the
 * letters and punctuation of a title, and the two ways of drawing it.
 */
#include "bigtext.h"

#include <stdio.h>
#include <string.h>

/* A glyph: its width in pixels (1 or 3) and its five rows, the leftmost
 * pixel the highest bit of the row's 3. */
typedef struct {
    char ch;
    int w;
    unsigned char row[5];
} Glyph;

static const Glyph glyphs[] = {
    { '0', 3, { 7, 5, 5, 5, 7 } },
    { '1', 3, { 2, 6, 2, 2, 7 } },
    { '2', 3, { 7, 1, 7, 4, 7 } },
    { '3', 3, { 7, 1, 7, 1, 7 } },
    { '4', 3, { 5, 5, 7, 1, 1 } },
    { '5', 3, { 7, 4, 7, 1, 7 } },
    { '6', 3, { 7, 4, 7, 5, 7 } },
    { '7', 3, { 7, 1, 1, 1, 1 } },
    { '8', 3, { 7, 5, 7, 5, 7 } },
    { '9', 3, { 7, 5, 7, 1, 7 } },
    { '-', 3, { 0, 0, 7, 0, 0 } },
    { '+', 3, { 0, 2, 7, 2, 0 } },
    { 'e', 3, { 0, 7, 7, 4, 7 } },      /* a number's exponent, 6.1e-6 */
    { '?', 3, { 7, 1, 3, 0, 2 } },
    { '/', 3, { 1, 1, 2, 4, 4 } },
    { '.', 1, { 0, 0, 0, 0, 1 } },
    { ' ', 1, { 0, 0, 0, 0, 0 } },
    /* letters and the punctuation of titles: lower case is drawn upper */
    { 'A', 3, { 2, 5, 7, 5, 5 } }, { 'B', 3, { 6, 5, 6, 5, 6 } }, { 'C', 3, { 3, 4, 4, 4, 3 } },
    { 'D', 3, { 6, 5, 5, 5, 6 } }, { 'E', 3, { 7, 4, 6, 4, 7 } }, { 'F', 3, { 7, 4, 6, 4, 4 } },
    { 'G', 3, { 3, 4, 5, 5, 3 } }, { 'H', 3, { 5, 5, 7, 5, 5 } }, { 'I', 3, { 7, 2, 2, 2, 7 } },
    { 'J', 3, { 1, 1, 1, 5, 2 } }, { 'K', 3, { 5, 5, 6, 5, 5 } }, { 'L', 3, { 4, 4, 4, 4, 7 } },
    { 'M', 3, { 5, 7, 7, 5, 5 } }, { 'N', 3, { 6, 5, 5, 5, 5 } }, { 'O', 3, { 2, 5, 5, 5, 2 } },
    { 'P', 3, { 6, 5, 6, 4, 4 } }, { 'Q', 3, { 2, 5, 5, 6, 3 } }, { 'R', 3, { 6, 5, 6, 5, 5 } },
    { 'S', 3, { 3, 4, 2, 1, 6 } }, { 'T', 3, { 7, 2, 2, 2, 2 } }, { 'U', 3, { 5, 5, 5, 5, 7 } },
    { 'V', 3, { 5, 5, 5, 5, 2 } }, { 'W', 3, { 5, 5, 7, 7, 5 } }, { 'X', 3, { 5, 5, 2, 5, 5 } },
    { 'Y', 3, { 5, 5, 2, 2, 2 } }, { 'Z', 3, { 7, 1, 2, 4, 7 } },
    { ':', 1, { 0, 1, 0, 1, 0 } }, { ',', 1, { 0, 0, 0, 1, 1 } }, { '\'', 1, { 1, 1, 0, 0, 0 } },
    { '!', 1, { 1, 1, 1, 0, 1 } }, { '(', 2, { 1, 2, 2, 2, 1 } }, { ')', 2, { 2, 1, 1, 1, 2 } },
    { '[', 2, { 3, 2, 2, 2, 3 } }, { ']', 2, { 3, 1, 1, 1, 3 } }, { '=', 3, { 0, 7, 0, 7, 0 } },
    { '*', 3, { 0, 5, 2, 5, 0 } }, { '_', 3, { 0, 0, 0, 0, 7 } }, { '^', 3, { 2, 5, 0, 0, 0 } },
    { '&', 3, { 2, 5, 2, 5, 3 } }, { '%', 3, { 5, 1, 2, 4, 5 } }, { '"', 3, { 5, 5, 0, 0, 0 } },
    { '@', 3, { 2, 5, 7, 4, 3 } }, { '<', 3, { 1, 2, 4, 2, 1 } }, { '>', 3, { 4, 2, 1, 2, 4 } },
    { ';', 1, { 0, 1, 0, 1, 1 } }, { '#', 3, { 5, 7, 5, 7, 5 } },
};

static const Glyph *glyph_of(char c)
{
    for (size_t i = 0; i < sizeof glyphs / sizeof *glyphs; i++)
        if (glyphs[i].ch == c)
            return &glyphs[i];
    /* a letter in either case: its capital */
    if (c >= 'a' && c <= 'z')
        return glyph_of((char)(c - 'a' + 'A'));
    return NULL;
}

static int pixel(const Glyph *g, int x, int y)
{
    if (y < 0 || y >= 5)
        return 0;
    return (g->row[y] >> (g->w - 1 - x)) & 1;
}

int big_rows(BigSize size)
{
    return size == BIG_HALF ? 3 : size == BIG_FULL ? 5 : 1;
}

int big_width(const char *text, BigSize size)
{
    if (size == BIG_NONE)
        return (int)strlen(text);
    int w = 0;
    for (const char *p = text; *p; p++) {
        const Glyph *g = glyph_of(*p);
        if (!g)
            return -1;
        w += (p > text ? 1 : 0) + (size == BIG_FULL ? 2 : 1) * g->w;
    }
    return w;
}

const char *big_row(const char *text, BigSize size, int k, int utf8, char *out, size_t out_size)
{
    size_t len = 0;
    out[0] = '\0';
    if (big_width(text, size) < 0 || k < 0 || k >= big_rows(size))
        return out;
    if (size == BIG_NONE)
        return snprintf(out, out_size, "%s", text), out;
    for (const char *p = text; *p; p++) {
        const Glyph *g = glyph_of(*p);
        if (p > text && len + 1 < out_size)
            out[len++] = ' ';
        for (int x = 0; x < g->w; x++) {
            const char *s;
            if (size == BIG_HALF) {
                /* two pixel rows to a text row: upper and lower halves */
                int up = pixel(g, x, 2 * k), down = pixel(g, x, 2 * k + 1);
                s = up && down ? "█" : up ? "▀" : down ? "▄" : " ";
            } else {
                s = !pixel(g, x, k) ? "  " : utf8 ? "██" : "##";
            }
            size_t sl = strlen(s);
            if (len + sl >= out_size)
                return out;
            memcpy(out + len, s, sl);
            len += sl;
            out[len] = '\0';
        }
    }
    return out;
}

BigSize big_fit(const char *text, int w, int h, int utf8)
{
    if (h >= 5 && big_width(text, BIG_FULL) >= 0 && big_width(text, BIG_FULL) <= w)
        return BIG_FULL;
    if (utf8 && h >= 3 && big_width(text, BIG_HALF) >= 0 && big_width(text, BIG_HALF) <= w)
        return BIG_HALF;
    return BIG_NONE;
}
