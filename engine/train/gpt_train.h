/*
 * gpt_train.h - a GPT-2 trained in the engine (gpt_train.c): learned
 * positions, pre-norm LayerNorm, GELU with the tanh approximation, the
 * output embedding tied to the input's, as Hugging Face's GPT2LMHeadModel
 * computes it; its weights in one block under GPT-2's own tensor names, so
 * what it saves is an ordinary checkpoint (`attn model` opens it); the
 * forward pass to the mean cross-entropy, the backward pass of every layer
 * (gpt_layers.c), and AdamW.
 *
 * No files, no printing: the app loads and saves. Ownership: a GptTrain
 * owns its weights, gradients, AdamW's moments and activations
 * (gpt_train_free).
 */
#ifndef ATTN_GPT_TRAIN_H
#define ATTN_GPT_TRAIN_H

#include <stddef.h>

#include "rng.h"
#include "status.h"

typedef struct {
    int layers, heads, d, context, vocab;
} GptShape;

/* One weight of the block: its name as GPT-2's checkpoints write it
 * ("h.0.attn.c_attn.weight"), its shape (cols 0: a vector), where it lies,
 * and whether AdamW decays it (every 2-D weight, the embeddings included). */
typedef struct {
    char name[48];
    int rows, cols;
    size_t offset, count;
    int decay;
} GptTensor;

/* AdamW's settings for one step. */
typedef struct {
    float lr, beta1, beta2, eps, weight_decay;
} GptAdamW;

typedef struct GptTrain GptTrain;

/* A model of shape s for batches of up to batch sequences of s->context
 * tokens. NULL with err: a shape that does not divide (heads into d) or
 * too large (named), no memory. Weights zero until set or drawn. */
GptTrain *gpt_train_new(const GptShape *s, int batch, AttnError *err);
void gpt_train_free(GptTrain *g);
const GptShape *gpt_train_shape(const GptTrain *g);

/* The weights' block (count floats) and its table of tensors. AdamW's
 * moments are blocks of the same layout (gpt_train_moments). */
float *gpt_train_weights(GptTrain *g, size_t *count);
const GptTensor *gpt_train_tensors(const GptTrain *g, int *n);
float *gpt_train_grads(GptTrain *g);
void gpt_train_moments(GptTrain *g, float **m, float **v);

/* GPT-2's initialization, drawn from r: normal weights of sd 0.02 (the
 * residual projections' 0.02 / sqrt(2 layers)), zero biases, LayerNorms
 * of gain 1 and bias 0. */
void gpt_train_init(GptTrain *g, Rng *r);

/* The forward pass over B sequences of T tokens (inputs B x T; T <= the
 * context, B <= the batch), to the mean cross-entropy against targets
 * (B x T). The activations stay for gpt_train_backward. */
double gpt_train_forward(GptTrain *g, const int *inputs, const int *targets, int B, int T);
/* The gradients of the last forward's loss, into gpt_train_grads (zeroed
 * first). */
void gpt_train_backward(GptTrain *g);
/* One AdamW step (t: this step's number from 1, for the bias correction)
 * on the gradients. */
void gpt_train_adamw(GptTrain *g, const GptAdamW *a, int t);

/* What the last forward pass computed: layer's attention weights (B, H,
 * T, T: row t of a head the query's weights) and the logits (B x T,
 * vocab), for a screen that watches the model learn. */
const float *gpt_train_attention(const GptTrain *g, int layer);
const float *gpt_train_logits(const GptTrain *g);

/* The floating-point operations of one training step on B x T tokens
 * (the forward pass and the backward pass, which is twice its products). */
double gpt_train_flops(const GptShape *s, int B, int T);

#endif
