/*
 * check_layout.c - the screen's geometry at real terminal sizes: regions
 * that tile the screen, panes inside their area and never overlapping,
 * every pane reachable at a usable size, grids, scaling up on a big screen
 * (scale 1 at 80x24), scrolling, hit tests through tall cells,
 * pooling and the wrapping of prose.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "text.h"
#include "tui_layout.h"

static const int sizes[][2] = { { 80, 24 }, { 120, 40 }, { 250, 70 }, { 60, 16 } };
#define N_SIZES (int)(sizeof sizes / sizeof *sizes)

/* The panes of a lesson step: a few small matrices, a wide one, a tall
 * one and a 64x64 that cannot fit whole. */
static PaneNeed need_of(int rows, int cols, int cell_w)
{
    GridSpec g = { 3, cell_w, 0, 1, 0 };
    PaneNeed n = { grid_want_w(&g, cols), grid_want_h(&g, rows) + 0, PANE_MIN_W, PANE_MIN_H, 0, 0, 0, 0 };
    return n;
}

static void check_places(const PaneNeed *need, int n, Rect area, const char *what)
{
    PanePlace place[32];
    int seen[32] = { 0 };
    int pages = layout_panes(need, n, area, 0, place);
    ck_assert_msg(pages >= 1 && pages <= n, "%s: %d pages for %d panes", what, pages, n);
    for (int p = 0; p < pages; p++) {
        /* show the page holding some pane of page p */
        int f = -1;
        for (int i = 0; i < n; i++)
            if (place[i].page == p && f < 0)
                f = i;
        ck_assert_msg(f >= 0, "%s: page %d is empty", what, p);
        PanePlace pp[32];
        layout_panes(need, n, area, f, pp);
        for (int i = 0; i < n; i++) {
            if (!pp[i].visible)
                continue;
            seen[i] = 1;
            Rect r = pp[i].r;
            ck_assert_msg(rect_inside(r, area), "%s: pane %d at %d,%d %dx%d outside area %d,%d %dx%d",
                          what, i, r.x, r.y, r.w, r.h, area.x, area.y, area.w, area.h);
            int mw = need[i].min_w < need[i].want_w ? need[i].min_w : need[i].want_w;
            int mh = need[i].min_h < need[i].want_h ? need[i].min_h : need[i].want_h;
            if (mw > area.w)
                mw = area.w;
            if (mh > area.h)
                mh = area.h;
            ck_assert_msg(r.w >= mw && r.h >= mh, "%s: pane %d got %dx%d, needs at least %dx%d",
                          what, i, r.w, r.h, mw, mh);
            for (int k = 0; k < i; k++)
                if (pp[k].visible)
                    ck_assert_msg(!rect_overlap(r, pp[k].r), "%s: panes %d and %d overlap (%d,%d %dx%d / %d,%d %dx%d)",
                                  what, k, i, pp[k].r.x, pp[k].r.y, pp[k].r.w, pp[k].r.h, r.x, r.y, r.w, r.h);
        }
    }
    for (int i = 0; i < n; i++)
        ck_assert_msg(seen[i], "%s: pane %d is on no page", what, i);
}

START_TEST(screen_regions_tile)
{
    for (int s = 0; s < N_SIZES; s++) {
        int cols = sizes[s][0], rows = sizes[s][1];
        for (int text = 0; text <= 30; text += 6) {
            ScreenLayout L;
            ck_assert_msg(layout_screen(cols, rows, text, 3, 12, 0, &L), "%dx%d refused", cols, rows);
            Rect screen = { 0, 0, cols, rows };
            Rect parts[] = { L.title, L.text, L.panes, L.exercise, L.status, L.keybar };
            int total = 0;
            for (int i = 0; i < 6; i++) {
                ck_assert_msg(rect_inside(parts[i], screen) || parts[i].h == 0,
                              "%dx%d: region %d outside the screen", cols, rows, i);
                for (int k = 0; k < i; k++)
                    ck_assert_msg(!rect_overlap(parts[i], parts[k]), "%dx%d: regions %d and %d overlap", cols, rows, k, i);
                total += parts[i].h;
            }
            ck_assert_msg(total <= rows && total >= rows - 1, "%dx%d: regions cover %d rows", cols, rows, total);
            ck_assert_msg(L.panes.h >= 6, "%dx%d text %d: only %d rows for panes", cols, rows, text, L.panes.h);
            ck_assert_int_eq(L.keybar.y, rows - 1);
            ck_assert_int_eq(L.status.h, STATUS_ROWS);
            ck_assert_msg(L.text.h <= text, "text got %d rows for %d lines", L.text.h, text);
        }
    }
}
END_TEST

START_TEST(panes_fit_at_real_sizes)
{
    PaneNeed need[8];
    need[0] = need_of(3, 2, 7);     /* E */
    need[1] = need_of(2, 2, 7);     /* WQ */
    need[2] = need_of(3, 3, 7);     /* S */
    need[3] = need_of(3, 3, 7);     /* A */
    need[4] = need_of(3, 12, 7);    /* a wide one */
    need[5] = need_of(20, 2, 7);    /* a tall one */
    need[6] = need_of(64, 64, 7);   /* too big for any screen */
    need[7] = need_of(1, 1, 7);     /* a scalar */
    for (int s = 0; s < N_SIZES; s++) {
        ScreenLayout L;
        layout_screen(sizes[s][0], sizes[s][1], 4, 2, 40, 0, &L);
        for (int n = 1; n <= 8; n++) {
            char what[64];
            snprintf(what, sizeof what, "%dx%d with %d panes", sizes[s][0], sizes[s][1], n);
            check_places(need, n, L.panes, what);
        }
    }
}
END_TEST

START_TEST(small_panes_side_by_side)
{
    PaneNeed need[3] = { need_of(3, 2, 7), need_of(3, 2, 7), need_of(3, 3, 7) };
    Rect area = { 0, 5, 120, 20 };
    PanePlace p[3];
    ck_assert_int_eq(layout_panes(need, 3, area, 0, p), 1);
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(p[i].r.y, 5);
        ck_assert_int_eq(p[i].r.w, need[i].want_w);
        ck_assert_int_eq(p[i].r.h, need[i].want_h);
    }
    ck_assert_int_eq(p[1].r.x, p[0].r.x + p[0].r.w + PANE_GAP_X);
    /* too narrow for all three across: the last goes below */
    Rect narrow = { 0, 0, need[0].want_w + need[1].want_w + PANE_GAP_X + 2, 20 };
    layout_panes(need, 3, narrow, 0, p);
    ck_assert_int_eq(p[2].r.x, 0);
    ck_assert_int_eq(p[2].r.y, p[0].r.h + PANE_GAP_Y);
}
END_TEST

START_TEST(big_pane_gets_the_room)
{
    PaneNeed need[1] = { need_of(64, 64, 7) };
    Rect area = { 0, 3, 250, 50 };
    PanePlace p[1];
    layout_panes(need, 1, area, 0, p);
    ck_assert_int_eq(p[0].r.w, 250);
    ck_assert_int_eq(p[0].r.h, 50);
}
END_TEST

START_TEST(pages_when_minimums_do_not_fit)
{
    PaneNeed need[10];
    for (int i = 0; i < 10; i++)
        need[i] = need_of(30, 30, 7);
    Rect area = { 0, 2, 60, 6 };
    PanePlace p[10];
    int pages = layout_panes(need, 10, area, 9, p);
    /* three minimum-width panes across, one shelf of minimum height down */
    ck_assert_msg(pages == 4, "10 big panes in 60x6 need 4 pages, got %d", pages);
    ck_assert_int_eq(p[9].visible, 1);
    ck_assert_int_eq(p[0].visible, 0);
    check_places(need, 10, area, "60x6, ten 30x30");
}
END_TEST

START_TEST(grid_geometry)
{
    GridSpec g = { 4, 7, 1, 1, 0 };
    ck_assert_int_eq(grid_want_w(&g, 3), 4 + 3 * 8);
    ck_assert_int_eq(grid_want_h(&g, 3), 2 + 3 + 1);
    ck_assert_int_eq(grid_fit_cols(&g, 4 + 3 * 8), 3);
    ck_assert_int_eq(grid_fit_cols(&g, 4 + 3 * 8 - 1), 2);
    ck_assert_int_eq(grid_fit_rows(&g, 6), 3);
    ck_assert_int_eq(grid_cell_x(&g, 0), 5);
    ck_assert_int_eq(grid_cell_x(&g, 2), 5 + 16);
    Rect r = { 10, 5, 4 + 2 * 8, 2 + 2 + 1 };
    int i, j;
    ck_assert_int_eq(grid_hit(&g, r, 3, 7, 64, 64, 10 + 5, 5 + 2, &i, &j), 1);
    ck_assert_int_eq(i, 3);
    ck_assert_int_eq(j, 7);
    ck_assert_int_eq(grid_hit(&g, r, 3, 7, 64, 64, 10 + 5 + 8 + 6, 5 + 3, &i, &j), 1);
    ck_assert_int_eq(i, 4);
    ck_assert_int_eq(j, 8);
    ck_assert_int_eq(grid_hit(&g, r, 0, 0, 64, 64, 10 + 1, 5 + 2, &i, &j), 0);  /* the label */
    ck_assert_int_eq(grid_hit(&g, r, 0, 0, 64, 64, 10 + 5, 5 + 1, &i, &j), 0);  /* the header */
    ck_assert_int_eq(grid_hit(&g, r, 0, 0, 1, 1, 10 + 5 + 8, 5 + 2, &i, &j), 0); /* past the matrix */
}
END_TEST

/* A pane as tui_pane.c asks for it: label 4 wide, numbers 7 wide, a
 * legend under a heatmap, growing with its matrix when scaled. */
static PaneNeed scalable(int rows, int cols, int heat, GridSpec *g)
{
    *g = (GridSpec){ 4, 7, heat ? 1 : 0, 1, 0 };
    PaneNeed n = { grid_want_w(g, cols), grid_want_h(g, rows), PANE_MIN_W, PANE_MIN_H + g->footer_h, 0,
                   rows, cols, heat };
    return n;
}

/* The steps of the shipped lessons in miniature: a 3x3 heatmap beside its
 * 3x3 scores; two 6x6 weights beside 6x6 scores and a 4x6 output; a 3x3
 * heatmap alone; a 64x64 that cannot grow. */
static const struct {
    int n;
    int rows[3], cols[3], heat[3];
} scale_steps[] = {
    { 2, { 3, 3 }, { 3, 3 }, { 0, 1 } },
    { 3, { 6, 6, 4 }, { 6, 6, 6 }, { 0, 1, 0 } },
    { 1, { 3 }, { 3 }, { 1 } },
    { 1, { 64 }, { 64 }, { 1 } },
};

/* Scale {1, 1} on a laptop's 80x24; on a projector's 250x70 the cells of
 * small matrices grow until the panes fill at least half of their region,
 * the panes still fit whole without overlapping, and a click anywhere in a
 * tall cell maps back to its matrix cell. */
START_TEST(scaling_on_big_screens)
{
    static const int at[][2] = { { 80, 24 }, { 120, 40 }, { 250, 70 } };
    for (size_t z = 0; z < sizeof at / sizeof *at; z++)
        for (size_t k = 0; k < sizeof scale_steps / sizeof *scale_steps; k++) {
            int cols = at[z][0], rows = at[z][1], n = scale_steps[k].n;
            PaneNeed need[3];
            GridSpec grid[3];
            for (int i = 0; i < n; i++)
                need[i] = scalable(scale_steps[k].rows[i], scale_steps[k].cols[i], scale_steps[k].heat[i], &grid[i]);
            ScreenLayout L;
            ck_assert(layout_screen(cols, rows, 5, 1, layout_panes_height(need, n, cols), 0, &L));
            GridScale s = layout_pick_scale(need, n, L.panes, cols, rows);
            char what[64];
            snprintf(what, sizeof what, "step %zu at %dx%d, scale %dx%d", k, cols, rows, s.rows, s.cols);
            ck_assert_msg(s.rows >= 1 && s.rows <= GRID_SCALE_MAX_ROWS && s.cols >= 1 && s.cols <= GRID_SCALE_MAX_COLS,
                          "%s: out of range", what);
            if (rows == 24 || scale_steps[k].rows[0] == 64)
                ck_assert_msg(s.rows == 1 && s.cols == 1, "%s: expected 1x1", what);
            if (rows == 70 && scale_steps[k].rows[0] <= 6)
                ck_assert_msg(s.rows > 1 && s.cols > 1, "%s: small matrices on a projector stay small", what);
            PaneNeed scaled[3];
            PanePlace place[3];
            for (int i = 0; i < n; i++) {
                scaled[i] = pane_need_scaled(&need[i], s);
                grid[i] = grid_scaled(&grid[i], s);
                ck_assert_msg(grid_want_w(&grid[i], scale_steps[k].cols[i]) == scaled[i].want_w &&
                                  grid_want_h(&grid[i], scale_steps[k].rows[i]) == scaled[i].want_h,
                              "%s: pane %d's grid wants %dx%d, its need %dx%d", what, i,
                              grid_want_w(&grid[i], scale_steps[k].cols[i]),
                              grid_want_h(&grid[i], scale_steps[k].rows[i]), scaled[i].want_w, scaled[i].want_h);
                ck_assert_int_eq(grid_cell_h(&grid[i]), s.rows);
            }
            if (rows == 70 && scale_steps[k].rows[0] <= 6) {
                long covered = 0;
                layout_panes(scaled, n, L.panes, 0, place);
                for (int i = 0; i < n; i++)
                    covered += (long)place[i].r.w * place[i].r.h;
                ck_assert_msg(2 * covered >= (long)L.panes.w * L.panes.h, "%s: the panes cover %ld of %dx%d", what,
                              covered, L.panes.w, L.panes.h);
            }
            check_places(scaled, n, L.panes, what);
            layout_panes(scaled, n, L.panes, 0, place);
            for (int i = 0; i < n; i++) {
                Rect r = place[i].r;
                int mr = scale_steps[k].rows[i], mc = scale_steps[k].cols[i];
                if (s.rows > 1 || s.cols > 1)
                    ck_assert_msg(place[i].page == 0 && r.w >= scaled[i].want_w && r.h >= scaled[i].want_h,
                                  "%s: pane %d got %dx%d on page %d, wants %dx%d", what, i, r.w, r.h, place[i].page,
                                  scaled[i].want_w, scaled[i].want_h);
                if (r.w < scaled[i].want_w || r.h < scaled[i].want_h)
                    continue;   /* scrolled (a small screen): grid_geometry covers it */
                /* every terminal cell of every matrix cell hits that cell */
                for (int a = 0; a < mr; a++)
                    for (int b = 0; b < mc; b++)
                        for (int dy = 0; dy < grid_cell_h(&grid[i]); dy++)
                            for (int dx = 0; dx < grid[i].cell_w; dx++) {
                                int x = r.x + grid_cell_x(&grid[i], b) + dx, y = r.y + grid_cell_y(&grid[i], a) + dy;
                                int hr = -1, hc = -1;
                                ck_assert_msg(grid_hit(&grid[i], r, 0, 0, mr, mc, x, y, &hr, &hc) && hr == a && hc == b,
                                              "%s: pane %d, (%d,%d) hit [%d,%d], expected [%d,%d]", what, i, x, y,
                                              hr, hc, a, b);
                            }
                /* the row under the last cell (the legend, or nothing) does not */
                int hr, hc;
                ck_assert_msg(!grid_hit(&grid[i], r, 0, 0, mr, mc, r.x + grid_cell_x(&grid[i], 0),
                                        r.y + grid_cell_y(&grid[i], mr), &hr, &hc),
                              "%s: pane %d: the row below the matrix hits [%d,%d]", what, i, hr, hc);
            }
        }
}
END_TEST

/* Prose wraps to the screen on a laptop and to a readable measure on a
 * projector. */
START_TEST(text_measure_caps_the_width)
{
    ck_assert_int_eq(text_measure(80), 78);
    ck_assert_int_eq(text_measure(120), 118);
    ck_assert_int_eq(text_measure(250), TEXT_MEASURE_MAX);
    ck_assert_int_eq(text_measure(5), 10);
    char text[2000] = "", out[4000], line[512];
    for (int k = 0; k < 60; k++)
        strcat(text, "softmax weights ");
    int n = text_wrap(out, sizeof out, text, text_measure(250));
    ck_assert_msg(n >= 8, "%d lines", n);
    /* arithmetic wraps line by line, continuations indented */
    ck_assert_int_eq(text_wrap_lines(out, sizeof out, "A[1,1] = x\n= 0.0014 + 0.0000 + 1.0000 + 0.0000\n\n= 0.99", 20, 4),
                     6);
    ck_assert_str_eq(out, "A[1,1] = x\n= 0.0014 +\n    0.0000 + 1.0000\n    + 0.0000\n\n= 0.99");
    ck_assert_int_eq(text_wrap_lines(out, 12, "= 0.0014 + 0.0000 + 1.0000", 20, 4), 1);
    ck_assert_str_eq(out, "= 0.0014 +");
    n = text_wrap(out, sizeof out, text, text_measure(250));
    for (const char *p = out; (p = text_line(p, line, sizeof line));)   /* full lines but the last */
        ck_assert_msg((int)strlen(line) <= TEXT_MEASURE_MAX && (!*p || (int)strlen(line) > TEXT_MEASURE_MAX - 17),
                      "a line of %zu columns at 250: \"%s\"", strlen(line), line);
}
END_TEST

START_TEST(scrolling_follows_the_cursor)
{
    ck_assert_int_eq(layout_scroll(0, 0, 10, 64), 0);
    ck_assert_int_eq(layout_scroll(9, 0, 10, 64), 0);
    ck_assert_int_eq(layout_scroll(10, 0, 10, 64), 1);
    ck_assert_int_eq(layout_scroll(63, 0, 10, 64), 54);
    ck_assert_int_eq(layout_scroll(20, 54, 10, 64), 20);
    ck_assert_int_eq(layout_scroll(2, 0, 10, 3), 0);
    ck_assert_int_eq(layout_scroll(5, 60, 10, 64), 5);
}
END_TEST

START_TEST(pooling)
{
    float m[4 * 6], out[6];
    for (int i = 0; i < 24; i++)
        m[i] = (float)i;
    int br, bc;
    pool_blocks(4, 6, 2, 3, &br, &bc);
    ck_assert_int_eq(br, 2);
    ck_assert_int_eq(bc, 2);
    pool_matrix(out, m, 4, 6, 6, br, bc, 0);
    /* block (0,0): 0 1 6 7 -> 3.5 */
    ck_assert_float_eq_tol(out[0], 3.5f, 1e-6f);
    ck_assert_float_eq_tol(out[5], (16 + 17 + 22 + 23) / 4.0f, 1e-6f);
    pool_matrix(out, m, 4, 6, 6, br, bc, 1);
    ck_assert_float_eq(out[0], 7.0f);
    ck_assert_float_eq(out[5], 23.0f);
    /* -inf is left out of a mean, kept by a max when alone */
    float k[4] = { 1.0f, -INFINITY, -INFINITY, -INFINITY };
    float o2[2];
    pool_matrix(o2, k, 2, 2, 2, 1, 2, 0);
    ck_assert_float_eq(o2[0], 1.0f);
    ck_assert_msg(isinf(o2[1]) && o2[1] < 0, "all -inf block pools to -inf, got %f", o2[1]);
    pool_blocks(64, 64, 20, 30, &br, &bc);
    ck_assert_int_eq(br, 4);
    ck_assert_int_eq(bc, 3);
}
END_TEST

START_TEST(wrapping)
{
    char out[1024];
    int n = text_wrap(out, sizeof out, "The quick brown fox jumps over the lazy dog.", 15);
    ck_assert_int_eq(n, 3);
    ck_assert_str_eq(out, "The quick brown\nfox jumps over\nthe lazy dog.");
    n = text_wrap(out, sizeof out, "  One\n  two.\n\n  Three.\n", 40);
    ck_assert_int_eq(n, 3);
    ck_assert_str_eq(out, "One two.\n\nThree.");
    n = text_wrap(out, sizeof out, "Scores:\n    S = K^T Q / 2\nthen more", 40);
    /* the formula keeps its line: what follows it starts a new one */
    ck_assert_str_eq(out, "Scores:\n    S = K^T Q / 2\nthen more");
    ck_assert_int_eq(n, 3);
    n = text_wrap(out, sizeof out, "abcdefghij", 4);
    ck_assert_str_eq(out, "abcd\nefgh\nij");
    n = text_wrap(out, sizeof out, "é é é é", 3);
    ck_assert_str_eq(out, "é é\né é");
    ck_assert_int_eq(text_wrap(out, sizeof out, "", 10), 0);
    ck_assert_str_eq(out, "");
    /* walking lines */
    char line[8];
    const char *p = text_line("ab\n\ncdefghijkl", line, sizeof line);
    ck_assert_str_eq(line, "ab");
    p = text_line(p, line, sizeof line);
    ck_assert_str_eq(line, "");
    p = text_line(p, line, sizeof line);
    ck_assert_str_eq(line, "cdefghi");    /* cut to the buffer */
    ck_assert_str_eq(p, "");
    ck_assert_ptr_null(text_line(p, line, sizeof line));
}
END_TEST

START_TEST(cleaning_and_limits)
{
    char out[64];
    ck_assert_str_eq(text_clean(out, sizeof out, "a\x1b[31mb\x07\tc\x7f", 0, 1), "a[31mb c");
    ck_assert_str_eq(text_clean(out, sizeof out, "x\ny", 1, 1), "x\ny");
    ck_assert_str_eq(text_clean(out, sizeof out, "x\ny", 0, 1), "xy");
    ck_assert_str_eq(text_clean(out, sizeof out, "\xc2\x9b" "1m ok", 0, 1), "1m ok");   /* C1 CSI */
    ck_assert_str_eq(text_clean(out, sizeof out, "caf\xc3\xa9", 0, 0), "caf?");
    ck_assert_str_eq(text_clean(out, sizeof out, "caf\xc3\xa9", 0, 1), "caf\xc3\xa9");
    ck_assert_str_eq(text_clean(out, sizeof out, "bad\xff", 0, 1), "bad?");
    /* bidirectional overrides and isolates (a server's STEP title, a
     * progress line) are dropped as lesson files refuse them */
    ck_assert_str_eq(text_clean(out, sizeof out, "a\xe2\x80\xae" "b\xe2\x81\xa6" "c\xe2\x80\xaa\xe2\x81\xa9" "d", 0, 1), "abcd");
    ck_assert_str_eq(text_clean(out, sizeof out, "\xe2\x80\x94 dash", 0, 1), "\xe2\x80\x94 dash");   /* U+2014 stays */
    char tiny[4];
    ck_assert_str_eq(text_clean(tiny, sizeof tiny, "abcdef", 0, 1), "abc");
    ck_assert_str_eq(text_clean(tiny, sizeof tiny, "ab\xc3\xa9", 0, 1), "ab");  /* never half a character */
    ck_assert_uint_eq(text_fit("héllo", 3), 4);
    ck_assert_uint_eq(text_fit("abc", 10), 3);
    /* a small screen is refused, not squeezed */
    ScreenLayout L;
    ck_assert_int_eq(layout_screen(TUI_MIN_COLS - 1, 40, 0, 0, 5, 0, &L), 0);
    ck_assert_int_eq(layout_screen(100, TUI_MIN_ROWS - 1, 0, 0, 5, 0, &L), 0);
    ck_assert_int_eq(layout_screen(TUI_MIN_COLS, TUI_MIN_ROWS, 50, 50, 50, 0, &L), 1);
    ck_assert_int_eq(layout_panes(NULL, 0, L.panes, 0, NULL), 0);
    /* a wrap into a tiny buffer stops at a line boundary */
    char small[12];
    text_wrap(small, sizeof small, "one two three four five", 5);
    ck_assert_msg(strlen(small) < sizeof small, "wrap overflowed");
    ck_assert_str_eq(small, "one\ntwo");
}
END_TEST

/* Short panes beside a tall one stack in a column to its side (after it,
 * or before it), so the room under them is used; when the column would not
 * fit down the area at its panes' minimums, they are placed one by one. */
START_TEST(short_panes_stack_beside_a_tall_one)
{
    PaneNeed tall = { 30, 12, 16, 12, 0, 0, 0, 0 }, a = { 20, 5, 16, 5, 0, 0, 0, 0 }, b = { 40, 5, 16, 5, 0, 0, 0, 0 };
    PaneNeed after[3] = { tall, a, b }, before[3] = { a, b, tall };
    PanePlace p[3];
    Rect area = { 0, 0, 120, 20 };
    ck_assert_int_eq(layout_panes(after, 3, area, 0, p), 1);
    ck_assert_msg(p[1].r.x == p[2].r.x && p[1].r.x >= p[0].r.x + p[0].r.w && p[2].r.y == p[1].r.y + p[1].r.h + PANE_GAP_Y,
                  "after: a at %d,%d and b at %d,%d beside the tall one at %d,%d %dx%d", p[1].r.x, p[1].r.y, p[2].r.x,
                  p[2].r.y, p[0].r.x, p[0].r.y, p[0].r.w, p[0].r.h);
    check_places(after, 3, area, "a column after a tall pane");
    ck_assert_int_eq(layout_panes(before, 3, area, 0, p), 1);
    ck_assert_msg(p[0].r.x == p[1].r.x && p[2].r.x >= p[0].r.x + p[0].r.w && p[1].r.y == p[0].r.y + p[0].r.h + PANE_GAP_Y,
                  "before: a at %d,%d and b at %d,%d, the tall one at %d,%d", p[0].r.x, p[0].r.y, p[1].r.x, p[1].r.y,
                  p[2].r.x, p[2].r.y);
    check_places(before, 3, area, "a column before a tall pane");
    /* too low for the column: one shelf of three, side by side */
    Rect low = { 0, 0, 120, 8 };
    layout_panes(after, 3, low, 0, p);
    ck_assert_msg(p[1].r.y == p[0].r.y && p[2].r.y == p[0].r.y, "in 8 rows the short panes should not stack");
    check_places(after, 3, low, "no column in 8 rows");
}
END_TEST

/* The panes' covered area, each at its scale, and whether they all fit
 * area whole on one page at those scales. */
static long fill_covered(const PaneNeed *need, int n, Rect area, const GridScale *each, int *whole)
{
    PaneNeed scaled[4] = { { 0 } };
    PanePlace place[4];
    for (int i = 0; i < n; i++)
        scaled[i] = pane_need_scaled(&need[i], each[i]);
    *whole = layout_panes(scaled, n, area, 0, place) == 1;
    long covered = 0;
    for (int i = 0; i < n; i++) {
        *whole = *whole && place[i].visible && place[i].r.w >= scaled[i].want_w && place[i].r.h >= scaled[i].want_h
            && rect_inside(place[i].r, area);
        covered += (long)place[i].r.w * place[i].r.h;
    }
    return covered;
}

/* On a projector the shared scale leaves room; each level of panes grows
 * into it. Lesson 1's first step in miniature: E 4x2 with q 1x2 and s 1x4
 * stacked beside it, where s's one row grows down at most to the block
 * font's height with a margin (7 rows: further, a 1 x N pane was only
 * stretched over 25 blank rows) while E and q (level) keep one scale;
 * lesson 6's last step: two 3-row panes on a shelf and a third alone
 * under them, whose cells grow across. */
START_TEST(the_room_left_is_filled_level_by_level)
{
    static const struct {
        int n, rows[3], cols[3];
        int grows_down, grows_across;   /* the pane that must grow */
    } cases[] = {
        { 3, { 4, 1, 1 }, { 2, 2, 4 }, -1, -1 },
        { 3, { 3, 3, 3 }, { 4, 8, 4 }, -1, 2 },
    };
    Rect area = { 0, 8, 250, 55 };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        int n = cases[k].n;
        PaneNeed need[3];
        GridSpec grid[3];
        for (int i = 0; i < n; i++)
            need[i] = scalable(cases[k].rows[i], cases[k].cols[i], 0, &grid[i]);
        GridScale shared = layout_pick_scale(need, n, area, 250, 70), each[3];
        ck_assert_msg(shared.rows > 1 && shared.cols > 1, "case %zu: no shared scale", k);
        for (int i = 0; i < n; i++)
            each[i] = shared;
        int whole;
        long before = fill_covered(need, n, area, each, &whole);
        ck_assert_msg(whole, "case %zu: the shared scale does not fit", k);
        layout_fill(need, n, area, each);
        long after = fill_covered(need, n, area, each, &whole);
        ck_assert_msg(whole, "case %zu: filled, the panes no longer fit whole on one page", k);
        int must_grow = cases[k].grows_down >= 0 || cases[k].grows_across >= 0;
        ck_assert_msg((after > before || !must_grow) && 2 * after >= (long)area.w * area.h,
                      "case %zu: the panes cover %ld of %d, %ld before", k, after, area.w * area.h, before);
        for (int i = 0; i < n; i++) {
            ck_assert_msg((each[i].rows >= shared.rows || (cases[k].rows[i] == 1 && each[i].rows == 7))
                              && each[i].cols >= shared.cols, "case %zu: pane %d shrank", k, i);
            ck_assert_msg(cases[k].rows[i] > 1 || each[i].rows <= 7, "case %zu: a pane of one row stretched to %d rows",
                          k, each[i].rows);
            GridSpec g = grid_scaled(&grid[i], each[i]);
            ck_assert_msg(g.cell_w <= 6 * g.cell_h + 2 && g.cell_h <= g.cell_w + 2,
                          "case %zu: pane %d's cells are %d across and %d down", k, i, g.cell_w, g.cell_h);
        }
        if (cases[k].grows_down >= 0) {
            ck_assert_msg(each[cases[k].grows_down].rows > shared.rows, "case %zu: the short pane did not grow", k);
            ck_assert_msg(each[0].rows == each[1].rows, "case %zu: E and q, level, at %d and %d rows", k, each[0].rows,
                          each[1].rows);
        }
        if (cases[k].grows_across >= 0) {
            ck_assert_msg(each[cases[k].grows_across].cols > shared.cols, "case %zu: the lone pane did not widen", k);
            ck_assert_msg(each[0].rows == each[1].rows && each[0].cols == each[1].cols,
                          "case %zu: the panes of one shelf at different scales", k);
        }
    }
    /* panes that do not fit at the scale given are left as they are */
    PaneNeed big[1];
    GridSpec g;
    big[0] = scalable(8, 8, 0, &g);
    GridScale each[1] = { { 40, 40 } };
    layout_fill(big, 1, area, each);
    ck_assert_msg(each[0].rows == 40 && each[0].cols == 40, "a scale that does not fit was changed");
}
END_TEST

Suite *layout_suite(void)
{
    Suite *s = suite_create("layout");
    TCase *core = tcase_create("core");
    tcase_add_test(core, screen_regions_tile);
    tcase_add_test(core, panes_fit_at_real_sizes);
    tcase_add_test(core, small_panes_side_by_side);
    tcase_add_test(core, big_pane_gets_the_room);
    tcase_add_test(core, grid_geometry);
    tcase_add_test(core, scaling_on_big_screens);
    tcase_add_test(core, short_panes_stack_beside_a_tall_one);
    tcase_add_test(core, the_room_left_is_filled_level_by_level);
    tcase_add_test(core, text_measure_caps_the_width);
    tcase_add_test(core, scrolling_follows_the_cursor);
    tcase_add_test(core, pooling);
    tcase_add_test(core, wrapping);
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_add_test(limits, pages_when_minimums_do_not_fit);
    tcase_add_test(limits, cleaning_and_limits);
    suite_add_tcase(s, limits);
    return s;
}
