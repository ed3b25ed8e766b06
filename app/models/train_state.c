/*
 * train_state.c - a training run's data and checkpoint (train_state.h).
 *
 * The checkpoint is one binary file, little-endian as the machine holds
 * it: the magic "ATTNCKPT", a version, the settings, the step, the
 * generator, the loss since the last evaluation, the data's length and
 * hash, the curve, then the weights, AdamW's first and second moments;
 * and at the end an FNV-1a of everything before it, so a file cut short or
 * changed is refused rather than trained on.
 */
#include "train_state.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileread.h"
#include "filewrite.h"
#include "hash.h"

#define CKPT_MAGIC "ATTNCKPT"
#define CKPT_VERSION 2u     /* 2: each point's induction scores after the curve */
#define DATA_MAX_BYTES (1L << 31)
#define CKPT_MAX_BYTES (1L << 33)


int train_data_load(const char *path, int context, TrainData *d, char *why, size_t size)
{
    memset(d, 0, sizeof *d);
    char *text;
    size_t len;
    char msg[600];
    if (fileread_text(path, DATA_MAX_BYTES, &text, &len, msg, sizeof msg) != 0) {
        snprintf(why, size, "%s: %s", path, msg);
        return -1;
    }
    if (len < (size_t)context + 1) {
        snprintf(why, size, "%s: %zu bytes, fewer than a sequence of %d and the byte after it", path, len, context);
        free(text);
        return -1;
    }
    d->bytes = (unsigned char *)text;
    d->len = len;
    size_t least = (size_t)context + 1;
    d->train_len = len * 9 / 10 < least ? least : len * 9 / 10;
    d->val_at = len - (len - len * 9 / 10 < least ? least : len - len * 9 / 10);
    d->hash = hash_fnv1a(HASH_START, d->bytes, d->len);
    return 0;
}

void train_data_free(TrainData *d)
{
    free(d->bytes);
    memset(d, 0, sizeof *d);
}

int train_settings_check(const TrainSettings *s, char *why, size_t size)
{
    const GptShape *g = &s->shape;
    /* each as the command line's option would say it */
    struct {
        const char *name;
        double v, lo, hi;
    } range[] = {
        { "--layers", g->layers, 1, TRAIN_MAX_LAYERS },
        { "--heads", g->heads, 1, TRAIN_MAX_HEADS },
        { "--d", g->d, 1, TRAIN_MAX_WIDTH },
        { "--context", g->context, 1, TRAIN_MAX_CONTEXT },
        { "the vocabulary", g->vocab, TRAIN_VOCAB, TRAIN_VOCAB },
        { "--batch", s->batch, 1, TRAIN_MAX_BATCH },
        { "--steps", (double)s->steps, 1, (double)TRAIN_MAX_STEPS },
        { "--warmup", (double)s->warmup, 0, (double)TRAIN_MAX_STEPS },
        { "--eval-every", (double)s->eval_every, 1, (double)TRAIN_MAX_STEPS },
        { "--seed", (double)s->seed, 0, (double)TRAIN_MAX_SEED },
        { "--lr", s->lr, TRAIN_MIN_LR, TRAIN_MAX_LR },
        { "--wd", s->weight_decay, 0, TRAIN_MAX_WD },
        { "--schedule", s->cosine, 0, 1 },
        { "--context (the sequences')", s->seq, 0, g->context },
    };
    for (size_t i = 0; i < sizeof range / sizeof range[0]; i++)
        if (!(range[i].v >= range[i].lo && range[i].v <= range[i].hi)) {
            snprintf(why, size, "%s is %g, outside %g to %g", range[i].name, range[i].v, range[i].lo, range[i].hi);
            return -1;
        }
    if (g->d % g->heads != 0) {
        snprintf(why, size, "%d heads do not divide the width %d", g->heads, g->d);
        return -1;
    }
    return 0;
}

/* Is a run read back one a run could be at (its settings in range, its
 * step within them, its generator's place in its state, its numbers
 * finite)? 0, or -1 with why. */
static int run_check(const TrainRun *r, char *why, size_t size)
{
    if (train_settings_check(&r->set, why, size) != 0)
        return -1;
    const TrainSettings *s = &r->set;
    if (r->step < 0 || r->step > s->steps) {
        snprintf(why, size, "its step %lld is outside 0 to %lld", (long long)r->step, (long long)s->steps);
        return -1;
    }
    if (r->rng.mti < 0 || r->rng.mti > 624 || (r->rng.has_cached != 0 && r->rng.has_cached != 1)) {
        snprintf(why, size, "its batches' generator is not in a state a generator can be in");
        return -1;
    }
    if (r->loss_n < 0 || r->loss_n > s->eval_every || !isfinite(r->loss_sum) || r->loss_sum < 0
        || r->data_len < (uint64_t)train_seq(s) + 1) {
        snprintf(why, size, "its running loss or its text's length is not one a run could have");
        return -1;
    }
    int64_t last = 0;
    for (int i = 0; i < r->n_curve; i++) {
        const TrainPoint *p = &r->curve[i];
        if (p->step <= last || p->step > r->step || !isfinite(p->train_loss) || !isfinite(p->val_loss)
            || !isfinite(p->lr)) {
            snprintf(why, size, "point %d of its curve is not one a run could have", i + 1);
            return -1;
        }
        last = p->step;
    }
    return 0;
}

int train_seq(const TrainSettings *s) { return s->seq > 0 ? s->seq : s->shape.context; }

int train_run_add_point(TrainRun *r, const TrainPoint *p, const double *induction)
{
    size_t heads = (size_t)r->set.shape.layers * r->set.shape.heads;
    if (r->n_curve == r->cap_curve) {
        int cap = r->cap_curve ? 2 * r->cap_curve : 64;
        TrainPoint *more = realloc(r->curve, (size_t)cap * sizeof *more);
        if (!more)
            return -1;
        r->curve = more;
        float *ind = realloc(r->induction, (size_t)cap * heads * sizeof *ind);
        if (!ind)
            return -1;
        r->induction = ind;
        r->cap_curve = cap;
    }
    for (size_t k = 0; k < heads; k++)
        r->induction[(size_t)r->n_curve * heads + k] = induction ? (float)induction[k] : 0.0f;
    r->curve[r->n_curve++] = *p;
    return 0;
}

void train_run_free(TrainRun *r)
{
    free(r->curve);
    free(r->induction);
    r->induction = NULL;
    r->curve = NULL;
    r->n_curve = r->cap_curve = 0;
}

double train_lr(const TrainSettings *s, int64_t step)
{
    if (step < s->warmup)
        return s->lr * (double)(step + 1) / (double)s->warmup;
    if (!s->cosine)
        return s->lr;
    double span = (double)(s->steps - 1 - s->warmup), t = span > 0 ? (double)(step - s->warmup) / span : 1.0;
    double low = s->lr / 10.0;
    return low + 0.5 * (s->lr - low) * (1.0 + cos(M_PI * fmin(1.0, t)));
}

/* ---- the checkpoint ------------------------------------------------------ */

typedef struct {
    unsigned char *b;
    size_t len, cap, at;
    int failed;
} Bytes;

static void put(Bytes *o, const void *p, size_t n)
{
    if (o->failed || n == 0)
        return;     /* (an empty curve is a NULL pointer: nothing to copy) */
    if (o->len + n > o->cap) {
        size_t cap = o->cap ? o->cap : 4096;
        while (cap < o->len + n)
            cap *= 2;
        unsigned char *more = realloc(o->b, cap);
        if (!more) {
            o->failed = 1;
            return;
        }
        o->b = more;
        o->cap = cap;
    }
    memcpy(o->b + o->len, p, n);
    o->len += n;
}

static int take(Bytes *in, void *p, size_t n)
{
    if (n == 0)
        return 0;
    if (in->at + n > in->len)
        return -1;
    memcpy(p, in->b + in->at, n);
    in->at += n;
    return 0;
}

int train_checkpoint_save(const char *dir, const TrainRun *r, ModelTrain *t, char *why, size_t size)
{
    char path[PATH_MAX], msg[600];
    if (filewrite_join(path, sizeof path, dir, "checkpoint.bin") != 0) {
        snprintf(why, size, "%s: the path is too long", dir);
        return -1;
    }
    size_t count;
    float *w = model_block(model_train_model(t), &count), *m, *v;
    model_train_moments(t, &m, &v);
    Bytes o = { 0 };
    uint32_t version = CKPT_VERSION;
    uint64_t n_curve = (uint64_t)r->n_curve, n_weights = count;
    put(&o, CKPT_MAGIC, 8);
    put(&o, &version, sizeof version);
    put(&o, &r->set, sizeof r->set);
    put(&o, &r->step, sizeof r->step);
    put(&o, &r->rng, sizeof r->rng);
    put(&o, &r->loss_sum, sizeof r->loss_sum);
    put(&o, &r->loss_n, sizeof r->loss_n);
    put(&o, &r->data_len, sizeof r->data_len);
    put(&o, &r->data_hash, sizeof r->data_hash);
    put(&o, &n_curve, sizeof n_curve);
    put(&o, r->curve, (size_t)r->n_curve * sizeof *r->curve);
    put(&o, r->induction, (size_t)r->n_curve * r->set.shape.layers * r->set.shape.heads * sizeof *r->induction);
    put(&o, &n_weights, sizeof n_weights);
    put(&o, w, count * sizeof *w);
    put(&o, m, count * sizeof *m);
    put(&o, v, count * sizeof *v);
    uint64_t sum = o.failed ? 0 : hash_fnv1a(HASH_START, o.b, o.len);
    put(&o, &sum, sizeof sum);
    int rc = 0;
    if (o.failed) {
        snprintf(why, size, "%s: out of memory", path);
        rc = -1;
    } else if (filewrite_dirs(dir) != 0 || filewrite_replace(path, o.b, o.len, msg, sizeof msg) != 0) {
        snprintf(why, size, "%s: %s; the last checkpoint written is kept", path,
                 filewrite_dirs(dir) != 0 ? "cannot make its folder" : msg);
        rc = -1;
    }
    free(o.b);
    return rc;
}

int train_checkpoint_load(const char *dir, TrainRun *r, Model **model, ModelTrain **t, char *why, size_t size)
{
    char path[PATH_MAX], msg[600];
    memset(r, 0, sizeof *r);
    *model = NULL;
    *t = NULL;
    if (filewrite_join(path, sizeof path, dir, "checkpoint.bin") != 0) {
        snprintf(why, size, "%s: the path is too long", dir);
        return -1;
    }
    char *text;
    size_t len;
    if (fileread_text(path, CKPT_MAX_BYTES, &text, &len, msg, sizeof msg) != 0) {
        snprintf(why, size, "%s: %s", path, msg);
        return -1;
    }
    int rc = train_checkpoint_parse((const unsigned char *)text, len, r, model, t, msg, sizeof msg);
    free(text);
    if (rc != 0)
        snprintf(why, size, "%s: %s", path, msg);
    return rc;
}

int train_checkpoint_parse(const unsigned char *bytes, size_t len, TrainRun *r, Model **model, ModelTrain **t, char *why,
                           size_t size)
{
    memset(r, 0, sizeof *r);
    *model = NULL;
    *t = NULL;
    Bytes in = { (unsigned char *)bytes, len, len, 0, 0 };
    char magic[8];
    uint32_t version = 0;
    uint64_t sum, n_curve = 0, n_weights = 0;
    const char *bad = NULL;
    if (len < 8 + sizeof sum || take(&in, magic, 8) || memcmp(magic, CKPT_MAGIC, 8) != 0)
        bad = "not a checkpoint of attn train";
    else if (memcpy(&sum, in.b + len - sizeof sum, sizeof sum), sum != hash_fnv1a(HASH_START, in.b, len - sizeof sum))
        bad = "damaged: its checksum does not match (cut short, or changed)";
    else if (take(&in, &version, sizeof version) || version < 1 || version > CKPT_VERSION)
        bad = "of another version of attn";
    else if (take(&in, &r->set, sizeof r->set) || take(&in, &r->step, sizeof r->step)
             || take(&in, &r->rng, sizeof r->rng) || take(&in, &r->loss_sum, sizeof r->loss_sum)
             || take(&in, &r->loss_n, sizeof r->loss_n) || take(&in, &r->data_len, sizeof r->data_len)
             || take(&in, &r->data_hash, sizeof r->data_hash) || take(&in, &n_curve, sizeof n_curve)
             || n_curve > (uint64_t)(len / sizeof(TrainPoint)))
        bad = "damaged: cut inside its settings";
    else if (!(r->curve = malloc((size_t)(n_curve ? n_curve : 1) * sizeof *r->curve))
             || take(&in, r->curve, (size_t)n_curve * sizeof *r->curve))
        bad = r->curve ? "damaged: cut inside its curve" : "out of memory";
    r->n_curve = r->cap_curve = (int)n_curve;
    /* a checksum anyone can recompute says the file is whole, not that it
     * is sound: every field is held to what a run can have, before any is
     * used (a forged eval_every of 0 divided by zero; a vocabulary of 1
     * with weights to match wrote past the embeddings); then each point's
     * induction scores (version 2; zeros before it), which they size */
    char field[300];
    if (!bad && run_check(r, field, sizeof field) != 0)
        bad = field;
    if (!bad) {
        size_t heads = (size_t)r->set.shape.layers * r->set.shape.heads;
        if (!(r->induction = calloc((size_t)(n_curve ? n_curve : 1) * heads, sizeof *r->induction)))
            bad = "out of memory";
        else if (version >= 2 && take(&in, r->induction, (size_t)n_curve * heads * sizeof *r->induction))
            bad = "damaged: cut inside its curve";
        for (size_t k = 0; !bad && k < (size_t)n_curve * heads; k++)
            if (!(r->induction[k] >= 0 && r->induction[k] <= 1))
                bad = "damaged: an induction score is not one a head can have";
    }
    AttnError err = { 0 };
    if (!bad) {     /* the shape is only read once run_check has held it */
        ModelConfig cfg = gpt_config(&r->set.shape);
        if (!(*model = model_block_new(&cfg, &err)) || !(*t = model_train_new(*model, r->set.batch, &err)))
            bad = err.msg;
    }
    size_t count = 0;
    float *w = *t ? model_block(*model, &count) : NULL, *m = NULL, *v = NULL;
    if (*t)
        model_train_moments(*t, &m, &v);
    if (!bad && (take(&in, &n_weights, sizeof n_weights) || n_weights != count || take(&in, w, count * sizeof *w)
                 || take(&in, m, count * sizeof *m) || take(&in, v, count * sizeof *v) || in.at + sizeof sum != len))
        bad = "damaged: its weights do not match its settings";
    for (size_t i = 0; !bad && i < count; i++)
        if (!isfinite(w[i]) || !isfinite(m[i]) || !(v[i] >= 0 && isfinite(v[i])))
            bad = "damaged: a weight or a moment is not a finite number";
    if (bad) {
        snprintf(why, size, "%s%s", bad == field ? "not a checkpoint attn train wrote: " : "", bad);
        model_train_free(*t);
        model_free(*model);
        *t = NULL;
        *model = NULL;
        train_run_free(r);
        return -1;
    }
    return 0;
}
