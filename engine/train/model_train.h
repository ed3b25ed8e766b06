/*
 * model_train.h - a Model trained (model_train.c): the engine's one model
 * (engine/model: its weights in one block, its forward pass keeping what
 * the backward needs) with what training adds beside it, laid out once:
 * the gradients and AdamW's moments in the block's layout, and the
 * activations of a batch. The backward pass of every layer (gpt_layers.c)
 * and AdamW as torch.optim.AdamW computes it. GPT-2's family (learned
 * positions, pre-norm LayerNorm, GELU, the output tied to the input
 * embedding), as Hugging Face's GPT2LMHeadModel computes it.
 *
 * No files, no printing. Ownership: a ModelTrain borrows its Model (which
 * must outlive it and keep its block) and owns its gradients, moments and
 * activations (model_train_free).
 */
#ifndef ATTN_MODEL_TRAIN_H
#define ATTN_MODEL_TRAIN_H

#include <stddef.h>

#include "model.h"
#include "rng.h"
#include "status.h"

/* The shape of a GPT-2 attn trains (a run's settings keep it). */
typedef struct {
    int layers, heads, d, context, vocab;
} GptShape;

/* GPT-2's config of shape s (4 x width for the MLP, LayerNorm's 1e-5). */
ModelConfig gpt_config(const GptShape *s);

/* AdamW's settings for one step. */
typedef struct {
    float lr, beta1, beta2, eps, weight_decay;
} GptAdamW;

typedef struct ModelTrain ModelTrain;

/* Training for m (which has its weights in a block: model_block_new or
 * model_to_block) on batches of up to batch sequences of its context.
 * NULL with err: no block, too large (named), no memory. */
ModelTrain *model_train_new(Model *m, int batch, AttnError *err);
void model_train_free(ModelTrain *t);
Model *model_train_model(ModelTrain *t);

/* GPT-2's initialization of m's block, drawn from r in the table's order:
 * normal weights of sd 0.02 (the residual projections' 0.02 / sqrt(2
 * layers)), zero biases, LayerNorms of gain 1 and bias 0. */
void model_train_init(Model *m, Rng *r);

/* The forward pass over B sequences of T tokens (inputs B x T, which the
 * caller keeps unchanged until the backward; T <= the context, B <= the
 * batch), to the mean cross-entropy against targets (B x T; NULL: 0).
 * The model's own pass (model_forward_keep). */
double model_train_forward(ModelTrain *t, const int *inputs, const int *targets, int B, int T);
/* The gradients of the last forward's loss into model_train_grads (zeroed
 * first); the forward must have had targets. */
void model_train_backward(ModelTrain *t);
/* One AdamW step (step: this step's number from 1, for the bias
 * correction) on the gradients. */
void model_train_adamw(ModelTrain *t, const GptAdamW *a, int step);

/* The gradients and AdamW's moments, each in the block's layout (count
 * floats, model_block). */
float *model_train_grads(ModelTrain *t);
void model_train_moments(ModelTrain *t, float **m, float **v);

/* The floating-point operations of one training step on B x T tokens
 * (the forward pass and the backward, which is twice its products). */
double model_train_flops(const ModelConfig *c, int B, int T);

#endif
