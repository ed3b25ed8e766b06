/*
 * tui_pixels.c - pictures two pixels a cell, and bars in eighths of a
 * cell (tui_pixels.h).
 */
#include "tui_pixels.h"

#include <curses.h>
#include <math.h>
#include <string.h>

#include "minmax.h"
#include "ramp.h"

void tui_pixel_pair(const TuiTerm *term, int y, int x, float up, float down)
{
    int has_up = !isnan(up), has_down = !isnan(down);
    if (!has_up && !has_down) {
        mvwaddch(term->cv.win, y, x, ' ');
        return;
    }
    int u = ramp_level(has_up ? up : 0, HALF_LEVELS), d = ramp_level(has_down ? down : 0, HALF_LEVELS);
    if (term->utf8 && term->color != COLORS_NONE && term->half[0]) {
        wattrset(term->cv.win, term->half[u * HALF_LEVELS + d]);
        mvwaddstr(term->cv.win, y, x, has_up ? "▀" : " ");
        wattrset(term->cv.win, A_NORMAL);
        return;
    }
    /* one shade for the two: the larger */
    float v = has_up && (!has_down || up >= down) ? up : down;
    int attr = tui_heat_seq(term, v);
    wattrset(term->cv.win, attr);
    mvwaddstr(term->cv.win, y, x, term->color != COLORS_NONE ? " " : ramp_shade(v, term->utf8));
    wattrset(term->cv.win, A_NORMAL);
}

/* The largest of a's rows [r0, r1) and columns [c0, c1) on and below the
 * diagonal (above it a causal head never looks); NaN when none is. */
static float pool(const float *a, int n, int r0, int r1, int c0, int c1)
{
    float best = NAN;
    for (int i = r0; i < r1 && i < n; i++)
        for (int j = c0; j < c1 && j <= i; j++) {
            float v = a[(size_t)i * n + j];
            if (!isnan(v) && (isnan(best) || v > best))
                best = v;
        }
    return best;
}

void tui_pixels_matrix(const TuiTerm *term, int y, int x, int rows, int cols, const float *a, int n)
{
    int py = 2 * rows < n ? 2 * rows : n, px = cols < n ? cols : n;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < px; c++) {
            float v[2];
            for (int h = 0; h < 2; h++) {
                int p = 2 * r + h;
                if (p >= py) {
                    v[h] = NAN;
                    continue;
                }
                /* pixel p of py stands for rows [p n / py, (p + 1) n / py) */
                v[h] = pool(a, n, p * n / py, (p + 1) * n / py, c * n / px, (c + 1) * n / px);
            }
            if (2 * r < py)
                tui_pixel_pair(term, y + r, x + c, v[0], v[1]);
        }
}

void tui_pixels_matrix_fill(const TuiTerm *term, int y, int x, int rows, int cols, const float *a, int n)
{
    int py = 2 * rows;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            float v[2];
            for (int h = 0; h < 2; h++) {
                /* pixel p of py stands for rows [p n / py, (p + 1) n / py),
                 * at least one: a row of a over several pixels when n < py */
                int p = 2 * r + h, r0 = p * n / py, r1 = imax(r0 + 1, (p + 1) * n / py);
                int c0 = c * n / cols, c1 = imax(c0 + 1, (c + 1) * n / cols);
                v[h] = pool(a, n, r0, r1, c0, c1);
            }
            tui_pixel_pair(term, y + r, x + c, v[0], v[1]);
        }
}

void tui_bar(const TuiTerm *term, int y, int x, int w, double v, int attr)
{
    static const char *const eighth[8] = { "", "▏", "▎", "▍", "▌", "▋", "▊", "▉" };
    int units = (int)lround(fmin(1, fmax(0, v)) * w * (term->utf8 ? 8 : 1));
    char buf[512] = "";
    size_t k = 0;
    for (int c = 0; c < w && k + 4 < sizeof buf; c++) {
        int here = imin(units, term->utf8 ? 8 : 1);
        units -= here;
        const char *g = term->utf8 ? (here == 8 ? "█" : eighth[here]) : (here ? "#" : "");
        memcpy(buf + k, g, strlen(g));
        k += strlen(g);
        if (!here)
            break;
    }
    buf[k] = '\0';
    ui_put(&term->cv, y, x, w, attr, buf);
}
