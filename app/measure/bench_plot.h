/*
 * bench_plot.h - a log-log plot drawn with text, for `attn bench --sweep`:
 * time against n for each path, so the n^2 wall can be seen in a terminal.
 * Pure: it writes to the FILE * it is given and reads nothing else.
 */
#ifndef ATTN_BENCH_PLOT_H
#define ATTN_BENCH_PLOT_H

#include <stdio.h>

typedef struct {
    const char *name;       /* in the legend                                  */
    char mark;              /* its points in ASCII; its label's first letter  */
    const double *x, *y;    /* n points, x and y > 0 (others are skipped)     */
    int n;
} PlotSeries;

/* Draw the series on shared log-log axes, width x height cells of plot
 * (at least 8 x 4) after a margin for the y labels, then the x labels and a
 * legend. utf8: lines of braille dots (2 x 4 per cell), the series named at
 * their last point; else ASCII: each series' mark at its points and '.'
 * between them. y_unit labels the y axis ("ms"). Draws "(nothing to plot)"
 * when no series has a point. */
void plot_loglog(FILE *f, const PlotSeries *series, int n_series, int width, int height, const char *y_unit,
                 int utf8);

/* The least-squares slope of log y against log x over the points with x and
 * y > 0 (the exponent p of y ~ x^p); NAN with fewer than two such points. */
double plot_slope(const double *x, const double *y, int n);

#endif
