/*
 * blas.c - the one caller of cblas: matrix products by cblas_sgemm (one
 * row by cblas_sgemv).
 *
 * Row-major throughout. A transposed operand is passed as CblasTrans with
 * its stored leading dimension, so Q @ K^T multiplies K in place (as
 * ggml-blas does); a head taken as a view of a wider matrix goes in with
 * the parent's ld, also without a copy.
 */
#include "blas.h"

#include <cblas.h>
#include <pthread.h>

#include "pool.h"

void blas_matmul(Mat *c, const Mat *a, int trans_a, const Mat *b, int trans_b)
{
    int m = trans_a ? a->cols : a->rows;    /* rows of op(a)            */
    int k = trans_a ? a->rows : a->cols;    /* inner dimension          */
    int n = trans_b ? b->rows : b->cols;    /* cols of op(b)            */
    blas_sgemm(trans_a, trans_b, m, n, k, 1.0f, a->data, a->ld, b->data, b->ld, 0.0f, c->data, c->ld);
}

/* BLAS's own threads are never woken: attn's pool is the one set of
 * threads (pool.h). Set before the first product. */
static pthread_once_t single_once = PTHREAD_ONCE_INIT;

static void blas_single(void)
{
#ifdef OPENBLAS_VERSION
    openblas_set_num_threads(1);
#endif
}

static void sgemm_one(int trans_a, int trans_b, int m, int n, int k, float alpha, const float *a, int lda,
                      const float *b, int ldb, float beta, float *c, int ldc)
{
    if (m == 1 && !trans_a) {
        /* one row is a matrix-vector product: sgemm would copy all of b
         * into its panels first (a model's weights, for each generated
         * token), sgemv reads it once where it lies */
        cblas_sgemv(CblasRowMajor, trans_b ? CblasNoTrans : CblasTrans, trans_b ? n : k, trans_b ? k : n, alpha, b,
                    ldb, a, 1, beta, c, 1);
        return;
    }
    cblas_sgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans,
                m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

/* A product split over the pool: bands of C's rows (or of its columns,
 * when it has too few rows), each one single-threaded sgemm. Every number
 * of C is still one sum over the whole depth, as BLAS alone makes it. */
typedef struct {
    int trans_a, trans_b, m, n, k, lda, ldb, ldc, by_rows, step;
    float alpha, beta;
    const float *a, *b;
    float *c;
} Split;

static void split_part(void *ctx, int item, int worker)
{
    (void)worker;
    const Split *s = ctx;
    int lo = item * s->step, len = (s->by_rows ? s->m : s->n) - lo;
    if (len > s->step)
        len = s->step;
    if (s->by_rows)     /* rows lo.. of op(a) and of c */
        sgemm_one(s->trans_a, s->trans_b, len, s->n, s->k, s->alpha,
                  s->a + (s->trans_a ? (size_t)lo : (size_t)lo * s->lda), s->lda, s->b, s->ldb, s->beta,
                  s->c + (size_t)lo * s->ldc, s->ldc);
    else                /* columns lo.. of op(b) and of c */
        sgemm_one(s->trans_a, s->trans_b, s->m, len, s->k, s->alpha, s->a, s->lda,
                  s->b + (s->trans_b ? (size_t)lo * s->ldb : (size_t)lo), s->ldb, s->beta, s->c + lo, s->ldc);
}

/* Below this many multiply-adds a product is not worth waking the pool
 * for (about 40 microseconds of one core's work). */
#define SPLIT_MIN_MACS (1 << 22)
#define SPLIT_ALIGN 16

void blas_sgemm(int trans_a, int trans_b, int m, int n, int k, float alpha, const float *a, int lda,
                const float *b, int ldb, float beta, float *c, int ldc)
{
    pthread_once(&single_once, blas_single);
    int threads;
    if ((double)m * n * k < SPLIT_MIN_MACS || pool_inside() || (threads = pool_threads()) < 2) {
        sgemm_one(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        return;
    }
    Split s = { trans_a, trans_b, m, n, k, lda, ldb, ldc, m >= n || m >= 4 * SPLIT_ALIGN * threads, 0,
                alpha, beta, a, b, c };
    int len = s.by_rows ? m : n, parts = 2 * threads;
    s.step = (len + parts - 1) / parts;
    s.step = (s.step + SPLIT_ALIGN - 1) / SPLIT_ALIGN * SPLIT_ALIGN;
    pool_run(threads, split_part, &s, (len + s.step - 1) / s.step);
}
