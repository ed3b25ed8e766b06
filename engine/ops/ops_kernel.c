/*
 * ops_kernel.c - the frames of ops_kernel.h: everything an operation does
 * but the arithmetic (refusing a missing operand, checking the shape
 * rule, making the result, labels, provenance), around the kernel it is
 * given. The fast operations (ops.c) and their references (ops_ref.c) run
 * their kernels in the same frame, so they differ in the kernel only.
 */
#include "ops_kernel.h"

#include <stdio.h>
#include <stdlib.h>

#include "alloc.h"

attn_status ops_matmul_with(Mat **out, const Mat *a, int trans_a, const Mat *b, int trans_b,
                            MatmulKernel kernel, AttnError *err)
{
    BEGIN(out, err);
    if (!out || !a || !b)
        return missing(err, OP_MATMUL);
    char an[MAT_NAME_MAX + 4], bn[MAT_NAME_MAX + 4];
    snprintf(an, sizeof an, "%s%s", who(a, "the left operand"), a->name[0] && trans_a ? "^T" : "");
    snprintf(bn, sizeof bn, "%s%s", who(b, "the right operand"), b->name[0] && trans_b ? "^T" : "");
    OpShape x[2] = { { trans_a ? a->cols : a->rows, trans_a ? a->rows : a->cols, an },
                     { trans_b ? b->cols : b->rows, trans_b ? b->rows : b->cols, bn } };
    Mat *c = fitted_new(OP_MATMUL, x, 2, err);
    if (!c)
        return err->code;
    kernel(c, a, trans_a, b, trans_b);
    mat_set_row_labels(c, trans_a ? a->col_labels : a->row_labels);
    mat_set_col_labels(c, trans_b ? b->row_labels : b->col_labels);
    mat_set_prov(c, OP_MATMUL, a, b);
    c->prov.trans_a = trans_a != 0;
    c->prov.trans_b = trans_b != 0;
    *out = c;
    return ATTN_OK;
}

attn_status ops_softmax_with(Mat **out, const Mat *a, MatOp op, SoftmaxKernel kernel, AttnError *err)
{
    BEGIN(out, err);
    if (!out || !a)
        return missing(err, op);
    Mat *m = new_like(a, err);
    if (!m)
        return err->code;
    unsigned char *masked = attn_calloc((size_t)mat_masked_len(m), 1);
    if (!masked) {
        mat_free(m);
        return attn_fail(err, ATTN_E_NOMEM, "out of memory for %s of a %dx%d matrix",
                         mat_op_name(op), a->rows, a->cols);
    }
    int n_masked = kernel(m, a, masked);
    if (n_masked > 0) {
        m->masked = masked;
        m->n_masked = n_masked;
        m->masked_cols = op == OP_SOFTMAX_COLS;
    } else {
        free(masked);
    }
    mat_set_prov(m, op, a, NULL);
    *out = m;
    return ATTN_OK;
}

attn_status ops_layernorm_with(Mat **out, const Mat *a, RowKernel kernel, AttnError *err)
{
    BEGIN(out, err);
    if (!out || !a)
        return missing(err, OP_LAYERNORM_ROWS);
    Mat *m = new_like(a, err);
    if (!m)
        return err->code;
    kernel(m, a);
    mat_set_prov(m, OP_LAYERNORM_ROWS, a, NULL);
    *out = m;
    return ATTN_OK;
}
