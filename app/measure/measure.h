/*
 * measure.h - what attention costs on this machine, for `attn bench`
 * (app/cli/bench.c) and the screen's cost view (app/tui/tui_cost.c) alike:
 * the options, the seeded inputs, one timed case and its result
 * (bench_case.c), the sweep over n (sweep.c), the clock they read and the
 * phases of a timed pass, a model's forward's too (bench_clock.c).
 */
#ifndef ATTN_MEASURE_H
#define ATTN_MEASURE_H

#include <stddef.h>
#include <stdio.h>

#include "attention.h"
#include "json_write.h"
#include "model.h"

typedef struct {
    int n, d, heads, causal, reps, json, fused_only, sweep, standard;
    int phases;             /* --phases: each phase of the fused pass too    */
    int linear;             /* --linear: a model's linear layer, F32 and BF16 */
    unsigned long seed;
    int max_n;              /* --max-n: the sweep's largest n               */
    int threads;            /* hidden --threads: workers, 0 = the cores     */
    AttnParallel par;       /* hidden --par pool|blas                       */
    const char *dump;       /* hidden --dump FILE: the fused output, float32 */
    AttnKernels kernels;    /* --kernels: auto (as measured), BLAS's, or attn's */
    AttnIsa isa;            /* at this instruction set (ATTN_KERNELS_OWN)      */
    double slow_ms;         /* the sweep: a path this slow is not run at a larger n */
} BenchOpts;

/* x (n, d) and the eight parameters (Wq Wk Wv Wo (d, d), bq bk bv bo (d)). */
typedef struct {
    float *x, *p[8];
    AttnWeights w;
} BenchInputs;

/* The documented seeded inputs (bench.c's header); 0, or -1 when out of
 * memory. */
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
    double peak_gflops;         /* the FMA peak on those threads (peak.c)  */
    AttnIsa isa;                /* the vectors it was measured with        */
    /* each phase of the fused pass (attention.h's list), timed inside
     * every timed pass: the median over the passes, ms (-1: the pass has
     * no such phase), and its flops */
    double phase_ms[ATTN_PHASES], phase_flops[ATTN_PHASES];
} BenchResult;

/* The machine's FP32 FMA peak in GFLOP/s on `threads` threads, measured in
 * the widest vectors the CPU has (which: *isa, when not NULL). */
double bench_fma_peak(int threads, AttnIsa *isa);
/* The peak a timed case is reported against: probed once before its timed
 * passes (before) and again after them, the best of both. The peak is the
 * hardware's, not the moment's: one probe caught in a burst of the host's
 * other work read half of it, and the pass beside it "163% of the peak";
 * the best can only lower a share, never raise it. */
double bench_fma_peak_again(double before, int threads, AttnIsa *isa);

/* Time o's case on in (the fused output left in out (n, d)); 0, or -1
 * after printing why to stderr. */
int bench_case(const BenchOpts *o, const BenchInputs *in, BenchResult *r, float *out);

/* The fused path's configuration for o's case (what bench_case times and
 * attention_paths describes). */
AttnConfig bench_config(const BenchOpts *o);

double bench_now_ms(void);
/* The CPU time of the whole process (every thread), ms: beside the wall
 * clock, on a machine others share. */
double bench_cpu_now_ms(void);
/* The median of t[0..n-1], sorting t in place (t[0] the least, t[n-1] the most). */
double bench_median(double *t, int n);

/* ---- the phases of a timed pass (bench_clock.c) ---- */
#define BENCH_PHASES_MAX 8
/* A pass's phases as the engine marks them, begun and ended: each one's
 * ms in this pass (its marks summed), -1 for one it did not run. */
typedef struct {
    double t0, ms[BENCH_PHASES_MAX];
} PhaseClock;
void phase_clock_reset(PhaseClock *pc);
void phase_clock_mark(PhaseClock *pc, int phase, int done);
/* A phase for the table and the JSON: its name, its median ms over the
 * passes (-1: not run, left out), its flops (0: none counted). */
typedef struct {
    const char *name;
    double ms, flops;
} PhaseLine;
/* Each phase's line (ms, share of a pass of pass_ms, GFLOP/s and share of
 * the peak where it computes); the JSON's "phases" array of phase, ms,
 * gflops, peak_share. */
void bench_phases_print(FILE *f, const PhaseLine *ph, int n, double pass_ms, double peak_gflops);
void bench_phases_json(JsonWriter *w, const PhaseLine *ph, int n, double peak_gflops);
/* A model's forward over tokens[0..n): one pass to warm up, then reps,
 * each one's ms into ms[0..reps), and each phase's median over them into
 * phases[0..MODEL_PHASES) with its flops. */
attn_status bench_model_forward(const Model *m, const int *tokens, int n, int reps, double *ms, PhaseLine *phases,
                                AttnError *err);

/* The options of a plain `attn bench`: n 2048, d 512, 8 heads, 5 reps. */
void bench_opts_default(BenchOpts *o);

/* The kernels a name of --kernels stands for: auto, blas, avx512, avx2,
 * scalar: 0, or -1 for another name. bench_kernels_name is the other way. */
int bench_kernels_of(const char *name, AttnKernels *kernels, AttnIsa *isa);
const char *bench_kernels_name(AttnKernels kernels, AttnIsa isa);

/* `attn bench --sweep` (sweep.c): the points, then the table and the plot
 * on stdout; returns the exit status. */
int bench_sweep(const BenchOpts *o);

/* The sweep one point at a time, for the screen's cost view too: n = 64,
 * 128, ... until a fused run takes about two seconds (or o->max_n); the
 * naive path until it passes two seconds itself or would not fit. */
#define SWEEP_MAX_POINTS 20
typedef struct {
    double n[SWEEP_MAX_POINTS], fused[SWEEP_MAX_POINTS], naive[SWEEP_MAX_POINTS];   /* naive 0: not run */
    double fused_cpu[SWEEP_MAX_POINTS], naive_cpu[SWEEP_MAX_POINTS];               /* CPU time, ms     */
    size_t extra[SWEEP_MAX_POINTS], nn[SWEEP_MAX_POINTS];
    int count;
    long next_n;                /* the n the next point will time (0: not begun) */
    double last_fused, last_naive;
} Sweep;

/* Run the next point into s: 0 with *ran 1 when one ran, or 0 when the
 * sweep is done; -1 when a case failed (why in err). */
int sweep_next(const BenchOpts *o, Sweep *s, int *ran, char *err, size_t size);
/* The slopes, the memory available and the naive path's wall, then the
 * log-log plot of width x height cells and what it shows, as text into f
 * (what `attn bench --sweep` prints after its table). */
void sweep_report(FILE *f, const BenchOpts *o, const Sweep *s, int width, int height, int utf8);

/* `attn bench --linear` (bench_linear.c): x (n, d) @ W (d, 3d) + b on
 * attn's kernels, W in float32 and in BF16, each stored both ways, against
 * the same run's FMA peak; prints, returns the exit status. */
int bench_linear(const BenchOpts *o);

/* Memory this machine has available now (bytes): MemAvailable, else the
 * free pages; what the sweep plans by and a case is refused against. */
double bench_available_bytes(void);

#endif
