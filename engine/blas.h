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

#endif
