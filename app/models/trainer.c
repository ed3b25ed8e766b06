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
#include "model_gen.h"
#include "model_dir.h"
#include "model_look.h"
#include "model_write.h"
#include "filewrite.h"

#define EVAL_BATCHES 4      /* batches of the validation text per evaluation */

struct Trainer {
    TrainRun run;
    Model *m;                   /* the one model: trained, probed, saved     */
    ModelTrain *tr;             /* its gradients, moments and activations    */
    TrainData d;
    char *out;                  /* --out, owned                          */
    int *inputs, *targets;
    size_t *start;
    double t0;                  /* the clock at the last evaluation */
    int64_t since;              /* the step then */
    Rng sampler;                /* the samples' own generator */
    double counts[256];         /* how often each byte comes in the training text */
};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* The model of the directory dir, its weights copied into a block of its
 * own: GPT-2 of the 256 bytes. NULL with why. */
static Model *from_init(const char *dir, char *why, size_t size)
{
    ModelDir md;
    if (model_dir_config(dir, &md, why, size) != 0 || model_dir_weights(&md, why, size) != 0) {
        model_dir_close(&md);
        return NULL;
    }
    const ModelConfig *c = &md.cfg;
    Model *m = NULL;
    AttnError err = { 0 };
    if (c->kind != FAMILY_GPT2 || c->vocab != TRAIN_VOCAB) {
        snprintf(why, size, "%s/config.json: attn trains GPT-2 on the 256 bytes; this is %s with %d tokens", dir,
                 c->family, c->vocab);
    } else if (model_to_block(md.model, &err) != ATTN_OK) {
        snprintf(why, size, "%s: %s", dir, err.msg);
    } else {
        m = md.model;       /* its own now: the files may close */
        md.model = NULL;
    }
    model_dir_close(&md);
    return m;
}

const char *const trainer_files[] = { "checkpoint.bin", "config.json", "model.safetensors", "vocab.json", "merges.txt",
                                      MODEL_COUNTS_FILE, "train.log", NULL };

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
    AttnError err = { 0 };
    if (o->resume) {
        if (train_checkpoint_load(o->out, &t->run, &t->m, &t->tr, why, size) != 0) {
            trainer_free(t);
            return NULL;
        }
    } else {
        t->run.set = o->set;
        if (o->init) {
            if (!(t->m = from_init(o->init, why, size))) {
                trainer_free(t);
                return NULL;
            }
            const ModelConfig *c = model_config(t->m);
            t->run.set.shape = (GptShape){ c->layers, c->heads, c->d_model, c->context, c->vocab };
        } else {
            ModelConfig c = gpt_config(&o->set.shape);
            if ((t->m = model_block_new(&c, &err)) != NULL) {
                Rng r;
                rng_seed(&r, o->set.seed);
                model_train_init(t->m, &r);
            }
        }
        if (!t->m || !(t->tr = model_train_new(t->m, o->set.batch, &err))) {
            if (err.msg[0])
                snprintf(why, size, "%s", err.msg);
            trainer_free(t);
            return NULL;
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
        t->counts[t->d.bytes[i]]++;
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
    model_train_free(t->tr);
    model_free(t->m);
    free(t->out);
    free(t);
}

const TrainRun *trainer_run(const Trainer *t) { return &t->run; }
Model *trainer_model(Trainer *t) { return t->m; }
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
        sum += model_train_forward(t->tr, t->inputs, t->targets, B, T);
    }
    return sum / EVAL_BATCHES;
}

int trainer_checkpoint(Trainer *t, char *why, size_t size)
{
    return train_checkpoint_save(t->out, &t->run, t->tr, why, size);
}

int trainer_save_model(Trainer *t, char *why, size_t size)
{
    return model_write_gpt2(t->out, t->m, t->counts, why, size);
}

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
    r->loss_sum += model_train_forward(t->tr, t->inputs, t->targets, B, T);
    r->loss_n++;
    model_train_backward(t->tr);
    GptAdamW a = { (float)lr, 0.9f, 0.95f, 1e-8f, (float)s->weight_decay };
    model_train_adamw(t->tr, &a, (int)(r->step + 1));
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
    /* the model screen's own pass and heads (model_forward, model_attention) */
    ModelRun run;
    AttnError err = { 0 };
    if (model_forward(t->m, t->inputs, len, &run, &err) != ATTN_OK)
        return -1;
    int rc = 0;
    for (int l = 0; rc == 0 && l < s->layers; l++)
        for (int h = 0; rc == 0 && h < s->heads; h++)
            rc = model_attention(t->m, &run, l, h, out + ((size_t)l * s->heads + h) * len * len, &err) == ATTN_OK ? 0
                                                                                                               : -1;
    model_run_free(&run);
    *n = len;
    return rc;
}

int trainer_induction(Trainer *t, double *scores)
{
    const GptShape *s = &t->run.set.shape;
    HeadScores *hs = malloc((size_t)s->layers * s->heads * sizeof *hs);
    AttnError err = { 0 };
    /* the model screen's probe, with the bytes as often as the training
     * text has them: the score attn model gives the saved model */
    if (!hs || model_probe_heads(t->m, t->counts, hs, &err) != ATTN_OK) {
        free(hs);
        return -1;
    }
    for (int k = 0; k < s->layers * s->heads; k++)
        scores[k] = hs[k].induction;
    free(hs);
    return 0;
}

void trainer_sample(Trainer *t, const char *prompt, char *out, size_t len)
{
    int context = t->run.set.shape.context, n = (int)strlen(prompt), id;
    const char *from = prompt + (n > context ? n - context : 0);
    n = n < context ? n : context;
    for (int i = 0; i < n; i++)
        t->inputs[i] = (unsigned char)from[i];
    ModelSampling at = { TRAINER_SAMPLE_T, 0, 1 };
    ModelDist d = { 0 };
    AttnError err = { 0 };
    ModelGen *g = NULL;
    if (n > 0 && model_dist_init(&d, TRAIN_VOCAB, &err) == ATTN_OK)
        g = model_gen_new(t->m, t->inputs, n, 1, &err);
    size_t k = 0;
    while (g && k + 1 < len) {
        if (model_gen_len(g) == context) {
            /* the context full: on from its last half, a cache of its own */
            int keep = context / 2;
            memcpy(t->inputs, model_gen_ids(g) + context - keep, (size_t)keep * sizeof *t->inputs);
            model_gen_free(g);
            if (!(g = model_gen_new(t->m, t->inputs, keep, 1, &err)))
                break;
        }
        double p;
        if (model_gen_token(g, &at, &t->sampler, &d, &id, &p, &err) != ATTN_OK)
            break;
        out[k++] = (char)(id ? id : 0x7f);     /* a 0 byte would end the text */
    }
    out[k] = '\0';
    model_dist_free(&d);
    model_gen_free(g);
}
