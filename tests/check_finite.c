/*
 * check_finite.c - honest arithmetic (engine/explain/finite.c and the evaluator):
 * a cell that is inf or NaN from finite inputs, or NaN from inputs with no
 * NaN, is refused at its operation's line and column with the cell named;
 * the infinities a lesson asks for (a mask, -inf literals, the softmax that
 * consumes them, fully masked rows) pass; inputs are judged per cell.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "finite.h"
#include "lesson.h"
#include "ops.h"

static Mat *from(int r, int c, const float *v)
{
    Mat *m = mat_from(r, c, v, NULL);
    ck_assert_ptr_nonnull(m);
    return m;
}

/* The verdict on out = op(in...), with the cell. */
static FiniteVerdict verdict(MatOp op, Mat *out, Mat *const *in, int n, int *r, int *c)
{
    *r = *c = -1;
    return finite_check(optable_op(op), out, in, n, r, c, NULL);
}

START_TEST(engine_verdicts)
{
    int r, c;
    float big = 1e30f;
    Mat *a = from(1, 1, &big), *o = NULL;
    ck_assert_int_eq(op_matmul(&o, a, 0, a, 0, NULL), ATTN_OK);
    Mat *in[2] = { a, a };
    ck_assert_int_eq(verdict(OP_MATMUL, o, in, 2, &r, &c), FINITE_OVERFLOW);
    ck_assert_int_eq(r, 0);
    ck_assert_int_eq(c, 0);
    AttnError err;
    ck_assert_int_eq(finite_check(optable_op(OP_MATMUL), o, in, 2, &r, &c, &err), FINITE_OVERFLOW);
    ck_assert_int_eq(err.code, ATTN_E_ARG);
    ck_assert_str_eq(err.msg, "`@` overflowed at [1,1]: the result is inf from finite inputs");
    mat_free(o);

    /* a row of A holds an inf, but cell [1,1] overflows from A's finite first row */
    float va[4] = { 1e30f, 1e30f, INFINITY, 1 }, vb[2] = { 1e30f, 1 };
    Mat *A = from(2, 2, va), *B = from(2, 1, vb);
    ck_assert_int_eq(op_matmul(&o, A, 0, B, 0, NULL), ATTN_OK);
    Mat *ab[2] = { A, B };
    ck_assert_int_eq(verdict(OP_MATMUL, o, ab, 2, &r, &c), FINITE_OVERFLOW);
    ck_assert_int_eq(r, 0);
    mat_free(o);

    /* 0 * -inf is refused in its cell only; 5 * -inf is what was asked */
    float vx[2] = { 5, 0 }, vm[2] = { -INFINITY, -INFINITY };
    Mat *x = from(1, 2, vx), *mask = from(1, 2, vm);
    ck_assert_int_eq(op_mul(&o, x, mask, NULL), ATTN_OK);
    Mat *xm[2] = { x, mask };
    ck_assert_int_eq(verdict(OP_MUL, o, xm, 2, &r, &c), FINITE_NAN_FROM_INF);
    ck_assert_int_eq(c, 1);
    mat_free(o);

    /* scores plus a mask, and the softmax over it, stand */
    float vs[4] = { 1, 2, 3, 4 };
    Mat *s = from(2, 2, vs), *cm = NULL, *sm = NULL, *w = NULL;
    ck_assert_int_eq(op_causal_mask(&cm, 2, NULL), ATTN_OK);
    ck_assert_int_eq(verdict(OP_CAUSAL_MASK, cm, NULL, 0, &r, &c), FINITE_OK);
    ck_assert_int_eq(op_add(&sm, s, cm, NULL), ATTN_OK);
    Mat *scm[2] = { s, cm };
    ck_assert_int_eq(verdict(OP_ADD, sm, scm, 2, &r, &c), FINITE_OK);
    ck_assert_int_eq(op_softmax_rows(&w, sm, NULL), ATTN_OK);
    ck_assert_int_eq(verdict(OP_SOFTMAX_ROWS, w, &sm, 1, &r, &c), FINITE_OK);
    mat_free(w);

    /* NaN in, NaN out: not this operation's doing */
    float vn = NAN;
    Mat *nan_in = from(1, 1, &vn);
    ck_assert_int_eq(op_exp(&o, nan_in, NULL), ATTN_OK);
    ck_assert_int_eq(verdict(OP_EXP, o, &nan_in, 1, &r, &c), FINITE_OK);
    mat_free(o);
    /* sqrt(-1): NaN from a finite input */
    float neg = -1;
    Mat *n1 = from(1, 1, &neg);
    ck_assert_int_eq(op_sqrt(&o, n1, NULL), ATTN_OK);
    ck_assert_int_eq(verdict(OP_SQRT, o, &n1, 1, &r, &c), FINITE_NAN);
    mat_free(o);

    Mat *all[] = { a, A, B, x, mask, s, cm, sm, nan_in, n1 };
    for (size_t k = 0; k < sizeof all / sizeof *all; k++)
        mat_free(all[k]);
}
END_TEST

/* The lesson's error for text: line, column, message. */
static void expect_refusal(const char *text, int line, int col, const char *msg)
{
    LessonError err;
    Lesson *l = lesson_parse(text, strlen(text), "h.lesson", &err);
    ck_assert_msg(l != NULL, "parse: %s", err.msg);
    LessonState *s = lesson_eval(l, NULL, 0, &err);
    ck_assert_msg(s == NULL, "evaluated:\n%s", text);
    ck_assert_str_eq(err.msg, msg);
    ck_assert_int_eq(err.line, line);
    ck_assert_int_eq(err.col, col);
    lesson_free(l);
}

START_TEST(lesson_refusals)
{
    expect_refusal("lesson T\nlet a = [1e30]\nlet b = a @ a\n", 3, 11,
                   "`@` overflowed at [1,1]: the result is inf from finite inputs");
    expect_refusal("lesson T\nlet x = [1 100]\n\nlet e = exp(x)\n", 4, 9,
                   "exp overflowed at [1,2]: the result is inf from finite inputs");
    expect_refusal("lesson T\nlet d = inf - inf\n", 2, 13,
                   "`-` gave NaN at [1,1] from infinite inputs: inf - inf, 0 * inf and inf / inf have no value");
    expect_refusal("lesson T\nlet z = zeros(2, 2) * inf\n", 2, 21,
                   "`*` gave NaN at [1,1] from infinite inputs: inf - inf, 0 * inf and inf / inf have no value");
    expect_refusal("lesson T\nlet w = softmax_rows([1 2 ; inf 0])\n", 2, 9,
                   "softmax_rows gave NaN at [2,1] from infinite inputs: inf - inf, 0 * inf and inf / inf have no "
                   "value");
    expect_refusal("lesson T\nlet r = sqrt([4 -1])\n", 2, 9, "sqrt gave NaN at [1,2] from finite inputs");
}
END_TEST

START_TEST(asked_for_infinities_stand)
{
    const char *text = "lesson T\n"
                       "let S = [1 2 3; 4 5 6; 7 8 9]\n"
                       "let M = S + causal_mask(3)\n"
                       "let A = softmax_rows(M)\n"
                       "let m = [0 -inf; -inf -inf]\n"
                       "let W = softmax_rows(m)\n"
                       "let n = -inf\n"
                       "let k = [1 2] * n\n"
                       "let t = M^T\n"
                       "let c = vcat(M, m[:,1] @ [1 1 1])\n";
    LessonError err;
    Lesson *l = lesson_parse(text, strlen(text), "ok.lesson", &err);
    ck_assert_msg(l != NULL, "parse: %s", err.msg);
    LessonState *s = lesson_eval(l, NULL, 0, &err);
    ck_assert_msg(s != NULL, "refused: %s", err.msg);
    ck_assert(isinf(mat_get(lesson_state_get(s, "M"), 0, 2)));
    ck_assert(mat_get(lesson_state_get(s, "A"), 0, 0) == 1.0f);
    ck_assert(mat_line_masked(lesson_state_get(s, "W"), 1, 1));
    ck_assert(mat_get(lesson_state_get(s, "k"), 0, 1) == -INFINITY);
    /* an answer or check evaluated against the state obeys the same rule */
    Mat *bad = lesson_eval_expr(s, "M - M", &err);
    ck_assert_ptr_null(bad);
    ck_assert_str_eq(err.msg,
                     "`-` gave NaN at [1,2] from infinite inputs: inf - inf, 0 * inf and inf / inf have no value");
    lesson_state_free(s);
    lesson_free(l);
}
END_TEST

Suite *finite_suite(void)
{
    Suite *s = suite_create("finite");
    TCase *core = tcase_create("core");
    tcase_add_test(core, engine_verdicts);
    tcase_add_test(core, lesson_refusals);
    tcase_add_test(core, asked_for_infinities_stand);
    suite_add_tcase(s, core);
    return s;
}
