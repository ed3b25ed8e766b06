/*
 * sweep.c - `attn bench --sweep`: n = 64, 128, 256 ... until a fused
 * run takes about two seconds (or --max-n), both paths at each n (the naive
 * one until it passes two seconds itself or would not fit), progress on
 * stderr. Then the table, the log-log plot of time against n (bench_plot.c),
 * the fitted slopes, the memory of an n x n matrix against the fused path's,
 * and the n at which the naive path would run out of this machine's memory.
 * --json prints the same numbers as one object instead.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_write.h"
#include "measure.h"
#include "bench_naive.h"
#include "bench_plot.h"
#include "mat.h"
#include "text.h"

#define SWEEP_FIRST_N 64

double bench_available_bytes(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[128];
    double kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    if (kb > 0)
        return kb * 1024.0;
    return (double)sysconf(_SC_AVPHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
}

/* The smallest n (a multiple of 64) whose naive path needs more than avail. */
static long naive_wall(const BenchOpts *o, double avail)
{
    AttnConfig cfg = { 0, o->d, o->heads, o->causal, 0, 0, ATTN_PAR_POOL, o->kernels, o->isa };
    long lo = 64, hi = 64;
    for (cfg.n = (int)hi; (double)bench_naive_bytes(&cfg) <= avail && hi < (1L << 30); cfg.n = (int)hi)
        lo = hi, hi *= 2;
    while (hi - lo > 64) {
        cfg.n = (int)((lo + hi) / 2 / 64 * 64);
        if ((double)bench_naive_bytes(&cfg) <= avail)
            lo = cfg.n;
        else
            hi = cfg.n;
    }
    return hi;
}

int sweep_next(const BenchOpts *given, Sweep *s, int *ran, char *err, size_t size)
{
    *ran = 0;
    if (s->next_n == 0) {
        s->next_n = SWEEP_FIRST_N;
        s->last_fused = s->last_naive = 0;
    }
    long n = s->next_n;
    if (s->count >= SWEEP_MAX_POINTS || n > given->max_n || (s->count > 0 && s->last_fused * 4 > 2 * given->slow_ms))
        return 0;                       /* done: the next would take well over 2 s */
    BenchOpts o = *given;
    o.n = (int)n;
    o.reps = s->last_fused > 100 ? 1 : given->reps < 3 ? given->reps : 3;
    o.fused_only = given->fused_only || s->last_naive > given->slow_ms;
    BenchInputs in;
    float *out = malloc((size_t)o.n * o.d * sizeof *out);
    if (!out || bench_inputs_make(&in, o.n, o.d, o.seed) != 0) {
        free(out);
        snprintf(err, size, "no memory for n=%d d=%d", o.n, o.d);
        return -1;
    }
    BenchResult r;
    int failed = bench_case(&o, &in, &r, out);
    bench_inputs_free(&in);
    free(out);
    if (failed) {
        snprintf(err, size, "the case n=%d failed", o.n);
        return -1;
    }
    int i = s->count++;
    s->n[i] = (double)n;
    s->fused[i] = s->last_fused = r.fused.median;
    s->naive[i] = r.naive_done ? r.naive.median : 0.0;
    s->fused_cpu[i] = r.fused.cpu;
    s->naive_cpu[i] = r.naive_done ? r.naive.cpu : 0.0;
    s->last_naive = r.naive_done ? r.naive.median : 1e300;
    s->extra[i] = r.extra_bytes;
    s->nn[i] = (size_t)n * (size_t)n * sizeof(float);
    s->next_n = n * 2;
    *ran = 1;
    return 0;
}

/* Run the points with progress on stderr: 0, or -1 after printing why
 * when a case failed. */
static int run_points(const BenchOpts *given, Sweep *s)
{
    char err[128];
    int got, ran;
    while ((got = sweep_next(given, s, &ran, err, sizeof err)) == 0 && ran) {
        int i = s->count - 1;
        fprintf(stderr, "sweep n=%-6.0f fused %9.2f ms", s->n[i], s->fused[i]);
        if (s->naive[i] > 0)
            fprintf(stderr, "   naive %9.2f ms\n", s->naive[i]);
        else
            fprintf(stderr, "   naive skipped\n");
    }
    if (got < 0)
        fprintf(stderr, "attn bench: %s\n", err);
    return got;
}

/* The slope over the points with n >= from (all of them when fewer than two
 * are there), and the n the points it used span (*lo, *hi; 0 when none). */
static double slope_over(const Sweep *s, const double *t, double from, double *lo, double *hi)
{
    int first = 0;
    while (first < s->count && s->n[first] < from)
        first++;
    int m = 0;
    for (int i = first; i < s->count; i++)
        m += t[i] > 0;
    if (m < 2)
        first = 0;
    *lo = *hi = 0;
    for (int i = first; i < s->count; i++)
        if (t[i] > 0) {
            if (*lo == 0)
                *lo = s->n[i];
            *hi = s->n[i];
        }
    return plot_slope(s->n + first, t + first, s->count - first);
}

static double slope_from(const Sweep *s, const double *t, double from)
{
    double lo, hi;
    return slope_over(s, t, from, &lo, &hi);
}

/* "fused 1.95 (n = 1024..8192)": a slope with the range of n it was fitted
 * over, or "not measured". */
static void slope_words(char *buf, size_t size, const char *name, const Sweep *s, const double *t, double from)
{
    double lo, hi, k = slope_over(s, t, from, &lo, &hi);
    if (isnan(k) || hi <= lo)
        snprintf(buf, size, "%s not measured (fewer than two sizes)", name);
    else
        snprintf(buf, size, "%s %.2f (n = %.0f..%.0f)", name, k, lo, hi);
}

static void print_json(const BenchOpts *o, const Sweep *s, double fused_slope, double naive_slope, double avail,
                       long wall)
{
    JsonWriter w;
    jw_begin(&w);
    jw_int(&w, "d", o->d);
    jw_int(&w, "heads", o->heads);
    jw_bool(&w, "causal", o->causal);
    jw_array(&w, "points");
    for (int i = 0; i < s->count; i++) {
        jw_object(&w, NULL);
        jw_num(&w, "n", s->n[i], 0);
        jw_num(&w, "fused_ms", s->fused[i], 4);
        jw_num(&w, "fused_cpu_ms", s->fused_cpu[i], 4);
        if (s->naive[i] > 0) {
            jw_num(&w, "naive_ms", s->naive[i], 4);
            jw_num(&w, "naive_cpu_ms", s->naive_cpu[i], 4);
        } else {
            jw_null(&w, "naive_ms");
            jw_null(&w, "naive_cpu_ms");
        }
        jw_int(&w, "nn_bytes", (long long)s->nn[i]);
        jw_int(&w, "extra_bytes", (long long)s->extra[i]);
        jw_close(&w, '}');
    }
    jw_close(&w, ']');
    if (isnan(fused_slope))
        jw_null(&w, "fused_slope");
    else
        jw_num(&w, "fused_slope", fused_slope, 3);
    if (isnan(naive_slope))
        jw_null(&w, "naive_slope");
    else
        jw_num(&w, "naive_slope", naive_slope, 3);
    jw_num(&w, "available_bytes", avail, 0);
    jw_int(&w, "naive_out_of_memory_n", wall);
    jw_end(&w);
    jw_print(&w, stdout);
}

static void print_text(const BenchOpts *o, const Sweep *s)
{
    printf("attn bench --sweep: d=%d heads=%d%s; time against n\n\n", o->d, o->heads, o->causal ? " causal" : "");
    printf("%8s %12s %12s %12s %12s %12s %14s\n", "n", "fused ms", "(CPU ms)", "naive ms", "(CPU ms)", "n x n MB",
           "fused extra MB");
    for (int i = 0; i < s->count; i++) {
        char naive[32] = "-", naive_cpu[32] = "-";
        if (s->naive[i] > 0) {
            snprintf(naive, sizeof naive, "%.2f", s->naive[i]);
            snprintf(naive_cpu, sizeof naive_cpu, "%.2f", s->naive_cpu[i]);
        }
        printf("%8.0f %12.2f %12.2f %12s %12s %12.2f %14.2f\n", s->n[i], s->fused[i], s->fused_cpu[i], naive, naive_cpu,
               s->nn[i] / 1e6, s->extra[i] / 1e6);
    }
    putchar('\n');
    int utf8 = text_locale_utf8() && !text_no_color();
    sweep_report(stdout, o, s, 60, 16, utf8);
}

void sweep_report(FILE *f, const BenchOpts *o, const Sweep *s, int width, int height, int utf8)
{
    double from = 2.0 * o->d;   /* where 4 n^2 d passes 8 n d^2 */
    char fused_words[96], naive_words[96];
    slope_words(fused_words, sizeof fused_words, "fused", s, s->fused, from);
    slope_words(naive_words, sizeof naive_words, "naive", s, s->naive, from);
    double lo, hi;
    slope_over(s, s->naive, from, &lo, &hi);
    double avail = bench_available_bytes();
    long wall = naive_wall(o, avail);
    PlotSeries series[2] = { { "fused", 'f', s->n, s->fused, s->count }, { "naive", 'n', s->n, s->naive, s->count } };
    plot_loglog(f, series, 2, width, height, "ms", utf8);
    fprintf(f, "\nslope of log time against log n: %s, %s (2 = time grows as n^2)\n", fused_words, naive_words);
    if (hi > 0 && hi < from)
        fprintf(f, "below n = %.0f the n d^2 of the projections still outweighs the n^2 d of the scores: the slope "
                   "heads for 2 beyond it\n", from);
    if (s->count > 0) {
        int last = s->count - 1;
        fprintf(f, "at n=%.0f one n x n matrix is %.1f MB (the naive path holds %d per head); the fused path's"
                   " extra memory is %.1f MB in all\n", s->n[last], s->nn[last] / 1e6, o->causal ? 3 : 2,
                s->extra[last] / 1e6);
    }
    fprintf(f, "the naive path would need more than the %.1f GB available from n=%ld on", avail / 1e9, wall);
    fprintf(f, " (this engine refuses one matrix above %ld x %ld already)\n", (long)sqrt((double)MAT_MAX_ELEMS),
            (long)sqrt((double)MAT_MAX_ELEMS));
}

int bench_sweep(const BenchOpts *given)
{
    Sweep s;
    memset(&s, 0, sizeof s);
    if (given->max_n > 0 && given->max_n < SWEEP_FIRST_N) {
        fprintf(stderr, "attn bench --sweep: --max-n %d is below the sweep's first size, %d: nothing would be "
                        "measured\n", given->max_n, SWEEP_FIRST_N);
        return 2;
    }
    if (run_points(given, &s) != 0)
        return 2;
    if (given->json) {
        double from = 2.0 * given->d;   /* where 4 n^2 d passes 8 n d^2 */
        double avail = bench_available_bytes();
        print_json(given, &s, slope_from(&s, s.fused, from), slope_from(&s, s.naive, from), avail,
                   naive_wall(given, avail));
    } else {
        print_text(given, &s);
    }
    return 0;
}
