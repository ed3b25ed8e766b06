/*
 * gpt_train.c - a GPT-2 trained in the engine (gpt_train.h): the weights'
 * block and its names, the activations a backward pass needs, the passes
 * layer by layer (gpt_layers.c), AdamW as torch.optim.AdamW computes it.
 */
#include "gpt_train.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "blas.h"
#include "gpt_layers.h"

/* The most floats a model and its activations may take (4 GB). */
#define GPT_MAX_FLOATS (1L << 30)
#define GPT_MAX_TENSORS (2 + 12 * 64 + 2)

/* One layer's weights, pointers into the block (or into the gradients'). */
typedef struct {
    float *ln1w, *ln1b, *qkvw, *qkvb, *projw, *projb, *ln2w, *ln2b, *fcw, *fcb, *fcprojw, *fcprojb;
} Layer;

/* Where the weights of a block are: the block's own, or its gradients'. */
typedef struct {
    float *wte, *wpe, *lnfw, *lnfb;
    Layer *layer;
} Weights;

/* What a layer's forward pass keeps for its backward. */
typedef struct {
    float *ln1, *ln1_mean, *ln1_rstd, *qkv, *att, *atty, *res2, *ln2, *ln2_mean, *ln2_rstd, *fch, *fch_tanh, *fch_gelu, *res3;
} LayerActs;

struct GptTrain {
    GptShape s;
    int batch;
    GptTensor tensors[GPT_MAX_TENSORS];
    int n_tensors;
    size_t count;                   /* the weights' floats */
    float *w, *grad, *m, *v;        /* the block, its gradients, AdamW's moments */
    Weights at;                     /* into w */
    Layer *grad_layer;              /* the gradients' layers (gpt_train_backward) */
    /* activations, for the last forward's B x T */
    float *acts;                    /* one allocation */
    float *encoded, *lnf, *lnf_mean, *lnf_rstd, *logits, *probs, *dlogits;
    LayerActs *la;
    /* the backward's scratch */
    float *dres, *dln, *dqkv, *datt, *datty, *dfch, *dfch_gelu;
    int *inputs, *targets;
    int B, T;
};

/* The next tensor of the table at the block base (NULL: only counting). */
static float *add_tensor(GptTrain *g, float *base, const char *name, int rows, int cols)
{
    GptTensor *t = &g->tensors[g->n_tensors++];
    snprintf(t->name, sizeof t->name, "%s", name);
    t->rows = rows;
    t->cols = cols;
    t->offset = g->count;
    t->count = (size_t)rows * (cols ? cols : 1);
    t->decay = cols > 0;
    g->count += t->count;
    return base ? base + t->offset : NULL;
}

/* The table of tensors in GPT-2's order, and where each lies in base:
 * the same table each time, so the weights, the gradients and AdamW's
 * moments share one layout. */
static void lay_out(GptTrain *g, float *base, Weights *at)
{
    int C = g->s.d;
    g->n_tensors = 0;
    g->count = 0;
    at->wte = add_tensor(g, base, "wte.weight", g->s.vocab, C);
    at->wpe = add_tensor(g, base, "wpe.weight", g->s.context, C);
    for (int l = 0; l < g->s.layers; l++) {
        char n[48];
        Layer *y = &at->layer[l];
#define T(field, part, r, c) (snprintf(n, sizeof n, "h.%d.%s", l, part), y->field = add_tensor(g, base, n, r, c))
        T(ln1w, "ln_1.weight", C, 0);
        T(ln1b, "ln_1.bias", C, 0);
        T(qkvw, "attn.c_attn.weight", C, 3 * C);
        T(qkvb, "attn.c_attn.bias", 3 * C, 0);
        T(projw, "attn.c_proj.weight", C, C);
        T(projb, "attn.c_proj.bias", C, 0);
        T(ln2w, "ln_2.weight", C, 0);
        T(ln2b, "ln_2.bias", C, 0);
        T(fcw, "mlp.c_fc.weight", C, 4 * C);
        T(fcb, "mlp.c_fc.bias", 4 * C, 0);
        T(fcprojw, "mlp.c_proj.weight", 4 * C, C);
        T(fcprojb, "mlp.c_proj.bias", C, 0);
#undef T
    }
    at->lnfw = add_tensor(g, base, "ln_f.weight", C, 0);
    at->lnfb = add_tensor(g, base, "ln_f.bias", C, 0);
}

/* The activations' floats for a batch of B x T, and each one's place. */
static size_t acts_layout(GptTrain *g, float *base)
{
    size_t at = 0, N = (size_t)g->batch * g->s.context, C = (size_t)g->s.d, V = (size_t)g->s.vocab;
    size_t att = (size_t)g->batch * g->s.heads * g->s.context * g->s.context;
#define TAKE(ptr, n) ((ptr) = base ? base + at : NULL, at += (n))
    TAKE(g->encoded, N * C);
    for (int l = 0; l < g->s.layers; l++) {
        LayerActs *a = &g->la[l];
        TAKE(a->ln1, N * C), TAKE(a->ln1_mean, N), TAKE(a->ln1_rstd, N), TAKE(a->qkv, N * 3 * C);
        TAKE(a->att, att), TAKE(a->atty, N * C), TAKE(a->res2, N * C), TAKE(a->ln2, N * C);
        TAKE(a->ln2_mean, N), TAKE(a->ln2_rstd, N), TAKE(a->fch, N * 4 * C), TAKE(a->fch_tanh, N * 4 * C);
        TAKE(a->fch_gelu, N * 4 * C);
        TAKE(a->res3, N * C);
    }
    TAKE(g->lnf, N * C), TAKE(g->lnf_mean, N), TAKE(g->lnf_rstd, N), TAKE(g->logits, N * V), TAKE(g->probs, N * V);
    TAKE(g->dlogits, N * V);
    TAKE(g->dres, N * C), TAKE(g->dln, N * C), TAKE(g->dqkv, N * 3 * C), TAKE(g->datt, att), TAKE(g->datty, N * C);
    TAKE(g->dfch, N * 4 * C), TAKE(g->dfch_gelu, N * 4 * C);
#undef TAKE
    return at;
}

GptTrain *gpt_train_new(const GptShape *s, int batch, AttnError *err)
{
    if (s->layers < 1 || s->layers > 64 || s->heads < 1 || s->d < 1 || s->d % s->heads || s->context < 1
        || s->vocab < 1 || batch < 1) {
        attn_fail(err, ATTN_E_ARG, "a model of %d layers, %d heads, width %d, context %d, vocabulary %d, batch %d: "
                  "each at least 1, at most 64 layers, and the heads dividing the width", s->layers, s->heads, s->d,
                  s->context, s->vocab, batch);
        return NULL;
    }
    GptTrain *g = attn_calloc(1, sizeof *g);
    if (!g || !(g->at.layer = attn_calloc((size_t)s->layers, sizeof *g->at.layer))
        || !(g->grad_layer = attn_calloc((size_t)s->layers, sizeof *g->grad_layer))
        || !(g->la = attn_calloc((size_t)s->layers, sizeof *g->la))) {
        gpt_train_free(g);
        attn_fail(err, ATTN_E_NOMEM, "out of memory");
        return NULL;
    }
    g->s = *s;
    g->batch = batch;
    lay_out(g, NULL, &g->at);     /* the count */
    size_t acts = acts_layout(g, NULL);
    double total = 4.0 * g->count + (double)acts + 2.0 * batch * s->context;
    if (total > (double)GPT_MAX_FLOATS) {
        gpt_train_free(g);
        attn_fail(err, ATTN_E_TOO_BIG, "the model and a batch of %d take %.0f MB, over the %ld MB attn trains in", batch,
                  total * 4 / 1e6, (long)(GPT_MAX_FLOATS * 4 / 1000000));
        return NULL;
    }
    g->w = attn_calloc(g->count, sizeof *g->w);
    g->grad = attn_calloc(g->count, sizeof *g->grad);
    g->m = attn_calloc(g->count, sizeof *g->m);
    g->v = attn_calloc(g->count, sizeof *g->v);
    g->acts = attn_malloc(acts * sizeof *g->acts);
    g->inputs = attn_malloc((size_t)batch * s->context * sizeof *g->inputs);
    g->targets = attn_malloc((size_t)batch * s->context * sizeof *g->targets);
    if (!g->w || !g->grad || !g->m || !g->v || !g->acts || !g->inputs || !g->targets) {
        gpt_train_free(g);
        attn_fail(err, ATTN_E_NOMEM, "out of memory for a model of %zu weights and a batch of %d", g->count, batch);
        return NULL;
    }
    acts_layout(g, g->acts);
    lay_out(g, g->w, &g->at);
    return g;
}

void gpt_train_free(GptTrain *g)
{
    if (!g)
        return;
    free(g->w), free(g->grad), free(g->m), free(g->v), free(g->acts), free(g->inputs), free(g->targets);
    free(g->at.layer), free(g->grad_layer), free(g->la);
    free(g);
}

const GptShape *gpt_train_shape(const GptTrain *g) { return &g->s; }

float *gpt_train_weights(GptTrain *g, size_t *count)
{
    *count = g->count;
    return g->w;
}

const GptTensor *gpt_train_tensors(const GptTrain *g, int *n)
{
    *n = g->n_tensors;
    return g->tensors;
}

float *gpt_train_grads(GptTrain *g) { return g->grad; }

void gpt_train_moments(GptTrain *g, float **m, float **v)
{
    *m = g->m;
    *v = g->v;
}

void gpt_train_init(GptTrain *g, Rng *r)
{
    float proj_sd = 0.02f / sqrtf(2.0f * g->s.layers);
    for (int i = 0; i < g->n_tensors; i++) {
        const GptTensor *t = &g->tensors[i];
        float *p = g->w + t->offset;
        const char *name = t->name;
        size_t len = strlen(name);
        int is_bias = len > 5 && strcmp(name + len - 5, ".bias") == 0;
        int is_norm = strstr(name, "ln_") != NULL;
        if (is_bias) {
            memset(p, 0, t->count * sizeof *p);
        } else if (is_norm) {
            for (size_t k = 0; k < t->count; k++)
                p[k] = 1.0f;
        } else {
            float sd = strstr(name, "c_proj.weight") ? proj_sd : 0.02f;
            rng_randn_fill(r, p, (long)t->count);
            for (size_t k = 0; k < t->count; k++)
                p[k] *= sd;
        }
    }
}

double gpt_train_forward(GptTrain *g, const int *inputs, const int *targets, int B, int T)
{
    int C = g->s.d, H = g->s.heads, V = g->s.vocab, N = B * T;
    g->B = B, g->T = T;
    memcpy(g->inputs, inputs, (size_t)N * sizeof *inputs);
    if (targets)
        memcpy(g->targets, targets, (size_t)N * sizeof *targets);
    gpt_embed_forward(g->encoded, inputs, g->at.wte, g->at.wpe, B, T, C);
    const float *x = g->encoded;
    for (int l = 0; l < g->s.layers; l++) {
        const Layer *y = &g->at.layer[l];
        LayerActs *a = &g->la[l];
        gpt_norm_forward(a->ln1, a->ln1_mean, a->ln1_rstd, x, y->ln1w, y->ln1b, N, C);
        gpt_linear_forward(a->qkv, a->ln1, y->qkvw, y->qkvb, N, C, 3 * C);
        gpt_attention_forward(a->atty, a->att, a->qkv, B, T, C, H);
        memcpy(a->res2, x, (size_t)N * C * sizeof *x);
        blas_sgemm(0, 0, N, C, C, 1.0f, a->atty, C, y->projw, C, 1.0f, a->res2, C);   /* x + atty @ Wproj */
        for (int r = 0; r < N; r++)
            for (int i = 0; i < C; i++)
                a->res2[(size_t)r * C + i] += y->projb[i];
        gpt_norm_forward(a->ln2, a->ln2_mean, a->ln2_rstd, a->res2, y->ln2w, y->ln2b, N, C);
        gpt_linear_forward(a->fch, a->ln2, y->fcw, y->fcb, N, C, 4 * C);
        gpt_gelu_forward(a->fch_gelu, a->fch_tanh, a->fch, (long)N * 4 * C);
        memcpy(a->res3, a->res2, (size_t)N * C * sizeof *x);
        blas_sgemm(0, 0, N, C, 4 * C, 1.0f, a->fch_gelu, 4 * C, y->fcprojw, C, 1.0f, a->res3, C);
        for (int r = 0; r < N; r++)
            for (int i = 0; i < C; i++)
                a->res3[(size_t)r * C + i] += y->fcprojb[i];
        x = a->res3;
    }
    gpt_norm_forward(g->lnf, g->lnf_mean, g->lnf_rstd, x, g->at.lnfw, g->at.lnfb, N, C);
    blas_sgemm(0, 1, N, V, C, 1.0f, g->lnf, C, g->at.wte, C, 0.0f, g->logits, V);      /* tied: lnf @ wte^T */
    return targets ? gpt_crossentropy(g->probs, g->dlogits, g->logits, targets, N, V) : 0.0;
}

void gpt_train_backward(GptTrain *g)
{
    int B = g->B, T = g->T, C = g->s.d, H = g->s.heads, V = g->s.vocab, N = B * T;
    Weights d = { .layer = g->grad_layer };
    memset(g->grad, 0, g->count * sizeof *g->grad);
    lay_out(g, g->grad, &d);
    /* the tied output: dlnf = dlogits @ wte, dwte += dlogits^T @ lnf */
    blas_sgemm(0, 0, N, C, V, 1.0f, g->dlogits, V, g->at.wte, C, 0.0f, g->dln, C);
    blas_sgemm(1, 0, V, C, N, 1.0f, g->dlogits, V, g->lnf, C, 1.0f, d.wte, C);
    memset(g->dres, 0, (size_t)N * C * sizeof *g->dres);
    const float *last = g->s.layers ? g->la[g->s.layers - 1].res3 : g->encoded;
    gpt_norm_backward(g->dres, d.lnfw, d.lnfb, g->dln, last, g->at.lnfw, g->lnf_mean, g->lnf_rstd, N, C);
    for (int l = g->s.layers - 1; l >= 0; l--) {
        const Layer *y = &g->at.layer[l], *dy = &d.layer[l];
        const LayerActs *a = &g->la[l];
        const float *x = l ? g->la[l - 1].res3 : g->encoded;
        /* the MLP: res3 = res2 + gelu(ln2 @ Wfc + b) @ Wfcproj + b */
        memset(g->dfch_gelu, 0, (size_t)N * 4 * C * sizeof *g->dfch_gelu);
        gpt_linear_backward(g->dfch_gelu, dy->fcprojw, dy->fcprojb, g->dres, a->fch_gelu, y->fcprojw, N, 4 * C, C);
        memset(g->dfch, 0, (size_t)N * 4 * C * sizeof *g->dfch);
        gpt_gelu_backward(g->dfch, a->fch, a->fch_tanh, g->dfch_gelu, (long)N * 4 * C);
        memset(g->dln, 0, (size_t)N * C * sizeof *g->dln);
        gpt_linear_backward(g->dln, dy->fcw, dy->fcb, g->dfch, a->ln2, y->fcw, N, C, 4 * C);
        gpt_norm_backward(g->dres, dy->ln2w, dy->ln2b, g->dln, a->res2, y->ln2w, a->ln2_mean, a->ln2_rstd, N, C);
        /* the attention: res2 = x + attention(ln1 @ Wqkv + b) @ Wproj + b */
        memset(g->datty, 0, (size_t)N * C * sizeof *g->datty);
        gpt_linear_backward(g->datty, dy->projw, dy->projb, g->dres, a->atty, y->projw, N, C, C);
        memset(g->dqkv, 0, (size_t)N * 3 * C * sizeof *g->dqkv);
        gpt_attention_backward(g->dqkv, g->datt, g->datty, a->qkv, a->att, B, T, C, H);
        memset(g->dln, 0, (size_t)N * C * sizeof *g->dln);
        gpt_linear_backward(g->dln, dy->qkvw, dy->qkvb, g->dqkv, a->ln1, y->qkvw, N, C, 3 * C);
        gpt_norm_backward(g->dres, dy->ln1w, dy->ln1b, g->dln, x, y->ln1w, a->ln1_mean, a->ln1_rstd, N, C);
    }
    gpt_embed_backward(d.wte, d.wpe, g->dres, g->inputs, B, T, C);
}

void gpt_train_adamw(GptTrain *g, const GptAdamW *a, int t)
{
    float bc1 = 1.0f - powf(a->beta1, (float)t), bc2 = 1.0f - powf(a->beta2, (float)t);
    float step = a->lr / bc1, bc2_sqrt = sqrtf(bc2);
    for (int i = 0; i < g->n_tensors; i++) {
        const GptTensor *tt = &g->tensors[i];
        float decay = tt->decay ? 1.0f - a->lr * a->weight_decay : 1.0f;
        float *w = g->w + tt->offset, *gr = g->grad + tt->offset, *m = g->m + tt->offset, *v = g->v + tt->offset;
        for (size_t k = 0; k < tt->count; k++) {
            /* as torch.optim.AdamW: decay the weight, then the step */
            m[k] = a->beta1 * m[k] + (1.0f - a->beta1) * gr[k];
            v[k] = a->beta2 * v[k] + (1.0f - a->beta2) * gr[k] * gr[k];
            w[k] *= decay;
            w[k] -= step * m[k] / (sqrtf(v[k]) / bc2_sqrt + a->eps);
        }
    }
}

double gpt_train_flops(const GptShape *s, int B, int T)
{
    double C = s->d, N = (double)B * T;
    double per_layer = 2 * N * C * 3 * C + 2 * N * C * C + 2 * 2 * N * C * 4 * C + 2 * 2.0 * B * s->heads * T * T * (C / s->heads);
    double forward = s->layers * per_layer + 2 * N * C * s->vocab;
    return 3 * forward;
}

const float *gpt_train_attention(const GptTrain *g, int layer) { return g->la[layer].att; }
const float *gpt_train_logits(const GptTrain *g) { return g->logits; }
