/*
 * tui_grid.c - a matrix's grid inside its pane: where each cell goes, how
 * many fit, the cell under a mouse click, the grid grown for a big screen,
 * the scroll that keeps the cursor in view, and pooling a large matrix into
 * an overview of block means or maxima. Pure functions (tui_layout.h); no
 * curses.
 */
#include <math.h>

#include "tui_layout.h"

#include "minmax.h"

int grid_cell_h(const GridSpec *g)
{
    return imax(1, g->cell_h);
}

int grid_header_h(const GridSpec *g)
{
    return g->header_h > 0 ? g->header_h : GRID_HEADER_H;
}

int grid_want_w(const GridSpec *g, int cols)
{
    return g->label_w + cols * (g->cell_w + 1);
}

int grid_want_h(const GridSpec *g, int rows)
{
    return grid_header_h(g) + rows * grid_cell_h(g) + g->footer_h;
}

int grid_fit_cols(const GridSpec *g, int w)
{
    return imax(1, (w - g->label_w) / (g->cell_w + 1));
}

int grid_fit_rows(const GridSpec *g, int h)
{
    return imax(1, (h - grid_header_h(g) - g->footer_h) / grid_cell_h(g));
}

int grid_cell_x(const GridSpec *g, int k)
{
    return g->label_w + 1 + k * (g->cell_w + 1);
}

int grid_cell_y(const GridSpec *g, int k)
{
    return grid_header_h(g) + k * grid_cell_h(g);
}

GridSpec grid_scaled(const GridSpec *g, GridScale s)
{
    GridSpec out = *g;
    out.cell_h = grid_cell_h(g) + imax(s.rows, 1) - 1;
    out.cell_w = g->cell_w + 2 * (imax(s.cols, 1) - 1);
    return out;
}

PaneNeed pane_need_scaled(const PaneNeed *n, GridScale s)
{
    PaneNeed out = *n;
    out.want_h += n->grow_rows * (imax(s.rows, 1) - 1);
    out.want_w += n->grow_cols * 2 * (imax(s.cols, 1) - 1);
    return out;
}

int layout_scroll(int cursor, int first, int visible, int total)
{
    if (visible < 1)
        visible = 1;
    if (cursor < first)
        first = cursor;
    else if (cursor >= first + visible)
        first = cursor - visible + 1;
    if (first > total - visible)
        first = total - visible;
    return first < 0 ? 0 : first;
}

int grid_hit(const GridSpec *g, Rect r, int first_row, int first_col, int rows, int cols,
             int x, int y, int *row, int *col)
{
    int dy = y - r.y - grid_header_h(g), dx = x - r.x - g->label_w - 1;
    if (x < r.x || x >= r.x + r.w || dy < 0 || dx < 0)
        return 0;
    dy /= grid_cell_h(g);     /* the matrix row of that terminal row */
    if (dy >= grid_fit_rows(g, r.h))
        return 0;
    int k = dx / (g->cell_w + 1);
    if (k >= grid_fit_cols(g, r.w))
        return 0;
    int i = first_row + dy, j = first_col + k;
    if (i >= rows || j >= cols)
        return 0;
    *row = i;
    *col = j;
    return 1;
}

void pool_blocks(int rows, int cols, int max_r, int max_c, int *br, int *bc)
{
    max_r = imax(max_r, 1);
    max_c = imax(max_c, 1);
    *br = imax(1, (rows + max_r - 1) / max_r);
    *bc = imax(1, (cols + max_c - 1) / max_c);
}

void pool_matrix(float *out, const float *data, int rows, int cols, int ld, int br, int bc, int use_max)
{
    int pr = (rows + br - 1) / br, pc = (cols + bc - 1) / bc;
    for (int bi = 0; bi < pr; bi++)
        for (int bj = 0; bj < pc; bj++) {
            double sum = 0;
            long count = 0;
            float mx = -INFINITY, first = NAN;
            int seen = 0;
            for (int i = bi * br; i < imin(rows, (bi + 1) * br); i++)
                for (int j = bj * bc; j < imin(cols, (bj + 1) * bc); j++) {
                    float v = data[(size_t)i * ld + j];
                    if (!seen) {
                        first = v;
                        seen = 1;
                    }
                    if (v > mx)
                        mx = v;
                    if (isfinite(v)) {
                        sum += v;
                        count++;
                    }
                }
            float r;
            if (use_max)
                r = mx;
            else
                r = count > 0 ? (float)(sum / (double)count) : first;
            out[bi * pc + bj] = r;
        }
}
