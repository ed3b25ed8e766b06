/*
 * model_llama.c - the Llama family (model_type "llama", "mistral",
 * "qwen2"): its tensors under LlamaForCausalLM's names
 * ("model.layers.0.self_attn.q_proj.weight", "lm_head.weight") or the base
 * model's (no "model."), nn.Linear weights stored (out, in); and its
 * forward pass: each layer an RMSNorm, attention with rotary positions
 * (rotate-half pairing: number j of a head turns with number j + d/2, by
 * position times rope_theta^(-2j/d)), grouped-query heads (query head h
 * reads key/value head h / (heads / kv_heads)), q/k/v biases where the
 * checkpoint has them, a sliding window where the config gives one; an
 * RMSNorm and a SwiGLU MLP, each added back; the final RMSNorm against the
 * output embedding (tied or its own).
 */
#include "model_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "blas.h"
#include "attention.h"
#include "pool.h"
#include "vexp.h"

#define P "model."

int model_open_llama(Model *m, const SafeTensors *st, AttnError *err)
{
    const ModelConfig *c = &m->cfg;
    if (!(m->llama = attn_calloc((size_t)c->layers, sizeof *m->llama)))
        return attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1;
    int64_t d = c->d_model, f = c->d_ff, q = (int64_t)c->heads * c->head_dim, kv = (int64_t)c->kv_heads * c->head_dim;
    int ok = model_linear(m, st, P, "embed_tokens.weight", c->vocab, d, &m->tok, err) == 0;
    for (int l = 0; ok && l < c->layers; l++) {
        LlamaLayer *y = &m->llama[l];
        char n[12][96];
        static const char *const part[12] = {
            "input_layernorm.weight", "self_attn.q_proj.weight", "self_attn.q_proj.bias",
            "self_attn.k_proj.weight", "self_attn.k_proj.bias",  "self_attn.v_proj.weight",
            "self_attn.v_proj.bias",  "self_attn.o_proj.weight", "post_attention_layernorm.weight",
            "mlp.gate_proj.weight",   "mlp.up_proj.weight",      "mlp.down_proj.weight",
        };
        for (int k = 0; k < 12; k++)
            snprintf(n[k], sizeof n[k], "layers.%d.%s", l, part[k]);
        ok = (y->in_norm = model_weight(m, st, P, n[0], d, 0, 0, err))
             && model_linear(m, st, P, n[1], q, d, &y->q, err) == 0
             && ((y->q_b = model_weight(m, st, P, n[2], q, 0, 1, err)) || !err->msg[0])
             && model_linear(m, st, P, n[3], kv, d, &y->k, err) == 0
             && ((y->k_b = model_weight(m, st, P, n[4], kv, 0, 1, err)) || !err->msg[0])
             && model_linear(m, st, P, n[5], kv, d, &y->v, err) == 0
             && ((y->v_b = model_weight(m, st, P, n[6], kv, 0, 1, err)) || !err->msg[0])
             && model_linear(m, st, P, n[7], d, q, &y->o, err) == 0
             && (y->post_norm = model_weight(m, st, P, n[8], d, 0, 0, err))
             && model_linear(m, st, P, n[9], f, d, &y->gate, err) == 0
             && model_linear(m, st, P, n[10], f, d, &y->up, err) == 0
             && model_linear(m, st, P, n[11], d, f, &y->down, err) == 0;
    }
    ok = ok && (m->norm_g = model_weight(m, st, P, "norm.weight", d, 0, 0, err));
    if (ok && c->tied) {
        /* a tied checkpoint may still carry lm_head.weight: the same
         * numbers, neither read nor counted twice */
        m->out = m->tok;
    } else if (ok) {
        ok = model_linear(m, st, "", "lm_head.weight", c->vocab, d, &m->out, err) == 0;
    }
    return ok ? 0 : -1;
}

/* Each head of x (n rows of heads x hd numbers) turned by its position
 * (pos0 + the row): number j with number j + hd/2; a band of positions an
 * item of the pool. */
typedef struct {
    float *x;
    int heads, hd, pos0;
    double theta;
} Rotation;

static void rotate_band(void *ctx, size_t lo, size_t hi)
{
    const Rotation *r = ctx;
    int half = r->hd / 2, hd = r->hd;
    for (size_t i = lo; i < hi; i++)
        for (int j = 0; j < half; j++) {
            float inv = (float)(1.0 / pow(r->theta, (double)(2 * j) / hd));
            float angle = (float)(r->pos0 + (int)i) * inv, cs = cosf(angle), sn = sinf(angle);
            for (int h = 0; h < r->heads; h++) {
                float *v = r->x + i * r->heads * hd + (size_t)h * hd;
                float a = v[j], b = v[j + half];
                v[j] = a * cs - b * sn;
                v[j + half] = b * cs + a * sn;
            }
        }
}

static void rotate(float *x, int n, int heads, int hd, double theta, int pos0)
{
    pool_for((size_t)n, 16, rotate_band, &(Rotation){ x, heads, hd, pos0, theta });
}

static float silu(float x) { return x / (1.0f + expf(-x)); }

/* g = silu(g) * u, element by element: the SwiGLU's gate, on the pool. */
typedef struct {
    float *g;
    const float *u;
} Gated;

#if defined(__x86_64__) && defined(__GNUC__)
/* Sixteen at a time on the one vector exponential: a Llama-small pass's
 * 12 layers of 1024 x 2048 gates ran expf one number at a time. */
__attribute__((target("avx512f"))) static size_t gate16(const Gated *gu, size_t lo, size_t hi)
{
    const __m512 one = _mm512_set1_ps(1.0f);
    size_t i = lo;
    for (; i + 16 <= hi; i += 16) {
        __m512 x = _mm512_loadu_ps(gu->g + i);
        __m512 s = _mm512_div_ps(x, _mm512_add_ps(one, vexp16(_mm512_sub_ps(_mm512_setzero_ps(), x))));
        _mm512_storeu_ps(gu->g + i, _mm512_mul_ps(s, _mm512_loadu_ps(gu->u + i)));
    }
    return i;
}
#endif

static void gate_band(void *ctx, size_t lo, size_t hi)
{
    const Gated *gu = ctx;
#if defined(__x86_64__) && defined(__GNUC__)
    if (attention_isa() == ATTN_ISA_AVX512)
        lo = gate16(gu, lo, hi);    /* the tail below one vector as it was */
#endif
    for (size_t i = lo; i < hi; i++)
        gu->g[i] = silu(gu->g[i]) * gu->u[i];
}

/* Each token's embedding row (float32 or BF16 as stored), a band of
 * positions an item of the pool. */
typedef struct {
    const AttnLinear *tok;
    const int *tokens;
    float *h;
} Gather;

static void gather_band(void *ctx, size_t lo, size_t hi)
{
    const Gather *g = ctx;
    for (size_t i = lo; i < hi; i++)
        model_embed_row(g->tok, g->tokens[i], g->h + i * g->tok->in);
}

void model_llama_embed(const Model *m, const int *tokens, int n, float *x)
{
    pool_for((size_t)n, 64, gather_band, &(Gather){ &m->tok, tokens, x });
}

attn_status model_llama_layer_in(const Model *m, int l, const float *h, int n, int pos0, float *a, float *Q,
                                 float *K, float *V, const ModelWatch *watch, AttnWorkspace *ws, AttnError *err)
{
    const ModelConfig *c = &m->cfg;
    const LlamaLayer *y = &m->llama[l];
    int d = c->d_model, hd = c->head_dim;
    attn_status rc;
    model_mark(watch, MODEL_PHASE_NORM, 0);
    model_rms_norm(a, h, y->in_norm, n, d, c->ln_eps);
    model_mark(watch, MODEL_PHASE_NORM, 1);
    model_mark(watch, MODEL_PHASE_QKV, 0);
    if ((rc = model_product(ws, a, n, &y->q, y->q_b, Q, 0, err)) == ATTN_OK
        && (rc = model_product(ws, a, n, &y->k, y->k_b, K, 0, err)) == ATTN_OK
        && (rc = model_product(ws, a, n, &y->v, y->v_b, V, 0, err)) == ATTN_OK) {
        rotate(Q, n, c->heads, hd, c->rope_theta, pos0);
        rotate(K, n, c->kv_heads, hd, c->rope_theta, pos0);
    }
    model_mark(watch, MODEL_PHASE_QKV, 1);
    return rc;
}

attn_status model_llama_layer_out(const Model *m, int l, const float *o, int n, float *h, float *a, float *g,
                                  float *u, ModelRun *run, const ModelWatch *watch, AttnWorkspace *ws,
                                  AttnError *err)
{
    const ModelConfig *c = &m->cfg;
    const LlamaLayer *y = &m->llama[l];
    int d = c->d_model, f = c->d_ff;
    model_mark(watch, MODEL_PHASE_OUT, 0);
    attn_status rc = model_product(ws, o, n, &y->o, NULL, h, 1, err);
    model_mark(watch, MODEL_PHASE_OUT, 1);
    if (rc != ATTN_OK)
        return rc;
    model_mark(watch, MODEL_PHASE_NORM, 0);
    model_rms_norm(a, h, y->post_norm, n, d, c->ln_eps);
    model_mark(watch, MODEL_PHASE_NORM, 1);
    model_mark(watch, MODEL_PHASE_MLP, 0);
    if ((rc = model_product(ws, a, n, &y->gate, NULL, g, 0, err)) == ATTN_OK
        && (rc = model_product(ws, a, n, &y->up, NULL, u, 0, err)) == ATTN_OK) {
        pool_for((size_t)n * f, 1 << 16, gate_band, &(Gated){ g, u });
        if (run)
            model_mlp_kept(c, run, l, g, n);     /* what the MLP's output projection reads, for --attribution */
        rc = model_product(ws, g, n, &y->down, NULL, h, 1, err);
    }
    model_mark(watch, MODEL_PHASE_MLP, 1);
    return rc;
}

attn_status model_forward_llama(const Model *m, const int *tokens, int n, const ModelAsk *ask, ModelRun *run,
                                AttnError *err)
{
    const ModelConfig *c = &m->cfg;
    int d = c->d_model, f = c->d_ff, H = c->heads, KV = c->kv_heads, hd = c->head_dim, q = H * hd, kv = KV * hd;
    float *h = attn_malloc((size_t)n * d * sizeof *h), *a = attn_malloc((size_t)n * d * sizeof *a);
    float *Q = attn_malloc((size_t)n * q * sizeof *Q), *K = attn_malloc((size_t)n * kv * sizeof *K);
    float *V = attn_malloc((size_t)n * kv * sizeof *V), *o = attn_malloc((size_t)n * q * sizeof *o);
    float *g = attn_malloc((size_t)n * f * sizeof *g), *u = attn_malloc((size_t)n * f * sizeof *u);
    LayerScratch scratch = { .ws = attention_workspace_new() };
    AttnWorkspace *ws = scratch.ws;     /* the products' (and the attention's) */
    attn_status rc = ATTN_OK;
    if (!h || !a || !Q || !K || !V || !o || !g || !u || !ws) {
        rc = attn_fail(err, ATTN_E_NOMEM, "out of memory for a forward pass of %d tokens", n);
        goto done;
    }
    const ModelWatch *watch = &ask->watch;
    model_mark(watch, MODEL_PHASE_EMBED, 0);
    model_llama_embed(m, tokens, n, h);
    model_mark(watch, MODEL_PHASE_EMBED, 1);
    model_stream_kept(c, run, 0, h, n);
    for (int l = 0; l < c->layers; l++) {
        if ((rc = model_llama_layer_in(m, l, h, n, 0, a, Q, K, V, watch, ws, err)) != ATTN_OK)
            goto done;
        if (run->input_layer == l + 1)
            memcpy(run->layer_input, a, (size_t)n * d * sizeof *a);
        model_keep_qk(c, run, l, Q, q, K, kv);
        model_mark(watch, MODEL_PHASE_ATTENTION, 0);
        rc = model_layer_attention(c, Q, q, K, kv, V, kv, n, o, q, &run->scores[l * H], NULL, &scratch, err);
        model_mark(watch, MODEL_PHASE_ATTENTION, 1);
        if (rc != ATTN_OK)
            goto done;
        model_heads_formed(c, ask, run, l, o, q, n);
        if ((rc = model_llama_layer_out(m, l, o, n, h, a, g, u, run, watch, ws, err)) != ATTN_OK)
            goto done;
        model_stream_kept(c, run, l + 1, h, n);
    }
    int rows = run->final ? n : 1;  /* the last position (and every one kept) */
    model_mark(watch, MODEL_PHASE_LOGITS, 0);
    rc = model_final(m, h + (size_t)(n - rows) * d, rows, a, run->logits, ws, err);
    model_mark(watch, MODEL_PHASE_LOGITS, 1);
    if (run->final)
        memcpy(run->final, a, (size_t)n * d * sizeof *a);
done:
    free(h), free(a), free(Q), free(K), free(V), free(o), free(g), free(u);
    model_layer_scratch_free(&scratch);
    return rc;
}
