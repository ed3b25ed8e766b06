/*
 * model_ops.c - the arithmetic a layer of either family is made of, shared
 * by model_gpt2.c, model_llama.c, the cache's step (model_decode.c) and
 * training's pass: LayerNorm and RMSNorm over bands of rows on attn's pool,
 * the final norm and logits, GELU, every product through attention_linear
 * (model_product, model_affine), an embedding row as it is stored, and the
 * row softmaxes (with the loss, and causal with a window).
 */
#include "model_internal.h"     /* the layer parts' declarations; the Model's types and the one
                                   GELU are model_types.h's: nothing of model.c is used here */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attention.h"
#include "pool.h"
#include "vexp.h"

/* A LayerNorm's operands, a band of rows an item of attn's pool (each row
 * on its own: the same numbers on any thread). */
typedef struct {
    float *out, *mean, *rstd;
    const float *x, *g, *b;
    int d;
    double eps;
} NormArgs;

#define ROW_BAND 64

static void norm_rows(void *ctx, size_t lo, size_t hi)
{
    const NormArgs *a = ctx;
    int d = a->d;
    for (size_t i = lo; i < hi; i++) {
        const float *r = a->x + i * d;
        double mean = 0, var = 0;
        for (int j = 0; j < d; j++)
            mean += r[j];
        mean /= d;
        for (int j = 0; j < d; j++)
            var += (r[j] - mean) * (r[j] - mean);
        double inv = 1.0 / sqrt(var / d + a->eps);
        float *o = a->out + i * d;
        for (int j = 0; j < d; j++)
            o[j] = (float)((r[j] - mean) * inv * a->g[j] + a->b[j]);
        if (a->mean) {
            a->mean[i] = (float)mean;
            a->rstd[i] = (float)inv;
        }
    }
}

void model_layer_norm(float *out, float *mean, float *rstd, const float *x, const float *g, const float *b, int n,
                      int d, double eps)
{
    pool_for((size_t)n, ROW_BAND, norm_rows, &(NormArgs){ out, mean, rstd, x, g, b, d, eps });
}

/* An RMSNorm's operands, a band of rows an item of attn's pool (each row
 * on its own: the same numbers on any thread). */
typedef struct {
    float *out;
    const float *x, *g;
    int d;
    double eps;
} RmsArgs;

static void rms_rows(void *ctx, size_t lo, size_t hi)
{
    const RmsArgs *a = ctx;
    int d = a->d;
    for (size_t i = lo; i < hi; i++) {
        const float *r = a->x + i * d;
        double ss = 0;
        for (int j = 0; j < d; j++)
            ss += (double)r[j] * r[j];
        double inv = 1.0 / sqrt(ss / d + a->eps);
        for (int j = 0; j < d; j++)
            a->out[i * d + j] = (float)(r[j] * inv) * a->g[j];
    }
}

void model_rms_norm(float *out, const float *x, const float *g, int n, int d, double eps)
{
    pool_for((size_t)n, ROW_BAND, rms_rows, &(RmsArgs){ out, x, g, d, eps });
}

void model_final_norm(const Model *m, const float *x, int rows, float *out)
{
    const ModelConfig *c = &m->cfg;
    if (m->norm_b)
        model_layer_norm(out, NULL, NULL, x, m->norm_g, m->norm_b, rows, c->d_model, c->ln_eps);
    else
        model_rms_norm(out, x, m->norm_g, rows, c->d_model, c->ln_eps);
}

attn_status model_final(const Model *m, const float *x, int rows, float *out, float *logits, AttnWorkspace *ws,
                        AttnError *err)
{
    model_final_norm(m, x, rows, out);
    return model_product(ws, out + (size_t)(rows - 1) * m->cfg.d_model, 1, &m->out, NULL, logits, 0, err);
}

typedef struct {
    float *out, *th;
    const float *x;
} GeluArgs;

#if defined(__x86_64__) && defined(__GNUC__)
/* Sixteen at a time, model_gelu_tanh's arithmetic with the one vector
 * exponential: GPT-2's 12 layers of 1024 x 3072 took 259 ms a pass on
 * expf one number at a time (Zen 4, two threads), a fifth of the pass. */
__attribute__((target("avx512f"))) static size_t gelu16(const GeluArgs *a, size_t lo, size_t hi)
{
    const __m512 c = _mm512_set1_ps(2.0f * 0.7978845608028654f), cube = _mm512_set1_ps(0.044715f);
    const __m512 one = _mm512_set1_ps(1.0f), two = _mm512_set1_ps(2.0f), half = _mm512_set1_ps(0.5f);
    size_t i = lo;
    for (; i + 16 <= hi; i += 16) {
        __m512 x = _mm512_loadu_ps(a->x + i);
        __m512 u2 = _mm512_mul_ps(c, _mm512_fmadd_ps(_mm512_mul_ps(cube, x), _mm512_mul_ps(x, x), x));
        __m512 t = _mm512_sub_ps(one, _mm512_div_ps(two, _mm512_add_ps(vexp16(u2), one)));
        if (a->th)
            _mm512_storeu_ps(a->th + i, t);
        _mm512_storeu_ps(a->out + i, _mm512_mul_ps(_mm512_mul_ps(half, x), _mm512_add_ps(one, t)));
    }
    return i;
}
#endif

static void gelu_band(void *ctx, size_t lo, size_t hi)
{
    const GeluArgs *a = ctx;
#if defined(__x86_64__) && defined(__GNUC__)
    if (attention_isa() == ATTN_ISA_AVX512)
        lo = gelu16(a, lo, hi);     /* the tail below one vector as it was */
#endif
    for (size_t i = lo; i < hi; i++) {
        float x = a->x[i], t = model_gelu_tanh(x);
        if (a->th)
            a->th[i] = t;
        a->out[i] = 0.5f * x * (1.0f + t);
    }
}

void model_gelu(float *out, float *th, const float *x, size_t n)
{
    pool_for(n, 1 << 14, gelu_band, &(GeluArgs){ out, th, x });
}

attn_status model_product(AttnWorkspace *ws, const float *x, int n, const AttnLinear *w, const float *bias, float *y,
                          int accumulate, AttnError *err)
{
    return (accumulate ? attention_linear_add : attention_linear)(ws, y, w->out, x, w->in, n, w, bias, err);
}

AttnLinear model_linear_f32(const float *w, int rows, int cols, int out_major)
{
    return (AttnLinear){ .data = w, .dtype = ATTN_DTYPE_F32, .in = out_major ? cols : rows,
                         .out = out_major ? rows : cols, .ld = cols, .out_major = out_major };
}

attn_status model_affine(AttnWorkspace *ws, const float *x, int n, int inner, const float *w, const float *bias,
                         int cols, float *y, int accumulate, AttnError *err)
{
    AttnLinear conv1d = model_linear_f32(w, inner, cols, 0);
    return model_product(ws, x, n, &conv1d, bias, y, accumulate, err);
}

void model_embed_row(const AttnLinear *t, int id, float *dst)
{
    if (t->dtype == ATTN_DTYPE_F32) {
        memcpy(dst, (const float *)t->data + (size_t)id * t->ld, (size_t)t->in * sizeof *dst);
        return;
    }
    const uint16_t *row = (const uint16_t *)t->data + (size_t)id * t->ld;
    for (int j = 0; j < t->in; j++)
        dst[j] = attention_f32_of_bf16(row[j]);
}

typedef struct {
    float *z;
    int v;
} SoftmaxArgs;

static void softmax_band(void *ctx, size_t lo, size_t hi)
{
    const SoftmaxArgs *a = ctx;
    for (size_t r = lo; r < hi; r++) {
        float *z = a->z + r * a->v, mx = z[0];
        for (int i = 1; i < a->v; i++)
            mx = z[i] > mx ? z[i] : mx;
        double sum = 0;
        for (int i = 0; i < a->v; i++)
            sum += exp((double)z[i] - mx);
        for (int i = 0; i < a->v; i++)
            z[i] = (float)(exp((double)z[i] - mx) / sum);
    }
}

void model_softmax_rows(float *z, int n, int v, const int *targets, double *loss)
{
    pool_for((size_t)n, ROW_BAND, softmax_band, &(SoftmaxArgs){ z, v });
    if (!targets || !loss)
        return;
    double sum = 0;     /* in order, on one thread: the same on any number of them */
    for (int r = 0; r < n; r++)
        sum -= log(fmax((double)z[(size_t)r * v + targets[r]], 1e-30));
    *loss = sum / n;
}

void model_causal_softmax_at(float *a, int rows, int cols, int past, int window)
{
    for (int r = 0; r < rows; r++) {
        float *row = a + (size_t)r * cols;
        int i = past + r, from = window > 0 && i - window + 1 > 0 ? i - window + 1 : 0;
        float mx = row[from];
        for (int j = from + 1; j <= i; j++)
            mx = fmaxf(mx, row[j]);
        double sum = 0;
        for (int j = from; j <= i; j++)
            sum += (row[j] = expf(row[j] - mx));
        for (int j = 0; j < cols; j++)
            row[j] = j < from || j > i ? 0 : (float)(row[j] / sum);
    }
}
