/*
 * attention_softmax.c - the softmax of one row of scores for the fused
 * attention path: the row's true max, then exp(x - max) in place and their
 * sum. At n = 2048 and 8 heads that is 33 million exponentials per forward
 * pass, as many as the sgemms' multiply-adds divided by 256, so the scalar
 * expf of the C library would cost a third of the pass: with Cephes'
 * polynomial (engine/base/vexp.h), within a few ulp of expf, sixteen lanes at
 * once where the CPU has AVX-512 (a third less time than AVX2 on the Zen 4
 * it was measured on), else eight with AVX2 and FMA, else plain expf; the
 * CPU is asked at run time (attention_isa, here: the one place that asks).
 * The same down the columns of a transposed block of scores, for attn's
 * own kernels (attn_softmax_columns_isa), a tile of keys at a time with a
 * running max and sum per column (the online softmax), causal columns each
 * cut at its own query.
 */
#include "attention_internal.h"

#include <math.h>

/* exp underflows below this (float's smallest normal is e^-87.34). */
#define EXP_LOWEST VEXP_LOWEST

static float numerators_scalar(float *row, int n)
{
    float max = row[0];
    for (int j = 1; j < n; j++)
        if (row[j] > max)
            max = row[j];
    float sum = 0.0f;
    for (int j = 0; j < n; j++) {
        row[j] = expf(row[j] - max);
        sum += row[j];
    }
    return sum;
}

/* Is key p live for column c (keys 0 .. live0 + c are; ATTN_ALL_LIVE:
 * every one)? live0 may be negative: a tile of keys that starts after a
 * block's first queries, whose first columns have no live key in it. */
static int live_key(int p, int c, int live0) { return p <= live0 + c; }

/* The columns' exponentials are powers of two: attn's kernels fold log2(e)
 * into the scores' scale, so 2^(x - max) here is e^(score - max) there,
 * and the range reduction is a rounding and a subtraction. Arguments are
 * clamped at COL_LOWEST: 2^-125 and below come out as at least 2^-125.5,
 * a normal float (a denormal could slow the weighted sum's FMAs), which
 * no sum with the max's 1 can tell from 0; so is -inf. */
#define COL_LOWEST -125.0f

/* Column c's running max and sum taken on past a tile whose live maximum
 * is tile_max: the new max (the old one unless tile_max passes it by more
 * than ATTN_MAX_SLACK), and rescale[c] = 2^(old max - new max), by which
 * the sum so far (and the caller's accumulator) is multiplied. */
static float fold_max(float old, float tile_max, float *rescale)
{
    float max = tile_max > old + ATTN_MAX_SLACK ? tile_max : old;
    *rescale = max == old ? 1.0f : exp2f(fmaxf(old - max, COL_LOWEST));
    return max;
}

static void columns_scalar(float *s, int keys, int ld, int width, int live0, float *max, float *sum,
                           float *rescale)
{
    for (int c = 0; c < width; c++) {
        float tile_max = -INFINITY, total = 0.0f;
        for (int p = 0; p < keys && live_key(p, c, live0); p++)
            tile_max = s[(size_t)p * ld + c] > tile_max ? s[(size_t)p * ld + c] : tile_max;
        max[c] = fold_max(max[c], tile_max, &rescale[c]);
        for (int p = 0; p < keys; p++) {
            float *x = &s[(size_t)p * ld + c];
            *x = live_key(p, c, live0) ? exp2f(fmaxf(*x - max[c], COL_LOWEST)) : 0.0f;
            total += *x;
        }
        sum[c] = sum[c] * rescale[c] + total;
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#include "vexp.h"

/* Which of a block's columns (bit c of a mask) are live at key p: every
 * one before `full`, none from `last`, between them those with c >= p -
 * live0 (live_key's rule, for the vector paths a key at a time; p - live0
 * is then in 1 .. 31). */
typedef struct {
    unsigned in;        /* the columns there are: width bits          */
    int full, last;
    int live0;
} LiveColumns;

static LiveColumns live_columns(int keys, int width, int live0)
{
    LiveColumns lc = { width >= 32 ? 0xffffffffu : (1u << width) - 1, keys, keys, live0 };
    if (live0 < keys) {
        lc.full = live0 + 1 < 0 ? 0 : live0 + 1 < keys ? live0 + 1 : keys;
        lc.last = live0 + width < 0 ? 0 : live0 + width < keys ? live0 + width : keys;
    }
    return lc;
}

static unsigned live_at(const LiveColumns *lc, int p)
{
    return p < lc->full ? lc->in : p < lc->last ? lc->in & (0xffffffffu << (p - lc->live0)) : 0;
}

#define AVX2 __attribute__((target("avx2,fma")))

AVX2 static float hsum8(__m256 v)
{
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

AVX2 static float hmax8(__m256 v)
{
    __m128 s = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_max_ps(s, _mm_movehl_ps(s, s));
    s = _mm_max_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

AVX2 static float numerators_avx2(float *row, int n)
{
    int j = 0;
    float max = row[0];
    if (n >= 8) {
        __m256 m = _mm256_loadu_ps(row);
        for (j = 8; j + 8 <= n; j += 8)
            m = _mm256_max_ps(m, _mm256_loadu_ps(row + j));
        max = hmax8(m);
    }
    for (; j < n; j++)
        if (row[j] > max)
            max = row[j];
    __m256 vmax = _mm256_set1_ps(max), vsum = _mm256_setzero_ps();
    for (j = 0; j + 8 <= n; j += 8) {
        __m256 e = vexp8(_mm256_sub_ps(_mm256_loadu_ps(row + j), vmax));
        _mm256_storeu_ps(row + j, e);
        vsum = _mm256_add_ps(vsum, e);
    }
    float sum = hsum8(vsum);
    for (; j < n; j++) {
        row[j] = row[j] - max < EXP_LOWEST ? 0.0f : expf(row[j] - max);
        sum += row[j];
    }
    return sum;
}

#define AVX512 __attribute__((target("avx512f")))

AVX512 static float numerators_avx512(float *row, int n)
{
    int j = 0;
    float max = row[0];
    if (n >= 16) {
        __m512 m = _mm512_loadu_ps(row);
        for (j = 16; j + 16 <= n; j += 16)
            m = _mm512_max_ps(m, _mm512_loadu_ps(row + j));
        max = _mm512_reduce_max_ps(m);
    }
    for (; j < n; j++)
        if (row[j] > max)
            max = row[j];
    __m512 vmax = _mm512_set1_ps(max), vsum = _mm512_setzero_ps();
    for (j = 0; j + 16 <= n; j += 16) {
        __m512 e = vexp16(_mm512_sub_ps(_mm512_loadu_ps(row + j), vmax));
        _mm512_storeu_ps(row + j, e);
        vsum = _mm512_add_ps(vsum, e);
    }
    float sum = _mm512_reduce_add_ps(vsum);
    for (; j < n; j++) {
        row[j] = row[j] - max < EXP_LOWEST ? 0.0f : expf(row[j] - max);
        sum += row[j];
    }
    return sum;
}

/* 2^r for |r| <= 1/2: a degree-6 polynomial fitted to the relative error
 * on that interval (1e-7 in float arithmetic), Horner's rule by FMAs. */
#define EXP2_C6 1.5345809515565634e-4f
#define EXP2_C5 1.3399932067841291e-3f
#define EXP2_C4 9.618489071726799e-3f
#define EXP2_C3 5.550328642129898e-2f
#define EXP2_C2 2.4022646248340607e-1f
#define EXP2_C1 6.931471824645996e-1f
#define EXP2_C0 1.0f
#define EXP2_HORNER(fmadd, set1, r)                                                                             \
    fmadd(fmadd(fmadd(fmadd(fmadd(fmadd(set1(EXP2_C6), r, set1(EXP2_C5)), r, set1(EXP2_C4)), r, set1(EXP2_C3)), r, \
                      set1(EXP2_C2)),                                                                           \
                r, set1(EXP2_C1)),                                                                              \
          r, set1(EXP2_C0))

/* 2^x of 8 lanes: x = k + r, 2^r by the polynomial, 2^k into the exponent. */
AVX2 static __m256 exp2_8(__m256 x)
{
    x = _mm256_max_ps(x, _mm256_set1_ps(COL_LOWEST));
    __m256 k = _mm256_round_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), r = _mm256_sub_ps(x, k);
    __m256 p = EXP2_HORNER(_mm256_fmadd_ps, _mm256_set1_ps, r);
    __m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(k), _mm256_set1_epi32(127)), 23);
    return _mm256_mul_ps(p, _mm256_castsi256_ps(e));
}

/* 2^x of 16 lanes, as exp2_8; 2^k by scalef. */
AVX512 static __m512 exp2_16(__m512 x)
{
    x = _mm512_max_ps(x, _mm512_set1_ps(COL_LOWEST));
    __m512 k = _mm512_roundscale_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), r = _mm512_sub_ps(x, k);
    __m512 p = EXP2_HORNER(_mm512_fmadd_ps, _mm512_set1_ps, r);
    return _mm512_scalef_ps(p, k);
}

/* The lanes of 8 bits as a mask of 8 lanes. */
AVX2 static __m256i lanes8(unsigned bits)
{
    const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)(bits & 0xff)), bit), bit);
}

/* All width (<= 32) columns of s down the keys at once, four vectors of 8
 * a key, as columns_scalar (columns32's steps with AVX2's masks: a
 * key at a time for every column, where 8 columns at a time took three
 * times as long). */
AVX2 static void columns32_avx2(float *s, int keys, int ld, int width, int live0, float *max_io, float *sum_io,
                                float *rescale_io)
{
    LiveColumns lc = live_columns(keys, width, live0);
    int groups = (width + 7) / 8;
    __m256i in_g[4];
    __m256 max[4], total[4];
    for (int g = 0; g < 4; g++) {
        in_g[g] = lanes8(lc.in >> (8 * g));
        max[g] = _mm256_set1_ps(-INFINITY);
        total[g] = _mm256_setzero_ps();
    }
    /* a group of 8 within width is read and written whole, dead lanes
     * masked in registers: a masked store (vmaskmovps) took several
     * times as long as a plain one where it was measured (Zen 4) */
    int whole = width / 8;
    for (int p = 0; p < lc.last; p++) {
        const float *row = s + (size_t)p * ld;
        unsigned live = live_at(&lc, p);
        for (int g = 0; g < groups; g++) {
            __m256i m = p < lc.full ? in_g[g] : lanes8(live >> (8 * g));
            __m256 v = g < whole ? _mm256_loadu_ps(row + 8 * g) : _mm256_maskload_ps(row + 8 * g, m);
            max[g] = _mm256_blendv_ps(max[g], _mm256_max_ps(max[g], v), _mm256_castsi256_ps(m));
        }
    }
    /* the running max taken on past this tile's */
    float tile_max[32], new_max[32];
    for (int g = 0; g < groups; g++)
        _mm256_storeu_ps(tile_max + 8 * g, max[g]);
    for (int c = 0; c < width; c++)
        new_max[c] = fold_max(max_io[c], tile_max[c], &rescale_io[c]);
    for (int c = width; c < 8 * groups; c++)
        new_max[c] = 0.0f;
    for (int g = 0; g < groups; g++)
        max[g] = _mm256_loadu_ps(new_max + 8 * g);
    for (int p = 0; p < keys; p++) {
        float *row = s + (size_t)p * ld;
        unsigned live = live_at(&lc, p);
        for (int g = 0; g < groups; g++) {
            __m256i m = p < lc.full ? in_g[g] : lanes8(live >> (8 * g));
            __m256 x = g < whole ? _mm256_loadu_ps(row + 8 * g) : _mm256_maskload_ps(row + 8 * g, m);
            __m256 e = _mm256_and_ps(exp2_8(_mm256_sub_ps(x, max[g])), _mm256_castsi256_ps(m));
            if (g < whole)
                _mm256_storeu_ps(row + 8 * g, e);
            else
                _mm256_maskstore_ps(row + 8 * g, in_g[g], e);
            total[g] = _mm256_add_ps(total[g], e);
        }
    }
    float t[32];
    for (int g = 0; g < groups; g++)
        _mm256_storeu_ps(t + 8 * g, total[g]);
    for (int c = 0; c < width; c++) {
        sum_io[c] = sum_io[c] * rescale_io[c] + t[c];
        max_io[c] = new_max[c];
    }
}

/* All width (<= 32) columns of s down the keys at once, two vectors a
 * key, as columns_scalar. Keys before live0 + 1 are live in every column,
 * keys from live0 + width dead in every one; only those between need a
 * mask of their own, and a whole panel (width 32) none before them: its
 * rows are read and written whole (a lane past width only ever holds a
 * number nobody stores). */
AVX512 static __m512 load16(const float *at, __mmask16 lanes, int whole)
{
    return whole ? _mm512_loadu_ps(at) : _mm512_maskz_loadu_ps(lanes, at);
}

AVX512 static void store16(float *at, __mmask16 lanes, int whole, __m512 v)
{
    if (whole)
        _mm512_storeu_ps(at, v);
    else
        _mm512_mask_storeu_ps(at, lanes, v);
}

AVX512 static void columns32(float *s, int keys, int ld, int width, int live0, float *max_io, float *sum_io,
                             float *rescale_io)
{
    LiveColumns lc = live_columns(keys, width, live0);
    __mmask16 in0 = (__mmask16)lc.in, in1 = (__mmask16)(lc.in >> 16);
    int whole = width >= 32;
    __m512 max0 = _mm512_set1_ps(-INFINITY), max1 = max0;
    for (int p = 0; p < lc.full; p++) {
        const float *row = s + (size_t)p * ld;
        max0 = _mm512_max_ps(max0, load16(row, in0, whole));
        max1 = _mm512_max_ps(max1, load16(row + 16, in1, whole));
    }
    for (int p = lc.full; p < lc.last; p++) {
        const float *row = s + (size_t)p * ld;
        unsigned live = live_at(&lc, p);
        __mmask16 l0 = (__mmask16)live, l1 = (__mmask16)(live >> 16);
        max0 = _mm512_mask_max_ps(max0, l0, max0, _mm512_maskz_loadu_ps(l0, row));
        max1 = _mm512_mask_max_ps(max1, l1, max1, _mm512_maskz_loadu_ps(l1, row + 16));
    }
    /* the running max taken on past this tile's (fold_max's rule):
     * rescale = 2^(old - new), 1 where the old one is kept */
    __m512 old0 = _mm512_maskz_loadu_ps(in0, max_io), old1 = _mm512_maskz_loadu_ps(in1, max_io + 16);
    const __m512 slack = _mm512_set1_ps(ATTN_MAX_SLACK);
    max0 = _mm512_mask_mov_ps(max0, _mm512_cmp_ps_mask(max0, _mm512_add_ps(old0, slack), _CMP_LE_OQ), old0);
    max1 = _mm512_mask_mov_ps(max1, _mm512_cmp_ps_mask(max1, _mm512_add_ps(old1, slack), _CMP_LE_OQ), old1);
    __m512 resc0 = exp2_16(_mm512_sub_ps(old0, max0)), resc1 = exp2_16(_mm512_sub_ps(old1, max1));
    __m512 total0 = _mm512_setzero_ps(), total1 = total0;
    for (int p = 0; p < lc.full; p++) {
        float *row = s + (size_t)p * ld;
        __m512 e0 = exp2_16(_mm512_sub_ps(load16(row, in0, whole), max0));
        __m512 e1 = exp2_16(_mm512_sub_ps(load16(row + 16, in1, whole), max1));
        store16(row, in0, whole, e0);
        store16(row + 16, in1, whole, e1);
        total0 = _mm512_add_ps(total0, e0);
        total1 = _mm512_add_ps(total1, e1);
    }
    for (int p = lc.full; p < keys; p++) {
        float *row = s + (size_t)p * ld;
        unsigned live = live_at(&lc, p);
        __mmask16 l0 = (__mmask16)live, l1 = (__mmask16)(live >> 16);
        __m512 e0 = _mm512_maskz_mov_ps(l0, exp2_16(_mm512_sub_ps(_mm512_maskz_loadu_ps(l0, row), max0)));
        __m512 e1 = _mm512_maskz_mov_ps(l1, exp2_16(_mm512_sub_ps(_mm512_maskz_loadu_ps(l1, row + 16), max1)));
        _mm512_mask_storeu_ps(row, in0, e0);
        _mm512_mask_storeu_ps(row + 16, in1, e1);
        total0 = _mm512_add_ps(total0, e0);
        total1 = _mm512_add_ps(total1, e1);
    }
    _mm512_mask_storeu_ps(sum_io, in0, _mm512_fmadd_ps(_mm512_maskz_loadu_ps(in0, sum_io), resc0, total0));
    _mm512_mask_storeu_ps(sum_io + 16, in1, _mm512_fmadd_ps(_mm512_maskz_loadu_ps(in1, sum_io + 16), resc1, total1));
    _mm512_mask_storeu_ps(max_io, in0, max0);
    _mm512_mask_storeu_ps(max_io + 16, in1, max1);
    _mm512_mask_storeu_ps(rescale_io, in0, resc0);
    _mm512_mask_storeu_ps(rescale_io + 16, in1, resc1);
}

/* The accumulator's rows times the columns' rescales, 32 columns as two
 * vectors (the columns past width times 1). */
AVX512 static void rescale32(float *acc, int rows, int width, const float *rescale)
{
    __mmask16 in0 = (__mmask16)(width >= 16 ? 0xffff : (1u << width) - 1);
    __mmask16 in1 = (__mmask16)(width >= 32 ? 0xffff : width <= 16 ? 0 : (1u << (width - 16)) - 1);
    __m512 r0 = _mm512_mask_loadu_ps(_mm512_set1_ps(1.0f), in0, rescale);
    __m512 r1 = _mm512_mask_loadu_ps(_mm512_set1_ps(1.0f), in1, rescale + 16);
    for (int i = 0; i < rows; i++) {
        float *row = acc + (size_t)i * KG_NR;
        _mm512_storeu_ps(row, _mm512_mul_ps(_mm512_loadu_ps(row), r0));
        _mm512_storeu_ps(row + 16, _mm512_mul_ps(_mm512_loadu_ps(row + 16), r1));
    }
}

void attn_softmax_columns_isa(float *s, int keys, int ld, int width, int live0, float *max, float *sum,
                              float *rescale, AttnIsa isa)
{
    if (isa == ATTN_ISA_AVX512) {
        columns32(s, keys, ld, width, live0, max, sum, rescale);
    } else if (isa == ATTN_ISA_AVX2) {
        columns32_avx2(s, keys, ld, width, live0, max, sum, rescale);
    } else {
        columns_scalar(s, keys, ld, width, live0, max, sum, rescale);
    }
}

int attention_isa_supported(AttnIsa isa)
{
    /* libgcc fills the CPU's features in before main; reading them is cheap */
    switch (isa) {
    case ATTN_ISA_AVX512:
        return __builtin_cpu_supports("avx512f");
    case ATTN_ISA_AVX2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    default:
        return 1;
    }
}

float attn_softmax_numerators_isa(float *row, int n, AttnIsa isa)
{
    if (isa == ATTN_ISA_AVX512)
        return numerators_avx512(row, n);
    if (isa == ATTN_ISA_AVX2)
        return numerators_avx2(row, n);
    return numerators_scalar(row, n);
}

#else

int attention_isa_supported(AttnIsa isa)
{
    return isa == ATTN_ISA_SCALAR;
}

float attn_softmax_numerators_isa(float *row, int n, AttnIsa isa)
{
    (void)isa;
    return numerators_scalar(row, n);
}

void attn_softmax_columns_isa(float *s, int keys, int ld, int width, int live0, float *max, float *sum,
                              float *rescale, AttnIsa isa)
{
    (void)isa;
    columns_scalar(s, keys, ld, width, live0, max, sum, rescale);
}

#endif

void attn_rescale_columns_isa(float *acc, int rows, int width, const float *rescale, AttnIsa isa)
{
    int grew = 0;
    for (int c = 0; c < width; c++)
        grew |= rescale[c] != 1.0f;
    if (!grew)
        return;
#if defined(__x86_64__) && defined(__GNUC__)
    if (isa == ATTN_ISA_AVX512) {
        rescale32(acc, rows, width, rescale);
        return;
    }
#else
    (void)isa;
#endif
    for (int i = 0; i < rows; i++)
        for (int c = 0; c < width; c++)
            acc[(size_t)i * KG_NR + c] *= rescale[c];
}

AttnIsa attention_isa(void)
{
    return attention_isa_supported(ATTN_ISA_AVX512) ? ATTN_ISA_AVX512
         : attention_isa_supported(ATTN_ISA_AVX2) ? ATTN_ISA_AVX2 : ATTN_ISA_SCALAR;
}

const char *attention_isa_name(AttnIsa isa)
{
    return isa == ATTN_ISA_AVX512 ? "avx512" : isa == ATTN_ISA_AVX2 ? "avx2" : "scalar";
}

float attn_softmax_numerators(float *row, int n)
{
    return attn_softmax_numerators_isa(row, n, attention_isa());
}
