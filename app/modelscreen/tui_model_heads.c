/*
 * tui_model_heads.c - every head of the model at once (tui_model.h): a
 * grid of layers (rows) by heads (columns), each head its attention as a
 * small heatmap two pixels a cell (tui_pixels.h), under a label with the
 * kind attn measured and its score; the text's tokens above, a legend of
 * the kinds. The tiles grow to fill the terminal (a head's picture drawn
 * larger than its pooled thumbnail when there is room): at 250x70 GPT-2
 * small's 144 heads fit for a sentence; on a small terminal the grid
 * scrolls to keep the chosen head in view.
 */
#include "tui_model_view.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "minmax.h"
#include "model_effect.h"
#include "tui_pixels.h"

#define GRID_TOP 5          /* title, tokens, the legend, the chosen head, head numbers */
#define ROW_LABEL 4         /* "L12 " */
#define TILE_MIN 7          /* columns: room for "prev 93" */
#define TILE_LABEL 17       /* columns of a tile no wider than square, at least */

typedef struct {
    int tile_w, pixel_rows;     /* a tile's columns (its gap aside) and rows of pixels */
    int shown_heads, shown_layers;
} Grid;

static Grid grid_of(const TuiTerm *term, const ModelScreen *m)
{
    const ModelConfig *c = &m->look.md.cfg;
    int width = term->cols - ROW_LABEL - 1;
    int rows = term->rows - GRID_TOP - 1 - model_effect_rows(term, m);   /* the strip below, while a head is changed */
    Grid g;
    /* as large as the terminal allows: the width shared by the heads, no
     * wider than about square (a cell two pixels high) once that is wider
     * than a label ("broad 0.87"); at least a short label wide and two
     * rows of pixels high, else it scrolls */
    int w_max = width / c->heads - 1, rows_max = rows / c->layers - 1;
    g.tile_w = imax(TILE_MIN, imin(w_max, imax(TILE_LABEL, 2 * rows_max)));
    g.pixel_rows = imax(2, imin(rows_max, (g.tile_w + 1) / 2));
    g.shown_heads = imax(1, imin(c->heads, width / (g.tile_w + 1)));
    g.shown_layers = imax(1, imin(c->layers, rows / (g.pixel_rows + 1)));
    return g;
}

void model_heads_move(ModelScreen *m, int dlayer, int dhead)
{
    const ModelConfig *c = &m->look.md.cfg;
    m->layer = imax(0, imin(c->layers - 1, m->layer + dlayer));
    m->head = imax(0, imin(c->heads - 1, m->head + dhead));
}

void model_heads_prepare(TuiTerm *term, ModelScreen *m)
{
    Grid g = grid_of(term, m);
    const ModelConfig *c = &m->look.md.cfg;
    /* the chosen head in view */
    if (m->layer < m->top_layer)
        m->top_layer = m->layer;
    if (m->layer >= m->top_layer + g.shown_layers)
        m->top_layer = m->layer - g.shown_layers + 1;
    if (m->head < m->left_head)
        m->left_head = m->head;
    if (m->head >= m->left_head + g.shown_heads)
        m->left_head = m->head - g.shown_heads + 1;
    m->top_layer = imax(0, imin(m->top_layer, c->layers - g.shown_layers));
    m->left_head = imax(0, imin(m->left_head, c->heads - g.shown_heads));
}

/* The text's tokens on row y, each set apart by its shade, the ones that
 * do not fit left out with a count. */
static void draw_tokens(TuiTerm *term, const ModelScreen *m, int y)
{
    int x = 1, w = term->cols - 1;
    char label[96], more[40];
    for (int i = 0; i < m->look.n; i++) {
        model_look_label(&m->look, m->look.ids[i], term->utf8, label, sizeof label);
        int lw = fmt_display_width(label);
        snprintf(more, sizeof more, " +%d", m->look.n - i);
        if (x + lw + (i + 1 < m->look.n ? (int)strlen(more) : 0) > w) {
            ui_put(&term->cv, y, x, w - x, tui_attr(term, C_DIM), more);
            return;
        }
        ui_put(&term->cv, y, x, lw, i % 2 ? tui_attr(term, C_LABEL) : tui_attr(term, C_PANE_TITLE), label);
        x += lw + 1;
    }
}

void model_heads_draw(TuiTerm *term, ModelScreen *m)
{
    const ModelConfig *c = &m->look.md.cfg;
    Grid g = grid_of(term, m);
    ui_fill(&term->cv, 0, 0, term->cols, tui_attr(term, C_TITLE));
    ui_putf(&term->cv, 0, 1, term->cols - 2, tui_attr(term, C_TITLE),
            "attn: %s (%s) %s %d layers x %d heads %s %d tokens", m->look.name, c->family,
            ui_glyph(&term->cv, "·", "-"), c->layers, c->heads, ui_glyph(&term->cv, "·", "-"), m->look.n);
    draw_tokens(term, m, 1);
    double score;
    const char *kind = model_head_kind(&m->look.scores[m->layer * c->heads + m->head], &score);
    const HeadScores *s = &m->look.scores[m->layer * c->heads + m->head];
    const HeadScores *t = &m->look.run.scores[m->layer * c->heads + m->head];
    /* what the labels mean */
    ui_put(&term->cv, 2, 1, term->cols - 2, tui_attr(term, C_DIM), term->cols >= 120
           ? "kinds, measured on a probe of random tokens said twice: prev looks at the token before, sink at the "
             "first, self at itself, ind at the token after an earlier copy of its own; the number is that share; "
             "broad: none reaches 0.4 (1 - the highest)"
           : "prev: token before; sink: first; self; ind: after earlier copy; broad: 1 - max");
    ui_putf(&term->cv, 3, 1, term->cols - 2, tui_attr(term, C_HINT),
            "layer %d head %d: %s %.2f on the probe (previous %.2f, first %.2f, self %.2f, induction %.2f); on this "
            "text previous %.2f, first %.2f, self %.2f; Enter opens it, x takes it out", m->layer + 1, m->head + 1, kind, score,
            s->previous, s->first, s->self, s->induction, t->previous, t->first, t->self);
    for (int h = m->left_head; h < m->left_head + g.shown_heads; h++) {
        int x = ROW_LABEL + (h - m->left_head) * (g.tile_w + 1);
        ui_putf(&term->cv, GRID_TOP - 1, x, g.tile_w, h == m->head ? tui_attr(term, C_SELECTED) : tui_attr(term, C_DIM),
                "H%d", h + 1);
    }
    for (int l = m->top_layer; l < m->top_layer + g.shown_layers; l++) {
        int y = GRID_TOP + (l - m->top_layer) * (g.pixel_rows + 1);
        ui_putf(&term->cv, y, 0, ROW_LABEL - 1, l == m->layer ? tui_attr(term, C_SELECTED) : tui_attr(term, C_DIM),
                "L%d", l + 1);
        for (int h = m->left_head; h < m->left_head + g.shown_heads; h++) {
            int x = ROW_LABEL + (h - m->left_head) * (g.tile_w + 1), chosen = l == m->layer && h == m->head;
            double sc;
            const char *k = model_look_kind_short(&m->look, l, h, &sc);
            char label[32];
            int how = model_effect_of(&m->look, l, h);
            if (how >= 0)       /* taken out or patched: said instead of its kind */
                snprintf(label, sizeof label, "%s", how == MODEL_EDIT_GIVEN ? "patched" : "ablated");
            else if (g.tile_w >= 9)
                snprintf(label, sizeof label, "%s %.2f", k, sc);
            else
                snprintf(label, sizeof label, "%s %02d", k, (int)(sc * 100 + 0.5) > 99 ? 99 : (int)(sc * 100 + 0.5));
            ui_put(&term->cv, y, x, g.tile_w, chosen ? tui_attr(term, C_SELECTED) : how >= 0 ? tui_attr(term, C_ERROR)
                   : tui_attr(term, C_LABEL), label);
            const float *thumb = model_look_thumb(&m->look, l, h);
            if (thumb)
                tui_pixels_matrix_fill(term, y + 1, x, g.pixel_rows, g.tile_w, thumb, m->look.thumb);
        }
    }
    if (model_effect_rows(term, m))
        model_effect_strip(term, m, term->rows - 1 - model_effect_rows(term, m));
    /* where the grid goes on past the screen */
    if (g.shown_layers < c->layers || g.shown_heads < c->heads)
        ui_putf(&term->cv, GRID_TOP - 1, term->cols - 24, 23, tui_attr(term, C_DIM), "%s layers %d-%d, heads %d-%d",
                ui_glyph(&term->cv, "↕", "|"), m->top_layer + 1, m->top_layer + g.shown_layers, m->left_head + 1,
                m->left_head + g.shown_heads);
}
