/*
 * check_explain.c - explanations add up: the operands of a product, scaled
 * product, softmax, layer-norm or element-wise cell recompute the cell's
 * value; operand cells name the right matrices and indices, through
 * transposes, copies, views and concatenations; notebook 000's cells. The
 * words (names, formulas, digits, masked rows, bad cells) are
 * check_explain_text.c's.
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

START_TEST(test_product_cell)
{
    Mat *K, *Q;
    make_kq(&K, &Q);
    Mat *S = matmul(K, 1, Q, 0);
    mat_set_name(S, "S");
    Explanation ex;
    ck_assert_int_eq(explain_cell(&ex, S, 1, 0, NULL), ATTN_OK);
    ck_assert_int_eq(ex.kind, EXPLAIN_DOT);
    ck_assert_int_eq(ex.n_operands, 8);
    ck_assert_int_eq(ex.scale_op, 0);
    ck_assert_ptr_eq(ex.target.mat, S);
    for (int k = 0; k < 4; k++) {
        assert_cell(&ex.operands[2 * k], K, k, 1);
        assert_cell(&ex.operands[2 * k + 1], Q, k, 0);
    }
    assert_adds_up(&ex);
    assert_text(&ex, "S[2,1] = K^T[2,:] . Q[:,1]\n= ");
    char last[48];
    snprintf(last, sizeof last, "\n= %.4f", mat_get(S, 1, 0));
    assert_text(&ex, last);
    assert_text(&ex, "(-1.1000)*(-0.6700)"); /* K[1,2] * Q[1,1] with the numbers */
    explain_free(&ex);
    free_kept();
}
END_TEST

/* S = K^T @ Q / sqrt(4) explains as one scaled dot product. */
START_TEST(test_scaled_product_cell)
{
    Mat *K, *Q;
    make_kq(&K, &Q);
    Mat *root = OP1(op_sqrt, scalar(4));
    Mat *S = OP2(op_div, matmul(K, 1, Q, 0), root);
    mat_set_name(S, "S");
    Explanation ex;
    ck_assert_int_eq(explain_cell(&ex, S, 1, 0, NULL), ATTN_OK);
    ck_assert_int_eq(ex.kind, EXPLAIN_DOT);
    ck_assert_int_eq(ex.scale_op, '/');
    ck_assert_float_eq_tol(ex.scale, 2.0f, 1e-6);
    ck_assert_int_eq(ex.n_operands, 9);
    assert_cell(&ex.operands[2], K, 1, 1);
    assert_cell(&ex.operands[3], Q, 1, 0);
    ck_assert_ptr_eq(ex.operands[8].mat, root);
    ck_assert_float_eq(ex.operands[8].value, 2.0f);
    assert_adds_up(&ex);
    assert_text(&ex, "S[2,1] = (K^T[2,:] . Q[:,1]) / sqrt(4)");
    assert_text(&ex, ") / 2.0000\n= ");
    explain_free(&ex);

    /* a scalar on the left of * folds the same way */
    Mat *T = OP2(op_mul, scalar(0.5f), matmul(K, 1, Q, 0));
    ck_assert_int_eq(explain_cell(&ex, T, 2, 2, NULL), ATTN_OK);
    ck_assert_int_eq(ex.kind, EXPLAIN_DOT);
    ck_assert_int_eq(ex.scale_op, '*');
    assert_adds_up(&ex);
    explain_free(&ex);
    free_kept();
}
END_TEST

/* Softmax down a column: the column of S, the target's own input first. */
START_TEST(test_softmax_cell)
{
    Mat *K, *Q;
    make_kq(&K, &Q);
    Mat *S = OP2(op_div, matmul(K, 1, Q, 0), scalar(2));
    mat_set_name(S, "S");
    Mat *A = OP1(op_softmax_cols, S);
    mat_set_name(A, "A");
    Explanation ex;
    ck_assert_int_eq(explain_cell(&ex, A, 1, 0, NULL), ATTN_OK);
    ck_assert_int_eq(ex.kind, EXPLAIN_SOFTMAX);
    ck_assert_int_eq(ex.n_operands, 3);
    assert_cell(&ex.operands[0], S, 1, 0);
    assert_cell(&ex.operands[1], S, 0, 0);
    assert_cell(&ex.operands[2], S, 2, 0);
    assert_adds_up(&ex);
    assert_text(&ex, "A[2,1] = exp(S[2,1] - max) / sum_m exp(S[m,1] - max)");
    explain_free(&ex);

    /* along rows, of an unnamed transpose: operands are cells of S */
    Mat *B = OP1(op_softmax_rows, OP1(op_transpose, S));
    ck_assert_int_eq(explain_cell(&ex, B, 2, 1, NULL), ATTN_OK);
    ck_assert_int_eq(ex.n_operands, 3);
    assert_cell(&ex.operands[0], S, 1, 2);
    assert_cell(&ex.operands[1], S, 0, 2);
    assert_adds_up(&ex);
    assert_text(&ex, "exp(S^T[3,2] - max) / sum_n exp(S^T[3,n] - max)");
    explain_free(&ex);
    free_kept();
}
END_TEST

/* Operands are followed through transposes, copies, column views and
 * concatenations to the named matrix they came from. */
START_TEST(test_operands_resolve_to_named)
{
    Mat *K, *Q;
    make_kq(&K, &Q);
    Mat *KT = OP1(op_transpose, K);                 /* unnamed K^T */
    Mat *q2 = NULL;
    keep(op_cols(&q2, Q, 1, 3, NULL), &q2, "op_cols"); /* Q's columns 2..3 */
    Mat *P = matmul(KT, 0, q2, 0);
    Explanation ex;
    ck_assert_int_eq(explain_cell(&ex, P, 2, 1, NULL), ATTN_OK);
    for (int k = 0; k < 4; k++) {
        assert_cell(&ex.operands[2 * k], K, k, 2);
        assert_cell(&ex.operands[2 * k + 1], Q, k, 2);
    }
    assert_adds_up(&ex);
    assert_text(&ex, "(K^T @ cols(Q, 2, 3))[3,2] = K^T[3,:] . cols(Q, 2, 3)[:,2]");
    explain_free(&ex);

    /* a stacked matrix's cell is the cell of the part it came from */
    Mat *Z = NULL, *parts[2] = { K, Q };
    keep(op_vcat(&Z, parts, 2, NULL), &Z, "op_vcat");
    mat_set_name(Z, "Z");
    ck_assert_int_eq(explain_cell(&ex, Z, 5, 2, NULL), ATTN_OK);
    ck_assert_int_eq(ex.kind, EXPLAIN_GATHER);
    ck_assert_int_eq(ex.n_operands, 1);
    assert_cell(&ex.operands[0], Q, 1, 2);
    assert_adds_up(&ex);
    assert_text(&ex, "Z[6,3] = Q[2,3]");
    explain_free(&ex);

    /* a copy keeps naming the original's cells */
    Mat *C = mat_copy(KT, NULL);
    keep(C ? ATTN_OK : ATTN_E_NOMEM, &C, "mat_copy");
    Mat *R = matmul(C, 0, Q, 0);
    ck_assert_int_eq(explain_cell(&ex, R, 0, 1, NULL), ATTN_OK);
    assert_cell(&ex.operands[2], K, 1, 0);
    explain_free(&ex);
    free_kept();
}
END_TEST

/* y = W x + b with a broadcast column: two operand cells. */
START_TEST(test_elementwise_broadcast)
{
    Mat *K, *Q;
    make_kq(&K, &Q);
    static const float bv[4] = { 0.1f, -0.2f, 0.3f, -0.4f };
    Mat *b = input("b", 4, 1, bv);
    Mat *Y = OP2(op_add, Q, b);
    mat_set_name(Y, "Y");
    Explanation ex;
    ck_assert_int_eq(explain_cell(&ex, Y, 1, 2, NULL), ATTN_OK);
    ck_assert_int_eq(ex.kind, EXPLAIN_ELEMENTWISE);
    ck_assert_int_eq(ex.n_operands, 2);
    assert_cell(&ex.operands[0], Q, 1, 2);
    assert_cell(&ex.operands[1], b, 1, 0);
    ck_assert_float_eq_tol(ex.operands[0].value + ex.operands[1].value, ex.target.value, 1e-6);
    assert_text(&ex, "Y[2,3] = Q[2,3] + b[2,1]\n= 0.3500 + (-0.2000)\n= 0.1500");
    explain_free(&ex);

    Mat *H = OP1(op_relu, OP2(op_sub, Q, b));
    ck_assert_int_eq(explain_cell(&ex, H, 0, 0, NULL), ATTN_OK);
    ck_assert_int_eq(ex.kind, EXPLAIN_ELEMENTWISE);
    ck_assert_int_eq(ex.n_operands, 1);
    ck_assert_float_eq(ex.target.value, 0.0f);
    assert_text(&ex, "relu((Q - b)[1,1])\n= relu(-0.7700)");
    explain_free(&ex);
    free_kept();
}
END_TEST

START_TEST(test_layernorm_cell)
{
    Mat *K, *Q;
    make_kq(&K, &Q);
    Mat *L = OP1(op_layernorm_rows, K);
    mat_set_name(L, "L");
    Explanation ex;
    ck_assert_int_eq(explain_cell(&ex, L, 2, 1, NULL), ATTN_OK);
    ck_assert_int_eq(ex.kind, EXPLAIN_LAYERNORM);
    ck_assert_int_eq(ex.n_operands, 3);
    assert_cell(&ex.operands[0], K, 2, 1);
    assert_adds_up(&ex);
    assert_text(&ex, "L[3,2] = (K[3,2] - mean) / sqrt(var + 1e-5), mean and var of K[3,:]");
    explain_free(&ex);
    free_kept();
}
END_TEST

/* Masks and encodings: from the position alone, the value in the text. */
START_TEST(test_formula_cells)
{
    Mat *M = NULL;
    keep(op_causal_mask(&M, 3, NULL), &M, "op_causal_mask");
    mat_set_name(M, "M");
    Explanation ex;
    ck_assert_int_eq(explain_cell(&ex, M, 0, 2, NULL), ATTN_OK);
    ck_assert_int_eq(ex.kind, EXPLAIN_FORMULA);
    ck_assert(isinf(ex.target.value) && ex.target.value < 0);
    assert_text(&ex, "M[1,3] = -inf");
    assert_text(&ex, "\n= -inf");
    explain_free(&ex);

    /* the paper's encoding: element 4 (0-based) of position 2 */
    Mat *P = NULL;
    keep(op_posenc(&P, 3, 512, NULL), &P, "op_posenc");
    mat_set_name(P, "P");
    ck_assert_int_eq(explain_cell(&ex, P, 2, 4, NULL), ATTN_OK);
    assert_text(&ex, "= sin(2 / 10000^(4/512))");
    ck_assert_float_eq_tol(ex.target.value, sin(2.0 / pow(10000.0, 4.0 / 512)), 1e-5);
    explain_free(&ex);
    /* notebook 003's variant: element 3 is cos of the doubled exponent */
    Mat *B = NULL;
    keep(op_posenc_book(&B, 3, 512, NULL), &B, "op_posenc_book");
    ck_assert_int_eq(explain_cell(&ex, B, 2, 3, NULL), ATTN_OK);
    assert_text(&ex, "= cos(2 / 10000^(4/512))");
    ck_assert_float_eq_tol(ex.target.value, cos(2.0 / pow(10000.0, 4.0 / 512)), 1e-5);
    explain_free(&ex);
    free_kept();
}
END_TEST

START_TEST(test_input_and_cosine)
{
    Mat *K, *Q;
    make_kq(&K, &Q);
    Explanation ex;
    ck_assert_int_eq(explain_cell(&ex, K, 3, 2, NULL), ATTN_OK);
    ck_assert_int_eq(ex.kind, EXPLAIN_INPUT);
    ck_assert_int_eq(ex.n_operands, 0);
    assert_text(&ex, "K[4,3] = a given value\n= 0.8000");
    explain_free(&ex);

    Mat *k1 = NULL, *q1 = NULL;
    keep(op_cols(&k1, K, 0, 1, NULL), &k1, "op_cols");
    keep(op_cols(&q1, Q, 0, 1, NULL), &q1, "op_cols");
    Mat *c = OP2(op_cosine, k1, q1);
    ck_assert_int_eq(explain_cell(&ex, c, 0, 0, NULL), ATTN_OK);
    ck_assert_int_eq(ex.kind, EXPLAIN_DOT);
    ck_assert_int_eq(ex.n_operands, 8);
    ck_assert_int_eq(ex.scale_op, '/');
    assert_cell(&ex.operands[6], K, 3, 0);
    assert_adds_up(&ex);
    explain_free(&ex);
    free_kept();
}
END_TEST

START_TEST(test_notebook_000_cells)
{
    RefFile rf;
    char msg[512];
    ck_assert_msg(ref_load(&rf, "000-self-attention-exercises.ref", msg, sizeof msg) == 0, "%s", msg);
    Rng g;
    rng_seed(&g, 3);
    Mat *x[3];
    for (int n = 0; n < 3; n++) {
        x[n] = rng_randn(&g, 4, 1, NULL);
        keep(x[n] ? ATTN_OK : ATTN_E_NOMEM, &x[n], "randn");
    }
    Mat *X = NULL;
    keep(op_hcat(&X, x, 3, NULL), &X, "op_hcat");
    mat_set_name(X, "X");
    rng_seed(&g, 0);
    static const char *const names[6] = { "W_q", "W_k", "W_v", "b_q", "b_k", "b_v" };
    Mat *w[6];
    for (int i = 0; i < 6; i++) {
        w[i] = rng_randn(&g, 4, i < 3 ? 4 : 1, NULL);
        keep(w[i] ? ATTN_OK : ATTN_E_NOMEM, &w[i], names[i]);
        mat_set_name(w[i], names[i]);
    }
    Mat *qkv[3];
    static const char *const qkv_names[3] = { "Q", "K", "V" };
    for (int i = 0; i < 3; i++) {
        qkv[i] = OP2(op_add, matmul(w[i], 0, X, 0), w[i + 3]);
        mat_set_name(qkv[i], qkv_names[i]);
    }
    Mat *S = OP2(op_div, matmul(qkv[1], 1, qkv[0], 0), OP1(op_sqrt, scalar(4)));
    mat_set_name(S, "S");
    Mat *A = OP1(op_softmax_cols, S);
    mat_set_name(A, "A");
    Mat *Xp = matmul(qkv[2], 0, A, 0);
    mat_set_name(Xp, "X_prime");

    struct { const Mat *m; const char *ref; int r, c; ExplainKind kind; const char *piece; } cells[] = {
        { S, "S", 1, 0, EXPLAIN_DOT, "S[2,1] = (K^T[2,:] . Q[:,1]) / sqrt(4)" },
        { A, "A", 1, 0, EXPLAIN_SOFTMAX, "A[2,1] = exp(S[2,1] - max) / sum_m exp(S[m,1] - max)" },
        { Xp, "X_prime", 0, 2, EXPLAIN_DOT, "X_prime[1,3] = V[1,:] . A[:,3]" },
        { qkv[0], "Q", 3, 1, EXPLAIN_ELEMENTWISE, "Q[4,2] = (W_q @ X)[4,2] + b_q[4,1]" },
    };
    for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++) {
        const RefEntry *e = ref_find(&rf, cells[i].ref, -1);
        ck_assert_ptr_nonnull(e);
        double want = e->data[cells[i].r * e->cols + cells[i].c];
        Explanation ex;
        ck_assert_int_eq(explain_cell(&ex, cells[i].m, cells[i].r, cells[i].c, NULL), ATTN_OK);
        ck_assert_int_eq(ex.kind, cells[i].kind);
        double got = ex.kind == EXPLAIN_ELEMENTWISE ? (double)ex.operands[0].value + ex.operands[1].value
                                                    : recompute(&ex);
        ck_assert_msg(fabs(got - want) <= EX_TOL * fmax(1.0, fabs(want)), "%s: the explanation gives %.9g, reference %.9g\n%s",
                      cells[i].ref, got, want, ex.text);
        assert_text(&ex, cells[i].piece);
        char value[48];
        snprintf(value, sizeof value, "\n= %.4f", want);
        assert_text(&ex, value);
        explain_free(&ex);
    }
    ref_free(&rf);
    free_kept();
}
END_TEST

/* The pane titles' namer: how a matrix was made, in the lesson's notation,
 * with parentheses only where an operand needs them; the explanations keep
 * every product and sum of an unnamed operand in parentheses. */

Suite *explain_suite(void)
{
    Suite *s = suite_create("explain");
    TCase *core = tcase_create("core");
    tcase_add_test(core, test_product_cell);
    tcase_add_test(core, test_scaled_product_cell);
    tcase_add_test(core, test_softmax_cell);
    tcase_add_test(core, test_operands_resolve_to_named);
    tcase_add_test(core, test_elementwise_broadcast);
    tcase_add_test(core, test_layernorm_cell);
    tcase_add_test(core, test_formula_cells);
    tcase_add_test(core, test_input_and_cosine);
    tcase_add_test(core, test_notebook_000_cells);
    suite_add_tcase(s, core);
    return s;
}
