/*
 * attention.h - multi-head self-attention on raw float buffers, for scale:
 * the path `attn bench` times, beside a plain reference of the same function.
 *
 * The lessons compute attention on Mat with provenance (ops.h) so a student
 * can ask how every cell was made; this path keeps none of that and never
 * holds the n x n matrix of a head. It works on blocks of query rows: per
 * head and block, FlashAttention's forward over tiles of keys (the online
 * softmax: a running max and sum per query, the output rescaled when the
 * max grows), causal tiles past a query never computed, the weighted sum
 * written straight into its head's columns of the concatenation.
 *
 * Buffers are row-major, contiguous, with the shape in a comment as llm.c
 * writes them. A product is x @ W (W is (in, out)); torch's nn.Linear stores
 * W^T. Nothing here prints; allocations go through alloc.h.
 */
#ifndef ATTN_ATTENTION_H
#define ATTN_ATTENTION_H

#include <stddef.h>

#include "status.h"

/* How a pass is split over attn's pool (pool.h; BLAS always runs on one
 * thread): the pool's workers over (head, block) work items, or the items
 * on the caller with each product split over the pool. */
typedef enum {
    ATTN_PAR_POOL,
    ATTN_PAR_BLAS,
} AttnParallel;

/* The instruction sets attn's kernels are written for; the CPU is asked at
 * run time, so one binary runs everywhere and uses the widest it has. */
typedef enum { ATTN_ISA_SCALAR, ATTN_ISA_AVX2, ATTN_ISA_AVX512 } AttnIsa;

/* Whose products: attn's own kernels (attention_gemm.c) or BLAS's. */
typedef enum {
    ATTN_KERNELS_AUTO,  /* attn's kernels where the CPU has AVX2 or AVX-512
                           (the widest it has), else BLAS: the same choice
                           in every run                                    */
    ATTN_KERNELS_BLAS,  /* every product by BLAS                             */
    ATTN_KERNELS_OWN,   /* every product by attn's kernels at `isa` (tests)  */
} AttnKernels;

typedef struct {
    int n;          /* tokens: the rows of X                                */
    int d;          /* model width: the columns of X, a multiple of heads   */
    int heads;      /* dk = d / heads columns per head                      */
    int causal;     /* token i attends to tokens 0..i only                  */
    int block;      /* query rows per work item; 0: attention_block(n)      */
    int threads;    /* workers; 0: one per core online                      */
    AttnParallel par;
    AttnKernels kernels;
    AttnIsa isa;    /* ATTN_KERNELS_OWN: the kernels' instruction set (one
                       attention_isa_supported says the CPU has)           */
} AttnConfig;

/* The parameters: W* (d, d), b* (d) each; a NULL bias counts as zeros. */
typedef struct {
    const float *wq, *wk, *wv, *wo;
    const float *bq, *bk, *bv, *bo;
} AttnWeights;

/* out (n, d) = MultiHead(x (n, d)):
 *   Q, K, V = x @ Wq + bq, x @ Wk + bk, x @ Wv + bv       (n, d) each
 *   head h: softmax(Q_h K_h^T / sqrt(dk) [+ causal mask]) V_h  (n, dk)
 *   out = concat(heads) @ Wo + bo
 * out must not overlap x. Extra memory is attention_extra_bytes(cfg):
 * O(n d + threads x block x n), never n x n. ATTN_E_ARG (with a message) on a
 * bad configuration, ATTN_E_NOMEM when a buffer cannot be had; out is then
 * unspecified. */
attn_status attention_forward(float *out, const float *x, const AttnWeights *w, const AttnConfig *cfg,
                              AttnError *err);

/* A workspace kept between calls: attention_forward_in grows it when a
 * call needs more and otherwise allocates nothing, so a loop of passes
 * touches fresh memory once. Owned by the caller (free: NULL is fine). */
typedef struct AttnWorkspace AttnWorkspace;
AttnWorkspace *attention_workspace_new(void);
void attention_workspace_free(AttnWorkspace *ws);
attn_status attention_forward_in(AttnWorkspace *ws, float *out, const float *x, const AttnWeights *w,
                                 const AttnConfig *cfg, AttnError *err);

/* The phases of a pass, in the order they run, each a list of work items
 * on the pool (attention_core runs the middle two): what `attn bench
 * --phases` times. One row each: the id and its name. A model's forward
 * (embeddings, each block's norm, QKV, attention, W_O, MLP, the output
 * layer) is to add its phases to this list. */
#define ATTN_PHASE_LIST(X)                                                                                      \
    X(ATTN_PHASE_PACK_WEIGHTS, "weights packed")                                                                \
    X(ATTN_PHASE_PROJECT_IN, "projections in")                                                                  \
    X(ATTN_PHASE_PACK_KV, "K and V packed")                                                                     \
    X(ATTN_PHASE_CORE, "core")                                                                                  \
    X(ATTN_PHASE_PROJECT_OUT, "projection out")
#define ATTN_PHASE_ID(id, name) id,
typedef enum { ATTN_PHASE_LIST(ATTN_PHASE_ID) ATTN_PHASES } AttnPhase;
#undef ATTN_PHASE_ID
const char *attention_phase_name(AttnPhase phase);
/* The flops a phase of a pass on cfg performs (0 for the packings): the
 * projections 6nd^2 and 2nd^2, the core attention_flops' scores. */
double attention_phase_flops(const AttnConfig *cfg, AttnPhase phase);

/* Told as each phase of a pass on ws begins (done 0) and ends (done 1),
 * on the calling thread, with nothing running between the two calls but
 * the phase: a caller's clock read there times it (the engine keeps
 * none). fn NULL: nobody is told. The workspace keeps fn and ctx. */
typedef void (*AttnPhaseFn)(void *ctx, AttnPhase phase, int done);
void attention_workspace_observe(AttnWorkspace *ws, AttnPhaseFn fn, void *ctx);

/* The core alone, for a model's layer whose Q, K and V are made already
 * (rotary positions applied): head h of out (n, heads x dk) at ldo =
 * softmax(Q_h K_g^T / sqrt(dk) [+ causal mask]) V_g, g = h / (heads /
 * kv_heads) (grouped-query attention; heads a multiple of kv_heads), Q (n,
 * heads x dk) at ldq, K and V (n, kv_heads x dk) at ldk and ldv. On attn's
 * kernels at the widest instruction set the CPU has (portable C on one
 * with neither), the online softmax over tiles of keys, on the pool; never
 * an n x n matrix. lse (heads, n), when not NULL: each query's log-sum-exp
 * of its scaled scores, so that one weight is exp(q_i . k_j / sqrt(dk) -
 * lse) without the others. ws grows as for attention_forward_in. */
attn_status attention_core(AttnWorkspace *ws, float *out, int ldo, const float *q, int ldq, const float *k, int ldk,
                           const float *v, int ldv, int n, int heads, int kv_heads, int dk, int causal, float *lse,
                           AttnError *err);

/* The same function as textbook loops in double precision, materializing
 * each head's n x n weights: the algorithmic reference for tests (only
 * cfg's n, d, heads and causal matter). Same errors. */
attn_status attention_ref(float *out, const float *x, const AttnWeights *w, const AttnConfig *cfg,
                          AttnError *err);

/* The bytes attention_forward allocates for cfg (all of its extra memory,
 * one allocation: a workspace of this size serves cfg). */
size_t attention_extra_bytes(const AttnConfig *cfg);

/* The floating-point operations attention_forward performs for cfg: 8nd^2
 * for the four projections plus 2 x 2 x dk per score it computes (all n^2
 * per head; for causal, only the columns up to each block's last row). */
double attention_flops(const AttnConfig *cfg);

/* c (m, n) = a (m, k) @ b (k, n) by BLAS, split over the pool: the
 * yardstick a benchmark compares the fused path's rate with. */
void attention_matmul(float *c, const float *a, const float *b, int m, int k, int n);

/* Which path each part of a pass on cfg takes, by a rule (the same in
 * every run and every process): for `attn bench` to print. */
typedef struct {
    const char *projections;    /* "avx512", "avx2", "scalar": attn's kernels; "blas"                  */
    const char *core;           /* the same, for the scores, softmax and weighted sum                  */
    int weights_in_place;       /* attn's kernels read the weights where they are (d a multiple of 32) */
    int online;                 /* the core is the online softmax over tiles of keys                   */
    int key_tile;               /* keys per tile (online), else 0: a block's whole row of scores       */
    int block;                  /* query rows per work item                                            */
    int threads;                /* workers of attn's pool; BLAS on one thread inside them              */
} AttnPaths;
void attention_paths(const AttnConfig *cfg, AttnPaths *paths);

/* The default number of query rows per block for n tokens (BLAS's
 * products; attn's kernels take blocks whose scores stay in L2). */
int attention_block(int n);
/* The threads a pass uses unless told otherwise: pool_threads(), the
 * cores this process may run on (its CPU affinity: one under taskset -c 0). */
int attention_cores(void);

/* Does the CPU have isa? The widest it has; a name ("avx512", "avx2",
 * "scalar"). */
int attention_isa_supported(AttnIsa isa);
AttnIsa attention_isa(void);
const char *attention_isa_name(AttnIsa isa);

#endif
