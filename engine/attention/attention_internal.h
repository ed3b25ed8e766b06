/*
 * attention_internal.h - the pieces attention.c is made of that live in
 * their own files: the softmax of one row of scores (attention_softmax.c),
 * and the checks the fused path and its reference share.
 * Engine-internal.
 */
#ifndef ATTN_ATTENTION_INTERNAL_H
#define ATTN_ATTENTION_INTERNAL_H

#include "attention.h"

/* Softmax numerators of row[0..n-1] (n >= 1) in place: row[j] =
 * exp(row[j] - max(row)), shifted by the row's true max; returns their sum
 * (>= 1, since the max gives exp(0)). Scores so far below the max that exp
 * underflows give 0. Vectorised where the CPU allows (AVX-512, else AVX2 +
 * FMA, chosen at run time); thread-safe. */
float attn_softmax_numerators(float *row, int n);

/* The same with a chosen instruction set, for tests: each set the CPU
 * supports must give the same numerators within float rounding. */
typedef enum { ATTN_ISA_SCALAR, ATTN_ISA_AVX2, ATTN_ISA_AVX512 } AttnIsa;
int attn_softmax_isa_supported(AttnIsa isa);
float attn_softmax_numerators_isa(float *row, int n, AttnIsa isa);

/* ATTN_E_ARG and a message when cfg or w cannot be computed (n, d or heads
 * below 1, d not a multiple of heads, a weight matrix missing). */
attn_status attention_check(const AttnConfig *cfg, const AttnWeights *w, AttnError *err);

#endif
