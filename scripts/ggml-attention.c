/*
 * ggml-attention.c - the multi-head attention `attn bench` times, computed by
 * ggml (the library of llama.cpp) on the CPU, for scripts/bench-vs-ggml.
 *
 * The same problem as `attn bench --n N --d D --heads H [--causal]`: X (n x d)
 * times four d x d weights around the attention of H heads of d/H, in float32;
 * ggml's graph is mul_mat for Q, K, V, ggml_flash_attn_ext (its online-softmax
 * kernel; a mask of 0 and -inf where causal), mul_mat for the output. It also
 * times ggml_flash_attn_ext alone on Q, K and V already made, so its kernel is
 * seen apart from its matrix products. Each graph runs once to warm up, then
 * REPS times on a thread pool made once; one JSON line with the medians.
 *
 * Not part of attn's build: scripts/bench-vs-ggml compiles it against the ggml
 * sources it is given. ggml's symbols may carry a prefix (llama.rn's copy
 * writes lm_ggml_); -DGGML_PREFIX_LM selects that spelling.
 *
 * usage: ggml-attention N D HEADS CAUSAL THREADS REPS
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ggml.h"
#include "ggml-cpu.h"

#ifdef GGML_PREFIX_LM
#define G(name) lm_ggml_##name
#define GC(name) LM_GGML_##name
#else
#define G(name) ggml_##name
#define GC(name) GGML_##name
#endif

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void fill(struct G(tensor) *t, unsigned *seed, float scale)
{
    float *p = t->data;
    for (long i = 0; i < (long)G(nelements)(t); i++) {
        *seed = *seed * 1664525u + 1013904223u;
        p[i] = scale * ((float)(*seed >> 8) / 16777216.0f - 0.5f);
    }
}

/* The median of reps runs of graph gf on pool, in ms (one warm-up first). */
static double time_graph(struct G(cgraph) *gf, struct G(threadpool) *pool, int threads, int reps, double *min_ms)
{
    struct G(cplan) plan = G(graph_plan)(gf, threads, pool);
    void *work = plan.work_size ? malloc(plan.work_size) : NULL;
    plan.work_data = work;
    double *t = malloc((size_t)reps * sizeof *t);
    if ((plan.work_size && !work) || !t) {
        fprintf(stderr, "ggml-attention: out of memory\n");
        exit(1);
    }
    G(graph_compute)(gf, &plan);
    for (int r = 0; r < reps; r++) {
        double t0 = now_ms();
        G(graph_compute)(gf, &plan);
        t[r] = now_ms() - t0;
    }
    qsort(t, (size_t)reps, sizeof *t, by_value);
    double median = reps % 2 ? t[reps / 2] : (t[reps / 2 - 1] + t[reps / 2]) / 2;
    *min_ms = t[0];
    free(t);
    free(work);
    return median;
}

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: ggml-attention N D HEADS CAUSAL THREADS REPS\n");
        return 2;
    }
    int n = atoi(argv[1]), d = atoi(argv[2]), heads = atoi(argv[3]), causal = atoi(argv[4]);
    int threads = atoi(argv[5]), reps = atoi(argv[6]);
    if (n < 1 || d < 1 || heads < 1 || d % heads || threads < 1 || reps < 1) {
        fprintf(stderr, "ggml-attention: bad sizes\n");
        return 2;
    }
    int dk = d / heads;
    /* every tensor and the graphs' intermediates in one context */
    size_t bytes = (size_t)4 * ((size_t)16 * n * d + (size_t)5 * d * d + (size_t)n * n) + ((size_t)64 << 20);
    struct G(init_params) ip = { bytes, NULL, false };
    struct G(context) *ctx = G(init)(ip);
    if (!ctx) {
        fprintf(stderr, "ggml-attention: no memory for %zu bytes\n", bytes);
        return 1;
    }
    unsigned seed = 1;
    struct G(tensor) *x = G(new_tensor_2d)(ctx, GC(TYPE_F32), d, n);
    struct G(tensor) *w[4];
    fill(x, &seed, 2.0f);
    for (int i = 0; i < 4; i++)
        fill(w[i] = G(new_tensor_2d)(ctx, GC(TYPE_F32), d, d), &seed, 2.0f / sqrtf((float)d));
    struct G(tensor) *mask = NULL;
    if (causal) {
        mask = G(new_tensor_2d)(ctx, GC(TYPE_F16), n, n);
        G(fp16_t) *m = mask->data;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                m[(size_t)i * n + j] = G(fp32_to_fp16)(j <= i ? 0.0f : -INFINITY);
    }
    float scale = 1.0f / sqrtf((float)dk);

    /* the whole multi-head attention */
    struct G(tensor) *p[3];
    for (int i = 0; i < 3; i++)
        p[i] = G(permute)(ctx, G(reshape_3d)(ctx, G(mul_mat)(ctx, w[i], x), dk, heads, n), 0, 2, 1, 3);
    struct G(tensor) *o = G(flash_attn_ext)(ctx, p[0], p[1], p[2], mask, scale, 0.0f, 0.0f);
    struct G(tensor) *y = G(mul_mat)(ctx, w[3], G(reshape_2d)(ctx, o, d, n));
    struct G(cgraph) *mha = G(new_graph)(ctx);
    G(build_forward_expand)(mha, y);

    /* the kernel alone, on Q, K and V made beforehand */
    struct G(tensor) *qkv[3];
    for (int i = 0; i < 3; i++)
        fill(qkv[i] = G(new_tensor_3d)(ctx, GC(TYPE_F32), dk, n, heads), &seed, 2.0f);
    struct G(tensor) *core = G(flash_attn_ext)(ctx, qkv[0], qkv[1], qkv[2], mask, scale, 0.0f, 0.0f);
    struct G(cgraph) *alone = G(new_graph)(ctx);
    G(build_forward_expand)(alone, core);

    struct G(threadpool_params) tp = G(threadpool_params_default)(threads);
    struct G(threadpool) *pool = G(threadpool_new)(&tp);
    double mha_min, core_min;
    double mha_ms = time_graph(mha, pool, threads, reps, &mha_min);
    double core_ms = time_graph(alone, pool, threads, reps, &core_min);
    /* the flops attn bench counts: 4 products of n x d x d, and Q K^T and
     * P V over the keys each query sees */
    double keys = causal ? (double)n * (n + 1) / 2 : (double)n * n;
    double core_flops = 4.0 * keys * d, flops = 8.0 * n * (double)d * d + core_flops;
    printf("{\"n\": %d, \"d\": %d, \"heads\": %d, \"causal\": %s, \"threads\": %d, \"reps\": %d, "
           "\"median_ms\": %.4f, \"min_ms\": %.4f, \"gflops\": %.2f, \"core_median_ms\": %.4f, \"core_min_ms\": %.4f, "
           "\"core_gflops\": %.2f}\n", n, d, heads, causal ? "true" : "false", threads, reps, mha_ms, mha_min,
           flops / mha_ms / 1e6, core_ms, core_min, core_flops / core_ms / 1e6);
    G(threadpool_free)(pool);
    G(free)(ctx);
    return 0;
}
