/*
 * check_tui_walk.c - every shipped lesson stepped to its end in tmux at 80x24, 250x70 and 100x30, with and without colour, and the reference numbers on the steps that show them.
 * ATTN_SKIP_TUI=1 registers none of the tmux tests (make valgrind).
 */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <signal.h>
#include <pty.h>
#include <poll.h>

#include "format.h"
#include "text.h"
#include "lessonfile.h"
#include "refdata.h"
#include "testutil.h"
#include "tmux.h"
#include "tui_fixtures.h"
#include "tui_keys.h"
#include "tui_layout.h"

/* Every shipped lesson, opened from the menu and stepped to its end. */
static void every_lesson_at(int cols, int rows, const char *env)
{
    Shipped s = shipped_load();
    Tmux t;
    tmux_start(&t, cols, rows, env, NULL);
    WAIT_FOR(&t, "self-attention, step by step");
    for (int i = 0; i < s.n; i++) {
        if (i > 0)
            tmux_keys(&t, "Down");
        tmux_keys(&t, "Enter");
        step_through(&t, s.lessons[i]);
        ck_assert_msg(strstr(t.last, "terminal too small") == NULL, "%dx%d is too small?\n%s", cols, rows, t.last);
        tmux_keys(&t, "Escape");
        WAIT_FOR(&t, "lessons in");
    }
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    shipped_free(&s);
}

START_TEST(every_lesson_80x24_colour)
{
    every_lesson_at(80, 24, NULL);
}
END_TEST

START_TEST(every_lesson_250x70_no_color)
{
    every_lesson_at(250, 70, "NO_COLOR=1");
}
END_TEST

START_TEST(every_lesson_100x30_eight_colours)
{
    every_lesson_at(100, 30, "TERM=xterm");
}
END_TEST

/* 1 when the screen shows a bare 0 (a masked weight), not 0.0000. */
static int has_bare_zero(const char *s)
{
    for (const char *p = s; (p = strchr(p, '0')) != NULL; p++)
        if (p > s && p[-1] == ' ' && (p[1] == ' ' || p[1] == '\n'))
            return 1;
    return 0;
}

/* Every number of a reference matrix is on the first screen that shows
 * it: the .ref files of tests/reference against what the student
 * sees. A value on a rounding boundary (-1.64215004 in the reference,
 * -1.64214993 in float) may show either way in its 4th decimal. */
START_TEST(reference_numbers_on_their_steps)
{
    static const struct {
        const char *lesson, *ref, *names[4];
    } cases[] = {
        { "sky-is-blue", "001-sky-is-blue.ref", { "logits", "A", "O", NULL } },
        { "self-attention-steps", "000-self-attention-exercises.ref", { "S", "A", "X_prime", NULL } },
        { "two-heads", "000-multihead.ref", { "A1", "X_prime", NULL } },
        { "attention-layer", "002-attention-layer.ref", { "A_1", "out_2", NULL } },
        { "encoder", "003-transformer-encoder.ref", { "A", "layernorm", "ffn_out", NULL } },
        { "key-query", "004-key-query.ref", { "alpha", "out_self", NULL } },
        { "causal-mask", "003-transformer-encoder.ref", { "A_causal", "Z_causal", NULL } },
    };
    Shipped s = shipped_load();
    int checked = 0;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        int which = find_lesson(&s, cases[c].lesson);
        if (which < 0)
            continue;   /* the shipped set decides which lessons there are */
        const Lesson *l = s.lessons[which];
        RefFile rf;
        char msg[256];
        ck_assert_msg(ref_load(&rf, cases[c].ref, msg, sizeof msg) == 0, "%s", msg);
        for (int k = 0; cases[c].names[k]; k++) {
            const char *name = cases[c].names[k];
            const RefEntry *e = ref_find(&rf, name, -1);
            int screen = screen_showing(l, name);
            ck_assert_msg(e != NULL, "no %s in %s", name, cases[c].ref);
            ck_assert_msg(screen > 0, "no step of %s shows %s", s.paths[which], name);
            Tmux t;
            open_at_screen(&t, s.paths[which], l, screen);
            int step = screen - 1 - (lesson_n_setup(l) > 0);
            for (int i = 0; i < e->rows; i++)
                for (int j = 0; j < e->cols; j++) {
                    /* a cell an exercise of the step, or of a step after it,
                     * asks for shows '?' until answered */
                    int hidden = 0;
                    for (int k = step; k < lesson_n_steps(l); k++)
                        for (int x = 0; x < lesson_step(l, k)->n_exercises; x++)
                            hidden |= lesson_exercise_hides(&lesson_step(l, k)->exercises[x], name, i, j);
                    if (hidden) {
                        ck_assert_msg(strstr(t.last, "?"), "%s: %s[%d,%d] is asked but not hidden:\n%s",
                                      s.paths[which], name, i + 1, j + 1, t.last);
                        continue;
                    }
                    double v = e->data[i * e->cols + j];
                    /* a weight a mask made 0 is a bare 0 */
                    if (v == 0 && has_bare_zero(t.last))
                        continue;
                    char num[32], lo[32], hi[32];
                    num_format(num, sizeof num, (float)v, 4, 1);
                    num_format(lo, sizeof lo, (float)(v - 1e-6), 4, 1);
                    num_format(hi, sizeof hi, (float)(v + 1e-6), 4, 1);
                    ck_assert_msg(strstr(t.last, num) || strstr(t.last, lo) || strstr(t.last, hi),
                                  "%s: %s[%d,%d] = %s (%s) is not on screen %d:\n%s", s.paths[which], name, i + 1,
                                  j + 1, num, cases[c].ref, screen, t.last);
                }
            tmux_stop(&t);
            checked++;
        }
        ref_free(&rf);
    }
    ck_assert_msg(checked > 0, "no shipped lesson matched a reference file");
    shipped_free(&s);
}
END_TEST

/* A pane of up to PANE_WHOLE_MAX x PANE_WHOLE_MAX cut on this screen: its
 * title says "RxC [rows" or "RxC [cols". Returns the title's text or NULL. */
static const char *small_pane_cut(const char *screen, char *what, size_t size)
{
    for (const char *p = screen; (p = strstr(p, " [")) != NULL; p++) {
        if (strncmp(p, " [rows ", 7) != 0 && strncmp(p, " [cols ", 7) != 0)
            continue;
        const char *q = p;
        while (q > screen && q[-1] != ' ' && q[-1] != '\n')
            q--;
        int r, c;
        if (sscanf(q, "%dx%d", &r, &c) == 2 && r <= PANE_WHOLE_MAX && c <= PANE_WHOLE_MAX) {
            const char *e = strchr(p, '\n');
            snprintf(what, size, "%.*s", (int)((e ? e : p + strlen(p)) - q), q);
            return what;
        }
    }
    return NULL;
}

/* The last line of the step's prose as the screen wraps it, or "". */
static void last_prose_line(const Lesson *l, int screen, int cols, char *out, size_t size)
{
    out[0] = '\0';
    int k = screen - 1 - (lesson_n_setup(l) > 0);
    if (k < 0 || !lesson_step(l, k)->text)
        return;
    char buf[16384], line[1024];
    text_wrap(buf, sizeof buf, lesson_step(l, k)->text, text_measure(cols));
    for (const char *p = buf; (p = text_line(p, line, sizeof line));)
        if (line[strspn(line, " ")])
            snprintf(out, size, "%s", line);
}

/* Every screen of every shipped lesson at cols x rows: every pane of up to
 * 8x8 whole on some page of the panes (Tab turns them), and the prose
 * either all there or marked "t: all", and then all there under t. */
static void every_step_whole_at(int cols, int rows)
{
    Shipped s = shipped_load();
    for (int i = 0; i < s.n; i++) {
        const Lesson *l = s.lessons[i];
        Tmux t;
        tmux_start(&t, cols, rows, NULL, s.paths[i]);
        int n = n_screens(l);
        for (int k = 1; k <= n; k++) {
            char want[64], what[256], last[1024];
            screen_label(l, k, want, sizeof want);
            WAIT_FOR(&t, want);
            /* every page of panes: Tab until the page note has shown each */
            int pages = 1, seen = 0;
            for (int tab = 0; tab < 16; tab++) {
                ck_assert_msg(!small_pane_cut(t.last, what, sizeof what), "%s at %dx%d, screen %d: \"%s\" is cut:\n%s",
                              s.paths[i], cols, rows, k, what, t.last);
                const char *note = strstr(t.last, "panes page ");
                int pg = 1;
                if (note)
                    sscanf(note, "panes page %d/%d", &pg, &pages);
                seen |= 1 << (pg - 1);
                if (seen == (1 << pages) - 1)
                    break;
                tmux_keys(&t, "Tab");
                ck_assert(tmux_wait_for(&t, want));
            }
            ck_assert_msg(seen == (1 << pages) - 1, "%s at %dx%d, screen %d: %d pages, not all reached with Tab",
                          s.paths[i], cols, rows, k, pages);
            /* the prose: whole, or marked and whole under t */
            last_prose_line(l, k, cols, last, sizeof last);
            if (last[0] && !strstr(t.last, last)) {
                ck_assert_msg(strstr(t.last, "t: all"), "%s at %dx%d, screen %d: the prose is cut unmarked:\n%s",
                              s.paths[i], cols, rows, k, t.last);
                /* the text screen wraps two columns narrower */
                last_prose_line(l, k, cols - 2, last, sizeof last);
                tmux_keys(&t, "t");
                WAIT_FOR(&t, last);
                tmux_keys(&t, "Escape");
                WAIT_FOR(&t, want);
            }
            tmux_keys(&t, "n");
        }
        tmux_quit_and_check(&t, "q", "EXITED 0");
        tmux_stop(&t);
    }
    shipped_free(&s);
}

START_TEST(every_step_whole_at_80x24)
{
    every_step_whole_at(80, 24);
}
END_TEST

START_TEST(every_step_whole_at_120x40)
{
    every_step_whole_at(120, 40);
}
END_TEST

Suite *tui_walk_suite(void)
{
    Suite *s = suite_create("tui_walk");
    TCase *tc = tcase_create("walk");
    tcase_set_timeout(tc, 300);
    const char *skip = getenv("ATTN_SKIP_TUI");
    if (!(skip && strcmp(skip, "1") == 0)) {
        tcase_add_test(tc, every_lesson_80x24_colour);
        tcase_add_test(tc, every_lesson_250x70_no_color);
        tcase_add_test(tc, every_lesson_100x30_eight_colours);
        tcase_add_test(tc, reference_numbers_on_their_steps);
        tcase_add_test(tc, every_step_whole_at_80x24);
        tcase_add_test(tc, every_step_whole_at_120x40);
    }
    suite_add_tcase(s, tc);
    return s;
}
