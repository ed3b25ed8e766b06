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
#include "pool.h"

#define P "model."

int model_open_llama(Model *m, const SafeTensors *st, AttnError *err)
{
    const ModelConfig *c = &m->cfg;
    if (!(m->llama = attn_calloc((size_t)c->layers, sizeof *m->llama)))
        return attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1;
    int64_t d = c->d_model, f = c->d_ff, q = (int64_t)c->heads * c->head_dim, kv = (int64_t)c->kv_heads * c->head_dim;
    int ok = (m->embed = model_weight(m, st, P, "embed_tokens.weight", c->vocab, d, 0, err)) != NULL;
    for (int l = 0; ok && l < c->layers; l++) {
        LlamaLayer *y = &m->llama[l];
        char n[15][96];
        static const char *const part[15] = {
            "input_layernorm.weight", "self_attn.q_proj.weight", "self_attn.q_proj.bias",
            "self_attn.k_proj.weight", "self_attn.k_proj.bias",  "self_attn.v_proj.weight",
            "self_attn.v_proj.bias",  "self_attn.o_proj.weight", "post_attention_layernorm.weight",
            "mlp.gate_proj.weight",   "mlp.up_proj.weight",      "mlp.down_proj.weight",
            "", "", "",
        };
        for (int k = 0; k < 12; k++)
            snprintf(n[k], sizeof n[k], "layers.%d.%s", l, part[k]);
        ok = (y->in_norm = model_weight(m, st, P, n[0], d, 0, 0, err))
             && (y->q_w = model_weight(m, st, P, n[1], q, d, 0, err))
             && ((y->q_b = model_weight(m, st, P, n[2], q, 0, 1, err)) || !err->msg[0])
             && (y->k_w = model_weight(m, st, P, n[3], kv, d, 0, err))
             && ((y->k_b = model_weight(m, st, P, n[4], kv, 0, 1, err)) || !err->msg[0])
             && (y->v_w = model_weight(m, st, P, n[5], kv, d, 0, err))
             && ((y->v_b = model_weight(m, st, P, n[6], kv, 0, 1, err)) || !err->msg[0])
             && (y->o_w = model_weight(m, st, P, n[7], d, q, 0, err))
             && (y->post_norm = model_weight(m, st, P, n[8], d, 0, 0, err))
             && (y->gate_w = model_weight(m, st, P, n[9], f, d, 0, err))
             && (y->up_w = model_weight(m, st, P, n[10], f, d, 0, err))
             && (y->down_w = model_weight(m, st, P, n[11], d, f, 0, err));
    }
    ok = ok && (m->norm_g = model_weight(m, st, P, "norm.weight", d, 0, 0, err));
    if (ok) {
        /* the output embedding: its own, unless tied (a tied checkpoint may
         * still carry lm_head.weight: the same numbers, not counted twice) */
        int64_t before = m->params;
        m->out = model_weight(m, st, "", "lm_head.weight", c->vocab, d, c->tied, err);
        if (c->tied) {
            m->params = before;
            m->out = m->embed;
        }
        ok = m->out != NULL;
    }
    return ok ? 0 : -1;
}

/* y (n x out) = x (n x in) @ w^T (w: out x in) + bias (NULL: none); or y += that. */
static void linear(const float *x, int n, int in, const float *w, const float *bias, int out, float *y, int accumulate)
{
    for (int i = 0; !accumulate && i < n; i++)
        for (int j = 0; j < out; j++)
            y[(size_t)i * out + j] = bias ? bias[j] : 0.0f;
    for (int i = 0; accumulate && bias && i < n; i++)
        for (int j = 0; j < out; j++)
            y[(size_t)i * out + j] += bias[j];
    blas_sgemm(0, 1, n, out, in, 1.0f, x, in, w, in, 1.0f, y, out);
}

/* Each head of x (n rows of heads x hd numbers) turned by its position
 * (pos0 + the row): number j with number j + hd/2. */
static void rotate(float *x, int n, int heads, int hd, double theta, int pos0)
{
    int half = hd / 2;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < half; j++) {
            float inv = (float)(1.0 / pow(theta, (double)(2 * j) / hd));
            float angle = (float)(pos0 + i) * inv, cs = cosf(angle), sn = sinf(angle);
            for (int h = 0; h < heads; h++) {
                float *v = x + (size_t)i * heads * hd + (size_t)h * hd;
                float a = v[j], b = v[j + half];
                v[j] = a * cs - b * sn;
                v[j + half] = b * cs + a * sn;
            }
        }
}

static float silu(float x) { return x / (1.0f + expf(-x)); }

/* g[lo, hi) = silu(g) * u, a band of the gated MLP on attn's pool. */
typedef struct {
    float *g;
    const float *u;
} Gated;

static void gate_band(void *ctx, size_t lo, size_t hi)
{
    Gated *gu = ctx;
    for (size_t i = lo; i < hi; i++)
        gu->g[i] = silu(gu->g[i]) * gu->u[i];
}

void model_llama_embed(const Model *m, const int *tokens, int n, float *x)
{
    int d = m->cfg.d_model;
    for (int i = 0; i < n; i++)
        memcpy(x + (size_t)i * d, m->embed + (size_t)tokens[i] * d, (size_t)d * sizeof *x);
}

void model_llama_layer_in(const Model *m, int l, const float *h, int n, int pos0, float *a, float *Q, float *K,
                          float *V)
{
    const ModelConfig *c = &m->cfg;
    const LlamaLayer *y = &m->llama[l];
    int d = c->d_model, hd = c->head_dim, q = c->heads * hd, kv = c->kv_heads * hd;
    model_rms_norm(a, h, y->in_norm, n, d, c->ln_eps);
    linear(a, n, d, y->q_w, y->q_b, q, Q, 0);
    linear(a, n, d, y->k_w, y->k_b, kv, K, 0);
    linear(a, n, d, y->v_w, y->v_b, kv, V, 0);
    rotate(Q, n, c->heads, hd, c->rope_theta, pos0);
    rotate(K, n, c->kv_heads, hd, c->rope_theta, pos0);
}

void model_llama_layer_out(const Model *m, int l, const float *o, int n, float *h, float *a, float *g, float *u,
                           ModelRun *run)
{
    const ModelConfig *c = &m->cfg;
    const LlamaLayer *y = &m->llama[l];
    int d = c->d_model, f = c->d_ff;
    linear(o, n, c->heads * c->head_dim, y->o_w, NULL, d, h, 1);
    model_rms_norm(a, h, y->post_norm, n, d, c->ln_eps);
    linear(a, n, d, y->gate_w, NULL, f, g, 0);
    linear(a, n, d, y->up_w, NULL, f, u, 0);
    pool_for((size_t)n * f, 1 << 16, gate_band, &(Gated){ g, u });
    if (run)
        model_mlp_kept(c, run, l, g, n);     /* what the MLP's output projection reads, for --attribution */
    linear(g, n, f, y->down_w, NULL, d, h, 1);
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
    LayerScratch scratch = { 0 };
    attn_status rc = ATTN_OK;
    if (!h || !a || !Q || !K || !V || !o || !g || !u) {
        rc = attn_fail(err, ATTN_E_NOMEM, "out of memory for a forward pass of %d tokens", n);
        goto done;
    }
    model_llama_embed(m, tokens, n, h);
    model_stream_kept(c, run, 0, h, n);
    for (int l = 0; l < c->layers; l++) {
        model_llama_layer_in(m, l, h, n, 0, a, Q, K, V);
        if (run->input_layer == l + 1)
            memcpy(run->layer_input, a, (size_t)n * d * sizeof *a);
        model_keep_qk(c, run, l, Q, q, K, kv);
        rc = model_layer_attention(c, Q, q, K, kv, V, kv, n, o, q, &run->scores[l * H], NULL, &scratch, err);
        if (rc != ATTN_OK)
            goto done;
        model_heads_formed(c, ask, run, l, o, q, n);
        model_llama_layer_out(m, l, o, n, h, a, g, u, run);
        model_stream_kept(c, run, l + 1, h, n);
    }
    int rows = run->final ? n : 1;  /* the last position (and every one kept) */
    model_final(m, h + (size_t)(n - rows) * d, rows, a, run->logits);
    if (run->final)
        memcpy(run->final, a, (size_t)n * d * sizeof *a);
done:
    free(h), free(a), free(Q), free(K), free(V), free(o), free(g), free(u);
    model_layer_scratch_free(&scratch);
    return rc;
}
