/*
 * check_screen_fit.c - the frame layout of every step of every shipped
 * lesson, computed as the screen computes it (tui_prepare, with no
 * terminal): at 80x24, 120x40 and 250x70 every matrix of up to 8x8 is
 * whole on its page of panes; on a projector the panes fill the screen;
 * zoomed, a pane gets the screen. The tmux walk
 * (check_tui_walk.c) sees the same on a real terminal.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui_fixtures.h"
#include "tui_chrome.h"
#include "tui_keybar.h"
#include "tui_screen.h"
#include "tui_lesson.h"
#include "tui_state.h"
#include "tui_pane.h"
#include "testutil.h"

#include "minmax.h"

/* A screen of size cols x rows, with no window, on lesson path. */
static LessonScreen *open_headless(Tui *t, const char *path, int cols, int rows)
{
    static char state[] = "/tmp/attn-fit-XXXXXX";
    static int made;
    if (!made)
        ck_assert_msg(mkdtemp(state) != NULL, "cannot make a state directory");
    made = 1;
    setenv("ATTN_STATE_DIR", state, 1);
    memset(t, 0, sizeof *t);
    t->term.utf8 = 1;
    t->term.cv.utf8 = 1;
    t->term.color = COLORS_256;
    t->term.cols = cols;
    t->term.rows = rows;
    LessonScreen *ls = lesson_screen_new(NULL);
    ck_assert_ptr_nonnull(ls);
    tui_push(t, &tui_screen_lesson, ls);
    char msg[512];
    ck_assert_msg(lv_open(&t->term, ls, path, msg, sizeof msg) == 0, "%s: %s", path, msg);
    return ls;
}

static void close_headless(Tui *t)
{
    tui_close_top(t);
}

/* The area the visible panes of the frame cover. */
static long panes_area(const LessonScreen *ls)
{
    long a = 0;
    for (int i = 0; i < ls->lv.n_panes; i++)
        if (ls->lv.views[i].place.visible)
            a += (long)ls->lv.views[i].place.r.w * ls->lv.views[i].place.r.h;
    return a;
}

/* Are all of the frame's panes one row (1 x N)? Those grow down no
 * further than the block font needs: such a screen has nothing to fill. */
static int one_row_only(const LessonScreen *ls)
{
    for (int i = 0; i < ls->lv.n_panes; i++)
        if (ls->lv.views[i].m && ls->lv.views[i].m->rows > 1)
            return 0;
    return 1;
}

/* Is one of the frame's panes one row (1 x N)? */
static int has_one_row(const LessonScreen *ls)
{
    for (int i = 0; i < ls->lv.n_panes; i++)
        if (ls->lv.views[i].m && ls->lv.views[i].m->rows == 1)
            return 1;
    return 0;
}

/* Every screen of every shipped lesson at cols x rows: with the focus on
 * each pane in turn (which shows that pane's page), every visible matrix of
 * up to 8x8 shows all its rows and columns. Returns the smallest share of
 * the screen (in percent) the panes covered on a screen that has any. */
static char worst[256];     /* the screen with the least share */
static int mean_share;      /* the panes' mean share of the screens */

static int every_screen_at(int cols, int rows)
{
    Shipped s = shipped_load();
    int least = 100, screens = 0;
    long total = 0;
    const char *report = getenv("ATTN_FIT_REPORT");   /* print every share */
    for (int i = 0; i < s.n; i++) {
        Tui t;
        LessonScreen *ls;
        ls = open_headless(&t, s.paths[i], cols, rows);
        for (int k = 0; k < n_screens(s.lessons[i]); k++) {
            lv_go(ls, k);
            for (int f = 0; f < imax(ls->lv.n_panes, 1); f++) {
                ls->lv.focus = f;
                tui_prepare(&t);
                ck_assert_msg(t.term.layout_ok, "%s screen %d at %dx%d: no layout", s.paths[i], k + 1, cols, rows);
                for (int j = 0; j < ls->lv.n_panes; j++) {
                    const PaneView *v = &ls->lv.views[j];
                    if (!v->place.visible || !v->m || v->m->rows > PANE_WHOLE_MAX || v->m->cols > PANE_WHOLE_MAX)
                        continue;
                    ck_assert_msg(v->fit_r == v->m->rows && v->fit_c == v->m->cols,
                                  "%s screen %d at %dx%d: %s %dx%d shows %dx%d", s.paths[i], k + 1, cols, rows,
                                  ls->lv.panes[j].name, v->m->rows, v->m->cols, v->fit_r, v->fit_c);
                }
                int share = (int)(100 * panes_area(ls) / ((long)cols * rows));
                if (report && f == 0)
                    fprintf(stderr, "%dx%d %s screen %d: %d%%\n", cols, rows, s.paths[i], k + 1, share);
                int counts = ls->lv.n_panes > 0 && f == 0 && !one_row_only(ls);
                if (counts) {
                    total += share;
                    screens++;
                }
                if (counts && !has_one_row(ls) && share < least) {
                    least = share;
                    snprintf(worst, sizeof worst, "%s screen %d", s.paths[i], k + 1);
                }
            }
        }
        close_headless(&t);
    }
    shipped_free(&s);
    mean_share = screens ? (int)(total / screens) : 0;
    return least;
}

START_TEST(small_matrices_whole_on_a_laptop)
{
    every_screen_at(80, 24);
    every_screen_at(100, 30);
}
END_TEST

START_TEST(small_matrices_whole_at_120x40)
{
    every_screen_at(120, 40);
}
END_TEST

/* On a projector the panes grow to fill the screen: at least half of it
 * on every step of matrices of more than one row, and on average at least
 * 60%. A pane of one row grows down no further than the block font needs
 * (its blank rows, 25 of them at 120x40, once counted as filling the
 * screen): a step with one is held to the average only, and a step of such
 * panes alone to nothing. */
START_TEST(a_projector_is_filled)
{
    static const int sizes[][2] = { { 250, 70 }, { 300, 80 } };
    for (int k = 0; k < 2; k++) {
        int least = every_screen_at(sizes[k][0], sizes[k][1]);
        ck_assert_msg(mean_share >= 60, "at %dx%d the panes cover %d%% of the screen on average", sizes[k][0],
                      sizes[k][1], mean_share);
        ck_assert_msg(least >= 50, "%s: the panes cover only %d%% of %dx%d", worst, least, sizes[k][0], sizes[k][1]);
    }
}
END_TEST

/* z: the focused pane alone, in all the room between the title and the
 * explanation, its cells grown; z again: the step as it was. */
START_TEST(zoom_gives_a_pane_the_screen)
{
    Shipped s = shipped_load();
    int which = find_lesson(&s, "sky-is-blue");
    ck_assert_msg(which >= 0, "no sky-is-blue lesson");
    Tui t;
    LessonScreen *ls;
    ls = open_headless(&t, s.paths[which], 80, 24);
    lv_go(ls, n_screens(s.lessons[which]) - 1);
    ck_assert_int_gt(ls->lv.n_panes, 1);
    tui_prepare(&t);
    Rect before = ls->lv.views[0].place.r;
    lv_action(&t.term, ls, ACT_PANE_NEXT);
    lv_action(&t.term, ls, ACT_ZOOM);
    tui_prepare(&t);
    const PaneView *v = &ls->lv.views[1];
    ck_assert_msg(v->place.visible && !ls->lv.views[0].place.visible, "zoomed, only the focused pane shows");
    ck_assert_int_eq(ls->layout.text.h, 0);
    ck_assert_msg(v->place.r.w == 80 && v->place.r.h >= 24 - 2 - STATUS_ROWS - 1,
                  "the zoomed pane is %dx%d of 80x24", v->place.r.w, v->place.r.h);
    ck_assert_msg(grid_cell_h(&v->grid) > 1 && v->scaled, "its cells did not grow");
    ck_assert_msg(v->fit_r == v->m->rows && v->fit_c == v->m->cols, "zoomed, it is cut");
    close_headless(&t);
    /* on a projector, zoomed cells show their digits in the block font too
     * (without B): z grows the numbers, not only the cells */
    ls = open_headless(&t, s.paths[which], 250, 70);
    lv_go(ls, n_screens(s.lessons[which]) - 1);
    lv_action(&t.term, ls, ACT_PANE_NEXT);
    lv_action(&t.term, ls, ACT_ZOOM);
    tui_prepare(&t);
    ck_assert_msg(!ls->big_numbers && ls->lv.views[1].big != BIG_NONE, "zoomed at 250x70, the digits stayed small");
    lv_action(&t.term, ls, ACT_ZOOM);
    tui_prepare(&t);
    ck_assert_msg(ls->lv.views[1].big == BIG_NONE, "unzoomed, without B, the digits are plain");
    close_headless(&t);
    ls = open_headless(&t, s.paths[which], 80, 24);
    lv_go(ls, n_screens(s.lessons[which]) - 1);
    tui_prepare(&t);
    before = ls->lv.views[0].place.r;
    lv_action(&t.term, ls, ACT_PANE_NEXT);
    lv_action(&t.term, ls, ACT_ZOOM);
    tui_prepare(&t);
    lv_action(&t.term, ls, ACT_ZOOM);
    lv_action(&t.term, ls, ACT_PANE_PREV);
    tui_prepare(&t);
    ck_assert_msg(ls->lv.views[0].place.visible && ls->lv.views[1].place.visible, "z again: all the panes");
    ck_assert_msg(memcmp(&before, &ls->lv.views[0].place.r, sizeof before) == 0, "z again: not as it was");
    close_headless(&t);
    shipped_free(&s);
}
END_TEST

/* Presenter mode: on every screen of every shipped lesson at 250x70, no
 * two different numbers of a pane read the same with the decimals shown
 * (at 2 decimals, 0.3577 and 0.3622 were both 0.36 in lesson 2); and
 * where 2 tell them apart, 2 it is. */
START_TEST(a_room_can_tell_the_numbers_apart)
{
    Shipped s = shipped_load();
    int two = 0, more = 0;
    for (int i = 0; i < s.n; i++) {
        Tui t;
        LessonScreen *ls;
        memset(&t, 0, sizeof t);
        ls = open_headless(&t, s.paths[i], 250, 70);
        ls->present = 1;
        for (int k = 0; k < n_screens(s.lessons[i]); k++) {
            lv_go(ls, k);
            tui_prepare(&t);
            int d = ls->lv.decimals_shown;
            for (int p = 0; p < ls->lv.n_panes; p++) {
                const Mat *m = lv_pane_mat(&ls->lv, p);
                if (!m || m->rows * m->cols > 256 || d >= 4)
                    continue;
                for (int a = 0; a < m->rows * m->cols; a++)
                    for (int b = a + 1; b < m->rows * m->cols; b++) {
                        float x = m->data[(a / m->cols) * m->ld + a % m->cols];
                        float y = m->data[(b / m->cols) * m->ld + b % m->cols];
                        char fx[64], fy[64];
                        if (!isfinite(x) || !isfinite(y) || fabsf(x - y) <= 1e-6f * fmaxf(1.0f, fabsf(x)))
                            continue;
                        snprintf(fx, sizeof fx, "%.*f", d, x);
                        snprintf(fy, sizeof fy, "%.*f", d, y);
                        ck_assert_msg(strcmp(fx, fy) != 0, "%s screen %d: %s shows %g and %g both as %s", s.paths[i],
                                      k + 1, ls->lv.panes[p].name, x, y, fx);
                    }
            }
            two += d == 2;
            more += d > 2;
        }
        close_headless(&t);
    }
    /* lesson 2's last step needs 4: A's 0.3418 and 0.3422 */
    Tui t;
    LessonScreen *ls;
    char path[600];
    snprintf(path, sizeof path, "%s/02-sky-is-blue.lesson", lessons_dir());
    memset(&t, 0, sizeof t);
    ls = open_headless(&t, path, 250, 70);
    ls->present = 1;
    lv_go(ls, n_screens(s.lessons[1]) - 1);
    tui_prepare(&t);
    ck_assert_int_eq(ls->lv.decimals_shown, 4);
    /* the names and labels in the block font: three more rows above the
     * cells, and a label column as wide as "blue" (15 columns) in it */
    ck_assert_int_eq(grid_header_h(&ls->lv.views[0].grid), 1 + 3);
    ck_assert_int_ge(ls->lv.views[0].grid.label_w, 16);
    close_headless(&t);
    ck_assert_msg(two > 0 && more > 0, "%d screens at 2 decimals, %d at more", two, more);
    shipped_free(&s);
}
END_TEST

Suite *screen_fit_suite(void)
{
    Suite *s = suite_create("screen_fit");
    TCase *tc = tcase_create("fit");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, small_matrices_whole_on_a_laptop);
    tcase_add_test(tc, small_matrices_whole_at_120x40);
    tcase_add_test(tc, a_projector_is_filled);
    tcase_add_test(tc, zoom_gives_a_pane_the_screen);
    tcase_add_test(tc, a_room_can_tell_the_numbers_apart);
    suite_add_tcase(s, tc);
    return s;
}
