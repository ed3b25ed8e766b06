/*
 * ops.c - the operations of attention on Mat: products (through blas.c),
 * broadcasting element-wise arithmetic, element-wise functions, stable
 * softmax, layer norm, cosine and where. Masks, encodings, concatenation and
 * ranges live in ops_shape.c.
 *
 * Each operation checks its arguments first and explains a refusal in words
 * a student can act on (naming both shapes and what was needed, by the
 * operation's shape rule in op_rules.c, the same words the lesson evaluator
 * uses; ranges are quoted 1-based, as the lessons write them), then allocates, computes,
 * attaches labels and records provenance. Nothing here prints or exits.
 */
#include "ops.h"

#include <math.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "mat_make.h"
#include "ops_kernel.h"

/* ---- products ------------------------------------------------------------ */

attn_status op_matmul(Mat **out, const Mat *a, int trans_a, const Mat *b, int trans_b, AttnError *err)
{
    return ops_matmul_with(out, a, trans_a, b, trans_b, blas_matmul, err);
}

attn_status op_transpose(Mat **out, const Mat *a, AttnError *err)
{
    BEGIN(out, err);
    if (!out || !a)
        return missing(err, OP_TRANSPOSE);
    Mat *t = mat_new(a->cols, a->rows, err);
    if (!t)
        return err->code;
    for (int i = 0; i < a->rows; i++)
        for (int j = 0; j < a->cols; j++)
            mat_set(t, j, i, mat_get(a, i, j));
    mat_set_row_labels(t, a->col_labels);
    mat_set_col_labels(t, a->row_labels);
    mat_set_prov(t, OP_TRANSPOSE, a, NULL);
    *out = t;
    return ATTN_OK;
}

/* ---- element-wise with broadcast --------------------------------------------- */

typedef float (*BinaryFn)(float, float);
static float f_add(float x, float y) { return x + y; }
static float f_sub(float x, float y) { return x - y; }
static float f_mul(float x, float y) { return x * y; }
static float f_div(float x, float y) { return x / y; }

static attn_status binary(Mat **out, const Mat *a, const Mat *b, MatOp op, BinaryFn fn, AttnError *err)
{
    BEGIN(out, err);
    if (!out || !a || !b)
        return missing(err, op);
    /* The full shape is the operand's that the other broadcasts to. */
    OpShape x[2] = { { a->rows, a->cols, who(a, "the left operand") },
                     { b->rows, b->cols, who(b, "the right operand") } };
    Mat *m = fitted_new(op, x, 2, err);
    if (!m)
        return err->code;
    int r = m->rows, c = m->cols;
    int ai = a->rows > 1, aj = a->cols > 1, bi = b->rows > 1, bj = b->cols > 1;
    for (int i = 0; i < r; i++) {
        const float *ra = mat_row(a, ai ? i : 0), *rb = mat_row(b, bi ? i : 0);
        float *ro = mat_row(m, i);
        for (int j = 0; j < c; j++)
            ro[j] = fn(ra[aj ? j : 0], rb[bj ? j : 0]);
    }
    /* Labels come from an operand that spans the axis (a first). */
    mat_set_row_labels(m, a->rows == r && a->row_labels ? a->row_labels : b->rows == r ? b->row_labels : NULL);
    mat_set_col_labels(m, a->cols == c && a->col_labels ? a->col_labels : b->cols == c ? b->col_labels : NULL);
    mat_set_prov(m, op, a, b);
    *out = m;
    return ATTN_OK;
}

attn_status op_add(Mat **out, const Mat *a, const Mat *b, AttnError *err)
{
    return binary(out, a, b, OP_ADD, f_add, err);
}

attn_status op_sub(Mat **out, const Mat *a, const Mat *b, AttnError *err)
{
    return binary(out, a, b, OP_SUB, f_sub, err);
}

attn_status op_mul(Mat **out, const Mat *a, const Mat *b, AttnError *err)
{
    return binary(out, a, b, OP_MUL, f_mul, err);
}

attn_status op_div(Mat **out, const Mat *a, const Mat *b, AttnError *err)
{
    return binary(out, a, b, OP_DIV, f_div, err);
}

/* The larger; a NaN on either side stays NaN (as torch.maximum). */
static float f_max(float x, float y) { return isnan(x) || isnan(y) ? NAN : x > y ? x : y; }

attn_status op_maximum(Mat **out, const Mat *a, const Mat *b, AttnError *err)
{
    return binary(out, a, b, OP_MAXIMUM, f_max, err);
}

/* ---- element-wise functions ---------------------------------------------------- */

typedef float (*UnaryFn)(float);
static float f_neg(float x) { return -x; }
static float f_relu(float x) { return x > 0.0f || isnan(x) ? x : 0.0f; }

static attn_status unary(Mat **out, const Mat *a, MatOp op, UnaryFn fn, AttnError *err)
{
    BEGIN(out, err);
    if (!out || !a)
        return missing(err, op);
    Mat *m = new_like(a, err);
    if (!m)
        return err->code;
    for (int i = 0; i < a->rows; i++) {
        const float *ra = mat_row(a, i);
        float *ro = mat_row(m, i);
        for (int j = 0; j < a->cols; j++)
            ro[j] = fn(ra[j]);
    }
    mat_set_prov(m, op, a, NULL);
    *out = m;
    return ATTN_OK;
}

attn_status op_neg(Mat **out, const Mat *a, AttnError *err) { return unary(out, a, OP_NEG, f_neg, err); }
attn_status op_relu(Mat **out, const Mat *a, AttnError *err) { return unary(out, a, OP_RELU, f_relu, err); }
attn_status op_exp(Mat **out, const Mat *a, AttnError *err) { return unary(out, a, OP_EXP, expf, err); }
attn_status op_log(Mat **out, const Mat *a, AttnError *err) { return unary(out, a, OP_LOG, logf, err); }
attn_status op_sqrt(Mat **out, const Mat *a, AttnError *err) { return unary(out, a, OP_SQRT, sqrtf, err); }

static float f_elu(float x) { return x > 0.0f || isnan(x) ? x : expm1f(x); }
attn_status op_elu(Mat **out, const Mat *a, AttnError *err) { return unary(out, a, OP_ELU, f_elu, err); }

/* ---- softmax ---------------------------------------------------------------- */

/* Along each row: shift by the row's true max, exponentiate in float, sum in
 * double. A row that is all -inf becomes 0s and is flagged. */
static int softmax_rows_kernel(Mat *out, const Mat *a, unsigned char *masked)
{
    int n_masked = 0;
    for (int i = 0; i < a->rows; i++) {
        const float *x = mat_row(a, i);
        float *y = mat_row(out, i);
        float max = -INFINITY;
        int all_masked = 1;
        for (int j = 0; j < a->cols; j++) {
            all_masked &= x[j] == -INFINITY;
            if (x[j] > max)
                max = x[j];     /* NaN never compares greater: it propagates */
        }
        if (all_masked) {
            memset(y, 0, (size_t)a->cols * sizeof *y);
            masked[i] = 1;
            n_masked++;
            continue;
        }
        double sum = 0.0;
        for (int j = 0; j < a->cols; j++) {
            y[j] = expf(x[j] - max);    /* exp(-inf - max) is exactly 0 */
            sum += y[j];
        }
        float inv = (float)(1.0 / sum);
        for (int j = 0; j < a->cols; j++)
            y[j] *= inv;
    }
    return n_masked;
}

/* The columns softmax_cols_kernel takes at a time: its scratch is on the
 * stack, so the kernel needs no allocation that could fail. */
#define SOFTMAX_COLS_BLOCK 256

/* Down each column, walking the matrix a row at a time (cache-friendly for
 * row-major data), a block of columns at a time: column maxima, then
 * exponentials and sums, then scale. */
static int softmax_cols_kernel(Mat *out, const Mat *a, unsigned char *masked)
{
    int n_masked = 0;
    for (int j0 = 0; j0 < a->cols; j0 += SOFTMAX_COLS_BLOCK) {
        int n = a->cols - j0 < SOFTMAX_COLS_BLOCK ? a->cols - j0 : SOFTMAX_COLS_BLOCK;
        float max[SOFTMAX_COLS_BLOCK];
        double sum[SOFTMAX_COLS_BLOCK] = { 0 };
        unsigned char finite_seen[SOFTMAX_COLS_BLOCK] = { 0 };
        for (int j = 0; j < n; j++)
            max[j] = -INFINITY;
        for (int i = 0; i < a->rows; i++) {
            const float *x = mat_row(a, i) + j0;
            for (int j = 0; j < n; j++) {
                finite_seen[j] |= x[j] != -INFINITY;
                if (x[j] > max[j])
                    max[j] = x[j];
            }
        }
        for (int i = 0; i < a->rows; i++) {
            const float *x = mat_row(a, i) + j0;
            float *y = mat_row(out, i) + j0;
            for (int j = 0; j < n; j++) {
                y[j] = finite_seen[j] ? expf(x[j] - max[j]) : 0.0f;
                sum[j] += y[j];
            }
        }
        for (int j = 0; j < n; j++) {
            if (!finite_seen[j]) {
                masked[j0 + j] = 1;
                n_masked++;
            }
            max[j] = finite_seen[j] ? (float)(1.0 / sum[j]) : 0.0f;    /* reuse as the scale */
        }
        for (int i = 0; i < a->rows; i++) {
            float *y = mat_row(out, i) + j0;
            for (int j = 0; j < n; j++)
                y[j] *= max[j];
        }
    }
    return n_masked;
}

attn_status op_softmax_rows(Mat **out, const Mat *a, AttnError *err)
{
    return ops_softmax_with(out, a, OP_SOFTMAX_ROWS, softmax_rows_kernel, err);
}

attn_status op_softmax_cols(Mat **out, const Mat *a, AttnError *err)
{
    return ops_softmax_with(out, a, OP_SOFTMAX_COLS, softmax_cols_kernel, err);
}

/* ---- layer norm -------------------------------------------------------------- */

/* Float data, double accumulators, two passes (mean, then variance). */
static void layernorm_rows_kernel(Mat *out, const Mat *a)
{
    for (int i = 0; i < a->rows; i++) {
        const float *x = mat_row(a, i);
        float *y = mat_row(out, i);
        double sum = 0.0, sq = 0.0;
        for (int j = 0; j < a->cols; j++)
            sum += x[j];
        float mean = (float)(sum / a->cols);
        for (int j = 0; j < a->cols; j++) {
            double d = (double)x[j] - mean;
            sq += d * d;
        }
        float inv = (float)(1.0 / sqrt(sq / a->cols + OPS_LAYERNORM_EPS));
        for (int j = 0; j < a->cols; j++)
            y[j] = (x[j] - mean) * inv;
    }
}

attn_status op_layernorm_rows(Mat **out, const Mat *a, AttnError *err)
{
    return ops_layernorm_with(out, a, layernorm_rows_kernel, err);
}

/* ---- cosine ---------------------------------------------------------------------- */

/* Element t of m in row-major order, honouring ld. */
static double flat_get(const Mat *m, int64_t t)
{
    return mat_get(m, (int)(t / m->cols), (int)(t % m->cols));
}

attn_status op_cosine(Mat **out, const Mat *a, const Mat *b, AttnError *err)
{
    BEGIN(out, err);
    if (!out || !a || !b)
        return missing(err, OP_COSINE);
    OpShape x[2] = { { a->rows, a->cols, who(a, "the first") }, { b->rows, b->cols, who(b, "the second") } };
    int r, c;
    if (fits(OP_COSINE, x, 2, &r, &c, err) != ATTN_OK)
        return err->code;
    int64_t na = (int64_t)a->rows * a->cols;
    double dot = 0.0, sa = 0.0, sb = 0.0;
    for (int64_t t = 0; t < na; t++) {
        double x = flat_get(a, t), y = flat_get(b, t);
        dot += x * y;
        sa += x * x;
        sb += y * y;
    }
    Mat *m = mat_new(1, 1, err);
    if (!m)
        return err->code;
    mat_set(m, 0, 0, sa > 0.0 && sb > 0.0 ? (float)(dot / (sqrt(sa) * sqrt(sb))) : 0.0f);
    mat_set_prov(m, OP_COSINE, a, b);
    *out = m;
    return ATTN_OK;
}

/* ---- where ----------------------------------------------------------------------- */

attn_status op_where(Mat **out, Mat *const *parts, int n, AttnError *err)
{
    BEGIN(out, err);
    if (!out || !parts || n != 3 || !parts[0] || !parts[1] || !parts[2])
        return missing(err, OP_WHERE);
    static const char *const role[3] = { "the condition", "the first choice", "the second choice" };
    OpShape x[3];
    for (int k = 0; k < 3; k++)
        x[k] = (OpShape){ parts[k]->rows, parts[k]->cols, who(parts[k], role[k]) };
    Mat *m = fitted_new(OP_WHERE, x, 3, err);
    if (!m)
        return err->code;
    for (int i = 0; i < m->rows; i++)
        for (int j = 0; j < m->cols; j++) {
            const Mat *cond = parts[0];
            int take = mat_get(cond, cond->rows > 1 ? i : 0, cond->cols > 1 ? j : 0) != 0.0f;
            const Mat *pick = parts[take ? 1 : 2];
            mat_set(m, i, j, mat_get(pick, pick->rows > 1 ? i : 0, pick->cols > 1 ? j : 0));
        }
    /* Labels from the first part that spans the axis. */
    for (int k = 2; k >= 0; k--) {
        if (parts[k]->rows == m->rows && parts[k]->row_labels)
            mat_set_row_labels(m, parts[k]->row_labels);
        if (parts[k]->cols == m->cols && parts[k]->col_labels)
            mat_set_col_labels(m, parts[k]->col_labels);
    }
    attn_status st = mat_set_prov_parts(m, OP_WHERE, parts, 3, err);
    if (st != ATTN_OK) {
        mat_free(m);
        return st;
    }
    *out = m;
    return ATTN_OK;
}
