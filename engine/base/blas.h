/*
 * blas.h - the engine's one door to BLAS (internal to engine/). Only
 * blas.c includes <cblas.h>; everything else multiplies through here.
 */
#ifndef ATTN_BLAS_H
#define ATTN_BLAS_H

#include "mat.h"

/* c = op(a) @ op(b) by one cblas_sgemm, row-major, where op transposes when
 * trans_* is set (CblasTrans: no copy of the operand). The leading
 * dimensions of views are honoured for a, b and c. The caller has checked
 * the shapes: c is (rows of op(a)) x (cols of op(b)) and the inner
 * dimensions agree. c's values are overwritten. */
void blas_matmul(Mat *c, const Mat *a, int trans_a, const Mat *b, int trans_b);

/* The raw product for kernels on float buffers (attention.c):
 * c (m x n, ldc) = alpha * op(a) @ op(b) + beta * c, row-major, op(a) m x k,
 * op(b) k x n; trans_* as above (no copy of a transposed operand).
 * BLAS itself runs on one thread: a large product is split over attn's
 * pool (pool.h) when called outside it, and runs whole inside an item. */
void blas_sgemm(int trans_a, int trans_b, int m, int n, int k, float alpha, const float *a, int lda,
                const float *b, int ldb, float beta, float *c, int ldc);

#endif
