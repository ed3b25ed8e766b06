/*
 * gpt_layers.c - the backward pass of a GPT-2's layers (gpt_layers.h).
 * The derivatives are the textbook ones, written out: LayerNorm's through
 * its mean and variance, the softmax's as a (dA - <dA, a>) with a made
 * again from the log-sum-exp the fused forward kept, GELU's through the
 * tanh the forward kept (model_gelu_tanh).
 */
#include "gpt_layers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blas.h"
#include "pool.h"

/* Rows per item of the row-wise layers. */
#define ROW_BAND 64

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
    float *dqkv;
    const float *qkv, *out, *dout, *lse;
    int B, T, C, H;
} AttentionArgs;

static void attention_backward_item(void *ctx, int item, int worker)
{
    (void)worker;
    const AttentionArgs *x = ctx;
    int T = x->T, C = x->C, H = x->H, b = item / H, h = item % H, hs = C / H;
    float scale = 1.0f / sqrtf((float)hs);
    size_t at = (size_t)b * T * 3 * C + (size_t)h * hs;
    const float *q = x->qkv + at, *k = q + C, *v = q + 2 * C, *lse = x->lse + ((size_t)b * H + h) * T;
    const float *d = x->dout + (size_t)b * T * C + (size_t)h * hs;
    float *dq = x->dqkv + at, *dk = dq + C, *dv = dq + 2 * C;
    float *a = malloc(2 * (size_t)T * T * sizeof *a), *da = a ? a + (size_t)T * T : NULL;
    if (!a)
        abort();        /* 2 T^2 floats: a few hundred KB at the longest context attn trains */
    /* the weights again, from the scores and each query's log-sum-exp */
    blas_sgemm(0, 1, T, T, hs, scale, q, 3 * C, k, 3 * C, 0.0f, a, T);
    for (int t = 0; t < T; t++) {
        float *row = a + (size_t)t * T;
        for (int j = 0; j < T; j++)
            row[j] = j <= t ? expf(row[j] - lse[t]) : 0.0f;     /* the causal mask */
    }
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
    free(a);
}

void gpt_attention_backward(float *dqkv, const float *dout, const float *qkv, const float *out, const float *lse,
                            int B, int T, int C, int H)
{
    AttentionArgs x = { .dqkv = dqkv, .qkv = qkv, .out = out, .dout = dout, .lse = lse, .B = B, .T = T, .C = C,
                        .H = H };
    pool_run(0, attention_backward_item, &x, B * H);
}

/* GELU's operands, a band of them an item of attn's pool (element by
 * element: the same numbers on any thread). */
typedef struct {
    float *dinp;
    const float *inp, *th, *dout;
} GeluArgs;

#define GELU_BAND 16384

static void gelu_backward_band(void *ctx, size_t lo, size_t hi)
{
    const GeluArgs *g = ctx;
    for (size_t i = lo; i < hi; i++) {
        float x = g->inp[i], t = g->th[i];
        float sech2 = 1.0f - t * t, du = 0.7978845608028654f * (1.0f + 3.0f * 0.044715f * x * x);
        g->dinp[i] += (0.5f * (1.0f + t) + 0.5f * x * sech2 * du) * g->dout[i];
    }
}

void gpt_gelu_backward(float *dinp, const float *inp, const float *th, const float *dout, long n)
{
    pool_for((size_t)n, GELU_BAND, gelu_backward_band, &(GeluArgs){ dinp, inp, th, dout });
}

typedef struct {
    float *probs;
    const int *targets;
    int N, V;
} LossArgs;

static void crossentropy_rows(void *ctx, size_t lo, size_t hi)
{
    const LossArgs *a = ctx;
    for (size_t r = lo; r < hi; r++) {
        float *p = a->probs + r * a->V;
        for (int i = 0; i < a->V; i++)
            p[i] = (p[i] - (i == a->targets[r] ? 1.0f : 0.0f)) / a->N;
    }
}

void gpt_crossentropy_backward(float *probs, const int *targets, int N, int V)
{
    pool_for((size_t)N, ROW_BAND, crossentropy_rows, &(LossArgs){ probs, targets, N, V });
}
