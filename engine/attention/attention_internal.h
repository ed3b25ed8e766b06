/*
 * attention_internal.h - the pieces attention.c is made of that live in
 * their own files: the softmax of one row of scores (attention_softmax.c),
 * and the checks the fused path and its reference share.
 * Engine-internal.
 */
#ifndef ATTN_ATTENTION_INTERNAL_H
#define ATTN_ATTENTION_INTERNAL_H

#include <stdint.h>

#include "attention.h"

/* Softmax numerators of row[0..n-1] (n >= 1) in place: row[j] =
 * exp(row[j] - max(row)), shifted by the row's true max; returns their sum
 * (>= 1, since the max gives exp(0)). Scores so far below the max that exp
 * underflows give 0. Vectorised where the CPU allows (AVX-512, else AVX2 +
 * FMA, chosen at run time); thread-safe. */
float attn_softmax_numerators(float *row, int n);

/* The same with a chosen instruction set, for tests: each set the CPU
 * supports must give the same numerators within float rounding. */
float attn_softmax_numerators_isa(float *row, int n, AttnIsa isa);

/* The online softmax down the columns of one tile of keys: s (keys rows,
 * width columns at ld; width <= 32) holds scores times log2(e). Column c
 * has a running reference max[c] and sum[c] from the tiles before (-inf
 * and 0 before the first). max[c] is kept while the column's live maximum
 * in this tile passes it by at most ATTN_MAX_SLACK, and else becomes that
 * maximum; rescale[c] = 2^(old max - new max) (1 where it was kept: what
 * the sum and any accumulator of the tiles before must be multiplied by),
 * s's live entries 2^(s - max[c]) = e^(score - max) (at least 2^-125.5
 * where that is smaller), its dead ones 0, and sum[c] = sum[c] x
 * rescale[c] + the column's new numbers. Key p of the tile is live for
 * column c when p <= live0 + c (a causal block: live0 = the block's first
 * query minus the tile's first key, which may be negative); ATTN_ALL_LIVE:
 * every key. Column c must have a live key in this tile or a finite max
 * before it. */
#define ATTN_ALL_LIVE (1 << 29)

/* How far (in units of log2) a column's scores may pass its reference max
 * before the max moves: its numbers are then at most 2^8, and a sum of
 * them could not overflow a float below 2^119 keys, while the
 * accumulator's rescale (64 x 32 multiplications a panel) is skipped
 * after all but the rare tile that raises a column's max that far
 * (FlashAttention-4's conditional rescaling). The result is the same:
 * the max cancels in numerator over sum. */
#define ATTN_MAX_SLACK 8.0f

/* Keys per tile of attn's kernels' online softmax (attention.c): a
 * multiple of every micro-kernel's rows (12, 8, 6, 4), so a tile starts on
 * a packed tile of K. Measured at n = 2048, 8192 and 32768 (Zen 4, one
 * panel of queries a block): tiles of 192, 384 and 768 keys within 3% of
 * each other at 2048 and 8192; 384 the best of them at 2048. Lesson 10
 * names it (a test holds it to this number). */
#define ATTN_KEY_TILE 384
void attn_softmax_columns_isa(float *s, int keys, int ld, int width, int live0, float *max, float *sum,
                              float *rescale, AttnIsa isa);
/* An accumulator of the tiles before, rows of KG_NR columns at ld KG_NR,
 * each of its first width columns times rescale[c]: nothing to do (and
 * nothing done) when every rescale is 1, as after most tiles. */
void attn_rescale_columns_isa(float *acc, int rows, int width, const float *rescale, AttnIsa isa);

/* attn's own products (attention_gemm.c): B packed once into panels of
 * KG_NR columns, then c (m, n) at ldc = alpha a (m, k) at lda @ B + beta c
 * (beta 0: c is not read), B's first k rows and n columns of a packing of
 * depth pk (>= k). kg_pack_b takes B (k, n) at ldb, or with trans its
 * transpose: b is then (n, k) at ldb (K for the scores' K^T). */
#define KG_NR 32
size_t kg_packed_floats(int k, int n);
void kg_pack_b(float *dst, const float *b, int ldb, int k, int n, int trans);
void kg_gemm(AttnIsa isa, int m, int n, int k, float alpha, const float *a, int lda, const float *pb, int pk,
             float beta, float *c, int ldc);
/* dst (cols, rows) at ldd = src (rows, cols) at lds transposed, row j
 * of dst times scale[j] (scale NULL: as it is); by 16 x 16 blocks in
 * registers where the CPU has AVX-512. */
void kg_transpose(float *dst, int ldd, const float *src, int lds, int rows, int cols, const float *scale);

/* A packed too, once, for products that reuse it: tiles of as many rows
 * as the kernel of isa that suits `rows` takes (zeros past the last),
 * each of depth k; with trans, a is A^T given as (k, rows) at lda.
 * kg_gemm_packed multiplies the first m rows and k columns of such a
 * packing of pa_rows rows and depth pka. */
int kg_rows(AttnIsa isa);
size_t kg_packed_a_floats(AttnIsa isa, int rows, int k);
/* Where row0 (a multiple of the packing's tile rows: of kg_rows, or 24)
 * and depth p0 of a packing of rows x depth pk begin, in floats. */
size_t kg_packed_a_at(AttnIsa isa, int rows, int pk, int row0, int p0);
void kg_pack_a(AttnIsa isa, float *dst, const float *a, int lda, int rows, int k, int trans);
void kg_gemm_packed(AttnIsa isa, int m, int n, int k, float alpha, const float *pa, int pa_rows, int pka,
                    const float *pb, int pkb, float beta, float *c, int ldc);
/* Rows [row0, row0 + rows) of A into a packing of pa_rows rows (dst its
 * start; row0 a multiple of 24), so that items of rows on several
 * workers make one packing together. */
void kg_pack_a_part(AttnIsa isa, float *dst, const float *a, int lda, int pa_rows, int row0, int rows, int k);
/* c = alpha A @ B + beta c, A packed as kg_gemm_packed takes it and B as
 * it is, (k, n) at ldb, n a multiple of KG_NR: a tile of A at a time
 * against each of B's panels, so A is read once a pass, B's few panels
 * stay in L2, and nothing is packed again for each block of B's columns.
 * B is never copied (a model's weights: at n = 128 a copy at every call
 * cost a third of a pass). */
void kg_gemm_packed_raw(AttnIsa isa, int m, int n, int k, float alpha, const float *pa, int pa_rows, int pka,
                        const float *b, int ldb, float beta, float *c, int ldc);

/* attn's BF16 product (attention_bf16.c): A in float32 rounded to BF16
 * as it is packed, B in BF16 where the caller keeps it, float32 sums.
 * (The conversions are attention_linear.h's.) A is packed once into tiles of BF_MR rows of
 * depth pairs, one 32-bit word a pair (the even depth in the low half):
 * attn_bf16_packed_a_words(m, k) words. attn_bf16_gemm_panels then makes
 * columns [c0, n) of c (m, n) at ldc = A @ B + beta c, B (k, n) at ldb, or
 * with trans B^T given as (n, k) at ldb (torch's nn.Linear), packing a few
 * panels of KG_NR columns at a time into `panel` (attn_bf16_panel_words()
 * words, the caller's) as it goes. isa: ATTN_ISA_AVX512 for vdpbf16ps (only where
 * attention_bf16_supported), anything else the portable reference. */
#define BF_MR 12
size_t attn_bf16_packed_a_words(int m, int k);
size_t attn_bf16_panel_words(void);
void attn_bf16_pack_a(AttnIsa isa, uint32_t *dst, const float *a, int lda, int rows, int k);
/* B's depth pairs [p0, p0 + kp) of columns [c0, c0 + w) (w <= KG_NR) as a
 * panel of kp x KG_NR words, zeros past w and past depth k. */
void attn_bf16_pack_b(uint32_t *dst, const uint16_t *b, int ldb, int trans, int p0, int kp, int k, int c0, int w);
void attn_bf16_gemm_panels(AttnIsa isa, int m, int k, const uint32_t *pa, const uint16_t *b, int ldb, int trans,
                           int c0, int n, float beta, float *c, int ldc, uint32_t *panel);

/* Query rows per block on attn's kernels: PANELS panels of KG_NR, which
 * share each tile of K and V while it is in L2 (one panel a block read
 * every key from memory once per 32 queries: 65-73% of the peak at n =
 * 32768, where a head's K and V are 16 MB; four panels 81-82%, eight
 * 84-86%, smaller n the same within the noise). */
#define PANELS 8

/* Query rows per block on attn's kernels for n queries of `heads` heads
 * on `threads` workers: PANELS panels of KG_NR, halved (down to two
 * panels) while that leaves a worker fewer than 32 (head, block) items,
 * so the last item's tail is a small share of the core. At n = 512, d =
 * 512, 8 heads on 2 threads (Zen 4), blocks of 64 read 79-82% of the FMA
 * peak plain and 74-78% causal, blocks of 256 77-78% and 70-74%; from n =
 * 1024 on the two were within the noise. */
int attn_core_block(int n, int heads, int threads);

/* attn's kernels take the scores in units of log2: the column softmax's
 * 2^(s - max) is then e^(score - max), for a cheaper range reduction. */
#define LOG2_E 1.44269504088896341f

/* The keys a worker's tile of scores holds: ATTN_KEY_TILE, or all n if
 * fewer. */
int attn_key_tile(int n);

/* One pass, split into phases of work items (attention.c for the whole
 * layer, attention_core.c for the core alone), and what they share. */
typedef struct AttnJob AttnJob;
typedef void (*AttnItemFn)(AttnJob *job, int item, int worker);

struct AttnJob {
    /* the problem */
    float *out;             /* (n, d)                                      */
    const float *x;         /* (n, d)                                      */
    const AttnWeights *w;
    int n, d, heads, dk, causal, block, nblocks, rows_per_item;
    int proj_bands;         /* projections by blocks of columns: bands of rows a block is split into */
    int split_products;     /* ATTN_PAR_BLAS: items on the caller, products on the pool */
    float scale;            /* 1 / sqrt(dk)                                */
    /* the core's operands: Q (n, heads x dk) at ldq, K and V (n, kv_heads
     * x dk) at ldk and ldv (query head h reads key/value head h / (heads /
     * kv_heads)); its output, the heads side by side, at ldcat */
    const float *q, *k, *v;
    int ldq, ldk, ldv, kv_heads, ldcat;
    float *lse;             /* (heads, n): each query's log-sum-exp, or NULL */
    /* workspace */
    float *qkv;             /* (n, 3d): Q | K | V (the whole layer)        */
    float *cat;             /* (n, d) at ldcat: the heads side by side     */
    float *scores;          /* (threads, block, n); attn's kernels: (threads, key_tile, KG_NR) */
    float *inv_sum;         /* (threads, block); attn's kernels: (threads, PANELS, 3, KG_NR) */
    /* attn's own kernels: which, where; their packed operands */
    AttnIsa isa;
    int own_core, own_proj;
    float *wpack;           /* Wq | Wk | Wv | Wo, each packed (d, d), where d % KG_NR != 0; else NULL */
    float *xpack;           /* the weights in place: x, then cat, packed as tiles of rows (n, d) */
    const float *pack_src;  /* which of the two the packing phase takes */
    float *kpack, *vpack;   /* per key/value head: K packed as tiles of keys
                               (n, dk), V^T as tiles of its columns (dk, n) */
    float *qo;              /* per worker and panel: Q^T and O^T (dk, KG_NR) */
    size_t wpack_floats, kpack_floats, vpack_floats, qo_floats; /* one of each */
    /* the phase being run, and who is told of each (the workspace's) */
    AttnItemFn fn;
    AttnPhaseFn observe;
    void *observe_ctx;
};

/* The workspace (attention.h): one allocation, carved by the caller. */
struct AttnWorkspace {
    float *buf;             /* one allocation, carved by its user (attention.c: parts_of) */
    size_t bytes;
    AttnPhaseFn observe;    /* told of each phase of a pass on it, or NULL */
    void *observe_ctx;
};

/* Below this many flops, waking the pool costs more than it saves: one
 * worker (attention.c's layer, attention_core alike). */
#define ATTN_SMALL_FLOPS 4e6

/* floats rounded up to a cache line (16 floats), so a part of a workspace
 * after it starts on one. */
size_t attn_line_up(size_t floats);

/* The core's scratch on attn's kernels for n tokens, heads of dk,
 * kv_heads key/value heads and `threads` workers, in floats, each part
 * lined up (attention_core.c; attention.c's workspace holds the same
 * parts): each worker's tile of scores and its panels' running max, sum
 * and rescale, each key/value head's packed K and V^T, each worker's
 * panels' Q^T and O^T. attn_core_sizes sets a job's sizes of one of each
 * packing (from its isa, n and dk). */
enum { ATTN_CORE_SCORES, ATTN_CORE_SUMS, ATTN_CORE_KPACK, ATTN_CORE_VPACK, ATTN_CORE_QO, ATTN_CORE_PARTS };
void attn_core_parts(AttnIsa isa, int n, int dk, int kv_heads, int threads, size_t part[ATTN_CORE_PARTS]);
void attn_core_sizes(AttnJob *job);

/* ws's buffer, grown to at least bytes (kept as it was, and NULL, when
 * the memory cannot be had). */
float *attn_workspace_take(AttnWorkspace *ws, size_t bytes);

/* Run one phase on `threads` workers of the pool (1: on the caller only);
 * under split_products on the caller, each product split over the pool.
 * job->observe, when set, is told as it begins and ends. */
void attn_run_phase(AttnJob *job, AttnPhase phase, AttnItemFn fn, int items, int threads);
/* The same in two steps timed as one phase: all of first's items, then
 * all of fn's (a projection's input packed, then its products). */
void attn_run_phase_after(AttnJob *job, AttnPhase phase, AttnItemFn first, int first_items, AttnItemFn fn, int items,
                          int threads);
/* The core's phases: a key/value head's K and V^T packed (attn's
 * kernels), then one (head, block of queries) item (attention_core.c). */
void attn_pack_head(AttnJob *job, int g, int worker);
void attn_attend(AttnJob *job, int item, int worker);

/* ATTN_E_ARG and a message when cfg or w cannot be computed (n, d or heads
 * below 1, d not a multiple of heads, a weight matrix missing). */
attn_status attention_check(const AttnConfig *cfg, const AttnWeights *w, AttnError *err);

#endif
