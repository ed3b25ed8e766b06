/*
 * check_ops_course.c - the operations of attention as models use it
 * (LESSON-FORMAT.md, "Operations for attention as models use it") against
 * values worked by hand: the reductions rowmax, rowsum, colmax, colsum,
 * the element-wise maximum and elu, rotary positions, the window, ALiBi
 * and top-k masks and repeat_heads; their shapes, labels, refusals and
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

/* The rotations worked out in double precision from the formula of
 * LESSON-FORMAT.md (row i at position p0 + i - 1, pair k turned by
 * p * base^(-2(k-1)/C)), rounded to float: X below, base 10000, p0 = 2. */
START_TEST(rope_both_pairings)
{
    static const float xv[] = { 0.5f, -1, 2, 0.25f, 1.5f, 0.5f, -0.5f, 1, -2, 1, 0.75f, -0.5f };
    Mat *X = lit(3, 4, xv, "X"), *o = NULL;
    AttnError err;
    const double p[2] = { 10000, 2 };
    ck_assert_int_eq(op_rope(&o, X, p, 2, &err), ATTN_OK);
    assert_values(o, 3, 4,
                  (const float[]){ 0.701224029f, 0.870795548f, 1.9946003f, 0.289947331f, -1.55554879f, -0.283316225f,
                                   -0.529770494f, 0.984552264f, 2.06408978f, 0.85996139f, 0.769394755f,
                                   -0.469608039f },
                  2e-6, "rope(X, 10000, 2)");
    ck_assert_int_eq(o->prov.n_param, 2);
    ck_assert(o->prov.param[0] == 10000 && o->prov.param[1] == 2);
    mat_free(o);
    ck_assert_int_eq(op_rope_half(&o, X, p, 2, &err), ATTN_OK);
    assert_values(o, 3, 4,
                  (const float[]){ -2.02666831f, -1.00479972f, -0.377644956f, 0.229951337f, -1.41442871f,
                                   0.469779521f, 0.706676245f, 1.01454782f, 1.87488914f, 1.01919472f, 1.02337229f,
                                   -0.45961073f },
                  2e-6, "rope_half(X, 10000, 2)");
    mat_free(o);
    /* position 0 turns nothing; p0 left out is 0 */
    ck_assert_int_eq(op_rope(&o, X, p, 1, &err), ATTN_OK);
    for (int j = 0; j < 4; j++)
        ck_assert_float_eq(mat_get(o, 0, j), xv[j]);
    mat_free(o);
    /* the rotation keeps each pair's length */
    ck_assert_int_eq(op_rope(&o, X, p, 2, &err), ATTN_OK);
    ck_assert_double_eq_tol(hypot(mat_get(o, 1, 0), mat_get(o, 1, 1)), hypot(1.5, 0.5), 1e-6);
    mat_free(o);
    Mat *odd = lit(1, 3, (const float[]){ 1, 2, 3 }, "odd");
    attn_status st = op_rope(&o, odd, p, 2, &err);
    assert_err(st, &err, o, ATTN_E_SHAPE, "rope turns pairs of columns: odd has 3, an odd number");
    mat_free(odd);
    mat_free(X);
}
END_TEST

START_TEST(masks_from_positions)
{
    Mat *W = NULL, *C = NULL, *B = NULL;
    AttnError err;
    ck_assert_int_eq(op_window_mask(&W, NULL, (const double[]){ 4, 4 }, 2, &err), ATTN_OK);
    ck_assert_int_eq(op_causal_mask(&C, 4, &err), ATTN_OK);
    assert_close(W, C, 0, "window_mask(4, 4) = causal_mask(4)");
    mat_free(W);
    ck_assert_int_eq(op_window_mask(&W, NULL, (const double[]){ 4, 2 }, 2, &err), ATTN_OK);
    const float I = INFINITY;
    assert_values(W, 4, 4, (const float[]){ 0, -I, -I, -I, 0, 0, -I, -I, -I, 0, 0, -I, -I, -I, 0, 0 }, 0,
                  "window_mask(4, 2)");
    ck_assert_int_eq(op_alibi(&B, NULL, (const double[]){ 3, 0.5 }, 2, &err), ATTN_OK);
    assert_values(B, 3, 3, (const float[]){ 0, -I, -I, -0.5f, 0, -I, -1, -0.5f, 0 }, 0, "alibi(3, 0.5)");
    /* a slope whose bias is beyond a float is refused, not -inf made up */
    Mat *huge = NULL;
    ck_assert_int_eq(op_alibi(&huge, NULL, (const double[]){ 3, 3e38 }, 2, &err), ATTN_E_ARG);
    ck_assert_msg(strstr(err.msg, "alibi's bias m * (j - i) = 3e+38 * -2 at [3,1] is beyond a float"), "%s", err.msg);
    ck_assert_ptr_null(huge);
    mat_free(B);
    mat_free(W);
    mat_free(C);
}
END_TEST

START_TEST(topk_and_repeat_heads)
{
    AttnError err;
    const float I = INFINITY;
    /* ties go to the earlier column: row 2 keeps its first two 1s */
    Mat *S = lit(2, 4, (const float[]){ 3, 1, 2, 5, 1, 1, 1, 0 }, "S"), *o = NULL;
    ck_assert_int_eq(op_topk_mask(&o, S, (const double[]){ 2 }, 1, &err), ATTN_OK);
    assert_values(o, 2, 4, (const float[]){ 0, -I, -I, 0, 0, 0, -I, -I }, 0, "topk_mask(S, 2)");
    mat_free(o);
    attn_status st = op_topk_mask(&o, S, (const double[]){ 5 }, 1, &err);
    assert_err(st, &err, o, ATTN_E_ARG, "topk_mask keeps k of each row's 4 values: k must be from 1 to 4, not 5");
    /* two key/value heads of 2 columns, each read by 2 query heads: 1 1 2 2 */
    Mat *K = lit(1, 4, (const float[]){ 1, 2, 3, 4 }, "K");
    ck_assert_int_eq(op_repeat_heads(&o, K, (const double[]){ 2, 2 }, 2, &err), ATTN_OK);
    assert_values(o, 1, 8, (const float[]){ 1, 2, 1, 2, 3, 4, 3, 4 }, 0, "repeat_heads(K, 2, 2)");
    Explanation ex;
    memset(&ex, 0, sizeof ex);
    ck_assert_int_eq(explain_cell(&ex, o, 0, 6, NULL), ATTN_OK);     /* back to K[1,3] */
    ck_assert_str_eq(ex.text, "repeat_heads(K, 2, 2)[1,7] = K[1,3]\n= 3.0000");
    explain_free(&ex);
    mat_free(o);
    st = op_repeat_heads(&o, K, (const double[]){ 3, 2 }, 2, &err);
    assert_err(st, &err, o, ATTN_E_SHAPE, "repeat_heads needs the columns of K (4) to split into heads of dk = 3 columns");
    mat_free(K);
    mat_free(S);
}
END_TEST

START_TEST(explainers_with_numbers)
{
    AttnError err;
    Mat *X = lit(2, 2, (const float[]){ 1, 0, 0, 1 }, "X"), *o = NULL;
    ck_assert_int_eq(op_rope(&o, X, (const double[]){ 10000 }, 1, &err), ATTN_OK);
    assert_explains(o, 1, 0, "rope(X, 10000, 0)[2,1] = X[2,1] cos(t) - X[2,2] sin(t), pair (1, 2) at position 1: "
                             "t = 1 * 10000^(-2*0/2) = 1.0000\n= 0.0000*0.5403 - 1.0000*0.8415\n= -0.8415");
    mat_free(o);
    ck_assert_int_eq(op_window_mask(&o, NULL, (const double[]){ 4, 2 }, 2, &err), ATTN_OK);
    assert_explains(o, 3, 1, "window_mask(4, 2)[4,2] = -inf: column 2 is 2 positions back from row 4, outside the "
                             "window of 2\n= -inf");
    mat_free(o);
    ck_assert_int_eq(op_alibi(&o, NULL, (const double[]){ 4, 0.5 }, 2, &err), ATTN_OK);
    assert_explains(o, 2, 0, "alibi(4, 0.5)[3,1] = m * (j - i) = 0.5 * (1 - 3)\n= -1.0000");
    mat_free(o);
    mat_free(X);
}
END_TEST

Suite *ops_course_suite(void)
{
    Suite *s = suite_create("ops_course");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, reductions_by_hand);
    tcase_add_test(tc, maximum_and_elu_by_hand);
    tcase_add_test(tc, explainers_show_the_line);
    tcase_add_test(tc, rope_both_pairings);
    tcase_add_test(tc, masks_from_positions);
    tcase_add_test(tc, topk_and_repeat_heads);
    tcase_add_test(tc, explainers_with_numbers);
    suite_add_tcase(s, tc);
    return s;
}
