/*
 * model_decode.c - generation's half of the forward pass (model_gen.h): a
 * key/value cache, each layer's keys and values of every position so far
 * (kv_heads x head_dim numbers each, so grouped-query heads share them), a
 * step that pushes new tokens through the family's own layer parts
 * (model_gpt2_layer_in/out, model_llama_layer_in/out: the very LayerNorm,
 * RMSNorm, rotary positions, GELU and SwiGLU of the pass) computing only
 * their rows, their queries against the cached keys by the one causal
 * softmax (model_head_softmax_at, a sliding window honoured); and the
 * generator that holds a sequence, its cache and its next token's logits,
 * with or without the cache.
 */
#include "model_gen.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "blas.h"
#include "model_internal.h"

struct ModelCache {
    int layers, width;          /* width: kv_heads x head_dim               */
    int len, cap, context;      /* positions held, room for, at most        */
    float **k, **v;             /* layers, each cap x width                 */
    AttnWorkspace *ws;          /* the products' packing, kept from step to step */
};

ModelCache *model_cache_new(const Model *m, AttnError *err)
{
    const ModelConfig *cfg = &m->cfg;
    ModelCache *c = attn_calloc(1, sizeof *c);
    if (c) {
        c->layers = cfg->layers;
        c->width = cfg->kv_heads * cfg->head_dim;
        c->context = cfg->context;
        c->k = attn_calloc((size_t)cfg->layers, sizeof *c->k);
        c->v = attn_calloc((size_t)cfg->layers, sizeof *c->v);
        c->ws = attention_workspace_new();
    }
    if (!c || !c->k || !c->v || !c->ws) {
        model_cache_free(c);
        attn_fail(err, ATTN_E_NOMEM, "out of memory for a key/value cache");
        return NULL;
    }
    return c;
}

void model_cache_free(ModelCache *c)
{
    if (!c)
        return;
    for (int l = 0; c->k && l < c->layers; l++)
        free(c->k[l]);
    for (int l = 0; c->v && l < c->layers; l++)
        free(c->v[l]);
    attention_workspace_free(c->ws);
    free(c->k), free(c->v), free(c);
}

size_t model_cache_bytes(const ModelCache *c)
{
    return 2 * (size_t)c->layers * (size_t)c->width * sizeof(float) * (size_t)c->len;
}

/* Room for need positions (doubling, up to the context): 0, or -1 (no
 * memory; what it held is kept). */
static int cache_room(ModelCache *c, int need)
{
    if (need <= c->cap)
        return 0;
    int cap = c->cap ? c->cap : 16;
    while (cap < need)
        cap *= 2;
    cap = cap < c->context ? cap : c->context;
    size_t bytes = (size_t)cap * c->width * sizeof(float);
    for (int l = 0; l < c->layers; l++) {
        float *k = attn_realloc(c->k[l], bytes);
        if (k)
            c->k[l] = k;
        float *v = k ? attn_realloc(c->v[l], bytes) : NULL;
        if (v)
            c->v[l] = v;
        if (!k || !v)
            return -1;  /* the layers grown stay grown: cap is what all have */
    }
    c->cap = cap;
    return 0;
}

/* A step's buffers, for n new rows over len keys. */
typedef struct {
    float *x, *a, *qkv, *o, *ff, *ff2, *A;
} StepBufs;

static void step_free(StepBufs *b)
{
    free(b->x), free(b->a), free(b->qkv), free(b->o), free(b->ff), free(b->ff2), free(b->A);
}

static int step_alloc(const ModelConfig *c, int n, int len, StepBufs *b)
{
    size_t d = (size_t)c->d_model, q = (size_t)c->heads * c->head_dim, kv = (size_t)c->kv_heads * c->head_dim;
    b->x = attn_malloc((size_t)n * d * sizeof(float));
    b->a = attn_malloc((size_t)n * d * sizeof(float));
    b->qkv = attn_malloc((size_t)n * (q + 2 * kv) * sizeof(float));
    b->o = attn_malloc((size_t)n * q * sizeof(float));
    b->ff = attn_malloc((size_t)n * c->d_ff * sizeof(float));
    b->ff2 = c->kind == FAMILY_LLAMA ? attn_malloc((size_t)n * c->d_ff * sizeof(float)) : NULL;
    b->A = attn_malloc((size_t)n * len * sizeof(float));
    return b->x && b->a && b->qkv && b->o && b->ff && (b->ff2 || c->kind != FAMILY_LLAMA) && b->A ? 0 : -1;
}

/* Layer l's attention for the n new rows: their keys and values (K, V at
 * ldk) appended to the cache at its len, each head's queries (Q at ldq)
 * against every cached key, the weighted values into o (n x heads hd);
 * the last row's weights into looked (heads x (len + n)) when not NULL. */
static void cached_attention(const ModelConfig *c, ModelCache *kc, int l, const float *Q, int ldq, const float *K,
                             const float *V, int ldk, int n, float *A, float *o, float *looked)
{
    int past = kc->len, L = past + n, w = kc->width, hd = c->head_dim, q = c->heads * hd;
    int group = c->heads / c->kv_heads;
    for (int i = 0; i < n; i++) {
        memcpy(kc->k[l] + (size_t)(past + i) * w, K + (size_t)i * ldk, (size_t)w * sizeof(float));
        memcpy(kc->v[l] + (size_t)(past + i) * w, V + (size_t)i * ldk, (size_t)w * sizeof(float));
    }
    for (int h = 0; h < c->heads; h++) {
        model_head_softmax_at(c, Q, ldq, kc->k[l], w, n, past, h, A);
        if (looked)
            memcpy(looked + (size_t)h * L, A + (size_t)(n - 1) * L, (size_t)L * sizeof *A);
        blas_sgemm(0, 0, n, hd, L, 1.0f, A, L, kc->v[l] + (size_t)(h / group) * hd, w, 0.0f, o + (size_t)h * hd, q);
    }
}

attn_status model_step(const Model *m, ModelCache *kc, const int *tokens, int n, float *logits, float *looked,
                       AttnError *err)
{
    const ModelConfig *c = &m->cfg;
    int past = kc->len, L = past + n, d = c->d_model;
    if (n < 1 || L > c->context)
        return attn_fail(err, ATTN_E_ARG, "%d tokens after %d; the model reads at most %d", n, past, c->context);
    for (int i = 0; i < n; i++)
        if (tokens[i] < 0 || tokens[i] >= c->vocab)
            return attn_fail(err, ATTN_E_ARG, "token %d is %d; the vocabulary has 0 to %d", past + i + 1, tokens[i],
                             c->vocab - 1);
    StepBufs b = { 0 };
    if (cache_room(kc, L) != 0 || step_alloc(c, n, L, &b) != 0) {
        step_free(&b);
        return attn_fail(err, ATTN_E_NOMEM, "out of memory for a step of %d tokens after %d", n, past);
    }
    int q = c->heads * c->head_dim, kv = c->kv_heads * c->head_dim, H = c->heads;
    AttnWorkspace *ws = kc->ws;
    attn_status rc = ATTN_OK;
    if (c->kind == FAMILY_GPT2) {
        model_gpt2_embed(m, tokens, n, n, past, b.x);
        ModelLayerActs s = { .ln1 = b.a, .qkv = b.qkv, .atty = b.o, .res2 = b.x, .ln2 = b.a, .fch = b.ff,
                             .fch_gelu = b.ff, .res3 = b.x };
        for (int l = 0; l < c->layers && rc == ATTN_OK; l++) {
            if ((rc = model_gpt2_layer_in(m, l, b.x, n, &s, NULL, ws, err)) != ATTN_OK)
                break;
            cached_attention(c, kc, l, b.qkv, 3 * d, b.qkv + d, b.qkv + 2 * d, 3 * d, n, b.A, b.o,
                             looked ? looked + (size_t)l * H * L : NULL);
            rc = model_gpt2_layer_out(m, l, b.x, n, &s, NULL, NULL, ws, err);
        }
    } else {
        float *Q = b.qkv, *K = Q + (size_t)n * q, *V = K + (size_t)n * kv;
        model_llama_embed(m, tokens, n, b.x);
        for (int l = 0; l < c->layers && rc == ATTN_OK; l++) {
            if ((rc = model_llama_layer_in(m, l, b.x, n, past, b.a, Q, K, V, NULL, ws, err)) != ATTN_OK)
                break;
            cached_attention(c, kc, l, Q, q, K, V, kv, n, b.A, b.o, looked ? looked + (size_t)l * H * L : NULL);
            rc = model_llama_layer_out(m, l, b.o, n, b.x, b.a, b.ff, b.ff2, NULL, NULL, ws, err);
        }
    }
    if (rc == ATTN_OK) {
        kc->len = L;
        rc = model_final(m, b.x + (size_t)(n - 1) * d, 1, b.a, logits, ws, err);
    }
    step_free(&b);
    return rc;
}

/* ---- the generator ---- */

struct ModelGen {
    const Model *m;
    ModelCache *cache;          /* NULL: the whole sequence every token      */
    int *ids, n;                /* the sequence (room for the context)       */
    int seen;                   /* the tokens the logits are after           */
    float *logits;              /* vocab                                     */
    float *looked;              /* layers x heads x seen, with the cache     */
    int looked_len;
};

ModelGen *model_gen_new(const Model *m, const int *prompt, int n, int cached, AttnError *err)
{
    const ModelConfig *c = &m->cfg;
    if (n < 1 || n > c->context) {
        attn_fail(err, ATTN_E_ARG, "%d tokens; the model reads 1 to %d", n, c->context);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        if (prompt[i] < 0 || prompt[i] >= c->vocab) {
            attn_fail(err, ATTN_E_ARG, "token %d is %d; the vocabulary has 0 to %d", i + 1, prompt[i], c->vocab - 1);
            return NULL;
        }
    ModelGen *g = attn_calloc(1, sizeof *g);
    if (g) {
        g->m = m;
        g->ids = attn_malloc((size_t)c->context * sizeof *g->ids);
        g->logits = attn_malloc((size_t)c->vocab * sizeof *g->logits);
    }
    if (!g || !g->ids || !g->logits || (cached && !(g->cache = model_cache_new(m, err)))) {
        model_gen_free(g);
        attn_fail(err, ATTN_E_NOMEM, "out of memory for a generator");
        return NULL;
    }
    memcpy(g->ids, prompt, (size_t)n * sizeof *prompt);
    g->n = n;
    return g;
}

void model_gen_free(ModelGen *g)
{
    if (!g)
        return;
    model_cache_free(g->cache);
    free(g->ids), free(g->logits), free(g->looked), free(g);
}

int model_gen_len(const ModelGen *g) { return g->n; }
const int *model_gen_ids(const ModelGen *g) { return g->ids; }
int model_gen_cached(const ModelGen *g) { return g->cache != NULL; }
size_t model_gen_cache_bytes(const ModelGen *g) { return g->cache ? model_cache_bytes(g->cache) : 0; }

const float *model_gen_looked(const ModelGen *g)
{
    return g->looked && g->looked_len == g->n && g->seen == g->n ? g->looked : NULL;
}

const float *model_gen_logits(ModelGen *g, AttnError *err)
{
    if (g->seen == g->n)
        return g->logits;
    const ModelConfig *c = &g->m->cfg;
    if (!g->cache) {
        ModelRun run;
        if (model_forward_timed(g->m, g->ids, g->n, NULL, &run, err) != ATTN_OK)
            return NULL;
        memcpy(g->logits, run.logits, (size_t)c->vocab * sizeof *g->logits);
        model_run_free(&run);
        g->seen = g->n;
        return g->logits;
    }
    float *looked = attn_realloc(g->looked, (size_t)c->layers * c->heads * g->n * sizeof *looked);
    if (!looked) {
        attn_fail(err, ATTN_E_NOMEM, "out of memory");
        return NULL;
    }
    g->looked = looked;
    if (model_step(g->m, g->cache, g->ids + g->seen, g->n - g->seen, g->logits, looked, err) != ATTN_OK)
        return NULL;
    g->seen = g->looked_len = g->n;
    return g->logits;
}

attn_status model_gen_push(ModelGen *g, int id, AttnError *err)
{
    const ModelConfig *c = &g->m->cfg;
    if (g->n >= c->context)
        return attn_fail(err, ATTN_E_ARG, "the model's context of %d tokens is full", c->context);
    if (id < 0 || id >= c->vocab)
        return attn_fail(err, ATTN_E_ARG, "token %d is outside the vocabulary of %d", id, c->vocab);
    g->ids[g->n++] = id;
    return ATTN_OK;
}

attn_status model_gen_token(ModelGen *g, const ModelSampling *s, Rng *r, ModelDist *d, int *id, double *p,
                            AttnError *err)
{
    if (g->n >= g->m->cfg.context)
        return attn_fail(err, ATTN_E_ARG, "the model's context of %d tokens is full", g->m->cfg.context);
    const float *z = model_gen_logits(g, err);
    if (!z)
        return err->code;
    model_dist_make(d, z, s);
    *id = model_dist_draw(d, s, r);
    *p = model_dist_chosen_p(d, s, *id);
    return model_gen_push(g, *id, err);
}
