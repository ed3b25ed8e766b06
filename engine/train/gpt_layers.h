/*
 * gpt_layers.h - the backward pass of each layer of a GPT-2 (gpt_layers.c),
 * on raw float buffers, from what the model's own forward pass kept
 * (ModelActs, engine/model): the embeddings, LayerNorm, a product with a
 * Conv1D weight (in, out) and its bias, the causal attention (its weights
 * made again from each query's log-sum-exp, as FlashAttention's backward
 * does, never kept n x n), GELU, and the softmax with the cross-entropy.
 * Rows are positions: N = batch x T rows of C numbers. A backward
 * accumulates (+=) into its gradients, as autograd does; the products go
 * through BLAS (engine/base/blas.h), the row-wise layers on attn's pool,
 * each number made by one thread in one order.
 */
#ifndef ATTN_GPT_LAYERS_H
#define ATTN_GPT_LAYERS_H

void gpt_embed_backward(float *dwte, float *dwpe, const float *dout, const int *inp, int B, int T, int C);

/* Through out (N, C) = (inp - mean) * rstd * w + b, the rows' mean and
 * rstd as the forward kept them. */
void gpt_norm_backward(float *dinp, float *dw, float *db, const float *dout, const float *inp, const float *w,
                       const float *mean, const float *rstd, int N, int C);

/* Through out (N, OC) = inp (N, C) @ w (C, OC) + bias (OC; NULL: none). */
void gpt_linear_backward(float *dinp, float *dw, float *dbias, const float *dout, const float *inp, const float *w,
                         int N, int C, int OC);

/* Through causal multi-head attention: qkv (B*T, 3C) as Q | K | V, H heads
 * of C/H, out (B*T, C) the heads side by side, lse (B, H, T) each query's
 * log-sum-exp of its scaled scores. */
void gpt_attention_backward(float *dqkv, const float *dout, const float *qkv, const float *out, const float *lse,
                            int B, int T, int C, int H);

/* Through GELU, element by element, from th, the tanh the forward kept
 * (model_gelu_tanh). */
void gpt_gelu_backward(float *dinp, const float *inp, const float *th, const float *dout, long n);

/* probs (N, V), the forward's softmax, turned in place into the mean
 * cross-entropy's gradient with respect to the logits: (probs -
 * onehot(target)) / N. */
void gpt_crossentropy_backward(float *probs, const int *targets, int N, int V);

#endif
