/*
 * model_bench.c - `attn bench --model PATH|gpt2-small [--n N] [--reps R]
 * [--json]`: a model's forward pass over N tokens timed (one warm-up, then
 * R runs; the median, the fastest and the slowest), its work in GFLOP/s
 * and as a share of the FMA peak measured in the same run, and tokens per
 * second. gpt2-small is GPT-2 small's shape with random weights, made here,
 * so no download is needed; a PATH is a checkpoint as `attn model` reads it.
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "json_write.h"
#include "lesson.h"
#include "measure.h"
#include "model.h"
#include "model_dir.h"

static int bench_model_usage(const char *why)
{
    fprintf(stderr, "attn: %s\nusage: attn bench --model PATH|gpt2-small [--n N] [--reps R] [--json]\n", why);
    return 2;
}

int cli_model_bench(int argc, char **argv)
{
    const char *which = NULL;
    int n = 1024, reps = 3, json = 0;
    for (int i = 1; i < argc; i++) {
        char *end = NULL;
        if (strcmp(argv[i], "--model") == 0 && i + 1 < argc)
            which = argv[++i];
        else if (strcmp(argv[i], "--n") == 0 && i + 1 < argc && (n = (int)strtol(argv[++i], &end, 10), !*end))
            ;
        else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc && (reps = (int)strtol(argv[++i], &end, 10), !*end))
            ;
        else if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else
            return bench_model_usage("bench --model takes --n N, --reps R and --json");
    }
    if (!which)
        return bench_model_usage("which model?");
    if (n < 1 || reps < 1 || reps > 100)
        return bench_model_usage("--n is at least 1, --reps from 1 to 100");
    ModelDir md = { 0 };
    AttnError err = { 0 };
    int random = strcmp(which, "gpt2-small") == 0, status = 0;
    if (random) {
        if (model_config_parse("{\"model_type\": \"gpt2\", \"n_layer\": 12, \"n_head\": 12, \"n_embd\": 768, "
                               "\"vocab_size\": 50257, \"n_positions\": 1024}", &md.cfg, &err) != ATTN_OK
            || !(md.model = model_random(&md.cfg, 1, &err))) {
            fprintf(stderr, "attn: %s\n", err.msg);
            status = 2;
        }
    } else {
        char why[2048], shown[4200];
        if (model_dir_config(which, &md, why, sizeof why) != 0 || model_dir_weights(&md, why, sizeof why) != 0) {
            fprintf(stderr, "attn: %s\n", lesson_escape(why, shown, sizeof shown));
            status = 2;
        }
    }
    const ModelConfig cfg = md.cfg;
    const Model *m = md.model;
    if (status) {
        ;
    } else if (n > cfg.context) {
        status = bench_model_usage("--n is past the model's context");
    } else {
        int *tokens = malloc((size_t)n * sizeof *tokens);
        double *ms = malloc((size_t)reps * sizeof *ms);
        for (int i = 0; tokens && i < n; i++)
            tokens[i] = (int)((i * 2654435761u) % (unsigned)cfg.vocab);
        ModelRun run;
        for (int r = -1; tokens && ms && status == 0 && r < reps; r++) {
            double t0 = bench_now_ms();
            if (model_forward_timed(m, tokens, n, &run, &err) != ATTN_OK) {
                fprintf(stderr, "attn: %s\n", err.msg);
                status = 2;
                break;
            }
            if (r >= 0)
                ms[r] = bench_now_ms() - t0;    /* the first run only warms up */
            model_run_free(&run);
        }
        if (!tokens || !ms) {
            fprintf(stderr, "attn: out of memory\n");
            status = 2;
        }
        if (status == 0) {
            double median = bench_median(ms, reps);
            double gflops = model_forward_flops(&cfg, n) / (median * 1e6);
            int threads = blas_threads();
            double peak = bench_fma_peak(threads, NULL);
            if (json) {
                JsonWriter w;
                jw_begin(&w, stdout);
                jw_str(&w, "model", random ? "gpt2-small (random weights)" : which);
                jw_int(&w, "params", model_params(m));
                jw_int(&w, "n", n);
                jw_int(&w, "reps", reps);
                jw_int(&w, "threads", threads);
                jw_num(&w, "median_ms", median, 3);
                jw_num(&w, "min_ms", ms[0], 3);
                jw_num(&w, "max_ms", ms[reps - 1], 3);
                jw_num(&w, "tokens_per_s", n / (median / 1e3), 1);
                jw_num(&w, "gflops", gflops, 2);
                jw_num(&w, "peak_gflops", peak, 2);
                jw_num(&w, "peak_share", peak > 0 ? gflops / peak : 0, 4);
                jw_end(&w);
            } else {
                printf("%s, %lld parameters, %d tokens, %d threads: median %.1f ms (%.1f to %.1f), %.0f tokens/s, "
                       "%.1f GFLOP/s, %.0f%% of the FMA peak (%.1f GFLOP/s)\n",
                       random ? "gpt2-small (random weights)" : which, (long long)model_params(m), n, threads, median,
                       ms[0], ms[reps - 1], n / (median / 1e3), gflops, peak > 0 ? 100 * gflops / peak : 0, peak);
            }
        }
        free(tokens);
        free(ms);
    }
    model_dir_close(&md);
    return status;
}
