/*
 * attention_core.c - the attention core on attn's threads: scores,
 * softmax and weighted sum for every (head, block of queries) item, on Q,
 * K and V made by the caller (attention.c's layer, or a model's layer
 * through attention_core, with grouped-query heads and rotary positions
 * already applied). On attn's kernels, FlashAttention's forward: the
 * online softmax over tiles of ATTN_KEY_TILE keys; on BLAS, a block's
 * whole row of scores and an ordinary softmax. The workspace both use
 * lives here too.
 */
#include "attention.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "attention_internal.h"
#include "blas.h"
#include "pool.h"

#define LN_2 0.69314718055994531f

int attn_key_tile(int n) { return n < ATTN_KEY_TILE ? n : ATTN_KEY_TILE; }

int attn_core_block(int n, int heads, int threads)
{
    int block = PANELS * KG_NR;
    while (block > 2 * KG_NR && (long)heads * ((n + block - 1) / block) < 32L * threads)
        block /= 2;
    return block < n ? block : n;
}

static void run_item(void *ctx, int item, int worker)
{
    AttnJob *job = ctx;
    job->fn(job, item, worker);
}

static void run_items(AttnJob *job, AttnItemFn fn, int items, int threads)
{
    job->fn = fn;
    if (job->split_products)
        for (int i = 0; i < items; i++)
            fn(job, i, 0);
    else
        pool_run(threads, run_item, job, items);
}

void attn_run_phase_after(AttnJob *job, AttnPhase phase, AttnItemFn first, int first_items, AttnItemFn fn, int items,
                          int threads)
{
    if (job->observe)
        job->observe(job->observe_ctx, phase, 0);
    if (first)
        run_items(job, first, first_items, threads);
    run_items(job, fn, items, threads);
    if (job->observe)
        job->observe(job->observe_ctx, phase, 1);
}

void attn_run_phase(AttnJob *job, AttnPhase phase, AttnItemFn fn, int items, int threads)
{
    attn_run_phase_after(job, phase, NULL, 0, fn, items, threads);
}

/* Before the core's items (attn's kernels): one key/value head's K and
 * V^T packed. */
void attn_pack_head(AttnJob *job, int g, int worker)
{
    (void)worker;
    int dk = job->dk;
    /* K_g (n, dk) as tiles of keys; V_g^T (dk, n) as tiles of columns */
    kg_pack_a(job->isa, job->kpack + g * job->kpack_floats, job->k + g * dk, job->ldk, job->n, dk, 0);
    kg_pack_a(job->isa, job->vpack + g * job->vpack_floats, job->v + g * dk, job->ldv, dk, job->n, 1);
}

/* Phase 2 on attn's kernels: one head for a block of up to PANELS panels
 * of KG_NR query rows, transposed so that nothing is packed per block but
 * the block's queries, and FlashAttention's forward over tiles of
 * ATTN_KEY_TILE keys (the online softmax). Per tile and panel: S^T (keys, KG_NR) =
 * K_tile Q_panel^T / sqrt(dk); the softmax down each column against its
 * running max and sum; the panel's accumulator O^T (dk, KG_NR) multiplied
 * column by column by 2^(old max - new max) where the max moved (rarely:
 * ATTN_MAX_SLACK); O^T += V_tile^T P^T. A tile of K and V (96 KB at dk = 64) is read from memory
 * once for the block's panels, which take it from L2; a causal panel
 * stops at its last query's key. Then each column over its sum into the
 * head's columns of cat. */
static void attend_own(AttnJob *job, int h, int r0, int r1, int worker)
{
    int dk = job->dk, n = job->n, g = h / (job->heads / job->kv_heads);
    int panels = (r1 - r0 + KG_NR - 1) / KG_NR, cols = job->causal ? r1 : n;
    size_t qo = job->qo_floats;
    float *st = job->scores + (size_t)worker * KG_NR * attn_key_tile(n);   /* (tile, KG_NR) */
    float *qo_at = job->qo + (size_t)worker * PANELS * 2 * qo;             /* per panel: Q^T, O^T (dk, KG_NR) */
    float *stats_at = job->inv_sum + (size_t)worker * PANELS * 3 * KG_NR;  /* per panel: max, sum, rescale */
    const float *kpack = job->kpack + g * job->kpack_floats, *vpack = job->vpack + g * job->vpack_floats;
    for (int p = 0; p < panels; p++) {
        int p0 = r0 + p * KG_NR, rows = r1 - p0 < KG_NR ? r1 - p0 : KG_NR;
        float *stats = stats_at + (size_t)p * 3 * KG_NR;
        for (int c = 0; c < KG_NR; c++)
            stats[c] = -INFINITY, stats[KG_NR + c] = 0.0f;
        kg_pack_b(qo_at + (size_t)p * 2 * qo, job->q + (size_t)p0 * job->ldq + h * dk, job->ldq, dk, rows, 1);
    }
    for (int t0 = 0; t0 < cols; t0 += ATTN_KEY_TILE)
        for (int p = 0; p < panels; p++) {
            int p0 = r0 + p * KG_NR, p1 = p0 + KG_NR < r1 ? p0 + KG_NR : r1, rows = p1 - p0;
            int panel_cols = job->causal ? p1 : n;
            if (t0 >= panel_cols)
                continue;
            int keys = panel_cols - t0 < ATTN_KEY_TILE ? panel_cols - t0 : ATTN_KEY_TILE;
            float *qt = qo_at + (size_t)p * 2 * qo, *ot = qt + qo;
            float *max = stats_at + (size_t)p * 3 * KG_NR, *sum = max + KG_NR, *rescale = sum + KG_NR;
            if (rows < KG_NR)   /* a short panel: its missing columns zeros, not stale numbers */
                memset(st, 0, (size_t)keys * KG_NR * sizeof *st);
            kg_gemm_packed(job->isa, keys, rows, dk, job->scale * LOG2_E,
                           kpack + kg_packed_a_at(job->isa, n, dk, t0, 0), n, dk, qt, dk, 0.0f, st, KG_NR);
            attn_softmax_columns_isa(st, keys, KG_NR, rows, job->causal ? p0 - t0 : ATTN_ALL_LIVE, max, sum,
                                     rescale, job->isa);
            if (t0 > 0)
                attn_rescale_columns_isa(ot, dk, rows, rescale, job->isa);
            kg_gemm_packed(job->isa, dk, rows, keys, 1.0f, vpack + kg_packed_a_at(job->isa, dk, n, 0, t0), dk, n, st,
                           keys, t0 > 0 ? 1.0f : 0.0f, ot, KG_NR);
        }
    for (int p = 0; p < panels; p++) {
        int p0 = r0 + p * KG_NR, rows = r1 - p0 < KG_NR ? r1 - p0 : KG_NR;
        float *max = stats_at + (size_t)p * 3 * KG_NR, *sum = max + KG_NR, *ot = qo_at + (size_t)p * 2 * qo + qo;
        if (job->lse)   /* ln of the sum of e^score: (max + log2 sum) in units of log2 */
            for (int i = 0; i < rows; i++)
                job->lse[(size_t)h * n + p0 + i] = (max[i] + log2f(sum[i])) * LN_2;
        for (int i = 0; i < rows; i++)
            sum[i] = 1.0f / sum[i];
        kg_transpose(job->cat + (size_t)p0 * job->ldcat + h * dk, job->ldcat, ot, KG_NR, dk, rows, sum);
    }
}

/* The core: one head for one block of query rows. */
void attn_attend(AttnJob *job, int item, int worker)
{
    /* causal: the largest blocks first; on attn's kernels a head's blocks
     * one after another, so its packed K and V stay in the cache */
    int h = job->own_core ? item / job->nblocks : item % job->heads;
    int b = job->nblocks - 1 - (job->own_core ? item % job->nblocks : item / job->heads);
    int r0 = b * job->block, r1 = r0 + job->block;
    if (r1 > job->n)
        r1 = job->n;
    if (job->own_core) {
        attend_own(job, h, r0, r1, worker);
        return;
    }
    int rows = r1 - r0, cols = job->causal ? r1 : job->n;
    int dk = job->dk, g = h / (job->heads / job->kv_heads);
    const float *q = job->q + (size_t)r0 * job->ldq + h * dk;   /* (rows, dk) at ldq */
    const float *k = job->k + g * dk;                           /* (cols, dk) at ldk */
    const float *v = job->v + g * dk;                           /* (cols, dk) at ldv */
    float *s = job->scores + (size_t)worker * job->block * job->n;  /* (rows, cols) */
    float *inv = job->inv_sum + (size_t)worker * job->block;
    float *o = job->cat + (size_t)r0 * job->ldcat + h * dk;     /* (rows, dk) at ldcat */

    /* s = q @ k^T / sqrt(dk) */
    blas_sgemm(0, 1, rows, cols, dk, job->scale, q, job->ldq, k, job->ldk, 0.0f, s, cols);
    for (int i = 0; i < rows; i++) {
        float *row = s + (size_t)i * cols;
        int live = job->causal ? r0 + i + 1 : cols;         /* keys 0..r0+i */
        inv[i] = 1.0f / attn_softmax_numerators(row, live);
        memset(row + live, 0, (size_t)(cols - live) * sizeof *row);
    }
    /* o = s @ v, then each row over its sum */
    blas_sgemm(0, 0, rows, dk, cols, 1.0f, s, cols, v, job->ldv, 0.0f, o, job->ldcat);
    for (int i = 0; i < rows; i++)
        for (int c = 0; c < dk; c++)
            o[(size_t)i * job->ldcat + c] *= inv[i];
}


AttnWorkspace *attention_workspace_new(void)
{
    return attn_calloc(1, sizeof(AttnWorkspace));
}

void attention_workspace_observe(AttnWorkspace *ws, AttnPhaseFn fn, void *ctx)
{
    ws->observe = fn;
    ws->observe_ctx = ctx;
}

void attention_workspace_free(AttnWorkspace *ws)
{
    if (ws)
        free(ws->buf);
    free(ws);
}

float *attn_workspace_take(AttnWorkspace *ws, size_t bytes)
{
    if (ws->bytes < bytes) {
        float *grown = attn_malloc(bytes);  /* the old one kept when refused */
        if (!grown)
            return NULL;
        free(ws->buf);
        ws->buf = grown;
        ws->bytes = bytes;
    }
    return ws->buf;
}

size_t attn_line_up(size_t floats) { return (floats + 15) & ~(size_t)15; }

void attn_core_parts(AttnIsa isa, int n, int dk, int kv_heads, int threads, size_t part[ATTN_CORE_PARTS])
{
    size_t t = (size_t)threads;
    part[ATTN_CORE_SCORES] = attn_line_up(t * KG_NR * (size_t)attn_key_tile(n));
    part[ATTN_CORE_SUMS] = attn_line_up(t * PANELS * 3 * KG_NR);
    part[ATTN_CORE_KPACK] = attn_line_up((size_t)kv_heads * kg_packed_a_floats(isa, n, dk));
    part[ATTN_CORE_VPACK] = attn_line_up((size_t)kv_heads * kg_packed_a_floats(isa, dk, n));
    part[ATTN_CORE_QO] = t * PANELS * 2 * attn_line_up((size_t)dk * KG_NR);
}

void attn_core_sizes(AttnJob *job)
{
    job->kpack_floats = kg_packed_a_floats(job->isa, job->n, job->dk);
    job->vpack_floats = kg_packed_a_floats(job->isa, job->dk, job->n);
    job->qo_floats = attn_line_up((size_t)job->dk * KG_NR);
}

attn_status attention_core(AttnWorkspace *ws, float *out, int ldo, const float *q, int ldq, const float *k, int ldk,
                           const float *v, int ldv, int n, int heads, int kv_heads, int dk, int causal, float *lse,
                           AttnError *err)
{
    if (n < 1 || heads < 1 || kv_heads < 1 || dk < 1 || heads % kv_heads != 0)
        return attn_fail(err, ATTN_E_ARG, "attention core: n=%d heads=%d kv_heads=%d dk=%d", n, heads, kv_heads, dk);
    AttnIsa isa = attention_isa();
    int threads = 4.0 * n * n * heads * dk < ATTN_SMALL_FLOPS ? 1 : pool_threads();
    AttnJob job = {
        .n = n, .d = heads * dk, .heads = heads, .dk = dk, .causal = causal, .kv_heads = kv_heads,
        .q = q, .k = k, .v = v, .ldq = ldq, .ldk = ldk, .ldv = ldv, .cat = out, .ldcat = ldo, .lse = lse,
        .isa = isa, .own_core = 1, .scale = 1.0f / sqrtf((float)dk),
    };
    job.block = attn_core_block(n, heads, threads);
    job.nblocks = (n + job.block - 1) / job.block;
    attn_core_sizes(&job);
    size_t part[ATTN_CORE_PARTS], floats = 0;
    attn_core_parts(isa, n, dk, kv_heads, threads, part);
    float **slot[ATTN_CORE_PARTS] = { &job.scores, &job.inv_sum, &job.kpack, &job.vpack, &job.qo };
    for (int i = 0; i < ATTN_CORE_PARTS; i++)
        floats += part[i];
    float *at = attn_workspace_take(ws, floats * sizeof(float));
    if (!at)
        return attn_fail(err, ATTN_E_NOMEM, "attention core: no memory for the workspace (%zu bytes)",
                         floats * sizeof(float));
    for (int i = 0; i < ATTN_CORE_PARTS; i++) {
        *slot[i] = at;
        at += part[i];
    }
    job.observe = ws->observe, job.observe_ctx = ws->observe_ctx;
    attn_run_phase(&job, ATTN_PHASE_PACK_KV, attn_pack_head, kv_heads, threads);
    attn_run_phase(&job, ATTN_PHASE_CORE, attn_attend, heads * job.nblocks, threads);
    attn_error_clear(err);
    return ATTN_OK;
}
