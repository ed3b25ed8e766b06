/*
 * ops_ref.c - the algorithmic references: matrix product, softmax along rows
 * and columns, and layer norm as plain loops in double precision, straight
 * from their formulas, and the operations that run them in the frames of
 * ops_kernel.h. They define what the fast paths in ops.c and blas.c must
 * compute; the tests compare the two.
 */
#include "ops_ref.h"

#include <math.h>

#include "ops_kernel.h"

void ref_matmul(Mat *c, const Mat *a, int trans_a, const Mat *b, int trans_b)
{
    int k_len = trans_a ? a->rows : a->cols;
    for (int i = 0; i < c->rows; i++)
        for (int j = 0; j < c->cols; j++) {
            double sum = 0.0;
            for (int k = 0; k < k_len; k++) {
                float x = trans_a ? mat_get(a, k, i) : mat_get(a, i, k);
                float y = trans_b ? mat_get(b, j, k) : mat_get(b, k, j);
                sum += (double)x * (double)y;
            }
            mat_set(c, i, j, (float)sum);
        }
}

/* Softmax of the n values at a's (i0 + t*di, j0 + t*dj) into the same
 * cells of out; returns 1 when every value was -inf (out there is 0). */
static int ref_softmax_line(Mat *out, const Mat *a, int i0, int j0, int di, int dj, int n)
{
    double max = -INFINITY;
    int all_masked = 1;
    for (int t = 0; t < n; t++) {
        double x = mat_get(a, i0 + t * di, j0 + t * dj);
        all_masked &= x == -INFINITY;
        if (x > max)
            max = x;        /* NaN never compares greater: it propagates below */
    }
    if (all_masked) {
        for (int t = 0; t < n; t++)
            mat_set(out, i0 + t * di, j0 + t * dj, 0.0f);
        return 1;
    }
    double sum = 0.0;
    for (int t = 0; t < n; t++)
        sum += exp((double)mat_get(a, i0 + t * di, j0 + t * dj) - max);
    for (int t = 0; t < n; t++) {
        double e = exp((double)mat_get(a, i0 + t * di, j0 + t * dj) - max);
        mat_set(out, i0 + t * di, j0 + t * dj, (float)(e / sum));
    }
    return 0;
}

int ref_softmax_rows(Mat *out, const Mat *a, unsigned char *masked)
{
    int n_masked = 0;
    for (int i = 0; i < a->rows; i++)
        if (ref_softmax_line(out, a, i, 0, 0, 1, a->cols)) {
            masked[i] = 1;
            n_masked++;
        }
    return n_masked;
}

int ref_softmax_cols(Mat *out, const Mat *a, unsigned char *masked)
{
    int n_masked = 0;
    for (int j = 0; j < a->cols; j++)
        if (ref_softmax_line(out, a, 0, j, 1, 0, a->rows)) {
            masked[j] = 1;
            n_masked++;
        }
    return n_masked;
}

void ref_layernorm_rows(Mat *out, const Mat *a)
{
    for (int i = 0; i < a->rows; i++) {
        double mean = 0.0, var = 0.0;
        for (int j = 0; j < a->cols; j++)
            mean += mat_get(a, i, j);
        mean /= a->cols;
        for (int j = 0; j < a->cols; j++) {
            double d = mat_get(a, i, j) - mean;
            var += d * d;
        }
        var /= a->cols;
        for (int j = 0; j < a->cols; j++)
            mat_set(out, i, j, (float)((mat_get(a, i, j) - mean) / sqrt(var + OPS_LAYERNORM_EPS)));
    }
}

attn_status op_matmul_ref(Mat **out, const Mat *a, int trans_a, const Mat *b, int trans_b, AttnError *err)
{
    return ops_matmul_with(out, a, trans_a, b, trans_b, ref_matmul, err);
}

attn_status op_softmax_rows_ref(Mat **out, const Mat *a, AttnError *err)
{
    return ops_softmax_with(out, a, OP_SOFTMAX_ROWS, ref_softmax_rows, err);
}

attn_status op_softmax_cols_ref(Mat **out, const Mat *a, AttnError *err)
{
    return ops_softmax_with(out, a, OP_SOFTMAX_COLS, ref_softmax_cols, err);
}

attn_status op_layernorm_rows_ref(Mat **out, const Mat *a, AttnError *err)
{
    return ops_layernorm_with(out, a, ref_layernorm_rows, err);
}
