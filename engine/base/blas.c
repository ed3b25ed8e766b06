/*
 * blas.c - the one caller of cblas: matrix products by cblas_sgemm.
 *
 * Row-major throughout. A transposed operand is passed as CblasTrans with
 * its stored leading dimension, so Q @ K^T multiplies K in place (as
 * ggml-blas does); a head taken as a view of a wider matrix goes in with
 * the parent's ld, also without a copy.
 */
#include "blas.h"

#include <cblas.h>

void blas_matmul(Mat *c, const Mat *a, int trans_a, const Mat *b, int trans_b)
{
    int m = trans_a ? a->cols : a->rows;    /* rows of op(a)            */
    int k = trans_a ? a->rows : a->cols;    /* inner dimension          */
    int n = trans_b ? b->rows : b->cols;    /* cols of op(b)            */
    blas_sgemm(trans_a, trans_b, m, n, k, 1.0f, a->data, a->ld, b->data, b->ld, 0.0f, c->data, c->ld);
}

void blas_sgemm(int trans_a, int trans_b, int m, int n, int k, float alpha, const float *a, int lda,
                const float *b, int ldb, float beta, float *c, int ldc)
{
    cblas_sgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans,
                m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

/* OpenBLAS can be told how many threads to use; another cblas cannot. */
int blas_threads(void)
{
#ifdef OPENBLAS_VERSION
    return openblas_get_num_threads();
#else
    return 1;
#endif
}

void blas_set_threads(int n)
{
#ifdef OPENBLAS_VERSION
    openblas_set_num_threads(n);
#else
    (void)n;
#endif
}
