/*
 * check_tui_knobs.c - the knob bar in a real terminal (tmux, 80x24): a
 * knob moved by keys changes the numbers downstream on the screen, to the
 * values computed here from PyTorch's reference numbers (lesson 02's
 * temperature), a switch flipped by a key (lesson 08's causal mask), and
 * undo takes a change back.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numfmt.h"
#include "refdata.h"
#include "testutil.h"
#include "tmux.h"
#include "tui_fixtures.h"

/* Open lesson l at 80x24 and step to screen (1-based). */
static void open_80x24_at(Tmux *t, const char *path, const Lesson *l, int screen)
{
    char want[64];
    tmux_start(t, 80, 24, NULL, path);
    screen_label(l, 1, want, sizeof want);
    WAIT_FOR(t, want);
    for (int k = 1; k < screen; k++)
        tmux_keys(t, "n");
    screen_label(l, screen, want, sizeof want);
    WAIT_FOR(t, want);
}

/* How many times needle is on the screen. */
static int count(const char *screen, const char *needle)
{
    int n = 0;
    for (const char *p = screen; (p = strstr(p, needle)) != NULL; p += strlen(needle))
        n++;
    return n;
}

/* Row 1 of softmax_rows(m / t) (m 3x3 from the reference), as the screen
 * prints it with 4 decimals. */
static void softmax_row1(const RefEntry *m, double t, char out[3][32])
{
    double mx = fmax(m->data[0], fmax(m->data[1], m->data[2])) / t, e[3], sum = 0;
    for (int j = 0; j < 3; j++)
        sum += e[j] = exp(m->data[j] / t - mx);
    for (int j = 0; j < 3; j++)
        num_format(out[j], sizeof out[j], e[j] / sum, 4, 1);
}

/* Lesson 02: T from 1 to 2 by ten presses of '>'; A_T follows. */
START_TEST(temperature_knob_moves_the_weights)
{
    Shipped s = shipped_load();
    int which = find_lesson(&s, "sky-is-blue");
    ck_assert_msg(which >= 0, "no sky-is-blue lesson in %s", lessons_dir());
    const Lesson *l = s.lessons[which];
    int screen = screen_showing(l, "A_T");
    ck_assert_msg(screen > 0, "no step of %s shows A_T", s.paths[which]);
    RefFile rf;
    char msg[256];
    ck_assert_msg(ref_load(&rf, "001-sky-is-blue.ref", msg, sizeof msg) == 0, "%s", msg);
    const RefEntry *scaled = ref_find(&rf, "scaled", -1);
    ck_assert_ptr_nonnull(scaled);
    char at1[3][32], at2[3][32];
    softmax_row1(scaled, 1.0, at1);
    softmax_row1(scaled, 2.0, at2);
    Tmux t;
    open_80x24_at(&t, s.paths[which], l, screen);
    WAIT_FOR(&t, "knobs:");
    /* the step's exercise keeps A_T[1,3] as '?' until it is answered */
    tmux_type(&t, "a");
    tmux_type(&t, at1[2]);
    tmux_keys(&t, "Enter");
    char said[64];
    snprintf(said, sizeof said, "✓ %s: right", at1[2]);
    WAIT_FOR(&t, said);
    for (int j = 0; j < 3; j++)
        ck_assert_msg(strstr(t.last, at1[j]), "A_T[1,%d] = %s at T = 1 is not shown:\n%s", j + 1, at1[j], t.last);
    for (int k = 0; k < 10; k++)
        tmux_type(&t, ">");
    WAIT_FOR(&t, "T = 2;");
    WAIT_FOR(&t, "2.0");
    for (int j = 0; j < 3; j++) {
        ck_assert_msg(strstr(t.last, at2[j]), "A_T[1,%d] = %s at T = 2 is not shown:\n%s", j + 1, at2[j], t.last);
        /* (A_T[1,3] at T = 1 stays in the exercise's "✓ 0.3622: right") */
        ck_assert_msg(j == 2 || !strstr(t.last, at1[j]), "A_T[1,%d] still shows %s at T = 2:\n%s", j + 1, at1[j],
                      t.last);
    }
    ck_assert_msg(strstr(t.last, "10 edits"), "the title does not count the ten changes:\n%s", t.last);
    /* the exercise says what it asks, and its verdict stands */
    ck_assert_msg(strstr(t.last, "(asked at T = 1; the knob is at 2)"), "no note of the knob:\n%s", t.last);
    ck_assert_msg(strstr(t.last, said), "the verdict changed with the knob:\n%s", t.last);
    /* ten steps down at once with '{', then undo brings T = 2 back */
    tmux_type(&t, "{");
    WAIT_FOR(&t, "T = 1, the lesson's own value");
    WAIT_FOR(&t, at1[0]);
    tmux_type(&t, "u");
    WAIT_FOR(&t, at2[0]);
    tmux_stop(&t);
    ref_free(&rf);
    shipped_free(&s);
}
END_TEST

/* Lesson 08: s turns the causal mask off; A_causal becomes A. */
START_TEST(causal_switch_flips_the_mask)
{
    Shipped s = shipped_load();
    int which = find_lesson(&s, "causal-mask");
    ck_assert_msg(which >= 0, "no causal-mask lesson in %s", lessons_dir());
    const Lesson *l = s.lessons[which];
    int screen = screen_showing(l, "A_causal");
    ck_assert_msg(screen > 0, "no step of %s shows A_causal", s.paths[which]);
    RefFile rf;
    char msg[256];
    ck_assert_msg(ref_load(&rf, "003-transformer-encoder.ref", msg, sizeof msg) == 0, "%s", msg);
    const RefEntry *a = ref_find(&rf, "A", -1);
    ck_assert_ptr_nonnull(a);
    char a11[32];
    num_format(a11, sizeof a11, a->data[0], 4, 1);   /* A[1,1]; with the mask on, A_causal[1,1] is 1 */
    Tmux t;
    open_80x24_at(&t, s.paths[which], l, screen);
    WAIT_FOR(&t, "causal [on]");
    /* the step's first exercise keeps A_causal[1,1] as '?' until answered */
    tmux_type(&t, "a");
    tmux_type(&t, "1");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "✓ 1: right");
    /* A[1,1] is on the screen (in A, and in the explanation of the cursor's
     * cell); A_causal[1,1] is 1 while the mask is on */
    int before = count(t.last, a11);
    ck_assert_msg(before >= 1, "A[1,1] = %s is not on the screen:\n%s", a11, t.last);
    tmux_type(&t, "s");
    WAIT_FOR(&t, "causal [off]");
    WAIT_FOR(&t, "causal = off;");
    ck_assert_msg(count(t.last, a11) == before + 1, "A_causal[1,1] is not A[1,1] = %s with the mask off:\n%s", a11,
                  t.last);
    tmux_type(&t, "<");     /* already off: nothing changes, the bar says so */
    WAIT_FOR(&t, "causal is already off");
    tmux_type(&t, ">");
    WAIT_FOR(&t, "causal [on]");
    ck_assert_msg(count(t.last, a11) == before, "the mask is on again but A_causal still shows %s:\n%s", a11, t.last);
    tmux_stop(&t);
    ref_free(&rf);
    shipped_free(&s);
}
END_TEST

/* A knob that reaches the shown matrices only as a function's argument
 * (rows(Q, t) in lesson 11, rope(Q, 10000, m) in lesson 13) is on the bar
 * of the steps that ask the student to move it, and moving it works. */
static void argument_knob_offered(const char *lesson, const char *shows, const char *knob_bar, const char *moved)
{
    Shipped s = shipped_load();
    int which = find_lesson(&s, lesson);
    ck_assert_msg(which >= 0, "no %s lesson in %s", lesson, lessons_dir());
    const Lesson *l = s.lessons[which];
    int screen = screen_showing(l, shows);
    ck_assert_msg(screen > 0, "no step of %s shows %s", s.paths[which], shows);
    Tmux t;
    open_80x24_at(&t, s.paths[which], l, screen);
    ck_assert_msg(tmux_wait_for(&t, knob_bar), "the step showing %s offers no knob '%s':\n%s", shows, knob_bar, t.last);
    ck_assert_msg(!strstr(t.last, "no knob on this step"), "%s", t.last);
    tmux_type(&t, "<");
    ck_assert_msg(tmux_wait_for(&t, moved), "the knob did not move to '%s':\n%s", moved, t.last);
    tmux_stop(&t);
    shipped_free(&s);
}

START_TEST(knob_used_as_an_argument_is_offered)
{
    argument_knob_offered("kv-cache", "q_t", " t ◀ 4 ▶", " t ◀ 3 ▶");
    argument_knob_offered("rotary", "S_half", " m ◀ 5 ▶", " m ◀ 4 ▶");
}
END_TEST

Suite *tui_knobs_suite(void)
{
    Suite *s = suite_create("tui_knobs");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    const char *skip = getenv("ATTN_SKIP_TUI");
    if (have_tmux() && !(skip && strcmp(skip, "1") == 0)) {
        tcase_add_test(tc, temperature_knob_moves_the_weights);
        tcase_add_test(tc, causal_switch_flips_the_mask);
        tcase_add_test(tc, knob_used_as_an_argument_is_offered);
    }
    suite_add_tcase(s, tc);
    return s;
}
