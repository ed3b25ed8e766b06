/*
 * check_tui_bug.c - find the bug on the screen, as a student does it, in
 * tmux at 80x24: `attn bug --seed 19` on lesson 1 plants the scale applied
 * twice in Wk. A right matrix pointed at is told right; a wrong one that
 * only inherits the bug is told so; Wk is the first wrong matrix; a wrong
 * kind is told where that mistake would show; the right kind; the fix with
 * both statements and the numbers side by side. Nothing on the screen
 * gives the bug away before (the pane's title and Enter's arithmetic are
 * the lesson's as written). Quit and come back: the hunt is as it was,
 * and `attn progress` counts the bug found.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "tmux.h"

START_TEST(the_hunt_wrong_then_right)
{
    if (!have_tmux())
        return;
    Tmux t;
    char args[600];
    snprintf(args, sizeof args, "bug --seed 19 %s/01-key-query.lesson", lessons_dir());
    tmux_start(&t, 80, 24, NULL, args);
    WAIT_FOR(&t, "Find the bug (seed 19): which matrix is the first one wrong?");
    /* step 4: alpha is as the lesson says */
    tmux_keys(&t, "n n n n");
    WAIT_FOR(&t, "step 4/7");
    tmux_keys(&t, "a");
    WAIT_FOR(&t, "✗ alpha: alpha is right: its numbers are what the lesson computes");
    /* step 5: the scores are wrong, but only because Wk is */
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "step 5/7");
    ck_assert_msg(strstr(t.last, "Wk 2x2 = [2x2] * boost") && !strstr(t.last, "* boost) * boost"),
                  "the pane's title gives the bug away:\n%s", t.last);
    ck_assert_msg(strstr(t.last, "100.0000"), "the numbers with the bug are not shown:\n%s", t.last);
    /* Enter's arithmetic is the statement as written, 1 * 10, and its
     * result is left to the student beside the number shown: no line says
     * where the two disagree */
    WAIT_FOR(&t, "Wk[1,1] = [2x2][1,1] * boost[1,1]");
    WAIT_FOR(&t, "= ? (work it out: the pane shows 100.0000)");
    ck_assert_msg(!strstr(t.last, "= 10.0000"), "Enter gives the right number away:\n%s", t.last);
    tmux_keys(&t, "Tab a");
    WAIT_FOR(&t, "✗ s_boost: s_boost is wrong, but not the first");
    tmux_keys(&t, "BTab a");
    WAIT_FOR(&t, "✓ Wk: Wk is the first wrong matrix (step 5, Sharper attention");
    WAIT_FOR(&t, "a name it");
    /* a wrong kind, by its number: the scale left out would give other numbers */
    tmux_keys(&t, "a");
    WAIT_FOR(&t, "Which mistake makes Wk wrong? (seed 19)");
    ck_assert_msg(strstr(t.last, " 3  scaled-twice") && strstr(t.last, "15  no-rowsum-term"), "the list:\n%s", t.last);
    tmux_type(&t, "2");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "✗ unscaled: that mistake would make Wk wrong too, but with other");
    /* not a kind at all: refused, not counted, the list stays */
    tmux_keys(&t, "a");
    WAIT_FOR(&t, "Which mistake makes Wk wrong?");
    tmux_type(&t, "99");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "'99' is not a kind of mistake");
    /* the right one, from the list with the arrows */
    tmux_keys(&t, "BSpace BSpace Down Down Down Enter");
    WAIT_FOR(&t, "Found (seed 19, 5 guesses): ✓ scaled-twice, the scale applied twice");
    WAIT_FOR(&t, "✓ scaled-twice: the scaling by boost was applied twice");
    /* the fix: both statements, the numbers side by side, the differences marked */
    tmux_keys(&t, "v");
    WAIT_FOR(&t, "The fix (seed 19): scaled-twice");
    ck_assert_msg(strstr(t.last, "as written:  Wk = eye(2) * boost"), "%s", t.last);
    ck_assert_msg(strstr(t.last, "as planted:  Wk = (eye(2) * boost) * boost"), "%s", t.last);
    ck_assert_msg(strstr(t.last, "Wk: 2 cells differ (marked *)"), "%s", t.last);
    ck_assert_msg(strstr(t.last, "100.0000*") && strstr(t.last, " 10.0000"), "%s", t.last);
    tmux_keys(&t, "Tab");
    WAIT_FOR(&t, "s_boost: 1 cell differs");
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "Found (seed 19, 5 guesses)");
    char state[128];
    snprintf(state, sizeof state, "ATTN_STATE_DIR=%s", t.state);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    /* back again: the hunt as it was left */
    Tmux again;
    tmux_start(&again, 80, 24, state, args);
    WAIT_FOR(&again, "Found (seed 19, 5 guesses): ✓ scaled-twice");
    tmux_quit_and_check(&again, "q", "EXITED 0");
    CmdResult r = cmd_runf("%s ATTN_LESSONS=%s %s progress", state, lessons_dir(), attn_bin());
    ck_assert_msg(strstr(r.out, "bugs found 1/1"), "%s", r.out);
    cmd_free(&r);
    tmux_stop(&again);
    tmux_stop(&t);
}
END_TEST

/* Giving up: v twice shows the fix, counted as revealed; the lesson's own
 * place and exercises are not the hunt's. Without a terminal attn bug
 * says where the paper version is. */
START_TEST(giving_up_and_no_terminal)
{
    if (!have_tmux())
        return;
    Tmux t;
    char args[600];
    snprintf(args, sizeof args, "bug --seed 1 %s/02-sky-is-blue.lesson", lessons_dir());
    tmux_start(&t, 80, 24, "NO_COLOR=1", args);
    WAIT_FOR(&t, "Find the bug (seed 1)");
    /* the help says what the exercise keys do in a hunt */
    tmux_keys(&t, "?");
    WAIT_FOR(&t, "attn: keys of a bug hunt");
    ck_assert_msg(strstr(t.last, "this pane? then name it") && strstr(t.last, "the fix, as revealed")
                      && strstr(t.last, "a hint for the hunt") && !strstr(t.last, "answer the exercise"),
                  "%s", t.last);
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "Find the bug (seed 1)");
    tmux_keys(&t, "i");
    WAIT_FOR(&t, "Hint: the first wrong matrix is shown on step 5 (Softmax along each row)");
    tmux_keys(&t, "v");
    WAIT_FOR(&t, "v again shows the fix");
    tmux_keys(&t, "v");
    WAIT_FOR(&t, "The fix (seed 1): wrong-axis");
    ck_assert_msg(strstr(t.last, "as planted:  A = softmax_cols(scaled)"), "%s", t.last);
    /* the grids are labelled as the panes are, and each mark stands apart
     * from the next number (it read "0.3016*0.3379*") */
    ck_assert_msg(strstr(t.last, "          sky      is    blue") && strstr(t.last, "  sky  0.3016* 0.3379* 0.3394*")
                      && strstr(t.last, "  blue 0.3474* 0.3318* 0.3312*"),
                  "%s", t.last);
    tmux_capture(&t, 1);
    ck_assert_msg(!has_colour_codes(t.last), "colour with NO_COLOR:\n%s", t.last);
    tmux_keys(&t, "q");
    WAIT_FOR(&t, "The fix is shown (seed 1)");
    tmux_quit_and_check(&t, "q", "EXITED 0");
    CmdResult r = cmd_runf("ATTN_STATE_DIR=%s ATTN_LESSONS=%s %s progress --json", t.state, lessons_dir(), attn_bin());
    ck_assert_msg(strstr(r.out, "\"bugs\": [{\"seed\": 1, \"status\": \"revealed\", \"kind\": \"wrong-axis\", "
                                "\"matrix\": \"A\", \"matrix_tries\": 0, \"kind_tries\": 0"), "%s", r.out);
    cmd_free(&r);
    r = cmd_runf("%s bug --seed 1 %s/02-sky-is-blue.lesson < /dev/null", attn_bin(), lessons_dir());
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "attn bug: the hunt is on the screen (a terminal); on paper: attn run --bug N"), "%s",
                  r.err);
    cmd_free(&r);
    r = cmd_runf("%s bug --seed x %s/02-sky-is-blue.lesson", attn_bin(), lessons_dir());
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--seed takes a whole number from 0 to 4294967295, not 'x'"), "%s", r.err);
    cmd_free(&r);
    tmux_stop(&t);
    /* NO_COLOR set but empty asks for nothing (no-color.org): the hunt is
     * in colour, as the lesson screen and the pictures read it (the hunt,
     * the model, the training and the student's screens once went grey) */
    tmux_start(&t, 80, 24, "NO_COLOR=", args);
    WAIT_FOR(&t, "Find the bug (seed 1)");
    tmux_capture(&t, 1);
    ck_assert_msg(has_colour_codes(t.last), "no colour with NO_COLOR empty:\n%s", t.last);
    tmux_stop(&t);
}
END_TEST

Suite *tui_bug_suite(void)
{
    Suite *s = suite_create("tui_bug");
    TCase *c = tcase_create("core");
    tcase_set_timeout(c, 120);
    tcase_add_test(c, the_hunt_wrong_then_right);
    tcase_add_test(c, giving_up_and_no_terminal);
    suite_add_tcase(s, c);
    return s;
}
