/*
 * trainer.c - a training run, a step at a time (trainer.h).
 */
#include "trainer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model.h"
#include "model_dir.h"
#include "model_write.h"
#include "filewrite.h"

#define EVAL_BATCHES 4      /* batches of the validation text per evaluation */
#define INDUCTION_REP 24    /* the random sequence shown twice, per showing */
#define INDUCTION_PROBES 4  /* sequences an induction score is the mean over */

struct Trainer {
    TrainRun run;
    GptTrain *g;
    TrainData d;
    char *out;                  /* --out, owned                          */
    int *inputs, *targets;
    size_t *start;
    double t0;                  /* the clock at the last evaluation */
    int64_t since;              /* the step then */
    Rng sampler;                /* the samples' and probes' own generator */
    uint64_t byte_at_most[256]; /* how many training bytes are <= each byte */
};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* The weights of the model directory dir into a new GptTrain: GPT-2 of the
 * 256 bytes, every tensor by name. NULL with why. */
static GptTrain *from_init(const char *dir, int batch, char *why, size_t size)
{
    ModelDir md;
    if (model_dir_config(dir, &md, why, size) != 0 || model_dir_weights(&md, why, size) != 0) {
        model_dir_close(&md);
        return NULL;
    }
    const ModelConfig *c = &md.cfg;
    GptTrain *g = NULL;
    AttnError err = { 0 };
    if (c->kind != FAMILY_GPT2 || c->vocab != 256) {
        snprintf(why, size, "%s/config.json: attn trains GPT-2 on the 256 bytes; this is %s with %d tokens", dir,
                 c->family, c->vocab);
    } else {
        GptShape s = { c->layers, c->heads, c->d_model, c->context, c->vocab };
        if (!(g = gpt_train_new(&s, batch, &err)))
            snprintf(why, size, "%s", err.msg);
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
            snprintf(why, size, "%s/model.safetensors: no tensor %s of %zu numbers", dir, t[i].name, t[i].count);
            gpt_train_free(g);
            g = NULL;
            break;
        }
        safetensors_to_f32(st, 0, st->count, w + t[i].offset);
    }
    model_dir_close(&md);
    return g;
}

const char *const trainer_files[] = { "checkpoint.bin", "config.json", "model.safetensors", "vocab.json", "merges.txt",
                                      "train.log", NULL };

Trainer *trainer_open(const TrainerOptions *o, char *why, size_t size)
{
    /* the folder first: a run that could not keep its checkpoint there is
     * refused at once, not at its first evaluation */
    if (!o->validate && filewrite_claim(o->out, trainer_files, "checkpoint.bin", why, size) != 0)
        return NULL;
    Trainer *t = calloc(1, sizeof *t);
    if (!t || !(t->out = strdup(o->out))) {
        free(t);
        snprintf(why, size, "out of memory");
        return NULL;
    }
    if (o->resume) {
        if (train_checkpoint_load(o->out, &t->run, &t->g, why, size) != 0) {
            trainer_free(t);
            return NULL;
        }
    } else {
        t->run.set = o->set;
        if (o->init) {
            if (!(t->g = from_init(o->init, o->set.batch, why, size))) {
                trainer_free(t);
                return NULL;
            }
            t->run.set.shape = *gpt_train_shape(t->g);
        } else {
            AttnError err = { 0 };
            if (!(t->g = gpt_train_new(&o->set.shape, o->set.batch, &err))) {
                snprintf(why, size, "%s", err.msg);
                trainer_free(t);
                return NULL;
            }
            Rng r;
            rng_seed(&r, o->set.seed);
            gpt_train_init(t->g, &r);
        }
        rng_seed(&t->run.rng, o->set.seed + 1);     /* the batches' own stream */
    }
    const TrainSettings *s = &t->run.set;
    int B = s->batch, T = s->shape.context;
    if (train_data_load(o->data, T, &t->d, why, size) != 0) {
        trainer_free(t);
        return NULL;
    }
    if (o->resume && (t->run.data_len != t->d.len || t->run.data_hash != t->d.hash)) {
        snprintf(why, size, "%s: not the text the run in %s was trained on", o->data, o->out);
        trainer_free(t);
        return NULL;
    }
    t->run.data_len = t->d.len;
    t->run.data_hash = t->d.hash;
    for (size_t i = 0; i < t->d.train_len; i++)
        t->byte_at_most[t->d.bytes[i]]++;
    for (int b = 1; b < 256; b++)
        t->byte_at_most[b] += t->byte_at_most[b - 1];
    t->inputs = malloc((size_t)B * T * sizeof *t->inputs);
    t->targets = malloc((size_t)B * T * sizeof *t->targets);
    t->start = malloc((size_t)B * sizeof *t->start);
    if (!t->inputs || !t->targets || !t->start) {
        snprintf(why, size, "out of memory");
        trainer_free(t);
        return NULL;
    }
    rng_seed(&t->sampler, 7);
    t->t0 = now_s();
    t->since = t->run.step;
    return t;
}

void trainer_free(Trainer *t)
{
    if (!t)
        return;
    free(t->inputs), free(t->targets), free(t->start);
    train_data_free(&t->d);
    train_run_free(&t->run);
    gpt_train_free(t->g);
    free(t->out);
    free(t);
}

const TrainRun *trainer_run(const Trainer *t) { return &t->run; }
GptTrain *trainer_model(Trainer *t) { return t->g; }
const TrainData *trainer_data(const Trainer *t) { return &t->d; }
const char *trainer_out(const Trainer *t) { return t->out; }
int trainer_done(const Trainer *t) { return t->run.step >= t->run.set.steps; }

double trainer_seconds_left(const Trainer *t, double rate)
{
    const TrainSettings *s = &t->run.set;
    return rate > 0 ? (double)(s->steps - t->run.step) * s->batch * s->shape.context / rate : 0;
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

double trainer_validate(Trainer *t)
{
    const TrainData *d = &t->d;
    int B = t->run.set.batch, T = t->run.set.shape.context, total = EVAL_BATCHES * B;
    size_t span = d->len - d->val_at - (size_t)T - 1;
    double sum = 0;
    for (int e = 0; e < EVAL_BATCHES; e++) {
        for (int b = 0; b < B; b++)
            t->start[b] = d->val_at + (total > 1 ? span * (size_t)(e * B + b) / (size_t)(total - 1) : 0);
        fill(d, t->start, B, T, t->inputs, t->targets);
        sum += gpt_train_forward(t->g, t->inputs, t->targets, B, T);
    }
    return sum / EVAL_BATCHES;
}

int trainer_checkpoint(Trainer *t, char *why, size_t size)
{
    return train_checkpoint_save(t->out, &t->run, t->g, why, size);
}

int trainer_save_model(Trainer *t, char *why, size_t size) { return model_write_gpt2(t->out, t->g, why, size); }

int trainer_step(Trainer *t, double *rate, char *why, size_t size)
{
    TrainRun *r = &t->run;
    const TrainSettings *s = &r->set;
    int B = s->batch, T = s->shape.context;
    /* a batch: B sequences from random places in the training bytes */
    for (int b = 0; b < B; b++)
        t->start[b] = (size_t)(rng_u32(&r->rng) % (uint32_t)(t->d.train_len - (size_t)T));
    fill(&t->d, t->start, B, T, t->inputs, t->targets);
    double lr = train_lr(s, r->step);
    r->loss_sum += gpt_train_forward(t->g, t->inputs, t->targets, B, T);
    r->loss_n++;
    gpt_train_backward(t->g);
    GptAdamW a = { (float)lr, 0.9f, 0.95f, 1e-8f, (float)s->weight_decay };
    gpt_train_adamw(t->g, &a, (int)(r->step + 1));
    r->step++;
    if (r->step % s->eval_every != 0 && r->step != s->steps)
        return 0;
    TrainPoint p = { r->step, r->loss_sum / (double)r->loss_n, trainer_validate(t), lr };
    r->loss_sum = 0;
    r->loss_n = 0;
    double elapsed = now_s() - t->t0;
    *rate = (double)(r->step - t->since) * B * T / fmax(elapsed, 1e-9);
    t->t0 = now_s();
    t->since = r->step;
    if (train_run_add_point(r, &p) != 0) {
        snprintf(why, size, "out of memory");
        return -1;
    }
    return trainer_checkpoint(t, why, size) == 0 ? 1 : -1;
}

int trainer_probe(Trainer *t, const char *text, float *out, int *n)
{
    const GptShape *s = &t->run.set.shape;
    int len = (int)strlen(text);
    len = len < s->context ? len : s->context;
    if (len < 1)
        return -1;
    for (int i = 0; i < len; i++)
        t->inputs[i] = (unsigned char)text[i];
    gpt_train_forward(t->g, t->inputs, NULL, 1, len);
    for (int l = 0; l < s->layers; l++)
        memcpy(out + (size_t)l * s->heads * len * len, gpt_train_attention(t->g, l),
               (size_t)s->heads * len * len * sizeof *out);
    *n = len;
    return 0;
}

/* A byte drawn as often as the training text uses it. */
static int text_byte(const Trainer *t, Rng *g)
{
    uint64_t total = t->byte_at_most[255];
    uint64_t u = ((uint64_t)rng_u32(g) << 32 | rng_u32(g)) % (total ? total : 1);
    int b = 0;
    while (b < 255 && t->byte_at_most[b] <= u)
        b++;
    return b;
}

int trainer_induction(Trainer *t, double *scores)
{
    const GptShape *s = &t->run.set.shape;
    int rep = INDUCTION_REP < s->context / 2 ? INDUCTION_REP : s->context / 2, n = 2 * rep;
    if (rep < 2)
        return -1;
    for (int k = 0; k < s->layers * s->heads; k++)
        scores[k] = 0;
    /* bytes as often as the text has them: a byte the model hardly saw is
     * one it cannot tell from another, and a copy of noise it never reads
     * says little of what it does on text */
    Rng g;
    rng_seed(&g, 1234);     /* the same sequences every time: a curve of one measure */
    for (int probe = 0; probe < INDUCTION_PROBES; probe++) {
        for (int i = 0; i < rep; i++)
            t->inputs[i] = t->inputs[i + rep] = text_byte(t, &g);
        gpt_train_forward(t->g, t->inputs, NULL, 1, n);
        for (int l = 0; l < s->layers; l++)
            for (int h = 0; h < s->heads; h++)
                scores[l * s->heads + h] +=
                    model_induction_band(gpt_train_attention(t->g, l) + (size_t)h * n * n, rep) / INDUCTION_PROBES;
    }
    return 0;
}

void trainer_sample(Trainer *t, const char *prompt, char *out, size_t len)
{
    const GptShape *s = &t->run.set.shape;
    int n = (int)strlen(prompt);
    n = n < s->context ? n : s->context;
    for (int i = 0; i < n; i++)
        t->inputs[i] = (unsigned char)prompt[i];
    size_t k = 0;
    while (k + 1 < len && n > 0) {
        gpt_train_forward(t->g, t->inputs, NULL, 1, n);
        const float *z = gpt_train_logits(t->g) + (size_t)(n - 1) * s->vocab;
        double mx = z[0], sum = 0, p[256];
        for (int v = 1; v < s->vocab && v < 256; v++)
            mx = z[v] > mx ? z[v] : mx;
        for (int v = 0; v < s->vocab && v < 256; v++)
            sum += p[v] = exp((z[v] - mx) / 0.8);
        double u = (rng_u32(&t->sampler) / 4294967296.0) * sum;
        int next = 0;
        while (next < 255 && (u -= p[next]) > 0)
            next++;
        out[k++] = (char)next;
        if (n == s->context)
            memmove(t->inputs, t->inputs + 1, (size_t)(n - 1) * sizeof *t->inputs), n--;
        t->inputs[n++] = next;
    }
    out[k] = '\0';
}
