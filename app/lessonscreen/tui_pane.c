/*
 * tui_pane.c - the panes of a step: which matrices it shows and which
 * are shown yet (a presenter reveals them one at a time), the decimals
 * that tell their numbers apart; and one matrix in its pane: what size it
 * would like, how it fits the room it got (scrolling, compact heat cells,
 * the pooled overview, cells scaled up on a big screen); its drawing is
 * tui_pane_draw.c's. The title spells out how the matrix was made, in the
 * engine's words (explain_how). And `w`: the focused pane as the screen
 * shows it, an SVG by the one writer (svg.h) in the current folder.
 */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filewrite.h"
#include "format.h"
#include "tui_put.h"
#include "heat.h"
#include "panes.h"
#include "svg.h"
#include "ramp.h"
#include "tui_pane.h"
#include "text.h"
#include "tui_lesson_internal.h"

#include "minmax.h"

/* ---- the panes of a step ------------------------------------------------ */

static void add_pane(LessonView *lv, const char *name, int heat)
{
    for (int i = 0; i < lv->n_panes; i++)
        if (strcmp(lv->panes[i].name, name) == 0)
            return;
    Pane *p = &lv->panes[lv->n_panes++];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    p->heat = p->heat_file = heat;
}

/* The largest pane whose numbers are compared pair by pair. */
#define TELL_APART_CELLS 256

/* Do two numbers of m that differ read the same at d decimals, or does one
 * too small for them need an exponent (-5.0e-3 beside -0.01 in a column)? */
static int numbers_clash(const Mat *m, int d)
{
    int n = m->rows * m->cols;
    for (int a = 0; a < n; a++) {
        float x = mat_get(m, a / m->cols, a % m->cols);
        char fx[64];
        if (!isfinite(x))
            continue;
        if (x != 0 && fabs((double)x) < 0.5 * pow(10.0, -d))    /* as num_format decides */
            return 1;
        snprintf(fx, sizeof fx, "%.*f", d, x);
        for (int b = a + 1; b < n; b++) {
            float y = mat_get(m, b / m->cols, b % m->cols);
            char fy[64];
            /* float noise is one number, not two */
            if (!isfinite(y) || fabsf(x - y) <= 1e-6f * fmaxf(1.0f, fabsf(x)))
                continue;
            snprintf(fy, sizeof fy, "%.*f", d, y);
            if (strcmp(fx, fy) == 0)
                return 1;
        }
    }
    return 0;
}

/* Presenter mode: the fewest decimals, from PRESENT_DECIMALS up to
 * NUM_DECIMALS_DEFAULT, at which no two different numbers of a pane read
 * the same (at 2, 0.3577 and 0.3622 would both be 0.36). */
static int decimals_to_tell_apart(const LessonView *lv)
{
    for (int d = PRESENT_DECIMALS; d < NUM_DECIMALS_DEFAULT; d++) {
        int clash = 0;
        for (int i = 0; i < lv->n_panes && !clash; i++) {
            const Mat *m = lv_pane_mat(lv, i);
            clash = m && m->rows * m->cols <= TELL_APART_CELLS && numbers_clash(m, d);
        }
        if (!clash)
            return d;
    }
    return NUM_DECIMALS_DEFAULT;
}

/* Is pane i a given matrix (a literal, a knob, a file's, randn's), with
 * nothing to predict? */
static int pane_given(const LessonView *lv, int i)
{
    const Mat *m = i >= 0 && i < lv->n_panes ? lv_pane_mat(lv, i) : NULL;
    return m && (m->prov.op == OP_INPUT || m->prov.op == OP_RANDN);
}

int lv_pane_shown(const LessonScreen *ls, int i)
{
    /* a room predicts what is computed; what is given is shown */
    return !ls->present || i < ls->lv.revealed || pane_given(&ls->lv, i);
}

int lv_pane_next_hidden(const LessonScreen *ls)
{
    const LessonView *lv = &ls->lv;
    for (int i = lv->revealed; i < lv->n_panes; i++)
        if (!lv_pane_shown(ls, i))
            return i;
    return -1;
}

/* The step's panes and what they ask of the numbers. */
static void build_panes(LessonScreen *ls, const Pane *prev, int n_prev);

void lv_build_panes(LessonScreen *ls, const Pane *prev, int n_prev)
{
    build_panes(ls, prev, n_prev);
    LessonView *lv = &ls->lv;
    if (ls->present && !lv->decimals_chosen)
        lv->decimals = lv->decimals_shown = decimals_to_tell_apart(lv);
}

static void build_panes(LessonScreen *ls, const Pane *prev, int n_prev)
{
    LessonView *lv = &ls->lv;
    char focus_name[MAT_NAME_MAX] = "";
    if (prev && lv->n_panes > 0)
        snprintf(focus_name, sizeof focus_name, "%s", prev[lv->focus].name);
    int old_focus = lv->focus;
    tui_views_free(lv);
    free(lv->panes);
    lv->panes = NULL;
    lv->n_panes = lv->focus = 0;
    const Lesson *l = session_lesson(lv->ses);
    const LessonStep *st = session_step(lv->ses);
    int want = panes_count(l, st);
    lv->panes = calloc((size_t)imax(want, 1), sizeof *lv->panes);
    lv->views = calloc((size_t)imax(want, 1), sizeof *lv->views);
    if (!lv->panes || !lv->views)
        tui_fatal("out of memory");
    for (int i = 0; i < want; i++) {
        const char *name = panes_name(l, st, i);
        add_pane(lv, name, panes_heat(st, name));
    }
    if (!prev)
        return;
    /* the panes that are still there keep their cursor, scroll and view */
    lv->focus = imin(old_focus, imax(lv->n_panes - 1, 0));
    for (int i = 0; i < lv->n_panes; i++) {
        Pane *p = &lv->panes[i];
        if (strcmp(p->name, focus_name) == 0)
            lv->focus = i;
        const Mat *m = lv_pane_mat(lv, i);
        for (int k = 0; k < n_prev && m; k++) {
            if (strcmp(prev[k].name, p->name) != 0)
                continue;
            /* a heat toggle by hand stays; otherwise the file decides */
            if (prev[k].heat != prev[k].heat_file)
                p->heat = prev[k].heat;
            p->overview = prev[k].overview;
            p->cur_r = imin(prev[k].cur_r, m->rows - 1);
            p->cur_c = imin(prev[k].cur_c, m->cols - 1);
            p->first_r = prev[k].first_r;
            p->first_c = prev[k].first_c;
        }
    }
}

int lv_on_projector(const TuiTerm *term, const LessonScreen *ls)
{
    return ls->present && term->cols >= PROJECTOR_COLS && term->rows >= PROJECTOR_ROWS;
}

/* ---- one matrix in its pane ---------------------------------------------- */

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
static int room_labels(const TuiTerm *term, const LessonScreen *ls)
{
    return term->utf8 && lv_on_projector(term, ls);
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

void pane_need(TuiTerm *term, LessonScreen *ls, int i, int decimals, PaneNeed *need)
{
    LessonView *lv = &ls->lv;
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
    if (p->memo_frame != term->frame_no || p->memo_m != m) {
        /* how it was made: in a bug hunt as the lesson writes it (the
         * planted formula would give the bug away), which evaluates the
         * statement again: once a frame */
        p->memo_how[0] = '\0';
        if (session_bug(ls->lv.ses)) {
            Mat *written = session_bug_as_written(ls->lv.ses, p->name);
            if (written)
                explain_how(written, p->memo_how, sizeof p->memo_how);
            mat_free(written);
        } else {
            explain_how(m, p->memo_how, sizeof p->memo_how);
        }
        p->memo_frame = term->frame_no;
        p->memo_m = m;
    }
    v->decimals = decimals;
    v->num_w = fmt_width_of(&p->memo_extremes, decimals, term->utf8);
    int col_w = imin(label_width(m->col_labels, m->cols), 10);
    int heat_mono = p->heat && term->color == COLORS_NONE;
    v->grid.cell_w = imax(v->num_w + (heat_mono ? 2 : 0), col_w);
    v->grid.label_w = label_width(m->row_labels, m->rows);
    v->grid.footer_h = p->heat ? 1 : 0;
    /* a room's projector: the name and the labels in the block font too,
     * in three more rows above the cells and a wider label column */
    if (room_labels(term, ls)) {
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
static BigSize big_size(const TuiTerm *term, const PaneView *v)
{
    const Mat *m = v->m;
    int w = v->grid.cell_w - 2, h = grid_cell_h(&v->grid);
    BigSize best = BIG_FULL;
    for (int i = 0; i < m->rows && best != BIG_NONE; i++)
        for (int j = 0; j < m->cols && best != BIG_NONE; j++) {
            char num[48];
            num_format(num, sizeof num, mat_get(m, i, j), v->decimals, term->utf8);
            if (!isfinite(mat_get(m, i, j)))
                continue;   /* shown as plain text in its cell */
            BigSize s = big_fit(num, w, h, term->utf8);
            if (s < best)
                best = s;
        }
    return best;
}

/* After placement: compact heat cells, the overview, what fits, scrolling. */
void pane_fit(TuiTerm *term, LessonScreen *ls, int i)
{
    LessonView *lv = &ls->lv;
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
    v->big = (ls->big_numbers || lv->zoom) && v->scaled && !v->compact ? big_size(term, v) : BIG_NONE;
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

/* ---- w: the pane as a picture --------------------------------------------- */

/* A cell the screen keeps from the student until the exercise is answered. */
static int kept(const void *ctx, int i, int j)
{
    const LessonScreen *ls = ctx;
    const LessonView *lv = &ls->lv;
    return session_cell_hidden(lv->ses, lv->ex_index, lv->panes[lv->focus].name, i, j);
}

void lv_write_svg(TuiTerm *term, LessonScreen *ls)
{
    const LessonView *lv = &ls->lv;
    const PaneView *v = lv->n_panes > 0 ? &lv->views[lv->focus] : NULL;
    if (!v || !v->m) {
        tui_message(term, 1, "no matrix here to write as an SVG");
        return;
    }
    const Pane *p = &lv->panes[lv->focus];
    /* the numbers as shown: the decimals the frame chose, none where N
     * leaves colour alone, "?" where nothing is shown yet */
    SvgPane pane = { v->m, v->how, p->heat, p->heat && ls->heat_numbers_off ? -1 : v->decimals,
                     !lv_pane_shown(ls, lv->focus), kept, ls, term->color == COLORS_NONE };
    char stem[MAT_NAME_MAX + 16], name[MAT_NAME_MAX + 32], why[300];
    snprintf(stem, sizeof stem, "%02d-%s", session_step_number(lv->ses), p->name);
    char *doc = svg_pane(&pane);
    if (!doc || filewrite_new(svg_file_stem(stem, sizeof stem, stem), ".svg", doc, name, sizeof name, why,
                                     sizeof why) != 0)
        tui_message(term, 1, "the SVG was not written: %s", doc ? why : "out of memory");
    else
        tui_message(term, 0, "wrote %s: %s as shown", name, p->name);
    free(doc);
}
