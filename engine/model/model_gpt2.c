/*
 * model_gpt2.c - GPT-2's family (model_type "gpt2"): its tensors, under
 * GPT2LMHeadModel's names ("transformer.h.0.attn.c_attn.weight") or
 * GPT2Model's ("h.0.attn.c_attn.weight"), Conv1D weights stored (in, out);
 * and its forward pass: learned positions added to the tokens, each layer a
 * LayerNorm, attention (every head kept), a LayerNorm and a GELU MLP (tanh
 * approximation), each added back; the final LayerNorm against the tied
 * input embedding. The products go through BLAS, one head at a time.
 */
#include "model_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "blas.h"
#include "pool.h"

#define P "transformer."

int model_open_gpt2(Model *m, const SafeTensors *st, AttnError *err)
{
    const ModelConfig *cfg = &m->cfg;
    if (!(m->gpt2 = attn_calloc((size_t)cfg->layers, sizeof *m->gpt2)))
        return attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1;
    int64_t d = cfg->d_model, f = cfg->d_ff;
    int ok = (m->embed = model_weight(m, st, P, "wte.weight", cfg->vocab, d, 0, err))
             && (m->pos = model_weight(m, st, P, "wpe.weight", cfg->context, d, 0, err));
    for (int l = 0; ok && l < cfg->layers; l++) {
        Gpt2Layer *y = &m->gpt2[l];
        char n[12][80];
        static const char *const part[12] = { "ln_1.weight",      "ln_1.bias",          "attn.c_attn.weight",
                                              "attn.c_attn.bias", "attn.c_proj.weight", "attn.c_proj.bias",
                                              "ln_2.weight",      "ln_2.bias",          "mlp.c_fc.weight",
                                              "mlp.c_fc.bias",    "mlp.c_proj.weight",  "mlp.c_proj.bias" };
        for (int k = 0; k < 12; k++)
            snprintf(n[k], sizeof n[k], "h.%d.%s", l, part[k]);
        ok = (y->ln1_g = model_weight(m, st, P, n[0], d, 0, 0, err))
             && (y->ln1_b = model_weight(m, st, P, n[1], d, 0, 0, err))
             && (y->qkv_w = model_weight(m, st, P, n[2], d, 3 * d, 0, err))
             && (y->qkv_b = model_weight(m, st, P, n[3], 3 * d, 0, 0, err))
             && (y->proj_w = model_weight(m, st, P, n[4], d, d, 0, err))
             && (y->proj_b = model_weight(m, st, P, n[5], d, 0, 0, err))
             && (y->ln2_g = model_weight(m, st, P, n[6], d, 0, 0, err))
             && (y->ln2_b = model_weight(m, st, P, n[7], d, 0, 0, err))
             && (y->fc_w = model_weight(m, st, P, n[8], d, f, 0, err))
             && (y->fc_b = model_weight(m, st, P, n[9], f, 0, 0, err))
             && (y->out_w = model_weight(m, st, P, n[10], f, d, 0, err))
             && (y->out_b = model_weight(m, st, P, n[11], d, 0, 0, err));
    }
    ok = ok && (m->norm_g = model_weight(m, st, P, "ln_f.weight", d, 0, 0, err))
         && (m->norm_b = model_weight(m, st, P, "ln_f.bias", d, 0, 0, err));
    m->out = m->embed;     /* tied: lm_head.weight, when the file has it, is the same numbers */
    return ok ? 0 : -1;
}

/* out (n x d) = LayerNorm of x's rows, with gain g and bias b. */
static void layer_norm(const float *x, float *out, int n, int d, const float *g, const float *b, double eps)
{
    for (int i = 0; i < n; i++) {
        const float *r = x + (size_t)i * d;
        double mean = 0, var = 0;
        for (int j = 0; j < d; j++)
            mean += r[j];
        mean /= d;
        for (int j = 0; j < d; j++)
            var += (r[j] - mean) * (r[j] - mean);
        double inv = 1.0 / sqrt(var / d + eps);
        for (int j = 0; j < d; j++)
            out[(size_t)i * d + j] = (float)((r[j] - mean) * inv * g[j] + b[j]);
    }
}

/* y (n x cols) = x (n x inner) @ w (inner x cols) + bias, or y += that. */
static void affine(const float *x, int n, int inner, const float *w, const float *bias, int cols, float *y,
                   int accumulate)
{
    if (!accumulate)
        for (int i = 0; i < n; i++)
            memcpy(y + (size_t)i * cols, bias, (size_t)cols * sizeof *y);
    else
        for (int i = 0; i < n; i++)
            for (int j = 0; j < cols; j++)
                y[(size_t)i * cols + j] += bias[j];
    blas_sgemm(0, 0, n, cols, inner, 1.0f, x, inner, w, cols, 1.0f, y, cols);
}

static float gelu_tanh(float x)
{
    return (float)(0.5 * x * (1.0 + tanh(0.7978845608028654 * (x + 0.044715 * (double)x * x * x))));
}

/* GELU over x[lo, hi), a band of a buffer on attn's pool (a tenth of a
 * pass on one core at GPT-2 small's width when it ran alone). */
static void gelu_band(void *ctx, size_t lo, size_t hi)
{
    float *x = ctx;
    for (size_t i = lo; i < hi; i++)
        x[i] = gelu_tanh(x[i]);
}

attn_status model_forward_gpt2(const Model *m, const int *tokens, int n, ModelRun *run, AttnError *err)
{
    const ModelConfig *c = &m->cfg;
    int d = c->d_model, f = c->d_ff, H = c->heads;
    float *h = attn_malloc((size_t)n * d * sizeof *h), *a = attn_malloc((size_t)n * d * sizeof *a);
    float *qkv = attn_malloc((size_t)n * 3 * d * sizeof *qkv), *o = attn_malloc((size_t)n * d * sizeof *o);
    float *ff = attn_malloc((size_t)n * f * sizeof *ff);
    LayerScratch scratch = { 0 };
    attn_status rc = ATTN_OK;
    if (!h || !a || !qkv || !o || !ff) {
        rc = attn_fail(err, ATTN_E_NOMEM, "out of memory for a forward pass of %d tokens", n);
        goto done;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < d; j++)
            h[(size_t)i * d + j] = m->embed[(size_t)tokens[i] * d + j] + m->pos[(size_t)i * d + j];
    for (int l = 0; l < c->layers; l++) {
        const Gpt2Layer *y = &m->gpt2[l];
        layer_norm(h, a, n, d, y->ln1_g, y->ln1_b, c->ln_eps);
        if (run->input_layer == l + 1)
            memcpy(run->layer_input, a, (size_t)n * d * sizeof *a);
        affine(a, n, d, y->qkv_w, y->qkv_b, 3 * d, qkv, 0);
        model_keep_qk(c, run, l, qkv, 3 * d, qkv + d, 3 * d);
        rc = model_layer_attention(c, qkv, 3 * d, qkv + d, 3 * d, qkv + 2 * d, 3 * d, n, o, d, &run->scores[l * H],
                                   &scratch, err);
        if (rc != ATTN_OK)
            goto done;
        affine(o, n, d, y->proj_w, y->proj_b, d, h, 1);
        layer_norm(h, a, n, d, y->ln2_g, y->ln2_b, c->ln_eps);
        affine(a, n, d, y->fc_w, y->fc_b, f, ff, 0);
        pool_for((size_t)n * f, 1 << 16, gelu_band, ff);
        affine(ff, n, f, y->out_w, y->out_b, d, h, 1);
    }
    /* the next token: the last position (and every one kept, for
     * model_logits_at) through the final norm, against the input
     * embedding (tied) */
    int rows = run->final ? n : 1;
    layer_norm(h + (size_t)(n - rows) * d, a, rows, d, m->norm_g, m->norm_b, c->ln_eps);
    if (run->final)
        memcpy(run->final, a, (size_t)n * d * sizeof *a);
    blas_sgemm(0, 1, 1, c->vocab, d, 1.0f, a + (size_t)(rows - 1) * d, d, m->out, d, 0.0f, run->logits, c->vocab);
done:
    free(h), free(a), free(qkv), free(o), free(ff);
    model_layer_scratch_free(&scratch);
    return rc;
}
