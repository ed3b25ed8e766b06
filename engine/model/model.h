/*
 * model.h - a trained transformer's forward pass, on the weights of a
 * checkpoint (engine/io/safetensors.h) and its config.json, as Hugging
 * Face lays them out. Two families: GPT-2's (model_type "gpt2": learned
 * positions, pre-norm LayerNorm, GELU with the tanh approximation, Conv1D
 * weights stored (in, out), the output embedding tied to the input's;
 * model_gpt2.c) and Llama's ("llama", "mistral", "qwen2": RMSNorm, rotary
 * positions in the rotate-half pairing with rope_theta, grouped-query
 * attention, SwiGLU, q/k/v biases where the checkpoint has them, the
 * output embedding tied or its own; model_llama.c); others are refused by
 * name.
 *
 * The forward pass keeps what the screens and `attn model` show: every
 * layer's queries and keys (so any head's attention can be made again
 * without holding every head's n x n weights), each head's measured
 * scores, and the next-token logits.
 *
 * No files, no printing: the app reads config.json and maps the weights.
 * Every product of a pass (the projections, the MLP, the output layer) runs
 * on attn's kernels (attention_linear.h). BF16 weights are converted to
 * float32 once when opened (model_open: every number the lessons and tests
 * compare), or left where they lie and computed as BF16 where the CPU has
 * AVX512_BF16 (model_open_as, MODEL_WEIGHTS_STORED).
 *
 * Ownership: a Model borrows the SafeTensors (and through it the mapped
 * bytes) it was opened on, which must outlive it, and owns what it
 * converted from F16 or BF16 or drew, its table of tensors and, laid out
 * for training or a save (model_block.c), the block of all its weights;
 * model_free releases them. A ModelRun owns its
 * arrays (model_run_free).
 */
#ifndef ATTN_MODEL_H
#define ATTN_MODEL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "safetensors.h"
#include "status.h"

#include "model_types.h"

/* Read config.json's text into *cfg. ATTN_OK, or a code with err->msg:
 * not JSON, a family attn does not read (named), a size missing or absurd,
 * heads that do not divide the width. */
attn_status model_config_parse(const char *json, ModelConfig *cfg, AttnError *err);

/* A model of cfg on the tensors of st (names with or without GPT-2's
 * "transformer." prefix; the buffers attn.bias and attn.masked_bias are
 * not needed). NULL with err: a tensor missing (named) or of the wrong
 * shape (named, with both shapes). */
Model *model_open(const ModelConfig *cfg, const SafeTensors *st, AttnError *err);
/* How a model's BF16 weights are computed: converted to float32 once
 * (model_open's), or left as stored (mapped, never copied) and computed as
 * BF16 where the CPU has AVX512_BF16 (the Llama family's products and its
 * embeddings; GPT-2's, the norms and the biases stay float32; elsewhere
 * converted as with MODEL_WEIGHTS_F32). */
typedef enum { MODEL_WEIGHTS_F32, MODEL_WEIGHTS_STORED } ModelWeights;
Model *model_open_as(const ModelConfig *cfg, const SafeTensors *st, ModelWeights how, AttnError *err);
/* The weights m computes as BF16 (0: every product in float32), for
 * `attn bench` to say which path a model takes. */
int model_bf16_weights(const Model *m);
/* A model of cfg with random weights (normal, 0.02; seeded): what `attn
 * bench --model` times without a download. NULL with err (no memory). */
Model *model_random(const ModelConfig *cfg, unsigned seed, AttnError *err);
/* The same, a Llama's products' weights rounded to BF16 and kept so with
 * MODEL_WEIGHTS_STORED (where the CPU has AVX512_BF16): what `attn bench
 * --model llama-small --dtype bf16` times. */
Model *model_random_as(const ModelConfig *cfg, unsigned seed, ModelWeights how, AttnError *err);
void model_free(Model *m);
const ModelConfig *model_config(const Model *m);
/* The weights' count (the parameters, the tied output counted once). */
int64_t model_params(const Model *m);

/* ---- a model's weights in one block (model_block.c) ----
 * A model read from a checkpoint points into the mapped file. One that is
 * trained (attn train) holds every weight in one block it owns, in its
 * family's table order (GPT-2's: wte, wpe, each layer's twelve, ln_f), the
 * order its checkpoints are written in: the block is what AdamW steps,
 * what a checkpoint keeps and what is saved. */
typedef struct {
    char name[64];      /* as GPT-2's checkpoints name it: "h.0.attn.c_attn.weight" */
    int rows, cols;     /* cols 0: a vector                                  */
    size_t offset, count; /* where it lies in the block                      */
    int decay;          /* AdamW decays it (every 2-D weight)                */
} ModelTensor;

/* A GPT-2 of cfg whose weights are one zeroed block of its own (to be
 * drawn or read into). NULL with err: not GPT-2 (attn trains GPT-2), no
 * memory. */
Model *model_block_new(const ModelConfig *cfg, AttnError *err);
/* m's weights copied into one block of its own (after which the file it
 * was read from may be closed). ATTN_OK, or a code with err. */
attn_status model_to_block(Model *m, AttnError *err);
/* The block (count floats) and its table; NULL when m has none. */
float *model_block(Model *m, size_t *count);
const ModelTensor *model_tensors(const Model *m, int *n);

/* GPT-2's tensors by what they are, never by where they lie: a layer's
 * twelve parts in the order its checkpoints hold them, and the model's own
 * four (its embeddings before the layers, the final LayerNorm after). Its
 * table (model_gpt2.c) is indexed by these and its walk goes in their
 * order, so the table, the block and whoever reads them cannot disagree. */
typedef enum {
    GPT2_LN1_W, GPT2_LN1_B,     /* ln_1                                  */
    GPT2_QKV_W, GPT2_QKV_B,     /* attn.c_attn: (d, 3d), 3d              */
    GPT2_PROJ_W, GPT2_PROJ_B,   /* attn.c_proj: (d, d), d                */
    GPT2_LN2_W, GPT2_LN2_B,     /* ln_2                                  */
    GPT2_FC_W, GPT2_FC_B,       /* mlp.c_fc: (d, ff), ff                 */
    GPT2_OUT_W, GPT2_OUT_B,     /* mlp.c_proj: (ff, d), d                */
    GPT2_LAYER_PARTS
} Gpt2Part;
typedef enum {
    GPT2_WTE, GPT2_WPE,         /* before the layers                     */
    GPT2_LNF_W, GPT2_LNF_B,     /* after them, from GPT2_AFTER_LAYERS    */
    GPT2_WHOLES
} Gpt2Whole;
#define GPT2_AFTER_LAYERS GPT2_LNF_W
/* The table entry (model_tensors) of part of layer l, or of the model's
 * tensor g: where it lies in m's block. NULL when m has no block or l is
 * not one of its layers. */
const ModelTensor *model_gpt2_part(const Model *m, int l, Gpt2Part part);
const ModelTensor *model_gpt2_whole(const Model *m, Gpt2Whole g);

/* What a pass over B sequences of T tokens keeps for the backward
 * (engine/train), in one allocation laid out for up to B x T: each row a
 * position, N = B x T rows. */
typedef struct {
    float *ln1, *ln1_mean, *ln1_rstd, *qkv, *atty, *lse, *res2, *ln2, *ln2_mean, *ln2_rstd, *fch, *fch_tanh,
        *fch_gelu, *res3;
} ModelLayerActs;
typedef struct {
    int B, T;           /* the most it was laid out for                    */
    float *block;       /* the one allocation                              */
    float *encoded;     /* N x d: the tokens' and positions' embeddings     */
    ModelLayerActs *layer;
    float *lnf, *lnf_mean, *lnf_rstd; /* the final norm                    */
    float *probs;       /* N x vocab: the next token's probabilities       */
    const int *tokens;  /* the pass's (the caller's, kept until the backward) */
    void *scratch;      /* the attention's workspaces, one a worker, kept
                           from pass to pass (model_block.c frees them)      */
    int n_scratch;
} ModelActs;
ModelActs *model_acts_new(const ModelConfig *cfg, int B, int T, AttnError *err);
void model_acts_free(ModelActs *a);

/* What a head does, measured: the share of each query's weight on the
 * token before it, on the first token, on itself, and the induction score
 * (on a repeated random sequence, the weight from each token of the repeat
 * to the token after its earlier occurrence). On the probe
 * (model_probe_heads: what the head is) or on a text (a pass's
 * run->scores: what it does there, induction 0). */
typedef struct {
    double previous, first, self, induction;
} HeadScores;

/* What one forward pass over n tokens computed. Not every head's n x n
 * weights: each layer's queries and keys (after the rotary positions),
 * from which model_attention makes any head's again, and each head's
 * scores measured as it went. */
typedef struct {
    int n, layers, heads, vocab;
    float *q, *k;       /* layers x n x (heads x head_dim), and x (kv_heads x
                           head_dim); NULL when the pass kept nothing
                           (model_forward_timed)                            */
    HeadScores *scores; /* layers x heads: previous, first, self on these
                           tokens (the kind is the probe's)                */
    float *logits;      /* vocab: the next token's logits after the last     */
    float *final;       /* n x d_model: every position after the final norm
                           (ModelAsk's every_position), for model_logits_at */
    int input_layer;    /* 1..layers: layer_input holds that layer's input  */
    float *layer_input; /* n x d_model, after the layer's norm; or NULL      */
    /* what ModelAsk's keep_heads and keep_stream kept, or NULL */
    float *heads_out;   /* layers x n x (heads x head_dim): each head's output
                           (its attention-weighted sum of values, its slice
                           before the output projection), as the projection
                           read it: after any edit                          */
    float *stream;      /* (layers + 1) x n x d_model: the residual stream
                           after the embeddings (0) and after each layer     */
    float *last_att;    /* layers x (heads x head_dim): the last position's
                           heads' outputs, as the output projection read them */
    float *last_mlp;    /* layers x d_ff: the last position's MLP activation,
                           as its output projection read it                  */
} ModelRun;

/* An intervention on one head: its output (the attention-weighted sum of
 * values, the head's slice before the output projection) replaced at every
 * position of the pass, before the projection reads it, so every later
 * computation sees it. A grouped-query head's key/value head is untouched:
 * only the query head's own output is replaced. */
typedef enum { MODEL_EDIT_ZERO, MODEL_EDIT_MEAN, MODEL_EDIT_GIVEN } ModelEditHow;
typedef struct {
    int layer, head;    /* from 0                                           */
    ModelEditHow how;   /* zeros; its own mean over the pass's positions (in
                           this pass); given (another pass's: a patch)      */
    const float *given; /* GIVEN: n rows of head_dim numbers, ld apart (the
                           borrowed heads_out of a pass over as many tokens) */
    int ld;
} ModelHeadEdit;

/* The phases of a forward pass, each told as it begins and ends (done 0,
 * then 1) to whoever watches (ModelAsk's watch): what `attn bench --model
 * --phases` times, the engine keeping no clock. The norms are every
 * layer's two; Q, K and V come with the rotary positions; the attention is
 * the heads' scores, softmax and weighted sums; W_O the heads' outputs
 * projected and added; the MLP its products and activation; the output
 * layer the final norm and the logits. */
#define MODEL_PHASE_LIST(X)                                                                                     \
    X(MODEL_PHASE_EMBED, "embeddings")                                                                          \
    X(MODEL_PHASE_NORM, "norms")                                                                                \
    X(MODEL_PHASE_QKV, "Q, K and V")                                                                            \
    X(MODEL_PHASE_ATTENTION, "attention")                                                                       \
    X(MODEL_PHASE_OUT, "W_O")                                                                                   \
    X(MODEL_PHASE_MLP, "MLP")                                                                                   \
    X(MODEL_PHASE_LOGITS, "output layer")
#define MODEL_PHASE_ID(id, name) id,
typedef enum { MODEL_PHASE_LIST(MODEL_PHASE_ID) MODEL_PHASES } ModelPhase;
#undef MODEL_PHASE_ID
typedef struct {
    void (*fn)(void *ctx, ModelPhase phase, int done);
    void *ctx;
} ModelWatch;
const char *model_phase_name(ModelPhase phase);

/* What a pass is asked to keep beyond the attention and the last logits,
 * and what it is asked to change. */
typedef struct {
    int every_position; /* keep every position's final state, so the logits
                           after any token can be had (model_logits_at)    */
    int input_layer;    /* 1..layers: that layer's normalized input (the
                           head shown as a lesson); 0: none                 */
    const ModelHeadEdit *edits; /* heads whose output is replaced (borrowed) */
    int n_edits;
    int keep_heads;     /* keep every head's output (run->heads_out): the
                           source of a patch                                */
    int keep_stream;    /* keep the residual stream (run->stream) and what
                           the last position's output projections read
                           (run->last_att, run->last_mlp): the logit lens
                           and the direct logit attribution                 */
    ModelWatch watch;   /* told of each phase as it begins and ends; fn NULL:
                           nobody                                            */
} ModelAsk;


/* The forward pass over tokens[0..n) (1 <= n <= context, each id < vocab).
 * ATTN_OK with *run filled, or a code with err->msg (more queries and
 * keys to keep than MODEL_MAX_KEPT floats, named). */
attn_status model_forward(const Model *m, const int *tokens, int n, ModelRun *run, AttnError *err);
/* The same, keeping what ask asks for too. */
attn_status model_forward_asked(const Model *m, const int *tokens, int n, const ModelAsk *ask, ModelRun *run,
                                AttnError *err);
/* The pass over B sequences of T tokens (tokens B x T, T <= the context),
 * everything a backward needs kept in acts (laid out for at least B x T),
 * acts->probs every position's next-token probabilities; with targets
 * (B x T), the mean cross-entropy into *loss. The same pass as
 * model_forward's, keeping what it would let go. GPT-2 only. */
attn_status model_forward_keep(const Model *m, const int *tokens, const int *targets, int B, int T, ModelActs *acts,
                               double *loss, AttnError *err);
/* The same pass keeping only the logits: what a benchmark times (watch,
 * or NULL, told of its phases); n up to the context, as far as memory
 * goes. */
attn_status model_forward_timed(const Model *m, const int *tokens, int n, const ModelWatch *watch, ModelRun *run,
                                AttnError *err);
/* The logits after position pos (from 0) into out (vocab), from a run
 * that kept every position (ModelAsk's every_position): the last's equal
 * run->logits. ATTN_E_ARG otherwise. */
attn_status model_logits_at(const Model *m, const ModelRun *run, int pos, float *out, AttnError *err);
/* Head head of layer layer's attention (both from 0) made again from the
 * queries and keys run kept, the very arithmetic of the pass: out (n x n),
 * row i the query's weights, zero above the diagonal (and past a sliding
 * window). ATTN_E_ARG when run kept none. */
attn_status model_attention(const Model *m, const ModelRun *run, int layer, int head, float *out, AttnError *err);
/* ---- what a pass did, read back (model_interv.c) ---- */

/* The next-token cross-entropy in nats at each of the run's n - 1
 * positions (position i predicts tokens[i + 1]) into losses, and their mean
 * into *mean (0 when n is 1), from a run that kept every position
 * (ModelAsk's every_position); tokens the run's. ATTN_E_ARG otherwise. */
attn_status model_losses(const Model *m, const ModelRun *run, const int *tokens, double *losses, double *mean,
                         AttnError *err);
/* The logit lens: the residual stream after layer `layer` (0: after the
 * embeddings; layers: the last, whose logits are the run's) at positions
 * pos .. pos + rows - 1 (from 0), through the model's final norm and the
 * unembedding, into logits (rows x vocab; one product for them all). From
 * a run that kept the stream (ModelAsk's keep_stream); ATTN_E_ARG
 * otherwise. */
attn_status model_lens(const Model *m, const ModelRun *run, int layer, int pos, int rows, float *logits,
                       AttnError *err);

/* The direct logit attribution of token at the last position: each part of
 * the residual stream through the final norm with its scale frozen from
 * the run (LayerNorm: a part c gives ((c - mean(c)) / sigma) . (gamma * u),
 * sigma the run's sqrt(var + eps), u the token's unembedding row; RMSNorm:
 * (c / rms) . (gamma * u)). A head's part is its output through its slice
 * of the output projection (no bias); an MLP's its output less its
 * projection's bias; rest the embeddings, the biases the output
 * projections add (GPT-2's attention and MLP c_proj) and the norm's
 * beta . u. The parts add up to logit. Arrays owned (model_attribution_free). */
typedef struct {
    int token;
    double logit;       /* the run's logit of token                        */
    double *heads;      /* layers x heads                                  */
    double *mlps;       /* layers                                          */
    double rest;
    double scale;       /* sigma (LayerNorm) or rms (RMSNorm): what each part
                           is divided by                                    */
} ModelAttribution;
attn_status model_attribution(const Model *m, const ModelRun *run, const int *tokens, int token, ModelAttribution *out,
                              AttnError *err);
void model_attribution_free(ModelAttribution *a);

/* The floating-point operations of a forward pass over n tokens, and of
 * one of its phases (the attention's scores and weighted sums over the
 * causal triangle, or the sliding window's band, as they are computed;
 * the phases without products: 0). */
double model_forward_flops(const ModelConfig *cfg, int n);
double model_phase_flops(const ModelConfig *cfg, int n, ModelPhase phase);
void model_run_free(ModelRun *run);

/* The kind a head's scores name: "previous-token", "first-token", "self",
 * "induction" (the highest at 0.4 or more), else "broad"; and the score
 * that named it (broad's: 1 minus the highest). */
const char *model_head_kind(const HeadScores *s, double *score);

/* The one probe of what each head does, independent of any text shown
 * (the kind a head is given, on every screen, in --json and on attn
 * train's screen): MODEL_PROBE_SEQUENCES random sequences of
 * MODEL_PROBE_REP tokens (at most half the context) shown twice, drawn
 * with a fixed seed, each token with probability weights[id] / their sum
 * (the tokens the model knows: how often its training text used them, or
 * the vocabulary's printable tokens; NULL: every token alike); for each
 * head the mean over the sequences of its share on the token before, the
 * first, itself, and its induction score (model_induction_band). scores:
 * layers x heads. */
#define MODEL_PROBE_SEQUENCES 4
#define MODEL_PROBE_REP 24
#define MODEL_PROBE_SEED 1234u
attn_status model_probe_heads(const Model *m, const double *weights, HeadScores *scores, AttnError *err);
/* The induction score of one head's weights a (2 rep x 2 rep, rows the
 * queries) over a sequence of rep tokens shown twice: the mean weight from
 * each token of the repeat but the last to the token after its first
 * showing: model_probe_heads'. */
double model_induction_band(const float *a, int rep);

/* One head's own share of its layer's weights, as the lessons write them
 * (tokens as rows): Q = X @ wq + bq, K = X @ wk + bk, V = X @ wv + bv
 * (Llama: then the rotary positions), and what the head adds back to the
 * stream, Z @ wo (GPT-2's output bias is the layer's, added once, not a
 * head's). */
typedef struct {
    int d_model, head_dim;
    int kv_head;        /* the key/value head it reads, from 1 (GQA shares) */
    int has_bias;       /* the checkpoint has q/k/v biases                  */
    float *wq, *wk, *wv; /* d_model x head_dim                              */
    float *bq, *bk, *bv; /* head_dim (zeros without biases)                 */
    float *wo;          /* head_dim x d_model                               */
} ModelHeadWeights;

/* Head head of layer layer (both from 1) into *w (model_head_weights_free).
 * ATTN_OK, or a code with err->msg. */
attn_status model_head_weights(const Model *m, int layer, int head, ModelHeadWeights *w, AttnError *err);
void model_head_weights_free(ModelHeadWeights *w);

#endif
