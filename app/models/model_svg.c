/*
 * model_svg.c - a model looked at, as pictures (model_svg.h): one head as
 * a figure of the one SVG writer (a heatmap with the tokens on both axes),
 * and every head as a grid of thumbnails, each under the kind attn
 * measured and its score, the tokens along the grid's edges. What it
 * draws is what model_look.h gives: the attention, the thumbnails, the
 * kinds, the tokens' labels as the screen shows them.
 */
#include "model_svg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "minmax.h"
#include "svg.h"

#define HEAD_DECIMALS 2     /* a weight as the screen's head view shows it */
#define TILE_SIDE 200.0     /* a thumbnail's side, about */
#define TILE_GAP 18.0
#define CAPTION 13.0        /* a thumbnail's caption: its kind and score, */
#define CAPTION_SIZE 11.0   /* in this font size */
#define EDGE_LABEL_MAX 10   /* columns of a token along the edge */

/* The tokens of lk as labels (queries and keys alike). */
static const char *token_label(const void *ctx, int i, int by_rows, char *buf, size_t size)
{
    const ModelLook *lk = ctx;
    (void)by_rows;
    return model_look_label(lk, lk->ids[i], 1, buf, size);
}

/* A key after its query: masked, left blank. */
static int causal_cell(const void *ctx, int i, int j)
{
    (void)ctx;
    return j > i ? SVG_CELL_BLANK : SVG_CELL_VALUE;
}

char *model_svg_head(ModelLook *lk, int layer, int head, int grey)
{
    const float *a = model_look_attention(lk, layer, head);
    if (!a)
        return NULL;
    double score;
    const char *kind = model_look_kind_short(lk, layer, head, &score);
    char title[300], what[200];
    snprintf(title, sizeof title, "%s · layer %d, head %d · %s %.2f · %d tokens", lk->name, layer + 1, head + 1, kind,
             score, lk->n);
    snprintf(what, sizeof what, "layer %d, head %d of %s", layer + 1, head + 1, lk->name);
    SvgMap map = { lk->n, lk->n, a, (size_t)lk->n, token_label, causal_cell, NULL, lk, 1,
                   heat_scale_of_range(0.0f, 1.0f), HEAD_DECIMALS, 0 };
    return svg_figure(title, what, &map, 1, grey, NULL, NULL);
}

/* ---- every head --------------------------------------------------------- */

/* A thumbnail: its cells, side x side. */
typedef struct {
    const float *v;
    int side;
} Thumb;

/* A thumbnail's cell: NAN, a block after the diagonal, left blank. */
static int thumb_cell(const void *ctx, int i, int j)
{
    const Thumb *th = ctx;
    return isnan(th->v[(size_t)i * th->side + j]) ? SVG_CELL_BLANK : SVG_CELL_VALUE;
}

/* The label of line k of the thumbnails along an edge: the token, or the
 * positions a pooled line stands for ("5-8"). */
static const char *edge_label(const ModelLook *lk, int k, char *buf, size_t size)
{
    int t = lk->thumb, n = lk->n, lo = k * n / t, hi = (k + 1) * n / t;
    if (t == n) {
        char whole[96];
        model_look_label(lk, lk->ids[k], 1, whole, sizeof whole);
        snprintf(buf, size, "%.*s", EDGE_LABEL_MAX * 4, whole);
    } else if (hi - lo > 1) {
        snprintf(buf, size, "%d-%d", lo + 1, hi);
    } else {
        snprintf(buf, size, "%d", lo + 1);
    }
    return buf;
}

typedef struct {
    double cell, tile, font;    /* a thumbnail's cell and side; the edges' font */
    int every;                  /* an edge label every this many lines */
    double edge;                /* the room the edge labels take */
    double x0, y0;              /* the first thumbnail's corner */
} HeadsGeometry;

static HeadsGeometry heads_geometry(const ModelLook *lk)
{
    HeadsGeometry g;
    int t = lk->thumb;
    char buf[128];
    g.cell = fmax(2.0, fmin(14.0, TILE_SIDE / t));
    g.tile = g.cell * t;
    g.font = fmin(11.0, fmax(6.0, 0.9 * g.cell));
    g.every = (int)ceil(1.1 * g.font / g.cell);
    g.edge = 0;
    for (int k = 0; k < t; k += g.every)
        g.edge = fmax(g.edge, svg_text_width(edge_label(lk, k, buf, sizeof buf), g.font));
    g.edge += 6;
    double name_w = svg_text_width("L99 ", SVG_FONT_SIZE);
    g.x0 = SVG_MARGIN + name_w + g.edge;
    g.y0 = SVG_MARGIN + 1.6 * SVG_TITLE_SIZE + 1.4 * SVG_FONT_SIZE + g.edge;
    return g;
}

/* The tokens along the top of one column of thumbnails (the keys,
 * upwards) or along the left of one row (the queries). */
static void draw_edge(Svg *s, const ModelLook *lk, const HeadsGeometry *g, double at, int top)
{
    char buf[128];
    SvgFont f = { top ? "key-label" : "query-label", g->font, top ? SVG_START : SVG_END, svg_hex(SVG_DIM), 0, top };
    for (int k = 0; k < lk->thumb; k += g->every) {
        double mid = (k + 0.5) * g->cell + 0.35 * g->font;
        if (top)
            svg_text(s, &f, at + mid, g->y0 - 4, edge_label(lk, k, buf, sizeof buf));
        else
            svg_text(s, &f, g->x0 - 4, at + CAPTION + mid, edge_label(lk, k, buf, sizeof buf));
    }
}

char *model_svg_heads(ModelLook *lk, int grey)
{
    const ModelConfig *c = &lk->md.cfg;
    if (!model_look_thumb(lk, 0, 0))
        return NULL;
    HeadsGeometry g = heads_geometry(lk);
    double step_x = fmax(g.tile, svg_text_width("broad 0.00", CAPTION_SIZE)) + TILE_GAP;
    double step_y = CAPTION + g.tile + TILE_GAP;
    double w = g.x0 + c->heads * step_x - TILE_GAP + SVG_MARGIN;
    double h = g.y0 + c->layers * step_y + 1.2 * SVG_FONT_SIZE + SVG_MARGIN;
    w = fmax(w, 2 * SVG_MARGIN + 28 * SVG_FONT_SIZE);
    char title[300], what[200];
    snprintf(title, sizeof title, "%s (%s) · %d layers x %d heads · %d tokens", lk->name, c->family, c->layers,
             c->heads, lk->n);
    snprintf(what, sizeof what, "every head of %s", lk->name);
    Svg s;
    svg_begin(&s, w, h, grey, what);
    svg_text(&s, &(SvgFont){ "title", SVG_TITLE_SIZE, SVG_START, svg_hex(SVG_INK), 1, 0 }, SVG_MARGIN,
             SVG_MARGIN + SVG_TITLE_SIZE, title);
    SvgFont names = { "head-name", SVG_FONT_SIZE, SVG_MIDDLE, svg_hex(SVG_DIM), 0, 0 };
    for (int hd = 0; hd < c->heads; hd++) {
        char name[16];
        snprintf(name, sizeof name, "H%d", hd + 1);
        svg_text(&s, &names, g.x0 + hd * step_x + g.tile / 2, g.y0 - g.edge - 0.4 * SVG_FONT_SIZE, name);
        draw_edge(&s, lk, &g, g.x0 + hd * step_x, 1);
    }
    names.cls = "layer-name";
    names.anchor = SVG_START;
    HeatScale weights = heat_scale_of_range(0.0f, 1.0f);
    for (int l = 0; l < c->layers; l++) {
        double y = g.y0 + l * step_y;
        char name[16];
        snprintf(name, sizeof name, "L%d", l + 1);
        svg_text(&s, &names, SVG_MARGIN, y + CAPTION + g.tile / 2 + 0.35 * SVG_FONT_SIZE, name);
        draw_edge(&s, lk, &g, y, 0);
        for (int hd = 0; hd < c->heads; hd++) {
            double x = g.x0 + hd * step_x, score;
            const char *kind = model_look_kind_short(lk, l, hd, &score);
            char caption[48];
            snprintf(caption, sizeof caption, "%s %.2f", kind, score);
            svg_group(&s, "head");
            svg_text(&s, &(SvgFont){ "kind", CAPTION_SIZE, SVG_START, svg_hex(SVG_INK), 0, 0 }, x, y + CAPTION - 3, caption);
            Thumb th = { model_look_thumb(lk, l, hd), lk->thumb };
            SvgMap map = { th.side, th.side, th.v, (size_t)th.side, NULL, thumb_cell, NULL, &th, 1, weights, -1,
                           g.cell };
            double mw, mh;
            svg_map(&s, &map, x, y + CAPTION, &mw, &mh, 1);
            svg_group_end(&s);
        }
    }
    svg_colour_bar(&s, &weights, SVG_MARGIN, h - SVG_MARGIN - 1.2 * SVG_FONT_SIZE, w - 2 * SVG_MARGIN);
    return svg_end(&s);
}
