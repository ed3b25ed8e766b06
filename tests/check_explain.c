/*
 * check_explain.c - explanations add up: the operands of a product, scaled
 * product, softmax, layer-norm or element-wise cell recompute the cell's
 * value; operand cells name the right matrices and (1-based in the text)
 * indices, through transposes, copies, views and concatenations; the text
 * carries the formula; bad cells and empty explanations are handled.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "explain.h"
#include "ops.h"
#include "refdata.h"
#include "rng.h"

#define EX_TOL 1e-5

/* Matrices of one test, freed together. */
#define MAX_KEPT 64
static Mat *kept[MAX_KEPT];
static int n_kept;

/* pm is read after the call that filled it (argument order is unspecified). */
static Mat *keep(attn_status st, Mat *const *pm, const char *what)
{
    Mat *m = *pm;
    ck_assert_msg(st == ATTN_OK && m, "%s failed: %s", what, attn_status_str(st));
    ck_assert(n_kept < MAX_KEPT);
    kept[n_kept++] = m;
    return m;
}

static void free_kept(void)
{
    while (n_kept > 0)
        mat_free(kept[--n_kept]);
}

/* A named input matrix (no name when name is NULL). */
static Mat *input(const char *name, int r, int c, const float *v)
{
    Mat *m = mat_from(r, c, v, NULL);
    ck_assert_msg(m != NULL, "mat_from %s", name);
    keep(ATTN_OK, &m, name);
    if (name)
        mat_set_name(m, name);
    return m;
}

static Mat *scalar(float v)
{
    return input(NULL, 1, 1, &v);
}

typedef attn_status (*UnaryOp)(Mat **, const Mat *, AttnError *);
typedef attn_status (*BinaryOp)(Mat **, const Mat *, const Mat *, AttnError *);

static Mat *op1(UnaryOp fn, const Mat *a, const char *what)
{
    Mat *o = NULL;
    return keep(fn(&o, a, NULL), &o, what);
}

static Mat *op2(BinaryOp fn, const Mat *a, const Mat *b, const char *what)
{
    Mat *o = NULL;
    return keep(fn(&o, a, b, NULL), &o, what);
}

#define OP1(fn, a) op1(fn, (a), #fn)
#define OP2(fn, a, b) op2(fn, (a), (b), #fn)

static Mat *matmul(const Mat *a, int ta, const Mat *b, int tb)
{
    Mat *o = NULL;
    return keep(op_matmul(&o, a, ta, b, tb, NULL), &o, "op_matmul");
}

/* The value an explanation's operands give. */
static double recompute(const Explanation *ex)
{
    const CellRef *o = ex->operands;
    switch (ex->kind) {
    case EXPLAIN_DOT: {
        double sum = 0;
        for (int k = 0; k + 1 < ex->n_operands; k += 2)
            sum += (double)o[k].value * o[k + 1].value;
        if (ex->scale_op == '/')
            sum /= ex->scale;
        else if (ex->scale_op == '*')
            sum *= ex->scale;
        return sum;
    }
    case EXPLAIN_SOFTMAX: {
        double max = -INFINITY, sum = 0;
        for (int k = 0; k < ex->n_operands; k++)
            max = fmax(max, o[k].value);
        for (int k = 0; k < ex->n_operands; k++)
            sum += exp(o[k].value - max);
        return exp(o[0].value - max) / sum;
    }
    case EXPLAIN_LAYERNORM: {
        double mean = 0, var = 0;
        for (int k = 0; k < ex->n_operands; k++)
            mean += o[k].value;
        mean /= ex->n_operands;
        for (int k = 0; k < ex->n_operands; k++)
            var += (o[k].value - mean) * (o[k].value - mean);
        var /= ex->n_operands;
        return (o[0].value - mean) / sqrt(var + 1e-5);
    }
    case EXPLAIN_GATHER:
        return o[0].value;
    default:
        return NAN;
    }
}

static void assert_adds_up(const Explanation *ex)
{
    double got = recompute(ex);
    ck_assert_msg(fabs(got - ex->target.value) <= EX_TOL * fmax(1.0, fabs(ex->target.value)),
                  "operands give %.9g, the cell holds %.9g\n%s", got, ex->target.value, ex->text);
}

static void assert_cell(const CellRef *c, const Mat *m, int row, int col)
{
    ck_assert_msg(c->mat == m && c->row == row && c->col == col, "operand is %s[%d,%d], expected %s[%d,%d]",
                  c->mat ? c->mat->name : "?", c->row + 1, c->col + 1, m->name, row + 1, col + 1);
    ck_assert_float_eq(c->value, mat_get(m, row, col));
}

static void assert_text(const Explanation *ex, const char *piece)
{
    ck_assert_msg(ex->text && strstr(ex->text, piece), "text lacks \"%s\":\n%s", piece, ex->text ? ex->text : "(null)");
}

static const float K_V[12] = { 0.52f, -1.1f, 0.3f, 0.25f, 0.7f, -0.4f, -0.9f, 0.15f, 1.2f, 0.05f, -0.33f, 0.8f };
static const float Q_V[12] = { -0.67f, 0.4f, 1.1f, 0.9f, -0.2f, 0.35f, 0.6f, -1.3f, 0.45f, 0.12f, 0.75f, -0.5f };

/* K and Q: 4 x 3, tokens as columns. */
static void make_kq(Mat **k, Mat **q)
{
    *k = input("K", 4, 3, K_V);
    *q = input("Q", 4, 3, Q_V);
}

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
