/*
 * tui_pane.c - one matrix in its pane: what size it would like, how it
 * fits the room it got (scrolling, compact heat cells, the pooled
 * overview, cells scaled up on a big screen), and drawing it with labelled axes, aligned numbers, heat
 * colours or shades, a legend, masked lines, edited cells, the cursor and
 * the operands of the explained cell. The title spells out how the matrix
 * was made, in the engine's words (explain_how).
 */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "tui_put.h"
#include "heat.h"
#include "ramp.h"
#include "tui_chrome.h"
#include "tui_pane.h"
#include "text.h"
#include "tui_state.h"

#include "minmax.h"

void tui_views_free(LessonView *lv)
{
    if (lv->views)
        for (int i = 0; i < lv->n_panes; i++)
            free(lv->views[i].pooled);
    free(lv->views);
    lv->views = NULL;
}

static void axis_label(char *buf, size_t size, const Mat *m, int k, int block, int by_rows);

/* The widest a label in the block font makes the label column. */
#define ROOM_LABEL_MAX_W 40

/* A presenter's projector: pane names and labels in the block font. */
static int room_labels(const Tui *t)
{
    return t->utf8 && tui_on_projector(t);
}

static int label_width(const Labels *l, int n)
{
    int w = 1;
    for (int k = n; k >= 10; k /= 10)
        w++;
    if (l)
        for (int i = 0; i < l->n; i++)
            w = imax(w, fmt_display_width(l->names[i]));
    return imin(w, 12);
}

/* What of m's values decides its column width, in one pass. */
static FmtExtremes values_extremes(const Mat *m)
{
    FmtExtremes e;
    fmt_extremes_begin(&e);
    for (int i = 0; i < m->rows; i++)
        fmt_extremes_add(&e, mat_row(m, i), m->cols);
    return e;
}


static int has_minus_inf(const Mat *m)
{
    for (int r = 0; r < m->rows; r++) {
        const float *row = mat_row(m, r);
        for (int c = 0; c < m->cols; c++)
            if (row[c] == -INFINITY)
                return 1;
    }
    return 0;
}

/* What a heatmap's scale and legend need of m, into p's memo: the scale,
 * whether a -inf or a masked zero is among the cells, the masked lines. */
static void find_heat(Pane *p, const Mat *m)
{
    /* the scale and the -inf from the extremes, found already */
    float lo, hi;
    fmt_extremes_range(&p->memo_extremes, &lo, &hi);
    p->memo_heat = heat_scale_of_range(lo, hi);
    p->memo_infs = p->memo_extremes.inf[1];
    /* a masked zero needs a -inf in the scores it was made from */
    p->memo_zeros = 0;
    if (m->prov.a && has_minus_inf(m->prov.a))
        for (int r = 0; r < m->rows && !p->memo_zeros; r++)
            for (int c = 0; c < m->cols && !p->memo_zeros; c++)
                p->memo_zeros = mat_cell_masked(m, r, c);
    int by_rows = !m->masked_cols;
    p->memo_masked = 0;
    p->memo_first_masked = -1;
    for (int k = 0; m->masked && k < (by_rows ? m->rows : m->cols); k++)
        if (mat_line_masked(m, k, by_rows)) {
            p->memo_masked++;
            if (p->memo_first_masked < 0)
                p->memo_first_masked = k;
        }
    p->memo_heat_ok = 1;
}

void pane_need(Tui *t, int i, int decimals, PaneNeed *need)
{
    LessonView *lv = &t->lv;
    PaneView *v = &lv->views[i];
    Pane *p = &lv->panes[i];
    free(v->pooled);
    memset(v, 0, sizeof *v);
    v->br = v->bc = 1;
    v->m = lv_pane_mat(lv, i);
    *need = (PaneNeed){ PANE_MIN_W, 3, PANE_MIN_W, 3, 0, 0, 0, 0 };
    if (!v->m)
        return;
    const Mat *m = v->m;
    if (p->memo_serial != m->serial) {
        p->memo_serial = m->serial;
        p->memo_extremes = values_extremes(m);
        p->memo_heat_ok = 0;
    }
    if (p->memo_frame != t->frame_no || p->memo_m != m) {
        /* how it was made: in a bug hunt as the lesson writes it (the
         * planted formula would give the bug away), which evaluates the
         * statement again: once a frame */
        p->memo_how[0] = '\0';
        if (session_bug(t->lv.ses)) {
            Mat *written = session_bug_as_written(t->lv.ses, p->name);
            if (written)
                explain_how(written, p->memo_how, sizeof p->memo_how);
            mat_free(written);
        } else {
            explain_how(m, p->memo_how, sizeof p->memo_how);
        }
        p->memo_frame = t->frame_no;
        p->memo_m = m;
    }
    v->decimals = decimals;
    v->num_w = fmt_width_of(&p->memo_extremes, decimals, t->utf8);
    int col_w = imin(label_width(m->col_labels, m->cols), 10);
    int heat_mono = p->heat && t->color == COLORS_NONE;
    v->grid.cell_w = imax(v->num_w + (heat_mono ? 2 : 0), col_w);
    v->grid.label_w = label_width(m->row_labels, m->rows);
    v->grid.footer_h = p->heat ? 1 : 0;
    /* a room's projector: the name and the labels in the block font too,
     * in three more rows above the cells and a wider label column */
    if (room_labels(t)) {
        v->grid.header_h = 1 + big_rows(BIG_HALF);
        int w = big_width(p->name, BIG_HALF);
        for (int i = 0; i < m->rows; i++) {
            char label[64];
            axis_label(label, sizeof label, m, i, 1, 1);
            w = imax(w, big_width(label, BIG_HALF));
        }
        if (w > 0)
            v->grid.label_w = imax(v->grid.label_w, imin(w, ROOM_LABEL_MAX_W) + 1);
    }
    v->rows = m->rows;
    v->cols = m->cols;
    if (p->heat && !p->memo_heat_ok)
        find_heat(p, m);
    if (p->heat)
        v->heat = p->memo_heat;
    /* wide enough for the title and its formula, within reason */
    snprintf(v->how, sizeof v->how, "%s", p->memo_how);
    int title_w = 2 + (int)strlen(p->name) + 8 + (v->how[0] ? 3 + fmt_display_width(v->how) : 0);
    need->want_w = grid_want_w(&v->grid, m->cols);
    need->nice_w = imin(title_w, 48);
    if (p->heat) {
        /* the legend: scale, swatches, and the notes on masking */
        int infs = p->memo_infs;
        int legend_w = 26 + (infs ? 9 : 0) + (m->masked && m->n_masked > 0 ? 16 : 0);
        need->nice_w = imax(need->nice_w, legend_w);
    }
    need->want_h = grid_want_h(&v->grid, m->rows);
    need->min_w = PANE_MIN_W;
    need->min_h = PANE_MIN_H + v->grid.footer_h;
    if (!p->overview && m->rows <= PANE_WHOLE_MAX && m->cols <= PANE_WHOLE_MAX) {
        /* what a step is about is small: seen whole or not at all */
        need->min_w = imax(need->min_w, need->want_w);
        need->min_h = need->want_h;
    }
    /* on a big screen the cells may grow; an overview keeps its blocks */
    if (!p->overview) {
        need->grow_rows = m->rows;
        need->grow_cols = m->cols;
        need->heat = p->heat;
    }
}

/* The largest block-font size in which every number of a scaled pane
 * fits its cell with a column to spare either side (one size for the
 * whole pane, so the numbers line up). */
static BigSize big_size(const Tui *t, const PaneView *v)
{
    const Mat *m = v->m;
    int w = v->grid.cell_w - 2, h = grid_cell_h(&v->grid);
    BigSize best = BIG_FULL;
    for (int i = 0; i < m->rows && best != BIG_NONE; i++)
        for (int j = 0; j < m->cols && best != BIG_NONE; j++) {
            char num[48];
            num_format(num, sizeof num, mat_get(m, i, j), v->decimals, t->utf8);
            if (!isfinite(mat_get(m, i, j)))
                continue;   /* shown as plain text in its cell */
            BigSize s = big_fit(num, w, h, t->utf8);
            if (s < best)
                best = s;
        }
    return best;
}

/* After placement: compact heat cells, the overview, what fits, scrolling. */
void pane_fit(Tui *t, int i)
{
    LessonView *lv = &t->lv;
    PaneView *v = &lv->views[i];
    Pane *p = &lv->panes[i];
    const Mat *m = v->m;
    if (!m)
        return;
    Rect r = v->place.r;
    p->cur_r = imin(p->cur_r, m->rows - 1);
    p->cur_c = imin(p->cur_c, m->cols - 1);
    if (p->heat && grid_want_w(&v->grid, m->cols) > r.w) {
        v->compact = 1;
        v->grid.cell_w = 2;
    }
    if (p->overview) {
        int br, bc;
        int digits = label_width(NULL, m->rows);
        v->grid.label_w = imax(v->grid.label_w, 2 * digits + 1);
        pool_blocks(m->rows, m->cols, grid_fit_rows(&v->grid, r.h), grid_fit_cols(&v->grid, r.w), &br, &bc);
        v->br = br;
        v->bc = bc;
        v->rows = (m->rows + br - 1) / br;
        v->cols = (m->cols + bc - 1) / bc;
        v->pooled = malloc((size_t)v->rows * (size_t)v->cols * sizeof *v->pooled);
        if (!v->pooled)
            tui_fatal("out of memory");
        pool_matrix(v->pooled, m->data, m->rows, m->cols, m->ld, br, bc, p->overview == 2);
        p->cur_r -= p->cur_r % br;
        p->cur_c -= p->cur_c % bc;
    }
    v->fit_r = imin(grid_fit_rows(&v->grid, r.h), v->rows);
    v->fit_c = imin(grid_fit_cols(&v->grid, r.w), v->cols);
    /* grown cells (and a zoomed pane's) show their numbers in the block font */
    v->big = (t->big_numbers || lv->zoom) && v->scaled && !v->compact ? big_size(t, v) : BIG_NONE;
    p->first_r = layout_scroll(p->cur_r / v->br, p->first_r, v->fit_r, v->rows);
    p->first_c = layout_scroll(p->cur_c / v->bc, p->first_c, v->fit_c, v->cols);
}


static int is_operand(const Explanation *ex, const PaneView *v, const Pane *p, int i, int j)
{
    if (!ex)
        return 0;
    for (int k = 0; k < ex->n_operands; k++) {
        const CellRef *c = &ex->operands[k];
        if (c->row != i || c->col != j || !c->mat)
            continue;
        if (c->mat == v->m || (c->mat->name[0] && strcmp(c->mat->name, p->name) == 0))
            return 1;
    }
    return 0;
}

/* The attribute of a heat cell of value x. */
static int heat_attr(const Tui *t, const PaneView *v, float x)
{
    if (!isfinite(x))
        return t->attr[C_HEAT_INF];
    if (t->color == COLORS_NONE)
        return A_NORMAL;
    float s = heat_position(&v->heat, x);
    if (v->heat.diverging)
        return t->heat_div[ramp_signed_level(s, HEAT_DIV_HALF) + HEAT_DIV_HALF];
    return t->heat_seq[ramp_level(s, HEAT_SEQ_LEVELS)];
}

static const char *shade_of(const Tui *t, const PaneView *v, float x)
{
    return heat_shade(&v->heat, x, t->cv.utf8);
}

/* A number in the middle of cell r, on row y or, in the pane's block font,
 * centred down the cell; with clear, on a cleared patch (over shades). */
static void cell_number(const Tui *t, const PaneView *v, Rect r, int y, int attr, const char *num, int clear)
{
    int bw = v->big != BIG_NONE ? big_width(num, v->big) : -1;
    /* infinity has no glyph: in the block font it is spelt, when it fits */
    if (v->big != BIG_NONE && bw < 0 && (strstr(num, "∞") || strstr(num, "inf"))) {
        const char *word = num[0] == '-' ? "-INF" : "INF";
        if (big_width(word, v->big) <= r.w - 2) {
            num = word;
            bw = big_width(word, v->big);
        }
    }
    if (bw < 0) {
        int nw = imin(v->num_w, r.w), px = r.x + (r.w - nw) / 2;
        if (clear) {
            int pw = imin(nw + 2, r.w);
            ui_fill(&t->cv, y, r.x + (r.w - pw) / 2, pw, attr);
        }
        ui_put_right(&t->cv, y, px, nw, attr, num);
        return;
    }
    int rows = big_rows(v->big), y0 = r.y + (r.h - rows) / 2, x0 = r.x + (r.w - bw) / 2;
    char line[512];
    for (int k = 0; k < rows; k++) {
        if (clear)
            ui_fill(&t->cv, y0 + k, imax(r.x, x0 - 1), imin(bw + 2, r.w), attr);
        ui_put(&t->cv, y0 + k, x0, bw, attr, big_row(num, v->big, k, t->utf8, line, sizeof line));
    }
}

/* A scaled-up heat cell: the block r in the heat's colour (or, without
 * colour, filled with its shade), the number on row y, right-aligned in
 * the middle num_w columns so the decimal points line up. */
static void heat_block(const Tui *t, const PaneView *v, float val, int attr, Rect r, int y, const char *num)
{
    if (t->color == COLORS_NONE) {
        const char *sh = shade_of(t, v, val);
        char row[256];
        size_t len = 0, sl = strlen(sh);
        for (int k = 0; k < r.w && len + sl < sizeof row; k++, len += sl)
            memcpy(row + len, sh, sl);
        row[len] = '\0';
        for (int yy = r.y; yy < r.y + r.h; yy++)
            ui_put(&t->cv, yy, r.x, r.w, attr, row);
        /* the number on a clear patch so it reads over the shade */
        cell_number(t, v, r, y, attr, num, 1);
        return;
    }
    /* the number's rows in its colours, the others as their twin */
    int ny = y, nrows = 1;
    if (v->big != BIG_NONE && (big_width(num, v->big) >= 0 || !isfinite(val))) {
        nrows = big_rows(v->big);
        ny = r.y + (r.h - nrows) / 2;
    }
    int fill = tui_heat_fill(t, attr);
    for (int yy = r.y; yy < r.y + r.h; yy++)
        ui_fill(&t->cv, yy, r.x, r.w, yy >= ny && yy < ny + nrows ? attr : fill);
    if (v->num_w <= r.w)
        cell_number(t, v, r, y, attr, num, 0);
    else if (!isfinite(val))
        ui_put(&t->cv, y, r.x, r.w, attr, ui_glyph(&t->cv, "-∞", "-i"));
}

static void axis_label(char *buf, size_t size, const Mat *m, int k, int block, int by_rows)
{
    const char *l = by_rows ? mat_row_label(m, k) : mat_col_label(m, k);
    int n = by_rows ? m->rows : m->cols;
    if (block > 1 && k + 1 < imin(k + block, n))
        snprintf(buf, size, "%d-%d", k + 1, imin(k + block, n));
    else if (block > 1)
        snprintf(buf, size, "%d", k + 1);
    else if (l)
        snprintf(buf, size, "%s", l);
    else
        snprintf(buf, size, "%d", k + 1);
}

/* One part of a legend (a mark, then a word after a blank), drawn whole or
 * not at all: where a part does not fit, "…" says something was left out,
 * so no word is ever cut in the middle ("-∞ m" was). Returns where the
 * next part starts, or -1 once a part was left out. */
static int legend_part(const Tui *t, int y, int cx, int end, int attr, const char *mark, const char *word)
{
    if (cx < 0)
        return -1;
    int mw = fmt_display_width(mark), need = mw + (word ? 1 + fmt_display_width(word) : 0);
    if (cx + need > end) {
        if (cx < end)
            ui_put(&t->cv, y, cx, 1, t->attr[C_DIM], ui_glyph(&t->cv, "…", "~"));
        return -1;
    }
    ui_put(&t->cv, y, cx, mw, attr, mark);
    if (word)
        ui_put(&t->cv, y, cx + mw + 1, need - mw - 1, t->attr[C_DIM], word);
    return cx + need + 2;
}

static void draw_legend(const Tui *t, const Pane *p, const PaneView *v, int y, int x, int w)
{
    const Mat *m = v->m;
    char lo[32], hi[32];
    int cx = x;
    /* swatches as wide as the cells are tall, so a scaled-up legend reads too */
    int sw = imax(1, imin(grid_cell_h(&v->grid), (w - 16) / 8));
    if (t->color == COLORS_NONE) {
        /* shades: by value from lo to hi, or by size for signed values */
        if (v->heat.diverging) {
            snprintf(lo, sizeof lo, "|v|: 0");
            num_format(hi, sizeof hi, v->heat.hi, 2, t->utf8);
        } else {
            num_format(lo, sizeof lo, v->heat.lo, 2, t->utf8);
            num_format(hi, sizeof hi, v->heat.hi, 2, t->utf8);
        }
        ui_put(&t->cv, y, cx, x + w - cx, t->attr[C_DIM], lo);
        cx += fmt_display_width(lo) + 1;
        for (int k = 1; k < RAMP_SHADE_LEVELS && cx + sw <= x + w; k++)
            for (int d = 0; d < sw; d++, cx++)
                ui_put(&t->cv, y, cx, 1, A_NORMAL, ramp_shade(((float)k + 0.5f) / RAMP_SHADE_LEVELS, t->utf8));
    } else {
        num_format(lo, sizeof lo, v->heat.diverging ? -v->heat.hi : v->heat.lo, 2, t->utf8);
        num_format(hi, sizeof hi, v->heat.hi, 2, t->utf8);
        ui_put(&t->cv, y, cx, x + w - cx, t->attr[C_DIM], lo);
        cx += fmt_display_width(lo) + 1;
        int steps = 8;
        for (int k = 0; k < steps && cx + sw <= x + w; k++, cx += sw) {
            float f = ((float)k + 0.5f) / (float)steps;
            float val = v->heat.diverging ? -v->heat.hi + 2 * v->heat.hi * f : v->heat.lo + (v->heat.hi - v->heat.lo) * f;
            ui_fill(&t->cv, y, cx, sw, heat_attr(t, v, val));
        }
    }
    cx = legend_part(t, y, cx + 1, x + w, t->attr[C_DIM], hi, NULL);
    if (p->memo_infs)
        cx = legend_part(t, y, cx, x + w, t->attr[C_HEAT_INF], ui_glyph(&t->cv, "-∞", "-inf"), "masked");
    if (p->memo_zeros && !p->memo_infs)
        cx = legend_part(t, y, cx, x + w, t->attr[C_MASKED], MASKED_ZERO_TEXT, "masked");
    if (p->memo_masked) {
        char what[64];
        snprintf(what, sizeof what, "%s %d%s masked", m->masked_cols ? "col" : "row", p->memo_first_masked + 1,
                 p->memo_masked > 1 ? " ..." : "");
        legend_part(t, y, cx, x + w, t->attr[C_MASKED], what, NULL);
    }
}

void pane_draw(const Tui *t, int idx, const Explanation *ex)
{
    const LessonView *lv = &t->lv;
    const Pane *p = &lv->panes[idx];
    const PaneView *v = &lv->views[idx];
    Rect r = v->place.r;
    int focus = idx == lv->focus;
    /* the title: name, shape, how it was made, what is shown */
    char title[256], shape[32] = "";
    const Mat *m = v->m;
    if (m)
        mat_shape_str(m, shape, sizeof shape);
    int tl = snprintf(title, sizeof title, "%s%s %s", focus ? ui_glyph(&t->cv, "▶ ", "> ") : "  ", p->name, shape);
    if (p->overview && tl < (int)sizeof title)
        tl += snprintf(title + tl, sizeof title - (size_t)tl, " [%s of %dx%d blocks]",
                       p->overview == 2 ? "max" : "mean", v->br, v->bc);
    if (m && v->fit_r < v->rows && tl < (int)sizeof title)
        tl += snprintf(title + tl, sizeof title - (size_t)tl, " [rows %d-%d/%d]", p->first_r + 1,
                       p->first_r + v->fit_r, v->rows);
    if (m && v->fit_c < v->cols && tl < (int)sizeof title)
        tl += snprintf(title + tl, sizeof title - (size_t)tl, " [cols %d-%d/%d]", p->first_c + 1,
                       p->first_c + v->fit_c, v->cols);
    if (m && v->how[0] && tl < (int)sizeof title)
        snprintf(title + tl, sizeof title - (size_t)tl, " = %s", v->how);
    ui_put_fit(&t->cv, r.y, r.x, r.w, t->attr[focus ? C_PANE_FOCUS : C_PANE_TITLE], title);
    if (!m) {
        ui_put(&t->cv, r.y + 1, r.x + 2, r.w - 2, t->attr[C_ERROR], "not defined");
        return;
    }
    const GridSpec *g = &v->grid;
    int heat = p->heat, mono = t->color == COLORS_NONE;
    char buf[64];
    /* scaled-up cells have their number in the middle (heat cells are
     * blocks of their colour around it) */
    int ch = grid_cell_h(g), centred = v->scaled;
    /* the labels' row: under the title, or the last of a room's header */
    int label_y = r.y + grid_header_h(g) - 1, room = g->header_h > GRID_HEADER_H;
    char line[512];
    if (room && big_width(p->name, BIG_HALF) >= 0 && big_width(p->name, BIG_HALF) < g->label_w)
        for (int k = 0; k < big_rows(BIG_HALF); k++)
            ui_put(&t->cv, r.y + 1 + k, r.x, g->label_w, t->attr[focus ? C_PANE_FOCUS : C_PANE_TITLE],
                   big_row(p->name, BIG_HALF, k, t->utf8, line, sizeof line));
    /* column labels */
    for (int k = 0; k < v->fit_c; k++) {
        int j = p->first_c + k;
        axis_label(buf, sizeof buf, m, j * v->bc, v->bc, 0);
        int a = mat_line_masked(m, j, 0) && v->bc == 1 ? t->attr[C_MASKED] : t->attr[C_LABEL];
        int bw = room && !v->compact ? big_width(buf, BIG_HALF) : -1;
        if (bw >= 0 && bw <= g->cell_w) {
            /* big, in the middle of its column */
            int x = r.x + grid_cell_x(g, k) + (g->cell_w - bw) / 2;
            for (int row = 0; row < big_rows(BIG_HALF); row++)
                ui_put(&t->cv, r.y + 1 + row, x, bw, a, big_row(buf, BIG_HALF, row, t->utf8, line, sizeof line));
            continue;
        }
        if (v->compact) {
            /* two columns per cell: label every few cells */
            if (k % 4 == 0)
                ui_put(&t->cv, label_y, r.x + grid_cell_x(g, k), imin(8, r.w - grid_cell_x(g, k)), a, buf);
        } else if (centred) {
            /* over the numbers, which sit in the middle of their cells */
            int nw = imax(v->num_w, fmt_display_width(buf));
            int pad = imax(0, (g->cell_w - imax(v->num_w, 1)) / 2);
            if (pad + nw > g->cell_w)
                pad = imax(0, g->cell_w - nw);
            ui_put_right(&t->cv, label_y, r.x + grid_cell_x(g, k) + pad, nw, a, buf);
        } else {
            ui_put_right(&t->cv, label_y, r.x + grid_cell_x(g, k), g->cell_w, a, buf);
        }
    }
    for (int k = 0; k < v->fit_r; k++) {
        /* a matrix row takes ch terminal rows: y0 the first, y the one
         * with the label and the number */
        int i = p->first_r + k, y0 = r.y + grid_cell_y(g, k), y = y0 + (ch - 1) / 2;
        axis_label(buf, sizeof buf, m, i * v->br, v->br, 1);
        int masked = v->br == 1 && mat_line_masked(m, i, 1);
        int lbw = room && ch >= big_rows(BIG_HALF) ? big_width(buf, BIG_HALF) : -1;
        if (lbw >= 0 && lbw < g->label_w)
            for (int row = 0; row < big_rows(BIG_HALF); row++)
                ui_put(&t->cv, y - 1 + row, r.x, g->label_w, t->attr[masked ? C_MASKED : C_LABEL],
                       big_row(buf, BIG_HALF, row, t->utf8, line, sizeof line));
        else
            ui_put(&t->cv, y, r.x, g->label_w, t->attr[masked ? C_MASKED : C_LABEL], buf);
        if (masked)
            ui_put(&t->cv, y, r.x + g->label_w, 1, t->attr[C_MASKED], ui_glyph(&t->cv, "⊘", "!"));
        for (int c = 0; c < v->fit_c; c++) {
            int j = p->first_c + c, x = r.x + grid_cell_x(g, c);
            int mi = i * v->br, mj = j * v->bc;
            float val = p->overview ? v->pooled[i * v->cols + j] : mat_get(m, mi, mj);
            int cursor = focus && mi <= p->cur_r && p->cur_r < mi + v->br && mj <= p->cur_c && p->cur_c < mj + v->bc;
            int edited = !p->overview && session_is_edited(lv->ses, p->name, mi, mj);
            int operand = !p->overview && is_operand(ex, v, p, mi, mj);
            int mask_zero = !p->overview && mat_cell_masked(m, mi, mj);
            int a = A_NORMAL;
            if (heat)
                a = heat_attr(t, v, val);
            else if (edited)
                a = t->attr[C_EDITED];
            else if (mask_zero)
                a = t->attr[C_MASKED];
            if (heat && edited)
                a |= A_UNDERLINE | A_BOLD;
            /* on a heatmap the colour is the value: marks go on top of it
             * (and the numbers may go: N, for a class reading the colours) */
            char num[48];
            if (mask_zero)      /* exact, unlike a weight rounded to 0 */
                snprintf(num, sizeof num, "%s", MASKED_ZERO_TEXT);
            else
                num_format(num, sizeof num, val, v->decimals, t->utf8);
            if (heat && t->heat_numbers_off)
                num[0] = '\0';
            /* where the number goes: right-aligned in the cell, or in a box
             * as wide as the widest number in the middle of a scaled cell */
            int num_x = x, num_w = g->cell_w;
            if (centred && !heat) {
                num_w = imin(v->num_w, g->cell_w);
                num_x = x + (g->cell_w - num_w) / 2;
            }
            /* the operand mark goes just before the number (a right-aligned
             * number in a wide cell has blanks before it), or a block */
            int mark_x = x - 1;
            if (operand && !heat && fmt_display_width(num) < num_x - x + num_w)
                mark_x = num_x + num_w - fmt_display_width(num) - 1;
            if (operand) {
                a = heat ? (int)(a | A_UNDERLINE | A_BOLD) : t->attr[C_OPERAND];
                if (mark_x == x - 1)
                    ui_put(&t->cv, y, x - 1, 1, t->attr[C_OPERAND], ui_glyph(&t->cv, "▸", ">"));
            }
            int hidden = !lv_pane_shown(t, idx) || (!p->overview && session_cell_hidden(lv->ses, lv->ex_index, p->name, mi, mj));
            if (hidden)     /* predict before you see: no number, no colour */
                a = t->attr[C_HINT] | A_BOLD;
            if (cursor)
                a = heat && !hidden ? (int)((a ^ A_REVERSE) | A_BOLD) : t->attr[C_CURSOR];
            if (hidden && centred) {
                for (int yy = y0; yy < y0 + ch; yy++)
                    ui_fill(&t->cv, yy, x, g->cell_w, a);
                cell_number(t, v, (Rect){ x, y0, g->cell_w, ch }, y, a, "?", 0);
            } else if (hidden) {
                ui_fill(&t->cv, y, x, g->cell_w, a);
                ui_put_right(&t->cv, y, num_x, num_w, a, "?");
            } else if (centred && heat) {
                heat_block(t, v, val, a, (Rect){ x, y0, g->cell_w, ch }, y, num);
            } else if (heat && mono) {
                const char *sh = shade_of(t, v, val);
                if (v->compact) {
                    char two[16];
                    snprintf(two, sizeof two, "%s%s", sh, sh);
                    ui_put(&t->cv, y, x, 2, a, two);
                } else {
                    ui_put(&t->cv, y, x, 1, a, sh);
                    ui_fill(&t->cv, y, x + 1, 1, a);
                    ui_put_right(&t->cv, y, x + 2, g->cell_w - 2, a, num);
                }
            } else if (heat && v->compact) {
                ui_fill(&t->cv, y, x, g->cell_w, a);
                if (!isfinite(val))
                    ui_put(&t->cv, y, x, 2, a, ui_glyph(&t->cv, "-∞", "-i"));
            } else if (centred) {
                cell_number(t, v, (Rect){ x, y0, g->cell_w, ch }, y, a, num, 0);
            } else {
                ui_put_right(&t->cv, y, num_x, num_w, a, num);
            }
            if (operand && mark_x != x - 1)
                ui_put(&t->cv, y, mark_x, 1, t->attr[C_OPERAND], ui_glyph(&t->cv, "▸", ">"));
            if (edited && x + g->cell_w < t->cols)
                /* not '*': beside a number it would read as a product */
                ui_put(&t->cv, y, x + g->cell_w, 1, t->attr[C_EDITED], ui_glyph(&t->cv, "✎", "'"));
        }
    }
    if (heat && lv_pane_shown(t, idx))
        draw_legend(t, p, v, r.y + grid_cell_y(g, v->fit_r), r.x, r.w);
}

const Mat *lv_pane_mat(const LessonView *lv, int i)
{
    /* in a bug hunt, the numbers with the bug */
    return lv->ses ? lesson_state_get(session_shown_state(lv->ses), lv->panes[i].name) : NULL;
}
