/*
 * check_lesson.c - the lesson language: parsing, evaluation through the
 * engine, edits, verification and error messages. Each test parses a small
 * program and asserts the real numbers, shapes, provenance or error
 * message. The limits are check_lesson_limits.c's.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "lesson.h"
#include "teach.h"
#include "lesson_fixtures.h"

START_TEST(test_precedence)
{
    Lesson *l = parse_ok("lesson P\n"
                         "let a = 1 + 2 * 3\n"
                         "let b = (1 + 2) * 3\n"
                         "let c = 2 - 3 - 4\n"
                         "let d = 8 / 2 / 2\n"
                         "let M = [1 2; 3 4]\n"
                         "let e = M @ [1; 1] * 2\n"
                         "let f = -M[1,2]\n"
                         "let g = -M^T\n"
                         "let h = 2 * M @ M\n");
    LessonState *s = eval_ok(l, NULL, 0);
    expect_mat(lesson_get(s, "a"), 1, 1, (float[]){ 7 }, 0);
    expect_mat(lesson_get(s, "b"), 1, 1, (float[]){ 9 }, 0);
    expect_mat(lesson_get(s, "c"), 1, 1, (float[]){ -5 }, 0);
    expect_mat(lesson_get(s, "d"), 1, 1, (float[]){ 2 }, 0);
    expect_mat(lesson_get(s, "e"), 2, 1, (float[]){ 6, 14 }, 1e-6);
    expect_mat(lesson_get(s, "f"), 1, 1, (float[]){ -2 }, 0);
    expect_mat(lesson_get(s, "g"), 2, 2, (float[]){ -1, -3, -2, -4 }, 0);
    /* (2 * M) @ M, left to right at one level */
    expect_mat(lesson_get(s, "h"), 2, 2, (float[]){ 14, 20, 30, 44 }, 1e-5);
    lesson_state_free(s);
    lesson_free(l);
}
END_TEST

START_TEST(test_broadcast_bias)
{
    Lesson *l = parse_ok("lesson B\n"
                         "let W = [1 0; 0 1; 1 1]\n"
                         "let X = [1 2; 3 4]\n"
                         "let b = [10; 20; 30]\n"
                         "let Y = W @ X + b        # a column bias, across\n"
                         "let r = [100 200]\n"
                         "let Z = X + r            # a row bias, down\n"
                         "let H = X / 2\n");
    LessonState *s = eval_ok(l, NULL, 0);
    expect_mat(lesson_get(s, "Y"), 3, 2, (float[]){ 11, 12, 23, 24, 34, 36 }, 1e-5);
    expect_mat(lesson_get(s, "Z"), 2, 2, (float[]){ 101, 202, 103, 204 }, 0);
    expect_mat(lesson_get(s, "H"), 2, 2, (float[]){ 0.5f, 1, 1.5f, 2 }, 0);
    lesson_state_free(s);
    lesson_free(l);
}
END_TEST

START_TEST(test_indices_ranges_cat)
{
    Lesson *l = parse_ok("lesson I\n"
                         "let A = [ 1 2 3\n"
                         "          4 5 6 ]       # rows split by a line end\n"
                         "let e = A[2,1]\n"
                         "let c = cols(A, 2, 3)\n"
                         "let r = rows(A, 2, 2)\n"
                         "let one = cols(A, 3)\n"
                         "let col2 = A[:,2]\n"
                         "let row1 = A[1,:]\n"
                         "let H = hcat(A, A[:,1])\n"
                         "let V = vcat(A, [7 8 9], A[1,:])\n");
    LessonState *s = eval_ok(l, NULL, 0);
    expect_mat(lesson_get(s, "e"), 1, 1, (float[]){ 4 }, 0);
    expect_mat(lesson_get(s, "c"), 2, 2, (float[]){ 2, 3, 5, 6 }, 0);
    expect_mat(lesson_get(s, "r"), 1, 3, (float[]){ 4, 5, 6 }, 0);
    expect_mat(lesson_get(s, "one"), 2, 1, (float[]){ 3, 6 }, 0);
    expect_mat(lesson_get(s, "col2"), 2, 1, (float[]){ 2, 5 }, 0);
    expect_mat(lesson_get(s, "row1"), 1, 3, (float[]){ 1, 2, 3 }, 0);
    expect_mat(lesson_get(s, "H"), 2, 4, (float[]){ 1, 2, 3, 1, 4, 5, 6, 4 }, 0);
    expect_mat(lesson_get(s, "V"), 4, 3, (float[]){ 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3 }, 0);
    lesson_state_free(s);
    lesson_free(l);
}
END_TEST

START_TEST(test_softmax_mask)
{
    Lesson *l = parse_ok("lesson S\n"
                         "let M = causal_mask(3)\n"
                         "let S = [1 2 3; 1 2 3; 1 2 3] + M\n"
                         "let A = softmax_rows(S)\n"
                         "let B = softmax_cols([0 -inf; 0 -inf])\n"
                         "let C = B\n");
    LessonState *s = eval_ok(l, NULL, 0);
    const Mat *M = lesson_get(s, "M");
    ck_assert_msg(isinf(mat_get(M, 0, 1)) && mat_get(M, 0, 1) < 0, "mask above the diagonal is %g", mat_get(M, 0, 1));
    /* row 2: softmax of (1, 2) = (0.268941421, 0.731058579) */
    expect_mat(lesson_get(s, "A"), 3, 3,
               (float[]){ 1, 0, 0, 0.268941421f, 0.731058579f, 0, 0.0900305732f, 0.244728471f, 0.665240956f },
               1e-6);
    /* a fully masked column gives zeros */
    expect_mat(lesson_get(s, "B"), 2, 2, (float[]){ 0.5f, 0, 0.5f, 0 }, 1e-7);
    /* ...flagged for the screen, on the named matrix and on a copy of it */
    for (const char *const *name = (const char *const[]){ "B", "C", NULL }; *name; name++) {
        const Mat *m = lesson_get(s, *name);
        ck_assert_msg(m->masked && m->n_masked == 1 && !m->masked[0] && m->masked[1],
                      "%s: masked lines not flagged (n_masked %d)", *name, m->n_masked);
    }
    ck_assert_int_eq(lesson_get(s, "A")->n_masked, 0);
    lesson_state_free(s);
    lesson_free(l);
}
END_TEST

START_TEST(test_seed_reproduces_torch)
{
    /* tests/reference/torch-randn.ref: seed 3, draws of 4x1 */
    Lesson *l = parse_ok("lesson R\n"
                         "seed 3\n"
                         "let x1 = randn(4, 1)\n"
                         "let x2 = randn(4, 1)\n"
                         "seed 0\n"
                         "let W = randn(4, 4)\n");
    LessonState *s = eval_ok(l, NULL, 0);
    expect_mat(lesson_get(s, "x1"), 4, 1, (float[]){ 0.803276062f, 0.174833387f, 0.0889780968f, -0.613718033f }, 1e-7);
    expect_mat(lesson_get(s, "x2"), 4, 1, (float[]){ 0.0461824499f, -1.36825919f, 0.337495089f, 1.01111591f }, 1e-7);
    expect_mat(lesson_get(s, "W"), 4, 4,
               (float[]){ -1.12583983f, -1.1523602f, -0.250578582f, -0.433878809f, 0.848710358f, 0.692009151f,
                          -0.31601277f, -2.11521935f, 0.322274923f, -1.26333475f, 0.349983186f, 0.30813393f,
                          0.119841509f, 1.2376579f, 1.11677718f, -0.247278154f },
               1e-6);
    /* evaluating again gives the same numbers */
    LessonState *again = eval_ok(l, NULL, 0);
    ck_assert_float_eq(mat_get(lesson_get(again, "x2"), 1, 0), mat_get(lesson_get(s, "x2"), 1, 0));
    lesson_state_free(again);
    lesson_state_free(s);
    lesson_free(l);
}
END_TEST

START_TEST(test_edits_propagate)
{
    Lesson *l = parse_ok("lesson E\n"
                         "let A = [1 2; 3 4]\n"
                         "let B = A * 2\n"
                         "let C = B @ B\n");
    LessonEdit e = { "A", 0, 1, 5.0f };
    LessonState *s = eval_ok(l, &e, 1);
    expect_mat(lesson_get(s, "A"), 2, 2, (float[]){ 1, 5, 3, 4 }, 0);
    expect_mat(lesson_get(s, "B"), 2, 2, (float[]){ 2, 10, 6, 8 }, 0);
    expect_mat(lesson_get(s, "C"), 2, 2, (float[]){ 64, 100, 60, 124 }, 1e-4);
    ck_assert_int_eq(lesson_get(s, "A")->prov.op, OP_INPUT);
    lesson_state_free(s);

    /* an edit of a computed matrix overrides it; downstream follows */
    LessonEdit e2 = { "B", 1, 1, 0.0f };
    s = eval_ok(l, &e2, 1);
    expect_mat(lesson_get(s, "B"), 2, 2, (float[]){ 2, 4, 6, 0 }, 0);
    expect_mat(lesson_get(s, "C"), 2, 2, (float[]){ 28, 8, 12, 24 }, 1e-4);
    lesson_state_free(s);

    LessonError err;
    LessonEdit bad = { "Z", 0, 0, 1 };
    ck_assert_ptr_null(lesson_eval(l, &bad, 1, &err));
    ck_assert_msg(strstr(err.msg, "'Z'") != NULL, "message: %s", err.msg);
    LessonEdit outside = { "A", 2, 0, 1 };
    ck_assert_ptr_null(lesson_eval(l, &outside, 1, &err));
    ck_assert_msg(strstr(err.msg, "A[3,1] is outside A (2x2)") != NULL, "message: %s", err.msg);
    ck_assert_int_eq(err.line, 2);
    lesson_free(l);
}
END_TEST

START_TEST(test_transposed_products_use_flags)
{
    Lesson *l = parse_ok("lesson T\n"
                         "let X = [1 2; 3 4; 5 6]\n"
                         "let Y = [1 0; 0 1; 1 1]\n"
                         "let S = X @ Y^T\n"
                         "let G = X^T @ Y\n"
                         "let P = X^T\n");
    LessonState *s = eval_ok(l, NULL, 0);
    const Mat *S = lesson_get(s, "S"), *G = lesson_get(s, "G"), *X = lesson_get(s, "X"), *Y = lesson_get(s, "Y");
    ck_assert_int_eq(S->prov.op, OP_MATMUL);
    ck_assert_msg(S->prov.trans_a == 0 && S->prov.trans_b == 1, "S: trans_a %d trans_b %d", S->prov.trans_a,
                  S->prov.trans_b);
    ck_assert_msg(S->prov.a == X && S->prov.b == Y, "S's operands are not X and Y themselves (a copy was made)");
    expect_mat(S, 3, 3, (float[]){ 1, 2, 3, 3, 4, 7, 5, 6, 11 }, 1e-5);
    ck_assert_msg(G->prov.trans_a == 1 && G->prov.trans_b == 0, "G: trans_a %d trans_b %d", G->prov.trans_a,
                  G->prov.trans_b);
    ck_assert_ptr_eq(G->prov.a, X);
    expect_mat(G, 2, 2, (float[]){ 6, 8, 8, 10 }, 1e-5);
    ck_assert_int_eq(lesson_get(s, "P")->prov.op, OP_TRANSPOSE);
    lesson_state_free(s);
    lesson_free(l);
}
END_TEST

START_TEST(test_structure_and_labels)
{
    Lesson *l = parse_ok("# a comment before the title\n"
                         "lesson Title here   \n"
                         "about One line.\n"
                         "tokens The sky is\n"
                         "let X = [1 2; 3 4; 5 6]\n"
                         "let W = [1 0; 0 1]\n"
                         "labels W cols q1 q2\n"
                         "step First step\n"
                         "  text\n"
                         "    Line one\n"
                         "    # a comment line inside prose\n"
                         "    continues # with a hash.\n"
                         "\n"
                         "    Paragraph two.\n"
                         "  end\n"
                         "  let Q = X @ W\n"
                         "  let S = Q @ Q^T\n"
                         "  heatmap S\n"
                         "  exercise What is S[1,1]?\n"
                         "    answer S[1,1] = 5 within 0.01\n"
                         "    hint Add the squares.\n"
                         "    hint 1 + 4.\n"
                         "  end\n"
                         "step Second\n"
                         "  show X W\n"
                         "check S[1,1] = 5\n"
                         "let after = [1]\n");
    ck_assert_str_eq(lesson_title(l), "Title here");
    ck_assert_str_eq(lesson_about(l), "One line.");
    ck_assert_int_eq(lesson_layout(l), LAYOUT_ROWS);
    ck_assert_int_eq(lesson_n_tokens(l), 3);
    ck_assert_str_eq(lesson_token(l, 2), "is");
    ck_assert_int_eq(lesson_n_setup(l), 2);
    ck_assert_str_eq(lesson_setup_name(l, 1), "W");
    ck_assert_int_eq(lesson_n_steps(l), 2);
    const LessonStep *st = lesson_step(l, 0);
    ck_assert_str_eq(st->title, "First step");
    ck_assert_int_eq(st->line, 8);
    ck_assert_str_eq(st->text, "Line one continues # with a hash.\n\nParagraph two.");
    ck_assert_int_eq(st->n_show, 2);     /* the defines, by default */
    ck_assert_str_eq(st->show[0], "Q");
    ck_assert_str_eq(st->show[1], "S");
    ck_assert_int_eq(st->n_heatmap, 1);
    ck_assert_int_eq(st->n_exercises, 1);
    const LessonExercise *ex = &st->exercises[0];
    ck_assert_str_eq(ex->question, "What is S[1,1]?");
    ck_assert_str_eq(ex->answer, "S[1,1]");
    ck_assert_int_eq(ex->has_expected, 1);
    ck_assert_double_eq_tol(ex->expected, 5, 1e-12);
    ck_assert_double_eq_tol(ex->within, 0.01, 1e-12);
    ck_assert_int_eq(ex->n_hints, 2);
    ck_assert_str_eq(ex->hints[1], "1 + 4.");
    const LessonStep *st2 = lesson_step(l, 1);
    ck_assert_int_eq(st2->n_show, 2);
    ck_assert_str_eq(st2->show[0], "X");

    LessonState *s = eval_ok(l, NULL, 0);
    ck_assert_int_eq(lesson_state_count(s), 5);
    ck_assert_str_eq(lesson_state_at(s, 4)->name, "after");
    /* X has 3 rows = 3 tokens: row labels; W (2x2) does not; W's explicit
     * column labels travel into Q = X @ W */
    const Mat *Q = lesson_get(s, "Q");
    ck_assert_str_eq(mat_row_label(lesson_get(s, "X"), 1), "sky");
    ck_assert_ptr_null(mat_row_label(lesson_get(s, "W"), 0));
    ck_assert_str_eq(mat_col_label(Q, 1), "q2");
    ck_assert_str_eq(mat_row_label(Q, 2), "is");
    ck_assert_str_eq(mat_col_label(lesson_get(s, "S"), 0), "The");

    VerifyResult *res;
    int n;
    ck_assert_int_eq(lesson_verify(l, s, &res, &n), ATTN_OK);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(res[0].kind, VERIFY_EXERCISE);
    ck_assert_int_eq(res[0].line, 19);
    ck_assert_msg(res[0].passed, "exercise failed: %s", res[0].detail);
    ck_assert_int_eq(res[1].kind, VERIFY_CHECK);
    ck_assert_int_eq(res[1].line, 26);
    ck_assert_str_eq(res[1].what, "S[1,1] = 5");
    ck_assert_msg(res[1].passed, "check failed: %s", res[1].detail);
    free(res);
    lesson_state_free(s);
    lesson_free(l);
}
END_TEST

START_TEST(test_columns_layout_labels)
{
    Lesson *l = parse_ok("lesson C\nlayout columns\ntokens a b c\n"
                         "let x1 = [1; 2]\nlet x2 = [3; 4]\nlet x3 = [5; 6]\n"
                         "let X = hcat(x1, x2, x3)\nlet W = [1 2 3; 4 5 6; 7 8 9]\nlabels W cols none\n");
    LessonState *s = eval_ok(l, NULL, 0);
    ck_assert_str_eq(mat_col_label(lesson_get(s, "X"), 2), "c");
    ck_assert_ptr_null(mat_col_label(lesson_get(s, "W"), 0));
    ck_assert_ptr_null(mat_row_label(lesson_get(s, "X"), 0));
    lesson_state_free(s);
    lesson_free(l);
}
END_TEST

START_TEST(test_verify_failures)
{
    Lesson *l = parse_ok("lesson V\n"
                         "let A = [1 2; 3 4]\n"
                         "step S\n"
                         "  exercise Q1\n    answer A[2,2] = 4.5 within 0.1\n  end\n"
                         "  exercise Q2\n    answer A @ A\n  end\n"
                         "check A = [1 2; 3 4.01]\n"
                         "check A = [1 2; 3 4.01] within 0.1\n"
                         "check A = [1 2 3]\n"
                         "check A[1,1] = 1\n");
    LessonState *s = eval_ok(l, NULL, 0);
    VerifyResult *res;
    int n;
    ck_assert_int_eq(lesson_verify(l, s, &res, &n), ATTN_OK);
    ck_assert_int_eq(n, 6);
    ck_assert_int_eq(res[0].passed, 0);
    ck_assert_msg(strstr(res[0].detail, "the answer is 4") != NULL, "detail: %s", res[0].detail);
    /* an exercise's answer is one number, as on the screen (issue #8) */
    ck_assert_int_eq(res[1].passed, 0);
    ck_assert_msg(strstr(res[1].detail, "the answer is a 2x2 matrix; an exercise's answer is one number"),
                  "detail: %s", res[1].detail);
    ck_assert_int_eq(res[2].passed, 0);
    ck_assert_msg(strstr(res[2].detail, "max difference 0.01") != NULL && strstr(res[2].detail, "at [2,2]"),
                  "detail: %s", res[2].detail);
    ck_assert_int_eq(res[3].passed, 1);
    ck_assert_int_eq(res[4].passed, 0);
    ck_assert_msg(strstr(res[4].detail, "2x2") && strstr(res[4].detail, "1x3"), "detail: %s", res[4].detail);
    ck_assert_int_eq(res[5].passed, 1);
    free(res);
    lesson_state_free(s);
    lesson_free(l);
}
END_TEST

START_TEST(test_eval_expr)
{
    Lesson *l = parse_ok("lesson X\nlet Kq = [1 2; 3 4]\n");
    LessonState *s = eval_ok(l, NULL, 0);
    LessonError err;
    Mat *m = lesson_eval_expr(s, "Kq[2,1] * 2 + 1", &err);
    ck_assert_ptr_nonnull(m);
    ck_assert_float_eq(mat_get(m, 0, 0), 7.0f);
    mat_free(m);
    ck_assert_ptr_null(lesson_eval_expr(s, "Kk @ Kq", &err));
    ck_assert_str_eq(err.file, "<expr>");
    ck_assert_int_eq(err.col, 1);
    ck_assert_str_eq(err.msg, "unknown name 'Kk'; did you mean 'Kq'?");
    ck_assert_ptr_null(lesson_eval_expr(s, "Kq Kq", &err));
    ck_assert_int_eq(err.col, 4);
    /* the nearest name, for messages about names the lesson lacks */
    ck_assert_str_eq(lesson_state_nearest(s, "kq"), "Kq");
    ck_assert_str_eq(lesson_state_nearest(s, "Kqq"), "Kq");
    ck_assert_ptr_null(lesson_state_nearest(s, "Zzzz"));
    ck_assert_ptr_null(lesson_state_nearest(s, NULL));
    lesson_state_free(s);
    lesson_free(l);
}
END_TEST

START_TEST(test_error_format)
{
    LessonError err;
    const char *text = "lesson T\nlet K = [1]\nlet S =\tKk @ K\n";
    Lesson *l = lesson_parse(text, strlen(text), "f.lesson", &err);
    ck_assert_ptr_null(l);
    char buf[1024];
    /* the tab counts as one column and shows as a blank */
    ck_assert_str_eq(term_lesson_error(&err, buf, sizeof buf),
                     "f.lesson:3:9: error: unknown name 'Kk'; did you mean 'K'?\n"
                     "let S = Kk @ K\n"
                     "        ^\n");
    char small[16];
    term_lesson_error(&err, small, sizeof small);
    ck_assert_str_eq(small, "f.lesson:3:9: e");
}
END_TEST

START_TEST(test_crlf_and_length)
{
    /* CRLF line ends; the text need not be NUL-terminated: len rules */
    const char text[] = "lesson W\r\nlet A = [1 2;\r\n 3 4]\r\ncheck A[2,2] = 4\r\nGARBAGE";
    LessonError err;
    Lesson *l = lesson_parse(text, sizeof text - 1 - 7, "w.lesson", &err);
    ck_assert_msg(l != NULL, "refused: %s", err.msg);
    ck_assert_str_eq(lesson_title(l), "W");
    LessonState *s = eval_ok(l, NULL, 0);
    expect_mat(lesson_get(s, "A"), 2, 2, (float[]){ 1, 2, 3, 4 }, 0);
    lesson_state_free(s);
    lesson_free(l);
}
END_TEST

START_TEST(test_errors_point_at_the_fault)
{
    expect_error("let x = 1\n", ATTN_E_SYNTAX, 1, 1, "a lesson starts with 'lesson TITLE'");
    expect_error("lesson T\nlet K = [1]\nlet S = Kk @ K\n", ATTN_E_NAME, 3, 9, "unknown name 'Kk'; did you mean 'K'?");
    expect_error("lesson T\nlet A = [1 2; 3 4]\nlet B = [1 2 3]\nlet C = A @ B\n", ATTN_E_SHAPE, 4, 11,
                 "`@` needs the columns of A (2) to equal the rows of B (1)");
    expect_error("lesson T\nlet A = [1 2]\nlet B = A[2,1]\n", ATTN_E_RANGE, 3, 10, "row 2 is outside A");
    expect_error("lesson T\nlet X = X\n", ATTN_E_NAME, 2, 9, "unknown name 'X'");
    expect_error("lesson T\nlet a = 3x\n", ATTN_E_SYNTAX, 2, 9, "bad number '3x'");
    expect_error("lesson T\nlet a = 1e39\n", ATTN_E_SYNTAX, 2, 9, "too large for a float");
    expect_error("lesson T\nlet a = \xc3\x28\n", ATTN_E_SYNTAX, 2, 9, "not valid UTF-8");
    expect_error("lesson T\nlet a = 1\rlet b = 2\n", ATTN_E_SYNTAX, 2, 10, "carriage return");
    expect_error("lesson T\nlet a = hcat()\n", ATTN_E_SYNTAX, 2, 9, "hcat(A, B, ...) needs at least 1 argument, not 0");
    expect_error("lesson T\nlet a = [ ]\n", ATTN_E_SHAPE, 2, 9, "a matrix needs at least one value");
    expect_error("lesson T\nstep S\n  exercise Q\n    answer 1\n  end junk\n", ATTN_E_SYNTAX, 5, 6, "nothing may follow 'end'");
    expect_error("lesson T\nlesson U\n", ATTN_E_SYNTAX, 2, 1, "already has a title");
    /* a misspelt word of an exercise, or keyword, is named as names are */
    expect_error("lesson T\nlet A = [1]\nstep S\n  exercise Q\n    answre A[1,1]\n  end\n", ATTN_E_SYNTAX, 5, 5,
                 "expected 'answer', 'hint', 'mistake', 'hide' or 'end' in the exercise of line 4, found 'answre'; "
                 "did you mean 'answer'?");
    expect_error("lesson T\nstep S\n  exercise Q\n    answer 1\n    hnit one\n  end\n", ATTN_E_SYNTAX, 5, 5,
                 "found 'hnit'; did you mean 'hint'?");
    expect_error("lesson T\nlayout colums\n", ATTN_E_SYNTAX, 2, 8,
                 "layout is 'rows' or 'columns', not 'colums'; did you mean 'columns'?");
    expect_error("lesson T\nswitch c onn\n", ATTN_E_SYNTAX, 2, 10, "a switch is 'on' or 'off', not 'onn'; did you mean 'on'?");
    expect_error("lesson T\nlet A = [1]\nlabels A rwos a\n", ATTN_E_SYNTAX, 3, 10, "LABEL...; did you mean 'rows'?");
    /* a bad tolerance: the caret under the value, not under 'within' */
    expect_error("lesson T\nlet A = [1]\nstep S\n  exercise Q\n    answer A[1,1] = 1e-3 within -1\n  end\n",
                 ATTN_E_SYNTAX, 5, 33, "a tolerance is a number of 0 or more");
    expect_error("lesson T\nlet A = [1]\ncheck A[1,1] = 1 within   inf\n", ATTN_E_SYNTAX, 3, 27,
                 "a tolerance is a number of 0 or more");
    expect_error("lesson T\nseed -1\n", ATTN_E_SYNTAX, 2, 6, "'seed' needs a whole number");
    expect_error("lesson T\nlet a = zeros(0, 2)\n", ATTN_E_ARG, 2, 15, "zeros needs a whole number from 1 to 2147483647 for the rows, not 0");
    expect_error("lesson T\nlet a = zeros(2147483648, 2)\n", ATTN_E_ARG, 2, 15,
                 "zeros needs a whole number from 1 to 2147483647 for the rows, not 2147483648");
    expect_error("lesson T\nlet a = [1 2]\nlet b = rows(a, 2, 1)\n", ATTN_E_RANGE, 3, 9, "the last row (1) comes before the first (2)");
}
END_TEST

/* The errors lesson_parse_all finds of text: each "LINE:COL: MESSAGE",
 * one a line, into buf. */
static const char *all_errors(const char *text, int max, char *buf, size_t size)
{
    LessonError errs[LESSON_MAX_ERRORS];
    int n = -1;
    Lesson *l = lesson_parse_all(text, strlen(text), "t.lesson", errs, max, &n);
    ck_assert_msg(l == NULL && n >= 1 && n <= max, "parsed, or n = %d", n);
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && k < size; i++)
        k += (size_t)snprintf(buf + k, size - k, "%d:%d: %s\n", errs[i].line, errs[i].col, errs[i].msg);
    return buf;
}

/* One parse reports every mistake it can safely go on past, each where
 * it is, and none that is only an echo of another (a name whose let was
 * refused, the lines of a block whose first line was lost). */
START_TEST(test_every_error_in_one_parse)
{
    const char *text = "lesson Several mistakes\n"
                       "let A = [1 2 ; 3 4]\n"
                       "let B = [1.2.3 5]\n"
                       "let C = B + A\n"
                       "step One\n"
                       "  shwo C\n"
                       "  let D = A @ Wk\n"
                       "  exercise What is D[1,1]?\n"
                       "    answre D[1,1] = 7\n"
                       "    hint It is a product.\n"
                       "  end\n"
                       "  exercise Second\n"
                       "    answer A[1,1] = 1e-3 within -1\n"
                       "  end\n"
                       "step Two\n"
                       "  let E = [ 1 2 ;\n"
                       "            3 x ]\n"
                       "  let F = E + 1\n"
                       "  show F G\n"
                       "check A[1,1] = 1\n";
    char buf[4096];
    ck_assert_str_eq(all_errors(text, LESSON_MAX_ERRORS, buf, sizeof buf),
                     "3:10: bad number '1.2.3'\n"
                     "6:3: unknown directive 'shwo'; did you mean 'show'?\n"
                     "7:15: unknown name 'Wk'\n"
                     "9:5: expected 'answer', 'hint', 'mistake', 'hide' or 'end' in the exercise of line 8, found "
                     "'answre'; did you mean 'answer'?\n"
                     "13:33: a tolerance is a number of 0 or more\n"
                     "17:15: a matrix literal holds numbers; to join matrices write hcat(A, B) or vcat(A, B)\n"
                     "19:10: unknown name 'G' in 'show'\n");
    /* lesson_parse gives the first of them, as before */
    LessonError err;
    ck_assert_ptr_null(lesson_parse(text, strlen(text), "t.lesson", &err));
    ck_assert_msg(err.line == 3 && err.col == 10 && strcmp(err.msg, "bad number '1.2.3'") == 0, "%d:%d: %s",
                  err.line, err.col, err.msg);
    /* a block whose first line is lost: its prose is no directives */
    ck_assert_str_eq(all_errors("lesson T\nstep S\n  txet\n    let us see how step one goes.\n    show it\n  end\n"
                                "  let A = [1]\n  shwo A\n", LESSON_MAX_ERRORS, buf, sizeof buf),
                     "3:3: unknown directive 'txet'; did you mean 'let'?\n"
                     "8:3: unknown directive 'shwo'; did you mean 'show'?\n");
    /* an exercise refused at its first line: its answer and hint are not */
    ck_assert_str_eq(all_errors("lesson T\nexercise Q\n  answer 1\n  hint h\nend\nstep S\n  let A = [1]\n"
                                "  heatmpa A\n", LESSON_MAX_ERRORS, buf, sizeof buf),
                     "2:1: 'exercise' belongs inside a step\n"
                     "8:3: unknown directive 'heatmpa'; did you mean 'heatmap'?\n");
    /* a line refused in an exercise: the block goes on, and its missing
     * 'end' is not said twice; an untitled step is still a step */
    ck_assert_str_eq(all_errors("lesson T\nstep\n  exercise Q\n    answer 1\n    ned\n    hint\nstep Two\n"
                                "  lte A = 1\n", LESSON_MAX_ERRORS, buf, sizeof buf),
                     "2:1: 'step' needs a title: step TITLE\n"
                     "5:5: expected 'answer', 'hint', 'mistake', 'hide' or 'end' in the exercise of line 3, found "
                     "'ned' (missing 'end'?)\n"
                     "6:5: 'hint' needs the hint's text\n"
                     "8:3: unknown directive 'lte'\n");
    /* a knob refused still defines its name; brackets carry a statement on */
    ck_assert_str_eq(all_errors("lesson T\nlet B = hcat([1], Q,\n  [2])\nlet C = B\n"
                                "knob T = 5 from 0 to 1 step 1\nlet D = T @ C\nlet E = D +\n", LESSON_MAX_ERRORS,
                                buf, sizeof buf),
                     "2:19: unknown name 'Q'\n"
                     "5:10: the knob's value 5 is outside its range 0 to 1\n"
                     "7:12: expected a number, a name, '(' or '[', found the end of the line\n");
    /* a bracket never closed: nothing after it is read */
    ck_assert_str_eq(all_errors("lesson T\nlet A = (1 +\nlet B = 2\nlet C = Q\n", LESSON_MAX_ERRORS, buf,
                                sizeof buf), "3:1: unknown name 'let'\n");
}
END_TEST

Suite *lesson_suite(void)
{
    Suite *s = suite_create("lesson");
    TCase *core = tcase_create("core");
    tcase_add_test(core, test_precedence);
    tcase_add_test(core, test_broadcast_bias);
    tcase_add_test(core, test_indices_ranges_cat);
    tcase_add_test(core, test_softmax_mask);
    tcase_add_test(core, test_seed_reproduces_torch);
    tcase_add_test(core, test_edits_propagate);
    tcase_add_test(core, test_transposed_products_use_flags);
    tcase_add_test(core, test_structure_and_labels);
    tcase_add_test(core, test_columns_layout_labels);
    tcase_add_test(core, test_verify_failures);
    tcase_add_test(core, test_eval_expr);
    tcase_add_test(core, test_error_format);
    tcase_add_test(core, test_crlf_and_length);
    tcase_add_test(core, test_errors_point_at_the_fault);
    tcase_add_test(core, test_every_error_in_one_parse);
    suite_add_tcase(s, core);
    return s;
}
