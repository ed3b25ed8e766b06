/*
 * model_bench.c - `attn bench --model PATH|gpt2-small|llama-small [--n N]
 * [--reps R] [--generate N] [--dtype f32|bf16] [--phases] [--json]`: a
 * model's forward pass over N tokens timed (one warm-up, then R runs; the
 * median, the fastest and the slowest), its work in GFLOP/s and as a share
 * of the FMA peak measured in the same run, tokens per second, its
 * products' path (float32 or BF16) and the process's peak resident memory;
 * with --phases each phase of the pass too (bench_clock.c). gpt2-small is
 * GPT-2 small's shape and llama-small a Llama's (12 layers, width 768, 12
 * heads, 4 key/value heads, SwiGLU of 2048, vocabulary 32000) with random
 * weights, made here, so no download is needed; a PATH is a checkpoint as
 * `attn model` reads it, its BF16 weights computed as BF16 where the CPU
 * has AVX512_BF16 (--dtype f32: converted to float32, as `attn model`
 * does); --dtype bf16 rounds llama-small's products' weights to BF16.
 * With --generate N: N tokens generated greedily after --n tokens (default
 * 16), with the key/value cache and without (the whole sequence again for
 * every token), each timed R times: the median tokens per second of both
 * and how many times faster the cache is.
 *
 * `attn bench --train [--steps N] [--json]`: a training step of attn
 * train's default model (4 layers, 4 heads, width 128, 128 bytes of
 * context, batch 16; forward, backward and AdamW) on random bytes, timed
 * the same way: tokens per second, GFLOP/s and the share of the peak.
 *
 * `attn bench --tokenizer PATH [--text FILE] [--reps R] [--json]`: a
 * tokenizer's load (time, and memory beside its files' size) and its
 * encoding of 100 KB and 400 KB, to see it linear.
 */
#include "cli.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "attention_linear.h"
#include "escape.h"
#include "fileread.h"
#include "pool.h"
#include "json_write.h"
#include "lesson.h"
#include "measure.h"
#include "model.h"
#include "model_gen.h"
#include "model_train.h"
#include "model_dir.h"
#include "lessonfile.h"
#include "numfmt.h"

static int bench_model_usage(const char *why)
{
    fprintf(stderr, "attn: %s\nusage: attn bench --model PATH|gpt2-small|llama-small [--n N] [--reps R] "
            "[--generate N] [--dtype f32|bf16] [--phases] [--json]\n", why);
    return 2;
}

/* --threads N (1 to 64), as plain `attn bench` takes it and keeps it out
 * of the manual, a tool for measuring: the threads of attn's pool. Was
 * argv[*i] that option (its value consumed)? */
static int threads_option(int argc, char **argv, int *i)
{
    long t;
    if (strcmp(argv[*i], "--threads") != 0 || *i + 1 >= argc || num_parse_whole(argv[*i + 1], 1, 64, &t) != 0)
        return 0;
    pool_set_threads((int)t);
    ++*i;
    return 1;
}

/* N tokens generated greedily after tokens[0..n) on m, cached or not,
 * timed reps times (after one run that warms up): the median tokens per
 * second into *tps. ATTN_OK, or a code with err. */
static attn_status time_generation(const Model *m, const int *tokens, int n, int N, int cached, int reps, double *tps,
                                   AttnError *err)
{
    ModelDist d;
    ModelSampling greedy = { 0, 0, 1 };
    double *ms = malloc((size_t)reps * sizeof *ms);
    if (!ms)
        return attn_fail(err, ATTN_E_NOMEM, "out of memory");
    attn_status rc = model_dist_init(&d, model_config(m)->vocab, err);
    for (int r = -1; rc == ATTN_OK && r < reps; r++) {
        double t0 = bench_now_ms();
        ModelGen *g = model_gen_new(m, tokens, n, cached, err);
        Rng unused;
        rng_seed(&unused, 1);
        for (int k = 0; g && rc == ATTN_OK && k < N; k++) {
            int id;
            double p;
            rc = model_gen_token(g, &greedy, &unused, &d, &id, &p, err);
        }
        if (!g)
            rc = err->code;
        model_gen_free(g);
        if (r >= 0)
            ms[r] = bench_now_ms() - t0;
    }
    if (rc == ATTN_OK)
        *tps = N / (bench_median(ms, reps) / 1e3);
    model_dist_free(&d);
    free(ms);
    return rc;
}

/* --generate N: with the cache and without, printed. 0, or 2. */
static int bench_generation(const Model *m, const char *name, int n, int N, int reps, int json)
{
    const ModelConfig *c = model_config(m);
    AttnError err = { 0 };
    int *tokens = malloc((size_t)n * sizeof *tokens);
    double cached = 0, plain = 0;
    for (int i = 0; tokens && i < n; i++)
        tokens[i] = (int)((i * 2654435761u) % (unsigned)c->vocab);
    attn_status rc = !tokens ? attn_fail(&err, ATTN_E_NOMEM, "out of memory")
                             : time_generation(m, tokens, n, N, 1, reps, &cached, &err);
    if (rc == ATTN_OK)
        rc = time_generation(m, tokens, n, N, 0, reps, &plain, &err);
    free(tokens);
    if (rc != ATTN_OK) {
        fprintf(stderr, "attn: %s\n", err.msg);
        return 2;
    }
    if (json) {
        JsonWriter w;
        jw_begin(&w);
        jw_str(&w, "model", name);
        jw_int(&w, "params", model_params(m));
        jw_int(&w, "n", n);
        jw_int(&w, "generate", N);
        jw_int(&w, "reps", reps);
        jw_int(&w, "threads", pool_threads());
        jw_num(&w, "cached_tokens_per_s", cached, 1);
        jw_num(&w, "uncached_tokens_per_s", plain, 1);
        jw_num(&w, "speedup", plain > 0 ? cached / plain : 0, 2);
        jw_end(&w);
        jw_print(&w, stdout);
    } else {
        char shown[4 * PATH_MAX];
        printf("%s, %d tokens generated after %d, %d thread%s: %.1f tokens/s with the key/value cache, %.1f "
               "without (the whole sequence again each token): %.1fx\n", term_escape(name, shown, sizeof shown),
               N, n, pool_threads(), pool_threads() == 1 ? "" : "s", cached, plain, plain > 0 ? cached / plain : 0);
    }
    return 0;
}

static long peak_kb(void);

/* The config of a shape `attn bench --model` makes with random weights,
 * or NULL for a path. */
static const char *random_shape(const char *which)
{
    if (strcmp(which, "gpt2-small") == 0)
        return "{\"model_type\": \"gpt2\", \"n_layer\": 12, \"n_head\": 12, \"n_embd\": 768, "
               "\"vocab_size\": 50257, \"n_positions\": 1024}";
    if (strcmp(which, "llama-small") == 0)
        return "{\"model_type\": \"llama\", \"num_hidden_layers\": 12, \"num_attention_heads\": 12, "
               "\"num_key_value_heads\": 4, \"hidden_size\": 768, \"intermediate_size\": 2048, "
               "\"vocab_size\": 32000, \"max_position_embeddings\": 2048, \"tie_word_embeddings\": false}";
    return NULL;
}

int cli_model_bench(int argc, char **argv)
{
    const char *which = NULL;
    int n = 1024, reps = 3, json = 0, generate = 0, n_given = 0, dtype = -1; /* dtype -1: as stored, or float32 */
    int phases = 0;
    for (int i = 1; i < argc; i++) {
        long v;
        if (strcmp(argv[i], "--model") == 0 && i + 1 < argc)
            which = argv[++i];
        else if (strcmp(argv[i], "--dtype") == 0 && i + 1 < argc) {
            const char *t = argv[++i];
            if (strcmp(t, "f32") != 0 && strcmp(t, "bf16") != 0)
                return bench_model_usage("--dtype is f32 or bf16");
            dtype = strcmp(t, "bf16") == 0;
        }
        else if (strcmp(argv[i], "--n") == 0 && i + 1 < argc) {
            if (num_parse_whole(argv[++i], 1, MODEL_MAX_CONTEXT, &v) != 0)
                return bench_model_usage("--n takes a whole number of tokens from 1 to 131072");
            n = (int)v;
            n_given = 1;
        } else if (strcmp(argv[i], "--generate") == 0 && i + 1 < argc) {
            if (num_parse_whole(argv[++i], 1, MODEL_MAX_CONTEXT, &v) != 0)
                return bench_model_usage("--generate takes a whole number of tokens, 1 or more");
            generate = (int)v;
        } else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) {
            if (num_parse_whole(argv[++i], 1, 100, &v) != 0)
                return bench_model_usage("--reps takes a whole number from 1 to 100");
            reps = (int)v;
        }
        else if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else if (strcmp(argv[i], "--phases") == 0)
            phases = 1;
        else if (!threads_option(argc, argv, &i))
            return bench_model_usage("bench --model takes --n N, --reps R, --generate N, --dtype f32|bf16, --phases "
                                     "and --json");
    }
    if (!which)
        return bench_model_usage("which model?");
    ModelDir md = { 0 };
    AttnError err = { 0 };
    const char *shape = random_shape(which);
    int random = shape != NULL, status = 0;
    if (random) {
        if (model_config_parse(shape, &md.cfg, &err) != ATTN_OK
            || !(md.model = model_random_as(&md.cfg, 1, dtype == 1 ? MODEL_WEIGHTS_STORED : MODEL_WEIGHTS_F32,
                                            &err))) {
            fprintf(stderr, "attn: %s\n", err.msg);
            status = 2;
        }
    } else {
        char why[2048], shown[4200];
        ModelWeights how = dtype == 0 ? MODEL_WEIGHTS_F32 : MODEL_WEIGHTS_STORED;
        if (model_dir_config(which, &md, why, sizeof why) != 0
            || model_dir_weights_as(&md, how, why, sizeof why) != 0) {
            fprintf(stderr, "attn: %s\n", term_escape(why, shown, sizeof shown));
            status = 2;
        }
    }
    const ModelConfig cfg = md.cfg;
    const Model *m = md.model;
    if (generate && !n_given)
        n = 16;
    if (status) {
        ;
    } else if (n > cfg.context) {
        status = bench_model_usage("--n is past the model's context");
    } else if (generate && n + generate > cfg.context) {
        status = bench_model_usage("--n and --generate together are past the model's context");
    } else if (generate) {
        char named[64];
        snprintf(named, sizeof named, "%s (random weights)", which);
        status = bench_generation(m, random ? named : which, n, generate, reps, json);
    } else {
        int *tokens = malloc((size_t)n * sizeof *tokens);
        double *ms = malloc((size_t)reps * sizeof *ms);
        for (int i = 0; tokens && i < n; i++)
            tokens[i] = (int)((i * 2654435761u) % (unsigned)cfg.vocab);
        PhaseLine phase[MODEL_PHASES];
        double peak_before = bench_fma_peak(pool_threads(), NULL);     /* and after: bench_fma_peak_again */
        if (!tokens || !ms) {
            fprintf(stderr, "attn: out of memory\n");
            status = 2;
        } else if (bench_model_forward(m, tokens, n, reps, ms, phase, &err) != ATTN_OK) {
            fprintf(stderr, "attn: %s\n", err.msg);
            status = 2;
        }
        if (status == 0) {
            double median = bench_median(ms, reps);
            double gflops = model_forward_flops(&cfg, n) / (median * 1e6);
            int threads = pool_threads();
            double peak = bench_fma_peak_again(peak_before, threads, NULL);
            int bf16 = model_bf16_weights(m) > 0;
            char path[64], named[64];
            snprintf(path, sizeof path, "%s (%s)", bf16 ? "bf16" : "float32",
                     attention_linear_path(bf16 ? ATTN_DTYPE_BF16 : ATTN_DTYPE_F32));
            snprintf(named, sizeof named, "%s (random weights)", which);
            long rss = peak_kb();
            if (json) {
                JsonWriter w;
                jw_begin(&w);
                jw_str(&w, "model", random ? named : which);
                jw_str(&w, "products", path);
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
                jw_int(&w, "peak_rss_kb", rss);
                if (phases)
                    bench_phases_json(&w, phase, MODEL_PHASES, peak);
                jw_end(&w);
                jw_print(&w, stdout);
            } else {
                char shown[4 * PATH_MAX];   /* the path as typed: its ESC and BEL shown, not obeyed */
                printf("%s, %lld parameters, %d tokens, %d thread%s: median %.1f ms (%.1f to %.1f), %.0f tokens/s, "
                       "%.1f GFLOP/s, %.0f%% of the FMA peak (%.1f GFLOP/s); products %s, peak memory %.0f MB\n",
                       random ? named : term_escape(which, shown, sizeof shown),
                       (long long)model_params(m), n, threads,
                       threads == 1 ? "" : "s", median,
                       ms[0], ms[reps - 1], n / (median / 1e3), gflops, peak > 0 ? 100 * gflops / peak : 0, peak,
                       path, rss / 1024.0);
                if (phases)
                    bench_phases_print(stdout, phase, MODEL_PHASES, median, peak);
            }
        }
        free(tokens);
        free(ms);
    }
    model_dir_close(&md);
    return status;
}

int cli_train_bench(int argc, char **argv)
{
    int steps = 10, json = 0;
    for (int i = 1; i < argc; i++) {
        long v;
        if (strcmp(argv[i], "--train") == 0)
            ;
        else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
            if (num_parse_whole(argv[++i], 1, 1000, &v) != 0) {
                fprintf(stderr, "attn: --steps is from 1 to 1000\n");
                return 2;
            }
            steps = (int)v;
        }
        else if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else if (!threads_option(argc, argv, &i)) {
            fprintf(stderr, "attn: bench --train takes --steps N and --json\nusage: attn bench --train [--steps N] "
                            "[--json]\n");
            return 2;
        }
    }
    if (steps < 1 || steps > 1000) {
        fprintf(stderr, "attn: --steps is from 1 to 1000\n");
        return 2;
    }
    GptShape s = { 4, 4, 128, 128, 256 };
    ModelConfig cfg = gpt_config(&s);
    int B = 16, T = s.context;
    AttnError err = { 0 };
    Model *m = model_block_new(&cfg, &err);
    ModelTrain *g = m ? model_train_new(m, B, &err) : NULL;
    int *tok = malloc((size_t)B * (T + 1) * sizeof *tok), *in = malloc((size_t)B * T * sizeof *in);
    int *tg = malloc((size_t)B * T * sizeof *tg);
    double *ms = malloc((size_t)steps * sizeof *ms);
    if (!g || !tok || !in || !tg || !ms) {
        fprintf(stderr, "attn: %s\n", g ? "out of memory" : err.msg);
        model_train_free(g), model_free(m), free(tok), free(in), free(tg), free(ms);
        return 2;
    }
    Rng r;
    rng_seed(&r, 1);
    model_train_init(m, &r);
    GptAdamW a = { 1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f };
    double peak_before = bench_fma_peak(pool_threads(), NULL);     /* and after: bench_fma_peak_again */
    for (int k = -1; k < steps; k++) {
        for (int i = 0; i < B * (T + 1); i++)
            tok[i] = (int)(rng_u32(&r) % 256u);
        for (int b = 0; b < B; b++)
            for (int t = 0; t < T; t++)
                in[b * T + t] = tok[b * (T + 1) + t], tg[b * T + t] = tok[b * (T + 1) + t + 1];
        double t0 = bench_now_ms();
        model_train_forward(g, in, tg, B, T);
        model_train_backward(g);
        model_train_adamw(g, &a, k + 2);
        if (k >= 0)
            ms[k] = bench_now_ms() - t0;    /* the first step only warms up */
    }
    double median = bench_median(ms, steps);
    double gflops = model_train_flops(&cfg, B, T) / (median * 1e6), tps = B * T / (median / 1e3);
    int threads = pool_threads();
    double peak = bench_fma_peak_again(peak_before, threads, NULL);
    if (json) {
        JsonWriter w;
        jw_begin(&w);
        jw_str(&w, "model", "attn train's default: 4 layers, 4 heads, width 128, context 128, batch 16");
        jw_int(&w, "steps", steps);
        jw_int(&w, "threads", threads);
        jw_num(&w, "median_ms", median, 3);
        jw_num(&w, "tokens_per_s", tps, 1);
        jw_num(&w, "gflops", gflops, 2);
        jw_num(&w, "peak_gflops", peak, 2);
        jw_num(&w, "peak_share", peak > 0 ? gflops / peak : 0, 4);
        jw_end(&w);
        jw_print(&w, stdout);
    } else {
        printf("a training step of attn train's default model (batch 16 x 128 bytes), %d thread%s: median %.1f ms, "
               "%.0f tokens/s, %.1f GFLOP/s, %.0f%% of the FMA peak (%.1f GFLOP/s)\n", threads, threads == 1 ? "" : "s",
               median, tps, gflops,
               peak > 0 ? 100 * gflops / peak : 0, peak);
    }
    model_train_free(g), model_free(m), free(tok), free(in), free(tg), free(ms);
    return 0;
}

/* ---- attn bench --tokenizer ---- */

static int bench_tokenizer_usage(const char *why)
{
    fprintf(stderr, "attn: %s\nusage: attn bench --tokenizer PATH [--text FILE] [--reps R] [--json]\n", why);
    return 2;
}

/* The tokenizer of PATH: a model folder (its config.json's vocabulary,
 * its tokenizer.json, or vocab.json and merges.txt) or a tokenizer.json
 * itself; the bytes of its files in *bytes. NULL with why. */
static Bpe *open_tokenizer(const char *path, size_t *bytes, char *why, size_t size)
{
    struct stat st;
    char file[1200];
    *bytes = 0;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        ModelDir md;
        static const char *const names[] = { "tokenizer.json", "vocab.json", "merges.txt" };
        for (int i = 0; i < 3 && !(i > 0 && *bytes && i == 1); i++) {
            snprintf(file, sizeof file, "%s/%s", path, names[i]);
            if (stat(file, &st) == 0)
                *bytes += (size_t)st.st_size;   /* tokenizer.json, else the other two */
        }
        if (model_dir_config(path, &md, why, size) != 0 || model_dir_tokenizer(&md, why, size) != 0) {
            model_dir_close(&md);
            return NULL;
        }
        Bpe *b = md.bpe;
        md.bpe = NULL;      /* now the caller's */
        model_dir_close(&md);
        if (!b)
            snprintf(why, size, "%s has no tokenizer (tokenizer.json, or vocab.json and merges.txt)", path);
        return b;
    }
    char *json = NULL, msg[1024];
    AttnError err = { 0 };
    if (fileread_text(path, 64L << 20, &json, bytes, msg, sizeof msg) != 0) {
        snprintf(why, size, "%.1000s: %s", path, msg);
        return NULL;
    }
    char *z = realloc(json, *bytes + 1);
    Bpe *b = NULL;
    if (z) {
        z[*bytes] = '\0';
        json = z;
        if (!(b = bpe_open_json(json, 1 << 24, &err)))
            snprintf(why, size, "%.1000s: %s", path, err.msg);
    } else {
        snprintf(why, size, "out of memory");
    }
    free(json);
    return b;
}

static long peak_kb(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

/* `attn bench --tokenizer PATH [--text FILE] [--reps R] [--json]`: how
 * long the tokenizer takes to load (the median of R loads) and how far the
 * first load raised the peak memory, beside its files' size; then the
 * first 100 KB and 400 KB of a text (the tiny Shakespeare by default,
 * repeated to be long enough) encoded, the median of R runs each, and how
 * many times the one costs the other: linear is 4. Reported, never
 * asserted. */
int cli_tokenizer_bench(int argc, char **argv)
{
    const char *path = NULL, *text_path = NULL;
    int reps = 3, json = 0;
    for (int i = 1; i < argc; i++) {
        long v;
        if (strcmp(argv[i], "--tokenizer") == 0 && i + 1 < argc)
            path = argv[++i];
        else if (strcmp(argv[i], "--text") == 0 && i + 1 < argc)
            text_path = argv[++i];
        else if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc && num_parse_whole(argv[++i], 1, 100, &v) == 0)
            reps = (int)v;
        else if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else
            return bench_tokenizer_usage("bench --tokenizer takes --text FILE, --reps R (1 to 100) and --json");
    }
    if (!path)
        return bench_tokenizer_usage("which tokenizer? a model folder or a tokenizer.json");
    char why[2048], shown[4200], msg[1024], shipped[1200];
    size_t bytes = 0, len = 0;
    double load_ms[100], load_cpu[100];
    long before = peak_kb(), grew = 0;
    Bpe *b = NULL;
    for (int r = 0; r < reps; r++) {
        bpe_free(b);
        double t0 = bench_now_ms(), c0 = bench_cpu_now_ms();
        if (!(b = open_tokenizer(path, &bytes, why, sizeof why))) {
            fprintf(stderr, "attn: %s\n", term_escape(why, shown, sizeof shown));
            return 2;
        }
        load_ms[r] = bench_now_ms() - t0;
        load_cpu[r] = bench_cpu_now_ms() - c0;
        if (r == 0)
            grew = peak_kb() - before;
    }
    double load = bench_median(load_ms, reps), load_c = bench_median(load_cpu, reps);
    if (!text_path) {
        const char *dir = lessonfile_shipped_models();
        snprintf(shipped, sizeof shipped, "%s/tinyshakespeare.txt", dir ? dir : "models");
        text_path = shipped;
    }
    char *text = NULL;
    if (fileread_text(text_path, 64L << 20, &text, &len, msg, sizeof msg) != 0 || len == 0) {
        fprintf(stderr, "attn: %s: %s\n", term_escape(text_path, shown, sizeof shown), len ? msg : "empty");
        bpe_free(b), free(text);
        return 2;
    }
    /* 400 KB of it: repeated when shorter */
    enum { BIG = 400 * 1024 };
    char *big = malloc(BIG + 1);     /* and the byte after, to see where a character starts */
    for (size_t k = 0; big && k <= BIG; k++)
        big[k] = text[k % len];
    free(text);
    size_t sizes[2] = { 100 * 1024, BIG };
    double ms[2][100];
    long tokens[2] = { 0, 0 };
    int status = big ? 0 : 2;
    for (int s = 0; status == 0 && s < 2; s++) {
        size_t cut = sizes[s];
        while (cut > 0 && ((unsigned char)big[cut] & 0xc0) == 0x80)
            cut--;      /* at a character's start */
        sizes[s] = cut;
        for (int r = 0; status == 0 && r < reps; r++) {
            int *ids;
            AttnError err = { 0 };
            double t0 = bench_now_ms();
            tokens[s] = bpe_encode_all(b, big, cut, &ids, &err);
            ms[s][r] = bench_now_ms() - t0;
            free(ids);
            if (tokens[s] < 0) {
                fprintf(stderr, "attn: %s\n", term_escape(err.msg, shown, sizeof shown));
                status = 2;
            }
        }
    }
    if (status == 0) {
        double small = bench_median(ms[0], reps), large = bench_median(ms[1], reps);
        if (json) {
            JsonWriter w;
            jw_begin(&w);
            jw_str(&w, "tokenizer", path);
            jw_int(&w, "file_bytes", (long long)bytes);
            jw_num(&w, "load_ms", load, 1);
            jw_num(&w, "load_cpu_ms", load_c, 1);
            jw_int(&w, "peak_kb", grew);
            jw_num(&w, "peak_per_file_byte", bytes ? grew * 1024.0 / (double)bytes : 0, 2);
            jw_newline(&w);
            jw_array(&w, "encode");
            for (int s = 0; s < 2; s++) {
                jw_object(&w, NULL);
                jw_int(&w, "bytes", (long long)sizes[s]);
                jw_int(&w, "tokens", tokens[s]);
                jw_num(&w, "median_ms", s ? large : small, 2);
                jw_close(&w, '}');
            }
            jw_close(&w, ']');
            jw_newline(&w);
            jw_num(&w, "ratio", small > 0 ? large / small : 0, 2);
            jw_end(&w);
            jw_print(&w, stdout);
        } else {
            printf("%s: %.1f MB of files, loaded in %.0f ms (%.0f ms of CPU; the median of %d), peak memory up %.1f MB "
                   "(%.1f times the files)\n", term_escape(path, shown, sizeof shown), bytes / 1048576.0, load,
                   load_c, reps, grew / 1024.0, bytes ? grew * 1024.0 / (double)bytes : 0);
            printf("encoding %zu bytes: %ld tokens in %.1f ms; %zu bytes: %ld tokens in %.1f ms; the longer costs %.2f "
                   "times the shorter (linear: 4)\n", sizes[0], tokens[0], small, sizes[1], tokens[1], large,
                   small > 0 ? large / small : 0);
        }
    }
    free(big);
    bpe_free(b);
    return status;
}
