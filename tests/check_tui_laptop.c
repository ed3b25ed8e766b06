/*
 * check_tui_laptop.c - the lesson screen at 80x24, a laptop's terminal, in
 * tmux (issue 44's items): what the student just did keeps its row (an
 * answer that could not be read says why in place of the last verdict; a
 * verdict is not cut for "t: all"), the end of a lesson says its counts
 * whole, the key bar's keys are never written over by the panes' note,
 * and the first answer moves nothing on the screen.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tmux.h"

static void open_lesson(Tmux *t, const char *file, const char *first)
{
    char args[300];
    snprintf(args, sizeof args, "%s/%s", lessons_dir(), file);
    tmux_start(t, 80, 24, NULL, args);
    WAIT_FOR(t, first);
}

/* a, the answer typed, Enter. */
static void answer(Tmux *t, const char *typed)
{
    tmux_keys(t, "a");
    tmux_type(t, typed);
    tmux_keys(t, "Enter");
}

/* The row of the screen that holds text, or -1. */
static int row_of(Tmux *t, const char *text)
{
    int col;
    tmux_capture(t, 0);
    return line_with(t->last, 0, text, &col);
}

/* An answer that is no number says why where the last verdict stood. */
START_TEST(an_unreadable_answer_says_why)
{
    Tmux t;
    open_lesson(&t, "13-rotary-positions.lesson", "Set-up, then 4 steps");
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "step 1/4");
    answer(&t, "0.5");
    WAIT_FOR(&t, "✗ 0.5: not yet: more digits");
    answer(&t, "abc");
    WAIT_FOR(&t, "✗ abc: type the number itself: 'abc' is a name");
    ck_assert_msg(!strstr(t.last, "✗ 0.5"), "the last verdict stands over the new message:\n%s", t.last);
    tmux_stop(&t);
}
END_TEST

/* Lesson 12's exercise 7: its question and hints do not fit with the
 * verdict; the verdict keeps the last rows, the rest goes under t. */
START_TEST(a_verdict_is_never_cut_for_the_rest)
{
    Tmux t;
    open_lesson(&t, "12-grouped-query.lesson", "Set-up, then 4 steps");
    tmux_keys(&t, "n n n n");
    WAIT_FOR(&t, "step 4/4");
    tmux_keys(&t, "x");
    WAIT_FOR(&t, "Exercise 7 (2/3)");
    answer(&t, "1");
    tmux_keys(&t, "i i");
    WAIT_FOR(&t, "no more hints");
    WAIT_FOR(&t, "✗ 1: not yet: the exact number is asked, and that is not it.");
    ck_assert_msg(strstr(t.last, "t: all"), "%s", t.last);
    tmux_stop(&t);
}
END_TEST

/* The end of lesson 1: the counts whole on the laptop's row. */
START_TEST(the_end_says_its_counts_whole)
{
    Tmux t;
    open_lesson(&t, "01-key-query.lesson", "Set-up, then 7 steps");
    for (int i = 0; i < 8; i++)
        tmux_keys(&t, "n");
    WAIT_FOR(&t, "the end of the lesson: 0 right first time, 0 later, 0 revealed, 13 open");
    tmux_stop(&t);
}
END_TEST

/* The panes' note on the key bar's row takes the bar's end; the keys
 * before it are whole (it once read "Tab p 3 decimals to fit"). */
START_TEST(the_key_bar_is_not_written_over)
{
    Tmux t;
    open_lesson(&t, "08-causal-mask.lesson", "Set-up, then 4 steps");
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "3 decimals to fit (+: more)");
    char line[400];
    line_at(t.last, 23, line, sizeof line);
    ck_assert_msg(strstr(line, "q quit    3 decimals to fit (+: more)"), "the key bar: %s", line);
    tmux_stop(&t);
}
END_TEST

/* Lesson 8's first answer: the verdict's row was kept for it, so the panes
 * stay where they were. */
START_TEST(the_first_answer_moves_nothing)
{
    Tmux t;
    open_lesson(&t, "08-causal-mask.lesson", "Set-up, then 4 steps");
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "Exercise 1 (1/2)");
    int before = row_of(&t, "scores 3x3"), ex = row_of(&t, "Exercise 1 (1/2)");
    answer(&t, "12");
    WAIT_FOR(&t, "✓ 12: right");
    ck_assert_int_eq(row_of(&t, "scores 3x3"), before);
    ck_assert_int_eq(row_of(&t, "Exercise 1 (1/2)"), ex);
    tmux_stop(&t);
}
END_TEST

Suite *tui_laptop_suite(void)
{
    Suite *s = suite_create("tui_laptop");
    TCase *tc = tcase_create("laptop");
    tcase_set_timeout(tc, 120);
    const char *skip = getenv("ATTN_SKIP_TUI");
    if (!(skip && strcmp(skip, "1") == 0) && have_tmux()) {
        tcase_add_test(tc, an_unreadable_answer_says_why);
        tcase_add_test(tc, a_verdict_is_never_cut_for_the_rest);
        tcase_add_test(tc, the_end_says_its_counts_whole);
        tcase_add_test(tc, the_key_bar_is_not_written_over);
        tcase_add_test(tc, the_first_answer_moves_nothing);
    }
    suite_add_tcase(s, tc);
    return s;
}
