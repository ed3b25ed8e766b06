/*
 * trainer.c - a training run, a step at a time (trainer.h).
 */
#include "trainer.h"

#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fileclaim.h"
#include "filewrite.h"
#include "model.h"
#include "model_gen.h"
#include "model_dir.h"
#include "model_look.h"
#include "model_write.h"
#include "clock.h"

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
    int stepped;                /* a step was taken in this process */
};

static double now_s(void) { return clock_seconds(); }

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

/* Each setting a person gave that the run (or the model of --init) has
 * otherwise: the first named, with both values, into why; -1. 0 when all
 * agree. shape_only: the shape alone (--init; --context may be shorter). */
static int settings_agree(const TrainerOptions *o, const TrainSettings *run, int shape_only, char *why, size_t size)
{
    const TrainSettings *g = &o->set;
    const struct {
        unsigned bit;
        const char *name;
        double given, has;
        int shape;
    } each[] = {
        { GIVEN_LAYERS, "--layers", g->shape.layers, run->shape.layers, 1 },
        { GIVEN_HEADS, "--heads", g->shape.heads, run->shape.heads, 1 },
        { GIVEN_D, "--d", g->shape.d, run->shape.d, 1 },
        { GIVEN_CONTEXT, "--context", g->shape.context, shape_only ? g->shape.context : train_seq(run), 1 },
        { GIVEN_BATCH, "--batch", g->batch, run->batch, 0 },
        { GIVEN_STEPS, "--steps", (double)g->steps, (double)run->steps, 0 },
        { GIVEN_LR, "--lr", g->lr, run->lr, 0 },
        { GIVEN_WD, "--wd", g->weight_decay, run->weight_decay, 0 },
        { GIVEN_WARMUP, "--warmup", (double)g->warmup, (double)run->warmup, 0 },
        { GIVEN_SCHEDULE, "--schedule", g->cosine, run->cosine, 0 },
        { GIVEN_SEED, "--seed", (double)g->seed, (double)run->seed, 0 },
        { GIVEN_EVAL, "--eval-every", (double)g->eval_every, (double)run->eval_every, 0 },
    };
    for (size_t i = 0; i < sizeof each / sizeof each[0]; i++) {
        if (!(o->given & each[i].bit) || each[i].given == each[i].has || (shape_only && !each[i].shape))
            continue;
        if (shape_only)
            snprintf(why, size, "%s %g, but the model in %s has %g: --init keeps the model's shape", each[i].name,
                     each[i].given, o->init, each[i].has);
        else
            snprintf(why, size, "%s %g, but the run in %s has %g: --resume goes on with the run's own settings (leave "
                     "%s out, or start a new run in another --out)", each[i].name, each[i].given, o->out, each[i].has,
                     each[i].name);
        return -1;
    }
    return 0;
}

Trainer *trainer_open(const TrainerOptions *o, char *why, size_t size)
{
    /* the folder first: a run that could not keep its checkpoint there is
     * refused at once, not at its first evaluation */
    if (!o->validate && fileclaim_stamp(o->out, trainer_files, "checkpoint.bin", why, size) != 0)
        return NULL;
    Trainer *t = calloc(1, sizeof *t);
    if (!t || !(t->out = strdup(o->out))) {
        free(t);
        snprintf(why, size, "out of memory");
        return NULL;
    }
    AttnError err = { 0 };
    if (o->resume) {
        if (train_checkpoint_load(o->out, &t->run, &t->m, &t->tr, why, size) != 0
            || settings_agree(o, &t->run.set, 0, why, size) != 0) {
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
            if (settings_agree(o, &t->run.set, 1, why, size) != 0
                || ((o->given & GIVEN_CONTEXT) && o->set.shape.context > c->context
                    && snprintf(why, size, "--context %d, but the model in %s has %d positions", o->set.shape.context,
                                o->init, c->context) > 0)) {
                trainer_free(t);
                return NULL;
            }
            /* a shorter context than the model's is honoured: its
             * positions stay, the sequences are shorter */
            t->run.set.seq = (o->given & GIVEN_CONTEXT) && o->set.shape.context < c->context ? o->set.shape.context : 0;
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
    int B = s->batch, T = train_seq(s);
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
    return rate > 0 ? (double)(s->steps - t->run.step) * s->batch * train_seq(s) / rate : 0;
}

double trainer_rate_now(const Trainer *t)
{
    const TrainSettings *s = &t->run.set;
    double elapsed = now_s() - t->t0;
    return t->run.step > t->since && elapsed > 0 ? (double)(t->run.step - t->since) * s->batch * train_seq(s) / elapsed
                                                  : 0;
}

/* A line appended whole to the run's log, DIR/train.log: what a person
 * reads of the run after it, the same lines `attn train` prints. */
static void log_line(const Trainer *t, const char *line)
{
    char path[PATH_MAX];
    if (filewrite_join(path, sizeof path, t->out, "train.log") != 0)
        return;
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
        (void)filewrite_append_whole(fd, line, strlen(line));
    if (fd >= 0)
        close(fd);
}

void trainer_point_line(const Trainer *t, double rate, char *buf, size_t size)
{
    const TrainRun *r = &t->run;
    const TrainPoint *p = &r->curve[r->n_curve - 1];
    int heads = r->set.shape.layers * r->set.shape.heads, best = 0;
    const float *ind = r->induction + (size_t)(r->n_curve - 1) * heads;
    for (int k = 1; k < heads; k++)
        best = ind[k] > ind[best] ? k : best;
    snprintf(buf, size, "step %lld/%lld  train %.4f  val %.4f  lr %.6f  %.0f tokens/s  %.0fs left  induction L%dH%d %.2f\n",
             (long long)p->step, (long long)r->set.steps, p->train_loss, p->val_loss, p->lr, rate,
             trainer_seconds_left(t, rate), best / r->set.shape.heads + 1, best % r->set.shape.heads + 1, ind[best]);
}

int trainer_induction_note(const Trainer *t, char *buf, size_t size)
{
    const TrainRun *r = &t->run;
    int heads = r->set.shape.layers * r->set.shape.heads, best = 0;
    if (r->n_curve == 0)
        return 0;
    const float *ind = r->induction + (size_t)(r->n_curve - 1) * heads;
    for (int k = 1; k < heads; k++)
        best = ind[k] > ind[best] ? k : best;
    if (ind[best] >= TRAINER_INDUCTION_MARK)
        return 0;
    snprintf(buf, size, "no head reached the induction mark (%.1f): the highest is layer %d head %d at %.2f. To watch "
             "one form, train on a text whose lines are each said twice, which only copying can foretell: attn train "
             "--data models/tinyshakespeare-twice.txt (there head 2 of layer 3 crossed %.1f after about 2,300 steps, 11 "
             "minutes on two cores)\n", TRAINER_INDUCTION_MARK, best / r->set.shape.heads + 1,
             best % r->set.shape.heads + 1, ind[best], TRAINER_INDUCTION_MARK);
    return 1;
}

void trainer_log_end(Trainer *t)
{
    char note[600];
    if (t->stepped && trainer_induction_note(t, note, sizeof note))
        log_line(t, note);     /* once: a finished run resumed adds nothing */
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
    int B = t->run.set.batch, T = train_seq(&t->run.set), total = EVAL_BATCHES * B;
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
    int B = s->batch, T = train_seq(s);
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
    t->stepped = 1;
    if (r->step % s->eval_every != 0 && r->step != s->steps)
        return 0;
    TrainPoint p = { r->step, r->loss_sum / (double)r->loss_n, trainer_validate(t), lr };
    r->loss_sum = 0;
    r->loss_n = 0;
    double elapsed = now_s() - t->t0;
    *rate = (double)(r->step - t->since) * B * T / fmax(elapsed, 1e-9);
    /* the heads on the probe, kept with the point (the screen's curves of
     * them survive a resume) */
    int heads = s->shape.layers * s->shape.heads;
    double *ind = malloc((size_t)heads * sizeof *ind);
    int probed = ind && trainer_induction(t, ind) == 0;
    int added = train_run_add_point(r, &p, probed ? ind : NULL);
    free(ind);
    if (added != 0) {
        snprintf(why, size, "out of memory");
        return -1;
    }
    char line[400];
    trainer_point_line(t, *rate, line, sizeof line);
    log_line(t, line);
    t->t0 = now_s();
    t->since = r->step;
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
