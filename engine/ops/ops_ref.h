/*
 * ops_ref.h - plain-loop references for the engine's computing kernels.
 *
 * The references are the algorithm written as in the textbook, in double
 * precision, with no BLAS and no cleverness: tests run the fast path and
 * the reference on the same inputs and compare. A reference operation
 * runs its kernel in the frame the fast one runs in (ops_kernel.h), so
 * the two differ only in the kernel; neither calls the other.
 * Engine-internal: app/ code calls ops.h.
 */
#ifndef ATTN_OPS_REF_H
#define ATTN_OPS_REF_H

#include "mat.h"

/* The reference kernels (in ops_ref.c): of the signatures of ops_kernel.h. */
void ref_matmul(Mat *c, const Mat *a, int trans_a, const Mat *b, int trans_b);
int ref_softmax_rows(Mat *out, const Mat *a, unsigned char *masked);
int ref_softmax_cols(Mat *out, const Mat *a, unsigned char *masked);
void ref_layernorm_rows(Mat *out, const Mat *a);

/* The reference operations: the contract of the op_ function of the same
 * name in ops.h, computed by the reference kernels. */
attn_status op_matmul_ref(Mat **out, const Mat *a, int trans_a, const Mat *b, int trans_b, AttnError *err);
attn_status op_softmax_rows_ref(Mat **out, const Mat *a, AttnError *err);
attn_status op_softmax_cols_ref(Mat **out, const Mat *a, AttnError *err);
attn_status op_layernorm_rows_ref(Mat **out, const Mat *a, AttnError *err);

#endif
