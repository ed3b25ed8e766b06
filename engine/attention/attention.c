/*
 * attention.c - the fused multi-head self-attention forward (attention.h):
 * the layer around the core of attention_core.c.
 *
 Phases, each a list of work items taken from an atomic counter by the
 * workers of attn's pool (the calling thread is worker 0):
 *   0. (attn's kernels, d not a multiple of KG_NR) the four weights packed
 *   1. qkv = x @ [Wq Wk Wv] + [bq bk bv] (three products side by side in
 *      qkv (n, 3d)): with the weights in place, x packed once as tiles
 *      of rows, then items of a block of columns by a band of rows;
 *      packed or on BLAS, bands of rows
 *   2. (attn's kernels) each head's K and V^T packed
 *   3. the core (attention_core.c), (head, block of query rows) items: on
 *      attn's kernels the online softmax over tiles of keys; on BLAS a
 *      block's whole row of scores by one sgemm against K^T in place,
 *      causal columns up to the block's last row, blocks taken largest
 *      first
 *   4. out = cat @ Wo + bo, items (and cat's packing) as in 1
 * Nothing is ever n x n. All the scratch is one allocation, a workspace
 * the caller may keep between calls (attention_forward_in): in a VM a
 * first touch of fresh memory costs a page fault per 4 KB, a fifth of a
 * pass at n = 2048 when measured.
 *
 * The products are attn's own kernels (attention_gemm.c) or BLAS's
 * (cfg->kernels): attn's wherever the CPU has AVX2 or AVX-512, the
 * projections reading the weights in place (packed first where d is not
 * a multiple of KG_NR). A rule, not a measurement, so every run takes the
 * same path (it used to time one band each way at the first call, and a
 * noisy millisecond chose BLAS half the time; measured on the shapes attn
 * ships, attn's kernels are as fast as single-threaded BLAS on them, see
 * README's Benchmark).
 *
 * Parallelism: the phases run on attn's pool (pool.h), BLAS on one thread
 * inside its items (ATTN_PAR_POOL); or, ATTN_PAR_BLAS, the items on the
 * caller with each product split over the pool by blas_sgemm.
 */
#include "attention.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "attention_internal.h"
#include "blas.h"
#include "pool.h"

#define MAX_THREADS 64

/* rows [lo, hi) of dst (ld) = bias (cols), or 0 when bias is NULL. */
static void fill_bias(float *dst, int ld, int lo, int hi, const float *bias, int cols)
{
    for (int i = lo; i < hi; i++) {
        float *row = dst + (size_t)i * ld;
        if (bias)
            memcpy(row, bias, (size_t)cols * sizeof *row);
        else
            memset(row, 0, (size_t)cols * sizeof *row);
    }
}

/* Phase 1 on packed weights or BLAS: one band of rows through the three
 * input projections. */
static void project_in(AttnJob *job, int item, int worker)
{
    (void)worker;
    int lo = item * job->rows_per_item, hi = lo + job->rows_per_item;
    if (hi > job->n)
        hi = job->n;
    int d = job->d, ld = 3 * d;
    const float *wt[3] = { job->w->wq, job->w->wk, job->w->wv };
    const float *bias[3] = { job->w->bq, job->w->bk, job->w->bv };
    for (int p = 0; p < 3; p++) {
        float *dst = job->qkv + p * d;
        fill_bias(dst, ld, lo, hi, bias[p], d);
        /* dst[lo:hi] (hi-lo, d) += x[lo:hi] (hi-lo, d) @ W (d, d) */
        if (job->own_proj)      /* packed: in place goes by columns (project_in_cols) */
            kg_gemm(job->isa, hi - lo, d, d, 1.0f, job->x + (size_t)lo * d, d, job->wpack + p * job->wpack_floats, d,
                    1.0f, dst + (size_t)lo * ld, ld);
        else
            blas_sgemm(0, 0, hi - lo, d, d, 1.0f, job->x + (size_t)lo * d, d, wt[p], d, 1.0f,
                       dst + (size_t)lo * ld, ld);
    }
}

/* attn's kernels reading the weights in place take the projections by
 * blocks of PROJ_COLS columns, each over every row: a block's slice of W
 * (d x 128 floats, 256 KB at d = 512) is then read from L2 by each band
 * of rows, where a band of rows through all of W read each weight matrix
 * from L3 again (measured on GPT-2's 768 x 2304 through attention_linear:
 * 58 GFLOP/s by rows, 175 by columns). */
#define PROJ_COLS (4 * KG_NR)

static int col_blocks(int d) { return (d + PROJ_COLS - 1) / PROJ_COLS; }

/* Bands of rows each block is split into, so that a phase has two items a
 * worker at the least (a width of 128 or less is one block). */
static int row_bands(const AttnJob *job, int blocks, int threads)
{
    int bands = (2 * threads + blocks - 1) / blocks;
    return bands < job->n ? bands : job->n;
}

/* Before the products by columns: rows [PACK_ROWS item, ...) of the
 * projection's input (job->pack_src) into its packing, job->xpack, which
 * every block of columns then reads (each block packed its own band of
 * the input again: at n = 2048, d = 512, the input twelve times over). */
#define PACK_ROWS 96    /* a multiple of 24, as kg_pack_a_part asks */

static int pack_items(const AttnJob *job) { return (job->n + PACK_ROWS - 1) / PACK_ROWS; }

static void pack_input(AttnJob *job, int item, int worker)
{
    (void)worker;
    int lo = item * PACK_ROWS, rows = job->n - lo < PACK_ROWS ? job->n - lo : PACK_ROWS;
    kg_pack_a_part(job->isa, job->xpack, job->pack_src, job->d, job->n, lo, rows, job->d);
}

/* Band b of bands: its first row, a multiple of 24 (a packed tile's
 * start), n for b = bands. */
static int band_start(int n, int b, int bands)
{
    return b >= bands ? n : (int)((long)n * b / bands) / 24 * 24;
}

/* Item `part` of a phase in blocks of columns: dst's columns [c0, c0 +
 * PROJ_COLS) of its band of rows (at ld) = the packed input @ W's same
 * columns + bias's. */
static void project_cols(AttnJob *job, const float *w, const float *bias, float *dst, int ld, int part)
{
    int d = job->d, bands = job->proj_bands, block = part / bands, band = part % bands;
    int c0 = block * PROJ_COLS, cols = d - c0 < PROJ_COLS ? d - c0 : PROJ_COLS;
    int lo = band_start(job->n, band, bands), hi = band_start(job->n, band + 1, bands);
    fill_bias(dst + c0, ld, lo, hi, bias ? bias + c0 : NULL, cols);
    kg_gemm_packed_raw(job->isa, hi - lo, cols, d, 1.0f, job->xpack + kg_packed_a_at(job->isa, job->n, d, lo, 0),
                       job->n, d, w + c0, d, 1.0f, dst + (size_t)lo * ld + c0, ld);
}

/* Phase 1 with the weights in place: one block of columns of Q, K or V. */
static void project_in_cols(AttnJob *job, int item, int worker)
{
    (void)worker;
    int per = col_blocks(job->d) * job->proj_bands, p = item / per;
    const float *wt[3] = { job->w->wq, job->w->wk, job->w->wv };
    const float *bias[3] = { job->w->bq, job->w->bk, job->w->bv };
    project_cols(job, wt[p], bias[p], job->qkv + p * job->d, 3 * job->d, item % per);
}

/* Phase 3 with the weights in place: one block of the output's columns. */
static void project_out_cols(AttnJob *job, int item, int worker)
{
    (void)worker;
    project_cols(job, job->w->wo, job->w->bo, job->out, job->d, item);
}

/* Before phase 1 (own projections of a width KG_NR does not divide): one
 * weight matrix packed. Otherwise the kernels read the weights in place. */
static void pack_weight(AttnJob *job, int item, int worker)
{
    (void)worker;
    const float *w[4] = { job->w->wq, job->w->wk, job->w->wv, job->w->wo };
    kg_pack_b(job->wpack + item * job->wpack_floats, w[item], job->d, job->d, job->d, 0);
}

/* Phase 3 on packed weights or BLAS: one band of rows through the output
 * projection. */
static void project_out(AttnJob *job, int item, int worker)
{
    (void)worker;
    int lo = item * job->rows_per_item, hi = lo + job->rows_per_item;
    if (hi > job->n)
        hi = job->n;
    int d = job->d;
    fill_bias(job->out, d, lo, hi, job->w->bo, d);
    if (job->own_proj)          /* packed: in place goes by columns (project_out_cols) */
        kg_gemm(job->isa, hi - lo, d, d, 1.0f, job->cat + (size_t)lo * d, d, job->wpack + 3 * job->wpack_floats, d,
                1.0f, job->out + (size_t)lo * d, d);
    else
        blas_sgemm(0, 0, hi - lo, d, d, 1.0f, job->cat + (size_t)lo * d, d, job->w->wo, d, 1.0f,
                   job->out + (size_t)lo * d, d);
}

/* Blocks of 256 query rows: on a 2-core Zen 4 with OpenBLAS 0.3.21 they
 * took 10-20% less CPU time than blocks of 64 at n = 2048 and 8192 (the
 * products repack K and V once per block), although a worker's (block, n)
 * scratch then outgrows L2. Past n = 16384 the block shrinks so the scratch
 * stays within 16 MB a worker. */
#define SCRATCH_FLOATS (4 * 1024 * 1024)
#define BLOCK_MIN 32
#define BLOCK_MAX 256

int attention_block(int n)
{
    int b = n > 0 ? SCRATCH_FLOATS / n : BLOCK_MAX;
    b -= b % 16;
    return b < BLOCK_MIN ? BLOCK_MIN : b > BLOCK_MAX ? BLOCK_MAX : b;
}

/* Does cfg run the core on attn's kernels, and at which instruction set? */
static int own_core_isa(const AttnConfig *cfg, AttnIsa *isa)
{
    if (cfg->kernels == ATTN_KERNELS_OWN) {
        *isa = cfg->isa;
        return 1;
    }
    *isa = attention_isa();
    return cfg->kernels == ATTN_KERNELS_AUTO && *isa != ATTN_ISA_SCALAR;
}

int attention_cores(void)
{
    return pool_threads();
}

/* The workers cfg asks for: threads, else the cores (1 under ATTN_PAR_BLAS,
 * and for a problem too small to share). */
static int workers(const AttnConfig *cfg)
{
    if (cfg->par == ATTN_PAR_BLAS)
        return 1;
    if (cfg->threads <= 0 && attention_flops(cfg) < ATTN_SMALL_FLOPS)
        return 1;
    int t = cfg->threads > 0 ? cfg->threads : pool_threads();
    return t > MAX_THREADS ? MAX_THREADS : t;
}

static int block_of(const AttnConfig *cfg)
{
    AttnIsa isa;
    int b;
    if (own_core_isa(cfg, &isa))    /* a block is up to PANELS panels of KG_NR */
        b = cfg->block > 0 && cfg->block < PANELS * KG_NR ? cfg->block
                                                           : attn_core_block(cfg->n, cfg->heads, workers(cfg));
    else
        b = cfg->block > 0 ? cfg->block : attention_block(cfg->n);
    return b > cfg->n ? cfg->n : b;
}

/* The workspace's parts, in floats, each rounded up to a cache line so the
 * next starts on one: qkv, cat, scores, inv_sum, and with attn's kernels
 * the packed weights (or the projections' packed input) and each head's
 * packed K^T and V. */
enum { PART_QKV, PART_CAT, PART_SCORES, PART_SUMS, PART_WPACK, PART_XPACK, PART_KPACK, PART_VPACK, PART_QO, PARTS };

static void parts_of(const AttnConfig *cfg, size_t part[PARTS])
{
    size_t n = (size_t)cfg->n, d = (size_t)cfg->d, t = (size_t)workers(cfg), b = (size_t)block_of(cfg);
    AttnIsa isa;
    int own = cfg->heads > 0 && own_core_isa(cfg, &isa);
    for (int i = 0; i < PARTS; i++)
        part[i] = 0;
    part[PART_QKV] = attn_line_up(n * 3 * d);
    part[PART_CAT] = attn_line_up(n * d);
    if (!own) {     /* BLAS: a block's whole rows of scores and their sums */
        part[PART_SCORES] = attn_line_up(t * b * n);
        part[PART_SUMS] = attn_line_up(t * b);
        return;
    }
    size_t core[ATTN_CORE_PARTS];
    attn_core_parts(isa, cfg->n, cfg->d / cfg->heads, cfg->heads, (int)t, core);
    part[PART_SCORES] = core[ATTN_CORE_SCORES];
    part[PART_SUMS] = core[ATTN_CORE_SUMS];
    part[PART_KPACK] = core[ATTN_CORE_KPACK];
    part[PART_VPACK] = core[ATTN_CORE_VPACK];
    part[PART_QO] = core[ATTN_CORE_QO];
    if (cfg->d % KG_NR != 0)
        part[PART_WPACK] = attn_line_up(4 * kg_packed_floats(cfg->d, cfg->d));
    else
        part[PART_XPACK] = attn_line_up(kg_packed_a_floats(isa, cfg->n, cfg->d));
}

void attention_paths(const AttnConfig *cfg, AttnPaths *paths)
{
    AttnIsa isa;
    int own = own_core_isa(cfg, &isa);
    const char *name = own ? attention_isa_name(isa) : "blas";
    *paths = (AttnPaths){ name, name, own && cfg->d % KG_NR == 0, own, own ? attn_key_tile(cfg->n) : 0, block_of(cfg),
                          workers(cfg) };
}

size_t attention_extra_bytes(const AttnConfig *cfg)
{
    size_t part[PARTS], floats = 0;
    parts_of(cfg, part);
    for (int i = 0; i < PARTS; i++)
        floats += part[i];
    return floats * sizeof(float);
}

double attention_flops(const AttnConfig *cfg)
{
    double n = cfg->n, d = cfg->d, scores = n * n;
    if (cfg->causal) {
        /* on attn's kernels each panel of a block stops at its own last row */
        AttnIsa isa;
        int block = !own_core_isa(cfg, &isa)                ? block_of(cfg)
                  : cfg->block > 0 && cfg->block < KG_NR ? cfg->block : KG_NR;
        scores = 0;
        for (int r0 = 0; r0 < cfg->n; r0 += block) {
            int r1 = r0 + block < cfg->n ? r0 + block : cfg->n;
            scores += (double)(r1 - r0) * r1;
        }
    }
    return 8.0 * n * d * d + 4.0 * scores * d;
}

#define ATTN_PHASE_NAME(id, name) name,
static const char *const phase_names[ATTN_PHASES] = { ATTN_PHASE_LIST(ATTN_PHASE_NAME) };

const char *attention_phase_name(AttnPhase phase)
{
    return phase >= 0 && phase < ATTN_PHASES ? phase_names[phase] : "?";
}

double attention_phase_flops(const AttnConfig *cfg, AttnPhase phase)
{
    double nd2 = (double)cfg->n * cfg->d * cfg->d;
    switch (phase) {
    case ATTN_PHASE_PROJECT_IN:
        return 6.0 * nd2;
    case ATTN_PHASE_PROJECT_OUT:
        return 2.0 * nd2;
    case ATTN_PHASE_CORE:
        return attention_flops(cfg) - 8.0 * nd2;
    default:
        return 0.0;
    }
}

void attention_matmul(float *c, const float *a, const float *b, int m, int k, int n)
{
    blas_sgemm(0, 0, m, n, k, 1.0f, a, k, b, n, 0.0f, c, n);
}

attn_status attention_check(const AttnConfig *cfg, const AttnWeights *w, AttnError *err)
{
    if (cfg->n < 1 || cfg->d < 1 || cfg->heads < 1)
        return attn_fail(err, ATTN_E_ARG, "attention needs n, d and heads >= 1 (got n=%d d=%d heads=%d)", cfg->n,
                         cfg->d, cfg->heads);
    if (cfg->d % cfg->heads != 0)
        return attn_fail(err, ATTN_E_ARG, "d=%d does not split into %d heads", cfg->d, cfg->heads);
    if (!w->wq || !w->wk || !w->wv || !w->wo)
        return attn_fail(err, ATTN_E_ARG, "attention needs the four weight matrices");
    if (cfg->kernels == ATTN_KERNELS_OWN && !attention_isa_supported(cfg->isa))
        return attn_fail(err, ATTN_E_ARG, "this CPU has no %s for attn's kernels", attention_isa_name(cfg->isa));
    return ATTN_OK;
}

attn_status attention_forward(float *out, const float *x, const AttnWeights *w, const AttnConfig *cfg,
                              AttnError *err)
{
    AttnWorkspace ws = { NULL, 0, NULL, NULL };
    attn_status st = attention_forward_in(&ws, out, x, w, cfg, err);
    free(ws.buf);
    return st;
}

attn_status attention_forward_in(AttnWorkspace *ws, float *out, const float *x, const AttnWeights *w,
                                 const AttnConfig *cfg, AttnError *err)
{
    attn_status st = attention_check(cfg, w, err);
    if (st != ATTN_OK)
        return st;
    int threads = workers(cfg);
    AttnJob job = {
        .out = out, .x = x, .w = w, .n = cfg->n, .d = cfg->d, .heads = cfg->heads,
        .dk = cfg->d / cfg->heads, .causal = cfg->causal, .block = block_of(cfg),
    };
    job.nblocks = (job.n + job.block - 1) / job.block;
    job.scale = 1.0f / sqrtf((float)job.dk);
    int bands = 2 * threads;
    job.rows_per_item = (job.n + bands - 1) / bands;
    job.own_core = own_core_isa(cfg, &job.isa);
    job.split_products = cfg->par == ATTN_PAR_BLAS;
    job.kv_heads = job.heads;
    job.ldq = job.ldk = job.ldv = 3 * job.d;
    job.ldcat = job.d;
    size_t part[PARTS], need = attention_extra_bytes(cfg);
    parts_of(cfg, part);
    if (!attn_workspace_take(ws, need)) {
        st = attn_fail(err, ATTN_E_NOMEM, "attention: no memory for the workspace (%zu bytes)", need);
    } else {
        float *at = ws->buf, **slot[PARTS] = { &job.qkv, &job.cat, &job.scores, &job.inv_sum, &job.wpack,
                                               &job.xpack, &job.kpack, &job.vpack, &job.qo };
        for (int i = 0; i < PARTS; i++) {
            *slot[i] = part[i] ? at : NULL;
            at += part[i];
        }
        job.q = job.qkv, job.k = job.qkv + job.d, job.v = job.qkv + 2 * job.d;
        if (job.own_core) {
            job.wpack_floats = kg_packed_floats(job.d, job.d);
            attn_core_sizes(&job);
        }
        int bands_used = (job.n + job.rows_per_item - 1) / job.rows_per_item;
        job.own_proj = job.own_core;
        job.observe = ws->observe, job.observe_ctx = ws->observe_ctx;
        if (job.wpack)
            attn_run_phase(&job, ATTN_PHASE_PACK_WEIGHTS, pack_weight, 4, threads);
        int by_cols = job.own_proj && !job.wpack;
        int blocks = col_blocks(job.d);
        job.proj_bands = row_bands(&job, 3 * blocks, threads);
        job.pack_src = x;
        if (by_cols)
            attn_run_phase_after(&job, ATTN_PHASE_PROJECT_IN, pack_input, pack_items(&job), project_in_cols,
                                 3 * blocks * job.proj_bands, threads);
        else
            attn_run_phase(&job, ATTN_PHASE_PROJECT_IN, project_in, bands_used, threads);
        if (job.own_core)
            attn_run_phase(&job, ATTN_PHASE_PACK_KV, attn_pack_head, job.heads, threads);
        attn_run_phase(&job, ATTN_PHASE_CORE, attn_attend, job.heads * job.nblocks, threads);
        job.proj_bands = row_bands(&job, blocks, threads);
        job.pack_src = job.cat;
        if (by_cols)
            attn_run_phase_after(&job, ATTN_PHASE_PROJECT_OUT, pack_input, pack_items(&job), project_out_cols,
                                 blocks * job.proj_bands, threads);
        else
            attn_run_phase(&job, ATTN_PHASE_PROJECT_OUT, project_out, bands_used, threads);
        attn_error_clear(err);
    }
    return st;
}
