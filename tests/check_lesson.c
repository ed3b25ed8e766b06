/*
 * check_lesson.c - the lesson language: parsing, evaluation through the
 * engine, edits, verification, and the limits that keep bad input from
 * crashing or exhausting memory. Each test parses a small program and
 * asserts the real numbers, shapes, provenance or error message.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson.h"

/* Parse and evaluate text; both must succeed. */
static Lesson *parse_ok(const char *text)
{
    LessonError err;
    Lesson *l = lesson_parse(text, strlen(text), "t.lesson", &err);
    char buf[1024];
    ck_assert_msg(l != NULL, "parse failed: %s", lesson_error_format(&err, buf, sizeof buf));
    return l;
}

static LessonState *eval_ok(const Lesson *l, const LessonEdit *edits, int n)
{
    LessonError err;
    LessonState *s = lesson_eval(l, edits, n, &err);
    char buf[1024];
    ck_assert_msg(s != NULL, "eval failed: %s", lesson_error_format(&err, buf, sizeof buf));
    return s;
}

static const Mat *get(const LessonState *s, const char *name)
{
    const Mat *m = lesson_state_get(s, name);
    ck_assert_msg(m != NULL, "no matrix %s", name);
    return m;
}

/* m must be rows x cols with the given row-major values (within tol). */
static void expect_mat(const Mat *m, int rows, int cols, const float *want, double tol)
{
    ck_assert_msg(m->rows == rows && m->cols == cols, "%s is %dx%d, expected %dx%d", m->name, m->rows, m->cols,
                  rows, cols);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            double got = mat_get(m, i, j), w = want[i * cols + j];
            ck_assert_msg(fabs(got - w) <= tol || (isinf(got) && got == w),
                          "%s[%d,%d] = %.9g, expected %.9g (difference %.3g)", m->name, i + 1, j + 1, got, w,
                          fabs(got - w));
        }
}

/* The program must be refused (by the parser, or else by evaluation) with
 * code, at line:col, with a message containing msg. */
static void expect_error(const char *text, attn_status code, int line, int col, const char *msg)
{
    LessonError err;
    Lesson *l = lesson_parse(text, strlen(text), "t.lesson", &err);
    LessonState *s = NULL;
    if (l) {
        s = lesson_eval(l, NULL, 0, &err);
        ck_assert_msg(s == NULL, "expected a refusal containing \"%s\", but the lesson evaluated", msg);
    }
    ck_assert_msg(err.code == code, "code %d (%s), expected %d; message: %s", err.code,
                  attn_status_str(err.code), code, err.msg);
    ck_assert_msg(err.line == line && err.col == col, "at %d:%d, expected %d:%d (%s)", err.line, err.col, line,
                  col, err.msg);
    ck_assert_msg(strstr(err.msg, msg) != NULL, "message \"%s\" lacks \"%s\"", err.msg, msg);
    lesson_state_free(s);
    lesson_free(l);
}

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
    expect_mat(get(s, "a"), 1, 1, (float[]){ 7 }, 0);
    expect_mat(get(s, "b"), 1, 1, (float[]){ 9 }, 0);
    expect_mat(get(s, "c"), 1, 1, (float[]){ -5 }, 0);
    expect_mat(get(s, "d"), 1, 1, (float[]){ 2 }, 0);
    expect_mat(get(s, "e"), 2, 1, (float[]){ 6, 14 }, 1e-6);
    expect_mat(get(s, "f"), 1, 1, (float[]){ -2 }, 0);
    expect_mat(get(s, "g"), 2, 2, (float[]){ -1, -3, -2, -4 }, 0);
    /* (2 * M) @ M, left to right at one level */
    expect_mat(get(s, "h"), 2, 2, (float[]){ 14, 20, 30, 44 }, 1e-5);
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
    expect_mat(get(s, "Y"), 3, 2, (float[]){ 11, 12, 23, 24, 34, 36 }, 1e-5);
    expect_mat(get(s, "Z"), 2, 2, (float[]){ 101, 202, 103, 204 }, 0);
    expect_mat(get(s, "H"), 2, 2, (float[]){ 0.5f, 1, 1.5f, 2 }, 0);
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
    expect_mat(get(s, "e"), 1, 1, (float[]){ 4 }, 0);
    expect_mat(get(s, "c"), 2, 2, (float[]){ 2, 3, 5, 6 }, 0);
    expect_mat(get(s, "r"), 1, 3, (float[]){ 4, 5, 6 }, 0);
    expect_mat(get(s, "one"), 2, 1, (float[]){ 3, 6 }, 0);
    expect_mat(get(s, "col2"), 2, 1, (float[]){ 2, 5 }, 0);
    expect_mat(get(s, "row1"), 1, 3, (float[]){ 1, 2, 3 }, 0);
    expect_mat(get(s, "H"), 2, 4, (float[]){ 1, 2, 3, 1, 4, 5, 6, 4 }, 0);
    expect_mat(get(s, "V"), 4, 3, (float[]){ 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3 }, 0);
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
    const Mat *M = get(s, "M");
    ck_assert_msg(isinf(mat_get(M, 0, 1)) && mat_get(M, 0, 1) < 0, "mask above the diagonal is %g", mat_get(M, 0, 1));
    /* row 2: softmax of (1, 2) = (0.268941421, 0.731058579) */
    expect_mat(get(s, "A"), 3, 3,
               (float[]){ 1, 0, 0, 0.268941421f, 0.731058579f, 0, 0.0900305732f, 0.244728471f, 0.665240956f },
               1e-6);
    /* a fully masked column gives zeros */
    expect_mat(get(s, "B"), 2, 2, (float[]){ 0.5f, 0, 0.5f, 0 }, 1e-7);
    /* ...flagged for the screen, on the named matrix and on a copy of it */
    for (const char *const *name = (const char *const[]){ "B", "C", NULL }; *name; name++) {
        const Mat *m = get(s, *name);
        ck_assert_msg(m->masked && m->n_masked == 1 && !m->masked[0] && m->masked[1],
                      "%s: masked lines not flagged (n_masked %d)", *name, m->n_masked);
    }
    ck_assert_int_eq(get(s, "A")->n_masked, 0);
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
    expect_mat(get(s, "x1"), 4, 1, (float[]){ 0.803276062f, 0.174833387f, 0.0889780968f, -0.613718033f }, 1e-7);
    expect_mat(get(s, "x2"), 4, 1, (float[]){ 0.0461824499f, -1.36825919f, 0.337495089f, 1.01111591f }, 1e-7);
    expect_mat(get(s, "W"), 4, 4,
               (float[]){ -1.12583983f, -1.1523602f, -0.250578582f, -0.433878809f, 0.848710358f, 0.692009151f,
                          -0.31601277f, -2.11521935f, 0.322274923f, -1.26333475f, 0.349983186f, 0.30813393f,
                          0.119841509f, 1.2376579f, 1.11677718f, -0.247278154f },
               1e-6);
    /* evaluating again gives the same numbers */
    LessonState *again = eval_ok(l, NULL, 0);
    ck_assert_float_eq(mat_get(get(again, "x2"), 1, 0), mat_get(get(s, "x2"), 1, 0));
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
    expect_mat(get(s, "A"), 2, 2, (float[]){ 1, 5, 3, 4 }, 0);
    expect_mat(get(s, "B"), 2, 2, (float[]){ 2, 10, 6, 8 }, 0);
    expect_mat(get(s, "C"), 2, 2, (float[]){ 64, 100, 60, 124 }, 1e-4);
    ck_assert_int_eq(get(s, "A")->prov.op, OP_INPUT);
    lesson_state_free(s);

    /* an edit of a computed matrix overrides it; downstream follows */
    LessonEdit e2 = { "B", 1, 1, 0.0f };
    s = eval_ok(l, &e2, 1);
    expect_mat(get(s, "B"), 2, 2, (float[]){ 2, 4, 6, 0 }, 0);
    expect_mat(get(s, "C"), 2, 2, (float[]){ 28, 8, 12, 24 }, 1e-4);
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
    const Mat *S = get(s, "S"), *G = get(s, "G"), *X = get(s, "X"), *Y = get(s, "Y");
    ck_assert_int_eq(S->prov.op, OP_MATMUL);
    ck_assert_msg(S->prov.trans_a == 0 && S->prov.trans_b == 1, "S: trans_a %d trans_b %d", S->prov.trans_a,
                  S->prov.trans_b);
    ck_assert_msg(S->prov.a == X && S->prov.b == Y, "S's operands are not X and Y themselves (a copy was made)");
    expect_mat(S, 3, 3, (float[]){ 1, 2, 3, 3, 4, 7, 5, 6, 11 }, 1e-5);
    ck_assert_msg(G->prov.trans_a == 1 && G->prov.trans_b == 0, "G: trans_a %d trans_b %d", G->prov.trans_a,
                  G->prov.trans_b);
    ck_assert_ptr_eq(G->prov.a, X);
    expect_mat(G, 2, 2, (float[]){ 6, 8, 8, 10 }, 1e-5);
    ck_assert_int_eq(get(s, "P")->prov.op, OP_TRANSPOSE);
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
    const Mat *Q = get(s, "Q");
    ck_assert_str_eq(mat_row_label(get(s, "X"), 1), "sky");
    ck_assert_ptr_null(mat_row_label(get(s, "W"), 0));
    ck_assert_str_eq(mat_col_label(Q, 1), "q2");
    ck_assert_str_eq(mat_row_label(Q, 2), "is");
    ck_assert_str_eq(mat_col_label(get(s, "S"), 0), "The");

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
    ck_assert_str_eq(mat_col_label(get(s, "X"), 2), "c");
    ck_assert_ptr_null(mat_col_label(get(s, "W"), 0));
    ck_assert_ptr_null(mat_row_label(get(s, "X"), 0));
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
    ck_assert_str_eq(lesson_error_format(&err, buf, sizeof buf),
                     "f.lesson:3:9: error: unknown name 'Kk'; did you mean 'K'?\n"
                     "let S = Kk @ K\n"
                     "        ^\n");
    char small[16];
    lesson_error_format(&err, small, sizeof small);
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
    expect_mat(get(s, "A"), 2, 2, (float[]){ 1, 2, 3, 4 }, 0);
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
    expect_error("lesson T\nseed -1\n", ATTN_E_SYNTAX, 2, 6, "'seed' needs a whole number");
    expect_error("lesson T\nlet a = zeros(0, 2)\n", ATTN_E_ARG, 2, 15, "zeros needs a whole number of at least 1 for the rows, not 0");
    expect_error("lesson T\nlet a = [1 2]\nlet b = rows(a, 2, 1)\n", ATTN_E_RANGE, 3, 9, "the last row (1) comes before the first (2)");
}
END_TEST

/* ---- limits ---- */

START_TEST(test_deep_nesting_refused)
{
    size_t n = 100000;
    char *text = malloc(n * 2 + 64);
    size_t len = (size_t)sprintf(text, "lesson D\nlet a = ");
    /* nesting far beyond the limit, in a line within the line limit... */
    for (int i = 0; i < 1000; i++)
        text[len++] = '(';
    text[len++] = '\n';
    text[len] = '\0';
    LessonError err;
    Lesson *l = lesson_parse(text, len, "d.lesson", &err);
    ck_assert_ptr_null(l);
    ck_assert_int_eq(err.code, ATTN_E_LIMIT);
    ck_assert_msg(strstr(err.msg, "deeper than the limit of 200"), "message: %s", err.msg);
    /* ...and of unary minus */
    len = (size_t)sprintf(text, "lesson D\nlet a = ");
    for (int i = 0; i < 3000; i++)
        text[len++] = '-';
    len += (size_t)sprintf(text + len, "1\n");
    l = lesson_parse(text, len, "d.lesson", &err);
    ck_assert_ptr_null(l);
    ck_assert_int_eq(err.code, ATTN_E_LIMIT);
    /* a flat chain is deep too: a + b + c + ... beyond LESSON_MAX_CHAIN */
    len = (size_t)sprintf(text, "lesson D\nlet a = (");
    for (int i = 0; i < 1100; i++)
        len += (size_t)sprintf(text + len, "1+\n");
    len += (size_t)sprintf(text + len, "1)\n");
    l = lesson_parse(text, len, "d.lesson", &err);
    ck_assert_ptr_null(l);
    ck_assert_int_eq(err.code, ATTN_E_LIMIT);
    ck_assert_msg(strstr(err.msg, "chains more than 1000 operations"), "message: %s", err.msg);
    len = (size_t)sprintf(text, "lesson D\nlet a = (");
    for (int i = 0; i < 900; i++)
        len += (size_t)sprintf(text + len, "1+\n");
    len += (size_t)sprintf(text + len, "1)\n");
    l = lesson_parse(text, len, "d.lesson", &err);
    ck_assert_msg(l != NULL, "a chain of 900 refused: %s", err.msg);
    LessonState *chain = eval_ok(l, NULL, 0);
    ck_assert_float_eq(mat_get(get(chain, "a"), 0, 0), 901.0f);
    lesson_state_free(chain);
    lesson_free(l);
    /* just under the limit works */
    len = (size_t)sprintf(text, "lesson D\nlet a = ");
    for (int i = 0; i < 150; i++)
        text[len++] = '(';
    text[len++] = '2';
    for (int i = 0; i < 150; i++)
        text[len++] = ')';
    text[len++] = '\n';
    l = lesson_parse(text, len, "d.lesson", &err);
    ck_assert_msg(l != NULL, "150 levels refused: %s", err.msg);
    LessonState *s = eval_ok(l, NULL, 0);
    ck_assert_float_eq(mat_get(get(s, "a"), 0, 0), 2.0f);
    lesson_state_free(s);
    lesson_free(l);
    free(text);
}
END_TEST

START_TEST(test_huge_matrix_refused)
{
    expect_error("lesson H\nlet A = randn(2000000, 2000000)\n", ATTN_E_LIMIT, 2, 9,
                 "(4000000000000 elements); the limit is 4194304 elements per matrix");
    expect_error("lesson H\nlet A = zeros(2048, 2049)\n", ATTN_E_LIMIT, 2, 9, "the limit is 4194304");
    expect_error("lesson H\nlet A = ones(2000, 2000)\nlet B = A^T @ hcat(A, A)\n", ATTN_E_LIMIT, 3, 15,
                 "hcat(A, A) would make a 2000x4000 matrix");
    expect_error("lesson H\nlet A = ones(2000, 1)\nlet B = ones(1, 2100)\nlet C = A @ B\n", ATTN_E_LIMIT, 4, 11,
                 "A @ B would make a 2000x2100 matrix");
    /* exactly the limit is allowed */
    Lesson *l = parse_ok("lesson H\nlet A = zeros(2048, 2048)\n");
    LessonState *s = eval_ok(l, NULL, 0);
    ck_assert_int_eq(get(s, "A")->rows, 2048);
    lesson_state_free(s);
    lesson_free(l);
}
END_TEST

START_TEST(test_redefinition_refused)
{
    expect_error("lesson R\nlet A = [1]\nstep S\n  let B = A\n  let A = [2]\n", ATTN_E_NAME, 5, 7,
                 "'A' is already defined at line 2 (a let may not redefine a name)");
}
END_TEST

START_TEST(test_name_and_line_limits)
{
    size_t cap = (size_t)(LESSON_MAX_NAMES + 2) * 24 + 64;
    char *text = malloc(cap);
    size_t len = (size_t)sprintf(text, "lesson N\n");
    for (int i = 0; i <= LESSON_MAX_NAMES; i++)
        len += (size_t)sprintf(text + len, "let n%d = %d\n", i, i);
    LessonError err;
    Lesson *l = lesson_parse(text, len, "n.lesson", &err);
    ck_assert_ptr_null(l);
    ck_assert_int_eq(err.code, ATTN_E_LIMIT);
    ck_assert_int_eq(err.line, LESSON_MAX_NAMES + 2);
    ck_assert_msg(strstr(err.msg, "at most 4096 names"), "message: %s", err.msg);
    free(text);

    /* a line one character over the limit */
    text = malloc(LESSON_MAX_LINE + 64);
    len = (size_t)sprintf(text, "lesson L\nabout ");
    while (len < 9 + LESSON_MAX_LINE + 1)
        text[len++] = 'x';
    text[len++] = '\n';
    l = lesson_parse(text, len, "l.lesson", &err);
    ck_assert_ptr_null(l);
    ck_assert_int_eq(err.code, ATTN_E_LIMIT);
    ck_assert_int_eq(err.col, LESSON_MAX_LINE + 1);
    /* exactly the limit is fine */
    len = 9 + LESSON_MAX_LINE;
    text[len++] = '\n';
    l = lesson_parse(text, len, "l.lesson", &err);
    ck_assert_msg(l != NULL, "a line of exactly %d characters was refused: %s", LESSON_MAX_LINE, err.msg);
    lesson_free(l);
    free(text);
}
END_TEST

START_TEST(test_null_safe)
{
    lesson_free(NULL);
    lesson_state_free(NULL);
    ck_assert_int_eq(lesson_state_count(NULL), 0);
    ck_assert_ptr_null(lesson_state_get(NULL, "A"));
    ck_assert_ptr_null(lesson_state_nearest(NULL, "A"));
    LessonError err;
    Lesson *l = lesson_parse(NULL, 0, NULL, &err);
    ck_assert_ptr_null(l);
    ck_assert_msg(strstr(err.msg, "empty"), "message: %s", err.msg);
    ck_assert_ptr_null(lesson_eval_expr(NULL, "1", &err));
}
END_TEST

START_TEST(test_fuzzed_input_never_crashes)
{
    /* Every prefix of a lesson, and the lesson with each byte replaced, is
     * either accepted or refused with a position inside the text. */
    const char *base = "lesson F\nlayout rows\ntokens a b\nseed 1\nlet A = [1 2; 3 4]\n"
                       "step S\n  text\n    hi\n  end\n  let B = softmax_rows(A @ A^T / sqrt(2))\n"
                       "  exercise Q\n    answer B[1,2] = 0.5 within 1\n    hint h\n  end\n"
                       "check cols(hcat(A, B), 2, 3) = [2 1; 4 0] within 10\n";
    size_t n = strlen(base);
    char *buf = malloc(n + 1);
    const char subst[] = "([]);,@^-#\n\t=x9.";
    for (size_t cut = 0; cut <= n; cut++) {
        for (size_t k = 0; k < sizeof subst; k++) {
            memcpy(buf, base, n);
            size_t len = n;
            if (k == sizeof subst - 1)
                len = cut;          /* a prefix */
            else if (cut < n)
                buf[cut] = subst[k];
            LessonError err;
            Lesson *l = lesson_parse(buf, len, "f.lesson", &err);
            LessonState *s = l ? lesson_eval(l, NULL, 0, &err) : NULL;
            if (!s)
                ck_assert_msg(err.line >= 1 && err.col >= 1 && err.msg[0], "refusal without a position: %s",
                              err.msg);
            if (s) {
                VerifyResult *res;
                int nr;
                ck_assert_int_eq(lesson_verify(l, s, &res, &nr), ATTN_OK);
                free(res);
            }
            lesson_state_free(s);
            lesson_free(l);
        }
    }
    free(buf);
}
END_TEST

/* A line too long to quote whole is quoted as a window around the column,
 * with the caret under the character at fault
 * wherever it is on the line: near the start, in the middle, at the end. */
START_TEST(test_long_line_window)
{
    static const struct { int before, after; } shapes[] = { { 0, 150 }, { 150, 100 }, { 150, 0 } };
    for (size_t t = 0; t < sizeof shapes / sizeof *shapes; t++) {
        char text[4096];
        int n = snprintf(text, sizeof text, "lesson T\nlet A = 1\nlet Z = 1\nlet B = ");
        for (int i = 0; i < shapes[t].before; i++)
            n += snprintf(text + n, sizeof text - (size_t)n, "A + Z + ");
        int col = n - (int)strlen("lesson T\nlet A = 1\nlet Z = 1\n") + 1;
        n += snprintf(text + n, sizeof text - (size_t)n, "Qx");
        for (int i = 0; i < shapes[t].after; i++)
            n += snprintf(text + n, sizeof text - (size_t)n, " + A");
        snprintf(text + n, sizeof text - (size_t)n, "\n");
        LessonError err;
        Lesson *l = lesson_parse(text, strlen(text), "t.lesson", &err);
        ck_assert_ptr_null(l);
        ck_assert_msg(err.line == 4 && err.col == col, "at %d:%d, expected 4:%d", err.line, err.col, col);
        char buf[1024];
        lesson_error_format(&err, buf, sizeof buf);
        char *quote = strchr(buf, '\n') + 1, *caret = strchr(quote, '\n') + 1;
        *strchr(caret, '\n') = '\0';
        caret[-1] = '\0';
        ck_assert_msg(strlen(quote) < sizeof err.source_line && strlen(quote) >= 100, "quoted %zu bytes: %s",
                      strlen(quote), quote);
        ck_assert_int_eq(strncmp(quote, "...", 3) == 0, shapes[t].before > 0);
        ck_assert_int_eq(strcmp(quote + strlen(quote) - 3, "...") == 0, shapes[t].after > 0);
        /* the caret's display column, counted in characters of the quote */
        size_t spaces = strspn(caret, " "), chars = 0, i = 0;
        ck_assert_msg(caret[spaces] == '^' && caret[spaces + 1] == '\0', "caret line '%s'", caret);
        while (chars < spaces && quote[i]) {
            i++;
            while (((unsigned char)quote[i] & 0xC0) == 0x80)
                i++;
            chars++;
        }
        ck_assert_msg(strncmp(quote + i, "Qx", 2) == 0, "the caret is under '%.8s', not 'Qx':\n%s\n%s", quote + i,
                      quote, caret);
    }
    /* cut between whole characters: both ends of the window would fall
     * inside a two-byte character around this bad byte */
    char text[1024];
    int n = snprintf(text, sizeof text, "lesson T\n# ");
    for (int i = 0; i < 300; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, "\xc3\xa9");
    n += snprintf(text + n, sizeof text - (size_t)n, "x\xffy");
    for (int i = 0; i < 100; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, "\xc3\xa9");
    snprintf(text + n, sizeof text - (size_t)n, "\n");
    LessonError err;
    ck_assert_ptr_null(lesson_parse(text, strlen(text), "t.lesson", &err));
    ck_assert_int_eq(err.col, 604);
    const char *q = err.source_line;
    size_t len = strlen(q);
    ck_assert_msg(strncmp(q, "...\xc3\xa9", 5) == 0, "the window starts inside a character: %s", q);
    ck_assert_msg(len > 8 && strcmp(q + len - 5, "\xc3\xa9...") == 0, "the window ends inside a character: %s", q);
    char buf[1024];
    const char *caret = strchr(strchr(lesson_error_format(&err, buf, sizeof buf), '\n') + 1, '\n') + 1;
    size_t chars = 0;   /* characters of the quote before the '?' */
    for (const char *p = q; *p != '?'; p++)
        chars += ((unsigned char)*p & 0xC0) != 0x80;
    ck_assert_msg(strspn(caret, " ") == chars && caret[chars] == '^', "caret at %zu, the bad byte at %zu",
                  strspn(caret, " "), chars);
}
END_TEST

/* A lesson of exactly LESSON_MAX_BYTES parses; one byte more is refused
 * with the limit named, before anything is read into the Lesson. */
START_TEST(test_file_size_limit)
{
    size_t len = (size_t)LESSON_MAX_BYTES;
    char *text = malloc(len + 2);
    ck_assert_ptr_nonnull(text);
    size_t n = (size_t)sprintf(text, "lesson Big\nlet A = [1 2]\n");
    while (n < len) {
        size_t line = len - n > 80 ? 80 : len - n;
        memset(text + n, '#', line - 1);
        text[n + line - 1] = '\n';
        n += line;
    }
    LessonError err;
    Lesson *l = lesson_parse(text, len, "big.lesson", &err);
    ck_assert_msg(l != NULL, "a lesson of exactly the limit was refused: %s", err.msg);
    lesson_free(l);
    text[len] = '\n';
    l = lesson_parse(text, len + 1, "big.lesson", &err);
    ck_assert_ptr_null(l);
    ck_assert_int_eq(err.code, ATTN_E_LIMIT);
    ck_assert_int_eq(err.line, 0);
    ck_assert_str_eq(err.file, "big.lesson");
    ck_assert_str_eq(err.msg, "the lesson is larger than the limit of 1048576 bytes");
    char buf[512];
    ck_assert_str_eq(lesson_error_format(&err, buf, sizeof buf),
                     "big.lesson: error: the lesson is larger than the limit of 1048576 bytes\n");
    free(text);
}
END_TEST

/* All the matrices of one evaluation together are bounded too: sixteen
 * of the largest allowed fill LESSON_MAX_TOTAL, and the scalars on top
 * pass it, so the 15th let is refused (A itself is the first). */
START_TEST(test_total_elements_limit)
{
    char text[2048];
    int n = snprintf(text, sizeof text, "lesson T\nlet A = zeros(2048, 2048)\n");
    for (int i = 0; i < 14; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, "let B%d = A + %d\n", i, i);
    Lesson *l = parse_ok(text);
    LessonState *s = eval_ok(l, NULL, 0);
    ck_assert_int_eq(lesson_state_count(s), 15);
    lesson_state_free(s);
    lesson_free(l);
    snprintf(text + n, sizeof text - (size_t)n, "let B14 = A + 14\n");
    expect_error(text, ATTN_E_LIMIT, 17, 13,
                 "the lesson's matrices would hold more than 67108864 numbers in all (256 MB); that is the limit "
                 "for one lesson");
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
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_set_timeout(limits, 60);
    tcase_add_test(limits, test_deep_nesting_refused);
    tcase_add_test(limits, test_huge_matrix_refused);
    tcase_add_test(limits, test_redefinition_refused);
    tcase_add_test(limits, test_name_and_line_limits);
    tcase_add_test(limits, test_long_line_window);
    tcase_add_test(limits, test_file_size_limit);
    tcase_add_test(limits, test_total_elements_limit);
    tcase_add_test(limits, test_null_safe);
    tcase_add_test(limits, test_fuzzed_input_never_crashes);
    suite_add_tcase(s, limits);
    return s;
}
