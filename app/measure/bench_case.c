/*
 * bench_case.c - one timed case of attention (measure.h): the seeded inputs,
 * the fused path, the naive path that materializes each head's n x n matrix
 * (bench_naive.c) and a same-run sgemm, timed as `attn bench` and the
 * screen's cost view both report them.
 *
 * Inputs come from the engine's generator, which draws what PyTorch 1.13
 * draws: after torch.manual_seed(seed), in this order, X = randn(n, d), then
 * Wq, Wk, Wv, Wo = randn(d, d) * (1 / sqrt(d)) each, then bq, bk, bv, bo =
 * randn(d) * 0.1 each; y = x @ W + b (torch's nn.Linear stores W^T).
 * scripts/bench-vs-torch makes the same tensors and compares.
 *
 * Each path runs once to warm up, then --reps times; medians and the
 * spread (min, max) of the wall clock are reported, and the median CPU time
 * of the process (all threads), which other programs on a busy machine
 * disturb much less. GFLOP/s count 8nd^2 + 4n^2 d (for a causal
 * fused run, the scores it computes); the naive path computes all n^2 and
 * is counted so.
 */
#include "measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "attention.h"
#include "bench_naive.h"
#include "blas.h"
#include "mat.h"
#include "rng.h"

#define NAIVE_MAX_BYTES (1UL << 30)

void bench_opts_default(BenchOpts *o)
{
    *o = (BenchOpts){ .n = 2048, .d = 512, .heads = 8, .reps = 5, .max_n = 1 << 20, .par = ATTN_PAR_POOL,
                      .slow_ms = 2000.0, .kernels = ATTN_KERNELS_AUTO, .isa = ATTN_ISA_SCALAR };
}

static const struct {
    const char *name;
    AttnKernels kernels;
    AttnIsa isa;
} kernel_names[] = {
    { "auto", ATTN_KERNELS_AUTO, ATTN_ISA_SCALAR },     { "blas", ATTN_KERNELS_BLAS, ATTN_ISA_SCALAR },
    { "avx512", ATTN_KERNELS_OWN, ATTN_ISA_AVX512 },    { "avx2", ATTN_KERNELS_OWN, ATTN_ISA_AVX2 },
    { "scalar", ATTN_KERNELS_OWN, ATTN_ISA_SCALAR },
};

int bench_kernels_of(const char *name, AttnKernels *kernels, AttnIsa *isa)
{
    for (size_t i = 0; i < sizeof kernel_names / sizeof *kernel_names; i++)
        if (strcmp(name, kernel_names[i].name) == 0) {
            *kernels = kernel_names[i].kernels;
            *isa = kernel_names[i].isa;
            return 0;
        }
    return -1;
}

const char *bench_kernels_name(AttnKernels kernels, AttnIsa isa)
{
    for (size_t i = 0; i < sizeof kernel_names / sizeof *kernel_names; i++)
        if (kernel_names[i].kernels == kernels && (kernels != ATTN_KERNELS_OWN || kernel_names[i].isa == isa))
            return kernel_names[i].name;
    return "auto";
}

void bench_inputs_free(BenchInputs *in)
{
    free(in->x);
    for (int i = 0; i < 8; i++)
        free(in->p[i]);
    memset(in, 0, sizeof *in);
}

int bench_inputs_make(BenchInputs *in, int n, int d, unsigned long seed)
{
    memset(in, 0, sizeof *in);
    Rng g;
    rng_seed(&g, seed);
    in->x = malloc((size_t)n * d * sizeof *in->x);
    for (int i = 0; i < 8; i++)
        in->p[i] = malloc((size_t)(i < 4 ? d : 1) * d * sizeof(float));
    for (int i = 0; i < 8; i++)
        if (!in->x || !in->p[i]) {
            bench_inputs_free(in);
            return -1;
        }
    rng_randn_fill(&g, in->x, (long)n * d);
    float wscale = (float)(1.0 / sqrt((double)d));
    for (int i = 0; i < 8; i++) {
        long len = (long)(i < 4 ? d : 1) * d;
        rng_randn_fill(&g, in->p[i], len);
        for (long j = 0; j < len; j++)
            in->p[i][j] *= i < 4 ? wscale : 0.1f;
    }
    in->w = (AttnWeights){ in->p[0], in->p[1], in->p[2], in->p[3], in->p[4], in->p[5], in->p[6], in->p[7] };
    return 0;
}

/* Start a timed run: *wall and *cpu now. */
static void start(double *wall, double *cpu)
{
    *wall = bench_now_ms();
    *cpu = bench_cpu_now_ms();
}

/* End timed run i (i < 0: the warm-up, not kept): wall clock into t[i],
 * CPU time into t[reps + i]. */
static void stop(double *t, int reps, int i, double wall, double cpu)
{
    if (i < 0)
        return;
    t[i] = bench_now_ms() - wall;
    t[reps + i] = bench_cpu_now_ms() - cpu;
}

/* Median, min and max of n wall times t[0..n-1], and the median CPU time of
 * t[n..2n-1] (both sorted in place). */
static Spread spread_of(double *t, int n)
{
    double median = bench_median(t, n);
    return (Spread){ median, t[0], t[n - 1], bench_median(t + n, n) };
}

static void count_bytes(size_t size, void *ctx)
{
    *(size_t *)ctx += size;
}

/* The naive path over reps; 0 with r->naive_skip set when it cannot run. */
static int time_naive(const BenchOpts *o, const BenchInputs *in, const AttnConfig *cfg, float *out, BenchResult *r,
                      double *t)
{
    if (o->fused_only) {
        snprintf(r->naive_skip, sizeof r->naive_skip, "--fused-only");
        return 0;
    }
    if (!bench_naive_fits(cfg)) {
        snprintf(r->naive_skip, sizeof r->naive_skip,
                 "one n x n matrix (%ld elements) is more than the engine's largest (%ld)", (long)cfg->n * cfg->n,
                 (long)MAT_MAX_ELEMS);
        return 0;
    }
    if (r->naive_bytes > NAIVE_MAX_BYTES) {
        snprintf(r->naive_skip, sizeof r->naive_skip, "it would hold %.2f GB (one head's n x n matrices), over the"
                 " 1 GB the bench allows", r->naive_bytes / 1e9);
        return 0;
    }
    AttnError err;
    BenchNaive *nv = bench_naive_new(in->x, &in->w, cfg, &err);
    for (int i = -1; nv && i < o->reps; i++) {
        double wall, cpu;
        start(&wall, &cpu);
        if (bench_naive_run(nv, out, &err) != ATTN_OK) {
            bench_naive_free(nv);
            nv = NULL;
            break;
        }
        stop(t, o->reps, i, wall, cpu);
    }
    if (!nv) {
        snprintf(r->naive_skip, sizeof r->naive_skip, "it failed: %s", err.msg);
        return 0;
    }
    bench_naive_free(nv);
    r->naive = spread_of(t, o->reps);
    return 1;
}

/* The phases of the pass being timed, told by the engine as each begins
 * and ends (attention_workspace_observe), on the one clock of phases. */
static void phase_tick(void *ctx, AttnPhase phase, int done)
{
    phase_clock_mark(ctx, (int)phase, done);
}

AttnConfig bench_config(const BenchOpts *o)
{
    return (AttnConfig){ o->n, o->d, o->heads, o->causal, 0, o->threads, o->par, o->kernels, o->isa };
}

int bench_case(const BenchOpts *o, const BenchInputs *in, BenchResult *r, float *out)
{
    memset(r, 0, sizeof *r);
    AttnConfig cfg = bench_config(o);
    AttnConfig plain = cfg;
    plain.causal = 0;
    size_t nd = (size_t)o->n * o->d;
    double *t = malloc((2 + ATTN_PHASES) * (size_t)o->reps * sizeof *t), *phase_t = t + 2 * (size_t)o->reps;
    float *naive_out = malloc(nd * sizeof *naive_out), *c = malloc(nd * sizeof *c);
    if (!t || !naive_out || !c) {
        free(t);
        free(naive_out);
        free(c);
        return -1;
    }
    r->flops = attention_flops(&cfg);
    r->naive_flops = attention_flops(&plain);
    r->sgemm_flops = 2.0 * o->n * o->d * o->d;
    r->naive_bytes = bench_naive_bytes(&cfg);
    r->threads = o->threads > 0 ? o->threads : attention_cores();

    /* the yardstick first: BLAS's threads, then idle during the fused path */
    for (int i = -1; i < o->reps; i++) {
        double wall, cpu;
        start(&wall, &cpu);
        attention_matmul(c, in->x, in->w.wq, o->n, o->d, o->d);
        stop(t, o->reps, i, wall, cpu);
    }
    r->sgemm = spread_of(t, o->reps);

    /* the machine's ceiling, on the same threads, in the same run: before
     * the fused path and after it (bench_fma_peak_again) */
    double peak_before = bench_fma_peak(r->threads, &r->isa);

    /* the warm-up run of the fused path counts its allocations */
    AttnError err;
    AttnWorkspace *ws = attention_workspace_new();
    attn_alloc_observe(count_bytes, &r->extra_bytes);
    attn_status st = ws ? attention_forward_in(ws, out, in->x, &in->w, &cfg, &err) : ATTN_E_NOMEM;
    attn_alloc_observe(NULL, NULL);
    /* the timed runs reuse the workspace, as a model's loop would, each
     * phase timed inside them */
    PhaseClock pc;
    if (ws)
        attention_workspace_observe(ws, phase_tick, &pc);
    for (int i = 0; st == ATTN_OK && i < o->reps; i++) {
        double wall, cpu;
        phase_clock_reset(&pc);
        start(&wall, &cpu);
        st = attention_forward_in(ws, out, in->x, &in->w, &cfg, &err);
        stop(t, o->reps, i, wall, cpu);
        for (int p = 0; p < ATTN_PHASES; p++)
            phase_t[(size_t)p * o->reps + i] = pc.ms[p];
    }
    attention_workspace_free(ws);
    if (!ws)
        snprintf(err.msg, sizeof err.msg, "no memory for the workspace");
    if (st != ATTN_OK) {
        fprintf(stderr, "attn bench: %s\n", err.msg);
        free(t);
        free(naive_out);
        free(c);
        return -1;
    }
    r->fused = spread_of(t, o->reps);
    for (int p = 0; p < ATTN_PHASES; p++) {
        r->phase_ms[p] = bench_median(phase_t + (size_t)p * o->reps, o->reps);
        r->phase_flops[p] = attention_phase_flops(&cfg, (AttnPhase)p);
    }
    r->peak_gflops = bench_fma_peak_again(peak_before, r->threads, &r->isa);

    r->naive_done = time_naive(o, in, &cfg, naive_out, r, t);
    r->max_abs_diff = NAN;
    if (r->naive_done) {
        r->max_abs_diff = 0.0;
        for (size_t i = 0; i < nd; i++) {
            double e = fabs((double)out[i] - (double)naive_out[i]);
            if (!(e <= r->max_abs_diff))
                r->max_abs_diff = e;
        }
    }
    free(t);
    free(naive_out);
    free(c);
    return 0;
}

