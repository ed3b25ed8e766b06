/*
 * attention_choose.c - which kernels a projection runs on: attn's own
 * (attention_gemm.c) or BLAS's, by measuring both on the shape, not by a
 * guess. A band of up to CHOOSE_ROWS rows of x (n, d) @ W (d, d), each way
 * CHOOSE_REPS times alternately, the best of each compared; the answer is
 * kept for the process per (instruction set, d, BLAS's threads), so only
 * the first forward pass of a shape pays for it (a few milliseconds).
 */
#include "attention_internal.h"

#include <pthread.h>
#include <time.h>

#include "blas.h"

#define CHOOSE_ROWS 192
#define CHOOSE_REPS 3
#define CHOOSE_KEPT 16

static struct {
    int isa, d, blas_threads, own;
} kept[CHOOSE_KEPT];
static int n_kept;
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int attention_choose_own(AttnIsa isa, int d, const float *x, int n, const float *wpack, const float *w,
                         float *scratch)
{
    int bt = blas_threads();
    pthread_mutex_lock(&kept_lock);
    for (int i = 0; i < n_kept; i++)
        if (kept[i].isa == (int)isa && kept[i].d == d && kept[i].blas_threads == bt) {
            int own = kept[i].own;
            pthread_mutex_unlock(&kept_lock);
            return own;
        }
    pthread_mutex_unlock(&kept_lock);
    int rows = n < CHOOSE_ROWS ? n : CHOOSE_ROWS;
    double best_own = 1e30, best_blas = 1e30;
    for (int r = 0; r < CHOOSE_REPS; r++) {
        double t0 = now_s();
        kg_gemm(isa, rows, d, d, 1.0f, x, d, wpack, d, 0.0f, scratch, d);
        double t1 = now_s();
        blas_sgemm(0, 0, rows, d, d, 1.0f, x, d, w, d, 0.0f, scratch, d);
        double t2 = now_s();
        if (t1 - t0 < best_own)
            best_own = t1 - t0;
        if (t2 - t1 < best_blas)
            best_blas = t2 - t1;
    }
    int own = best_own <= best_blas;
    pthread_mutex_lock(&kept_lock);
    if (n_kept < CHOOSE_KEPT) {
        kept[n_kept].isa = (int)isa;
        kept[n_kept].d = d;
        kept[n_kept].blas_threads = bt;
        kept[n_kept++].own = own;
    }
    pthread_mutex_unlock(&kept_lock);
    return own;
}
