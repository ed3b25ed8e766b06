/*
 * model_train.c - a Model trained (model_train.h): its gradients and
 * AdamW's moments in the block's layout, the activations of a batch, the
 * forward (the model's own pass, keeping what the backward needs), the
 * backward layer by layer (gpt_layers.c), and AdamW as torch.optim.AdamW
 * computes it.
 */
#include "model_train.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "blas.h"
#include "gpt_layers.h"
#include "pool.h"

/* The most floats a model, its gradients, moments and activations may
 * take (4 GB). */
#define TRAIN_MAX_FLOATS (1L << 30)

struct ModelTrain {
    Model *m;                       /* borrowed, with its block          */
    ModelConfig cfg;
    int batch;
    float *w;                       /* the model's block                 */
    size_t count;
    float *grad, *mom1, *mom2;      /* the block's layout each           */
    ModelActs *acts;                /* batch x context                   */
    const int *inputs, *targets;    /* the last forward's (the caller's)  */
    int B, T;
    /* the backward's scratch */
    float *dres, *dln, *dqkv, *datty, *dfch, *dfch_gelu;
};

ModelConfig gpt_config(const GptShape *s)
{
    ModelConfig c = { 0 };
    c.kind = FAMILY_GPT2;
    snprintf(c.family, sizeof c.family, "gpt2");
    c.layers = s->layers;
    c.heads = c.kv_heads = s->heads;
    c.d_model = s->d;
    c.head_dim = s->heads > 0 ? s->d / s->heads : 0;
    c.d_ff = 4 * s->d;
    c.vocab = s->vocab;
    c.context = s->context;
    c.ln_eps = 1e-5;
    c.tied = 1;
    return c;
}

ModelTrain *model_train_new(Model *m, int batch, AttnError *err)
{
    const ModelConfig *c = model_config(m);
    size_t count;
    float *w = model_block(m, &count);
    if (!w) {
        attn_fail(err, ATTN_E_ARG, "a model trained holds its weights in a block of its own (model_to_block)");
        return NULL;
    }
    size_t N = (size_t)batch * c->context, d = (size_t)c->d_model, f = (size_t)c->d_ff;
    double acts = (double)N * (c->layers * (9.0 * d + 3 * f + 4 + c->heads) + d + 2 + c->vocab) + d;
    double total = 3.0 * count + acts + N * (4.0 * d + 3 * d + 2 * f);
    if (batch < 1 || total > (double)TRAIN_MAX_FLOATS) {
        attn_fail(err, ATTN_E_TOO_BIG, "the model and a batch of %d take %.0f MB, over the %ld MB attn trains in", batch,
                  total * 4 / 1e6, (long)(TRAIN_MAX_FLOATS * 4 / 1000000));
        return NULL;
    }
    ModelTrain *t = attn_calloc(1, sizeof *t);
    if (!t) {
        attn_fail(err, ATTN_E_NOMEM, "out of memory");
        return NULL;
    }
    t->m = m;
    t->cfg = *c;
    t->batch = batch;
    t->w = w;
    t->count = count;
    t->grad = attn_calloc(count, sizeof *t->grad);
    t->mom1 = attn_calloc(count, sizeof *t->mom1);
    t->mom2 = attn_calloc(count, sizeof *t->mom2);
    t->dres = attn_malloc(N * d * sizeof *t->dres), t->dln = attn_malloc(N * d * sizeof *t->dln);
    t->dqkv = attn_malloc(N * 3 * d * sizeof *t->dqkv), t->datty = attn_malloc(N * d * sizeof *t->datty);
    t->dfch = attn_malloc(N * f * sizeof *t->dfch), t->dfch_gelu = attn_malloc(N * f * sizeof *t->dfch_gelu);
    if (!t->grad || !t->mom1 || !t->mom2 || !t->dres || !t->dln || !t->dqkv || !t->datty || !t->dfch
        || !t->dfch_gelu || !(t->acts = model_acts_new(c, batch, c->context, err))) {
        model_train_free(t);
        if (!err->msg[0])
            attn_fail(err, ATTN_E_NOMEM, "out of memory for a model of %zu weights and a batch of %d", count, batch);
        return NULL;
    }
    return t;
}

void model_train_free(ModelTrain *t)
{
    if (!t)
        return;
    free(t->grad), free(t->mom1), free(t->mom2);
    free(t->dres), free(t->dln), free(t->dqkv), free(t->datty), free(t->dfch), free(t->dfch_gelu);
    model_acts_free(t->acts);
    free(t);
}

Model *model_train_model(ModelTrain *t) { return t->m; }
float *model_train_grads(ModelTrain *t) { return t->grad; }

void model_train_moments(ModelTrain *t, float **m, float **v)
{
    *m = t->mom1;
    *v = t->mom2;
}

void model_train_init(Model *m, Rng *r)
{
    int n;
    size_t count;
    const ModelTensor *table = model_tensors(m, &n);
    float *w = model_block(m, &count);
    float proj_sd = 0.02f / sqrtf(2.0f * model_config(m)->layers);
    for (int i = 0; i < n; i++) {
        const ModelTensor *t = &table[i];
        float *p = w + t->offset;
        size_t len = strlen(t->name);
        int is_bias = len > 5 && strcmp(t->name + len - 5, ".bias") == 0;
        if (is_bias) {
            memset(p, 0, t->count * sizeof *p);
        } else if (strstr(t->name, "ln_")) {
            for (size_t k = 0; k < t->count; k++)
                p[k] = 1.0f;
        } else {
            float sd = strstr(t->name, "c_proj.weight") ? proj_sd : 0.02f;
            rng_randn_fill(r, p, (long)t->count);
            for (size_t k = 0; k < t->count; k++)
                p[k] *= sd;
        }
    }
}

double model_train_forward(ModelTrain *t, const int *inputs, const int *targets, int B, int T)
{
    double loss = 0;
    AttnError err = { 0 };
    t->inputs = inputs;
    t->targets = targets;
    t->B = B;
    t->T = T;
    /* the shapes were checked when the run was set up: a failure here is
     * out of memory in the attention's workspace, which a NaN loss says */
    if (model_forward_keep(t->m, inputs, targets, B, T, t->acts, &loss, &err) != ATTN_OK)
        return NAN;
    return targets ? loss : 0.0;
}

/* The gradient of the weight at p: the same place in the gradients' block. */
#define G(p) (t->grad + ((p) - t->w))

/* The weights of the model's tensor g, and of part of layer l, in the
 * block: found by what they are (model.h), never by a position. */
static const float *whole(const ModelTrain *t, Gpt2Whole g) { return t->w + model_gpt2_whole(t->m, g)->offset; }
static const float *part(const ModelTrain *t, int l, Gpt2Part p) { return t->w + model_gpt2_part(t->m, l, p)->offset; }

void model_train_backward(ModelTrain *t)
{
    const ModelConfig *c = &t->cfg;
    const ModelActs *a = t->acts;
    int B = t->B, T = t->T, C = c->d_model, F = c->d_ff, H = c->heads, V = c->vocab, N = B * T;
    const float *wte = whole(t, GPT2_WTE), *wpe = whole(t, GPT2_WPE);
    const float *lnfw = whole(t, GPT2_LNF_W), *lnfb = whole(t, GPT2_LNF_B);
    memset(t->grad, 0, t->count * sizeof *t->grad);
    float *dlogits = a->probs;
    gpt_crossentropy_backward(dlogits, t->targets, N, V);
    /* the tied output: dlnf = dlogits @ wte, dwte += dlogits^T @ lnf */
    blas_sgemm(0, 0, N, C, V, 1.0f, dlogits, V, wte, C, 0.0f, t->dln, C);
    blas_sgemm(1, 0, V, C, N, 1.0f, dlogits, V, a->lnf, C, 1.0f, G(wte), C);
    memset(t->dres, 0, (size_t)N * C * sizeof *t->dres);
    const float *last = c->layers ? a->layer[c->layers - 1].res3 : a->encoded;
    gpt_norm_backward(t->dres, G(lnfw), G(lnfb), t->dln, last, lnfw, a->lnf_mean, a->lnf_rstd, N, C);
    for (int l = c->layers - 1; l >= 0; l--) {
        const float *ln1w = part(t, l, GPT2_LN1_W), *qkvw = part(t, l, GPT2_QKV_W), *projw = part(t, l, GPT2_PROJ_W);
        const float *ln2w = part(t, l, GPT2_LN2_W), *fcw = part(t, l, GPT2_FC_W), *outw = part(t, l, GPT2_OUT_W);
        const ModelLayerActs *s = &a->layer[l];
        const float *x = l ? a->layer[l - 1].res3 : a->encoded;
        /* the MLP: res3 = res2 + gelu(ln2 @ Wfc + b) @ Wout + b */
        memset(t->dfch_gelu, 0, (size_t)N * F * sizeof *t->dfch_gelu);
        gpt_linear_backward(t->dfch_gelu, G(outw), G(part(t, l, GPT2_OUT_B)), t->dres, s->fch_gelu, outw, N, F, C);
        memset(t->dfch, 0, (size_t)N * F * sizeof *t->dfch);
        gpt_gelu_backward(t->dfch, s->fch, s->fch_tanh, t->dfch_gelu, (long)N * F);
        memset(t->dln, 0, (size_t)N * C * sizeof *t->dln);
        gpt_linear_backward(t->dln, G(fcw), G(part(t, l, GPT2_FC_B)), t->dfch, s->ln2, fcw, N, C, F);
        gpt_norm_backward(t->dres, G(ln2w), G(part(t, l, GPT2_LN2_B)), t->dln, s->res2, ln2w, s->ln2_mean, s->ln2_rstd, N,
                          C);
        /* the attention: res2 = x + attention(ln1 @ Wqkv + b) @ Wproj + b */
        memset(t->datty, 0, (size_t)N * C * sizeof *t->datty);
        gpt_linear_backward(t->datty, G(projw), G(part(t, l, GPT2_PROJ_B)), t->dres, s->atty, projw, N, C, C);
        memset(t->dqkv, 0, (size_t)N * 3 * C * sizeof *t->dqkv);
        gpt_attention_backward(t->dqkv, t->datty, s->qkv, s->atty, s->lse, B, T, C, H);
        memset(t->dln, 0, (size_t)N * C * sizeof *t->dln);
        gpt_linear_backward(t->dln, G(qkvw), G(part(t, l, GPT2_QKV_B)), t->dqkv, s->ln1, qkvw, N, C, 3 * C);
        gpt_norm_backward(t->dres, G(ln1w), G(part(t, l, GPT2_LN1_B)), t->dln, x, ln1w, s->ln1_mean, s->ln1_rstd, N, C);
    }
    gpt_embed_backward(G(wte), G(wpe), t->dres, t->inputs, B, T, C);
}

void model_train_adamw(ModelTrain *t, const GptAdamW *a, int step)
{
    float bc1 = 1.0f - powf(a->beta1, (float)step), bc2 = 1.0f - powf(a->beta2, (float)step);
    float lr = a->lr / bc1, bc2_sqrt = sqrtf(bc2);
    int n;
    const ModelTensor *tab = model_tensors(t->m, &n);
    for (int i = 0; i < n; i++) {
        const ModelTensor *tt = &tab[i];
        float decay = tt->decay ? 1.0f - a->lr * a->weight_decay : 1.0f;
        float *w = t->w + tt->offset, *gr = t->grad + tt->offset, *m = t->mom1 + tt->offset, *v = t->mom2 + tt->offset;
        for (size_t k = 0; k < tt->count; k++) {
            /* as torch.optim.AdamW: decay the weight, then the step */
            m[k] = a->beta1 * m[k] + (1.0f - a->beta1) * gr[k];
            v[k] = a->beta2 * v[k] + (1.0f - a->beta2) * gr[k] * gr[k];
            w[k] *= decay;
            w[k] -= lr * m[k] / (sqrtf(v[k]) / bc2_sqrt + a->eps);
        }
    }
}

double model_train_flops(const ModelConfig *c, int B, int T)
{
    double C = c->d_model, N = (double)B * T;
    double per_layer = 2 * N * C * 3 * C + 2 * N * C * C + 2 * 2 * N * C * c->d_ff
                       + 2 * 2.0 * B * c->heads * T * T * c->head_dim;
    double forward = c->layers * per_layer + 2 * N * C * c->vocab;
    return 3 * forward;
}
