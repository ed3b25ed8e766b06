/*
 * svg_map.c - a heatmap in SVG (svg.h), drawn in two steps as the screen
 * draws a pane: its geometry found once (the label column, the header,
 * the cells: wide enough for their numbers, or small squares of colour
 * past SVG_NUMBERS_MAX_*), then each part drawn; the colour bar with its
 * ends labelled; a lesson's pane whole.
 */
#include "svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "numfmt.h"
#include "text.h"

#include "minmax.h"

#define LABEL_MAX 12        /* columns of a row's label, as the screen's */
#define COL_LABEL_MAX 10    /* columns of a column's label over numbers  */
#define MARGIN SVG_MARGIN
#define PAD 6.0             /* between a number and its cell's edge */

/* The colours that are not the scale's: the screen's, for a white page. */
#define INK SVG_INK
#define DIM SVG_DIM
#define INF_CELL 0x303030   /* -inf: the screen's C_HEAT_INF, background 236 */
#define INF_INK 0xbcbcbc    /* and its text, 250 */
#define MASKED_INK 0xc0272d /* a masked zero, a masked line (C_MASKED) */
#define HIDDEN_CELL 0xeeeeee
#define HIDDEN_INK 0x555555

static const double F = SVG_FONT_SIZE;

/* Where a map's parts go, found once. */
typedef struct {
    int numbers;            /* numbers in the cells */
    double cell_w, cell_h, gap;
    double label_w;         /* the rows' labels */
    double header_h;        /* the columns' labels */
    double label_size;      /* their font size */
    int every;              /* a label every this many lines */
} MapGeometry;

static const char *label_of(const SvgMap *m, int i, int by_rows, char *buf, size_t size)
{
    char raw[256];
    const char *l = m->label ? m->label(m->ctx, i, by_rows, raw, sizeof raw) : NULL;
    if (!l) {
        snprintf(raw, sizeof raw, "%d", i + 1);
        l = raw;
    }
    return text_shorten(buf, size, l, by_rows ? LABEL_MAX : COL_LABEL_MAX, 1);
}

static int cell_kind(const SvgMap *m, int i, int j)
{
    return m->cell ? m->cell(m->ctx, i, j) : SVG_CELL_VALUE;
}

/* A cell's text ("" none): its number, "?" or the masked zero. */
static void cell_text(const SvgMap *m, int i, int j, char *buf, size_t size)
{
    int kind = cell_kind(m, i, j);
    buf[0] = '\0';
    if (kind == SVG_CELL_HIDDEN)
        snprintf(buf, size, "?");
    else if (kind == SVG_CELL_MASKED_ZERO)
        snprintf(buf, size, "%s", MASKED_ZERO_TEXT);
    else if (kind == SVG_CELL_VALUE)
        num_format(buf, size, m->v[(size_t)i * m->ld + j], m->decimals, 1);
}

static MapGeometry geometry(const SvgMap *m)
{
    MapGeometry g;
    char buf[64];
    g.numbers = m->decimals >= 0 && m->cols <= SVG_NUMBERS_MAX_COLS && m->rows <= SVG_NUMBERS_MAX_ROWS && !m->thumb;
    g.label_size = F;
    if (m->thumb > 0) {     /* squares alone */
        g.cell_w = g.cell_h = m->thumb;
        g.gap = 0;
        g.label_w = g.header_h = 0;
        g.every = 1;
        return g;
    }
    if (g.numbers) {
        double num_w = svg_text_width("?", F);
        for (int i = 0; i < m->rows; i++)
            for (int j = 0; j < m->cols; j++) {
                cell_text(m, i, j, buf, sizeof buf);
                num_w = fmax(num_w, svg_text_width(buf, F));
            }
        for (int j = 0; j < m->cols; j++)
            num_w = fmax(num_w, svg_text_width(label_of(m, j, 0, buf, sizeof buf), F));
        g.cell_w = num_w + 2 * PAD;
        g.cell_h = 1.8 * F;
        g.gap = 1.5;
        g.every = 1;
        g.header_h = 1.6 * F;
    } else {
        /* squares of colour, the whole map about 480 units */
        g.cell_w = g.cell_h = fmax(4.0, fmin(2.4 * F, 480.0 / imax(imax(m->rows, m->cols), 1)));
        g.gap = g.cell_w >= 8 ? 1.0 : 0.0;
        g.label_size = fmin(F, fmax(8.0, 0.85 * g.cell_h));
        g.every = (int)ceil(1.1 * g.label_size / g.cell_h);
        g.header_h = 0;
        for (int j = 0; j < m->cols; j += g.every)
            g.header_h = fmax(g.header_h, svg_text_width(label_of(m, j, 0, buf, sizeof buf), g.label_size));
        g.header_h += 0.5 * F;
    }
    g.label_w = 0;
    for (int i = 0; i < m->rows; i += g.every)
        g.label_w = fmax(g.label_w, svg_text_width(label_of(m, i, 1, buf, sizeof buf), g.label_size));
    g.label_w += svg_text_width(" ⊘ ", g.label_size);
    return g;
}

/* The axes' labels: a masked line's in the mask's colour, a row's with ⊘. */
static void draw_labels(Svg *s, const SvgMap *m, const MapGeometry *g, double x, double y)
{
    char buf[64];
    SvgFont rf = { "row-label", g->label_size, SVG_END, svg_hex(DIM), 0, 0 };
    for (int i = 0; i < m->rows; i += g->every) {
        int masked = m->line_masked && m->line_masked(m->ctx, i, 1);
        double ly = y + g->header_h + (i + 0.5) * g->cell_h + 0.35 * g->label_size;
        rf.fill = svg_hex(masked ? MASKED_INK : DIM);
        svg_text(s, &rf, x + g->label_w - svg_text_width(" ⊘ ", g->label_size), ly, label_of(m, i, 1, buf, sizeof buf));
        if (masked)
            svg_text(s, &(SvgFont){ "mark", g->label_size, SVG_END, svg_hex(MASKED_INK), 0, 0 },
                     x + g->label_w - 0.5 * svg_text_width(" ", g->label_size), ly, "⊘");
    }
    SvgFont cf = { "col-label", g->label_size, g->numbers ? SVG_END : SVG_START, svg_hex(DIM), 0, !g->numbers };
    for (int j = 0; j < m->cols; j += g->every) {
        cf.fill = svg_hex(m->line_masked && m->line_masked(m->ctx, j, 0) ? MASKED_INK : DIM);
        double cx = x + g->label_w + j * g->cell_w;
        if (g->numbers)     /* over the numbers, right-aligned as they are */
            svg_text(s, &cf, cx + g->cell_w - PAD, y + g->header_h - 0.45 * F, label_of(m, j, 0, buf, sizeof buf));
        else                /* upwards, from just above its column */
            svg_text(s, &cf, cx + 0.5 * g->cell_w + 0.35 * g->label_size, y + g->header_h - 0.25 * F,
                     label_of(m, j, 0, buf, sizeof buf));
    }
}

/* One cell: its colour, then its text where there is room. */
static void draw_cell(Svg *s, const SvgMap *m, const MapGeometry *g, int i, int j, double x, double y)
{
    int kind = cell_kind(m, i, j);
    float v = m->v[(size_t)i * m->ld + j];
    Rgb fill = svg_hex(0xffffff), ink = svg_hex(INK);
    if (kind == SVG_CELL_BLANK)
        return;
    int bold = 0;
    if (kind == SVG_CELL_HIDDEN) {      /* predict before you see: no colour */
        fill = svg_hex(HIDDEN_CELL);
        ink = svg_hex(HIDDEN_INK);
        bold = 1;
    } else if (!isfinite(v)) {
        fill = svg_hex(INF_CELL);
        ink = svg_hex(INF_INK);
    } else if (m->heat) {
        fill = heat_rgb(&m->scale, kind == SVG_CELL_MASKED_ZERO ? 0.0f : v);
        ink = svg_hex(ramp_text_dark(svg_colour(s, fill)) ? INK : 0xffffff);
    } else if (kind == SVG_CELL_MASKED_ZERO) {
        ink = svg_hex(MASKED_INK);
    }
    svg_rect(s, "cell", x + g->gap / 2, y + g->gap / 2, g->cell_w - g->gap, g->cell_h - g->gap, fill);
    char text[64];
    cell_text(m, i, j, text, sizeof text);
    if (!text[0] || (!g->numbers && (kind != SVG_CELL_HIDDEN || g->cell_h < 12)))
        return;
    double size = g->numbers ? F : 0.7 * g->cell_h;
    SvgFont f = { "num", size, g->numbers ? SVG_END : SVG_MIDDLE, ink, bold, 0 };
    svg_text(s, &f, g->numbers ? x + g->cell_w - PAD : x + g->cell_w / 2, y + g->cell_h / 2 + 0.35 * size, text);
}

void svg_map(Svg *s, const SvgMap *m, double x, double y, double *w, double *h, int draw)
{
    MapGeometry g = geometry(m);
    *w = g.label_w + m->cols * g.cell_w;
    *h = g.header_h + m->rows * g.cell_h;
    if (!draw)
        return;
    if (!m->thumb)
        draw_labels(s, m, &g, x, y);
    for (int i = 0; i < m->rows; i++)
        for (int j = 0; j < m->cols; j++)
            draw_cell(s, m, &g, i, j, x + g.label_w + j * g.cell_w, y + g.header_h + i * g.cell_h);
}

#define BAR_STEPS 32
#define BAR_W 320.0

double svg_colour_bar(Svg *s, const HeatScale *h, double x, double y, double w)
{
    char lo[48], hi[48];
    float from = h->diverging ? -h->hi : h->lo;
    num_format(lo, sizeof lo, from, HEAT_LEGEND_DECIMALS, 1);
    num_format(hi, sizeof hi, h->hi, HEAT_LEGEND_DECIMALS, 1);
    double lw = svg_text_width(lo, F), hw = svg_text_width(hi, F), bh = 1.2 * F;
    double bw = fmax(8.0 * BAR_STEPS / 2, fmin(BAR_W, w - lw - hw - 2 * PAD)), step = bw / BAR_STEPS;
    SvgFont f = { "bar-lo", F, SVG_START, svg_hex(DIM), 0, 0 };
    svg_text(s, &f, x, y + 0.85 * F, lo);
    for (int k = 0; k < BAR_STEPS; k++) {
        float val = from + (h->hi - from) * ((float)k + 0.5f) / BAR_STEPS;
        svg_rect(s, "bar", x + lw + PAD + k * step, y, step + 0.05, bh, heat_rgb(h, val));
    }
    f.cls = "bar-hi";
    svg_text(s, &f, x + lw + PAD + bw + PAD, y + 0.85 * F, hi);
    return bh;
}

/* ---- a lesson's pane ------------------------------------------------------ */

static const char *pane_label(const void *ctx, int i, int by_rows, char *buf, size_t size)
{
    const SvgPane *p = ctx;
    const char *l = by_rows ? mat_row_label(p->m, i) : mat_col_label(p->m, i);
    if (l)
        snprintf(buf, size, "%s", l);
    return l ? buf : NULL;
}

static int pane_cell(const void *ctx, int i, int j)
{
    const SvgPane *p = ctx;
    if (p->all_hidden || (p->hidden && p->hidden(p->ctx, i, j)))
        return SVG_CELL_HIDDEN;
    return mat_cell_masked(p->m, i, j) ? SVG_CELL_MASKED_ZERO : SVG_CELL_VALUE;
}

static int pane_line_masked(const void *ctx, int i, int by_rows)
{
    const SvgPane *p = ctx;
    return mat_line_masked(p->m, i, by_rows);
}

/* One note under the colour bar: a mark in the colours the cells have it
 * in, then its word. Returns where the next goes. */
static double note(Svg *s, double x, double y, const char *mark, unsigned bg, unsigned ink, const char *word)
{
    double mw = svg_text_width(mark, F);
    if (bg != 0xffffff)
        svg_rect(s, "note-mark", x - 2, y - F, mw + 4, 1.3 * F, svg_hex(bg));
    svg_text(s, &(SvgFont){ "notes", F, SVG_START, svg_hex(ink), 0, 0 }, x, y, mark);
    x += mw + 0.6 * F;
    svg_text(s, &(SvgFont){ "notes", F, SVG_START, svg_hex(DIM), 0, 0 }, x, y, word);
    return x + svg_text_width(word, F) + 1.8 * F;
}

/* The notes under a heatmap's bar, as the screen's legend has them: a -inf
 * among the numbers, a zero the mask made, the lines masked whole; draw 0
 * only counts them. */
static int pane_notes(Svg *s, const void *ctx, double x, double y, int draw)
{
    const Mat *m = ((const SvgPane *)ctx)->m;
    int infs = 0, zeros = 0, lines = 0, first = -1, by_rows = !m->masked_cols;
    for (int i = 0; i < m->rows; i++)
        for (int j = 0; j < m->cols; j++) {
            infs |= mat_get(m, i, j) == -INFINITY;
            zeros |= mat_cell_masked(m, i, j);
        }
    for (int k = 0; k < (by_rows ? m->rows : m->cols); k++)
        if (mat_line_masked(m, k, by_rows)) {
            lines++;
            first = first < 0 ? k : first;
        }
    if (!draw)
        return infs || zeros || lines;
    if (infs)
        x = note(s, x, y, "-∞", INF_CELL, INF_INK, "masked");
    if (zeros && !infs)
        x = note(s, x, y, MASKED_ZERO_TEXT, 0xffffff, MASKED_INK, "masked");
    if (lines) {
        char what[64];
        snprintf(what, sizeof what, "%s %d%s", by_rows ? "row" : "col", first + 1, lines > 1 ? " ..." : "");
        note(s, x, y, what, 0xffffff, MASKED_INK, "masked whole");
    }
    return 1;
}

char *svg_figure(const char *title, const char *what, const SvgMap *map, int bar, int grey, SvgNotes notes,
                 const void *ctx)
{
    Svg s = { .grey = grey };
    double mw, mh, tw = svg_text_width(title, SVG_TITLE_SIZE);
    svg_map(&s, map, 0, 0, &mw, &mh, 0);
    int has_notes = bar && notes && notes(&s, ctx, 0, 0, 0);
    double w = fmax(fmax(mw, tw), bar ? BAR_W + 10 * F : 0) + 2 * MARGIN;
    double h = MARGIN + 1.6 * SVG_TITLE_SIZE + mh + (bar ? 2.2 * F : 0) + (has_notes ? 1.8 * F : 0) + MARGIN;
    svg_begin(&s, w, h, grey, what);
    svg_text(&s, &(SvgFont){ "title", SVG_TITLE_SIZE, SVG_START, svg_hex(INK), 1, 0 }, MARGIN,
             MARGIN + SVG_TITLE_SIZE, title);
    double y = MARGIN + 1.6 * SVG_TITLE_SIZE;
    svg_map(&s, map, MARGIN, y, &mw, &mh, 1);
    if (bar)
        y += mh + F + svg_colour_bar(&s, &map->scale, MARGIN, y + mh + F, w - 2 * MARGIN);
    if (has_notes)
        notes(&s, ctx, MARGIN + 2, y + 1.8 * F, 1);
    return svg_end(&s);
}

char *svg_pane(const SvgPane *p)
{
    const Mat *m = p->m;
    char title[400], shape[32], what[200];
    mat_shape_str(m, shape, sizeof shape);
    snprintf(title, sizeof title, "%s %s%s%s", m->name, shape, p->how && p->how[0] ? " = " : "", p->how ? p->how : "");
    snprintf(what, sizeof what, "the pane %s", m->name);
    SvgMap map = { m->rows, m->cols, m->data, (size_t)m->ld, pane_label, pane_cell, pane_line_masked, p, p->heat,
                   heat_scale(m), p->decimals, 0 };
    return svg_figure(title, what, &map, p->heat && !p->all_hidden, p->grey, pane_notes, p);
}
