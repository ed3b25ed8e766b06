/*
 * tui_scale.c - how the panes grow where the screen has room (a projector)
 * or when one is zoomed: the one scale all of a step's panes share, then
 * each level of panes grown into the room that leaves, and a zoomed
 * pane's scale. Pure functions (tui_layout.h) over tui_layout.c's
 * placement; no curses.
 */
#include <string.h>

#include "tui_layout.h"

#include "minmax.h"

/* Whether the n panes, pane i at scale each[i], fit area whole on one
 * page; their places in place[] (n entries). */
static int place_each(const PaneNeed *need, int n, Rect area, const GridScale *each, PanePlace *place)
{
    PaneNeed scaled[LAYOUT_SCALE_MAX_PANES];
    if (n <= 0 || n > LAYOUT_SCALE_MAX_PANES)
        return 0;
    for (int i = 0; i < n; i++)
        scaled[i] = pane_need_scaled(&need[i], each[i]);
    /* at their wanted sizes, with the same shelves' gaps */
    if (layout_panes_height(scaled, n, area.w) > area.h)
        return 0;
    layout_panes(scaled, n, area, 0, place);
    for (int i = 0; i < n; i++)
        if (!place[i].visible || place[i].page != 0 || place[i].r.w < scaled[i].want_w
            || place[i].r.h < scaled[i].want_h || !rect_inside(place[i].r, area))
            return 0;
    return 1;
}

static int fits_each(const PaneNeed *need, int n, Rect area, const GridScale *each)
{
    PanePlace place[LAYOUT_SCALE_MAX_PANES];
    return place_each(need, n, area, each, place);
}

/* Whether the panes stand as they stood: the same panes level with one
 * another, in the same order across. */
static int same_arrangement(const PanePlace *a, const PanePlace *b, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            int level = a[i].r.y == a[j].r.y;
            if (level != (b[i].r.y == b[j].r.y) || (level && (a[i].r.x < a[j].r.x) != (b[i].r.x < b[j].r.x)))
                return 0;
        }
    return 1;
}

/* Whether the n panes, all at scale s, fit area whole on one page. */
static int fits_scaled(const PaneNeed *need, int n, Rect area, GridScale s)
{
    GridScale each[LAYOUT_SCALE_MAX_PANES];
    if (n <= 0 || n > LAYOUT_SCALE_MAX_PANES)
        return 0;
    for (int i = 0; i < n; i++)
        each[i] = s;
    return fits_each(need, n, area, each);
}

/* A cell of a pane at scale s is at most CELL_WIDE_MAX times as many
 * columns across as rows down (a terminal's character is about twice as
 * tall as wide: 3 to 1 to the eye), and no more rows down than columns
 * across (1 to 2), so the cells stay cells rather than ribbons; a pane of
 * one row (1 x N) at most CELL_TALL_MAX rows down: the block font's digits
 * are 5 rows, and past that its one row only stretched down the screen
 * with blank rows (25 of them at 120x40). Its width at scale {1, 1} is
 * taken as the pane's share per column. */
#define CELL_WIDE_MAX 6
#define CELL_TALL_MAX 7
GridScale layout_pick_scale(const PaneNeed *need, int n, Rect area, int screen_cols, int screen_rows)
{
    GridScale s = { 1, 1 };
    if (n <= 0 || n > LAYOUT_SCALE_MAX_PANES || screen_rows < GRID_SCALE_MIN_ROWS || screen_cols < GRID_SCALE_MIN_COLS)
        return s;
    int grows = 0;
    for (int i = 0; i < n; i++)
        grows |= need[i].grow_rows > 0 || need[i].grow_cols > 0;
    if (!grows)
        return s;
    /* rows of one matrix row each only stretch down the screen */
    int tall = GRID_SCALE_MAX_ROWS;
    for (int i = 0; i < n; i++)
        if (need[i].grow_rows > 1)
            break;
        else if (i == n - 1)
            tall = CELL_TALL_MAX;
    for (int k = imin(GRID_SCALE_MAX_ROWS, GRID_SCALE_MAX_COLS); k > 1; k--)
        if (fits_scaled(need, n, area, (GridScale){ imin(k, tall), k })) {
            s = (GridScale){ imin(k, tall), k };
            break;
        }
    while (s.rows < tall && fits_scaled(need, n, area, (GridScale){ s.rows + 1, s.cols }))
        s.rows++;
    while (s.cols < GRID_SCALE_MAX_COLS && fits_scaled(need, n, area, (GridScale){ s.rows, s.cols + 1 }))
        s.cols++;
    return s;
}

static int cell_shape_ok(const PaneNeed *n, GridScale s, int across)
{
    int w = n->want_w / imax(n->grow_cols, 1) + 2 * (s.cols - 1);
    return across ? w <= CELL_WIDE_MAX * s.rows : s.rows <= w && (n->grow_rows > 1 || s.rows <= CELL_TALL_MAX);
}

/* The distinct tops of the visible panes that grow, in order down the
 * area, into tops[] (n entries at most); returns how many. */
static int level_tops(const PaneNeed *need, const PanePlace *place, int n, int *tops)
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        if (!place[i].visible || (need[i].grow_rows <= 0 && need[i].grow_cols <= 0))
            continue;
        int k = count;
        while (k > 0 && tops[k - 1] > place[i].r.y)
            k--;
        if (k > 0 && tops[k - 1] == place[i].r.y)
            continue;
        memmove(tops + k + 1, tops + k, (size_t)(count - k) * sizeof *tops);
        tops[k] = place[i].r.y;
        count++;
    }
    return count;
}

void layout_fill(const PaneNeed *need, int n, Rect area, GridScale *each)
{
    PanePlace place[LAYOUT_SCALE_MAX_PANES], moved[LAYOUT_SCALE_MAX_PANES];
    GridScale trial[LAYOUT_SCALE_MAX_PANES];
    int tops[LAYOUT_SCALE_MAX_PANES];
    if (n <= 0 || n > LAYOUT_SCALE_MAX_PANES)
        return;
    /* a pane of one row at the shared scale of taller ones: its cells no
     * taller than CELL_TALL_MAX (smaller, it still fits where it stood) */
    for (int i = 0; i < n; i++)
        if (need[i].grow_rows == 1 && each[i].rows > CELL_TALL_MAX)
            each[i].rows = CELL_TALL_MAX;
    if (!place_each(need, n, area, each, place))
        return;
    /* rows first (a level of panes takes the rows left under the panes,
     * or beside a column), then the cells across; the panes keep the
     * arrangement the shared scale gave them */
    for (int across = 0; across <= 1; across++)
        for (int level = 0;; level++) {
            if (level >= level_tops(need, place, n, tops))
                break;
            int top = tops[level];
            for (;;) {
                int grown = 0;
                for (int i = 0; i < n; i++) {
                    trial[i] = each[i];
                    if (!place[i].visible || place[i].r.y != top)
                        continue;
                    GridScale s = each[i];
                    if (across && need[i].grow_cols > 0 && s.cols < GRID_SCALE_MAX_COLS)
                        s.cols++;
                    else if (!across && need[i].grow_rows > 0 && s.rows < GRID_SCALE_MAX_ROWS)
                        s.rows++;
                    if ((s.rows != each[i].rows || s.cols != each[i].cols) && cell_shape_ok(&need[i], s, across)) {
                        trial[i] = s;
                        grown++;
                    }
                }
                if (!grown || !place_each(need, n, area, trial, moved) || !same_arrangement(place, moved, n))
                    break;
                memcpy(each, trial, (size_t)n * sizeof *each);
                memcpy(place, moved, (size_t)n * sizeof *place);
            }
        }
}

GridScale layout_zoom_scale(const PaneNeed *need, Rect area)
{
    GridScale s = { 1, 1 };
    if (need->grow_rows <= 0 && need->grow_cols <= 0)
        return s;
    while (s.rows < GRID_SCALE_MAX_ROWS && pane_need_scaled(need, (GridScale){ s.rows + 1, 1 }).want_h <= area.h)
        s.rows++;
    while (s.cols < GRID_SCALE_MAX_COLS && pane_need_scaled(need, (GridScale){ 1, s.cols + 1 }).want_w <= area.w)
        s.cols++;
    return s;
}
