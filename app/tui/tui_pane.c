/*
 * tui_pane.c - one matrix in its pane: what size it would like, how it
 * fits the room it got (scrolling, compact heat cells, the pooled
 * overview, cells scaled up on a big screen); its drawing is
 * tui_pane_draw.c's. The title spells out how the matrix was made, in the
 * engine's words (explain_how).
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
            pane_axis_label(label, sizeof label, m, i, 1, 1);
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

/* A label of m's axis (by_rows: a row's) for line k of a pane's blocks of
 * `block` lines: the lesson's label, else the 1-based number, or the
 * block's range. */
void pane_axis_label(char *buf, size_t size, const Mat *m, int k, int block, int by_rows)
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

const Mat *lv_pane_mat(const LessonView *lv, int i)
{
    /* in a bug hunt, the numbers with the bug */
    return lv->ses ? lesson_state_get(session_shown_state(lv->ses), lv->panes[i].name) : NULL;
}
