/*
 * model_internal.h - what the modules of engine/model share: the Model
 * (its config and the weights of its family, its table of tensors and
 * block), finding a weight by name and shape, the layer arithmetic of
 * model_ops.c, each family's open, layer parts and forward pass
 * (model_gpt2.c, model_llama.c) that the pass, the cache's step
 * (model_decode.c) and training share, and the interventions' hooks
 * (model_interv.c); model.c reads the config and dispatches, model_head.c
 * scores the heads.
 */
#ifndef ATTN_MODEL_INTERNAL_H
#define ATTN_MODEL_INTERNAL_H

#include "attention.h"
#include "attention_linear.h"
#include "model.h"
#include "rng.h"

typedef struct {
    const float *ln1_g, *ln1_b, *qkv_w, *qkv_b, *proj_w, *proj_b, *ln2_g, *ln2_b, *fc_w, *fc_b, *out_w, *out_b;
} Gpt2Layer;

/* A Llama layer: its norms' gains and q/k/v biases (float32, or NULL
 * where the checkpoint has none), and each product's weight described
 * once, as the checkpoint stores it: nn.Linear's (out, in), float32 or
 * BF16 (model_linear), read where it lies. */
typedef struct {
    const float *in_norm, *q_b, *k_b, *v_b, *post_norm;
    AttnLinear q, k, v, o, gate, up, down;
} LlamaLayer;

struct Model {
    ModelConfig cfg;
    const float *embed;         /* vocab x d: the tokens' embedding         */
    const float *pos;           /* GPT-2: context x d, the learned positions */
    const float *norm_g, *norm_b; /* the final norm (b NULL: RMSNorm)        */
    AttnLinear tok;             /* vocab x d as stored: the tokens' embedding
                                   a row a token (Llama: float32 or BF16;
                                   GPT-2: embed)                            */
    AttnLinear out;             /* vocab x d, (out, in): the output layer
                                   (tok when tied)                           */
    int keep_bf16;              /* BF16 weights stay BF16 (model_open_as)    */
    int n_bf16;                 /* the weights computed as BF16              */
    Gpt2Layer *gpt2;            /* layers, by family                         */
    LlamaLayer *llama;
    float **owned;              /* the weights converted from F16/BF16, or
                                   drawn (float32, or BF16 for model_random_as) */
    Rng *draw;                  /* model_random: weights drawn, not read     */
    int n_owned;
    int64_t params;
    float *block;               /* owned: every weight in the table's order  */
    size_t block_count;         /* (model_block.c), or NULL                  */
    ModelTensor *table;
    int n_table;
};

/* Each tensor of a family in its table's order, with its name (as GPT-2's
 * checkpoints write it, without "transformer."), its shape (cols 0: a
 * vector) and the Model's pointer to it: the one table a family's tensors
 * are read, laid out in a block and saved by. visit returns 0 to go on. */
typedef int (*ModelVisit)(void *ctx, const char *name, int64_t rows, int64_t cols, const float **slot);
int model_walk_gpt2(Model *m, ModelVisit visit, void *ctx);

/* out (n x d) = LayerNorm of x's rows with gain g and bias b (the sums in
 * double), each row's mean and 1/sqrt(var + eps) into mean and rstd when
 * not NULL; rows on attn's pool. The one LayerNorm. */
void model_layer_norm(float *out, float *mean, float *rstd, const float *x, const float *g, const float *b, int n,
                      int d, double eps);
/* out (n x d) = RMSNorm of x's rows with gain g: the one RMSNorm. */
void model_rms_norm(float *out, const float *x, const float *g, int n, int d, double eps);
/* out (rows x d) = the family's final norm of x's rows (LayerNorm or
 * RMSNorm), logits (vocab) = its last row against the output embedding. */
attn_status model_final(const Model *m, const float *x, int rows, float *out, float *logits, AttnWorkspace *ws,
                        AttnError *err);
/* out = GELU(x) over n numbers (out may be x), on attn's pool; each
 * model_gelu_tanh into th when not NULL (what the backward reads). */
void model_gelu(float *out, float *th, const float *x, size_t n);
/* y (n x w->out) = x (n x w->in) @ W + bias (NULL: none), or y += that
 * (accumulate): every product of a forward, on attn's kernels
 * (attention_linear) with ws's workspace. ATTN_OK, or ATTN_E_NOMEM with
 * err. */
attn_status model_product(AttnWorkspace *ws, const float *x, int n, const AttnLinear *w, const float *bias, float *y,
                          int accumulate, AttnError *err);
/* The same for GPT-2's Conv1D weights: w float32, (inner, cols) as
 * stored. */
attn_status model_affine(AttnWorkspace *ws, const float *x, int n, int inner, const float *w, const float *bias,
                         int cols, float *y, int accumulate, AttnError *err);
/* A float32 matrix of rows x cols as an AttnLinear: (in, out) = (rows,
 * cols), or out_major: (out, in). */
AttnLinear model_linear_f32(const float *w, int rows, int cols, int out_major);
/* Row id of an embedding (vocab x d as stored) into dst (d floats). */
void model_embed_row(const AttnLinear *t, int id, float *dst);
/* The weight prefix+name (or name alone) of nn.Linear's shape out x in as
 * an AttnLinear: BF16 left where it lies when m keeps BF16 (keep_bf16),
 * else float32 as model_weight reads it. 0, or -1 with err. */
int model_linear(Model *m, const SafeTensors *st, const char *prefix, const char *name, int64_t out, int64_t in,
                 AttnLinear *w, AttnError *err);
/* Each row of z (n x v) made its softmax in place; with targets, the
 * mean of -log p[target] into *loss (rows on the pool, the sum in order). */
void model_softmax_rows(float *z, int n, int v, const int *targets, double *loss);

/* The tensor prefix+name (or name alone) of shape rows x cols (cols 0: a
 * vector of rows), as float32: read where it lies or converted into a
 * buffer m owns; counted in m->params. NULL with err (missing, named; of
 * another shape, both named), or NULL without an error when optional and
 * absent. */
const float *model_weight(Model *m, const SafeTensors *st, const char *prefix, const char *name, int64_t rows,
                          int64_t cols, int optional, AttnError *err);

/* A (n x n) = head's causal softmax of its queries against its keys,
 * scaled by 1/sqrt(head_dim): Q's rows ldq apart (the head's numbers at
 * head x head_dim), K's ldk apart (its key/value head's). The one
 * arithmetic of a head's weights, for the pass and for model_attention. */
void model_head_softmax(const ModelConfig *c, const float *Q, int ldq, const float *K, int ldk, int n, int head,
                        float *A);
/* The same for rows queries at positions past .. past + rows - 1 against
 * the past + rows keys before them (K's first rows the earlier tokens'):
 * A (rows x (past + rows)), what a step over a key/value cache computes. */
void model_head_softmax_at(const ModelConfig *c, const float *Q, int ldq, const float *K, int ldk, int rows, int past,
                           int head, float *A);
/* A layer's attention, every head (model_head.c): out (n, heads x
 * head_dim) at ldo from Q at ldq, K and V at ldk and ldv (rotary positions
 * applied), and what each head does into scores[0 .. heads - 1] (the share
 * on the token before, the first, itself: HeadScores' previous, first,
 * self). On attn's fused kernels (attention_core: the online softmax, no
 * n x n matrix), each weight measured from the query's log-sum-exp; a
 * sliding window shorter than n takes model_head_softmax head by head.
 * scores NULL: nothing measured; lse (heads, n), when not NULL, receives
 * each query's log-sum-exp (what a backward recomputes the weights from).
 * Its buffers live in *s between layers (zeroed before the first; freed by
 * model_layer_scratch_free). */
typedef struct {
    AttnWorkspace *ws;
    float *lse;                 /* (heads, n)                                  */
    float *A;                   /* (n, n): the windowed path only              */
} LayerScratch;
attn_status model_layer_attention(const ModelConfig *c, const float *Q, int ldq, const float *K, int ldk,
                                  const float *V, int ldv, int n, float *out, int ldo, HeadScores *scores,
                                  float *lse, LayerScratch *s, AttnError *err);
void model_layer_scratch_free(LayerScratch *s);
/* Layer l's queries and keys kept in run (when it keeps them): rows of Q
 * ldq apart, of K ldk apart. */
void model_keep_qk(const ModelConfig *c, ModelRun *run, int l, const float *Q, int ldq, const float *K, int ldk);

/* Rows of a (rows x cols), queries at positions past, past + 1, ...: row
 * i's softmax over the scores of keys max(0, past + i - window + 1) ..
 * past + i (window 0: from 0), zeros elsewhere. */
void model_causal_softmax_at(float *a, int rows, int cols, int past, int window);

/* GPT-2's pass in its parts (model_gpt2.c), for the pass and for a step
 * over a key/value cache (model_decode.c): x (N x d) = the tokens'
 * embeddings and their positions' (pos0 + i % T: sequences of T tokens
 * from position pos0); a layer's first half over x's N rows (its first
 * LayerNorm into s->ln1, the queries, keys and values into s->qkv, N x 3d)
 * and its second (the heads' outputs s->atty projected and added to x into
 * s->res2, the MLP's added into s->res3; either may be x). */
void model_gpt2_embed(const Model *m, const int *tokens, int N, int T, int pos0, float *x);
attn_status model_gpt2_layer_in(const Model *m, int l, const float *x, int N, const ModelLayerActs *s,
                                const ModelWatch *watch, AttnWorkspace *ws, AttnError *err);
attn_status model_gpt2_layer_out(const Model *m, int l, const float *x, int N, const ModelLayerActs *s,
                                 ModelRun *run, const ModelWatch *watch, AttnWorkspace *ws, AttnError *err);
/* The Llama family's (model_llama.c): x (n x d) the tokens' embeddings; a
 * layer's attention inputs over h's n rows at positions pos0 ..: its
 * RMSNorm into a, Q (n x heads hd), K and V (n x kv_heads hd) projected,
 * Q and K turned by their positions; and the rest: o (n x heads hd)
 * projected and added to h, its RMSNorm into a, the SwiGLU MLP (g, u: n x
 * d_ff of scratch) added to h. */
void model_llama_embed(const Model *m, const int *tokens, int n, float *x);
attn_status model_llama_layer_in(const Model *m, int l, const float *h, int n, int pos0, float *a, float *Q,
                                 float *K, float *V, const ModelWatch *watch, AttnWorkspace *ws, AttnError *err);
attn_status model_llama_layer_out(const Model *m, int l, const float *o, int n, float *h, float *a, float *g,
                                  float *u, ModelRun *run, const ModelWatch *watch, AttnWorkspace *ws,
                                  AttnError *err);
/* Whoever watches a pass told that phase begins (done 0) or ends (1);
 * watch NULL, or its fn: nobody. */
static inline void model_mark(const ModelWatch *watch, ModelPhase phase, int done)
{
    if (watch && watch->fn)
        watch->fn(watch->ctx, phase, done);
}


/* Each family's weights found (0, or -1 with err) and its forward pass
 * (run's arrays allocated by the caller, model_forward; ask checked). */
int model_open_gpt2(Model *m, const SafeTensors *st, AttnError *err);
attn_status model_forward_gpt2(const Model *m, const int *tokens, int n, const ModelAsk *ask, ModelRun *run,
                               AttnError *err);
int model_open_llama(Model *m, const SafeTensors *st, AttnError *err);
attn_status model_forward_llama(const Model *m, const int *tokens, int n, const ModelAsk *ask, ModelRun *run,
                                AttnError *err);

/* ask's edits checked against c (a head out of range, a patch without its
 * numbers, a head edited twice: named). ATTN_OK, or ATTN_E_ARG with err. */
attn_status model_edits_check(const ModelConfig *c, const ModelAsk *ask, AttnError *err);
/* The family passes' hooks (model_interv.c), each doing nothing when ask
 * asks nothing of it. Layer l's heads formed out (n rows, ldo apart): the
 * edited heads' slices replaced, then what is kept of them kept. */
void model_heads_formed(const ModelConfig *c, const ModelAsk *ask, ModelRun *run, int l, float *out, int ldo, int n);
/* The stream x (n x d) after layer `after` - 1 (0: the embeddings). */
void model_stream_kept(const ModelConfig *c, ModelRun *run, int after, const float *x, int n);
/* Layer l's MLP activation act (n x d_ff), as its projection reads it. */
void model_mlp_kept(const ModelConfig *c, ModelRun *run, int l, const float *act, int n);
/* The final norm of x's rows (rows x d) into out: LayerNorm, or RMSNorm
 * when the model has no bias. */
void model_final_norm(const Model *m, const float *x, int rows, float *out);

#endif
