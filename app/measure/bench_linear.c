/*
 * bench_linear.c - `attn bench --linear` (measure.h): a model's linear
 * layer on attn's kernels, x (n, d) @ W (d, 3d) + b (GPT-2's QKV product
 * at d = 768), timed with its weights in float32 and in BF16, each as
 * GPT-2 stores them (in, out) and as torch's nn.Linear does (out, in): the
 * median of the reps after a warm-up, GFLOP/s, the share of the FMA peak
 * measured in the same run (the float32 peak: BF16's instructions do two
 * products a lane, so a share past 100% is possible), and the weights'
 * bytes. Inputs from the engine's generator, as bench_case's.
 */
#include "measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attention_linear.h"
#include "json_write.h"
#include "rng.h"

typedef struct {
    AttnDtype dtype;
    int out_major;
    double median, gflops;
    const char *path;
} LinearRow;

/* One layout's weights timed: 0, or -1 after printing why. */
static int time_linear(const BenchOpts *o, AttnWorkspace *ws, float *y, const float *x, const AttnLinear *w,
                       const float *bias, double *t, LinearRow *row)
{
    AttnError err;
    for (int i = -1; i < o->reps; i++) {
        double t0 = bench_now_ms();
        if (attention_linear(ws, y, w->out, x, w->in, o->n, w, bias, &err) != ATTN_OK) {
            fprintf(stderr, "attn bench: %s\n", err.msg);
            return -1;
        }
        if (i >= 0)
            t[i] = bench_now_ms() - t0;
    }
    row->median = bench_median(t, o->reps);
    row->gflops = row->median > 0 ? 2.0 * o->n * w->in * w->out / row->median / 1e6 : 0.0;
    row->path = attention_linear_path(w->dtype);
    return 0;
}

int bench_linear(const BenchOpts *o)
{
    int n = o->n, d = o->d, out = 3 * d;
    size_t wcount = (size_t)d * out;
    float *x = malloc((size_t)n * d * sizeof *x), *wf = malloc(wcount * sizeof *wf), *wt = malloc(wcount * sizeof *wt);
    float *bias = malloc((size_t)out * sizeof *bias), *y = malloc((size_t)n * out * sizeof *y);
    uint16_t *wh = malloc(wcount * sizeof *wh), *wht = malloc(wcount * sizeof *wht);
    double *t = malloc((size_t)o->reps * sizeof *t);
    AttnWorkspace *ws = attention_workspace_new();
    int rc = 2;
    if (!x || !wf || !wt || !bias || !y || !wh || !wht || !t || !ws) {
        fprintf(stderr, "attn bench: no memory for the linear layer (n=%d d=%d)\n", n, d);
        goto done;
    }
    Rng g;
    rng_seed(&g, o->seed);
    rng_randn_fill(&g, x, (long)n * d);
    rng_randn_fill(&g, wf, (long)wcount);
    rng_randn_fill(&g, bias, out);
    for (int i = 0; i < d; i++)
        for (int j = 0; j < out; j++) {
            wt[(size_t)j * d + i] = wf[(size_t)i * out + j];
            wh[(size_t)i * out + j] = wht[(size_t)j * d + i] = attention_bf16_of(wf[(size_t)i * out + j]);
        }
    int threads = o->threads > 0 ? o->threads : attention_cores();
    AttnIsa isa;
    double peak = bench_fma_peak(threads, &isa);
    const AttnLinear ws_of[] = {
        { wf, ATTN_DTYPE_F32, d, out, out, 0 },
        { wt, ATTN_DTYPE_F32, d, out, d, 1 },
        { wh, ATTN_DTYPE_BF16, d, out, out, 0 },
        { wht, ATTN_DTYPE_BF16, d, out, d, 1 },
    };
    enum { ROWS = sizeof ws_of / sizeof *ws_of };
    LinearRow rows[ROWS];
    for (int r = 0; r < ROWS; r++) {
        rows[r] = (LinearRow){ ws_of[r].dtype, ws_of[r].out_major, 0, 0, NULL };
        if (time_linear(o, ws, y, x, &ws_of[r], bias, t, &rows[r]) != 0)
            goto done;
    }
    peak = bench_fma_peak_again(peak, threads, &isa);
    double f32_best = rows[0].gflops > rows[1].gflops ? rows[0].gflops : rows[1].gflops;
    double bf16_best = rows[2].gflops > rows[3].gflops ? rows[2].gflops : rows[3].gflops;
    if (o->json) {
        JsonWriter w;
        jw_begin(&w);
        jw_int(&w, "n", n);
        jw_int(&w, "in", d);
        jw_int(&w, "out", out);
        jw_int(&w, "reps", o->reps);
        jw_int(&w, "threads", threads);
        jw_num(&w, "peak_gflops", peak, 2);
        jw_array(&w, "weights");
        for (int r = 0; r < ROWS; r++) {
            jw_object(&w, NULL);
            jw_str(&w, "dtype", rows[r].dtype == ATTN_DTYPE_BF16 ? "bf16" : "f32");
            jw_str(&w, "layout", rows[r].out_major ? "out_in" : "in_out");
            jw_str(&w, "path", rows[r].path);
            jw_num(&w, "median_ms", rows[r].median, 4);
            jw_num(&w, "gflops", rows[r].gflops, 2);
            jw_num(&w, "peak_share", peak > 0 ? rows[r].gflops / peak : 0.0, 4);
            jw_close(&w, '}');
        }
        jw_close(&w, ']');
        jw_num(&w, "bf16_over_f32", f32_best > 0 ? bf16_best / f32_best : 0.0, 3);
        jw_end(&w);
        jw_print(&w, stdout);
    } else {
        printf("attn bench --linear: x (%d, %d) @ W (%d, %d) + b, median of %d after a warm-up, %d thread%s\n", n, d, d,
               out, o->reps, threads, threads == 1 ? "" : "s");
        printf("  %-16s %-12s %10s %9s %6s %10s\n", "weights", "kernel", "median", "GFLOP/s", "peak", "weights MB");
        for (int r = 0; r < ROWS; r++) {
            char name[32];
            snprintf(name, sizeof name, "%s %s", rows[r].dtype == ATTN_DTYPE_BF16 ? "bf16" : "f32",
                     rows[r].out_major ? "(out, in)" : "(in, out)");
            printf("  %-16s %-12s %7.2f ms %9.1f %5.0f%% %10.1f\n", name, rows[r].path, rows[r].median,
                   rows[r].gflops, peak > 0 ? 100.0 * rows[r].gflops / peak : 0.0,
                   wcount * (rows[r].dtype == ATTN_DTYPE_BF16 ? 2.0 : 4.0) / 1e6);
        }
        printf("  peak %.1f GFLOP/s (FP32 FMA in %s, %d threads, same run); bf16 / f32: %.2fx\n", peak,
               attention_isa_name(isa), threads, f32_best > 0 ? bf16_best / f32_best : 0.0);
    }
    rc = 0;
done:
    free(x), free(wf), free(wt), free(bias), free(y), free(wh), free(wht), free(t);
    attention_workspace_free(ws);
    return rc;
}
