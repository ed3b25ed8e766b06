/*
 * check_judge.c - the one judge of a student's answer (engine/lesson/
 * lesson_answer.c, lesson_diagnose.c, lesson_verify.c): answers are numbers,
 * each malformed answer gets its own message and is not an attempt, and a
 * wrong answer is diagnosed by the mistake it matches, on a lesson written
 * for the test (the mistaken values computed by the language itself) and on
 * the shipped lessons (the values the issue reported).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session_fixtures.h"
#include "testutil.h"

static const char *mistakes_lesson =
    "lesson Mistakes\n"
    "let X = [ 0.5 -1.0 2.0 ; 1.5 0.3 -0.7 ; -0.2 0.8 0.1 ]\n"
    "let W = [ 0.2 0.7 -0.4 ; -0.3 0.5 0.9 ; 0.6 -0.8 0.1 ]\n"
    "let b = [ 0.1 -0.2 0.3 ]\n"
    "step Everything\n"
    "  let Z = X @ W\n"
    "  let P = Z + b\n"
    "  let S = X @ W^T / sqrt(2)\n"
    "  let A = softmax_rows(S)\n"
    "  let C = softmax_rows(S + causal_mask(3))\n"
    "  show Z P S A C\n"
    "  exercise a\n    answer A[2,3]\n  end\n"
    "  exercise c\n    answer C[2,1]\n  end\n"
    "  exercise p\n    answer P[2,1]\n    mistake X[2,1] * W[1,1] : only the first product of the sum\n  end\n"
    "  exercise z\n    answer Z[1,2]\n  end\n"
    "  exercise s\n    answer S[1,2]\n  end\n";

static Session *open_lesson_text(const char *text)
{
    Session *s = session_of_text(text, "mistakes.lesson");
    session_go(s, 1);
    return s;
}

static Session *open_shipped(const char *file, const char *answer, int *k)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", lessons_dir(), file);
    LessonError err;
    Session *s = session_open(path, &err);
    ck_assert_msg(s != NULL, "%s: %s", path, err.msg);
    for (int sc = 0; sc < session_n_screens(s); sc++) {
        session_go(s, sc);
        for (*k = 0; *k < session_n_exercises(s); (*k)++)
            if (strcmp(session_exercise(s, *k)->answer, answer) == 0)
                return s;
    }
    ck_abort_msg("%s has no exercise answered by %s", file, answer);
    return NULL;
}

/* The value of an expression of the language in the session's state. */
static double value_of(Session *s, const char *expr)
{
    LessonError err;
    Mat *m = lesson_eval_expr(session_state(s), expr, &err);
    ck_assert_msg(m && m->rows == 1 && m->cols == 1, "%s: %s", expr, m ? "not 1x1" : err.msg);
    double v = mat_get(m, 0, 0);
    mat_free(m);
    return v;
}

/* Answer exercise k with typed; the judge's verdict must be wrong with a
 * message containing want_msg. */
static void expect_diagnosis(Session *s, int k, const char *typed, const char *want_msg)
{
    session_answer(s, k, typed);
    const ExerciseState *e = session_exercise_state(s, k);
    ck_assert_msg(e->judged.verdict == VERDICT_WRONG, "'%s' was judged %d, not wrong", typed, e->judged.verdict);
    ck_assert_msg(strstr(e->judged.msg, want_msg), "'%s' (right: %.6f) was diagnosed as \"%s\", expected \"%s\"",
                  typed, e->judged.want, e->judged.msg, want_msg);
}

static void expect_value_diagnosis(Session *s, int k, const char *mistaken_expr, const char *want_msg)
{
    char typed[64];
    snprintf(typed, sizeof typed, "%.6f", value_of(s, mistaken_expr));
    expect_diagnosis(s, k, typed, want_msg);
}

START_TEST(malformed_answers_have_their_own_messages)
{
    static const struct { const char *typed, *msg; } cases[] = {
        { "", "type a number first" },
        { "   ", "type a number first" },
        { "A[2,3]", "type the number itself: 'A[...]' names a cell of the lesson" },
        { "alpha", "type the number itself: 'alpha' is a name" },
        { "nan", "'nan' is not an answer" },
        { "1e999", "too large for a float" },
        { "(0.5", "a ')' is missing" },
        { "0.5)", "a ')' has no '(' to close" },
        { "2 +", "a number is missing at the end" },
        { "0.5 0.6", "'0.6' does not belong after the number" },
        { "0.5 # 2", "'#' cannot be in an answer" },
        { "sqrt 2", "'sqrt' needs its argument in parentheses" },
        { "0/0", "that arithmetic has no value" },
        { "log(-1)", "that arithmetic has no value" },
    };
    Session *s = open_lesson_text(mistakes_lesson);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        unsigned c = session_answer(s, 0, cases[i].typed);
        const ExerciseState *e = session_exercise_state(s, 0);
        ck_assert_msg(c & SESSION_REFUSED, "'%s' was not refused", cases[i].typed);
        ck_assert_int_eq(e->judged.verdict, VERDICT_UNANSWERED);   /* no verdict is kept for it */
        ck_assert_msg(strstr(session_message(s), cases[i].msg), "'%s' got \"%s\", expected \"%s\"", cases[i].typed,
                      session_message(s), cases[i].msg);
        ck_assert_int_eq(e->attempts, 0);
        ck_assert_int_eq(e->status, EX_UNANSWERED);
    }
    session_free(s);
}
END_TEST

START_TEST(arithmetic_on_numbers_is_an_answer)
{
    double v;
    char why[200];
    ck_assert_int_eq(lesson_read_answer("0.2261*0.4986 + 0.7422*(-0.5362)", &v, why, sizeof why), 0);
    ck_assert_double_eq_tol(v, 0.2261 * 0.4986 + 0.7422 * (-0.5362), 1e-12);
    ck_assert_int_eq(lesson_read_answer("exp(1)/(exp(1)+3)", &v, why, sizeof why), 0);
    ck_assert_double_eq_tol(v, exp(1) / (exp(1) + 3), 1e-12);
    ck_assert_int_eq(lesson_read_answer("-e", &v, why, sizeof why), 0);
    ck_assert_double_eq_tol(v, -exp(1), 1e-12);
    ck_assert_int_eq(lesson_read_answer("-inf", &v, why, sizeof why), 0);
    ck_assert(isinf(v) && v < 0);
    ck_assert_int_eq(lesson_read_answer("sqrt(2) / 2 - log(1)", &v, why, sizeof why), 0);
    ck_assert_double_eq_tol(v, sqrt(2) / 2, 1e-12);
    ck_assert_int_eq(lesson_read_answer("--1", &v, why, sizeof why), 0);
    ck_assert_double_eq(v, 1);
    /* the functions the lessons' hints write: lesson 13's x cos - y sin */
    ck_assert_msg(lesson_read_answer("cos(1)", &v, why, sizeof why) == 0, "%s", why);
    ck_assert_double_eq_tol(v, cos(1), 1e-12);
    ck_assert_msg(lesson_read_answer("1 * cos(2) - 1 * sin(2)", &v, why, sizeof why) == 0, "%s", why);
    ck_assert_double_eq_tol(v, cos(2) - sin(2), 1e-12);
    ck_assert_int_eq(lesson_read_answer("tan(1)", &v, why, sizeof why), -1);
    ck_assert_msg(strstr(why, "'tan' is a name"), "%s", why);
    ck_assert_int_eq(lesson_read_answer("cos 1", &v, why, sizeof why), -1);
    ck_assert_str_eq(why, "'cos' needs its argument in parentheses, e.g. sqrt(2)");
}
END_TEST

/* Brackets carry a mistake's expression onto later lines; its message is
 * the rest of the line its ':' is on (once read as the line before: a
 * negative length, out of memory, found by the fuzzer). */
START_TEST(a_mistake_across_lines_keeps_its_message)
{
    const char *text =
        "lesson Lines\n"
        "let X = [ 0.5 -1.0 ; 1.5 0.3 ]\n"
        "step S\n"
        "  let P = X @ X\n"
        "  show P\n"
        "  exercise p\n    answer P[2,1]\n"
        "    mistake (X[2,1]\n\n  * X[1,1]) : only the first product\n"
        "    hint the row of one, the column of the other\n  end\n";
    Session *s = open_lesson_text(text);
    const LessonExercise *ex = session_exercise(s, 0);
    ck_assert_int_eq(ex->n_mistakes, 1);
    ck_assert_str_eq(ex->mistakes[0].message, "only the first product");
    ck_assert_int_eq(ex->n_hints, 1);
    expect_value_diagnosis(s, 0, "X[2,1] * X[1,1]", "only the first product");
    session_free(s);
}
END_TEST

/* Every kind of mistake, on a lesson written for the test. */
START_TEST(every_kind_of_mistake_is_named)
{
    Session *s = open_lesson_text(mistakes_lesson);
    /* softmax along the other axis */
    expect_value_diagnosis(s, 0, "softmax_cols(S)[2,3]", "that is softmax down column 3; here each row is");
    /* the scale left out, and applied twice / d_k for sqrt(d_k) */
    expect_value_diagnosis(s, 0, "softmax_rows(X @ W^T)[2,3]", "the division by sqrt(2) was left out (in S = X @ W^T / sqrt(2))");
    expect_value_diagnosis(s, 0, "softmax_rows(X @ W^T / 2)[2,3]", "that divides by 2 where S = X @ W^T / sqrt(2) divides by its square root");
    expect_value_diagnosis(s, 4, "(X @ W^T)[1,2]", "the division by sqrt(2) was left out");
    expect_value_diagnosis(s, 4, "(X @ W^T)[1,2] / 2", "the scale is sqrt(d_k), not d_k");
    /* e taken as 3 */
    expect_value_diagnosis(s, 0, "softmax_rows(S * log(3))[2,3]", "3 in place of e");
    /* softmax twice */
    expect_value_diagnosis(s, 0, "softmax_rows(A)[2,3]", "softmax was applied twice");
    /* the matrix transposed, an index off by one */
    expect_value_diagnosis(s, 0, "A[3,2]", "that is A[3,2]: row and column swapped");
    expect_value_diagnosis(s, 0, "A[1,2]", "that is A[1,2], one off: rows and columns count from 1");
    /* the mask left out (or added after the softmax) */
    expect_value_diagnosis(s, 1, "A[2,1]", "the mask was left out (in C = softmax_rows(S + causal_mask(3)))");
    /* the bias left out; an operand transposed */
    expect_value_diagnosis(s, 2, "Z[2,1]", "the bias was left out (in P = Z + b)");
    expect_value_diagnosis(s, 3, "(X @ W^T)[1,2]", "one operand of the product was taken transposed");
    /* the author's own */
    expect_value_diagnosis(s, 2, "X[2,1] * W[1,1]", "only the first product of the sum");
    /* the sign */
    expect_value_diagnosis(s, 2, "-P[2,1]", "the sign is the wrong way round");
    /* the right value to two decimals is no mistake: more digits */
    char typed[32];
    snprintf(typed, sizeof typed, "%.2f", value_of(s, "S[1,2]"));     /* 0.81 for 0.8132 */
    ck_assert_str_eq(typed, "0.81");
    expect_diagnosis(s, 4, typed, "not yet: more digits (the answer must be within 0.001)");
    ck_assert_str_eq(session_exercise_state(s, 4)->judged.diagnosis, "");
    /* one unit of the last digit off: rounded too early on the way */
    expect_diagnosis(s, 4, "0.82", "rounded too early");
    /* nothing matches: no diagnosis, and no right value given away */
    session_answer(s, 2, "123.5");
    ck_assert_str_eq(session_exercise_state(s, 2)->judged.msg, "not yet: off by more than 0.001");
    ck_assert_str_eq(session_exercise_state(s, 2)->judged.diagnosis, "");
    session_free(s);
}
END_TEST

/* The mistakes the issue found on the shipped lessons. */
START_TEST(mistakes_on_the_shipped_lessons)
{
    int k;
    Session *s = open_shipped("02-sky-is-blue.lesson", "scaled[1,1]", &k);
    expect_diagnosis(s, k, "-0.2853", "the division by sqrt(2) was left out (in scaled = logits / sqrt(2))");
    session_free(s);
    s = open_shipped("02-sky-is-blue.lesson", "A[1,3]", &k);
    expect_diagnosis(s, k, "0.3394", "that is softmax down column 3; here each row is a distribution: softmax "
                                     "along row 1");
    expect_diagnosis(s, k, "0.3141", "that is A[3,1]: row and column swapped");
    expect_diagnosis(s, k, "0.3622 + 0.01", "not yet: off by more than 0.001");
    session_free(s);
    s = open_shipped("03-self-attention-steps.lesson", "S[2,1]", &k);
    expect_diagnosis(s, k, "0.0760", "that is S[1,2]: row and column swapped");
    session_free(s);
    s = open_shipped("03-self-attention-steps.lesson", "Q[2,1]", &k);
    expect_diagnosis(s, k, "2.0728", "the bias was left out");
    session_free(s);
    s = open_shipped("08-causal-mask.lesson", "A_causal[2,1]", &k);
    /* 6.03e-6 without the mask, 6.14e-6 with it: to six decimals both are
     * 0.000006, the right value rounded, which wants more digits; with the
     * digits that tell them apart the mask is named */
    expect_value_diagnosis(s, k, "A[2,1]", "not yet: more digits (the answer must be within 1e-07)");
    char nine[32];
    snprintf(nine, sizeof nine, "%.9f", value_of(s, "A[2,1]"));
    expect_diagnosis(s, k, nine, "the mask was left out");
    session_free(s);
    /* notebook 004's shortcut: e taken as 3 gives 3 / (3 + 3) */
    s = open_shipped("01-key-query.lesson", "alpha[1,3]", &k);
    expect_diagnosis(s, k, "0.500000", "3 in place of e");
    expect_value_diagnosis(s, k, "alpha[1,2]", "one off: rows and columns count from 1");  /* = alpha[1,4] */
    expect_value_diagnosis(s, k, "-alpha[1,3]", "the sign is the wrong way round");
    session_free(s);
    s = open_shipped("06-encoder.lesson", "A[1,2]", &k);
    expect_value_diagnosis(s, k, "A_twice[1,2]", "softmax was applied twice");
    session_free(s);
    s = open_shipped("02-sky-is-blue.lesson", "Q[1,1]", &k);
    expect_value_diagnosis(s, k, "(E @ WQ^T)[1,1]", "one operand of the product was taken transposed");
    session_free(s);
}
END_TEST

/* A chain of 1000 lets: the rewrites nearest the answer are tried within
 * the judge's budget of work (every rewrite evaluated the chain again
 * down to the answer: 5.5 s for one wrong answer at 1000 lets, 116 s at
 * 4000; measured 0.1 s after), and still name the slip there. */
START_TEST(a_long_chain_is_judged_near_its_answer)
{
    size_t size = 1 << 16, len = 0;
    char *text = malloc(size);
    ck_assert_ptr_nonnull(text);
    len += (size_t)snprintf(text + len, size - len, "lesson Chain\nlet x0 = [ 1 2 ; 3 4 ]\n");
    for (int i = 1; i <= 1000; i++)
        len += (size_t)snprintf(text + len, size - len, "let x%d = softmax_rows(x%d / 2) @ x0\n", i, i - 1);
    len += (size_t)snprintf(text + len, size - len,
                            "step S\n  let y = x1000 / 2\n  show y\n  exercise e\n    answer y[1,1]\n  end\n");
    LessonError err;
    Lesson *l = lesson_parse(text, len, "chain.lesson", &err);
    ck_assert_msg(l != NULL, "%s", err.msg);
    LessonState *s = lesson_eval(l, NULL, 0, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    LessonJudge *j = lesson_judge_new(l, s);
    char typed[64];
    snprintf(typed, sizeof typed, "%.6f", mat_get(lesson_state_get(s, "x1000"), 0, 0));
    Judgement jd;
    lesson_judge(j, lesson_exercise_at(l, 0), typed, NULL, &jd);
    ck_assert_msg(strcmp(jd.diagnosis, "unscaled") == 0, "%s: %s", jd.diagnosis, jd.msg);
    lesson_judge_free(j);
    lesson_state_free(s);
    lesson_free(l);
    free(text);
}
END_TEST

/* A number a visible cell of the exercise's screen shows, to the digits
 * typed, is said to be that cell, no slip named where one only happens to
 * give it too (lesson 3's V[1,2] is no scale multiplied; lesson 13's
 * P[2,3] is no P[1,1] one off, which reads 1.0000); the right value
 * rounded wants more digits, whatever slip gives it too. */
/* typed for the exercise of file answered by answer: judged wrong with
 * msg, and no slip named. */
static void expect_no_slip(const char *file, const char *answer, const char *typed, const char *msg)
{
    int k;
    Session *s = open_shipped(file, answer, &k);
    expect_diagnosis(s, k, typed, msg);
    ck_assert_str_eq(session_exercise_state(s, k)->judged.diagnosis, "");
    session_free(s);
}

START_TEST(a_number_on_the_screen_is_that_cell)
{
    expect_no_slip("03-self-attention-steps.lesson", "X_prime[1,1]", "0.2053",
                   "not yet: that is V[1,2] on the screen, not the number asked");
    expect_no_slip("13-rotary-positions.lesson", "P[2,1]", "0.9999",
                   "not yet: that is P[2,3] on the screen, not the number asked");
    expect_no_slip("12-grouped-query.lesson", "A_h[1,3]", "0.3057",
                   "not yet: that is A_h[1,1] on the screen, not the number asked");
    expect_no_slip("08-causal-mask.lesson", "A_causal[2,1]", "0.000006",
                   "not yet: more digits (the answer must be within 1e-07)");
}
END_TEST

Suite *judge_suite(void)
{
    Suite *s = suite_create("judge");
    TCase *c = tcase_create("core");
    tcase_add_test(c, a_long_chain_is_judged_near_its_answer);
    tcase_add_test(c, malformed_answers_have_their_own_messages);
    tcase_add_test(c, arithmetic_on_numbers_is_an_answer);
    tcase_add_test(c, every_kind_of_mistake_is_named);
    tcase_add_test(c, a_mistake_across_lines_keeps_its_message);
    tcase_add_test(c, mistakes_on_the_shipped_lessons);
    tcase_add_test(c, a_number_on_the_screen_is_that_cell);
    suite_add_tcase(s, c);
    return s;
}
