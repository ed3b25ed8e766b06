/*
 * bench_internal.h - what bench.c shares with the sweep (bench_sweep.c):
 * the options, the seeded inputs, one timed case and its result.
 */
#ifndef ATTN_BENCH_INTERNAL_H
#define ATTN_BENCH_INTERNAL_H

#include <stddef.h>

#include "attention.h"

typedef struct {
    int n, d, heads, causal, reps, json, fused_only, sweep, standard;
    unsigned long seed;
    int max_n;              /* --max-n: the sweep's largest n               */
    int threads;            /* hidden --threads: workers, 0 = the cores     */
    AttnParallel par;       /* hidden --par pool|blas                       */
    const char *dump;       /* hidden --dump FILE: the fused output, float32 */
} BenchOpts;

/* x (n, d) and the eight parameters (Wq Wk Wv Wo (d, d), bq bk bv bo (d)). */
typedef struct {
    float *x, *p[8];
    AttnWeights w;
} BenchInputs;

/* The documented seeded inputs (bench.c's header); 0 when out of memory. */
int bench_inputs_make(BenchInputs *in, int n, int d, unsigned long seed);
void bench_inputs_free(BenchInputs *in);

typedef struct {
    double median, min, max;    /* wall clock, ms                               */
    double cpu;                 /* median CPU time of the process, all threads  */
} Spread;

typedef struct {
    Spread fused, naive, sgemm;
    int naive_done;
    char naive_skip[320];       /* why the naive path did not run          */
    double flops, naive_flops, sgemm_flops;
    size_t extra_bytes;         /* what one fused run allocated            */
    size_t naive_bytes;         /* what the naive path holds at its peak   */
    double max_abs_diff;        /* fused against naive; NAN when not run   */
    int threads;
} BenchResult;

/* Time o's case on in (the fused output left in out (n, d)); 0 after
 * printing why to stderr. */
int bench_case(const BenchOpts *o, const BenchInputs *in, BenchResult *r, float *out);

double bench_now_ms(void);

/* `attn bench --sweep` (bench_sweep.c); returns the exit status. */
int bench_sweep(const BenchOpts *o);

#endif
