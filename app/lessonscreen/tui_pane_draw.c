/*
 * tui_pane_draw.c - drawing one matrix in the place its pane was given
 * (tui_pane.c): the title, the labelled axes (in a room's block font where
 * they fit), then each cell in two steps, its look found (cell_look: the
 * value and its text, under the cursor, edited, an operand of the
 * explained cell, a zero the mask made, kept from the student) and then
 * drawn (draw_cell: aligned numbers, heat colours or shades, scaled-up
 * cells); the heat legend under a heatmap.
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
#include "tui_pane.h"
#include "text.h"
#include "tui_lesson.h"

#include "minmax.h"

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
static int heat_attr(const TuiTerm *term, const PaneView *v, float x)
{
    if (!isfinite(x))
        return term->attr[C_HEAT_INF];
    float s = heat_position(&v->heat, x);
    return v->heat.diverging ? tui_heat_div(term, s) : tui_heat_seq(term, s);
}

static const char *shade_of(const TuiTerm *term, const PaneView *v, float x)
{
    return heat_shade(&v->heat, x, term->cv.utf8);
}

/* A number in the middle of cell r, on row y or, in the pane's block font,
 * centred down the cell; with clear, on a cleared patch (over shades). */
static void cell_number(const TuiTerm *term, const PaneView *v, Rect r, int y, int attr, const char *num, int clear)
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
            ui_fill(&term->cv, y, r.x + (r.w - pw) / 2, pw, attr);
        }
        ui_put_right(&term->cv, y, px, nw, attr, num);
        return;
    }
    int rows = big_rows(v->big), y0 = r.y + (r.h - rows) / 2, x0 = r.x + (r.w - bw) / 2;
    for (int k = 0; clear && k < rows; k++)
        ui_fill(&term->cv, y0 + k, imax(r.x, x0 - 1), imin(bw + 2, r.w), attr);
    ui_put_big(&term->cv, y0, x0, bw, attr, num, v->big);
}

/* A scaled-up heat cell: the block r in the heat's colour (or, without
 * colour, filled with its shade), the number on row y, right-aligned in
 * the middle num_w columns so the decimal points line up. */
static void heat_block(const TuiTerm *term, const PaneView *v, float val, int attr, Rect r, int y, const char *num)
{
    if (term->color == COLORS_NONE) {
        const char *sh = shade_of(term, v, val);
        char row[256];
        size_t len = 0, sl = strlen(sh);
        for (int k = 0; k < r.w && len + sl < sizeof row; k++, len += sl)
            memcpy(row + len, sh, sl);
        row[len] = '\0';
        for (int yy = r.y; yy < r.y + r.h; yy++)
            ui_put(&term->cv, yy, r.x, r.w, attr, row);
        /* the number on a clear patch so it reads over the shade */
        cell_number(term, v, r, y, attr, num, 1);
        return;
    }
    /* the number's rows in its colours, the others as their twin */
    int ny = y, nrows = 1;
    if (v->big != BIG_NONE && (big_width(num, v->big) >= 0 || !isfinite(val))) {
        nrows = big_rows(v->big);
        ny = r.y + (r.h - nrows) / 2;
    }
    int fill = tui_heat_fill(term, attr);
    for (int yy = r.y; yy < r.y + r.h; yy++)
        ui_fill(&term->cv, yy, r.x, r.w, yy >= ny && yy < ny + nrows ? attr : fill);
    if (v->num_w <= r.w)
        cell_number(term, v, r, y, attr, num, 0);
    else if (!isfinite(val))
        ui_put(&term->cv, y, r.x, r.w, attr, ui_glyph(&term->cv, "-∞", "-i"));
}

/* One part of a legend (a mark, then a word after a blank), drawn whole or
 * not at all: where a part does not fit, "…" says something was left out,
 * so no word is ever cut in the middle ("-∞ m" was). Returns where the
 * next part starts, or -1 once a part was left out. */
static int legend_part(const TuiTerm *term, int y, int cx, int end, int attr, const char *mark, const char *word)
{
    if (cx < 0)
        return -1;
    int mw = fmt_display_width(mark), need = mw + (word ? 1 + fmt_display_width(word) : 0);
    if (cx + need > end) {
        if (cx < end)
            ui_put(&term->cv, y, cx, 1, term->attr[C_DIM], ui_glyph(&term->cv, "…", "~"));
        return -1;
    }
    ui_put(&term->cv, y, cx, mw, attr, mark);
    if (word)
        ui_put(&term->cv, y, cx + mw + 1, need - mw - 1, term->attr[C_DIM], word);
    return cx + need + 2;
}

static void draw_legend(const TuiTerm *term, const Pane *p, const PaneView *v, int y, int x, int w)
{
    const Mat *m = v->m;
    char lo[32], hi[32];
    int cx = x;
    /* swatches as wide as the cells are tall, so a scaled-up legend reads too */
    int sw = imax(1, imin(grid_cell_h(&v->grid), (w - 16) / 8));
    if (term->color == COLORS_NONE) {
        /* shades: by value from lo to hi, or by size for signed values */
        if (v->heat.diverging) {
            snprintf(lo, sizeof lo, "|v|: 0");
            num_format(hi, sizeof hi, v->heat.hi, HEAT_LEGEND_DECIMALS, term->utf8);
        } else {
            num_format(lo, sizeof lo, v->heat.lo, HEAT_LEGEND_DECIMALS, term->utf8);
            num_format(hi, sizeof hi, v->heat.hi, HEAT_LEGEND_DECIMALS, term->utf8);
        }
        ui_put(&term->cv, y, cx, x + w - cx, term->attr[C_DIM], lo);
        cx += fmt_display_width(lo) + 1;
        for (int k = 1; k < RAMP_SHADE_LEVELS && cx + sw <= x + w; k++)
            for (int d = 0; d < sw; d++, cx++)
                ui_put(&term->cv, y, cx, 1, A_NORMAL, ramp_shade(((float)k + 0.5f) / RAMP_SHADE_LEVELS, term->utf8));
    } else {
        num_format(lo, sizeof lo, v->heat.diverging ? -v->heat.hi : v->heat.lo, HEAT_LEGEND_DECIMALS, term->utf8);
        num_format(hi, sizeof hi, v->heat.hi, HEAT_LEGEND_DECIMALS, term->utf8);
        ui_put(&term->cv, y, cx, x + w - cx, term->attr[C_DIM], lo);
        cx += fmt_display_width(lo) + 1;
        int steps = 8;
        for (int k = 0; k < steps && cx + sw <= x + w; k++, cx += sw) {
            float f = ((float)k + 0.5f) / (float)steps;
            float val = v->heat.diverging ? -v->heat.hi + 2 * v->heat.hi * f : v->heat.lo + (v->heat.hi - v->heat.lo) * f;
            ui_fill(&term->cv, y, cx, sw, heat_attr(term, v, val));
        }
    }
    cx = legend_part(term, y, cx + 1, x + w, term->attr[C_DIM], hi, NULL);
    if (p->memo_infs)
        cx = legend_part(term, y, cx, x + w, term->attr[C_HEAT_INF], ui_glyph(&term->cv, "-∞", "-inf"), "masked");
    if (p->memo_zeros && !p->memo_infs)
        cx = legend_part(term, y, cx, x + w, term->attr[C_MASKED], MASKED_ZERO_TEXT, "masked");
    if (p->memo_masked) {
        char what[64];
        snprintf(what, sizeof what, "%s %d%s masked", m->masked_cols ? "col" : "row", p->memo_first_masked + 1,
                 p->memo_masked > 1 ? " ..." : "");
        legend_part(term, y, cx, x + w, term->attr[C_MASKED], what, NULL);
    }
}

/* The pane's title: its name, shape, what part is shown and how it was
 * made, the focus marked. */
static void pane_title(const TuiTerm *term, const LessonScreen *ls, int idx, char *title, size_t size)
{
    const LessonView *lv = &ls->lv;
    const Pane *p = &lv->panes[idx];
    const PaneView *v = &lv->views[idx];
    const Mat *m = v->m;
    char shape[32] = "";
    if (m)
        mat_shape_str(m, shape, sizeof shape);
    int tl = snprintf(title, size, "%s%s %s", idx == lv->focus ? ui_glyph(&term->cv, "▶ ", "> ") : "  ", p->name, shape);
    if (p->overview && tl < (int)size)
        tl += snprintf(title + tl, size - (size_t)tl, " [%s of %dx%d blocks]", p->overview == 2 ? "max" : "mean", v->br,
                       v->bc);
    if (m && v->fit_r < v->rows && tl < (int)size)
        tl += snprintf(title + tl, size - (size_t)tl, " [rows %d-%d/%d]", p->first_r + 1, p->first_r + v->fit_r,
                       v->rows);
    if (m && v->fit_c < v->cols && tl < (int)size)
        tl += snprintf(title + tl, size - (size_t)tl, " [cols %d-%d/%d]", p->first_c + 1, p->first_c + v->fit_c,
                       v->cols);
    if (m && v->how[0] && tl < (int)size)
        snprintf(title + tl, size - (size_t)tl, " = %s", v->how);
}

/* The column labels over the cells (in a room's block font where they fit),
 * and a room's pane name beside them. */
static void draw_col_labels(const TuiTerm *term, const LessonScreen *ls, int idx)
{
    const LessonView *lv = &ls->lv;
    const Pane *p = &lv->panes[idx];
    const PaneView *v = &lv->views[idx];
    const GridSpec *g = &v->grid;
    const Mat *m = v->m;
    Rect r = v->place.r;
    char buf[64];
    /* the labels' row: under the title, or the last of a room's header */
    int label_y = r.y + grid_header_h(g) - 1, room = g->header_h > GRID_HEADER_H;
    if (room && big_width(p->name, BIG_HALF) >= 0 && big_width(p->name, BIG_HALF) < g->label_w)
        ui_put_big(&term->cv, r.y + 1, r.x, g->label_w, term->attr[idx == lv->focus ? C_PANE_FOCUS : C_PANE_TITLE], p->name,
                   BIG_HALF);
    for (int k = 0; k < v->fit_c; k++) {
        int j = p->first_c + k;
        pane_axis_label(buf, sizeof buf, m, j * v->bc, v->bc, 0);
        int a = mat_line_masked(m, j, 0) && v->bc == 1 ? term->attr[C_MASKED] : term->attr[C_LABEL];
        int bw = room && !v->compact ? big_width(buf, BIG_HALF) : -1;
        if (bw >= 0 && bw <= g->cell_w) {
            /* big, in the middle of its column */
            ui_put_big(&term->cv, r.y + 1, r.x + grid_cell_x(g, k) + (g->cell_w - bw) / 2, bw, a, buf, BIG_HALF);
            continue;
        }
        if (v->compact) {
            /* two columns per cell: label every few cells */
            if (k % 4 == 0)
                ui_put(&term->cv, label_y, r.x + grid_cell_x(g, k), imin(8, r.w - grid_cell_x(g, k)), a, buf);
        } else if (v->scaled) {
            /* over the numbers, which sit in the middle of their cells */
            int nw = imax(v->num_w, fmt_display_width(buf));
            int pad = imax(0, (g->cell_w - imax(v->num_w, 1)) / 2);
            if (pad + nw > g->cell_w)
                pad = imax(0, g->cell_w - nw);
            ui_put_right(&term->cv, label_y, r.x + grid_cell_x(g, k) + pad, nw, a, buf);
        } else {
            ui_put_right(&term->cv, label_y, r.x + grid_cell_x(g, k), g->cell_w, a, buf);
        }
    }
}

/* Row k's label at terminal row y (block font in a room's tall cells),
 * and the mark of a line the mask took whole. */
static void draw_row_label(const TuiTerm *term, const LessonScreen *ls, int idx, int k, int y)
{
    const PaneView *v = &ls->lv.views[idx];
    const GridSpec *g = &v->grid;
    Rect r = v->place.r;
    char buf[64];
    int i = ls->lv.panes[idx].first_r + k, room = g->header_h > GRID_HEADER_H;
    pane_axis_label(buf, sizeof buf, v->m, i * v->br, v->br, 1);
    int masked = v->br == 1 && mat_line_masked(v->m, i, 1);
    int lbw = room && grid_cell_h(g) >= big_rows(BIG_HALF) ? big_width(buf, BIG_HALF) : -1;
    if (lbw >= 0 && lbw < g->label_w)
        ui_put_big(&term->cv, y - 1, r.x, g->label_w, term->attr[masked ? C_MASKED : C_LABEL], buf, BIG_HALF);
    else
        ui_put(&term->cv, y, r.x, g->label_w, term->attr[masked ? C_MASKED : C_LABEL], buf);
    if (masked)
        ui_put(&term->cv, y, r.x + g->label_w, 1, term->attr[C_MASKED], ui_glyph(&term->cv, "⊘", "!"));
}

/* How one cell looks: its value and text, what it is (under the cursor,
 * edited, an operand of the explanation, a zero the mask made, kept from
 * the student), its attribute, and where its number and operand mark go. */
typedef struct {
    float val;
    char num[48];
    int cursor, edited, operand, mask_zero, hidden;
    int attr;
    int num_x, num_w, mark_x;   /* mark_x == x - 1: the mark stands before the cell */
} CellLook;

static CellLook cell_look(const TuiTerm *term, const LessonScreen *ls, int idx, const Explanation *ex, int i, int j, int x)
{
    const LessonView *lv = &ls->lv;
    const Pane *p = &lv->panes[idx];
    const PaneView *v = &lv->views[idx];
    const GridSpec *g = &v->grid;
    int heat = p->heat, mi = i * v->br, mj = j * v->bc;
    CellLook c = { 0 };
    c.val = p->overview ? v->pooled[i * v->cols + j] : mat_get(v->m, mi, mj);
    c.cursor = idx == lv->focus && mi <= p->cur_r && p->cur_r < mi + v->br && mj <= p->cur_c && p->cur_c < mj + v->bc;
    c.edited = !p->overview && session_is_edited(lv->ses, p->name, mi, mj);
    c.operand = !p->overview && is_operand(ex, v, p, mi, mj);
    c.mask_zero = !p->overview && mat_cell_masked(v->m, mi, mj);
    c.attr = A_NORMAL;
    if (heat)
        c.attr = heat_attr(term, v, c.val);
    else if (c.edited)
        c.attr = term->attr[C_EDITED];
    else if (c.mask_zero)
        c.attr = term->attr[C_MASKED];
    if (heat && c.edited)
        c.attr |= A_UNDERLINE | A_BOLD;
    /* on a heatmap the colour is the value: marks go on top of it (and
     * the numbers may go: N, for a class reading the colours) */
    if (c.mask_zero)        /* exact, unlike a weight rounded to 0 */
        snprintf(c.num, sizeof c.num, "%s", MASKED_ZERO_TEXT);
    else
        num_format(c.num, sizeof c.num, c.val, v->decimals, term->utf8);
    if (heat && ls->heat_numbers_off)
        c.num[0] = '\0';
    /* where the number goes: right-aligned in the cell, or in a box as
     * wide as the widest number in the middle of a scaled cell */
    c.num_x = x;
    c.num_w = g->cell_w;
    if (v->scaled && !heat) {
        c.num_w = imin(v->num_w, g->cell_w);
        c.num_x = x + (g->cell_w - c.num_w) / 2;
    }
    /* the operand mark goes just before the number (a right-aligned number
     * in a wide cell has blanks before it), or a block */
    c.mark_x = x - 1;
    if (c.operand && !heat && fmt_display_width(c.num) < c.num_x - x + c.num_w)
        c.mark_x = c.num_x + c.num_w - fmt_display_width(c.num) - 1;
    if (c.operand)
        c.attr = heat ? (int)(c.attr | A_UNDERLINE | A_BOLD) : term->attr[C_OPERAND];
    c.hidden = !lv_pane_shown(ls, idx) || (!p->overview && session_cell_hidden(lv->ses, lv->ex_index, p->name, mi, mj));
    if (c.hidden)           /* predict before you see: no number, no colour */
        c.attr = term->attr[C_HINT] | A_BOLD;
    if (c.cursor)
        c.attr = heat && !c.hidden ? (int)((c.attr ^ A_REVERSE) | A_BOLD) : term->attr[C_CURSOR];
    return c;
}

/* Draw one cell as c says, at x on rows y0.. (its number on row y). */
static void draw_cell(const TuiTerm *term, const LessonScreen *ls, int idx, const CellLook *c, int x, int y0, int y)
{
    const PaneView *v = &ls->lv.views[idx];
    const GridSpec *g = &v->grid;
    int heat = ls->lv.panes[idx].heat, mono = term->color == COLORS_NONE, centred = v->scaled, ch = grid_cell_h(g);
    int a = c->attr;
    if (c->operand && c->mark_x == x - 1)
        ui_put(&term->cv, y, x - 1, 1, term->attr[C_OPERAND], ui_glyph(&term->cv, "▸", ">"));
    if (c->hidden && centred) {
        for (int yy = y0; yy < y0 + ch; yy++)
            ui_fill(&term->cv, yy, x, g->cell_w, a);
        cell_number(term, v, (Rect){ x, y0, g->cell_w, ch }, y, a, "?", 0);
    } else if (c->hidden) {
        ui_fill(&term->cv, y, x, g->cell_w, a);
        ui_put_right(&term->cv, y, c->num_x, c->num_w, a, "?");
    } else if (centred && heat) {
        heat_block(term, v, c->val, a, (Rect){ x, y0, g->cell_w, ch }, y, c->num);
    } else if (heat && mono) {
        const char *sh = shade_of(term, v, c->val);
        if (v->compact) {
            char two[16];
            snprintf(two, sizeof two, "%s%s", sh, sh);
            ui_put(&term->cv, y, x, 2, a, two);
        } else {
            /* the shade against its own number's first digit: one space
             * after it read as the number to the left's shade */
            int room = g->cell_w - 1, sw = fmt_display_width(c->num);
            int at = x + 1 + (sw < room ? room - sw : 0);
            ui_fill(&term->cv, y, x, 1, a);
            ui_put_right(&term->cv, y, x + 1, room, a, c->num);
            ui_put(&term->cv, y, at - 1, 1, a, sh);
        }
    } else if (heat && v->compact) {
        ui_fill(&term->cv, y, x, g->cell_w, a);
        if (!isfinite(c->val))
            ui_put(&term->cv, y, x, 2, a, ui_glyph(&term->cv, "-∞", "-i"));
    } else if (centred) {
        cell_number(term, v, (Rect){ x, y0, g->cell_w, ch }, y, a, c->num, 0);
    } else {
        ui_put_right(&term->cv, y, c->num_x, c->num_w, a, c->num);
    }
    if (c->operand && c->mark_x != x - 1)
        ui_put(&term->cv, y, c->mark_x, 1, term->attr[C_OPERAND], ui_glyph(&term->cv, "▸", ">"));
    if (c->edited && x + g->cell_w < term->cols)
        /* not '*': beside a number it would read as a product */
        ui_put(&term->cv, y, x + g->cell_w, 1, term->attr[C_EDITED], ui_glyph(&term->cv, "✎", "'"));
}

void pane_draw(const TuiTerm *term, const LessonScreen *ls, int idx, const Explanation *ex)
{
    const LessonView *lv = &ls->lv;
    const Pane *p = &lv->panes[idx];
    const PaneView *v = &lv->views[idx];
    Rect r = v->place.r;
    char title[256];
    pane_title(term, ls, idx, title, sizeof title);
    ui_put_fit(&term->cv, r.y, r.x, r.w, term->attr[idx == lv->focus ? C_PANE_FOCUS : C_PANE_TITLE], title);
    if (!v->m) {
        ui_put(&term->cv, r.y + 1, r.x + 2, r.w - 2, term->attr[C_ERROR], "not defined");
        return;
    }
    const GridSpec *g = &v->grid;
    draw_col_labels(term, ls, idx);
    /* a matrix row takes grid_cell_h terminal rows: y0 the first, y the
     * one with the label and the number */
    int ch = grid_cell_h(g);
    for (int k = 0; k < v->fit_r; k++) {
        int i = p->first_r + k, y0 = r.y + grid_cell_y(g, k), y = y0 + (ch - 1) / 2;
        draw_row_label(term, ls, idx, k, y);
        for (int c = 0; c < v->fit_c; c++) {
            int x = r.x + grid_cell_x(g, c);
            CellLook look = cell_look(term, ls, idx, ex, i, p->first_c + c, x);
            draw_cell(term, ls, idx, &look, x, y0, y);
        }
    }
    if (p->heat && lv_pane_shown(ls, idx))
        draw_legend(term, p, v, r.y + grid_cell_y(g, v->fit_r), r.x, r.w);
}

