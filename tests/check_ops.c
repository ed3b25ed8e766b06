/*
 * check_ops.c - the arithmetic operations: the BLAS product against plain
 * loops on many shapes (transposed operands, views of wider matrices),
 * broadcasting arithmetic and its labels, element-wise functions, stable
 * softmax at the edges (+-1e4, -inf, fully masked lines) and layer norm.
 * The operations that reshape and make matrices are check_ops_shape.c's.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ops.h"
#include "ops_ref.h"
#include "refdata.h"
#include "ops_fixtures.h"

/* ---- products ---------------------------------------------------------------- */

START_TEST(matmul_hand)
{
    float av[] = { 1, 2, 3, 4 }, bv[] = { 5, 6, 7, 8 };
    Mat *a = lit(2, 2, av, "A"), *b = lit(2, 2, bv, "B"), *c = NULL;
    AttnError err;
    ck_assert_int_eq(op_matmul(&c, a, 0, b, 0, &err), ATTN_OK);
    assert_values(c, 2, 2, (float[]){ 19, 22, 43, 50 }, 0, "A @ B");
    ck_assert_int_eq(c->prov.op, OP_MATMUL);
    ck_assert_ptr_eq(c->prov.a, a);
    ck_assert_ptr_eq(c->prov.b, b);
    mat_free(c);
    ck_assert_int_eq(op_matmul(&c, a, 0, b, 1, &err), ATTN_OK);      /* A @ B^T */
    assert_values(c, 2, 2, (float[]){ 17, 23, 39, 53 }, 0, "A @ B^T");
    ck_assert_int_eq(c->prov.trans_b, 1);
    ck_assert_int_eq(c->prov.trans_a, 0);
    mat_free(c);
    ck_assert_int_eq(op_matmul(&c, a, 1, b, 0, &err), ATTN_OK);      /* A^T @ B */
    assert_values(c, 2, 2, (float[]){ 26, 30, 38, 44 }, 0, "A^T @ B");
    mat_free(c);
    mat_free(a);
    mat_free(b);
}
END_TEST

START_TEST(matmul_blas_matches_loops)
{
    static const int shapes[][3] = {   /* m, k, n */
        { 1, 1, 1 }, { 1, 7, 1 }, { 1, 5, 9 }, { 9, 1, 6 }, { 6, 4, 1 }, { 3, 4, 3 },
        { 17, 3, 5 }, { 5, 31, 2 }, { 64, 64, 64 }, { 33, 70, 19 }, { 2, 100, 3 },
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int ta = 0; ta < 2; ta++)
            for (int tb = 0; tb < 2; tb++) {
                int m = shapes[s][0], k = shapes[s][1], n = shapes[s][2];
                Mat *a = ta ? random_mat(k, m) : random_mat(m, k);
                Mat *b = tb ? random_mat(n, k) : random_mat(k, n);
                Mat *fast = NULL, *slow = NULL;
                AttnError err;
                ck_assert_msg(op_matmul(&fast, a, ta, b, tb, &err) == ATTN_OK, "%s", err.msg);
                ck_assert_msg(op_matmul_ref(&slow, a, ta, b, tb, &err) == ATTN_OK, "%s", err.msg);
                ck_assert_int_eq(fast->rows, m);
                ck_assert_int_eq(fast->cols, n);
                char what[64];
                snprintf(what, sizeof what, "%dx%d @ %dx%d (trans %d,%d)", m, k, k, n, ta, tb);
                assert_close(fast, slow, 1e-5, what);
                mat_free(fast);
                mat_free(slow);
                mat_free(a);
                mat_free(b);
            }
}
END_TEST

/* Random shapes (1..40 on each side, either operand transposed, operands
 * that are column views of wider matrices): BLAS and the loops agree. */
START_TEST(matmul_random_shapes_and_views)
{
    for (int t = 0; t < 60; t++) {
        ops_lcg_state = ops_lcg_state * 1664525u + 1013904223u;
        uint32_t r = ops_lcg_state;
        int m = 1 + (int)(r % 40), k = 1 + (int)((r >> 6) % 40), n = 1 + (int)((r >> 12) % 40);
        int ta = (r >> 20) & 1, tb = (r >> 21) & 1, view = (r >> 22) & 1;
        int ar = ta ? k : m, ac = ta ? m : k, br = tb ? n : k, bc = tb ? k : n;
        Mat *wa = random_mat(ar, ac + 3 * view), *wb = random_mat(br, bc + 2 * view);
        Mat *a = NULL, *b = NULL, *fast = NULL, *slow = NULL;
        AttnError err;
        ck_assert_int_eq(op_cols(&a, wa, view, view + ac, &err), ATTN_OK);
        ck_assert_int_eq(op_cols(&b, wb, 2 * view, 2 * view + bc, &err), ATTN_OK);
        ck_assert_msg(op_matmul(&fast, a, ta, b, tb, &err) == ATTN_OK, "%s", err.msg);
        ck_assert_msg(op_matmul_ref(&slow, a, ta, b, tb, &err) == ATTN_OK, "%s", err.msg);
        ck_assert_msg(fast->rows == m && fast->cols == n, "%dx%d, want %dx%d", fast->rows, fast->cols, m, n);
        char what[96];
        snprintf(what, sizeof what, "%dx%d @ %dx%d (trans %d,%d, views %d)", m, k, k, n, ta, tb, view);
        assert_close(fast, slow, 1e-5, what);
        Mat *all[] = { wa, wb, a, b, fast, slow };
        for (size_t i = 0; i < sizeof all / sizeof *all; i++)
            mat_free(all[i]);
    }
}
END_TEST

/* One head of a wider matrix, multiplied in place: Q_h = cols(Q, 2, 5) has
 * ld 8 and shares Q's buffer; Q_h @ K_h^T is one product, no copies. */
START_TEST(matmul_views_without_copy)
{
    Mat *q = random_mat(5, 8), *k = random_mat(6, 8);
    Mat *qh = NULL, *kh = NULL, *s = NULL, *want = NULL;
    AttnError err;
    ck_assert_int_eq(op_cols(&qh, q, 2, 5, &err), ATTN_OK);
    ck_assert_int_eq(op_cols(&kh, k, 2, 5, &err), ATTN_OK);
    ck_assert_int_eq(qh->ld, 8);
    ck_assert_ptr_eq(qh->data, q->data + 2);
    ck_assert_ptr_null(qh->buf);
    ck_assert_int_eq(op_matmul(&s, qh, 0, kh, 1, &err), ATTN_OK);
    ck_assert_int_eq(s->rows, 5);
    ck_assert_int_eq(s->cols, 6);
    Mat *qc = mat_copy(qh, &err), *kc = mat_copy(kh, &err);
    ck_assert_int_eq(qc->ld, 3);
    ck_assert_int_eq(op_matmul_ref(&want, qc, 0, kc, 1, &err), ATTN_OK);
    assert_close(s, want, 1e-5, "head view product");
    mat_free(want);
    /* a row view as the right operand, and a view as the output's source */
    Mat *kr = NULL, *t = NULL;
    ck_assert_int_eq(op_rows(&kr, kh, 1, 4, &err), ATTN_OK);   /* 3x3 view, ld 8 */
    ck_assert_int_eq(op_matmul(&t, qh, 0, kr, 0, &err), ATTN_OK);
    ck_assert_int_eq(op_matmul_ref(&want, qh, 0, kr, 0, &err), ATTN_OK);
    assert_close(t, want, 1e-5, "view @ view");
    mat_free(want);
    mat_free(t);
    mat_free(kr);
    mat_free(qc);
    mat_free(kc);
    mat_free(s);
    mat_free(qh);
    mat_free(kh);
    mat_free(q);
    mat_free(k);
}
END_TEST

START_TEST(matmul_shape_messages)
{
    Mat *a = random_mat(3, 4), *b = random_mat(3, 2), *c = NULL;
    AttnError err;
    attn_status st = op_matmul(&c, a, 0, b, 0, &err);
    assert_err(st, &err, c, ATTN_E_SHAPE,
               "`@` needs the columns of the left operand (4) to equal the rows of the right operand (3): "
               "the left operand is 3x4, the right operand is 3x2");
    mat_set_name(a, "Q");
    mat_set_name(b, "K");
    st = op_matmul(&c, a, 0, b, 1, &err);
    assert_err(st, &err, c, ATTN_E_SHAPE, "`@` needs the columns of Q (4) to equal the rows of K^T (2): Q is 3x4, K^T is 2x3");
    st = op_matmul(&c, a, 1, b, 1, &err);
    assert_err(st, &err, c, ATTN_E_SHAPE, "`@` needs the columns of Q^T (3) to equal the rows of K^T (2): Q^T is 4x3, K^T is 2x3");
    ck_assert_int_eq(op_matmul(&c, a, 1, b, 0, &err), ATTN_OK);  /* Q^T @ K is 4x2 */
    ck_assert_int_eq(c->rows, 4);
    ck_assert_int_eq(c->cols, 2);
    mat_free(c);
    ck_assert_int_eq(a->refs, 1);   /* failures took no references */
    mat_free(a);
    mat_free(b);
}
END_TEST

START_TEST(matmul_labels)
{
    Mat *x = random_mat(3, 2), *w = random_mat(2, 3), *c = NULL;
    Labels *tok = labels3("The", "cat", "sat", 3), *dim = labels3("d1", "d2", NULL, 2);
    Labels *out = labels3("q1", "q2", "q3", 3);
    mat_set_row_labels(x, tok);
    mat_set_col_labels(x, dim);
    mat_set_row_labels(w, dim);
    mat_set_col_labels(w, out);
    AttnError err;
    ck_assert_int_eq(op_matmul(&c, x, 0, w, 0, &err), ATTN_OK);
    ck_assert_str_eq(mat_row_label(c, 1), "cat");
    ck_assert_str_eq(mat_col_label(c, 2), "q3");
    mat_free(c);
    ck_assert_int_eq(op_matmul(&c, x, 0, x, 1, &err), ATTN_OK);     /* X X^T: tokens both ways */
    ck_assert_str_eq(mat_row_label(c, 0), "The");
    ck_assert_str_eq(mat_col_label(c, 2), "sat");
    mat_free(c);
    ck_assert_int_eq(op_matmul(&c, x, 1, x, 0, &err), ATTN_OK);     /* X^T X: dims both ways */
    ck_assert_str_eq(mat_row_label(c, 1), "d2");
    ck_assert_str_eq(mat_col_label(c, 0), "d1");
    mat_free(c);
    labels_free(tok);
    labels_free(dim);
    labels_free(out);
    mat_free(x);
    mat_free(w);
}
END_TEST

START_TEST(transpose_swaps)
{
    float v[] = { 1, 2, 3, 4, 5, 6 };
    Mat *a = lit(2, 3, v, "A"), *t = NULL;
    Labels *r = labels3("r1", "r2", NULL, 2), *c = labels3("c1", "c2", "c3", 3);
    mat_set_row_labels(a, r);
    mat_set_col_labels(a, c);
    AttnError err;
    ck_assert_int_eq(op_transpose(&t, a, &err), ATTN_OK);
    assert_values(t, 3, 2, (float[]){ 1, 4, 2, 5, 3, 6 }, 0, "A^T");
    ck_assert_str_eq(mat_row_label(t, 2), "c3");
    ck_assert_str_eq(mat_col_label(t, 1), "r2");
    ck_assert_int_eq(t->prov.op, OP_TRANSPOSE);
    ck_assert_ptr_eq(t->prov.a, a);
    labels_free(r);
    labels_free(c);
    mat_free(a);
    mat_free(t);
}
END_TEST

/* ---- element-wise ------------------------------------------------------------------ */

START_TEST(broadcast_arithmetic)
{
    float av[] = { 1, 2, 3, 4, 5, 6 };
    Mat *a = lit(2, 3, av, "A");
    Mat *s = lit(1, 1, (float[]){ 2 }, NULL);
    Mat *row = lit(1, 3, (float[]){ 10, 20, 30 }, "b");
    Mat *col = lit(2, 1, (float[]){ 100, 200 }, NULL);
    Mat *full = lit(2, 3, (float[]){ 1, 1, 2, 2, 4, 4 }, NULL);
    Mat *o = NULL;
    AttnError err;
    ck_assert_int_eq(op_add(&o, a, s, &err), ATTN_OK);
    assert_values(o, 2, 3, (float[]){ 3, 4, 5, 6, 7, 8 }, 0, "A + 2");
    ck_assert_int_eq(o->prov.op, OP_ADD);
    ck_assert_ptr_eq(o->prov.b, s);
    mat_free(o);
    ck_assert_int_eq(op_sub(&o, s, a, &err), ATTN_OK);          /* scalar on the left */
    assert_values(o, 2, 3, (float[]){ 1, 0, -1, -2, -3, -4 }, 0, "2 - A");
    mat_free(o);
    ck_assert_int_eq(op_add(&o, a, row, &err), ATTN_OK);        /* bias row, down */
    assert_values(o, 2, 3, (float[]){ 11, 22, 33, 14, 25, 36 }, 0, "A + b");
    mat_free(o);
    ck_assert_int_eq(op_mul(&o, col, a, &err), ATTN_OK);        /* column, across */
    assert_values(o, 2, 3, (float[]){ 100, 200, 300, 800, 1000, 1200 }, 0, "c * A");
    mat_free(o);
    ck_assert_int_eq(op_div(&o, a, full, &err), ATTN_OK);
    assert_values(o, 2, 3, (float[]){ 1, 2, 1.5f, 2, 1.25f, 1.5f }, 0, "A / F");
    mat_free(o);
    ck_assert_int_eq(op_div(&o, a, col, &err), ATTN_OK);
    assert_values(o, 2, 3, (float[]){ 0.01f, 0.02f, 0.03f, 0.02f, 0.025f, 0.03f }, 1e-7, "A / c");
    mat_free(o);
    ck_assert_int_eq(op_div(&o, s, s, &err), ATTN_OK);          /* 1x1 with 1x1 */
    assert_values(o, 1, 1, (float[]){ 1 }, 0, "2 / 2");
    mat_free(o);
    Mat *z = lit(1, 1, (float[]){ 0 }, NULL);
    ck_assert_int_eq(op_div(&o, a, z, &err), ATTN_OK);          /* IEEE: x / 0 = inf */
    ck_assert(isinf(mat_get(o, 0, 0)) && mat_get(o, 0, 0) > 0);
    mat_free(o);
    mat_free(z);
    mat_free(a);
    mat_free(s);
    mat_free(row);
    mat_free(col);
    mat_free(full);
}
END_TEST

START_TEST(broadcast_labels)
{
    Mat *a = random_mat(3, 2), *b = random_mat(1, 2), *o = NULL;
    Labels *tok = labels3("The", "cat", "sat", 3), *dim = labels3("x", "y", NULL, 2);
    mat_set_row_labels(a, tok);
    mat_set_col_labels(b, dim);             /* only the bias names the columns */
    AttnError err;
    ck_assert_int_eq(op_add(&o, b, a, &err), ATTN_OK);
    ck_assert_str_eq(mat_row_label(o, 2), "sat");
    ck_assert_str_eq(mat_col_label(o, 1), "y");
    mat_free(o);
    ck_assert_int_eq(op_neg(&o, a, &err), ATTN_OK);
    ck_assert_str_eq(mat_row_label(o, 0), "The");
    mat_free(o);
    labels_free(tok);
    labels_free(dim);
    mat_free(a);
    mat_free(b);
}
END_TEST

/* Every operation that keeps the shape keeps both axes' labels. */
START_TEST(unary_labels)
{
    static const struct { const char *name; attn_status (*fn)(Mat **, const Mat *, AttnError *); } ops[] = {
        { "relu", op_relu }, { "exp", op_exp }, { "log", op_log }, { "sqrt", op_sqrt }, { "neg", op_neg },
        { "softmax_rows", op_softmax_rows }, { "softmax_cols", op_softmax_cols },
        { "layernorm_rows", op_layernorm_rows },
    };
    Mat *a = random_mat(3, 2);
    Labels *tok = labels3("The", "cat", "sat", 3), *dim = labels3("x", "y", NULL, 2);
    mat_set_row_labels(a, tok);
    mat_set_col_labels(a, dim);
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        Mat *o = NULL;
        AttnError err;
        ck_assert_msg(ops[i].fn(&o, a, &err) == ATTN_OK, "%s: %s", ops[i].name, err.msg);
        ck_assert_msg(mat_row_label(o, 2) && strcmp(mat_row_label(o, 2), "sat") == 0, "%s lost the row labels",
                      ops[i].name);
        ck_assert_msg(mat_col_label(o, 1) && strcmp(mat_col_label(o, 1), "y") == 0,
                      "%s lost the column labels", ops[i].name);
        mat_free(o);
    }
    labels_free(tok);
    labels_free(dim);
    mat_free(a);
}
END_TEST

START_TEST(elementwise_functions)
{
    float v[] = { -1, 0, 4, 0.25f };
    Mat *a = lit(2, 2, v, "A"), *o = NULL;
    AttnError err;
    ck_assert_int_eq(op_neg(&o, a, &err), ATTN_OK);
    assert_values(o, 2, 2, (float[]){ 1, 0, -4, -0.25f }, 0, "-A");
    ck_assert_int_eq(o->prov.op, OP_NEG);
    mat_free(o);
    ck_assert_int_eq(op_relu(&o, a, &err), ATTN_OK);
    assert_values(o, 2, 2, (float[]){ 0, 0, 4, 0.25f }, 0, "relu");
    mat_free(o);
    ck_assert_int_eq(op_exp(&o, a, &err), ATTN_OK);
    assert_values(o, 2, 2, (float[]){ 0.36787944f, 1, 54.59815f, 1.2840254f }, 1e-6, "exp");
    mat_free(o);
    ck_assert_int_eq(op_sqrt(&o, a, &err), ATTN_OK);
    ck_assert(isnan(mat_get(o, 0, 0)));
    ck_assert_float_eq(mat_get(o, 1, 0), 2.0f);
    ck_assert_float_eq(mat_get(o, 1, 1), 0.5f);
    mat_free(o);
    ck_assert_int_eq(op_log(&o, a, &err), ATTN_OK);
    ck_assert(isinf(mat_get(o, 0, 1)) && mat_get(o, 0, 1) < 0);
    ck_assert_float_eq_tol(mat_get(o, 1, 0), 1.3862944f, 1e-6f);
    ck_assert_int_eq(o->prov.op, OP_LOG);
    mat_free(o);
    mat_free(a);
}
END_TEST

START_TEST(constants)
{
    Mat *o = NULL;
    AttnError err;
    ck_assert_int_eq(op_zeros(&o, 2, 3, &err), ATTN_OK);
    assert_values(o, 2, 3, (float[]){ 0, 0, 0, 0, 0, 0 }, 0, "zeros");
    ck_assert_int_eq(o->prov.op, OP_INPUT);
    mat_free(o);
    ck_assert_int_eq(op_ones(&o, 1, 2, &err), ATTN_OK);
    assert_values(o, 1, 2, (float[]){ 1, 1 }, 0, "ones");
    mat_free(o);
    ck_assert_int_eq(op_eye(&o, 3, &err), ATTN_OK);
    assert_values(o, 3, 3, (float[]){ 1, 0, 0, 0, 1, 0, 0, 0, 1 }, 0, "eye");
    mat_free(o);
    ck_assert_int_eq(op_causal_mask(&o, 3, &err), ATTN_OK);
    assert_values(o, 3, 3, (float[]){ 0, -INFINITY, -INFINITY, 0, 0, -INFINITY, 0, 0, 0 }, 0, "causal_mask");
    ck_assert_int_eq(o->prov.op, OP_CAUSAL_MASK);
    mat_free(o);
}
END_TEST

/* ---- softmax and layer norm ----------------------------------------------------------- */

START_TEST(softmax_hand)
{
    Mat *a = lit(2, 3, (float[]){ 1, 2, 3, 0, 0, 0 }, "S"), *o = NULL, *t = NULL, *oc = NULL;
    AttnError err;
    ck_assert_int_eq(op_softmax_rows(&o, a, &err), ATTN_OK);
    assert_values(o, 2, 3, (float[]){ 0.09003057f, 0.24472847f, 0.66524096f, 1 / 3.f, 1 / 3.f, 1 / 3.f }, 1e-7,
                  "softmax_rows");
    ck_assert_ptr_null(o->masked);
    ck_assert_int_eq(o->n_masked, 0);
    ck_assert_int_eq(o->prov.op, OP_SOFTMAX_ROWS);
    /* columns of the transpose are the rows */
    ck_assert_int_eq(op_transpose(&t, a, &err), ATTN_OK);
    ck_assert_int_eq(op_softmax_cols(&oc, t, &err), ATTN_OK);
    ck_assert_int_eq(oc->prov.op, OP_SOFTMAX_COLS);
    Mat *back = NULL;
    ck_assert_int_eq(op_transpose(&back, oc, &err), ATTN_OK);
    assert_close(back, o, 1e-7, "softmax_cols(S^T)^T vs softmax_rows(S)");
    mat_free(back);
    mat_free(oc);
    mat_free(t);
    mat_free(o);
    mat_free(a);
}
END_TEST

START_TEST(softmax_matches_loops)
{
    static const int shapes[][2] = { { 1, 1 }, { 1, 9 }, { 9, 1 }, { 4, 4 }, { 7, 13 }, { 40, 3 } };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        Mat *a = random_mat(shapes[s][0], shapes[s][1]);
        for (int i = 0; i < a->rows; i++)
            for (int j = 0; j < a->cols; j++)
                mat_set(a, i, j, mat_get(a, i, j) * 10.0f);
        Mat *f = NULL, *r = NULL;
        AttnError err;
        ck_assert_int_eq(op_softmax_rows(&f, a, &err), ATTN_OK);
        ck_assert_int_eq(op_softmax_rows_ref(&r, a, &err), ATTN_OK);
        assert_close(f, r, 1e-6, "softmax_rows vs loops");
        mat_free(f);
        mat_free(r);
        ck_assert_int_eq(op_softmax_cols(&f, a, &err), ATTN_OK);
        ck_assert_int_eq(op_softmax_cols_ref(&r, a, &err), ATTN_OK);
        assert_close(f, r, 1e-6, "softmax_cols vs loops");
        mat_free(f);
        mat_free(r);
        mat_free(a);
    }
}
END_TEST

START_TEST(softmax_large_scores)
{
    Mat *a = lit(3, 3, (float[]){ 1e4f, -1e4f, 0, 1e4f, 1e4f, -1e4f, -1e4f, -1e4f, -1e4f }, NULL), *o = NULL;
    AttnError err;
    ck_assert_int_eq(op_softmax_rows(&o, a, &err), ATTN_OK);
    assert_values(o, 3, 3, (float[]){ 1, 0, 0, 0.5f, 0.5f, 0, 1 / 3.f, 1 / 3.f, 1 / 3.f }, 1e-7, "softmax of +-1e4");
    mat_free(o);
    ck_assert_int_eq(op_softmax_cols(&o, a, &err), ATTN_OK);
    assert_values(o, 3, 3, (float[]){ 0.5f, 0, 1, 0.5f, 1, 0, 0, 0, 0 }, 1e-7, "softmax_cols of +-1e4");
    mat_free(o);
    mat_free(a);
}
END_TEST

/* Masked scores get weight exactly 0; a line masked entirely is all zeros,
 * flagged, with no NaN. */
START_TEST(softmax_masked)
{
    const float ninf = -INFINITY;
    Mat *a = lit(3, 3, (float[]){ 0, ninf, 0, ninf, ninf, ninf, 2, ninf, ninf }, NULL), *o = NULL;
    AttnError err;
    ck_assert_int_eq(op_softmax_rows(&o, a, &err), ATTN_OK);
    ck_assert_msg(mat_get(o, 0, 1) == 0.0f, "masked weight %g, not exactly 0", mat_get(o, 0, 1));
    ck_assert_float_eq(mat_get(o, 0, 0), 0.5f);
    ck_assert_float_eq(mat_get(o, 2, 0), 1.0f);
    for (int j = 0; j < 3; j++)
        ck_assert_msg(mat_get(o, 1, j) == 0.0f, "masked row [2,%d] = %g", j + 1, mat_get(o, 1, j));
    ck_assert_ptr_nonnull(o->masked);
    ck_assert_int_eq(o->n_masked, 1);
    ck_assert_int_eq(o->masked[0], 0);
    ck_assert_int_eq(o->masked[1], 1);
    ck_assert_int_eq(o->masked[2], 0);
    ck_assert(mat_line_masked(o, 1, 1) && !mat_line_masked(o, 0, 1) && !mat_line_masked(o, 1, 0));
    ck_assert(!mat_line_masked(o, 3, 1) && !mat_line_masked(o, -1, 1) && !mat_line_masked(NULL, 0, 1));
    Mat *c = mat_copy(o, &err);                 /* the flags travel with a copy */
    ck_assert_int_eq(c->n_masked, 1);
    ck_assert_int_eq(c->masked[1], 1);
    ck_assert(mat_line_masked(c, 1, 1) && !mat_line_masked(c, 1, 0));
    mat_free(c);
    mat_free(o);
    ck_assert_int_eq(op_softmax_cols(&o, a, &err), ATTN_OK);   /* column 2 is all -inf */
    assert_values(o, 3, 3, (float[]){ 0.11920292f, 0, 1, 0, 0, 0, 0.88079708f, 0, 0 }, 1e-7, "softmax_cols masked");
    ck_assert_int_eq(o->n_masked, 1);
    ck_assert_int_eq(o->masked[1], 1);
    ck_assert_int_eq(o->masked[0] + o->masked[2], 0);
    ck_assert(mat_line_masked(o, 1, 0) && !mat_line_masked(o, 1, 1));   /* a column this time */
    c = mat_copy(o, &err);
    ck_assert(mat_line_masked(c, 1, 0) && !mat_line_masked(c, 1, 1));
    mat_free(c);
    Mat *r = NULL;
    ck_assert_int_eq(op_softmax_cols_ref(&r, a, &err), ATTN_OK);
    assert_close(o, r, 1e-7, "masked softmax_cols vs loops");
    ck_assert_int_eq(r->n_masked, 1);
    mat_free(r);
    mat_free(o);
    mat_free(a);
}
END_TEST

/* Scores + causal mask -> each query sees itself and earlier keys only. */
START_TEST(softmax_causal)
{
    Mat *s = lit(3, 3, (float[]){ 1, 5, 9, 2, 2, 7, 0, 1, 2 }, NULL), *m = NULL, *sm = NULL, *w = NULL;
    AttnError err;
    ck_assert_int_eq(op_causal_mask(&m, 3, &err), ATTN_OK);
    ck_assert_int_eq(op_add(&sm, s, m, &err), ATTN_OK);
    ck_assert_int_eq(op_softmax_rows(&w, sm, &err), ATTN_OK);
    assert_values(w, 3, 3, (float[]){ 1, 0, 0, 0.5f, 0.5f, 0, 0.09003057f, 0.24472847f, 0.66524096f }, 1e-7,
                  "causal softmax");
    ck_assert_int_eq(w->n_masked, 0);
    mat_free(w);
    mat_free(sm);
    mat_free(m);
    mat_free(s);
}
END_TEST

START_TEST(softmax_nan_propagates)
{
    Mat *a = lit(2, 2, (float[]){ NAN, 1, 0, 0 }, NULL), *o = NULL;
    AttnError err;
    ck_assert_int_eq(op_softmax_rows(&o, a, &err), ATTN_OK);
    ck_assert(isnan(mat_get(o, 0, 0)) && isnan(mat_get(o, 0, 1)));
    ck_assert_float_eq(mat_get(o, 1, 0), 0.5f);
    ck_assert_int_eq(o->n_masked, 0);
    mat_free(o);
    mat_free(a);
}
END_TEST

START_TEST(layernorm_hand)
{
    Mat *a = lit(2, 4, (float[]){ 1, 2, 3, 4, 5, 5, 5, 5 }, "V"), *o = NULL, *r = NULL;
    Labels *tok = labels3("a", "b", NULL, 2);
    mat_set_row_labels(a, tok);
    labels_free(tok);
    AttnError err;
    ck_assert_int_eq(op_layernorm_rows(&o, a, &err), ATTN_OK);
    assert_values(o, 2, 4, (float[]){ -1.34163542f, -0.44721181f, 0.44721181f, 1.34163542f, 0, 0, 0, 0 }, 1e-6,
                  "layernorm [1 2 3 4]");
    ck_assert_str_eq(mat_row_label(o, 1), "b");
    ck_assert_int_eq(o->prov.op, OP_LAYERNORM_ROWS);
    ck_assert_int_eq(op_layernorm_rows_ref(&r, a, &err), ATTN_OK);
    assert_close(o, r, 1e-6, "layernorm vs loops");
    mat_free(r);
    mat_free(o);
    mat_free(a);
    Mat *big = random_mat(9, 37);
    ck_assert_int_eq(op_layernorm_rows(&o, big, &err), ATTN_OK);
    ck_assert_int_eq(op_layernorm_rows_ref(&r, big, &err), ATTN_OK);
    assert_close(o, r, 1e-5, "layernorm 9x37 vs loops");
    mat_free(r);
    mat_free(o);
    mat_free(big);
}
END_TEST

Suite *ops_suite(void)
{
    Suite *s = suite_create("ops");
    TCase *core = tcase_create("core");
    tcase_add_test(core, matmul_hand);
    tcase_add_test(core, matmul_blas_matches_loops);
    tcase_add_test(core, matmul_random_shapes_and_views);
    tcase_add_test(core, matmul_views_without_copy);
    tcase_add_test(core, matmul_shape_messages);
    tcase_add_test(core, matmul_labels);
    tcase_add_test(core, transpose_swaps);
    tcase_add_test(core, broadcast_arithmetic);
    tcase_add_test(core, broadcast_labels);
    tcase_add_test(core, unary_labels);
    tcase_add_test(core, elementwise_functions);
    tcase_add_test(core, constants);
    tcase_add_test(core, softmax_hand);
    tcase_add_test(core, softmax_matches_loops);
    tcase_add_test(core, softmax_large_scores);
    tcase_add_test(core, softmax_masked);
    tcase_add_test(core, softmax_causal);
    tcase_add_test(core, softmax_nan_propagates);
    tcase_add_test(core, layernorm_hand);
    suite_add_tcase(s, core);
    return s;
}
