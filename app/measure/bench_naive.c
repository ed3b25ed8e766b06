/*
 * bench_naive.c - the naive multi-head attention of bench_naive.h: per head
 * S = Q_h @ K_h^T, S * (1 / sqrt(dk)), + causal mask, softmax_rows,
 * @ V_h, then hcat and the output projection, each an operation of ops.h
 * that allocates its result. Each result keeps its operands alive through
 * its provenance, which this path does not need: once a step is computed,
 * its provenance is dropped so only one head's n x n matrices live at once
 * (as a lesson would, had it forgotten how each cell was made).
 */
#include "bench_naive.h"

#include <math.h>
#include <stdlib.h>

#include "alloc.h"
#include "mat.h"
#include "ops.h"

struct BenchNaive {
    AttnConfig cfg;
    Mat *x, *w[4], *b[4];   /* q k v o */
    Mat *scale;             /* 1x1: 1 / sqrt(dk) */
};

void bench_naive_free(BenchNaive *nv)
{
    if (!nv)
        return;
    mat_free(nv->x);
    mat_free(nv->scale);
    for (int i = 0; i < 4; i++) {
        mat_free(nv->w[i]);
        mat_free(nv->b[i]);
    }
    free(nv);
}

BenchNaive *bench_naive_new(const float *x, const AttnWeights *w, const AttnConfig *cfg, AttnError *err)
{
    BenchNaive *nv = attn_calloc(1, sizeof *nv);
    if (!nv) {
        attn_fail(err, ATTN_E_NOMEM, "no memory for the naive path");
        return NULL;
    }
    nv->cfg = *cfg;
    int d = cfg->d;
    float scale = 1.0f / sqrtf((float)(d / cfg->heads));
    const float *ws[4] = { w->wq, w->wk, w->wv, w->wo }, *bs[4] = { w->bq, w->bk, w->bv, w->bo };
    int ok = (nv->x = mat_from(cfg->n, d, x, err)) && (nv->scale = mat_from(1, 1, &scale, err));
    for (int i = 0; ok && i < 4; i++) {
        ok = (nv->w[i] = mat_from(d, d, ws[i], err)) != NULL;
        /* a missing bias is a row of zeros */
        ok = ok && (nv->b[i] = bs[i] ? mat_from(1, d, bs[i], err) : mat_new(1, d, err)) != NULL;
    }
    if (!ok) {
        bench_naive_free(nv);
        return NULL;
    }
    return nv;
}

/* *m = *result, the result of the operation that returned st, with its
 * provenance dropped so its operands can go; frees what *m held. (result is
 * read here, after the operation has run.) 0 when the operation failed. */
static int step(Mat **m, attn_status st, Mat **result)
{
    mat_free(*m);
    *m = NULL;
    if (st != ATTN_OK)
        return 0;
    mat_set_prov(*result, OP_INPUT, NULL, NULL);
    *m = *result;
    *result = NULL;
    return 1;
}

/* One projection: *out = a @ w + b. */
static int linear(Mat **out, const Mat *a, const Mat *w, const Mat *b, AttnError *err)
{
    Mat *t = NULL, *r = NULL;
    int ok = step(&t, op_matmul(&r, a, 0, w, 0, err), &r) && step(out, op_add(&r, t, b, err), &r);
    mat_free(t);
    return ok;
}

/* *o = softmax(q_h @ k_h^T * scale + mask) @ v_h for head h. */
static int head(Mat **o, BenchNaive *nv, const Mat *q, const Mat *k, const Mat *v, const Mat *mask, int h,
                AttnError *err)
{
    int dk = nv->cfg.d / nv->cfg.heads;
    Mat *qh = NULL, *kh = NULL, *vh = NULL, *kt = NULL, *s = NULL, *r = NULL;
    int ok = op_cols(&qh, q, h * dk, (h + 1) * dk, err) == ATTN_OK &&
             op_cols(&kh, k, h * dk, (h + 1) * dk, err) == ATTN_OK &&
             op_cols(&vh, v, h * dk, (h + 1) * dk, err) == ATTN_OK &&
             step(&kt, op_transpose(&r, kh, err), &r) &&
             step(&s, op_matmul(&r, qh, 0, kt, 0, err), &r) &&
             step(&s, op_mul(&r, s, nv->scale, err), &r) &&
             (!mask || step(&s, op_add(&r, s, mask, err), &r)) &&
             step(&s, op_softmax_rows(&r, s, err), &r) &&
             step(o, op_matmul(&r, s, 0, vh, 0, err), &r);
    mat_free(qh);
    mat_free(kh);
    mat_free(vh);
    mat_free(kt);
    mat_free(s);
    return ok;
}

attn_status bench_naive_run(BenchNaive *nv, float *out, AttnError *err)
{
    const AttnConfig *cfg = &nv->cfg;
    Mat *q = NULL, *k = NULL, *v = NULL, *mask = NULL, *cat = NULL, *y = NULL, *r = NULL;
    Mat **heads = attn_calloc((size_t)cfg->heads, sizeof *heads);
    int ok = heads && linear(&q, nv->x, nv->w[0], nv->b[0], err) && linear(&k, nv->x, nv->w[1], nv->b[1], err) &&
             linear(&v, nv->x, nv->w[2], nv->b[2], err) &&
             (!cfg->causal || step(&mask, op_causal_mask(&r, cfg->n, err), &r));
    for (int h = 0; ok && h < cfg->heads; h++)
        ok = head(&heads[h], nv, q, k, v, mask, h, err);
    ok = ok && step(&cat, op_hcat(&r, heads, cfg->heads, err), &r) && linear(&y, cat, nv->w[3], nv->b[3], err);
    if (ok)
        for (int i = 0; i < cfg->n; i++)
            for (int j = 0; j < cfg->d; j++)
                out[(size_t)i * cfg->d + j] = mat_get(y, i, j);
    for (int h = 0; heads && h < cfg->heads; h++)
        mat_free(heads[h]);
    free(heads);
    mat_free(q);
    mat_free(k);
    mat_free(v);
    mat_free(mask);
    mat_free(cat);
    mat_free(y);
    if (!heads)
        return attn_fail(err, ATTN_E_NOMEM, "no memory for the naive path");
    return ok ? ATTN_OK : err->code;
}

size_t bench_naive_bytes(const AttnConfig *cfg)
{
    size_t n = (size_t)cfg->n, d = (size_t)cfg->d;
    return ((cfg->causal ? 3 : 2) * n * n + 8 * n * d) * sizeof(float);
}

int bench_naive_fits(const AttnConfig *cfg)
{
    return (long)cfg->n * cfg->n <= MAT_MAX_ELEMS;
}
