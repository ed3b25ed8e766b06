/*
 * check_knobs.c - knobs and switches without a terminal: the `knob` and
 * `switch` lines (a 1x1 input with a range; the refusals with their
 * positions), where(C, A, B), and the session's knob actions (set, clamp,
 * snap, nudge, toggle, undo), with the downstream numbers computed here
 * independently.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "lesson.h"
#include "session_fixtures.h"
#include "testutil.h"

static const char *knob_text =
    "lesson Knobs\n"
    "knob   T = 1 from 0.1 to 10 step 0.1\n"
    "switch causal on\n"
    "let S = [ 1 2 3 ; 4 5 6 ; 7 8 9 ]\n"
    "let A = softmax_rows(S / T + where(causal, causal_mask(3), 0))\n"
    "step Boost\n"
    "  knob boost = 2 from 1 to 10 step 1\n"
    "  let B = A * boost\n"
    "  show A B\n";

/* Softmax of row (x0, x1, x2) / t at column j, in double. */
static double softmax3(double x0, double x1, double x2, double t, int j)
{
    double m = fmax(x0, fmax(x1, x2)) / t;
    double e[3] = { exp(x0 / t - m), exp(x1 / t - m), exp(x2 / t - m) };
    return e[j] / (e[0] + e[1] + e[2]);
}

/* The refusal of text, by the parser or the evaluation: "LINE:COL: MSG"
 * in buf. */
static const char *refusal(const char *text, char *buf, size_t size)
{
    LessonError err;
    Lesson *l = lesson_parse(text, strlen(text), "bad.lesson", &err);
    if (l) {
        LessonState *st = lesson_eval(l, NULL, 0, &err);
        ck_assert_msg(st == NULL, "accepted: %s", text);
        lesson_free(l);
    }
    snprintf(buf, size, "%d:%d: %s", err.line, err.col, err.msg);
    return buf;
}

START_TEST(knobs_are_one_by_one_inputs_with_a_range)
{
    LessonError err;
    Lesson *l = lesson_parse(knob_text, strlen(knob_text), "knobs.lesson", &err);
    ck_assert_msg(l != NULL, "%s", err.msg);
    ck_assert_int_eq(lesson_n_knobs(l), 3);
    const LessonKnob *t = lesson_knob(l, 0), *c = lesson_knob(l, 1), *b = lesson_knob(l, 2);
    ck_assert_str_eq(t->name, "T");
    ck_assert_int_eq(t->is_switch, 0);
    ck_assert_double_eq_tol(t->value, 1.0, 1e-12);
    ck_assert_double_eq_tol(t->lo, 0.1, 1e-12);
    ck_assert_double_eq_tol(t->hi, 10.0, 1e-12);
    ck_assert_double_eq_tol(t->step, 0.1, 1e-12);
    ck_assert_int_eq(t->line, 2);
    ck_assert_str_eq(c->name, "causal");
    ck_assert_int_eq(c->is_switch, 1);
    ck_assert_double_eq(c->value, 1.0);
    ck_assert_int_eq(c->line, 3);
    ck_assert_str_eq(b->name, "boost");
    ck_assert_int_eq(b->line, 7);
    ck_assert_ptr_null(lesson_knob(l, 3));
    ck_assert_int_eq(lesson_knob_find(l, "boost"), 2);
    ck_assert_int_eq(lesson_knob_find(l, "S"), -1);
    /* set-up knobs are on the set-up screen, a step's knob among its names */
    ck_assert_int_eq(lesson_n_setup(l), 4);
    ck_assert_str_eq(lesson_setup_name(l, 0), "T");
    ck_assert_str_eq(lesson_step(l, 0)->defines[0], "boost");
    /* the value is an input, as a literal's */
    LessonState *st = lesson_eval(l, NULL, 0, &err);
    ck_assert_ptr_nonnull(st);
    const Mat *m = lesson_state_get(st, "T");
    ck_assert_int_eq(m->rows, 1);
    ck_assert_int_eq(m->cols, 1);
    ck_assert_int_eq(m->prov.op, OP_INPUT);
    ck_assert_float_eq(mat_get(m, 0, 0), 1.0f);
    /* the mask is on: row 1 sees only itself */
    ck_assert_float_eq(mat_get(lesson_state_get(st, "A"), 0, 1), 0.0f);
    lesson_state_free(st);
    /* snapping: clamped to the range, on the step grid */
    ck_assert_double_eq_tol(lesson_knob_snap(t, 2.04), 2.0, 1e-12);
    ck_assert_double_eq_tol(lesson_knob_snap(t, 0.26), 0.3, 1e-12);
    ck_assert_double_eq_tol(lesson_knob_snap(t, 2.05), 2.1, 1e-12);
    ck_assert_double_eq_tol(lesson_knob_snap(t, -5), 0.1, 1e-12);
    ck_assert_double_eq_tol(lesson_knob_snap(t, 99), 10.0, 1e-12);
    ck_assert_double_eq_tol(lesson_knob_snap(t, NAN), 1.0, 1e-12);
    ck_assert_double_eq(lesson_knob_snap(c, 0.2), 0.0);
    lesson_free(l);
}
END_TEST

START_TEST(bad_knob_lines_are_refused_where_they_are_wrong)
{
    char buf[512];
    ck_assert_str_eq(refusal("lesson K\nknob T = 20 from 0.1 to 10 step 0.1\n", buf, sizeof buf),
                     "2:10: the knob's value 20 is outside its range 0.1 to 10");
    ck_assert_str_eq(refusal("lesson K\nknob T = 1 from 0 to 10 step 0\n", buf, sizeof buf),
                     "2:30: the knob's step must be more than 0, not 0");
    ck_assert_str_eq(refusal("lesson K\nknob T = 1 from 10 to 1 step 1\n", buf, sizeof buf),
                     "2:17: the knob's range is empty: 'from 10' must be below 'to 1'");
    ck_assert_str_eq(refusal("lesson K\nknob T = 1 from 1 to 1 step 1\n", buf, sizeof buf),
                     "2:22: the knob's range is empty: 'from 1' must be below 'to 1'");
    ck_assert_str_eq(refusal("lesson K\nswitch c yes\n", buf, sizeof buf),
                     "2:10: a switch is 'on' or 'off', not 'yes'");
    ck_assert_str_eq(refusal("lesson K\nswitch c\n", buf, sizeof buf),
                     "2:9: 'switch' needs 'on' or 'off' after the name: switch NAME on|off");
    ck_assert_str_eq(refusal("lesson K\nlet T = [ 1 ]\nknob T = 1 from 0 to 2 step 1\n", buf, sizeof buf),
                     "3:6: 'T' is already defined at line 2 (a let may not redefine a name)");
    ck_assert_str_eq(refusal("lesson K\nswitch on on\nswitch on off\n", buf, sizeof buf),
                     "3:8: 'on' is already defined at line 2 (a let may not redefine a name)");
    ck_assert_str_eq(refusal("lesson K\nknob T = 1 from 0 to 2\n", buf, sizeof buf),
                     "2:23: expected 'step' here: knob NAME = VALUE from LO to HI step STEP");
    ck_assert_str_eq(refusal("lesson K\nknob T = 1 from 0 to 2 step 1 more\n", buf, sizeof buf),
                     "2:31: unexpected 'more' after the knob");
}
END_TEST

START_TEST(where_picks_without_touching_the_other_side)
{
    const char *text = "lesson W\n"
                       "let off = [ 0 ]\n"
                       "let C = [ 1 0 ; 0 1 ]\n"
                       "let M = where(off, causal_mask(2), 0)\n"
                       "let P = where(C, [ 10 20 ; 30 40 ], [ -1 -2 ])\n";
    LessonError err;
    Lesson *l = lesson_parse(text, strlen(text), "w.lesson", &err);
    ck_assert_msg(l != NULL, "%s", err.msg);
    LessonState *st = lesson_eval(l, NULL, 0, &err);
    ck_assert_msg(st != NULL, "%s", err.msg);
    const Mat *m = lesson_state_get(st, "M"), *p = lesson_state_get(st, "P");
    ck_assert_int_eq(m->rows, 2);
    ck_assert_int_eq(m->cols, 2);
    ck_assert_float_eq(mat_get(m, 0, 1), 0.0f);     /* 0, not 0 x -inf */
    ck_assert_float_eq(mat_get(p, 0, 0), 10.0f);
    ck_assert_float_eq(mat_get(p, 0, 1), -2.0f);
    ck_assert_float_eq(mat_get(p, 1, 0), -1.0f);
    ck_assert_float_eq(mat_get(p, 1, 1), 40.0f);
    /* a cell is explained by the part it took and why */
    Explanation ex;
    ck_assert_int_eq(explain_cell(&ex, p, 0, 1, NULL), ATTN_OK);
    ck_assert_int_eq(ex.n_operands, 2);
    ck_assert_str_eq(ex.text, "P[1,2] = [1x2][1,2], because C[1,2] is 0\n= -2.0000");
    explain_free(&ex);
    ck_assert_int_eq(explain_cell(&ex, m, 0, 1, NULL), ATTN_OK);
    ck_assert_str_eq(ex.text, "M[1,2] = 0, because off[1,1] is 0\n= 0.0000");
    explain_free(&ex);
    lesson_state_free(st);
    lesson_free(l);
    char buf[512];
    ck_assert_str_eq(refusal("lesson W\nlet P = where([ 1 0 ], eye(3), 0)\n", buf, sizeof buf),
                     "2:15: where cannot fit [ 1 0 ] (1x2) to 3x3: each part must have that shape, or be a number, "
                     "a 1x3 row or a 3x1 column");
}
END_TEST

START_TEST(a_knob_set_flows_downstream_and_undo_takes_it_back)
{
    Session *s = session_of_text(knob_text, "knobs.lesson");
    ck_assert_double_eq_tol(session_knob_value(s, 0), 1.0, 1e-6);
    ck_assert_float_eq_tol(session_cell(s, "A", 2, 0), softmax3(7, 8, 9, 1, 0), 1e-6);
    /* temperature 2 */
    ck_assert_uint_eq(session_knob_set(s, 0, 2.0) & SESSION_VALUES, SESSION_VALUES);
    ck_assert_str_eq(session_message(s), "T = 2; everything after it follows");
    ck_assert_double_eq_tol(session_knob_value(s, 0), 2.0, 1e-6);
    ck_assert_float_eq_tol(session_cell(s, "A", 2, 0), softmax3(7, 8, 9, 2, 0), 1e-6);
    ck_assert_float_eq_tol(session_cell(s, "A", 1, 1), softmax3(4, 5, -INFINITY, 2, 1), 1e-6);
    ck_assert_float_eq_tol(session_cell(s, "B", 2, 2), 2 * softmax3(7, 8, 9, 2, 2), 1e-6);
    /* the causal switch off: row 1 sees all three */
    ck_assert_uint_eq(session_knob_toggle(s, 1) & SESSION_VALUES, SESSION_VALUES);
    ck_assert_str_eq(session_message(s), "causal = off; everything after it follows");
    ck_assert_float_eq_tol(session_cell(s, "A", 0, 2), softmax3(1, 2, 3, 2, 2), 1e-6);
    ck_assert(isfinite(session_cell(s, "A", 0, 1)));
    /* undo: the switch on again, then T back to 1 */
    ck_assert_uint_eq(session_undo(s) & SESSION_VALUES, SESSION_VALUES);
    ck_assert_double_eq(session_knob_value(s, 1), 1.0);
    ck_assert_float_eq(session_cell(s, "A", 0, 2), 0.0f);
    ck_assert_uint_eq(session_undo(s) & SESSION_VALUES, SESSION_VALUES);
    ck_assert_double_eq_tol(session_knob_value(s, 0), 1.0, 1e-6);
    ck_assert_float_eq_tol(session_cell(s, "A", 2, 0), softmax3(7, 8, 9, 1, 0), 1e-6);
    session_free(s);
}
END_TEST

START_TEST(nudges_move_by_the_step_and_stop_at_the_ends)
{
    Session *s = session_of_text(knob_text, "knobs.lesson");
    ck_assert_uint_eq(session_knob_nudge(s, 0, +1) & SESSION_VALUES, SESSION_VALUES);
    ck_assert_double_eq_tol(session_knob_value(s, 0), 1.1, 1e-6);
    session_knob_nudge(s, 0, -1);
    session_knob_nudge(s, 0, -1);
    ck_assert_double_eq_tol(session_knob_value(s, 0), 0.9, 1e-6);
    /* clamped and snapped */
    session_knob_set(s, 0, 0.0);
    ck_assert_double_eq_tol(session_knob_value(s, 0), 0.1, 1e-6);
    ck_assert_uint_eq(session_knob_nudge(s, 0, -1), SESSION_NOTHING);
    ck_assert_str_eq(session_message(s), "T is already 0.1 (its lowest)");
    session_knob_set(s, 0, 3.14159);
    ck_assert_double_eq_tol(session_knob_value(s, 0), 3.1, 1e-6);
    session_knob_set(s, 2, 50);
    ck_assert_double_eq(session_knob_value(s, 2), 10.0);
    ck_assert_uint_eq(session_knob_nudge(s, 2, +1), SESSION_NOTHING);
    ck_assert_str_eq(session_message(s), "boost is already 10 (its highest)");
    /* a switch: nudge up is on, down is off */
    ck_assert_uint_eq(session_knob_nudge(s, 1, +1), SESSION_NOTHING);
    ck_assert_str_eq(session_message(s), "causal is already on");
    session_knob_nudge(s, 1, -1);
    ck_assert_double_eq(session_knob_value(s, 1), 0.0);
    /* reset: the file's values again */
    session_reset(s);
    ck_assert_double_eq_tol(session_knob_value(s, 0), 1.0, 1e-6);
    ck_assert_double_eq(session_knob_value(s, 1), 1.0);
    ck_assert_double_eq(session_knob_value(s, 2), 2.0);
    ck_assert_uint_eq(session_knob_set(s, 3, 1), SESSION_REFUSED);
    ck_assert(isnan(session_knob_value(s, 3)));
    session_free(s);
}
END_TEST

START_TEST(set_values_are_parsed_as_the_command_line_gives_them)
{
    LessonError err;
    Lesson *l = lesson_parse(knob_text, strlen(knob_text), "knobs.lesson", &err);
    ck_assert_ptr_nonnull(l);
    double v;
    char why[200];
    ck_assert_int_eq(session_knob_parse(lesson_knob(l, 1), "off", &v, why, sizeof why), 0);
    ck_assert_double_eq(v, 0.0);
    ck_assert_int_eq(session_knob_parse(lesson_knob(l, 1), "on", &v, why, sizeof why), 0);
    ck_assert_double_eq(v, 1.0);
    ck_assert_int_eq(session_knob_parse(lesson_knob(l, 1), "0", &v, why, sizeof why), 0);
    ck_assert_double_eq(v, 0.0);
    ck_assert_int_eq(session_knob_parse(lesson_knob(l, 1), "maybe", &v, why, sizeof why), -1);
    ck_assert_str_eq(why, "causal is a switch: on, off, 1 or 0, not 'maybe'");
    ck_assert_int_eq(session_knob_parse(lesson_knob(l, 0), "2.5", &v, why, sizeof why), 0);
    ck_assert_double_eq(v, 2.5);
    ck_assert_int_eq(session_knob_parse(lesson_knob(l, 0), "20", &v, why, sizeof why), -1);
    ck_assert_str_eq(why, "T = 20 is outside its range 0.1 to 10");
    ck_assert_int_eq(session_knob_parse(lesson_knob(l, 0), "hot", &v, why, sizeof why), -1);
    ck_assert_str_eq(why, "T takes a number, not 'hot'");
    lesson_free(l);
}
END_TEST

START_TEST(run_set_changes_knobs_and_refuses_what_it_cannot)
{
    const char *path = write_temp(".lesson", knob_text);
    ck_assert_ptr_nonnull(path);
    char file[512];
    snprintf(file, sizeof file, "%s", path);
    /* temperature 2, mask off: A[1,3] is softmax of (1 2 3) / 2 */
    CmdResult r = cmd_runf("'%s' run --set T=2 --set causal=off --explain 'A[1,3]' '%s'", attn_bin(), file);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char want[64];
    snprintf(want, sizeof want, "= %.4f\n", softmax3(1, 2, 3, 2, 2));
    ck_assert_msg(strstr(r.out, want), "no '%s' in:\n%s", want, r.out);
    cmd_free(&r);
    /* --set=NAME=VALUE and a switch as 0 */
    r = cmd_runf("'%s' run --set=causal=0 --json '%s'", attn_bin(), file);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "\"causal\": {\"rows\": 1, \"cols\": 1, \"data\": [[0]]}"), "%s", r.out);
    cmd_free(&r);
    /* an unknown knob names the lesson's knobs */
    r = cmd_runf("'%s' run --set temp=2 '%s'", attn_bin(), file);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "has no knob 'temp'; its knobs: T causal boost"), "%s", r.err);
    cmd_free(&r);
    r = cmd_runf("'%s' run --set T=20 '%s'", attn_bin(), file);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--set T = 20 is outside its range 0.1 to 10"), "%s", r.err);
    cmd_free(&r);
    r = cmd_runf("'%s' run --set causal=yes '%s'", attn_bin(), file);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "causal is a switch: on, off, 1 or 0, not 'yes'"), "%s", r.err);
    cmd_free(&r);
    r = cmd_runf("'%s' run --set T '%s'", attn_bin(), file);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--set takes KNOB=VALUE"), "%s", r.err);
    cmd_free(&r);
}
END_TEST

/* Every handout says which knob values it was computed with, and how to
 * change them; the lesson's own value is named when --set moved it. */
START_TEST(run_prints_the_knobs_it_was_computed_with)
{
    static const struct {
        const char *args, *want;
    } cases[] = {
        { "", "\nKnobs (attn run --set NAME=VALUE changes one):\n"
              "  T = 1 (a knob from 0.1 to 10 in steps of 0.1)\n"
              "  causal = on (a switch, on or off)\n"
              "  boost = 2 (a knob from 1 to 10 in steps of 1)\n\n" },
        { "--set T=0.3 --set causal=off", "  T = 0.3 (a knob from 0.1 to 10 in steps of 0.1; the lesson has 1)\n"
                                          "  causal = off (a switch, on or off; the lesson has on)\n"
                                          "  boost = 2 (a knob from 1 to 10 in steps of 1)\n" },
        { "--set causal=off --markdown -", "\nKnobs (attn run --set NAME=VALUE changes one):\n\n"
                                           "- T = 1 (a knob from 0.1 to 10 in steps of 0.1)\n"
                                           "- causal = off (a switch, on or off; the lesson has on)\n" },
        { "--set T=2 --set causal=off --json",
          "\"knobs\": [{\"name\": \"T\", \"switch\": false, \"value\": 2, \"default\": 1, "
          "\"from\": 0.1, \"to\": 10, \"step\": 0.1}, "
          "{\"name\": \"causal\", \"switch\": true, \"value\": 0, \"default\": 1, "
          "\"from\": 0, \"to\": 1, \"step\": 1}, "
          "{\"name\": \"boost\", \"switch\": false, \"value\": 2, \"default\": 2, "
          "\"from\": 1, \"to\": 10, \"step\": 1}]" },
    };
    const char *path = write_temp(".lesson", knob_text);
    ck_assert_ptr_nonnull(path);
    char file[512];
    snprintf(file, sizeof file, "%s", path);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CmdResult r = cmd_runf("'%s' run %s '%s'", attn_bin(), cases[i].args, file);
        ck_assert_msg(r.status == 0, "run %s: %s", cases[i].args, r.err);
        ck_assert_msg(strstr(r.out, cases[i].want), "run %s: no\n%s\nin:\n%s", cases[i].args, cases[i].want, r.out);
        cmd_free(&r);
    }
}
END_TEST

Suite *knobs_suite(void)
{
    Suite *s = suite_create("knobs");
    TCase *c = tcase_create("core");
    tcase_add_test(c, knobs_are_one_by_one_inputs_with_a_range);
    tcase_add_test(c, a_knob_set_flows_downstream_and_undo_takes_it_back);
    tcase_add_test(c, nudges_move_by_the_step_and_stop_at_the_ends);
    suite_add_tcase(s, c);
    TCase *lim = tcase_create("limits");
    tcase_add_test(lim, bad_knob_lines_are_refused_where_they_are_wrong);
    tcase_add_test(lim, where_picks_without_touching_the_other_side);
    tcase_add_test(lim, set_values_are_parsed_as_the_command_line_gives_them);
    tcase_add_test(lim, run_set_changes_knobs_and_refuses_what_it_cannot);
    tcase_add_test(lim, run_prints_the_knobs_it_was_computed_with);
    suite_add_tcase(s, lim);
    return s;
}
