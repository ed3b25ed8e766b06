/*
 * gpt_layers.c - a GPT-2's layers, forward and backward (gpt_layers.h).
 * The derivatives are the textbook ones, written out: LayerNorm's through
 * its mean and variance, the softmax's as a (dA - <dA, a>), GELU's through
 * its tanh.
 */
#include "gpt_layers.h"

#include <math.h>
#include <string.h>

#include "blas.h"
#include "pool.h"

#define NORM_EPS 1e-5f
#define GELU_K 0.7978845608028654f  /* sqrt(2 / pi) */

void gpt_embed_forward(float *out, const int *inp, const float *wte, const float *wpe, int B, int T, int C)
{
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++) {
            float *o = out + ((size_t)b * T + t) * C;
            const float *e = wte + (size_t)inp[b * T + t] * C, *p = wpe + (size_t)t * C;
            for (int i = 0; i < C; i++)
                o[i] = e[i] + p[i];
        }
}

void gpt_embed_backward(float *dwte, float *dwpe, const float *dout, const int *inp, int B, int T, int C)
{
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++) {
            const float *d = dout + ((size_t)b * T + t) * C;
            float *de = dwte + (size_t)inp[b * T + t] * C, *dp = dwpe + (size_t)t * C;
            for (int i = 0; i < C; i++) {
                de[i] += d[i];
                dp[i] += d[i];
            }
        }
}

/* A LayerNorm forward's operands, a band of rows an item of attn's pool
 * (each row on its own: the same numbers on any thread). */
typedef struct {
    float *out, *mean, *rstd;
    const float *inp, *w, *b;
    int C;
} NormArgs;

/* Rows per item of the row-wise layers. */
#define ROW_BAND 64

static void norm_forward_rows(void *ctx, size_t lo, size_t hi)
{
    const NormArgs *a = ctx;
    float *out = a->out, *mean = a->mean, *rstd = a->rstd;
    const float *inp = a->inp, *w = a->w, *b = a->b;
    int C = a->C;
    for (size_t r = lo; r < hi; r++) {
        const float *x = inp + (size_t)r * C;
        float m = 0, v = 0;
        for (int i = 0; i < C; i++)
            m += x[i];
        m /= C;
        for (int i = 0; i < C; i++)
            v += (x[i] - m) * (x[i] - m);
        v /= C;
        float s = 1.0f / sqrtf(v + NORM_EPS);
        float *o = out + (size_t)r * C;
        for (int i = 0; i < C; i++)
            o[i] = (x[i] - m) * s * w[i] + b[i];
        mean[r] = m;
        rstd[r] = s;
    }
}

void gpt_norm_forward(float *out, float *mean, float *rstd, const float *inp, const float *w, const float *b, int N,
                      int C)
{
    pool_for((size_t)N, ROW_BAND, norm_forward_rows, &(NormArgs){ out, mean, rstd, inp, w, b, C });
}

void gpt_norm_backward(float *dinp, float *dw, float *db, const float *dout, const float *inp, const float *w,
                       const float *mean, const float *rstd, int N, int C)
{
    for (int r = 0; r < N; r++) {
        const float *x = inp + (size_t)r * C, *d = dout + (size_t)r * C;
        float m = mean[r], s = rstd[r];
        /* the two means the gradient through the normalization needs */
        float dnorm_mean = 0, dnorm_norm_mean = 0;
        for (int i = 0; i < C; i++) {
            float norm = (x[i] - m) * s, dnorm = w[i] * d[i];
            dnorm_mean += dnorm;
            dnorm_norm_mean += dnorm * norm;
        }
        dnorm_mean /= C;
        dnorm_norm_mean /= C;
        float *dx = dinp + (size_t)r * C;
        for (int i = 0; i < C; i++) {
            float norm = (x[i] - m) * s, dnorm = w[i] * d[i];
            db[i] += d[i];
            dw[i] += norm * d[i];
            dx[i] += (dnorm - dnorm_mean - norm * dnorm_norm_mean) * s;
        }
    }
}

void gpt_linear_forward(float *out, const float *inp, const float *w, const float *bias, int N, int C, int OC)
{
    for (int r = 0; r < N; r++)
        if (bias)
            memcpy(out + (size_t)r * OC, bias, (size_t)OC * sizeof *out);
        else
            memset(out + (size_t)r * OC, 0, (size_t)OC * sizeof *out);
    blas_sgemm(0, 0, N, OC, C, 1.0f, inp, C, w, OC, 1.0f, out, OC);
}

void gpt_linear_backward(float *dinp, float *dw, float *dbias, const float *dout, const float *inp, const float *w,
                         int N, int C, int OC)
{
    blas_sgemm(0, 1, N, C, OC, 1.0f, dout, OC, w, OC, 1.0f, dinp, C);     /* dinp += dout @ w^T */
    blas_sgemm(1, 0, C, OC, N, 1.0f, inp, C, dout, OC, 1.0f, dw, OC);     /* dw += inp^T @ dout */
    for (int r = 0; dbias && r < N; r++)
        for (int o = 0; o < OC; o++)
            dbias[o] += dout[(size_t)r * OC + o];
}

/* The attention's operands, for its (sequence, head) items on attn's pool:
 * each item reads and writes its own rows and columns only, so the items
 * run in any order on any thread with the same numbers. */
typedef struct {
    float *out, *att_out, *dqkv, *datt;     /* written: forward, backward */
    const float *qkv, *att, *dout;          /* read                       */
    int B, T, C, H;
} AttentionArgs;

static void attention_forward_item(void *ctx, int item, int worker)
{
    (void)worker;
    const AttentionArgs *x = ctx;
    float *out = x->out, *att = x->att_out;
    const float *qkv = x->qkv;
    int T = x->T, C = x->C, H = x->H, b = item / H, h = item % H, hs = C / H;
    float scale = 1.0f / sqrtf((float)hs);
    const float *q = qkv + (size_t)b * T * 3 * C + (size_t)h * hs, *k = q + C, *v = q + 2 * C;
    float *a = att + ((size_t)b * H + h) * T * T;
    blas_sgemm(0, 1, T, T, hs, scale, q, 3 * C, k, 3 * C, 0.0f, a, T);
    for (int t = 0; t < T; t++) {
        float *row = a + (size_t)t * T, mx = row[0], sum = 0;
        for (int j = 1; j <= t; j++)
            mx = row[j] > mx ? row[j] : mx;
        for (int j = 0; j <= t; j++) {
            row[j] = expf(row[j] - mx);
            sum += row[j];
        }
        for (int j = 0; j < T; j++)
            row[j] = j <= t ? row[j] / sum : 0.0f;     /* the causal mask */
    }
    blas_sgemm(0, 0, T, hs, T, 1.0f, a, T, v, 3 * C, 0.0f, out + (size_t)b * T * C + (size_t)h * hs, C);
}

void gpt_attention_forward(float *out, float *att, const float *qkv, int B, int T, int C, int H)
{
    AttentionArgs x = { .out = out, .att_out = att, .qkv = qkv, .B = B, .T = T, .C = C, .H = H };
    pool_run(0, attention_forward_item, &x, B * H);
}

static void attention_backward_item(void *ctx, int item, int worker)
{
    (void)worker;
    const AttentionArgs *x = ctx;
    float *dqkv = x->dqkv, *datt = x->datt;
    const float *qkv = x->qkv, *att = x->att, *dout = x->dout;
    int T = x->T, C = x->C, H = x->H, b = item / H, h = item % H, hs = C / H;
    float scale = 1.0f / sqrtf((float)hs);
    size_t at = (size_t)b * T * 3 * C + (size_t)h * hs;
    const float *q = qkv + at, *k = q + C, *v = q + 2 * C, *a = att + ((size_t)b * H + h) * T * T;
    const float *d = dout + (size_t)b * T * C + (size_t)h * hs;
    float *dq = dqkv + at, *dk = dq + C, *dv = dq + 2 * C, *da = datt + ((size_t)b * H + h) * T * T;
    blas_sgemm(0, 1, T, T, hs, 1.0f, d, C, v, 3 * C, 0.0f, da, T);   /* dA = dO V^T */
    blas_sgemm(1, 0, T, hs, T, 1.0f, a, T, d, C, 1.0f, dv, 3 * C);   /* dV += A^T dO */
    /* through the softmax: dS = A (dA - <dA, A>) on each row, in place */
    for (int t = 0; t < T; t++) {
        const float *ar = a + (size_t)t * T;
        float *dr = da + (size_t)t * T, dot = 0;
        for (int j = 0; j <= t; j++)
            dot += dr[j] * ar[j];
        for (int j = 0; j < T; j++)
            dr[j] = j <= t ? ar[j] * (dr[j] - dot) : 0.0f;
    }
    blas_sgemm(0, 0, T, hs, T, scale, da, T, k, 3 * C, 1.0f, dq, 3 * C);   /* dQ += dS K / sqrt(hs) */
    blas_sgemm(1, 0, T, hs, T, scale, da, T, q, 3 * C, 1.0f, dk, 3 * C);   /* dK += dS^T Q / sqrt(hs) */
}

void gpt_attention_backward(float *dqkv, float *datt, const float *dout, const float *qkv, const float *att, int B,
                            int T, int C, int H)
{
    AttentionArgs x = { .att = att, .dqkv = dqkv, .datt = datt, .qkv = qkv, .dout = dout, .B = B, .T = T,
                        .C = C, .H = H };
    pool_run(0, attention_backward_item, &x, B * H);
}

/* tanh through one exp, 1 - 2 / (e^2u + 1): several times quicker than
 * tanhf and within a few units of float's last place (the ends saturate
 * to +-1 exactly). */
static inline float tanh_by_exp(float u)
{
    return 1.0f - 2.0f / (expf(2.0f * u) + 1.0f);
}

/* GELU's operands, a band of them an item of attn's pool (element by
 * element: the same numbers on any thread). */
typedef struct {
    float *out, *th, *dinp;                 /* written: forward, backward */
    const float *inp, *th_in, *dout;        /* read                       */
} GeluArgs;

#define GELU_BAND 16384

static void gelu_forward_band(void *ctx, size_t lo, size_t hi)
{
    const GeluArgs *g = ctx;
    for (size_t i = lo; i < hi; i++) {
        float x = g->inp[i];
        g->th[i] = tanh_by_exp(GELU_K * (x + 0.044715f * x * x * x));
        g->out[i] = 0.5f * x * (1.0f + g->th[i]);
    }
}

void gpt_gelu_forward(float *out, float *th, const float *inp, long n)
{
    pool_for((size_t)n, GELU_BAND, gelu_forward_band, &(GeluArgs){ .out = out, .th = th, .inp = inp });
}

static void gelu_backward_band(void *ctx, size_t lo, size_t hi)
{
    const GeluArgs *g = ctx;
    for (size_t i = lo; i < hi; i++) {
        float x = g->inp[i], t = g->th_in[i];
        float sech2 = 1.0f - t * t, du = GELU_K * (1.0f + 3.0f * 0.044715f * x * x);
        g->dinp[i] += (0.5f * (1.0f + t) + 0.5f * x * sech2 * du) * g->dout[i];
    }
}

void gpt_gelu_backward(float *dinp, const float *inp, const float *th, const float *dout, long n)
{
    pool_for((size_t)n, GELU_BAND, gelu_backward_band,
             &(GeluArgs){ .dinp = dinp, .inp = inp, .th_in = th, .dout = dout });
}

/* The cross-entropy's operands, a band of rows an item of attn's pool. */
typedef struct {
    float *probs, *dlogits;
    const float *logits;
    const int *targets;
    int N, V;
} LossArgs;

static void crossentropy_rows(void *ctx, size_t lo, size_t hi)
{
    const LossArgs *a = ctx;
    float *probs = a->probs, *dlogits = a->dlogits;
    int N = a->N, V = a->V;
    const int *targets = a->targets;
    for (size_t r = lo; r < hi; r++) {
        const float *z = a->logits + r * V;
        float *p = probs + (size_t)r * V, mx = z[0];
        for (int i = 1; i < V; i++)
            mx = z[i] > mx ? z[i] : mx;
        double sum = 0;
        for (int i = 0; i < V; i++)
            sum += exp((double)z[i] - mx);
        for (int i = 0; i < V; i++)
            p[i] = (float)(exp((double)z[i] - mx) / sum);
        for (int i = 0; dlogits && i < V; i++)
            dlogits[r * V + i] = (p[i] - (i == targets[r] ? 1.0f : 0.0f)) / N;
    }
}

double gpt_crossentropy(float *probs, float *dlogits, const float *logits, const int *targets, int N, int V)
{
    pool_for((size_t)N, ROW_BAND, crossentropy_rows, &(LossArgs){ probs, dlogits, logits, targets, N, V });
    double loss = 0;    /* summed in order, on one thread */
    for (int r = 0; r < N; r++)
        loss -= log(fmax((double)probs[(size_t)r * V + targets[r]], 1e-30));
    return loss / N;
}
