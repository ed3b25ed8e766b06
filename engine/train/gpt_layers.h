/*
 * gpt_layers.h - each layer of a GPT-2's training, forward and backward,
 * on raw float buffers (gpt_layers.c): the embeddings, LayerNorm, a product
 * with a Conv1D weight (in, out) and its bias, the causal attention, GELU
 * with the tanh approximation, and the softmax with the cross-entropy.
 * Rows are positions: N = batch x T rows of C numbers. A backward
 * accumulates (+=) into its gradients, as autograd does; the products go
 * through BLAS (engine/base/blas.h).
 */
#ifndef ATTN_GPT_LAYERS_H
#define ATTN_GPT_LAYERS_H

/* out (B*T, C) = wte[inp] + wpe[t]. */
void gpt_embed_forward(float *out, const int *inp, const float *wte, const float *wpe, int B, int T, int C);
void gpt_embed_backward(float *dwte, float *dwpe, const float *dout, const int *inp, int B, int T, int C);

/* out (N, C) = (inp - mean) / sqrt(var + 1e-5) * w + b, row by row; the
 * rows' mean and 1/sqrt(var + eps) kept for the backward. */
void gpt_norm_forward(float *out, float *mean, float *rstd, const float *inp, const float *w, const float *b, int N,
                      int C);
void gpt_norm_backward(float *dinp, float *dw, float *db, const float *dout, const float *inp, const float *w,
                       const float *mean, const float *rstd, int N, int C);

/* out (N, OC) = inp (N, C) @ w (C, OC) + bias (OC; NULL: none). */
void gpt_linear_forward(float *out, const float *inp, const float *w, const float *bias, int N, int C, int OC);
void gpt_linear_backward(float *dinp, float *dw, float *dbias, const float *dout, const float *inp, const float *w,
                         int N, int C, int OC);

/* Causal multi-head attention: qkv (B*T, 3C) as Q | K | V, H heads of
 * C/H; att (B, H, T, T) the weights kept, out (B*T, C) the heads side by
 * side. The backward takes datt as scratch (B, H, T, T). */
void gpt_attention_forward(float *out, float *att, const float *qkv, int B, int T, int C, int H);
void gpt_attention_backward(float *dqkv, float *datt, const float *dout, const float *qkv, const float *att, int B,
                            int T, int C, int H);

/* GELU with the tanh approximation, element by element (n of them); th
 * keeps each tanh for the backward. */
void gpt_gelu_forward(float *out, float *th, const float *inp, long n);
void gpt_gelu_backward(float *dinp, const float *inp, const float *th, const float *dout, long n);

/* probs (N, V) = softmax of logits; the mean over the N rows of
 * -log probs[target]; dlogits = (probs - onehot(target)) / N. */
double gpt_crossentropy(float *probs, float *dlogits, const float *logits, const int *targets, int N, int V);

#endif
