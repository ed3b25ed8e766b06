/*
 * check_explain_text.c - the words of an explanation: how a matrix was made
 * and what its cells are called, long rows shortened, masked rows and cells,
 * digits and scalars, a cell out of range refused, and freeing an empty
 * explanation.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "explain.h"
#include "explain_fixtures.h"
#include "ops.h"
#include "refdata.h"
#include "rng.h"

START_TEST(test_out_of_range)
{
    Mat *K, *Q;
    make_kq(&K, &Q);
    Explanation ex;
    AttnError err;
    static const int bad[][2] = { { -1, 0 }, { 0, -1 }, { 4, 0 }, { 0, 3 }, { 100, 100 } };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        attn_error_clear(&err);
        ck_assert_int_eq(explain_cell(&ex, K, bad[i][0], bad[i][1], &err), ATTN_E_RANGE);
        ck_assert_int_eq(err.code, ATTN_E_RANGE);
        ck_assert_msg(strstr(err.msg, "4x3"), "message does not name the shape: %s", err.msg);
        ck_assert_ptr_null(ex.text);
        ck_assert_ptr_null(ex.operands);
        explain_free(&ex);
    }
    ck_assert_int_eq(explain_cell(&ex, NULL, 0, 0, &err), ATTN_E_ARG);
    free_kept();
}
END_TEST

START_TEST(test_free_is_safe)
{
    Explanation ex;
    memset(&ex, 0, sizeof ex);
    explain_free(&ex);
    explain_free(&ex);
    explain_free(NULL);
    Mat *K, *Q;
    make_kq(&K, &Q);
    ck_assert_int_eq(explain_cell(&ex, K, 0, 0, NULL), ATTN_OK);
    explain_free(&ex);
    ck_assert_ptr_null(ex.text);
    explain_free(&ex);
    free_kept();
}
END_TEST

/* Unnamed intermediates are named by their expression. */
START_TEST(test_cell_names)
{
    Mat *K, *Q;
    make_kq(&K, &Q);
    char buf[160];
    ck_assert_str_eq(explain_cell_name(K, 1, 2, buf, sizeof buf), "K[2,3]");
    Mat *P = matmul(K, 1, Q, 0);
    ck_assert_str_eq(explain_cell_name(P, 1, 0, buf, sizeof buf), "(K^T @ Q)[2,1]");
    ck_assert_str_eq(explain_cell_name(matmul(Q, 0, K, 1), 0, 1, buf, sizeof buf), "(Q @ K^T)[1,2]");
    ck_assert_str_eq(explain_cell_name(OP2(op_sub, K, Q), 0, 1, buf, sizeof buf), "(K - Q)[1,2]");
    Mat *S = OP2(op_div, P, OP1(op_sqrt, scalar(4)));
    ck_assert_str_eq(explain_cell_name(S, 0, 0, buf, sizeof buf), "((K^T @ Q) / sqrt(4))[1,1]");
    ck_assert_str_eq(explain_cell_name(OP1(op_transpose, K), 2, 0, buf, sizeof buf), "K^T[3,1]");
    ck_assert_str_eq(explain_cell_name(OP1(op_softmax_cols, S), 0, 1, buf, sizeof buf),
                     "softmax_cols(((K^T @ Q) / sqrt(4)))[1,2]");
    /* a deep chain is cut short, and a small buffer truncates safely */
    Mat *deep = K;
    for (int i = 0; i < 6; i++)
        deep = OP1(op_relu, deep);
    ck_assert_msg(strstr(explain_cell_name(deep, 0, 0, buf, sizeof buf), "(...)"), "%s", buf);
    char tiny[6];
    ck_assert_uint_eq(strlen(explain_cell_name(P, 1, 0, tiny, sizeof tiny)), sizeof tiny - 1);
    free_kept();
}
END_TEST

/* Sums over many terms elide the middle; a fully masked line explains
 * itself. */
START_TEST(test_long_and_masked)
{
    float a[20], b[20];
    for (int i = 0; i < 20; i++) {
        a[i] = 0.1f * (float)(i + 1);
        b[i] = 1.0f - 0.05f * (float)i;
    }
    Mat *x = input("x", 1, 20, a), *y = input("y", 20, 1, b);
    Mat *d = matmul(x, 0, y, 0);
    Explanation ex;
    ck_assert_int_eq(explain_cell(&ex, d, 0, 0, NULL), ATTN_OK);
    ck_assert_int_eq(ex.n_operands, 40);
    assert_adds_up(&ex);
    assert_text(&ex, " + ... + ");
    const char *l2 = strchr(ex.text, '\n');
    ck_assert_ptr_nonnull(l2);
    int stars = 0;
    for (const char *p = l2 + 1; *p && *p != '\n'; p++)
        stars += *p == '*';
    ck_assert_msg(stars > 0 && stars <= 8, "%d products shown:\n%s", stars, ex.text);
    explain_free(&ex);

    static const float masked_v[6] = { -INFINITY, -INFINITY, -INFINITY, 1, 2, 3 };
    Mat *s = input("s", 2, 3, masked_v);
    Mat *A = OP1(op_softmax_rows, s);
    ck_assert_int_eq(explain_cell(&ex, A, 0, 1, NULL), ATTN_OK);
    ck_assert_float_eq(ex.target.value, 0.0f);
    assert_text(&ex, "-inf");
    explain_free(&ex);
    ck_assert_int_eq(explain_cell(&ex, A, 1, 2, NULL), ATTN_OK);
    assert_adds_up(&ex);
    explain_free(&ex);
    free_kept();
}
END_TEST

/* The text prints numbers to the decimals asked for; an unnamed 1x1 is
 * named without an index; a line of -inf throughout says it is fully
 * masked and its weights are 0 (a second line too, not only the first). */
START_TEST(test_digits_scalars_masked)
{
    static const float lv[4] = { 1, 2, 3, 4 };
    Mat *logits = input("logits", 2, 2, lv);
    Mat *scaled = OP2(op_div, logits, OP1(op_sqrt, scalar(2)));
    mat_set_name(scaled, "scaled");
    static const struct { int decimals; const char *text; } want[] = {
        { 4, "scaled[1,1] = logits[1,1] / sqrt(2)\n= 1.0000 / 1.4142\n= 0.7071" },
        { 2, "scaled[1,1] = logits[1,1] / sqrt(2)\n= 1.00 / 1.41\n= 0.71" },
        { 6, "scaled[1,1] = logits[1,1] / sqrt(2)\n= 1.000000 / 1.414214\n= 0.707107" },
        { -3, "scaled[1,1] = logits[1,1] / sqrt(2)\n= 1 / 1\n= 1" },
    };
    Explanation ex;
    for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
        ck_assert_int_eq(explain_cell_digits(&ex, scaled, 0, 0, want[k].decimals, NULL), ATTN_OK);
        ck_assert_msg(strcmp(ex.text, want[k].text) == 0, "%d decimals:\n%s\nexpected:\n%s", want[k].decimals,
                      ex.text, want[k].text);
        explain_free(&ex);
    }
    ck_assert_int_eq(explain_cell(&ex, scaled, 1, 1, NULL), ATTN_OK);
    ck_assert_str_eq(ex.text, "scaled[2,2] = logits[2,2] / sqrt(2)\n= 4.0000 / 1.4142\n= 2.8284");
    explain_free(&ex);

    static const float mv[6] = { 1, 2, 3, -INFINITY, -INFINITY, -INFINITY };
    Mat *s = input("s", 2, 3, mv);
    Mat *A = OP1(op_softmax_rows, s);
    mat_set_name(A, "A");
    ck_assert_int_eq(explain_cell(&ex, A, 1, 0, NULL), ATTN_OK);
    ck_assert_str_eq(ex.text, "A[2,1] = 0: row 2 is fully masked (every s[2,:] is -inf), so its weights are "
                              "defined as 0\n= 0.0000");
    explain_free(&ex);
    Mat *C = OP1(op_softmax_cols, OP1(op_transpose, s));
    mat_set_name(C, "C");
    ck_assert_int_eq(explain_cell(&ex, C, 2, 1, NULL), ATTN_OK);
    ck_assert_str_eq(ex.text, "C[3,2] = 0: column 2 is fully masked (every s^T[:,2] is -inf), so its weights "
                              "are defined as 0\n= 0.0000");
    explain_free(&ex);
    free_kept();
}
END_TEST

/* Notebook 000 as a lesson builds it (seed 3 inputs, seed 0 weights,
 * S = K^T @ Q / sqrt(4), A = softmax_cols(S), X' = V @ A): the explanations
 * of S[2,1], A[2,1] and X'[1,3] add up to the reference numbers. */
START_TEST(test_how_names)
{
    static const float v4[4] = { 1, 2, 3, 4 };
    Mat *q = input("Q", 2, 2, v4), *k = input("K", 2, 2, v4);
    Mat *p = NULL;
    keep(op_matmul(&p, q, 0, k, 1, NULL), &p, "op_matmul");
    Mat *d = OP2(op_div, p, OP1(op_sqrt, scalar(2)));
    Mat *a = OP1(op_softmax_rows, d);
    char buf[160];
    ck_assert_str_eq(explain_how(q, buf, sizeof buf), "");
    ck_assert_str_eq(explain_how(p, buf, sizeof buf), "Q @ K^T");
    ck_assert_str_eq(explain_how(d, buf, sizeof buf), "(Q @ K^T) / sqrt(2)");
    ck_assert_str_eq(explain_how(a, buf, sizeof buf), "softmax_rows((Q @ K^T) / sqrt(2))");
    ck_assert_str_eq(explain_cell_name(d, 0, 1, buf, sizeof buf), "((Q @ K^T) / sqrt(2))[1,2]");
    mat_set_name(d, "S");
    ck_assert_str_eq(explain_how(d, buf, sizeof buf), "(Q @ K^T) / sqrt(2)");   /* a title says how, named or not */
    ck_assert_str_eq(explain_how(a, buf, sizeof buf), "softmax_rows(S)");
    Mat *t = OP1(op_transpose, OP1(op_neg, OP2(op_add, q, k)));
    ck_assert_str_eq(explain_how(t, buf, sizeof buf), "(-(Q + K))^T");
    Mat *c = NULL;
    keep(op_causal_mask(&c, 3, NULL), &c, "op_causal_mask");
    ck_assert_str_eq(explain_how(c, buf, sizeof buf), "causal_mask(3)");
    Mat *parts[] = { q, k };
    Mat *h = NULL;
    keep(op_hcat(&h, parts, 2, NULL), &h, "op_hcat");
    ck_assert_str_eq(explain_how(h, buf, sizeof buf), "hcat(Q, K)");
    free_kept();
}
END_TEST

Suite *explain_text_suite(void)
{
    Suite *s = suite_create("explain_text");
    TCase *limits = tcase_create("limits");
    tcase_add_test(limits, test_out_of_range);
    tcase_add_test(limits, test_free_is_safe);
    tcase_add_test(limits, test_cell_names);
    tcase_add_test(limits, test_how_names);
    tcase_add_test(limits, test_long_and_masked);
    tcase_add_test(limits, test_digits_scalars_masked);
    suite_add_tcase(s, limits);
    return s;
}
