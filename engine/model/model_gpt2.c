/*
 * model_gpt2.c - GPT-2's family (model_type "gpt2"): its one table of
 * tensors, under GPT2LMHeadModel's names ("transformer.h.0.attn.c_attn.weight")
 * or GPT2Model's ("h.0.attn.c_attn.weight"), Conv1D weights stored (in,
 * out), which a checkpoint is read by, a block laid out by and a trained
 * model saved by; and its one forward pass: learned positions added to the
 * tokens, each layer a LayerNorm, attention (attn's fused kernels, every
 * head), a LayerNorm and a GELU MLP (tanh approximation), each added back;
 * the final LayerNorm against the tied input embedding. The same pass reads
 * a text (one sequence, what the screens show) and trains (a batch of
 * sequences, keeping what the backward needs: engine/train).
 */
#include "model_internal.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "blas.h"
#include "pool.h"

#define P "transformer."

/* A size of the table, in the config's terms. */
typedef enum { DIM_NONE, DIM_D, DIM_3D, DIM_FF, DIM_VOCAB, DIM_CONTEXT } Dim;

/* A row of the table: a tensor's name, its shape, and where the Model
 * points at it (offsetof a Gpt2Layer's or the Model's own pointer). */
typedef struct {
    const char *name;
    Dim rows, cols;
    size_t slot;
} TensorRow;

/* A layer's tensors, by part (model.h): the order GPT-2's checkpoints
 * hold them in. */
static const TensorRow layer_table[GPT2_LAYER_PARTS] = {
    [GPT2_LN1_W] = { "ln_1.weight", DIM_D, DIM_NONE, offsetof(Gpt2Layer, ln1_g) },
    [GPT2_LN1_B] = { "ln_1.bias", DIM_D, DIM_NONE, offsetof(Gpt2Layer, ln1_b) },
    [GPT2_QKV_W] = { "attn.c_attn.weight", DIM_D, DIM_3D, offsetof(Gpt2Layer, qkv_w) },
    [GPT2_QKV_B] = { "attn.c_attn.bias", DIM_3D, DIM_NONE, offsetof(Gpt2Layer, qkv_b) },
    [GPT2_PROJ_W] = { "attn.c_proj.weight", DIM_D, DIM_D, offsetof(Gpt2Layer, proj_w) },
    [GPT2_PROJ_B] = { "attn.c_proj.bias", DIM_D, DIM_NONE, offsetof(Gpt2Layer, proj_b) },
    [GPT2_LN2_W] = { "ln_2.weight", DIM_D, DIM_NONE, offsetof(Gpt2Layer, ln2_g) },
    [GPT2_LN2_B] = { "ln_2.bias", DIM_D, DIM_NONE, offsetof(Gpt2Layer, ln2_b) },
    [GPT2_FC_W] = { "mlp.c_fc.weight", DIM_D, DIM_FF, offsetof(Gpt2Layer, fc_w) },
    [GPT2_FC_B] = { "mlp.c_fc.bias", DIM_FF, DIM_NONE, offsetof(Gpt2Layer, fc_b) },
    [GPT2_OUT_W] = { "mlp.c_proj.weight", DIM_FF, DIM_D, offsetof(Gpt2Layer, out_w) },
    [GPT2_OUT_B] = { "mlp.c_proj.bias", DIM_D, DIM_NONE, offsetof(Gpt2Layer, out_b) },
};

/* The model's own tensors, by Gpt2Whole. */
static const TensorRow whole_table[GPT2_WHOLES] = {
    [GPT2_WTE] = { "wte.weight", DIM_VOCAB, DIM_D, offsetof(Model, embed) },
    [GPT2_WPE] = { "wpe.weight", DIM_CONTEXT, DIM_D, offsetof(Model, pos) },
    [GPT2_LNF_W] = { "ln_f.weight", DIM_D, DIM_NONE, offsetof(Model, norm_g) },
    [GPT2_LNF_B] = { "ln_f.bias", DIM_D, DIM_NONE, offsetof(Model, norm_b) },
};

static int64_t dim(Dim k, const ModelConfig *c)
{
    switch (k) {
    case DIM_D: return c->d_model;
    case DIM_3D: return 3 * (int64_t)c->d_model;
    case DIM_FF: return c->d_ff;
    case DIM_VOCAB: return c->vocab;
    case DIM_CONTEXT: return c->context;
    default: return 0;
    }
}

/* Rows lo to hi (not included) of a table visited, named with prefix, the
 * pointers in the struct at base. */
static int walk_rows(const TensorRow *rows, int lo, int hi, const char *prefix, void *base, const ModelConfig *c,
                     ModelVisit visit, void *ctx)
{
    for (int k = lo; k < hi; k++) {
        char name[80];
        snprintf(name, sizeof name, "%s%s", prefix, rows[k].name);
        if (visit(ctx, name, dim(rows[k].rows, c), dim(rows[k].cols, c), (const float **)((char *)base + rows[k].slot)))
            return -1;
    }
    return 0;
}

int model_walk_gpt2(Model *m, ModelVisit visit, void *ctx)
{
    const ModelConfig *c = &m->cfg;
    if (walk_rows(whole_table, 0, GPT2_AFTER_LAYERS, "", m, c, visit, ctx) != 0)
        return -1;
    for (int l = 0; l < c->layers; l++) {
        char prefix[24];
        snprintf(prefix, sizeof prefix, "h.%d.", l);
        if (walk_rows(layer_table, 0, GPT2_LAYER_PARTS, prefix, &m->gpt2[l], c, visit, ctx) != 0)
            return -1;
    }
    return walk_rows(whole_table, GPT2_AFTER_LAYERS, GPT2_WHOLES, "", m, c, visit, ctx);
}

/* Where the walk above puts each tensor in the table. */
const ModelTensor *model_gpt2_part(const Model *m, int l, Gpt2Part part)
{
    if (!m->table || l < 0 || l >= m->cfg.layers || (int)part < 0 || part >= GPT2_LAYER_PARTS)
        return NULL;
    return &m->table[GPT2_AFTER_LAYERS + l * GPT2_LAYER_PARTS + part];
}

const ModelTensor *model_gpt2_whole(const Model *m, Gpt2Whole g)
{
    if (!m->table || (int)g < 0 || g >= GPT2_WHOLES)
        return NULL;
    return &m->table[g < GPT2_AFTER_LAYERS ? g : g + m->cfg.layers * GPT2_LAYER_PARTS];
}

/* Reading a checkpoint: each tensor of the table found by name and shape. */
typedef struct {
    Model *m;
    const SafeTensors *st;
    AttnError *err;
} Reading;

static int read_one(void *ctx, const char *name, int64_t rows, int64_t cols, const float **slot)
{
    Reading *r = ctx;
    return (*slot = model_weight(r->m, r->st, P, name, rows, cols, 0, r->err)) ? 0 : -1;
}

int model_open_gpt2(Model *m, const SafeTensors *st, AttnError *err)
{
    if (!(m->gpt2 = attn_calloc((size_t)m->cfg.layers, sizeof *m->gpt2)))
        return attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1;
    if (model_walk_gpt2(m, read_one, &(Reading){ m, st, err }) != 0)
        return -1;
    /* tied: lm_head.weight, when the file has it, is the same numbers */
    m->tok = m->out = model_linear_f32(m->embed, m->cfg.vocab, m->cfg.d_model, 1);
    return 0;
}

/* Each position's token and place embedded, a band of positions an item
 * of attn's pool. */
typedef struct {
    const Model *m;
    const int *tokens;
    int T, pos0;
    float *x;
} Embedding;

static void embed_band(void *ctx, size_t lo, size_t hi)
{
    const Embedding *e = ctx;
    int d = e->m->cfg.d_model;
    for (size_t i = lo; i < hi; i++) {
        const float *tok = e->m->embed + (size_t)e->tokens[i] * d;
        const float *pos = e->m->pos + (size_t)(e->pos0 + (int)(i % (size_t)e->T)) * d;
        for (int j = 0; j < d; j++)
            e->x[i * d + j] = tok[j] + pos[j];
    }
}

void model_gpt2_embed(const Model *m, const int *tokens, int N, int T, int pos0, float *x)
{
    pool_for((size_t)N, 64, embed_band, &(Embedding){ m, tokens, T, pos0, x });
}

attn_status model_gpt2_layer_in(const Model *m, int l, const float *x, int N, const ModelLayerActs *s,
                                const ModelWatch *watch, AttnWorkspace *ws, AttnError *err)
{
    const ModelConfig *c = &m->cfg;
    const Gpt2Layer *y = &m->gpt2[l];
    int d = c->d_model;
    model_mark(watch, MODEL_PHASE_NORM, 0);
    model_layer_norm(s->ln1, s->ln1_mean, s->ln1_rstd, x, y->ln1_g, y->ln1_b, N, d, c->ln_eps);
    model_mark(watch, MODEL_PHASE_NORM, 1);
    model_mark(watch, MODEL_PHASE_QKV, 0);
    attn_status rc = model_affine(ws, s->ln1, N, d, y->qkv_w, y->qkv_b, 3 * d, s->qkv, 0, err);
    model_mark(watch, MODEL_PHASE_QKV, 1);
    return rc;
}

attn_status model_gpt2_layer_out(const Model *m, int l, const float *x, int N, const ModelLayerActs *s,
                                 ModelRun *run, const ModelWatch *watch, AttnWorkspace *ws, AttnError *err)
{
    const ModelConfig *c = &m->cfg;
    const Gpt2Layer *y = &m->gpt2[l];
    int d = c->d_model, f = c->d_ff;
    attn_status rc;
    model_mark(watch, MODEL_PHASE_OUT, 0);
    if (s->res2 != x)
        memcpy(s->res2, x, (size_t)N * d * sizeof *s->res2);
    rc = model_affine(ws, s->atty, N, d, y->proj_w, y->proj_b, d, s->res2, 1, err);
    model_mark(watch, MODEL_PHASE_OUT, 1);
    if (rc != ATTN_OK)
        return rc;
    model_mark(watch, MODEL_PHASE_NORM, 0);
    model_layer_norm(s->ln2, s->ln2_mean, s->ln2_rstd, s->res2, y->ln2_g, y->ln2_b, N, d, c->ln_eps);
    model_mark(watch, MODEL_PHASE_NORM, 1);
    model_mark(watch, MODEL_PHASE_MLP, 0);
    if ((rc = model_affine(ws, s->ln2, N, d, y->fc_w, y->fc_b, f, s->fch, 0, err)) == ATTN_OK) {
        model_gelu(s->fch_gelu, s->fch_tanh, s->fch, (size_t)N * f);
        if (run)
            model_mlp_kept(c, run, l, s->fch_gelu, N);     /* what the MLP's output projection reads */
        if (s->res3 != s->res2)
            memcpy(s->res3, s->res2, (size_t)N * d * sizeof *s->res3);
        rc = model_affine(ws, s->fch_gelu, N, f, y->out_w, y->out_b, d, s->res3, 1, err);
    }
    model_mark(watch, MODEL_PHASE_MLP, 1);
    return rc;
}

/* A batch's attention, a sequence an item of attn's pool (each on one
 * thread, in one order: the same numbers on any number of threads), each
 * worker with its own scratch. */
typedef struct {
    const ModelConfig *c;
    const ModelLayerActs *s;
    int T;
    LayerScratch *scratch;      /* one a worker */
    attn_status *rc;            /* one a sequence */
} BatchArgs;

static void batch_item(void *ctx, int b, int worker)
{
    const BatchArgs *a = ctx;
    int d = a->c->d_model, T = a->T;
    const float *q = a->s->qkv + (size_t)b * T * 3 * d;
    AttnError err = { 0 };
    a->rc[b] = model_layer_attention(a->c, q, 3 * d, q + d, 3 * d, q + 2 * d, 3 * d, T, a->s->atty + (size_t)b * T * d,
                                     d, NULL, a->s->lse + (size_t)b * a->c->heads * T, &a->scratch[worker], &err);
}

static attn_status batch_attention(const ModelConfig *c, const ModelLayerActs *s, int B, int T, ModelActs *keep,
                                   AttnError *err)
{
    int workers = pool_threads();
    if (keep->n_scratch < workers) {
        /* a worker's workspace is kept from pass to pass: a step of a small
         * model once spent more making them than attending */
        LayerScratch *more = attn_realloc(keep->scratch, (size_t)workers * sizeof *more);
        if (!more)
            return attn_fail(err, ATTN_E_NOMEM, "out of memory");
        memset(more + keep->n_scratch, 0, (size_t)(workers - keep->n_scratch) * sizeof *more);
        keep->scratch = more;
        keep->n_scratch = workers;
    }
    attn_status *rc = attn_calloc((size_t)B, sizeof *rc);
    if (!rc)
        return attn_fail(err, ATTN_E_NOMEM, "out of memory");
    pool_run(workers, batch_item, &(BatchArgs){ c, s, T, keep->scratch, rc }, B);
    attn_status out = ATTN_OK;
    for (int b = 0; b < B; b++)
        if (rc[b] != ATTN_OK && out == ATTN_OK)
            out = attn_fail(err, rc[b], "out of memory for the attention of a batch");
    free(rc);
    return out;
}

/* The pass over B sequences of T tokens. keep: every layer's activations
 * kept there (training); else one layer's buffers reused by every layer,
 * and run filled as model_forward promises (B = 1), with what ask asks
 * (the hooks of model_interv.c: a head's output replaced, the stream kept). */
static attn_status gpt2_pass(const Model *m, const int *tokens, int B, int T, ModelActs *keep, const ModelAsk *ask,
                             ModelRun *run, AttnError *err)
{
    const ModelConfig *c = &m->cfg;
    int d = c->d_model, f = c->d_ff, H = c->heads, N = B * T;
    float *h = NULL, *a = NULL, *qkv = NULL, *o = NULL, *ff = NULL;
    LayerScratch scratch = { .ws = attention_workspace_new() };
    AttnWorkspace *ws = scratch.ws;     /* the products' (and a sequence's attention) */
    attn_status rc = ws ? ATTN_OK : attn_fail(err, ATTN_E_NOMEM, "out of memory");
    if (!ws)
        goto done;
    if (!keep) {
        h = attn_malloc((size_t)N * d * sizeof *h), a = attn_malloc((size_t)N * d * sizeof *a);
        qkv = attn_malloc((size_t)N * 3 * d * sizeof *qkv), o = attn_malloc((size_t)N * d * sizeof *o);
        ff = attn_malloc((size_t)N * f * sizeof *ff);
        if (!h || !a || !qkv || !o || !ff) {
            rc = attn_fail(err, ATTN_E_NOMEM, "out of memory for a forward pass of %d tokens", N);
            goto done;
        }
    }
    const ModelWatch *watch = ask ? &ask->watch : NULL;
    float *x0 = keep ? keep->encoded : h;
    model_mark(watch, MODEL_PHASE_EMBED, 0);
    model_gpt2_embed(m, tokens, N, T, 0, x0);
    model_mark(watch, MODEL_PHASE_EMBED, 1);
    const float *x = x0;
    if (run)
        model_stream_kept(c, run, 0, x0, N);
    for (int l = 0; l < c->layers; l++) {
        /* the layer's buffers: kept, or shared (the stream updated in place) */
        ModelLayerActs s = keep ? keep->layer[l]
                                : (ModelLayerActs){ .ln1 = a, .qkv = qkv, .atty = o, .res2 = h, .ln2 = a, .fch = ff,
                                                    .fch_gelu = ff, .res3 = h };
        if ((rc = model_gpt2_layer_in(m, l, x, N, &s, watch, ws, err)) != ATTN_OK)
            goto done;
        if (run && run->input_layer == l + 1)
            memcpy(run->layer_input, s.ln1, (size_t)N * d * sizeof *s.ln1);
        if (run)
            model_keep_qk(c, run, l, s.qkv, 3 * d, s.qkv + d, 3 * d);
        model_mark(watch, MODEL_PHASE_ATTENTION, 0);
        if (B == 1)
            rc = model_layer_attention(c, s.qkv, 3 * d, s.qkv + d, 3 * d, s.qkv + 2 * d, 3 * d, T, s.atty, d,
                                       run ? &run->scores[l * H] : NULL, s.lse, &scratch, err);
        else
            rc = batch_attention(c, &s, B, T, keep, err);
        model_mark(watch, MODEL_PHASE_ATTENTION, 1);
        if (rc != ATTN_OK)
            goto done;
        if (run)
            model_heads_formed(c, ask, run, l, s.atty, d, N);
        if ((rc = model_gpt2_layer_out(m, l, x, N, &s, run, watch, ws, err)) != ATTN_OK)
            goto done;
        x = s.res3;
        if (run)
            model_stream_kept(c, run, l + 1, x, N);
    }
    if (keep) {
        /* every position through the final norm, against the input
         * embedding (tied): the next token's logits after each */
        model_layer_norm(keep->lnf, keep->lnf_mean, keep->lnf_rstd, x, m->norm_g, m->norm_b, N, d, c->ln_eps);
        rc = model_product(ws, keep->lnf, N, &m->out, NULL, keep->probs, 0, err);
    } else {
        /* the last position (and every one kept, for model_logits_at) */
        int rows = run->final ? N : 1;
        model_mark(watch, MODEL_PHASE_LOGITS, 0);
        rc = model_final(m, x + (size_t)(N - rows) * d, rows, a, run->logits, ws, err);
        model_mark(watch, MODEL_PHASE_LOGITS, 1);
        if (run->final)
            memcpy(run->final, a, (size_t)N * d * sizeof *a);
    }
done:
    free(h), free(a), free(qkv), free(o), free(ff);
    model_layer_scratch_free(&scratch);
    return rc;
}

attn_status model_forward_gpt2(const Model *m, const int *tokens, int n, const ModelAsk *ask, ModelRun *run,
                               AttnError *err)
{
    return gpt2_pass(m, tokens, 1, n, NULL, ask, run, err);
}

attn_status model_forward_keep(const Model *m, const int *tokens, const int *targets, int B, int T, ModelActs *acts,
                               double *loss, AttnError *err)
{
    const ModelConfig *c = &m->cfg;
    if (c->kind != FAMILY_GPT2)
        return attn_fail(err, ATTN_E_ARG, "attn trains GPT-2; this model is %s", c->family);
    if (B < 1 || T < 1 || T > c->context || (size_t)B * T > (size_t)acts->B * acts->T || T > acts->T)
        return attn_fail(err, ATTN_E_ARG, "%d sequences of %d tokens; the pass was laid out for %d of %d", B, T,
                         acts->B, acts->T);
    for (int i = 0; i < B * T; i++)
        if (tokens[i] < 0 || tokens[i] >= c->vocab || (targets && (targets[i] < 0 || targets[i] >= c->vocab)))
            return attn_fail(err, ATTN_E_ARG, "token %d is outside the vocabulary of %d", i + 1, c->vocab);
    acts->tokens = tokens;
    attn_status rc = gpt2_pass(m, tokens, B, T, acts, NULL, NULL, err);
    if (rc == ATTN_OK)
        model_softmax_rows(acts->probs, B * T, c->vocab, targets, loss);
    return rc;
}
