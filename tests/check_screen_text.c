/*
 * check_screen_text.c - no text is cut without a mark: every screen of
 * every shipped lesson (each step, each pane in focus, with its exercise
 * answered wrong and its hints shown), the menu, help and the whole text,
 * laid out and drawn into curses at 80x24, 120x40 and 250x70, in UTF-8 and
 * in ASCII. Every string the screens put (ui_put, the one way text reaches
 * the terminal) is watched: what was drawn is the whole string, or a
 * beginning of it that ends at a word and then "…" ("..."), or a single
 * word too long for its room (after any indent), cut with the mark.
 */
#include <check.h>
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lessonfile.h"
#include "tui_chrome.h"
#include "tui_keybar.h"
#include "tui_fixtures.h"
#include "tui_screen.h"
#include "tui_lesson.h"
#include "tui_menu.h"
#include "tui_state.h"

#include "minmax.h"

typedef struct {
    char where[200];        /* the screen being drawn                     */
    char first[800];        /* the first string cut without a mark        */
    int bad, puts, cuts;
} Watch;

/* s without its trailing blanks, into buf. */
static const char *trimmed(const char *s, char *buf, size_t size)
{
    snprintf(buf, size, "%s", s);
    size_t n = strlen(buf);
    while (n > 0 && buf[n - 1] == ' ')
        buf[--n] = '\0';
    return buf;
}

static void watch_put(const char *want, const char *drawn, int room, void *ctx)
{
    Watch *w = ctx;
    w->puts++;
    char a[1100], b[1100];
    trimmed(want, a, sizeof a);
    trimmed(drawn, b, sizeof b);
    if (strcmp(a, b) == 0)
        return;
    size_t bl = strlen(b), ml = 0;
    if (bl >= 3 && strcmp(b + bl - 3, "…") == 0)
        ml = 3;
    else if (bl >= 3 && strcmp(b + bl - 3, "...") == 0)
        ml = 3;
    size_t kept = bl - ml;
    int ok = ml > 0 && strncmp(a, b, kept) == 0;
    /* at a word: the next character of the whole is a blank, or the kept
     * part has no blank at all (one word too long for its room) */
    size_t lead = strspn(b, " ");  /* an indent is not a word's end */
    if (ok && kept < strlen(a) && a[kept] != ' ' && lead < kept && memchr(b + lead, ' ', kept - lead) != NULL)
        ok = 0;
    if (room <= 3 && strncmp(a, b, bl) == 0)
        ok = 1;     /* no room for a mark: the cell is that narrow */
    w->cuts++;
    if (!ok && w->bad++ == 0)
        snprintf(w->first, sizeof w->first, "%s: '%s' drawn as '%s' in %d columns", w->where, a, b, room);
}

static SCREEN *open_curses(int cols, int rows, int utf8, Tui *t)
{
    FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
    ck_assert_ptr_nonnull(out);
    ck_assert_ptr_nonnull(in);
    SCREEN *scr = newterm("xterm-256color", out, in);
    ck_assert_msg(scr != NULL, "no xterm-256color curses");
    resizeterm(rows, cols);
    memset(t, 0, sizeof *t);
    t->term.utf8 = t->term.cv.utf8 = utf8;
    t->term.cv.win = stdscr;
    tui_colors_init(&t->term, 0);
    return scr;
}

static void frame(Tui *t)
{
    tui_prepare(t);
    werase(stdscr);
    if (t->term.layout_ok)
        tui_top(t)->draw(&t->term, tui_top_self(t));
    else
        tui_draw_too_small(&t->term);
}

static void every_screen(int cols, int rows, int utf8)
{
    static char state[] = "/tmp/attn-cut-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(state));
    setenv("ATTN_STATE_DIR", state, 1);
    Tui t;
    open_curses(cols, rows, utf8, &t);
    Watch w = { .bad = 0 };
    ui_put_watch(watch_put, &w);
    /* the menu, and help over it (?, as a person opens it) */
    MenuView *menu = menu_new(getenv("ATTN_LESSONS") ? getenv("ATTN_LESSONS") : "lessons", NULL);
    ck_assert_ptr_nonnull(menu);
    tui_push(&t, &tui_screen_menu, menu);
    snprintf(w.where, sizeof w.where, "the menu at %dx%d", cols, rows);
    frame(&t);
    tui_key(&t, '?');
    ck_assert_str_eq(tui_top(&t)->name, "help");
    snprintf(w.where, sizeof w.where, "help at %dx%d", cols, rows);
    frame(&t);
    tui_close_top(&t);
    tui_close_top(&t);
    Shipped s = shipped_load();
    for (int i = 0; i < s.n; i++) {
        char msg[512];
        LessonScreen *ls = lesson_screen_new(NULL);
        ck_assert_ptr_nonnull(ls);
        tui_push(&t, &tui_screen_lesson, ls);
        ck_assert_msg(lv_open(&t.term, ls, s.paths[i], msg, sizeof msg) == 0, "%s", msg);
        for (int k = 0; k < session_n_screens(ls->lv.ses); k++) {
            lv_go(ls, k);
            for (int f = 0; f < imax(ls->lv.n_panes, 1); f++) {
                ls->lv.focus = f;
                snprintf(w.where, sizeof w.where, "%s screen %d pane %d at %dx%d%s", s.paths[i], k + 1, f + 1,
                         cols, rows, utf8 ? "" : " (ASCII)");
                frame(&t);
            }
            /* the exercise answered wrong, its hints shown, then the whole text (t) */
            const LessonStep *st = session_step(ls->lv.ses);
            if (st && st->n_exercises > 0) {
                session_answer(ls->lv.ses, ls->lv.ex_index, "12345.678");
                for (int h = 0; h < 3; h++)
                    lv_action(&t.term, ls, ACT_HINT);
                frame(&t);
            }
            ck_assert_msg(t.term.layout_ok, "%s", w.where);
            if (ls->lv.confirm_reveal)
                tui_key(&t, 'n');   /* the worked answer the hints led to, declined */
            tui_key(&t, 't');
            ck_assert_str_eq(tui_top(&t)->name, "text");
            frame(&t);
            tui_close_top(&t);
        }
        tui_close_top(&t);
    }
    shipped_free(&s);
    ui_put_watch(NULL, NULL);
    endwin();
    ck_assert_msg(w.puts > 1000, "only %d strings drawn", w.puts);
    ck_assert_msg(w.bad == 0, "%d of %d strings cut without a mark at a word; the first: %s", w.bad, w.puts, w.first);
}

START_TEST(nothing_cut_at_80x24) { every_screen(80, 24, 1); }
END_TEST
START_TEST(nothing_cut_at_120x40) { every_screen(120, 40, 1); }
END_TEST
START_TEST(nothing_cut_at_250x70) { every_screen(250, 70, 1); }
END_TEST
START_TEST(nothing_cut_in_ascii) { every_screen(80, 24, 0); }
END_TEST

/* The rule itself, on one string. */
static void keep_drawn(const char *want, const char *drawn, int room, void *ctx)
{
    (void)want, (void)room;
    snprintf(ctx, 128, "%s", drawn);
}

START_TEST(a_long_line_ends_at_a_word_with_a_mark)
{
    Tui t;
    open_curses(80, 24, 1, &t);
    char drawn[128];
    ui_put_watch(keep_drawn, drawn);
    ui_put(&t.term.cv, 0, 0, 20, A_NORMAL, "the weights of each query row sum to one");
    ck_assert_str_eq(drawn, "the weights of each…");
    ui_put(&t.term.cv, 0, 0, 12, A_NORMAL, "0.4754   ");   /* blanks lost: nothing to mark */
    ck_assert_str_eq(drawn, "0.4754   ");
    ui_put(&t.term.cv, 0, 0, 8, A_NORMAL, "softmax_rows(S)");
    ck_assert_str_eq(drawn, "softmax…");
    t.term.cv.utf8 = 0;
    ui_put(&t.term.cv, 0, 0, 12, A_NORMAL, "-inf masked out");
    ck_assert_str_eq(drawn, "-inf...");
    ui_put_watch(NULL, NULL);
    endwin();
}
END_TEST

Suite *screen_text_suite(void)
{
    Suite *s = suite_create("screen_text");
    TCase *tc = tcase_create("screen_text");
    tcase_set_timeout(tc, 240);
    tcase_add_test(tc, a_long_line_ends_at_a_word_with_a_mark);
    tcase_add_test(tc, nothing_cut_at_80x24);
    tcase_add_test(tc, nothing_cut_at_120x40);
    tcase_add_test(tc, nothing_cut_at_250x70);
    tcase_add_test(tc, nothing_cut_in_ascii);
    suite_add_tcase(s, tc);
    return s;
}
