/*
 * ops_reduce.c - the reductions of ops.h: rowmax and rowsum (R x 1),
 * colmax and colsum (1 x C), as online softmax and the softmax's gradient
 * use them. Sums are in double, rounded once; the largest of a line of
 * only -inf is -inf. The kept axis keeps its labels.
 */
#include <math.h>

#include "ops.h"
#include "ops_kernel.h"

static attn_status reduce(Mat **out, const Mat *a, MatOp op, AttnError *err)
{
    BEGIN(out, err);
    if (!out || !a)
        return missing(err, op);
    int by_rows = op == OP_ROWMAX || op == OP_ROWSUM, is_max = op == OP_ROWMAX || op == OP_COLMAX;
    OpShape x = { a->rows, a->cols, who(a, "the matrix") };
    Mat *m = fitted_new(op, &x, 1, err);
    if (!m)
        return err->code;
    int lines = by_rows ? a->rows : a->cols, len = by_rows ? a->cols : a->rows;
    for (int k = 0; k < lines; k++) {
        double acc = is_max ? -INFINITY : 0.0;
        for (int t = 0; t < len; t++) {
            double v = by_rows ? mat_get(a, k, t) : mat_get(a, t, k);
            if (isnan(v))
                acc = NAN;
            else if (is_max)
                acc = v > acc ? v : acc;
            else
                acc += v;
        }
        mat_set(m, by_rows ? k : 0, by_rows ? 0 : k, (float)acc);
    }
    if (by_rows)
        mat_set_row_labels(m, a->row_labels);
    else
        mat_set_col_labels(m, a->col_labels);
    mat_set_prov(m, op, a, NULL);
    *out = m;
    return ATTN_OK;
}

attn_status op_rowmax(Mat **out, const Mat *a, AttnError *err) { return reduce(out, a, OP_ROWMAX, err); }
attn_status op_rowsum(Mat **out, const Mat *a, AttnError *err) { return reduce(out, a, OP_ROWSUM, err); }
attn_status op_colmax(Mat **out, const Mat *a, AttnError *err) { return reduce(out, a, OP_COLMAX, err); }
attn_status op_colsum(Mat **out, const Mat *a, AttnError *err) { return reduce(out, a, OP_COLSUM, err); }
