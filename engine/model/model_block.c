/*
 * model_block.c - a model's weights in one block of its own (model.h):
 * laid out by the family's one table of tensors (model_walk_gpt2), so the
 * block's order is the order a checkpoint is read and written in; and the
 * activations a pass over a batch keeps for the backward, in one
 * allocation.
 */
#include "model_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/* Laying out a block: counting first (block NULL), then placing each
 * tensor, its numbers copied from where the model had them (copy). */
typedef struct {
    float *block;
    size_t count;
    ModelTensor *table;
    int n;
    int copy;
} Layout;

static int place(void *ctx, const char *name, int64_t rows, int64_t cols, const float **slot)
{
    Layout *b = ctx;
    size_t count = (size_t)rows * (size_t)(cols ? cols : 1);
    if (b->block) {
        float *at = b->block + b->count;
        if (b->copy && *slot)
            memcpy(at, *slot, count * sizeof *at);
        *slot = at;
        ModelTensor *t = &b->table[b->n];
        snprintf(t->name, sizeof t->name, "%s", name);
        t->rows = (int)rows;
        t->cols = (int)cols;
        t->offset = b->count;
        t->count = count;
        t->decay = cols > 0;
    }
    b->n++;
    b->count += count;
    return 0;
}

/* m's weights laid out in a new block (copied from where they are when
 * copy): ATTN_OK, or a code with err. */
static attn_status lay_out(Model *m, int copy, AttnError *err)
{
    if (m->cfg.kind != FAMILY_GPT2)
        return attn_fail(err, ATTN_E_ARG, "attn trains GPT-2; this model is %s", m->cfg.family);
    Layout b = { 0 };
    model_walk_gpt2(m, place, &b);      /* the count */
    float *block = attn_calloc(b.count, sizeof *block);
    ModelTensor *table = attn_calloc((size_t)b.n, sizeof *table);
    if (!block || !table) {
        free(block), free(table);
        return attn_fail(err, ATTN_E_NOMEM, "out of memory for a model of %zu weights", b.count);
    }
    b = (Layout){ block, 0, table, 0, copy };
    model_walk_gpt2(m, place, &b);
    free(m->block), free(m->table);
    m->block = block;
    m->block_count = b.count;
    m->table = table;
    m->n_table = b.n;
    m->tok = m->out = model_linear_f32(m->embed, m->cfg.vocab, m->cfg.d_model, 1);    /* tied */
    /* what was converted or drawn is in the block now */
    for (int i = 0; i < m->n_owned; i++)
        free(m->owned[i]);
    free(m->owned);
    m->owned = NULL;
    m->n_owned = 0;
    m->params = (int64_t)b.count;
    return ATTN_OK;
}

Model *model_block_new(const ModelConfig *cfg, AttnError *err)
{
    if (cfg->layers < 1 || cfg->layers > 64 || cfg->heads < 1 || cfg->d_model < 1 || cfg->d_model % cfg->heads
        || cfg->context < 1 || cfg->vocab < 1) {
        attn_fail(err, ATTN_E_ARG, "a model of %d layers, %d heads, width %d, context %d, vocabulary %d: each at least "
                  "1, at most 64 layers, and the heads dividing the width", cfg->layers, cfg->heads, cfg->d_model,
                  cfg->context, cfg->vocab);
        return NULL;
    }
    Model *m = attn_calloc(1, sizeof *m);
    if (!m || !(m->gpt2 = attn_calloc((size_t)(cfg->layers > 0 ? cfg->layers : 1), sizeof *m->gpt2))) {
        free(m);
        attn_fail(err, ATTN_E_NOMEM, "out of memory");
        return NULL;
    }
    m->cfg = *cfg;
    if (lay_out(m, 0, err) != ATTN_OK) {
        model_free(m);
        return NULL;
    }
    return m;
}

attn_status model_to_block(Model *m, AttnError *err) { return lay_out(m, 1, err); }

float *model_block(Model *m, size_t *count)
{
    *count = m->block_count;
    return m->block;
}

const ModelTensor *model_tensors(const Model *m, int *n)
{
    *n = m->n_table;
    return m->table;
}

/* The activations' floats for B x T positions, and each one's place
 * (base NULL: only counting). */
static size_t acts_layout(const ModelConfig *c, ModelActs *a, float *base)
{
    size_t at = 0, N = (size_t)a->B * a->T, d = (size_t)c->d_model, f = (size_t)c->d_ff;
    size_t lse = (size_t)a->B * c->heads * a->T;
#define TAKE(ptr, n) ((ptr) = base ? base + at : NULL, at += (n))
    TAKE(a->encoded, N * d);
    for (int l = 0; l < c->layers; l++) {
        ModelLayerActs *y = &a->layer[l];
        TAKE(y->ln1, N * d), TAKE(y->ln1_mean, N), TAKE(y->ln1_rstd, N), TAKE(y->qkv, N * 3 * d);
        TAKE(y->atty, N * d), TAKE(y->lse, lse), TAKE(y->res2, N * d), TAKE(y->ln2, N * d);
        TAKE(y->ln2_mean, N), TAKE(y->ln2_rstd, N), TAKE(y->fch, N * f), TAKE(y->fch_tanh, N * f);
        TAKE(y->fch_gelu, N * f);
        TAKE(y->res3, N * d);
    }
    TAKE(a->lnf, N * d), TAKE(a->lnf_mean, N), TAKE(a->lnf_rstd, N), TAKE(a->probs, N * (size_t)c->vocab);
#undef TAKE
    return at;
}

ModelActs *model_acts_new(const ModelConfig *cfg, int B, int T, AttnError *err)
{
    ModelActs *a = attn_calloc(1, sizeof *a);
    if (!a || !(a->layer = attn_calloc((size_t)cfg->layers, sizeof *a->layer))) {
        model_acts_free(a);
        attn_fail(err, ATTN_E_NOMEM, "out of memory");
        return NULL;
    }
    a->B = B;
    a->T = T;
    size_t count = acts_layout(cfg, a, NULL);
    if (!(a->block = attn_malloc(count * sizeof *a->block))) {
        model_acts_free(a);
        attn_fail(err, ATTN_E_NOMEM, "out of memory for the activations of %d x %d tokens (%.0f MB)", B, T,
                  count * 4.0 / 1e6);
        return NULL;
    }
    acts_layout(cfg, a, a->block);
    return a;
}

void model_acts_free(ModelActs *a)
{
    if (!a)
        return;
    LayerScratch *scratch = a->scratch;
    for (int w = 0; w < a->n_scratch; w++)
        model_layer_scratch_free(&scratch[w]);
    free(a->scratch);
    free(a->block), free(a->layer);
    free(a);
}
