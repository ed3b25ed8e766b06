/*
 * tui_pixels.h - pictures drawn two pixels a cell (tui_pixels.c): the
 * upper half block "▀" in the upper pixel's colour on the lower one's, so
 * a heatmap of a model's head fits in half the rows. Values are on the
 * attention weights' fixed scale, 0 to 1. Without the colour pairs (8
 * colours with too few, or no colour) or without UTF-8, a cell shows one
 * shade of the larger of its two values (" ░▒▓█" or " .:#@"). And a bar
 * of a value in eighths of a cell, for the weights and probabilities the
 * model screens list.
 */
#ifndef ATTN_TUI_PIXELS_H
#define ATTN_TUI_PIXELS_H

#include "tui_term.h"

/* One cell at (y, x): upper value up, lower value down, each in [0, 1]
 * (a NaN: no pixel, the terminal's background). */
void tui_pixel_pair(const TuiTerm *term, int y, int x, float up, float down);

/* The causal n x n matrix a (row i at a + i * n, the query's weights on
 * keys 1..i) in a box of rows x cols cells at (y, x): each pixel the
 * largest weight of the rows and columns it stands for (2 x rows pixels
 * down, cols across; fewer when n is smaller: one pixel a row and a
 * column, from the top left); above the diagonal, and where a is NaN,
 * nothing. */
void tui_pixels_matrix(const TuiTerm *term, int y, int x, int rows, int cols, const float *a, int n);
/* The same filling the whole box: where n is smaller than the box, each
 * row and column of a drawn over several pixels (the cells grow). */
void tui_pixels_matrix_fill(const TuiTerm *term, int y, int x, int rows, int cols, const float *a, int n);
/* A bar of v (0..1) in w columns at (y, x): eighths of a block with UTF-8,
 * '#' without. */
void tui_bar(const TuiTerm *term, int y, int x, int w, double v, int attr);

#endif
