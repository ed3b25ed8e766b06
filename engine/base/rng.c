/*
 * rng.c - PyTorch 1.13's CPU generator, so that a lesson's `seed 0` draws
 * the very numbers a student gets from torch.manual_seed(0); torch.randn().
 *
 * Three layers, as in PyTorch (CPUGeneratorImpl, DistributionTemplates,
 * TransformationHelper): the mt19937 engine (standard init_genrand seeding
 * and tempering); uniforms made from its 32- or 64-bit outputs; and the two
 * normal paths of randn. Fewer than 16 elements: Box-Muller in double, one
 * value per call with the sine kept in a cache that lives on into the next
 * randn. 16 or more: uniform floats for every slot, transformed in blocks
 * of 16 in float; a ragged tail is redone as a fresh block over the last 16
 * slots. The cache is then left alone. See tests/reference/torch-randn.ref.
 */
#include "rng.h"

#include <math.h>

#define MT_N 624
#define MT_M 397
#define MT_UPPER 0x80000000u
#define MT_LOWER 0x7fffffffu
#define MT_MATRIX_A 0x9908b0dfu

/* randn takes the vectorised path from this many elements on. */
#define RNG_BLOCK 16

static const double RNG_PI = 3.14159265358979323846;

void rng_seed(Rng *g, uint64_t seed)
{
    g->mt[0] = (uint32_t)(seed & 0xffffffffu);
    for (int i = 1; i < MT_N; i++)
        g->mt[i] = 1812433253u * (g->mt[i - 1] ^ (g->mt[i - 1] >> 30)) + (uint32_t)i;
    g->mti = MT_N;
    g->has_cached = 0;
    g->cached = 0.0;
}

/* Regenerate the whole state block (the "twist"). */
static void mt_twist(Rng *g)
{
    uint32_t *mt = g->mt;
    for (int i = 0; i < MT_N; i++) {
        uint32_t y = (mt[i] & MT_UPPER) | (mt[(i + 1) % MT_N] & MT_LOWER);
        mt[i] = mt[(i + MT_M) % MT_N] ^ (y >> 1) ^ ((y & 1u) ? MT_MATRIX_A : 0u);
    }
    g->mti = 0;
}

uint32_t rng_u32(Rng *g)
{
    if (g->mti >= MT_N)
        mt_twist(g);
    uint32_t y = g->mt[g->mti++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

static uint64_t rng_u64(Rng *g)
{
    uint64_t hi = rng_u32(g);
    uint64_t lo = rng_u32(g);
    return (hi << 32) | lo;
}

/* Uniform double in [0, 1) from 53 bits of one u64. */
static double uniform_double(Rng *g)
{
    return (double)(rng_u64(g) & ((UINT64_C(1) << 53) - 1)) * ldexp(1.0, -53);
}

/* Uniform float in [0, 1) from 24 bits of one u32. */
static float uniform_float(Rng *g)
{
    return (float)(rng_u32(g) & ((UINT32_C(1) << 24) - 1)) * ldexpf(1.0f, -24);
}

/* One standard normal by Box-Muller in double, through the cache. */
static double normal_double(Rng *g)
{
    if (g->has_cached) {
        g->has_cached = 0;
        return g->cached;
    }
    double u1 = uniform_double(g);
    double u2 = uniform_double(g);
    double r = sqrt(-2.0 * log1p(-u2));
    double theta = 2.0 * RNG_PI * u1;
    g->cached = r * sin(theta);
    g->has_cached = 1;
    return r * cos(theta);
}

/* Turn 16 uniforms in d[0..15] into 16 normals, in float. */
static void normal_block16(float *d)
{
    for (int j = 0; j < 8; j++) {
        float u1 = 1.0f - d[j];
        float u2 = d[j + 8];
        float radius = sqrtf(-2.0f * logf(u1));
        float theta = (float)(2.0 * RNG_PI * (double)u2);
        d[j] = radius * cosf(theta);
        d[j + 8] = radius * sinf(theta);
    }
}

void rng_randn_fill(Rng *g, float *dst, long n)
{
    if (n <= 0)
        return;
    if (n < RNG_BLOCK) {
        for (long i = 0; i < n; i++)
            dst[i] = (float)normal_double(g);
        return;
    }
    for (long i = 0; i < n; i++)
        dst[i] = uniform_float(g);
    for (long i = 0; i + RNG_BLOCK <= n; i += RNG_BLOCK)
        normal_block16(dst + i);
    if (n % RNG_BLOCK != 0) {
        float *tail = dst + n - RNG_BLOCK;
        for (int i = 0; i < RNG_BLOCK; i++)
            tail[i] = uniform_float(g);
        normal_block16(tail);
    }
}

Mat *rng_randn(Rng *g, int r, int c, AttnError *err)
{
    Mat *m = mat_new(r, c, err);
    if (!m)
        return NULL;
    /* mat_new gives ld = cols, so the data are one contiguous run. */
    rng_randn_fill(g, m->data, (long)r * c);
    mat_set_prov(m, OP_RANDN, NULL, NULL);
    return m;
}
