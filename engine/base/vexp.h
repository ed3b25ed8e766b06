/*
 * vexp.h - e^x for 8 or 16 floats at once, the one vector exponential of
 * attn's kernels (the softmax's, attention_softmax.c; GPT-2's GELU,
 * model_ops.c): Cephes' polynomial (as in avx_mathfun), within a few ulp
 * of expf. Inline, for the loops that call it in their own target: AVX2
 * with FMA for vexp8, AVX-512 for vexp16; the caller asks the CPU first.
 * Below VEXP_LOWEST each gives 0; vexp16 gives infinity past e^88.7,
 * vexp8 is for x <= 0 (its 2^k is made in the exponent's bits).
 */
#ifndef ATTN_VEXP_H
#define ATTN_VEXP_H

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* exp underflows below this (float's smallest normal is e^-87.34). */
#define VEXP_LOWEST -87.3f

/* exp of 8 lanes of x <= 0; 0 below VEXP_LOWEST. */
static inline __attribute__((target("avx2,fma"))) __m256 vexp8(__m256 x)
{
    __m256 live = _mm256_cmp_ps(x, _mm256_set1_ps(VEXP_LOWEST), _CMP_GE_OQ);
    x = _mm256_max_ps(x, _mm256_set1_ps(VEXP_LOWEST));
    /* x = k ln2 + r, |r| <= ln2 / 2; ln2 split in two for exactness */
    __m256 k = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                               _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256 r = _mm256_fnmadd_ps(k, _mm256_set1_ps(0.693359375f), x);
    r = _mm256_fnmadd_ps(k, _mm256_set1_ps(-2.12194440e-4f), r);
    __m256 p = _mm256_set1_ps(1.9875691500e-4f);
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
    p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), _mm256_add_ps(r, _mm256_set1_ps(1.0f)));
    __m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(k), _mm256_set1_epi32(127)), 23);
    return _mm256_and_ps(_mm256_mul_ps(p, _mm256_castsi256_ps(e)), live);
}

/* exp of 16 lanes; 0 below VEXP_LOWEST (vexp8's steps, 16 wide). */
static inline __attribute__((target("avx512f"))) __m512 vexp16(__m512 x)
{
    __mmask16 live = _mm512_cmp_ps_mask(x, _mm512_set1_ps(VEXP_LOWEST), _CMP_GE_OQ);
    x = _mm512_max_ps(x, _mm512_set1_ps(VEXP_LOWEST));
    __m512 k = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                    _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512 r = _mm512_fnmadd_ps(k, _mm512_set1_ps(0.693359375f), x);
    r = _mm512_fnmadd_ps(k, _mm512_set1_ps(-2.12194440e-4f), r);
    __m512 p = _mm512_set1_ps(1.9875691500e-4f);
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
    p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
    p = _mm512_fmadd_ps(p, _mm512_mul_ps(r, r), _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
    /* p * 2^k by scalef: exact, no integer shift, infinity past the range */
    return _mm512_maskz_mov_ps(live, _mm512_scalef_ps(p, k));
}

#endif
#endif
