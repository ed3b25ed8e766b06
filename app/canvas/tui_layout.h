/*
 * tui_layout.h - where things go on the screen, as pure functions (no
 * curses): the screen's regions, panes placed side by side or stacked (and
 * paged when even their minimum sizes do not fit), a matrix's grid inside a
 * pane with scrolling and hit testing, scaling cells up where a big screen
 * has room, pooling a large matrix into an overview, and the measure prose
 * is wrapped to (the wrapping itself is text.h's). Defined in
 * tui_layout.c (the screen, the panes), tui_scale.c (the scale) and
 * tui_grid.c (a grid inside its pane). The tests drive these directly at
 * any screen size.
 */
#ifndef ATTN_TUI_LAYOUT_H
#define ATTN_TUI_LAYOUT_H

#include <stddef.h>

/* Below this the screen says "terminal too small" instead of drawing. */
#define TUI_MIN_COLS 60
#define TUI_MIN_ROWS 16

/* The smallest pane worth drawing: a title, column labels, two rows. */
#define PANE_MIN_W 16
#define PANE_MIN_H 4
#define PANE_GAP_X 3   /* columns between panes side by side */
#define PANE_GAP_Y 1   /* rows between shelves of panes */
/* A matrix up to this size in both directions is never scrolled or cut:
 * it is what a step is about, so it is shown whole (a page of its own if
 * need be). */
#define PANE_WHOLE_MAX 8

typedef struct {
    int x, y, w, h;
} Rect;

/* 1 when a and b share a cell. */
int rect_overlap(Rect a, Rect b);
/* 1 when inner lies wholly inside outer. */
int rect_inside(Rect inner, Rect outer);

/* The lesson screen's regions, top to bottom. */
typedef struct {
    Rect title;     /* 1 row: lesson title, step k/n                        */
    Rect text;      /* the step's prose, wrapped                            */
    Rect panes;     /* the matrices                                         */
    Rect exercise;  /* exercises, hints, feedback (h = 0 when none)         */
    Rect status;    /* the cell under the cursor and its arithmetic         */
    Rect keybar;    /* 1 row: keys, or the prompt while typing              */
} ScreenLayout;

#define STATUS_ROWS 3

/* Divide a cols x rows screen. text_lines and exercise_lines are what the
 * step would like, panes_want the rows its panes would like (0: the step
 * shows none, and the prose may fill the screen), panes_min the rows they
 * cannot do without (the tallest pane that must be seen whole). The prose
 * gets what the panes do not want, and at least a quarter of the room;
 * exercises at most a third; the panes at least 6 rows, and panes_min
 * when the prose and the exercise can give way to a line each. Returns 0
 * (and leaves *out zeroed) below TUI_MIN_COLS x TUI_MIN_ROWS. */
int layout_screen(int cols, int rows, int text_lines, int exercise_lines, int panes_want, int panes_min,
                  ScreenLayout *out);

/* What a pane would like (its whole matrix) and the least it can use. */
typedef struct {
    int want_w, want_h;
    int min_w, min_h;
    int nice_w;     /* wider still if the room is free (a long title); 0: none */
    /* how the pane grows when scaled up (pane_need_scaled): the matrix
     * rows and cells across whose cells grow, and whether it is a heatmap;
     * 0, 0: it does not scale */
    int grow_rows, grow_cols;
    int heat;
} PaneNeed;

typedef struct {
    Rect r;
    int visible;    /* on the page shown (the focused pane's page)          */
    int page;       /* which page the pane is on, 0-based                   */
} PanePlace;

/* Place n panes in area, in order, left to right in shelves that stack
 * downwards; a pane gets its wanted size when it fits, else shares the
 * room, never below its minimum (or its want when that is smaller) nor
 * beyond area. When even the minimums do not fit, the panes are split
 * into pages and only the page holding `focus` is visible. Returns the
 * number of pages (0 when n == 0). out has n entries. */
int layout_panes(const PaneNeed *need, int n, Rect area, int focus, PanePlace *out);

/* The rows n panes would take in an area of width w if height were no
 * object (their shelves at the heights they want). */
int layout_panes_height(const PaneNeed *need, int n, int w);

/* A matrix drawn as a grid inside a pane:
 *   row 0: the pane title; row 1: column labels; then the rows;
 *   footer_h rows at the bottom (a heatmap's legend).
 *   Each row starts with a label_w-wide label, then cells of cell_w
 *   separated by one space. */
typedef struct {
    int label_w;
    int cell_w;
    int footer_h;
    int cell_h;     /* terminal rows per matrix row; 0 means 1 */
    int header_h;   /* rows above the cells (the title, the column labels);
                       0 means GRID_HEADER_H */
} GridSpec;

#define GRID_HEADER_H 2
/* The rows above g's cells. */
int grid_header_h(const GridSpec *g);

/* Scaling up where the screen has room (a projector): at scale
 * {rows, cols} every matrix row takes `rows` terminal rows and every cell
 * 2(cols-1) more columns, its number in the middle, so heat reads from the
 * back of a room and the panes fill the screen. All the panes of a step
 * share one scale, so rows side by side stay level. Screens shorter than
 * GRID_SCALE_MIN_ROWS or narrower than GRID_SCALE_MIN_COLS keep {1, 1}, so
 * a laptop's terminal shows as much prose as it can. */
typedef struct {
    int rows, cols;
} GridScale;
#define GRID_SCALE_MAX_ROWS 64
#define GRID_SCALE_MAX_COLS 64
#define GRID_SCALE_MIN_ROWS 32
#define GRID_SCALE_MIN_COLS 100

/* The grid g (at scale {1, 1}) at scale s. */
GridSpec grid_scaled(const GridSpec *g, GridScale s);
/* The need n (at scale {1, 1}) at scale s: its want grows with its grid. */
PaneNeed pane_need_scaled(const PaneNeed *n, GridScale s);
/* The largest scale at which the n panes, scaled, all fit area whole at
 * the sizes they want, on one page, on a screen of screen_cols x
 * screen_rows: the largest even one, then rows and columns each as far
 * as they go. {1, 1} when none larger fits, or on a small screen. */
GridScale layout_pick_scale(const PaneNeed *need, int n, Rect area, int screen_cols, int screen_rows);
/* The panes one step may have for its scale to be chosen (more keep
 * {1, 1}). */
#define LAYOUT_SCALE_MAX_PANES 64
/* Then the room the shared scale leaves (its steps are coarse: a row more
 * for every row of the tallest matrix): each level of panes (those whose
 * tops are level, so their rows stay level) grows its rows, top level
 * first, then its cells across, as far as every pane still fits area
 * whole on one page and each cell keeps the shape of a cell (no more than
 * 3 to 1 wide, nor 1 to 2 tall, to the eye). each[i] is pane i's scale,
 * the shared one on entry; left as it is when the panes do not fit at it. */
void layout_fill(const PaneNeed *need, int n, Rect area, GridScale *each);
/* The largest scale at which one pane, zoomed to fill area, fits it whole
 * ({1, 1} when even that does not: the pane scrolls as usual). */
GridScale layout_zoom_scale(const PaneNeed *need, Rect area);

int grid_want_w(const GridSpec *g, int cols);
int grid_want_h(const GridSpec *g, int rows);
/* How many whole cells fit across w / down h (at least 1). */
int grid_fit_cols(const GridSpec *g, int w);
int grid_fit_rows(const GridSpec *g, int h);
/* The x (relative to the pane) of visible column k, 0-based. */
int grid_cell_x(const GridSpec *g, int k);
/* The y (relative to the pane) of visible row k's first terminal row, and
 * the rows a matrix row takes. */
int grid_cell_y(const GridSpec *g, int k);
int grid_cell_h(const GridSpec *g);

/* The first visible index after moving so cursor stays in view: keep
 * first when the cursor is visible, else scroll the least. */
int layout_scroll(int cursor, int first, int visible, int total);

/* The cell at screen position (x, y) of a grid drawn in r, scrolled to
 * (first_row, first_col), showing n_rows x n_cols cells of a matrix of
 * rows x cols. Returns 1 and sets *row, *col (matrix indices) on a hit. */
int grid_hit(const GridSpec *g, Rect r, int first_row, int first_col, int rows, int cols,
             int x, int y, int *row, int *col);

/* Pooling: the block size (br x bc) that brings rows x cols within
 * max_r x max_c, and the pooled matrix of ceil(rows/br) x ceil(cols/bc):
 * the mean of each block's finite values (or -inf/inf/nan when it has
 * none), or its max. data is rows x cols at stride ld; out is caller's. */
void pool_blocks(int rows, int cols, int max_r, int max_c, int *br, int *bc);
void pool_matrix(float *out, const float *data, int rows, int cols, int ld, int br, int bc, int use_max);

/* The width to wrap prose to on a screen cols wide: the screen less a
 * margin, but no more than TEXT_MEASURE_MAX columns, so lines stay easy to
 * follow on a wide projector screen. */
#define TEXT_MEASURE_MAX 120
int text_measure(int cols);

#endif
