/*
 * bench_naive.h - multi-head attention the way the lessons compute it, for
 * `attn bench` to time against the fused path: each head's n x n scores and
 * weights materialized through the ordinary operations of engine/ops/ops.h
 * (matmul, transpose, softmax_rows, causal_mask, hcat ...).
 *
 * Ownership: bench_naive_new copies the inputs into matrices once (so the
 * timing is of the computation only); bench_naive_free releases them and
 * accepts NULL.
 */
#ifndef ATTN_BENCH_NAIVE_H
#define ATTN_BENCH_NAIVE_H

#include <stddef.h>

#include "attention.h"

typedef struct BenchNaive BenchNaive;

/* NULL and err when the inputs cannot be held. x (n, d); w as attention.h. */
BenchNaive *bench_naive_new(const float *x, const AttnWeights *w, const AttnConfig *cfg, AttnError *err);
void bench_naive_free(BenchNaive *nv);

/* out (n, d) = the same function as attention_forward. */
attn_status bench_naive_run(BenchNaive *nv, float *out, AttnError *err);

/* The bytes the naive path holds at its peak for cfg: two n x n matrices
 * of one head at a time (three with the causal mask) plus its (n, d)
 * intermediates. */
size_t bench_naive_bytes(const AttnConfig *cfg);

/* 1 when the engine can hold one n x n matrix at all (MAT_MAX_ELEMS). */
int bench_naive_fits(const AttnConfig *cfg);

#endif
