/*
 * model_head.c - one head of a model: what it does, measured (the share of
 * each query's weight on the token before it, on the first, on itself, and
 * the induction score on a repeated random sequence), and its own share of
 * its layer's weights, as the lessons write them (tokens as rows), for the
 * head shown as a lesson.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "blas.h"
#include "model_internal.h"
#include "rng.h"

const char *model_head_kind(const HeadScores *s, double *score)
{
    static const char *const names[4] = { "previous-token", "first-token", "self", "induction" };
    double v[4] = { s->previous, s->first, s->self, s->induction };
    int best = 0;
    for (int k = 1; k < 4; k++)
        if (v[k] > v[best])
            best = k;
    if (v[best] >= 0.4) {
        *score = v[best];
        return names[best];
    }
    *score = 1 - v[best];
    return "broad";
}

/* Where a head's weights are read from, for measuring them: its n x n
 * matrix, or its queries and keys and each query's log-sum-exp. */
typedef struct {
    const float *A;             /* (n, n), or NULL                             */
    const float *q, *k;         /* the head's query and key rows, ldq, ldk apart */
    int ldq, ldk, hd;
    float scale;
    const float *lse;           /* (n)                                         */
} HeadWeights;

static double weight_at(const HeadWeights *w, int n, int i, int j)
{
    if (w->A)
        return w->A[(size_t)i * n + j];
    const float *q = w->q + (size_t)i * w->ldq, *k = w->k + (size_t)j * w->ldk;
    float dot = 0.0f;
    for (int c = 0; c < w->hd; c++)
        dot += q[c] * k[c];
    return exp((double)dot * w->scale - w->lse[i]);
}

/* The share of each query's weight on the token before, the first, itself. */
static void measure(const HeadWeights *w, int n, HeadScores *s)
{
    s->previous = s->first = s->self = 0;
    for (int i = 1; i < n; i++) {
        s->previous += weight_at(w, n, i, i - 1);
        s->first += weight_at(w, n, i, 0);
        s->self += weight_at(w, n, i, i);
    }
    if (n > 1) {
        s->previous /= n - 1;
        s->first /= n - 1;
        s->self /= n - 1;
    }
}

void model_layer_scratch_free(LayerScratch *s)
{
    attention_workspace_free(s->ws);
    free(s->lse), free(s->A);
    memset(s, 0, sizeof *s);
}

attn_status model_layer_attention(const ModelConfig *c, const float *Q, int ldq, const float *K, int ldk,
                                  const float *V, int ldv, int n, float *out, int ldo, HeadScores *scores,
                                  float *lse, LayerScratch *s, AttnError *err)
{
    int H = c->heads, hd = c->head_dim, group = c->heads / c->kv_heads;
    if (c->sliding_window > 0 && c->sliding_window < n) {
        /* a window the fused kernels do not cut: head by head, n x n */
        if (!s->A && !(s->A = attn_malloc((size_t)n * n * sizeof *s->A)))
            return attn_fail(err, ATTN_E_NOMEM, "out of memory for a head's %d x %d weights", n, n);
        for (int k = 0; k < H; k++) {
            model_head_softmax(c, Q, ldq, K, ldk, n, k, s->A);
            if (scores)
                measure(&(HeadWeights){ .A = s->A }, n, &scores[k]);
            blas_sgemm(0, 0, n, hd, n, 1.0f, s->A, n, V + (k / group) * hd, ldv, 0.0f, out + k * hd, ldo);
        }
        return ATTN_OK;
    }
    if (!s->ws)
        s->ws = attention_workspace_new();
    if (!lse && !s->lse)
        s->lse = attn_malloc((size_t)H * n * sizeof *s->lse);
    if (!s->ws || (!lse && !s->lse))
        return attn_fail(err, ATTN_E_NOMEM, "out of memory for a layer's attention over %d tokens", n);
    if (!lse)
        lse = s->lse;
    attn_status rc = attention_core(s->ws, out, ldo, Q, ldq, K, ldk, V, ldv, n, H, c->kv_heads, hd, 1, lse, err);
    for (int k = 0; rc == ATTN_OK && scores && k < H; k++)
        measure(&(HeadWeights){ NULL, Q + k * hd, K + (k / group) * hd, ldq, ldk, hd, 1.0f / sqrtf((float)hd),
                                lse + (size_t)k * n },
                n, &scores[k]);
    return rc;
}

double model_induction_band(const float *a, int rep)
{
    int n = 2 * rep;
    double sum = 0;
    for (int i = rep; i < n - 1; i++)
        sum += a[(size_t)i * n + (i - rep + 1)];
    return sum / (rep - 1);
}

/* A token drawn with probability cum[id] - cum[id - 1] (cum the running
 * sums of the weights, cum[vocab - 1] their total), or evenly. */
static int draw_token(Rng *g, const double *cum, int vocab)
{
    uint64_t u = (uint64_t)rng_u32(g) << 32 | rng_u32(g);
    if (!cum)
        return (int)(u % (uint64_t)vocab);
    double x = (double)u / 18446744073709551616.0 * cum[vocab - 1];
    int lo = 0, hi = vocab - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (cum[mid] > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

attn_status model_probe_heads(const Model *m, const double *weights, HeadScores *scores, AttnError *err)
{
    const ModelConfig *c = &m->cfg;
    int L = c->layers, H = c->heads, rep = MODEL_PROBE_REP < c->context / 2 ? MODEL_PROBE_REP : c->context / 2;
    memset(scores, 0, (size_t)L * H * sizeof *scores);
    if (rep < 2)
        return ATTN_OK;
    int t = 2 * rep;
    int *seq = attn_malloc((size_t)t * sizeof *seq);
    float *A = attn_malloc((size_t)t * t * sizeof *A);
    double *cum = NULL, total = 0;
    if (weights && (cum = attn_malloc((size_t)c->vocab * sizeof *cum)))
        for (int id = 0; id < c->vocab; id++)
            cum[id] = total += weights[id] > 0 ? weights[id] : 0;
    if (!seq || !A || (weights && !cum)) {
        free(seq), free(A), free(cum);
        return attn_fail(err, ATTN_E_NOMEM, "out of memory");
    }
    if (cum && total <= 0) {
        free(cum);
        cum = NULL;     /* nothing to weigh by: every token alike */
    }
    Rng g;
    rng_seed(&g, MODEL_PROBE_SEED);     /* the same sequences every time: one measure */
    attn_status rc = ATTN_OK;
    for (int probe = 0; probe < MODEL_PROBE_SEQUENCES && rc == ATTN_OK; probe++) {
        for (int i = 0; i < rep; i++)
            seq[i] = seq[i + rep] = draw_token(&g, cum, c->vocab);
        ModelRun twice;
        rc = model_forward(m, seq, t, &twice, err);
        for (int l = 0; rc == ATTN_OK && l < L; l++)
            for (int k = 0; rc == ATTN_OK && k < H; k++) {
                rc = model_attention(m, &twice, l, k, A, err);
                HeadScores *s = &scores[l * H + k], one;
                measure(&(HeadWeights){ .A = A }, t, &one);
                s->previous += one.previous / MODEL_PROBE_SEQUENCES;
                s->first += one.first / MODEL_PROBE_SEQUENCES;
                s->self += one.self / MODEL_PROBE_SEQUENCES;
                s->induction += model_induction_band(A, rep) / MODEL_PROBE_SEQUENCES;
            }
        model_run_free(&twice);     /* zeroed by a pass that failed: fine */
    }
    free(seq), free(A), free(cum);
    return rc;
}

/* Row r, column c of nn.Linear's (out, in) weight as stored (float32, or
 * BF16 as the float it is exactly). */
static float stored(const AttnLinear *w, int r, int c)
{
    size_t at = (size_t)r * w->ld + c;
    return w->dtype == ATTN_DTYPE_F32 ? ((const float *)w->data)[at] : attention_f32_of_bf16(((const uint16_t *)w->data)[at]);
}

void model_head_weights_free(ModelHeadWeights *w)
{
    free(w->wq), free(w->wk), free(w->wv), free(w->bq), free(w->bk), free(w->bv), free(w->wo);
    memset(w, 0, sizeof *w);
}

attn_status model_head_weights(const Model *m, int layer, int head, ModelHeadWeights *w, AttnError *err)
{
    const ModelConfig *c = &m->cfg;
    memset(w, 0, sizeof *w);
    if (layer < 1 || layer > c->layers || head < 1 || head > c->heads)
        return attn_fail(err, ATTN_E_ARG, "layer %d head %d; the model has layers 1 to %d, heads 1 to %d", layer, head,
                         c->layers, c->heads);
    int d = c->d_model, hd = c->head_dim, k = head - 1;
    size_t dh = (size_t)d * hd;
    w->d_model = d;
    w->head_dim = hd;
    w->wq = attn_malloc(dh * sizeof *w->wq), w->wk = attn_malloc(dh * sizeof *w->wk);
    w->wv = attn_malloc(dh * sizeof *w->wv), w->wo = attn_malloc(dh * sizeof *w->wo);
    w->bq = attn_calloc((size_t)hd, sizeof *w->bq), w->bk = attn_calloc((size_t)hd, sizeof *w->bk);
    w->bv = attn_calloc((size_t)hd, sizeof *w->bv);
    if (!w->wq || !w->wk || !w->wv || !w->wo || !w->bq || !w->bk || !w->bv) {
        model_head_weights_free(w);
        return attn_fail(err, ATTN_E_NOMEM, "out of memory");
    }
    if (c->kind == FAMILY_GPT2) {
        /* c_attn (d, 3d) as (in, out): the head's columns of Q, K and V;
         * c_proj (d, d): its rows */
        const Gpt2Layer *y = &m->gpt2[layer - 1];
        w->kv_head = head;
        w->has_bias = 1;
        for (int i = 0; i < d; i++)
            for (int j = 0; j < hd; j++) {
                const float *row = y->qkv_w + (size_t)i * 3 * d;
                w->wq[(size_t)i * hd + j] = row[k * hd + j];
                w->wk[(size_t)i * hd + j] = row[d + k * hd + j];
                w->wv[(size_t)i * hd + j] = row[2 * d + k * hd + j];
                w->wo[(size_t)j * d + i] = y->proj_w[(size_t)(k * hd + j) * d + i];
            }
        for (int j = 0; j < hd; j++) {
            w->bq[j] = y->qkv_b[k * hd + j];
            w->bk[j] = y->qkv_b[d + k * hd + j];
            w->bv[j] = y->qkv_b[2 * d + k * hd + j];
        }
    } else {
        /* q/k/v_proj (out, in): the head's rows, transposed; the key and
         * value head it shares (GQA); o_proj (d, heads x hd): its columns */
        const LlamaLayer *y = &m->llama[layer - 1];
        int g = k / (c->heads / c->kv_heads);
        w->kv_head = g + 1;
        w->has_bias = y->q_b != NULL;
        for (int i = 0; i < d; i++)
            for (int j = 0; j < hd; j++) {
                w->wq[(size_t)i * hd + j] = stored(&y->q, k * hd + j, i);
                w->wk[(size_t)i * hd + j] = stored(&y->k, g * hd + j, i);
                w->wv[(size_t)i * hd + j] = stored(&y->v, g * hd + j, i);
                w->wo[(size_t)j * d + i] = stored(&y->o, i, k * hd + j);
            }
        for (int j = 0; j < hd; j++) {
            w->bq[j] = y->q_b ? y->q_b[k * hd + j] : 0.0f;
            w->bk[j] = y->k_b ? y->k_b[g * hd + j] : 0.0f;
            w->bv[j] = y->v_b ? y->v_b[g * hd + j] : 0.0f;
        }
    }
    return ATTN_OK;
}
