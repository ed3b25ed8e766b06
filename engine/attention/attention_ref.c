/*
 * attention_ref.c - multi-head self-attention as the textbook writes it, in
 * plain loops and double precision, with each head's n x n weights held
 * whole: the reference the fused path (attention.c) is tested against.
 */
#include "attention.h"

#include <math.h>
#include <stdlib.h>

#include "alloc.h"
#include "attention_internal.h"

/* y (n, d) = x (n, d) @ W (d, d) + b, as doubles. */
static void linear(double *y, const double *x, const float *w, const float *b, int n, int d)
{
    for (int i = 0; i < n; i++)
        for (int c = 0; c < d; c++) {
            double sum = b ? b[c] : 0.0;
            for (int k = 0; k < d; k++)
                sum += x[(size_t)i * d + k] * w[(size_t)k * d + c];
            y[(size_t)i * d + c] = sum;
        }
}

/* cat[:, h*dk:(h+1)*dk] = softmax(q_h k_h^T / sqrt(dk) [+ mask]) v_h, with
 * p (n, n) as the weights. */
static void head(double *cat, double *p, const double *q, const double *k, const double *v, int n, int d,
                 int dk, int h, int causal)
{
    for (int i = 0; i < n; i++) {
        int live = causal ? i + 1 : n;
        double max = -INFINITY, sum = 0.0;
        for (int j = 0; j < live; j++) {
            double s = 0.0;
            for (int c = h * dk; c < (h + 1) * dk; c++)
                s += q[(size_t)i * d + c] * k[(size_t)j * d + c];
            p[(size_t)i * n + j] = s / sqrt((double)dk);
            if (p[(size_t)i * n + j] > max)
                max = p[(size_t)i * n + j];
        }
        for (int j = 0; j < n; j++) {
            p[(size_t)i * n + j] = j < live ? exp(p[(size_t)i * n + j] - max) : 0.0;
            sum += p[(size_t)i * n + j];
        }
        for (int j = 0; j < n; j++)
            p[(size_t)i * n + j] /= sum;
    }
    for (int i = 0; i < n; i++)
        for (int c = h * dk; c < (h + 1) * dk; c++) {
            double sum = 0.0;
            for (int j = 0; j < n; j++)
                sum += p[(size_t)i * n + j] * v[(size_t)j * d + c];
            cat[(size_t)i * d + c] = sum;
        }
}

attn_status attention_ref(float *out, const float *x, const AttnWeights *w, const AttnConfig *cfg,
                          AttnError *err)
{
    attn_status st = attention_check(cfg, w, err);
    if (st != ATTN_OK)
        return st;
    int n = cfg->n, d = cfg->d, dk = d / cfg->heads;
    size_t nd = (size_t)n * d;
    double *buf = attn_malloc((5 * nd + (size_t)n * n) * sizeof *buf);
    if (!buf)
        return attn_fail(err, ATTN_E_NOMEM, "attention_ref: no memory for n=%d d=%d", n, d);
    double *xd = buf, *q = buf + nd, *k = q + nd, *v = k + nd, *cat = v + nd, *p = cat + nd;
    for (size_t i = 0; i < nd; i++)
        xd[i] = x[i];
    linear(q, xd, w->wq, w->bq, n, d);
    linear(k, xd, w->wk, w->bk, n, d);
    linear(v, xd, w->wv, w->bv, n, d);
    for (int h = 0; h < cfg->heads; h++)
        head(cat, p, q, k, v, n, d, dk, h, cfg->causal);
    linear(xd, cat, w->wo, w->bo, n, d);
    for (size_t i = 0; i < nd; i++)
        out[i] = (float)xd[i];
    free(buf);
    attn_error_clear(err);
    return ATTN_OK;
}
