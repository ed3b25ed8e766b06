/*
 * bench_plot.c - the log-log text plot of bench_plot.h. The series are
 * rasterised onto a grid of cells: in UTF-8, each cell a braille character
 * of 2 x 4 dots (U+2800 + one bit per dot), lines drawn dot by dot between
 * points; in ASCII, one mark per cell. Names and labels are a text layer
 * drawn over the dots.
 */
#include "bench_plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MARGIN 12           /* y labels, then the axis */
#define MAX_W 200
#define MAX_H 60

typedef struct {
    int w, h, sub_x, sub_y;         /* cells; dots per cell across and down */
    double lx0, lx1, ly0, ly1;      /* log10 ranges of the axes             */
    unsigned char dots[MAX_H][MAX_W];
    char text[MAX_H][MAX_W];        /* '\0': no text over this cell         */
} Grid;

/* Braille bit of dot (dx, dy) in a cell: dots 1-2-3-7 down the left column,
 * 4-5-6-8 down the right. */
static const unsigned char braille_bit[2][4] = { { 0x01, 0x02, 0x04, 0x40 }, { 0x08, 0x10, 0x20, 0x80 } };

/* Dot coordinates of (x, y), or 0 when the point cannot be drawn. */
static int to_dot(const Grid *g, double x, double y, double *px, double *py)
{
    if (!(x > 0) || !(y > 0))
        return 0;
    double fx = (log10(x) - g->lx0) / (g->lx1 - g->lx0), fy = (log10(y) - g->ly0) / (g->ly1 - g->ly0);
    *px = fx * (g->w * g->sub_x - 1);
    *py = (1.0 - fy) * (g->h * g->sub_y - 1);
    return 1;
}

static void set_dot(Grid *g, double px, double py, char mark)
{
    int x = (int)lround(px), y = (int)lround(py);
    if (x < 0 || y < 0 || x >= g->w * g->sub_x || y >= g->h * g->sub_y)
        return;
    unsigned char *cell = &g->dots[y / g->sub_y][x / g->sub_x];
    if (g->sub_x == 2)
        *cell |= braille_bit[x % 2][y % 4];
    else if (mark == '.' ? *cell == 0 : 1)
        *cell = (unsigned char)mark;    /* a point's mark beats a line's dot */
}

static void put_text(Grid *g, int row, int col, const char *s)
{
    for (int i = 0; s[i] && col + i < g->w; i++)
        if (row >= 0 && row < g->h && col + i >= 0)
            g->text[row][col + i] = s[i];
}

static void draw_series(Grid *g, const PlotSeries *s)
{
    double px = 0, py = 0, qx, qy;
    int have_prev = 0;
    for (int i = 0; i < s->n; i++) {
        if (!to_dot(g, s->x[i], s->y[i], &qx, &qy))
            continue;
        if (have_prev) {
            int steps = (int)ceil(fmax(fabs(qx - px), fabs(qy - py)));
            for (int t = 1; t < steps; t++)
                set_dot(g, px + (qx - px) * t / steps, py + (qy - py) * t / steps, '.');
        }
        set_dot(g, qx, qy, s->mark);
        px = qx;
        py = qy;
        have_prev = 1;
    }
    if (have_prev && g->sub_x == 2) {   /* braille: the name beside the last point */
        int row = (int)lround(py) / g->sub_y, col = (int)lround(px) / g->sub_x + 2;
        int len = (int)strlen(s->name);
        if (col + len > g->w)
            col = (int)lround(px) / g->sub_x - len - 1;
        put_text(g, row, col, s->name);
    }
}

/* The data's range on each axis; 0 when there is no point at all. */
static int ranges(Grid *g, const PlotSeries *series, int n_series)
{
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (int k = 0; k < n_series; k++)
        for (int i = 0; i < series[k].n; i++) {
            double x = series[k].x[i], y = series[k].y[i];
            if (!(x > 0) || !(y > 0))
                continue;
            x0 = fmin(x0, x), x1 = fmax(x1, x), y0 = fmin(y0, y), y1 = fmax(y1, y);
        }
    if (!(x0 <= x1))
        return 0;
    g->lx0 = log10(x0), g->lx1 = log10(x1), g->ly0 = log10(y0), g->ly1 = log10(y1);
    if (g->lx1 - g->lx0 < 1e-9)
        g->lx0 -= 0.5, g->lx1 += 0.5;
    if (g->ly1 - g->ly0 < 1e-9)
        g->ly0 -= 0.5, g->ly1 += 0.5;
    return 1;
}

static void put_cell(FILE *f, const Grid *g, int r, int c)
{
    if (g->text[r][c])
        fputc(g->text[r][c], f);
    else if (g->sub_x == 1)
        fputc(g->dots[r][c] ? g->dots[r][c] : ' ', f);
    else if (!g->dots[r][c])
        fputc(' ', f);
    else    /* U+2800 + bits in UTF-8 */
        fprintf(f, "%c%c%c", 0xE2, 0xA0 | (g->dots[r][c] >> 6), 0x80 | (g->dots[r][c] & 0x3F));
}

/* The x labels: each distinct x of the series where it fits after the last. */
static void x_labels(FILE *f, const Grid *g, const PlotSeries *series, int n_series)
{
    char line[MAX_W + MARGIN + 16];
    memset(line, ' ', sizeof line);
    int end = 0, last = -1;
    for (int k = 0; k < n_series; k++)
        for (int i = 0; i < series[k].n; i++) {
            double px, py;
            if (!to_dot(g, series[k].x[i], series[k].y[i], &px, &py))
                continue;
            char label[32];
            int len = snprintf(label, sizeof label, "%g", series[k].x[i]);
            int col = MARGIN + (int)lround(px) / g->sub_x - len / 2;
            if (col < MARGIN)
                col = MARGIN;
            if (col <= last + 1 || col + len > (int)sizeof line - 1)
                continue;
            memcpy(line + col, label, (size_t)len);
            last = col + len;
            end = last > end ? last : end;
        }
    line[end] = '\0';
    fprintf(f, "%s\n", line);
}

void plot_loglog(FILE *f, const PlotSeries *series, int n_series, int width, int height, const char *y_unit,
                 int utf8)
{
    Grid *g = calloc(1, sizeof *g);
    if (!g)
        return;
    g->w = width < 8 ? 8 : width > MAX_W ? MAX_W : width;
    g->h = height < 4 ? 4 : height > MAX_H ? MAX_H : height;
    g->sub_x = utf8 ? 2 : 1;
    g->sub_y = utf8 ? 4 : 1;
    if (!ranges(g, series, n_series)) {
        fputs("(nothing to plot)\n", f);
        free(g);
        return;
    }
    for (int k = 0; k < n_series; k++)
        draw_series(g, &series[k]);
    for (int r = 0; r < g->h; r++) {
        char label[MARGIN + 1] = "";
        double ly = g->ly1 - (g->ly1 - g->ly0) * r / (g->h - 1);
        if (r == 0 || r == g->h - 1 || r == (g->h - 1) / 2)
            snprintf(label, sizeof label, "%.3g %s", pow(10, ly), y_unit);
        fprintf(f, "%*s |", MARGIN - 2, label);
        for (int c = 0; c < g->w; c++)
            put_cell(f, g, r, c);
        fputc('\n', f);
    }
    fprintf(f, "%*s +", MARGIN - 2, "");
    for (int c = 0; c < g->w; c++)
        fputc('-', f);
    fputc('\n', f);
    x_labels(f, g, series, n_series);
    fprintf(f, "%*s", MARGIN, "");
    for (int k = 0; k < n_series; k++) {
        if (utf8)
            fprintf(f, "%s%s", k ? "   " : "", series[k].name);
        else
            fprintf(f, "%s%c %s", k ? "   " : "", series[k].mark, series[k].name);
    }
    fputs("   (log-log)\n", f);
    free(g);
}

double plot_slope(const double *x, const double *y, int n)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (!(x[i] > 0) || !(y[i] > 0))
            continue;
        double lx = log(x[i]), ly = log(y[i]);
        sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly;
        m++;
    }
    double den = m * sxx - sx * sx;
    if (m < 2 || fabs(den) < 1e-12)
        return NAN;
    return (m * sxy - sx * sy) / den;
}
