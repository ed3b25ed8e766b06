/*
 * bench.c - `attn bench` (bench.h): read the options, run the cases of
 * app/measure (bench_case.c says what is timed and how) and print what they
 * cost as text or JSON.
 */
#include "bench.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "attention.h"
#include "measure.h"
#include "bench_naive.h"
#include "lesson.h"
#include "mat.h"
#include "rng.h"


static int usage_error(const char *fmt, const char *arg)
{
    char shown[512];
    fputs("attn bench: ", stderr);
    fprintf(stderr, fmt, lesson_escape(arg, shown, sizeof shown));   /* an argument may hold anything */
    fputs("\nusage: attn bench [--n N] [--d D] [--heads H] [--causal] [--reps R] [--json]\n"
          "                  [--fused-only] [--standard | --sweep [--max-n N]]\n", stderr);
    return 2;
}

/* *out = argv[i + 1] as a whole number in [lo, hi]; 0 and a message when not. */
static int parse_int(int argc, char **argv, int i, long lo, long hi, long *out)
{
    if (i + 1 >= argc) {
        usage_error("%s needs a value", argv[i]);
        return 0;
    }
    const char *s = argv[i + 1];
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) {
        char msg[160];
        snprintf(msg, sizeof msg, "%s needs a whole number from %ld to %ld, not '%%s'", argv[i], lo, hi);
        usage_error(msg, s);
        return 0;
    }
    *out = v;
    return 1;
}

/* Options into o; 0 after printing a usage error. */
static int parse_options(int argc, char **argv, BenchOpts *o)
{
    bench_opts_default(o);
    const char *own_case = NULL;    /* an option that picks the case: not with --standard */
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        long v;
        if (strcmp(a, "--n") == 0 || strcmp(a, "--causal") == 0 || strcmp(a, "--fused-only") == 0
            || strcmp(a, "--max-n") == 0 || strcmp(a, "--dump") == 0)
            own_case = a;
        int *target = strcmp(a, "--n") == 0 ? &o->n : strcmp(a, "--d") == 0 ? &o->d
                    : strcmp(a, "--heads") == 0 ? &o->heads : strcmp(a, "--reps") == 0 ? &o->reps
                    : strcmp(a, "--threads") == 0 ? &o->threads : strcmp(a, "--max-n") == 0 ? &o->max_n : NULL;
        if (target) {
            long hi = target == &o->n || target == &o->max_n ? 1L << 20 : target == &o->d ? 1L << 14 : target == &o->reps ? 1000 : 64;
            if (!parse_int(argc, argv, i++, target == &o->threads ? 0 : 1, hi, &v))
                return 0;
            *target = (int)v;
        } else if (strcmp(a, "--seed") == 0) {
            if (!parse_int(argc, argv, i++, 0, LONG_MAX, &v))
                return 0;
            o->seed = (unsigned long)v;
        } else if (strcmp(a, "--causal") == 0) {
            o->causal = 1;
        } else if (strcmp(a, "--json") == 0) {
            o->json = 1;
        } else if (strcmp(a, "--fused-only") == 0) {
            o->fused_only = 1;
        } else if (strcmp(a, "--sweep") == 0) {
            o->sweep = 1;
        } else if (strcmp(a, "--standard") == 0) {
            o->standard = 1;
        } else if (strcmp(a, "--par") == 0 && i + 1 < argc &&
                   (strcmp(argv[i + 1], "pool") == 0 || strcmp(argv[i + 1], "blas") == 0)) {
            o->par = strcmp(argv[++i], "pool") == 0 ? ATTN_PAR_POOL : ATTN_PAR_BLAS;
        } else if (strcmp(a, "--dump") == 0 && i + 1 < argc) {
            o->dump = argv[++i];
        } else {
            return usage_error("unknown option '%s'", a), 0;
        }
    }
    if (o->standard && own_case)
        return usage_error("--standard runs its own cases (n = 512, 2048 and 8192, plain and causal); %s does not "
                           "go with it", own_case), 0;
    if (o->standard && o->sweep)
        return usage_error("--standard and --sweep do not go together%s", ""), 0;
    if (o->d % o->heads != 0) {
        char msg[96];
        snprintf(msg, sizeof msg, "--d %d does not split into %d heads (%%s)", o->d, o->heads);
        return usage_error(msg, "d must be a multiple of heads"), 0;
    }
    return 1;
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

static void print_json(FILE *f, const BenchOpts *o, const BenchResult *r)
{
    fprintf(f, "{\"n\": %d, \"d\": %d, \"heads\": %d, \"causal\": %s, \"reps\": %d, \"threads\": %d,\n", o->n, o->d,
            o->heads, o->causal ? "true" : "false", o->reps, r->threads);
    fprintf(f, " \"median_ms\": %.4f, \"min_ms\": %.4f, \"max_ms\": %.4f, \"flops\": %.0f, \"gflops\": %.2f,\n",
            r->fused.median, r->fused.min, r->fused.max, r->flops, gflops(r->flops, r->fused.median));
    fprintf(f, " \"sgemm_ms\": %.4f, \"sgemm_gflops\": %.2f, \"sgemm_share\": %.4f,\n", r->sgemm.median,
            gflops(r->sgemm_flops, r->sgemm.median),
            share(r, 0));
    if (r->naive_done) {
        fprintf(f, " \"naive_ms\": %.4f, \"naive_min_ms\": %.4f, \"naive_max_ms\": %.4f, \"naive_gflops\": %.2f,",
                r->naive.median, r->naive.min, r->naive.max, gflops(r->naive_flops, r->naive.median));
        /* a NaN in an output is written as attn writes non-finite values: a string */
        fprintf(f, isfinite(r->max_abs_diff) ? " \"max_abs_diff\": %.3g," : " \"max_abs_diff\": \"nan\",",
                r->max_abs_diff);
        fputs(" \"naive_skipped\": null,\n", f);
    }
    else
        fprintf(f, " \"naive_ms\": null, \"naive_min_ms\": null, \"naive_max_ms\": null, \"naive_gflops\": null,"
                   " \"max_abs_diff\": null, \"naive_skipped\": \"%s\",\n", r->naive_skip);
    fprintf(f, " \"cpu_ms\": %.4f, \"sgemm_cpu_ms\": %.4f, \"naive_cpu_ms\": ", r->fused.cpu, r->sgemm.cpu);
    fprintf(f, r->naive_done ? "%.4f,\n" : "null,\n", r->naive.cpu);
    fprintf(f, " \"extra_bytes\": %zu, \"naive_bytes\": %zu}\n", r->extra_bytes, r->naive_bytes);
}

static void print_text(FILE *f, const BenchOpts *o, const BenchResult *r)
{
    fprintf(f, "attn bench: n=%d d=%d heads=%d (dk=%d)%s, median of %d after a warm-up, %d threads\n", o->n, o->d,
            o->heads, o->d / o->heads, o->causal ? " causal" : "", o->reps, r->threads);
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
    fprintf(f, "  fused at %.0f%% of the sgemm rate (%.0f%% by CPU time)", 100.0 * share(r, 0), 100.0 * share(r, 1));
    if (r->naive_done)
        fprintf(f, "; %.2fx the naive path's speed; max |fused - naive| = %.3g", r->naive.median / r->fused.median,
                r->max_abs_diff);
    fputc('\n', f);
}

/* The fused output as raw float32, row-major (n, d), for bench-vs-torch. */
static int dump(const char *path, const float *out, size_t count)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(out, sizeof *out, count, f) == count;
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok)
        fprintf(stderr, "attn bench: cannot write '%s'\n", path);
    return ok;
}

/* The memory one case needs at the most, in bytes: the inputs (x, the four
 * weights and their biases), the output and a reference copy, the fused
 * path's n x 4d and its scratch rows, the yardstick sgemm's n x d. The
 * naive path holds itself to NAIVE_MAX_BYTES apart. */
static double case_bytes(const BenchOpts *o)
{
    double n = o->n, d = o->d, threads = o->threads > 0 ? o->threads : 64;
    return sizeof(float) * (n * d * (1 + 2 + 4 + 2) + 4 * d * d + 8 * d + threads * 256 * n);
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
 * caller frees it). 0 after printing why. */
static int run_case(const BenchOpts *o, BenchResult *r, float **out)
{
    BenchInputs in;
    *out = NULL;
    if (!fits_in_memory(o))
        return 0;
    *out = malloc((size_t)o->n * o->d * sizeof **out);
    if (!*out || !bench_inputs_make(&in, o->n, o->d, o->seed)) {
        fprintf(stderr, "attn bench: no memory for n=%d d=%d\n", o->n, o->d);
        return 0;
    }
    int ok = bench_case(o, &in, r, *out);
    bench_inputs_free(&in);
    return ok;
}

/* `make bench`: the standard cases as one table, d, heads and reps as given. */
static int standard(const BenchOpts *given)
{
    static const struct { int n, causal, fused_only; } cases[] = {
        { 512, 0, 0 }, { 512, 1, 0 }, { 2048, 0, 0 }, { 2048, 1, 0 }, { 8192, 0, 1 }, { 8192, 1, 1 },
    };
    printf("attn bench: d=%d heads=%d, median of %d after a warm-up; ms (min-max)\n", given->d, given->heads,
           given->reps);
    printf("%-13s %22s %8s %6s %8s %6s %22s %7s %8s %8s\n", "case", "fused ms", "GFLOP/s", "sgemm", "CPU ms", "sgemm",
           "naive ms", "speedup", "max diff", "extra MB");
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        BenchOpts o = *given;
        o.n = cases[i].n;
        o.causal = cases[i].causal;
        o.fused_only = cases[i].fused_only;
        BenchResult r;
        float *out = NULL;
        int ok = run_case(&o, &r, &out);
        free(out);
        if (!ok)
            return 2;
        char name[32], fused[48], naive[48] = "-", speedup[16] = "-", diff[16] = "-";
        snprintf(name, sizeof name, "n=%d%s", o.n, o.causal ? " causal" : "");
        snprintf(fused, sizeof fused, "%.1f (%.1f-%.1f)", r.fused.median, r.fused.min, r.fused.max);
        if (r.naive_done) {
            snprintf(naive, sizeof naive, "%.1f (%.1f-%.1f)", r.naive.median, r.naive.min, r.naive.max);
            snprintf(speedup, sizeof speedup, "%.1fx", r.naive.median / r.fused.median);
            snprintf(diff, sizeof diff, "%.1e", r.max_abs_diff);
        }
        printf("%-13s %22s %8.1f %5.0f%% %8.1f %5.0f%% %22s %7s %8s %8.1f\n", name, fused,
               gflops(r.flops, r.fused.median), 100.0 * share(&r, 0), r.fused.cpu, 100.0 * share(&r, 1), naive,
               speedup, diff, r.extra_bytes / 1e6);
        fflush(stdout);
    }
    printf("sgemm: the fused path's GFLOP/s as a share of a same-run n x d x d sgemm's, by the wall clock, then by"
           " CPU time\n");
    return 0;
}

int cli_bench(int argc, char **argv)
{
    BenchOpts o;
    if (!parse_options(argc, argv, &o))
        return 2;
    if (o.sweep)
        return bench_sweep(&o);
    if (o.standard)
        return standard(&o);
    BenchResult r;
    float *out = NULL;
    int ok = run_case(&o, &r, &out);
    if (ok) {
        (o.json ? print_json : print_text)(stdout, &o, &r);
        if (o.dump)
            ok = dump(o.dump, out, (size_t)o.n * o.d);
    }
    free(out);
    return ok ? 0 : 2;
}
