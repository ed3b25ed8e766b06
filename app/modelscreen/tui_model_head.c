/*
 * tui_model_head.c - one head of the model (tui_model.h): its attention as
 * the lessons draw a weights matrix (rows the queries, columns the keys,
 * the tokens as labels, the cursor on one weight; past the pane's size a
 * pooled overview two pixels a cell; the tokens along both axes, every
 * k-th where they do not fit, the cursor's always), or (v) BertViz's lines
 * from the cursor's query to the keys; where the query looks as bars
 * beside it, the head's four scores, and the model's next token after
 * that query at a temperature. Enter explains the weight.
 */
#include "tui_model_view.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "minmax.h"
#include "ramp.h"
#include "tui_pixels.h"

#define HEAT_TOP 6          /* title, the cursor's weight, the head's scores (2), key numbers, key tokens */
#define NEXT_ROWS 7         /* the next token: a title, five, a blank */
#define NEXT_K 5
#define LABEL_MAX 12
#define KEY_LABEL_W 5       /* the most columns of a key's token along the top */

typedef struct {
    int label_w;            /* the rows' labels: "12 token" */
    int heat_x, heat_w, heat_rows;
    int cell_w;             /* columns a weight; 0: the pooled overview */
    int panel_x, panel_w;   /* where the query looks */
    int next_y;
} HeadLayout;

static HeadLayout layout_of(const TuiTerm *term, const ModelScreen *m)
{
    HeadLayout h;
    int n = m->look.n;
    h.label_w = 4 + LABEL_MAX;
    h.panel_w = term->cols >= 120 ? 44 : 30;
    h.heat_x = h.label_w + 1;
    h.heat_w = imax(8, term->cols - h.heat_x - h.panel_w - 2);
    h.panel_x = h.heat_x + h.heat_w + 2;
    h.panel_w = term->cols - h.panel_x - 1;
    h.next_y = term->rows - 1 - NEXT_ROWS - model_effect_rows(term, m);     /* the strip at the bottom */
    h.heat_rows = h.next_y - HEAT_TOP;
    h.cell_w = n <= h.heat_rows && 2 * n <= h.heat_w ? imin(6, h.heat_w / n) : 0;
    return h;
}

void model_head_move(ModelScreen *m, int dquery, int dkey)
{
    int n = m->look.n;
    m->query = imax(0, imin(n - 1, m->query + dquery));
    m->key = imax(0, imin(n - 1, m->key + dkey));
}

void model_head_prepare(TuiTerm *term, ModelScreen *m)
{
    (void)term;
    m->query = imax(0, imin(m->look.n - 1, m->query));
    m->key = imax(0, imin(m->look.n - 1, m->key));
}

/* The weight of query i on key j. */
static float weight(ModelScreen *m, int i, int j)
{
    const float *a = model_look_attention(&m->look, m->layer, m->head);
    return a ? a[(size_t)i * m->look.n + j] : 0.0f;
}

static const char *label_of(const TuiTerm *term, const ModelScreen *m, int i, char *buf, size_t size)
{
    char t[96];
    model_look_label(&m->look, m->look.ids[i], term->utf8, t, sizeof t);
    snprintf(buf, size, "%d %s", i + 1, t);
    return buf;
}

/* The keys' tokens along the top at row y: key j's at x0 + j * per
 * columns, every k-th where they do not all fit (k the fewest that leave
 * each room for a few letters), the cursor's key always, marked. */
static void draw_key_labels(TuiTerm *term, const ModelScreen *m, int y, int x0, double per, int right)
{
    int n = m->look.n, k = imax(1, (int)ceil(KEY_LABEL_W / per)), cx = x0 + (int)(m->key * per);
    char t[96], label[96];
    model_look_label(&m->look, m->look.ids[m->key], term->utf8, label, sizeof label);
    int cw = imin(KEY_LABEL_W + 2, fmt_display_width(label)), cend = cx + cw;
    ui_put(&term->cv, y, cx, imin(cw, right - cx), tui_attr(term, C_SELECTED), label);
    int free_from = x0;
    for (int j = 0; j < n; j += k) {
        int x = x0 + (int)(j * per), w = imin(KEY_LABEL_W, (int)(k * per) - 1);
        if (j == m->key || x < free_from || w < 1 || x + w > right || (x + w >= cx && x <= cend))
            continue;
        model_look_label(&m->look, m->look.ids[j], term->utf8, t, sizeof t);
        ui_put(&term->cv, y, x, w, j % (2 * k) ? tui_attr(term, C_LABEL) : tui_attr(term, C_PANE_TITLE), t);
        free_from = x + w + 1;
    }
}

/* The weights one a cell, the cursor's marked, above the diagonal blank. */
static void draw_cells(TuiTerm *term, ModelScreen *m, const HeadLayout *h)
{
    int n = m->look.n, cw = h->cell_w;
    for (int j = 0; j < n; j++)
        if (cw >= 3 || j % 5 == 4 || j == 0)
            ui_putf(&term->cv, HEAT_TOP - 2, h->heat_x + j * cw, imax(cw, 3), j == m->key ? tui_attr(term, C_SELECTED)
                    : tui_attr(term, C_DIM), "%d", j + 1);
    draw_key_labels(term, m, HEAT_TOP - 1, h->heat_x, cw, h->heat_x + h->heat_w);
    for (int i = 0; i < n; i++) {
        char label[128];
        ui_put(&term->cv, HEAT_TOP + i, 0, h->label_w, i == m->query ? tui_attr(term, C_SELECTED)
               : tui_attr(term, C_LABEL), label_of(term, m, i, label, sizeof label));
        for (int j = 0; j <= i; j++) {
            float v = weight(m, i, j);
            int cursor = i == m->query && j == m->key;
            int attr = cursor ? tui_attr(term, C_CURSOR) : tui_heat_seq(term, v);
            char cell[16] = "";
            if (cw >= 4)
                snprintf(cell, sizeof cell, v >= 0.995f ? "%*s1" : "%*s.%02d", cw - (v >= 0.995f ? 2 : 4), "",
                         (int)lroundf(v * 100));
            else if (term->color == COLORS_NONE || cursor)
                snprintf(cell, sizeof cell, "%s", cursor ? "[]" : ramp_shade(v, term->utf8));
            ui_fill(&term->cv, HEAT_TOP + i, h->heat_x + j * cw, cw, attr);
            if (cell[0])
                ui_put(&term->cv, HEAT_TOP + i, h->heat_x + j * cw, cw, attr, cell);
        }
    }
}

/* Past the pane: every weight pooled two pixels a cell, the cursor's
 * query marked beside it. */
static void draw_pooled(TuiTerm *term, ModelScreen *m, const HeadLayout *h)
{
    int n = m->look.n, rows = h->heat_rows, cols = imin(h->heat_w, n);
    ui_putf(&term->cv, HEAT_TOP - 2, h->heat_x, h->heat_w, tui_attr(term, C_DIM), "%d x %d, pooled (max)", n, n);
    draw_key_labels(term, m, HEAT_TOP - 1, h->heat_x, (double)cols / n, h->heat_x + h->heat_w);
    const float *a = model_look_attention(&m->look, m->layer, m->head);
    if (a)
        tui_pixels_matrix(term, HEAT_TOP, h->heat_x, rows, cols, a, n);
    /* a query's token a row (each row stands for a few: the first named),
     * the cursor's on its own row always */
    int py = imin(2 * rows, n), y = HEAT_TOP + (m->query * py / n) / 2;
    char label[128];
    for (int r = 0; r < (py + 1) / 2; r++)
        if (HEAT_TOP + r != y)
            ui_put(&term->cv, HEAT_TOP + r, 0, h->label_w, r % 2 ? tui_attr(term, C_LABEL) : tui_attr(term, C_DIM),
                   label_of(term, m, 2 * r * n / py, label, sizeof label));
    ui_put(&term->cv, y, 0, h->label_w, tui_attr(term, C_SELECTED), label_of(term, m, m->query, label, sizeof label));
}

/* BertViz's view of one query (v): the tokens down the left and again
 * down the right, a line from the query on the left to each key on the
 * right, as bright as its weight (the largest the brightest); past the
 * rows, the keys it weighs most and the query, in order. */
static void draw_lines(TuiTerm *term, ModelScreen *m, const HeadLayout *h)
{
    int n = m->look.n, i = m->query, rows = h->heat_rows, right = h->panel_x - 2;
    int lw = h->label_w, x0 = lw + 1, rw = imin(LABEL_MAX + 4, (right - x0) / 3), x1 = right - rw - 1, W = x1 - x0;
    char label[128];
    ui_putf(&term->cv, HEAT_TOP - 1, 0, right, tui_attr(term, C_PANE_TITLE), "lines from %s to its keys (v: matrix)", label_of(term, m, i, label, sizeof label));
    if (W < 4 || rows < 2)
        return;
    /* the tokens shown: all, or the query and the keys it weighs most */
    int *shown = malloc((size_t)n * sizeof *shown), count = 0;
    float *grid = malloc((size_t)2 * rows * W * sizeof *grid);
    if (!shown || !grid) {
        free(shown), free(grid);
        return;
    }
    float floor_w = -1;
    if (n > rows) {
        float *w = malloc((size_t)(i + 1) * sizeof *w);
        for (int j = 0; w && j <= i; j++)
            w[j] = weight(m, i, j);
        for (int k = 0; w && k < rows - 1 && k <= i; k++) {     /* the rows-1'th largest */
            int best = -1;
            for (int j = 0; j <= i; j++)
                if (w[j] >= 0 && (best < 0 || w[j] > w[best]))
                    best = j;
            floor_w = w[best];
            w[best] = -1;
        }
        free(w);
    }
    for (int j = 0; j < n; j++)
        if (n <= rows || j == i || (j <= i && weight(m, i, j) >= floor_w && count < rows - 1))
            shown[count++] = j;
    int row_of_query = 0;
    float top = 0;
    for (int r = 0; r < count; r++) {
        row_of_query = shown[r] == i ? r : row_of_query;
        if (shown[r] <= i)
            top = fmaxf(top, weight(m, i, shown[r]));
    }
    for (int p = 0; p < 2 * rows * W; p++)
        grid[p] = NAN;
    for (int r = 0; r < count; r++) {
        int j = shown[r];
        if (j > i || top <= 0)
            continue;
        float v = weight(m, i, j) / top;
        /* a straight line, pixel by pixel, from the query's row to key j's */
        int ya = 2 * row_of_query + 1, yb = 2 * r + 1, steps = imax(W, abs(yb - ya) + 1);
        for (int s = 0; s < steps; s++) {
            int px = s * (W - 1) / imax(1, steps - 1), py = ya + (yb - ya) * s / imax(1, steps - 1);
            float *g = &grid[(size_t)py * W + px];
            *g = isnan(*g) ? v : fmaxf(*g, v);
        }
    }
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < W; c++)
            if (!isnan(grid[(size_t)2 * r * W + c]) || !isnan(grid[(size_t)(2 * r + 1) * W + c]))
                tui_pixel_pair(term, HEAT_TOP + r, x0 + c, grid[(size_t)2 * r * W + c],
                               grid[(size_t)(2 * r + 1) * W + c]);
    for (int r = 0; r < count; r++) {
        int j = shown[r];
        ui_put(&term->cv, HEAT_TOP + r, 0, lw, j == i ? tui_attr(term, C_SELECTED) : tui_attr(term, C_DIM),
               label_of(term, m, j, label, sizeof label));
        if (j <= i)
            ui_putf(&term->cv, HEAT_TOP + r, x1 + 1, rw, j == m->key ? tui_attr(term, C_SELECTED)
                    : tui_attr(term, C_LABEL), "%s %.2f", label_of(term, m, j, label, sizeof label), weight(m, i, j));
        else
            ui_put(&term->cv, HEAT_TOP + r, x1 + 1, rw, tui_attr(term, C_DIM), label_of(term, m, j, label,
                   sizeof label));
    }
    free(shown), free(grid);
}

/* Where the cursor's query looks: each key it can see, a bar for its
 * weight; the largest ones when they do not all fit. */
static void draw_looks(TuiTerm *term, ModelScreen *m, const HeadLayout *h)
{
    int i = m->query, room = h->heat_rows - 1, x = h->panel_x, w = h->panel_w;
    char label[128];
    ui_putf(&term->cv, HEAT_TOP - 1, x, w, tui_attr(term, C_PANE_TITLE), "where %s looks",
            label_of(term, m, i, label, sizeof label));
    int *show = calloc((size_t)i + 1, sizeof *show), shown = i + 1;
    if (!show)
        return;
    for (int j = 0; j <= i; j++)
        show[j] = 1;
    while (shown > room) {     /* drop the smallest until they fit */
        int low = -1;
        for (int j = 0; j <= i; j++)
            if (show[j] && (low < 0 || weight(m, i, j) < weight(m, i, low)))
                low = j;
        show[low] = 0;
        shown--;
    }
    int y = HEAT_TOP, lw = imin(LABEL_MAX + 4, w / 2), bw = imax(4, w - lw - 7);
    for (int j = 0; j <= i && y < HEAT_TOP + room; j++) {
        if (!show[j])
            continue;
        int chosen = j == m->key;
        ui_put(&term->cv, y, x, lw, chosen ? tui_attr(term, C_SELECTED) : tui_attr(term, C_LABEL),
               label_of(term, m, j, label, sizeof label));
        tui_bar(term, y, x + lw + 1, bw, weight(m, i, j), tui_attr(term, C_HINT));
        ui_putf(&term->cv, y, x + lw + 1 + bw + 1, 5, A_NORMAL, "%.2f", weight(m, i, j));
        y++;
    }
    if (shown < i + 1)
        ui_putf(&term->cv, y, x, w, tui_attr(term, C_DIM), "and %d keys of smaller weight", i + 1 - shown);
    free(show);
}

/* The model's next token after the cursor's query. */
static void draw_next(TuiTerm *term, ModelScreen *m, const HeadLayout *h)
{
    int k = imin(NEXT_K, m->look.run.vocab), ids[NEXT_K];
    double p[NEXT_K];
    char label[128], tok[96], why[600];
    if (model_look_next(&m->look, m->query, m->temperature, k, ids, p, why, sizeof why) != 0) {
        ui_putf(&term->cv, h->next_y, 1, term->cols - 2, tui_attr(term, C_ERROR), "%s", why);
        return;
    }
    ui_putf(&term->cv, h->next_y, 1, term->cols - 2, tui_attr(term, C_PANE_TITLE),
            "the model's next token after %s, at temperature %g (< and > change it)",
            label_of(term, m, m->query, label, sizeof label), m->temperature);
    int bw = imax(8, imin(40, term->cols - 40));
    for (int r = 0; r < k; r++) {
        int y = h->next_y + 1 + r;
        model_look_label(&m->look, ids[r], term->utf8, tok, sizeof tok);
        ui_putf(&term->cv, y, 3, 18, tui_attr(term, C_LABEL), "%s", tok);
        tui_bar(term, y, 22, bw, p[r], tui_attr(term, C_HINT));
        ui_putf(&term->cv, y, 23 + bw, 24, A_NORMAL, "%5.1f%%  (id %d)", 100 * p[r], ids[r]);
    }
}

void model_head_draw(TuiTerm *term, ModelScreen *m)
{
    const ModelConfig *c = &m->look.md.cfg;
    HeadLayout h = layout_of(term, m);
    double score;
    const char *kind = model_head_kind(&m->look.scores[m->layer * c->heads + m->head], &score);
    ui_fill(&term->cv, 0, 0, term->cols, tui_attr(term, C_TITLE));
    ui_putf(&term->cv, 0, 1, term->cols - 2, tui_attr(term, C_TITLE), "attn: %s %s layer %d, head %d %s %s %.2f %s %d "
            "tokens", m->look.name, ui_glyph(&term->cv, "·", "-"), m->layer + 1, m->head + 1,
            ui_glyph(&term->cv, "·", "-"), kind, score, ui_glyph(&term->cv, "·", "-"), m->look.n);
    char q[128], k[128];
    ui_putf(&term->cv, 1, 1, term->cols - 2, tui_attr(term, C_HINT), "query %s puts %.4f on key %s; Enter explains, "
            "l walks this head as a lesson", label_of(term, m, m->query, q, sizeof q),
            m->key <= m->query ? weight(m, m->query, m->key) : 0.0, label_of(term, m, m->key, k, sizeof k));
    /* what the head is (its four scores on the probe name its kind) and
     * what it does on this text */
    const HeadScores *ps = &m->look.scores[m->layer * c->heads + m->head];
    const HeadScores *ts = &m->look.run.scores[m->layer * c->heads + m->head];
    ui_putf(&term->cv, 2, 1, term->cols - 2, tui_attr(term, C_DIM), "on the probe: previous %.2f, first %.2f, self "
            "%.2f, induction %.2f %s %s%s", ps->previous, ps->first, ps->self, ps->induction,
            ui_glyph(&term->cv, "→", "->"), kind, strcmp(kind, "broad") == 0 ? " (none reaches 0.4)" : "");
    ui_putf(&term->cv, 3, 1, term->cols - 2, tui_attr(term, C_DIM), "on this text: previous %.2f, first %.2f, self "
            "%.2f (its share on the token before, the first, itself)", ts->previous, ts->first, ts->self);
    if (m->line_view)
        draw_lines(term, m, &h);
    else if (h.cell_w)
        draw_cells(term, m, &h);
    else
        draw_pooled(term, m, &h);
    draw_looks(term, m, &h);
    draw_next(term, m, &h);
    if (model_effect_rows(term, m))
        model_effect_strip(term, m, term->rows - 1 - model_effect_rows(term, m));
}

void model_head_explain(TuiTerm *term, ModelScreen *m)
{
    int i = m->query, j = m->key;
    char q[128], k[128];
    label_of(term, m, i, q, sizeof q);
    label_of(term, m, j, k, sizeof k);
    if (j > i) {
        tui_message(term, 0, "key %s comes after query %s: masked to -inf, so its weight is 0", k, q);
        return;
    }
    double sum = 0;
    char change[300];
    for (int c = 0; c <= i; c++)
        sum += weight(m, i, c);
    tui_message(term, 0, "A[%d,%d] = %.4f: %.1f%% of query %s's attention goes to key %s; its %d weights sum to "
                "%.4f (l: the scores behind them)%s", i + 1, j + 1, weight(m, i, j), 100 * weight(m, i, j), q, k, i + 1,
                sum, model_effect_at(m, i, change, sizeof change));
}
