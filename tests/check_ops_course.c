/*
 * check_ops_course.c - the operations of attention as models use it
 * (LESSON-FORMAT.md, "Operations for attention as models use it") against
 * values worked by hand: the reductions rowmax, rowsum, colmax, colsum,
 * the element-wise maximum and elu; their shapes, labels, refusals and
 * the arithmetic their explainers show.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "ops.h"
#include "ops_fixtures.h"

/* [1 -2 3; -inf 0.5 -1] with rows labelled a, b. */
static Mat *scores(void)
{
    static const float v[] = { 1, -2, 3, -INFINITY, 0.5f, -1 };
    Mat *S = lit(2, 3, v, "S");
    Labels *l = labels3("a", "b", NULL, 2);
    mat_set_row_labels(S, l);
    labels_free(l);
    return S;
}

START_TEST(reductions_by_hand)
{
    Mat *S = scores(), *o = NULL;
    AttnError err;
    ck_assert_int_eq(op_rowmax(&o, S, &err), ATTN_OK);
    assert_values(o, 2, 1, (const float[]){ 3, 0.5f }, 0, "rowmax");
    ck_assert_str_eq(o->row_labels->names[1], "b");   /* the kept axis keeps its labels */
    ck_assert_int_eq(o->prov.op, OP_ROWMAX);
    mat_free(o);
    ck_assert_int_eq(op_rowsum(&o, S, &err), ATTN_OK);
    ck_assert_float_eq(mat_get(o, 0, 0), 2.0f);
    ck_assert(isinf(mat_get(o, 1, 0)) && mat_get(o, 1, 0) < 0);
    mat_free(o);
    ck_assert_int_eq(op_colmax(&o, S, &err), ATTN_OK);
    assert_values(o, 1, 3, (const float[]){ 1, 0.5f, 3 }, 0, "colmax");
    mat_free(o);
    static const float w[] = { 1, 2, 3, 4, 5, 6 };
    Mat *A = lit(2, 3, w, "A");
    ck_assert_int_eq(op_colsum(&o, A, &err), ATTN_OK);
    assert_values(o, 1, 3, (const float[]){ 5, 7, 9 }, 0, "colsum");
    mat_free(o);
    ck_assert_int_eq(op_rowsum(&o, A, &err), ATTN_OK);
    assert_values(o, 2, 1, (const float[]){ 6, 15 }, 0, "rowsum");
    mat_free(o);
    /* a row of only -inf has max -inf */
    static const float m[] = { -INFINITY, -INFINITY };
    Mat *M = lit(1, 2, m, "M");
    ck_assert_int_eq(op_rowmax(&o, M, &err), ATTN_OK);
    ck_assert(isinf(mat_get(o, 0, 0)) && mat_get(o, 0, 0) < 0);
    mat_free(o);
    mat_free(M);
    mat_free(A);
    mat_free(S);
}
END_TEST

START_TEST(maximum_and_elu_by_hand)
{
    Mat *S = scores(), *o = NULL;
    AttnError err;
    Mat *zero = lit(1, 1, (const float[]){ 0 }, NULL);
    ck_assert_int_eq(op_maximum(&o, S, zero, &err), ATTN_OK);
    assert_values(o, 2, 3, (const float[]){ 1, 0, 3, 0, 0.5f, 0 }, 0, "maximum(S, 0)");
    mat_free(o);
    Mat *col = lit(2, 1, (const float[]){ 2, NAN }, NULL);
    ck_assert_int_eq(op_maximum(&o, S, col, &err), ATTN_OK);
    ck_assert_float_eq(mat_get(o, 0, 2), 3.0f);
    ck_assert(isnan(mat_get(o, 1, 0)));     /* NaN stays NaN, as torch.maximum */
    mat_free(o);
    /* torch.nn.functional.elu(torch.tensor([-1., 0., 2., -20.])) */
    Mat *x = lit(1, 4, (const float[]){ -1, 0, 2, -20 }, "x");
    ck_assert_int_eq(op_elu(&o, x, &err), ATTN_OK);
    assert_values(o, 1, 4, (const float[]){ -0.63212055882f, 0, 2, -0.99999999794f }, 1e-7, "elu");
    mat_free(o);
    /* shapes that do not broadcast are refused by the rule of + */
    Mat *bad = lit(1, 2, (const float[]){ 1, 2 }, "bad");
    attn_status st = op_maximum(&o, S, bad, &err);
    assert_err(st, &err, o, ATTN_E_SHAPE,
               "`maximum` cannot combine S (2x3) with bad (1x2): the shapes must match, or one side must be a "
               "number, a 1x3 row or a 2x1 column");
    st = op_rowsum(&o, NULL, &err);
    assert_err(st, &err, o, ATTN_E_ARG, "rowsum was given no matrix");
    mat_free(bad);
    mat_free(x);
    mat_free(col);
    mat_free(zero);
    mat_free(S);
}
END_TEST

static void assert_explains(const Mat *m, int r, int c, const char *want)
{
    Explanation ex;
    memset(&ex, 0, sizeof ex);
    ck_assert_int_eq(explain_cell(&ex, m, r, c, NULL), ATTN_OK);
    ck_assert_str_eq(ex.text, want);
    explain_free(&ex);
}

START_TEST(explainers_show_the_line)
{
    Mat *S = scores(), *o = NULL;
    AttnError err;
    ck_assert_int_eq(op_rowmax(&o, S, &err), ATTN_OK);
    assert_explains(o, 0, 0, "rowmax(S)[1,1] = the largest of S[1,:]\n= max(1.0000, -2.0000, 3.0000)\n= 3.0000");
    mat_free(o);
    ck_assert_int_eq(op_colsum(&o, S, &err), ATTN_OK);
    assert_explains(o, 0, 1, "colsum(S)[1,2] = sum_m S[m,2]\n= (-2.0000) + 0.5000\n= -1.5000");
    mat_free(o);
    Mat *x = lit(1, 2, (const float[]){ -1, 2 }, "x"), *y = lit(1, 1, (const float[]){ 0.5f }, "y");
    ck_assert_int_eq(op_elu(&o, x, &err), ATTN_OK);
    assert_explains(o, 0, 0, "elu(x)[1,1] = elu(x[1,1])\n= elu(-1.0000) = exp(-1.0000) - 1\n= -0.6321");
    mat_free(o);
    ck_assert_int_eq(op_maximum(&o, x, y, &err), ATTN_OK);
    assert_explains(o, 0, 1, "maximum(x, y)[1,2] = maximum(x[1,2], y[1,1])\n= maximum(2.0000, 0.5000)\n= 2.0000");
    mat_free(o);
    mat_free(x);
    mat_free(y);
    mat_free(S);
}
END_TEST

Suite *ops_course_suite(void)
{
    Suite *s = suite_create("ops_course");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, reductions_by_hand);
    tcase_add_test(tc, maximum_and_elu_by_hand);
    tcase_add_test(tc, explainers_show_the_line);
    suite_add_tcase(s, tc);
    return s;
}
