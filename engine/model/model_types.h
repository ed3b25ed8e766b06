/*
 * model_types.h - what a model is, before any pass: its config (the sizes
 * config.json gives, with the limits a config may claim), the Model's
 * name, and the one GELU both the forward and the backward compute. The
 * layer arithmetic (model_ops.c) stands on these alone; model.h, the
 * passes' interface, includes them.
 */
#ifndef ATTN_MODEL_TYPES_H
#define ATTN_MODEL_TYPES_H

#include <math.h>

/* Sizes a config may claim, checked before anything is allocated. */
#define MODEL_MAX_LAYERS 256
#define MODEL_MAX_WIDTH 16384
#define MODEL_MAX_VOCAB (1 << 20)
#define MODEL_MAX_CONTEXT (1 << 17)
/* The most query and key numbers a pass keeps (every layer's). */
#define MODEL_MAX_KEPT (1L << 28)

typedef enum { FAMILY_GPT2, FAMILY_LLAMA } ModelFamily;

typedef struct {
    ModelFamily kind;
    char family[16];    /* model_type as config.json names it            */
    int layers, heads, kv_heads, d_model, head_dim, d_ff, vocab, context;
    double ln_eps;      /* LayerNorm's or RMSNorm's epsilon               */
    double rope_theta;  /* Llama: the rotary base                         */
    int tied;           /* the output embedding is the input's            */
    int sliding_window; /* Mistral: keys at most this far back (0: all)   */
} ModelConfig;

typedef struct Model Model;

/* The one GELU (the tanh approximation, GPT-2's "gelu_new"): the tanh
 * of x's inner term, through one exp (1 - 2 / (e^2u + 1): within a few
 * units of float's last place, the ends exactly +-1); the forward
 * computes 0.5 x (1 + t), the backward (engine/train) its derivative from
 * the same t. */
static inline float model_gelu_tanh(float x)
{
    float u = 0.7978845608028654f * (x + 0.044715f * x * x * x);
    return 1.0f - 2.0f / (expf(2.0f * u) + 1.0f);
}

#endif
