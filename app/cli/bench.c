/*
 * bench.c - `attn bench` (bench.h): read the options, run the cases of
 * app/measure (bench_case.c says what is timed and how) and print what they
 * cost as text or JSON.
 */
#include "bench.h"
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "attention.h"
#include "escape.h"
#include "filewrite.h"
#include "json_write.h"
#include "measure.h"
#include "bench_naive.h"
#include "lesson.h"
#include "mat.h"
#include "rng.h"
#include "numfmt.h"


static int usage_error(const char *fmt, const char *arg)
{
    char shown[512];
    fputs("attn bench: ", stderr);
    fprintf(stderr, fmt, term_escape(arg, shown, sizeof shown));   /* an argument may hold anything */
    fputs("\nusage: attn bench [--n N] [--d D] [--heads H] [--causal] [--reps R] [--json]\n"
          "                  [--kernels auto|blas|avx512|avx2|scalar] [--phases]\n"
          "                  [--fused-only] [--standard | --sweep [--max-n N] | --linear]\n"
          "       attn bench --model PATH|gpt2-small|llama-small [--n N] [--reps R] [--generate N]\n"
          "                  [--dtype f32|bf16] [--json]\n"
          "       attn bench --train [--steps N] [--json]\n"
          "       attn bench --tokenizer PATH [--text FILE] [--reps R] [--json]\n", stderr);
    return 2;
}

/* *out = argv[i + 1] as a whole number in [lo, hi]: 0, or -1 and a message. */
static int parse_int(int argc, char **argv, int i, long lo, long hi, long *out)
{
    if (i + 1 >= argc) {
        usage_error("%s needs a value", argv[i]);
        return -1;
    }
    const char *s = argv[i + 1];
    long v;
    if (num_parse_whole(s, lo, hi, &v) != 0) {
        char msg[160];
        snprintf(msg, sizeof msg, "%s needs a whole number from %ld to %ld, not '%%s'", argv[i], lo, hi);
        usage_error(msg, s);
        return -1;
    }
    *out = v;
    return 0;
}

/* The options of `attn bench`: each with where it goes in BenchOpts, its
 * range, and whether it picks the case (then not with --standard). --par
 * and --threads, --dump are kept out of the manual: tools for measuring. */
typedef enum { BOPT_INT, BOPT_SEED, BOPT_FLAG, BOPT_PAR, BOPT_PATH, BOPT_KERNELS } BenchOptKind;
typedef struct {
    const char *name;
    BenchOptKind kind;
    size_t field;           /* offsetof(BenchOpts, ...)                   */
    long lo, hi;            /* BOPT_INT, BOPT_SEED                        */
    int picks_case;
} BenchOption;

static const BenchOption bench_options[] = {
    { "--n", BOPT_INT, offsetof(BenchOpts, n), 1, 1L << 20, 1 },
    { "--d", BOPT_INT, offsetof(BenchOpts, d), 1, 1L << 14, 0 },
    { "--heads", BOPT_INT, offsetof(BenchOpts, heads), 1, 64, 0 },
    { "--reps", BOPT_INT, offsetof(BenchOpts, reps), 1, 1000, 0 },
    { "--threads", BOPT_INT, offsetof(BenchOpts, threads), 0, 64, 0 },
    { "--max-n", BOPT_INT, offsetof(BenchOpts, max_n), 1, 1L << 20, 1 },
    { "--seed", BOPT_SEED, offsetof(BenchOpts, seed), 0, LONG_MAX, 0 },
    { "--causal", BOPT_FLAG, offsetof(BenchOpts, causal), 0, 0, 1 },
    { "--json", BOPT_FLAG, offsetof(BenchOpts, json), 0, 0, 0 },
    { "--fused-only", BOPT_FLAG, offsetof(BenchOpts, fused_only), 0, 0, 1 },
    { "--sweep", BOPT_FLAG, offsetof(BenchOpts, sweep), 0, 0, 0 },
    { "--standard", BOPT_FLAG, offsetof(BenchOpts, standard), 0, 0, 0 },
    { "--par", BOPT_PAR, offsetof(BenchOpts, par), 0, 0, 0 },
    { "--dump", BOPT_PATH, offsetof(BenchOpts, dump), 0, 0, 1 },
    { "--kernels", BOPT_KERNELS, offsetof(BenchOpts, kernels), 0, 0, 0 },
    { "--phases", BOPT_FLAG, offsetof(BenchOpts, phases), 0, 0, 0 },
    { "--linear", BOPT_FLAG, offsetof(BenchOpts, linear), 0, 0, 0 },
};

/* Options into o: 0, or -1 after printing a usage error. */
static int parse_options(int argc, char **argv, BenchOpts *o)
{
    bench_opts_default(o);
    const char *own_case = NULL;    /* an option that picks the case: not with --standard */
    for (int i = 1; i < argc; i++) {
        const BenchOption *opt = NULL;
        for (size_t k = 0; k < sizeof bench_options / sizeof *bench_options && !opt; k++)
            if (strcmp(argv[i], bench_options[k].name) == 0)
                opt = &bench_options[k];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        /* --par takes pool or blas, --dump a file; else they are not options */
        if (!opt || (opt->kind == BOPT_PAR && !(next && (strcmp(next, "pool") == 0 || strcmp(next, "blas") == 0)))
            || (opt->kind == BOPT_PATH && !next))
            return usage_error("unknown option '%s'", argv[i]), -1;
        if (opt->picks_case)
            own_case = opt->name;
        char *field = (char *)o + opt->field;
        long v;
        switch (opt->kind) {
        case BOPT_INT:
            if (parse_int(argc, argv, i++, opt->lo, opt->hi, &v) != 0)
                return -1;
            *(int *)field = (int)v;
            break;
        case BOPT_SEED:
            if (parse_int(argc, argv, i++, opt->lo, opt->hi, &v) != 0)
                return -1;
            *(unsigned long *)field = (unsigned long)v;
            break;
        case BOPT_FLAG:
            *(int *)field = 1;
            break;
        case BOPT_PAR:
            *(AttnParallel *)field = strcmp(argv[++i], "pool") == 0 ? ATTN_PAR_POOL : ATTN_PAR_BLAS;
            break;
        case BOPT_PATH:
            *(const char **)field = argv[++i];
            break;
        case BOPT_KERNELS:
            if (!next || bench_kernels_of(next, &o->kernels, &o->isa) != 0)
                return usage_error("--kernels takes auto, blas, avx512, avx2 or scalar%s", ""), -1;
            i++;
            break;
        }
    }
    if (o->standard && own_case)
        return usage_error("--standard runs its own cases (n = 512 to 65536, plain and causal); %s does not "
                           "go with it", own_case), -1;
    if (o->standard && o->sweep)
        return usage_error("--standard and --sweep do not go together%s", ""), -1;
    if (o->d % o->heads != 0) {
        char msg[96];
        snprintf(msg, sizeof msg, "--d %d does not split into %d heads (%%s)", o->d, o->heads);
        return usage_error(msg, "d must be a multiple of heads"), -1;
    }
    return 0;
}

static double gflops(double flops, double ms)
{
    return ms > 0 ? flops / ms / 1e6 : 0.0;
}

/* The fused path's rate as a share of the sgemm's (0 when either time is
 * too short to measure), by wall clock or by CPU time. */
static double share(const BenchResult *r, int by_cpu)
{
    double f = gflops(r->flops, by_cpu ? r->fused.cpu : r->fused.median);
    double s = gflops(r->sgemm_flops, by_cpu ? r->sgemm.cpu : r->sgemm.median);
    return s > 0 ? f / s : 0.0;
}

/* The fused path's GFLOP/s as a share of the same run's FMA peak. */
static double peak_share(const BenchResult *r)
{
    return r->peak_gflops > 0 ? gflops(r->flops, r->fused.median) / r->peak_gflops : 0.0;
}

/* A phase's GFLOP/s as a share of the same run's FMA peak (0 for one
 * that computes nothing). */
static double phase_share(const BenchResult *r, int p)
{
    return r->peak_gflops > 0 && r->phase_ms[p] > 0 ? gflops(r->phase_flops[p], r->phase_ms[p]) / r->peak_gflops
                                                   : 0.0;
}

/* The fused pass's phases as the table and the JSON take them. */
static void phase_lines(const BenchResult *r, PhaseLine ph[ATTN_PHASES])
{
    for (int p = 0; p < ATTN_PHASES; p++)
        ph[p] = (PhaseLine){ attention_phase_name((AttnPhase)p), r->phase_ms[p], r->phase_flops[p] };
}

/* --phases as JSON: each phase the pass ran, its median ms, GFLOP/s and
 * share of the peak. */
static void json_phases(JsonWriter *w, const BenchResult *r)
{
    PhaseLine ph[ATTN_PHASES];
    phase_lines(r, ph);
    bench_phases_json(w, ph, ATTN_PHASES, r->peak_gflops);
}

/* --phases as text: a line a phase, with its share of the pass and of the
 * peak. */
static void print_phases(FILE *f, const BenchResult *r)
{
    PhaseLine ph[ATTN_PHASES];
    phase_lines(r, ph);
    bench_phases_print(f, ph, ATTN_PHASES, r->fused.median, r->peak_gflops);
}

static void print_json(FILE *f, const BenchOpts *o, const BenchResult *r)
{
    JsonWriter w;
    jw_begin(&w);
    jw_int(&w, "n", o->n);
    jw_int(&w, "d", o->d);
    jw_int(&w, "heads", o->heads);
    jw_bool(&w, "causal", o->causal);
    jw_int(&w, "reps", o->reps);
    jw_int(&w, "threads", r->threads);
    jw_num(&w, "median_ms", r->fused.median, 4);
    jw_num(&w, "min_ms", r->fused.min, 4);
    jw_num(&w, "max_ms", r->fused.max, 4);
    jw_num(&w, "flops", r->flops, 0);
    jw_num(&w, "gflops", gflops(r->flops, r->fused.median), 2);
    jw_num(&w, "sgemm_ms", r->sgemm.median, 4);
    jw_num(&w, "sgemm_gflops", gflops(r->sgemm_flops, r->sgemm.median), 2);
    jw_num(&w, "sgemm_share", share(r, 0), 4);
    jw_str(&w, "isa", attention_isa_name(r->isa));
    jw_num(&w, "peak_gflops", r->peak_gflops, 2);
    jw_num(&w, "peak_share", peak_share(r), 4);
    if (r->naive_done) {
        jw_num(&w, "naive_ms", r->naive.median, 4);
        jw_num(&w, "naive_min_ms", r->naive.min, 4);
        jw_num(&w, "naive_max_ms", r->naive.max, 4);
        jw_num(&w, "naive_gflops", gflops(r->naive_flops, r->naive.median), 2);
        jw_num(&w, "max_abs_diff", r->max_abs_diff, -1);   /* a NaN as attn writes one: a string */
        jw_null(&w, "naive_skipped");
    } else {
        static const char *const none[] = { "naive_ms", "naive_min_ms", "naive_max_ms", "naive_gflops",
                                            "max_abs_diff" };
        for (size_t i = 0; i < sizeof none / sizeof *none; i++)
            jw_null(&w, none[i]);
        jw_str(&w, "naive_skipped", r->naive_skip);
    }
    jw_num(&w, "cpu_ms", r->fused.cpu, 4);
    jw_num(&w, "sgemm_cpu_ms", r->sgemm.cpu, 4);
    if (r->naive_done)
        jw_num(&w, "naive_cpu_ms", r->naive.cpu, 4);
    else
        jw_null(&w, "naive_cpu_ms");
    jw_int(&w, "extra_bytes", (long long)r->extra_bytes);
    jw_int(&w, "naive_bytes", (long long)r->naive_bytes);
    jw_str(&w, "kernels", bench_kernels_name(o->kernels, o->isa));
    AttnPaths p;
    AttnConfig cfg = bench_config(o);
    attention_paths(&cfg, &p);
    jw_str(&w, "projections_path", p.projections);
    jw_str(&w, "core_path", p.core);
    jw_bool(&w, "weights_in_place", p.weights_in_place);
    jw_bool(&w, "online_softmax", p.online);
    jw_int(&w, "key_tile", p.key_tile);
    jw_int(&w, "block", p.block);
    if (o->phases)
        json_phases(&w, r);
    jw_end(&w);
    jw_print(&w, f);
}

static void print_text(FILE *f, const BenchOpts *o, const BenchResult *r)
{
    fprintf(f, "attn bench: n=%d d=%d heads=%d (dk=%d)%s, median of %d after a warm-up, %d thread%s%s%s\n", o->n,
            o->d, o->heads, o->d / o->heads, o->causal ? " causal" : "", o->reps, r->threads, r->threads == 1 ? "" : "s",
            o->kernels == ATTN_KERNELS_AUTO ? "" : ", kernels ",
            o->kernels == ATTN_KERNELS_AUTO ? "" : bench_kernels_name(o->kernels, o->isa));
    fprintf(f, "  %-6s %10s %21s %9s %10s  %s\n", "path", "median", "spread (min-max)", "GFLOP/s", "CPU time",
            "memory");
    fprintf(f, "  %-6s %7.2f ms %9.2f-%8.2f ms %9.1f %7.2f ms  %.1f MB extra\n", "fused", r->fused.median,
            r->fused.min, r->fused.max, gflops(r->flops, r->fused.median), r->fused.cpu, r->extra_bytes / 1e6);
    if (r->naive_done)
        fprintf(f, "  %-6s %7.2f ms %9.2f-%8.2f ms %9.1f %7.2f ms  %.1f MB (n x n per head)\n", "naive",
                r->naive.median, r->naive.min, r->naive.max, gflops(r->naive_flops, r->naive.median), r->naive.cpu,
                r->naive_bytes / 1e6);
    else
        fprintf(f, "  %-6s skipped: %s\n", "naive", r->naive_skip);
    fprintf(f, "  %-6s %7.2f ms %9.2f-%8.2f ms %9.1f %7.2f ms  (%d x %d x %d, same run)\n", "sgemm", r->sgemm.median,
            r->sgemm.min, r->sgemm.max, gflops(r->sgemm_flops, r->sgemm.median), r->sgemm.cpu, o->n, o->d, o->d);
    fprintf(f, "  %-6s %41s %9.1f %10s  (FMA in %s, %d threads, same run)\n", "peak", "", r->peak_gflops, "",
            attention_isa_name(r->isa), r->threads);
    AttnPaths p;
    AttnConfig cfg = bench_config(o);
    attention_paths(&cfg, &p);
    fprintf(f, "  paths: projections on %s%s; core on %s, ", p.projections,
            strcmp(p.projections, "blas") == 0 ? "" : p.weights_in_place ? " (weights read in place)"
                                                                          : " (weights packed)", p.core);
    if (p.online)
        fprintf(f, "online softmax over tiles of %d keys, blocks of %d queries", p.key_tile, p.block);
    else
        fprintf(f, "a block's whole row of scores, blocks of %d queries", p.block);
    fprintf(f, "; %d worker%s of attn's pool, BLAS on one thread\n", p.threads, p.threads == 1 ? "" : "s");
    fprintf(f, "  fused at %.0f%% of the FMA peak, %.0f%% of the sgemm rate (%.0f%% by CPU time)",
            100.0 * peak_share(r), 100.0 * share(r, 0), 100.0 * share(r, 1));
    if (r->naive_done)
        fprintf(f, "; %.2fx the naive path's speed; max |fused - naive| = %.3g", r->naive.median / r->fused.median,
                r->max_abs_diff);
    fputc('\n', f);
    if (o->phases)
        print_phases(f, r);
}

/* The fused output as raw float32, row-major (n, d), for bench-vs-torch:
 * 0, or -1 after saying why. */
static int dump(const char *path, const float *out, size_t count)
{
    char why[300] = "", shown[1024];
    FILE *f = filewrite_create(path, why, sizeof why);
    int ok = f && fwrite(out, sizeof *out, count, f) == count;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "attn bench: cannot write '%s'%s%s\n", term_escape(path, shown, sizeof shown),
                why[0] ? ": " : "", why);
    return ok ? 0 : -1;
}

/* The memory one case needs at the most, in bytes: the inputs (x, the four
 * weights and their biases), the output and a reference copy, the fused
 * path's n x 5d and its scratch rows, the yardstick sgemm's n x d. The
 * naive path holds itself to NAIVE_MAX_BYTES apart. */
static double case_bytes(const BenchOpts *o)
{
    double n = o->n, d = o->d, threads = o->threads > 0 ? o->threads : 64;
    return sizeof(float) * (n * d * (1 + 2 + 5 + 2) + 4 * d * d + 8 * d + threads * 256 * n);
}

/* A case larger than the machine can hold is refused before anything is
 * allocated, naming the size: it used to grow until the kernel killed it. */
static int fits_in_memory(const BenchOpts *o)
{
    double need = case_bytes(o), have = bench_available_bytes();
    if (have < 0 || need <= have)
        return 1;
    fprintf(stderr, "attn bench: n = %d, d = %d needs about %.1f GB; this machine has %.1f GB available\n", o->n,
            o->d, need / 1e9, have / 1e9);
    return 0;
}

/* One case with its own inputs: r filled, the fused output in *out (the
 * caller frees it). 0, or -1 after printing why. */
static int run_case(const BenchOpts *o, BenchResult *r, float **out)
{
    BenchInputs in;
    *out = NULL;
    if (!fits_in_memory(o))
        return -1;
    *out = malloc((size_t)o->n * o->d * sizeof **out);
    if (!*out || bench_inputs_make(&in, o->n, o->d, o->seed) != 0) {
        fprintf(stderr, "attn bench: no memory for n=%d d=%d\n", o->n, o->d);
        return -1;
    }
    int rc = bench_case(o, &in, r, *out);
    bench_inputs_free(&in);
    return rc;
}

/* `make bench`: the standard cases as one table, d and heads as given.
 * Each case is run STANDARD_RUNS times, each run a warm-up, its reps and
 * its own FMA peak; the table gives the runs' worst and median (of each
 * run's median), never the best: this machine is shared, and a
 * target met once is not met. n = 65536 causal runs once, for its memory.
 *
 * A run's reps last about a second or more at d = 512 (n = 512 causal,
 * 120 passes of 7.5 ms, the least): its median is then its own, where five
 * passes of 8 ms (n = 512) or of 70 ms (n = 2048) fit inside one burst of
 * whatever else the host runs, which then sets the run's median (one run
 * of five at n = 2048 read 126 ms against the others' 70 that way).
 * --reps raises them; the large cases take at most three, each pass
 * seconds long. */
#define STANDARD_RUNS 5
#define LARGE_REPS 3

/* The standard cases' phases (bench --phases for each): a line a case,
 * each phase's median over the runs in ms and as a share of the same
 * run's peak ("-" where a case has no such phase), and the core's worst
 * share of the runs at the end (the core's target is held by both). */
static void standard_phases(const char names[][32], int count, const double ms[][ATTN_PHASES],
                            const double share[][ATTN_PHASES], const double core_worst[])
{
    printf("\nphases of the pass, each timed inside every pass: the runs' median ms, and the share of the peak;"
           " the core's worst share of the runs last\n");
    printf("%-14s", "case");
    for (int p = 0; p < ATTN_PHASES; p++)
        printf(" %17s", attention_phase_name((AttnPhase)p));
    printf(" %11s\n", "core worst");
    for (int i = 0; i < count; i++) {
        printf("%-14s", names[i]);
        for (int p = 0; p < ATTN_PHASES; p++) {
            if (ms[i][p] < 0)
                printf(" %17s", "-");
            else if (share[i][p] > 0)
                printf(" %8.1f ms %4.0f%%", ms[i][p], share[i][p]);
            else
                printf(" %8.1f ms %5s", ms[i][p], "");
        }
        if (ms[i][ATTN_PHASE_CORE] < 0)
            printf(" %11s\n", "-");
        else
            printf(" %10.0f%%\n", core_worst[i]);
    }
}

static int standard(const BenchOpts *given)
{
    static const struct { int n, causal, runs, reps; } cases[] = {
        { 512, 0, STANDARD_RUNS, 120 },  { 512, 1, STANDARD_RUNS, 120 }, { 2048, 0, STANDARD_RUNS, 20 },
        { 2048, 1, STANDARD_RUNS, 20 },  { 8192, 0, STANDARD_RUNS, 5 },   { 8192, 1, STANDARD_RUNS, 5 },
        { 32768, 0, STANDARD_RUNS, 3 },  { 32768, 1, STANDARD_RUNS, 3 },  { 65536, 1, 1, 3 },
    };
    AttnPaths p;
    AttnConfig cfg = bench_config(given);     /* n = 2048, plain: --standard takes no case of its own */
    attention_paths(&cfg, &p);
    printf("attn bench: d=%d heads=%d, fused path; %d runs a case, each the median of its reps after a warm-up "
           "(the reps column: about a second of passes or more, at most %d from n = 32768) against its own FMA "
           "peak; the runs' worst and median\n", given->d, given->heads, STANDARD_RUNS, LARGE_REPS);
    printf("paths: projections on %s, core on %s%s; %d worker%s of attn's pool\n", p.projections, p.core,
           p.online ? ", the online softmax over tiles of keys" : "", p.threads, p.threads == 1 ? "" : "s");
    printf("%-14s %4s %4s %19s %19s %17s %9s\n", "case", "runs", "reps", "ms: worst median", "GFLOP/s: worst median",
           "peak: worst median", "extra MB");
    enum { CASES = sizeof cases / sizeof *cases };
    double phase_ms[CASES][ATTN_PHASES], case_share[CASES][ATTN_PHASES], core_worst[CASES];
    char names[CASES][32];
    for (size_t i = 0; i < CASES; i++) {
        BenchOpts o = *given;
        o.n = cases[i].n;
        o.causal = cases[i].causal;
        o.fused_only = 1;
        if (o.reps < cases[i].reps)
            o.reps = cases[i].reps;
        if (o.n >= 32768 && o.reps > LARGE_REPS)
            o.reps = LARGE_REPS;
        double ms[STANDARD_RUNS], share[STANDARD_RUNS], rate[STANDARD_RUNS];
        double run_phase[ATTN_PHASES][STANDARD_RUNS], run_phase_share[ATTN_PHASES][STANDARD_RUNS];
        size_t extra = 0;
        for (int k = 0; k < cases[i].runs; k++) {
            BenchResult r;
            float *out = NULL;
            int rc = run_case(&o, &r, &out);
            free(out);
            if (rc != 0)
                return 2;
            ms[k] = r.fused.median;
            rate[k] = gflops(r.flops, r.fused.median);
            share[k] = 100.0 * peak_share(&r);
            extra = r.extra_bytes;
            for (int p = 0; p < ATTN_PHASES; p++) {
                run_phase[p][k] = r.phase_ms[p];
                run_phase_share[p][k] = 100.0 * phase_share(&r, p);
            }
        }
        int runs = cases[i].runs;
        for (int p = 0; p < ATTN_PHASES; p++) {
            phase_ms[i][p] = bench_median(run_phase[p], runs);
            case_share[i][p] = bench_median(run_phase_share[p], runs);
        }
        core_worst[i] = run_phase_share[ATTN_PHASE_CORE][0];   /* sorted ascending by bench_median */
        /* bench_median sorts: ms ascending, rate and share ascending too */
        double ms_med = bench_median(ms, runs), rate_med = bench_median(rate, runs), share_med = bench_median(share, runs);
        snprintf(names[i], sizeof names[i], "n=%d%s", o.n, o.causal ? " causal" : "");
        printf("%-14s %4d %4d %9.1f %9.1f %9.1f %9.1f %7.0f%% %7.0f%% %9.1f\n", names[i], runs, o.reps, ms[runs - 1],
               ms_med, rate[0], rate_med, share[0], share_med, extra / 1e6);
        fflush(stdout);
    }
    printf("peak: the fused path's GFLOP/s as a share of the FMA peak measured in the same run; worst: the worst of "
           "the runs\n");
    standard_phases(names, CASES, phase_ms, case_share, core_worst);
    return 0;
}

int cli_bench(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--model") == 0)
            return cli_model_bench(argc, argv);     /* a whole model's forward pass */
        if (strcmp(argv[i], "--train") == 0)
            return cli_train_bench(argc, argv);     /* a training step of attn train's model */
        if (strcmp(argv[i], "--tokenizer") == 0)
            return cli_tokenizer_bench(argc, argv); /* a tokenizer's load and encoding */
    }
    BenchOpts o;
    if (parse_options(argc, argv, &o) != 0)
        return 2;
    if (o.sweep)
        return bench_sweep(&o);
    if (o.linear)
        return bench_linear(&o);
    if (o.standard)
        return standard(&o);
    BenchResult r;
    float *out = NULL;
    int rc = run_case(&o, &r, &out);
    if (rc == 0) {
        (o.json ? print_json : print_text)(stdout, &o, &r);
        if (o.dump)
            rc = dump(o.dump, out, (size_t)o.n * o.d);
    }
    free(out);
    return rc == 0 ? 0 : 2;
}
