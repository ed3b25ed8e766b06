/*
 * rng.h - a generator that draws exactly what PyTorch 1.13's CPU generator
 * draws: after rng_seed(g, s), successive rng_randn() calls return what
 * torch.manual_seed(s) followed by the same torch.randn() calls returns
 * (mt19937, Box-Muller; the small path caches its second value across calls,
 * the vectorised path for 16+ elements does not touch the cache). The
 * algorithm is described in tests/reference/torch-randn.ref.
 *
 * Ownership: Rng is a plain value; no allocation, nothing to free.
 */
#ifndef ATTN_RNG_H
#define ATTN_RNG_H

#include <stdint.h>

#include "mat.h"

typedef struct {
    uint32_t mt[624];
    int mti;
    int has_cached;      /* the small path's cached normal */
    double cached;
} Rng;

/* Restart g as torch.manual_seed(seed) does (the cached normal dropped). */
void rng_seed(Rng *g, uint64_t seed);
/* The next raw 32-bit output of the mt19937 stream. */
uint32_t rng_u32(Rng *g);

/* Fill dst[0..n-1] with what torch.randn(n elements) returns, row-major. */
void rng_randn_fill(Rng *g, float *dst, long n);

/* A new r x c matrix of draws, provenance OP_RANDN. NULL and err on a bad
 * size or no memory (the generator is not advanced then). */
Mat *rng_randn(Rng *g, int r, int c, AttnError *err);

#endif
