/*
 * peak.c - the machine's FP32 FMA peak, measured (measure.h): every thread
 * runs chains of independent multiply-adds in the widest vectors the CPU
 * has (attention_isa: AVX-512, else AVX2, else scalar), enough chains that
 * the FMA units never wait for a result, for about PEAK_MS; the best of
 * PEAK_TRIES runs, all threads started together and timed by the wall
 * clock. What `attn bench` reports the fused path's rate against.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "clock.h"
#include "measure.h"

#define PEAK_TRIES 3
#define PEAK_ITERS 4000000L     /* x 24 chains x 16 lanes x 2: 3 GFLOP a thread (AVX-512) */
#define CHAINS 24

static volatile float sink;

static void fma_scalar(long iters)
{
    float c[CHAINS] = { 0 };
    for (long i = 0; i < iters; i++)
        for (int k = 0; k < CHAINS; k++)
            c[k] = c[k] * 0.9999999f + 1e-7f;
    float s = 0;
    for (int k = 0; k < CHAINS; k++)
        s += c[k];
    sink = s;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* Each chain a named variable, so every one stays in a register (an array
 * of vectors went through memory: the probe timed store forwarding), and
 * each from its own start (chains alike were merged into one). */
#define FMA512(c) c = _mm512_fmadd_ps(c, m, a)
#define FMA256(c) c = _mm256_fmadd_ps(c, m, a)

__attribute__((target("avx512f"))) static void fma_avx512(long iters)
{
    __m512 m = _mm512_set1_ps(0.9999999f), a = _mm512_set1_ps(1e-7f);
#define C512(k) c##k = _mm512_set1_ps((float)(k) * 1e-3f)
    __m512 C512(0), C512(1), C512(2), C512(3), C512(4), C512(5), C512(6), C512(7), C512(8), C512(9), C512(10);
    __m512 C512(11), C512(12), C512(13), C512(14), C512(15), C512(16), C512(17), C512(18), C512(19), C512(20);
    __m512 C512(21), C512(22), C512(23);
    for (long i = 0; i < iters; i++) {
        FMA512(c0); FMA512(c1); FMA512(c2); FMA512(c3); FMA512(c4); FMA512(c5);
        FMA512(c6); FMA512(c7); FMA512(c8); FMA512(c9); FMA512(c10); FMA512(c11);
        FMA512(c12); FMA512(c13); FMA512(c14); FMA512(c15); FMA512(c16); FMA512(c17);
        FMA512(c18); FMA512(c19); FMA512(c20); FMA512(c21); FMA512(c22); FMA512(c23);
    }
    __m512 s = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c0, c1), _mm512_add_ps(c2, c3)),
                             _mm512_add_ps(_mm512_add_ps(c4, c5), _mm512_add_ps(c6, c7)));
    s = _mm512_add_ps(s, _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c8, c9), _mm512_add_ps(c10, c11)),
                                       _mm512_add_ps(_mm512_add_ps(c12, c13), _mm512_add_ps(c14, c15))));
    s = _mm512_add_ps(s, _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c16, c17), _mm512_add_ps(c18, c19)),
                                       _mm512_add_ps(_mm512_add_ps(c20, c21), _mm512_add_ps(c22, c23))));
    sink = _mm512_reduce_add_ps(s);
}

__attribute__((target("avx2,fma"))) static void fma_avx2(long iters)
{
    /* 12 chains (AVX2 has 16 registers), twice the iterations: as many FMAs */
    __m256 m = _mm256_set1_ps(0.9999999f), a = _mm256_set1_ps(1e-7f);
#define C256(k) c##k = _mm256_set1_ps((float)(k) * 1e-3f)
    __m256 C256(0), C256(1), C256(2), C256(3), C256(4), C256(5), C256(6), C256(7), C256(8), C256(9), C256(10);
    __m256 C256(11);
    for (long i = 0; i < 2 * iters; i++) {
        FMA256(c0); FMA256(c1); FMA256(c2); FMA256(c3); FMA256(c4); FMA256(c5);
        FMA256(c6); FMA256(c7); FMA256(c8); FMA256(c9); FMA256(c10); FMA256(c11);
    }
    __m256 s = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0, c1), _mm256_add_ps(c2, c3)),
                             _mm256_add_ps(_mm256_add_ps(c4, c5), _mm256_add_ps(c6, c7)));
    s = _mm256_add_ps(s, _mm256_add_ps(_mm256_add_ps(c8, c9), _mm256_add_ps(c10, c11)));
    float t[8];
    _mm256_storeu_ps(t, s);
    sink = t[0] + t[7];
}
#endif

/* The flops one run of iters does at isa. */
static double flops_of(AttnIsa isa, long iters)
{
    /* AVX2 runs twice the iterations of 12 chains: the same count of FMAs */
    int lanes = isa == ATTN_ISA_AVX512 ? 16 : isa == ATTN_ISA_AVX2 ? 8 : 1;
    return 2.0 * CHAINS * lanes * (double)iters;
}

typedef struct {
    AttnIsa isa;
    long iters;
    atomic_int *ready;
    int threads;
} Probe;

static void *probe_run(void *arg)
{
    Probe *p = arg;
    atomic_fetch_add(p->ready, 1);
    while (atomic_load(p->ready) < p->threads)
        ;   /* start together */
#if defined(__x86_64__) && defined(__GNUC__)
    if (p->isa == ATTN_ISA_AVX512)
        fma_avx512(p->iters);
    else if (p->isa == ATTN_ISA_AVX2)
        fma_avx2(p->iters);
    else
#endif
        fma_scalar(p->iters);
    return NULL;
}

double bench_fma_peak(int threads, AttnIsa *isa_out)
{
    AttnIsa isa = attention_isa();
    long iters = isa == ATTN_ISA_SCALAR ? PEAK_ITERS / 8 : PEAK_ITERS;
    if (threads < 1)
        threads = 1;
    if (threads > 64)
        threads = 64;
    double best = 0.0;
    for (int t = 0; t < PEAK_TRIES; t++) {
        atomic_int ready = 0;
        Probe p = { isa, iters, &ready, threads };
        pthread_t tid[64];
        int started = 0;
        double t0 = clock_seconds();
        for (int k = 1; k < threads; k++)
            if (pthread_create(&tid[k], NULL, probe_run, &p) == 0)
                started++;
        p.threads = started + 1;
        probe_run(&p);
        for (int k = 1; k <= started; k++)
            pthread_join(tid[k], NULL);
        double ms = (clock_seconds() - t0) * 1e3;
        double g = ms > 0 ? flops_of(isa, iters) * (started + 1) / (ms * 1e6) : 0.0;
        if (g > best)
            best = g;
    }
    if (isa_out)
        *isa_out = isa;
    return best;
}

double bench_fma_peak_again(double before, int threads, AttnIsa *isa_out)
{
    double after = bench_fma_peak(threads, isa_out);
    return after > before ? after : before;
}
