/*
 * ops_ref.h - plain-loop references for the engine's computing kernels, and
 * the shared frames that wrap a kernel with checks, labels and provenance.
 *
 * The references are the algorithm written as in the textbook, in double
 * precision, with no BLAS and no cleverness: tests run the fast path and
 * the reference on the same inputs and compare. A frame (ops_*_with) does
 * everything an operation does except the arithmetic, so the fast op and
 * its reference differ only in the kernel. Engine-internal: app/ code calls
 * ops.h.
 */
#ifndef ATTN_OPS_REF_H
#define ATTN_OPS_REF_H

#include "mat.h"

/* c = op(a) @ op(b) into an allocated c of the right shape. */
typedef void (*MatmulKernel)(Mat *c, const Mat *a, int trans_a, const Mat *b, int trans_b);
/* Softmax of a into out (same shape) along rows or columns; sets masked[line]
 * for each line of a that is all -inf (masked holds max(rows, cols) zeros
 * on entry) and returns how many there were. */
typedef int (*SoftmaxKernel)(Mat *out, const Mat *a, unsigned char *masked);
/* Layer norm of each row of a into out (same shape). */
typedef void (*RowKernel)(Mat *out, const Mat *a);

/* The frames (in ops.c): the contract of ops.h around the given kernel. */
attn_status ops_matmul_with(Mat **out, const Mat *a, int trans_a, const Mat *b, int trans_b,
                            MatmulKernel kernel, AttnError *err);
attn_status ops_softmax_with(Mat **out, const Mat *a, MatOp op, SoftmaxKernel kernel, AttnError *err);
attn_status ops_layernorm_with(Mat **out, const Mat *a, RowKernel kernel, AttnError *err);

/* The reference kernels (in ops_ref.c). */
void ref_matmul(Mat *c, const Mat *a, int trans_a, const Mat *b, int trans_b);
int ref_softmax_rows(Mat *out, const Mat *a, unsigned char *masked);
int ref_softmax_cols(Mat *out, const Mat *a, unsigned char *masked);
void ref_layernorm_rows(Mat *out, const Mat *a);

/* The reference operations: the contract of the op_ function of the same
 * name in ops.h (op_matmul_ref is declared there), computed by the
 * reference kernels. */
attn_status op_softmax_rows_ref(Mat **out, const Mat *a, AttnError *err);
attn_status op_softmax_cols_ref(Mat **out, const Mat *a, AttnError *err);
attn_status op_layernorm_rows_ref(Mat **out, const Mat *a, AttnError *err);

/* The layer norm epsilon (torch.nn.LayerNorm's default). */
#define OPS_LAYERNORM_EPS 1e-5

#endif
