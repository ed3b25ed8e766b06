/*
 * train_cmd.c - `attn train`: a GPT-2 of the 256 bytes trained on a text
 * file (engine/train), from scratch or from --init DIR, with cross-entropy
 * and AdamW, evaluated on the file's last 10% every --eval-every steps; a
 * checkpoint written atomically at each evaluation and on SIGINT or
 * SIGTERM, so --resume continues where a run stopped, even one killed
 * outright; at the end the model saved as an ordinary checkpoint
 * (app/models/model_write.c) that `attn model` opens. --json prints a line
 * per evaluation ({"step", "train_loss", "val_loss", "lr", "tokens_per_s"})
 * and {"done": true, "out": DIR} at the end.
 */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blas.h"
#include "json_write.h"
#include "lesson.h"
#include "lessonfile.h"
#include "model_dir.h"
#include "model_write.h"
#include "train_state.h"

#define EVAL_BATCHES 4      /* batches of the validation text per evaluation */

static volatile sig_atomic_t stop_asked;

static void on_stop(int sig)
{
    stop_asked = sig;
}

static int train_usage(const char *why)
{
    char shown[1024];
    fprintf(stderr, "attn: %s\nusage: attn train [--data FILE] [--out DIR] [--layers L] [--heads H] [--d D] "
                    "[--context C] [--batch B] [--steps N] [--lr X] [--wd X] [--warmup K] [--schedule cosine|constant] "
                    "[--seed S] [--init DIR] [--resume] [--json] [--eval-every N] [--threads N]\n",
            lesson_escape(why, shown, sizeof shown));
    return 2;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* A whole number option in [lo, hi]: 0, or -1. */
static int whole(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static int real(const char *s, double lo, double hi, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v >= lo && v <= hi))
        return -1;
    *out = v;
    return 0;
}

/* The weights of the model directory dir into a new GptTrain: GPT-2 of the
 * 256 bytes, every tensor by name. NULL, having said why. */
static GptTrain *from_init(const char *dir, int batch)
{
    ModelDir md;
    char why[2048], shown[4200];
    if (model_dir_config(dir, &md, why, sizeof why) != 0 || model_dir_weights(&md, why, sizeof why) != 0) {
        fprintf(stderr, "attn: %s\n", lesson_escape(why, shown, sizeof shown));
        model_dir_close(&md);
        return NULL;
    }
    const ModelConfig *c = &md.cfg;
    GptTrain *g = NULL;
    AttnError err = { 0 };
    if (c->kind != FAMILY_GPT2 || c->vocab != 256) {
        snprintf(why, sizeof why, "%s/config.json: attn trains GPT-2 on the 256 bytes; this is %s with %d tokens",
                 dir, c->family, c->vocab);
    } else {
        GptShape s = { c->layers, c->heads, c->d_model, c->context, c->vocab };
        if (!(g = gpt_train_new(&s, batch, &err)))
            snprintf(why, sizeof why, "%s", err.msg);
    }
    int n;
    size_t count;
    const GptTensor *t = g ? gpt_train_tensors(g, &n) : NULL;
    float *w = g ? gpt_train_weights(g, &count) : NULL;
    for (int i = 0; g && i < n; i++) {
        char prefixed[80];
        snprintf(prefixed, sizeof prefixed, "transformer.%s", t[i].name);
        const StTensor *st = safetensors_find(&md.st, t[i].name);
        if (!st)
            st = safetensors_find(&md.st, prefixed);
        if (!st || st->count != (int64_t)t[i].count) {
            snprintf(why, sizeof why, "%s/model.safetensors: no tensor %s of %zu numbers", dir, t[i].name, t[i].count);
            gpt_train_free(g);
            g = NULL;
            break;
        }
        safetensors_to_f32(st, 0, st->count, w + t[i].offset);
    }
    if (!g)
        fprintf(stderr, "attn: %s\n", lesson_escape(why, shown, sizeof shown));
    model_dir_close(&md);
    return g;
}

/* B sequences of T bytes (and the byte after each) from start positions. */
static void fill(const TrainData *d, const size_t *start, int B, int T, int *inputs, int *targets)
{
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++) {
            inputs[b * T + t] = d->bytes[start[b] + (size_t)t];
            targets[b * T + t] = d->bytes[start[b] + (size_t)t + 1];
        }
}

/* The mean loss on EVAL_BATCHES batches spread evenly over the validation
 * bytes (the same ones every time). */
static double evaluate(GptTrain *g, const TrainData *d, int B, int T, int *inputs, int *targets)
{
    size_t span = d->len - d->val_at - (size_t)T - 1, start[4096];
    int total = EVAL_BATCHES * B;
    double sum = 0;
    for (int e = 0; e < EVAL_BATCHES; e++) {
        for (int b = 0; b < B; b++) {
            int k = e * B + b;
            start[b] = d->val_at + (total > 1 ? span * (size_t)k / (size_t)(total - 1) : 0);
        }
        fill(d, start, B, T, inputs, targets);
        sum += gpt_train_forward(g, inputs, targets, B, T);
    }
    return sum / EVAL_BATCHES;
}

static void say_point(const TrainPoint *p, double tokens_per_s, const TrainRun *r, double left_s, int json)
{
    if (json) {
        JsonWriter w;
        jw_begin(&w, stdout);
        jw_int(&w, "step", (long long)p->step);
        jw_num(&w, "train_loss", p->train_loss, 6);
        jw_num(&w, "val_loss", p->val_loss, 6);
        jw_num(&w, "lr", p->lr, -1);
        jw_num(&w, "tokens_per_s", tokens_per_s, 1);
        jw_end(&w);
    } else {
        printf("step %lld/%lld  train %.4f  val %.4f  lr %.6f  %.0f tokens/s  %.0fs left\n", (long long)p->step,
               (long long)r->set.steps, p->train_loss, p->val_loss, p->lr, tokens_per_s, left_s);
    }
    fflush(stdout);
}

int cli_train(int argc, char **argv)
{
    TrainSettings set;
    memset(&set, 0, sizeof set);        /* the checkpoint holds it whole */
    set.shape = (GptShape){ 4, 4, 128, 128, 256 };
    set.batch = 16;
    set.steps = 5000;
    set.lr = 1e-3;
    set.weight_decay = 0.1;
    set.warmup = 100;
    set.cosine = 1;
    set.seed = 1;
    set.eval_every = 100;
    const char *data = NULL, *out = "attn-model", *init = NULL;
    int resume = 0, json = 0, given = 0;
    long threads = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long n;
        double x;
        int ok = 1, takes = 1;
        if (strcmp(o, "--resume") == 0)
            resume = 1, takes = 0;
        else if (strcmp(o, "--json") == 0)
            json = 1, takes = 0;
        else if (!v)
            return train_usage(o[0] == '-' ? "an option without its value, or unknown" : "an argument attn train does "
                                                                                         "not take");
        else if (strcmp(o, "--data") == 0)
            data = v;
        else if (strcmp(o, "--out") == 0)
            out = v;
        else if (strcmp(o, "--init") == 0)
            init = v;
        else if (strcmp(o, "--layers") == 0)
            ok = !whole(v, 1, 64, &n) && (set.shape.layers = (int)n, given = 1);
        else if (strcmp(o, "--heads") == 0)
            ok = !whole(v, 1, 1024, &n) && (set.shape.heads = (int)n, given = 1);
        else if (strcmp(o, "--d") == 0)
            ok = !whole(v, 1, 8192, &n) && (set.shape.d = (int)n, given = 1);
        else if (strcmp(o, "--context") == 0)
            ok = !whole(v, 1, 8192, &n) && (set.shape.context = (int)n, given = 1);
        else if (strcmp(o, "--batch") == 0)
            ok = !whole(v, 1, 4096, &n) && (set.batch = (int)n, 1);
        else if (strcmp(o, "--steps") == 0)
            ok = !whole(v, 1, 100000000, &n) && (set.steps = n, 1);
        else if (strcmp(o, "--warmup") == 0)
            ok = !whole(v, 0, 100000000, &n) && (set.warmup = n, 1);
        else if (strcmp(o, "--seed") == 0)
            ok = !whole(v, 0, 4294967295L, &n) && (set.seed = (uint64_t)n, 1);
        else if (strcmp(o, "--eval-every") == 0)
            ok = !whole(v, 1, 100000000, &n) && (set.eval_every = n, 1);
        else if (strcmp(o, "--threads") == 0)
            ok = !whole(v, 1, 256, &threads);
        else if (strcmp(o, "--lr") == 0)
            ok = !real(v, 1e-9, 10, &x) && (set.lr = x, 1);
        else if (strcmp(o, "--wd") == 0)
            ok = !real(v, 0, 10, &x) && (set.weight_decay = x, 1);
        else if (strcmp(o, "--schedule") == 0)
            ok = (strcmp(v, "cosine") == 0 || strcmp(v, "constant") == 0) && (set.cosine = strcmp(v, "cosine") == 0, 1);
        else
            return train_usage("an unknown option");
        if (!ok) {
            char why[200];
            snprintf(why, sizeof why, "%s does not take '%.80s'", o, v);
            return train_usage(why);
        }
        i += takes;
    }
    if (resume && (init || given))
        return train_usage("--resume continues the run in --out as it was started: no --init, no new shape");
    if (threads)
        blas_set_threads((int)threads);
    char why[2048], shown[4200], path[1200];
    if (!data) {
        const char *shipped = lessonfile_shipped_models();
        snprintf(path, sizeof path, "%s/tinyshakespeare.txt", shipped ? shipped : "models");
        data = path;
    }
    /* the run: taken back, or begun */
    TrainRun run;
    GptTrain *g = NULL;
    memset(&run, 0, sizeof run);
    if (resume) {
        if (train_checkpoint_load(out, &run, &g, why, sizeof why) != 0) {
            fprintf(stderr, "attn: %s\n", lesson_escape(why, shown, sizeof shown));
            return 2;
        }
    } else {
        if (init) {
            if (!(g = from_init(init, set.batch)))
                return 2;
            set.shape = *gpt_train_shape(g);
        } else {
            AttnError err = { 0 };
            if (!(g = gpt_train_new(&set.shape, set.batch, &err)))
                return train_usage(err.msg);
            Rng r;
            rng_seed(&r, set.seed);
            gpt_train_init(g, &r);
        }
        run.set = set;
        rng_seed(&run.rng, set.seed + 1);      /* the batches' own stream */
    }
    const TrainSettings *s = &run.set;
    int B = s->batch, T = s->shape.context;
    TrainData d;
    if (train_data_load(data, T, &d, why, sizeof why) != 0) {
        fprintf(stderr, "attn: %s\n", lesson_escape(why, shown, sizeof shown));
        gpt_train_free(g);
        train_run_free(&run);
        return 2;
    }
    if (resume && (run.data_len != d.len || run.data_hash != d.hash)) {
        fprintf(stderr, "attn: %s: not the text the run in %s was trained on\n", lesson_escape(data, shown, sizeof shown),
                out);
        gpt_train_free(g), train_run_free(&run), train_data_free(&d);
        return 2;
    }
    run.data_len = d.len;
    run.data_hash = d.hash;
    int *inputs = malloc((size_t)B * T * sizeof *inputs), *targets = malloc((size_t)B * T * sizeof *targets);
    size_t *start = malloc((size_t)B * sizeof *start);
    int status = inputs && targets && start ? 0 : 2;
    if (status)
        fprintf(stderr, "attn: out of memory\n");
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    double t0 = now_s(), since = run.step;
    while (status == 0 && run.step < s->steps) {
        /* a batch: B sequences from random places in the training bytes */
        for (int b = 0; b < B; b++)
            start[b] = (size_t)(rng_u32(&run.rng) % (uint32_t)(d.train_len - (size_t)T));
        fill(&d, start, B, T, inputs, targets);
        double lr = train_lr(s, run.step);
        run.loss_sum += gpt_train_forward(g, inputs, targets, B, T);
        run.loss_n++;
        gpt_train_backward(g);
        GptAdamW a = { (float)lr, 0.9f, 0.95f, 1e-8f, (float)s->weight_decay };
        gpt_train_adamw(g, &a, (int)(run.step + 1));
        run.step++;
        if (run.step % s->eval_every == 0 || run.step == s->steps) {
            TrainPoint p = { run.step, run.loss_sum / (double)run.loss_n, evaluate(g, &d, B, T, inputs, targets), lr };
            run.loss_sum = 0;
            run.loss_n = 0;
            double elapsed = now_s() - t0, rate = (run.step - since) * (double)B * T / fmax(elapsed, 1e-9);
            if (train_run_add_point(&run, &p) != 0) {
                fprintf(stderr, "attn: out of memory\n");
                status = 2;
            } else if (train_checkpoint_save(out, &run, g, why, sizeof why) != 0) {
                fprintf(stderr, "attn: %s\n", lesson_escape(why, shown, sizeof shown));
                status = 1;
            }
            say_point(&p, rate, &run, (s->steps - run.step) * elapsed / fmax(1, run.step - since), json);
            t0 = now_s();
            since = run.step;
        }
        if (stop_asked && status == 0) {
            /* stopped: all of it kept, to go on with --resume */
            if (train_checkpoint_save(out, &run, g, why, sizeof why) != 0) {
                fprintf(stderr, "attn: %s\n", lesson_escape(why, shown, sizeof shown));
                status = 1;
            } else {
                fprintf(stderr, "attn: stopped at step %lld of %lld; attn train --resume --out %s goes on\n",
                        (long long)run.step, (long long)s->steps, lesson_escape(out, shown, sizeof shown));
                status = 128 + (int)stop_asked;
            }
            break;
        }
    }
    if (status == 0 && model_write_gpt2(out, g, why, sizeof why) != 0) {
        fprintf(stderr, "attn: %s\n", lesson_escape(why, shown, sizeof shown));
        status = 1;
    }
    if (status == 0) {
        if (json) {
            JsonWriter w;
            jw_begin(&w, stdout);
            jw_bool(&w, "done", 1);
            jw_str(&w, "out", out);
            jw_end(&w);
        } else {
            printf("done: the model is in %s (attn model %s opens it)\n", out, out);
        }
    }
    free(inputs), free(targets), free(start);
    train_data_free(&d);
    train_run_free(&run);
    gpt_train_free(g);
    if (status == 0 && fflush(stdout) != 0)
        status = 2;
    return status;
}
