/*
 * attention_bf16.c - attn's BF16 product (attention_internal.h): c (m, n)
 * = a (m, k) @ B + beta c, with a in float32 rounded to BF16 as it is
 * packed, B in BF16 read from where the caller keeps it (a checkpoint's
 * mapped weights: no float32 copy is ever made), and every sum in float32.
 *
 * vdpbf16ps (AVX512_BF16) multiplies pairs: in each float lane, two BF16
 * products added to the lane's float, so the operands are laid out in
 * pairs of depth. A is packed once, for every column, into tiles of
 * BF_MR rows, each depth pair of a row one 32-bit word (the even depth in
 * its low half), pair after pair: tile t holds kp x BF_MR words. B is
 * packed a panel of KG_NR columns at a time, by whoever takes the panel,
 * into kp x KG_NR words, each the pair of one column: from B as (k, n)
 * (GPT-2's Conv1D: x @ W) two rows interleaved, from B as (n, k) (torch's
 * nn.Linear: W^T) a column's pairs already side by side, moved by 16 x 16
 * transposes of words. The micro-kernel keeps a tile of C of BF_MR x
 * KG_NR in 24 registers, as attn's float32 kernel does, and does twice
 * its multiply-adds in each instruction.
 *
 * The portable kernel is the reference beside it, on the same packing: it
 * adds the odd product then the even one to the lane's float, each sum
 * rounded once, as the instruction does (its products of two BF16 are
 * exact in float32), so the two differ only where the hardware flushes a
 * denormal to zero.
 */
#include "attention_internal.h"
#include "attention_linear.h"

#include <string.h>

/* Depth pairs per pass: a panel's slice of B is kp x 32 words, 64 KB at
 * 512 pairs (1024 of depth: a model of width 768 in one pass), in L2 with
 * the tile of A it meets (24 KB). */
#define BF_KP 512

uint16_t attention_bf16_of(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u)        /* NaN: stays one, quiet */
        return (uint16_t)((u >> 16) | 0x40);
    u += 0x7fffu + ((u >> 16) & 1u);            /* to nearest, ties to even */
    return (uint16_t)(u >> 16);
}

float attention_f32_of_bf16(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

static uint32_t pair_of(uint16_t lo, uint16_t hi) { return (uint32_t)lo | (uint32_t)hi << 16; }

size_t attn_bf16_packed_a_words(int m, int k)
{
    return (size_t)((m + BF_MR - 1) / BF_MR) * BF_MR * (size_t)((k + 1) / 2);
}

/* Panels of B packed at a time: a worker's 4 x 64 KB, in L2. */
#define BF_PANELS 4

size_t attn_bf16_panel_words(void) { return (size_t)BF_PANELS * BF_KP * KG_NR; }

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define BF16_TARGET __attribute__((target("avx512f,avx512bw,avx512bf16")))

/* 32 floats of a row (mv of them, zeros after) as 16 words of BF16 pairs,
 * rounded to nearest even as attention_bf16_of rounds. */
BF16_TARGET static __m512i row_pairs16(const float *src, int mv)
{
    __mmask16 m0 = mv >= 16 ? 0xffff : (__mmask16)((1u << mv) - 1);
    __mmask16 m1 = mv >= 32 ? 0xffff : mv <= 16 ? 0 : (__mmask16)((1u << (mv - 16)) - 1);
    __m512 lo = _mm512_maskz_loadu_ps(m0, src), hi = _mm512_maskz_loadu_ps(m1, src + 16);
    return (__m512i)_mm512_cvtne2ps_pbh(hi, lo);
}
#endif

/* Rows [0, rows) of a (at lda), depth [0, k), into tiles of BF_MR rows of
 * kp = (k + 1) / 2 words (zeros past the last row and the last depth). */
static void pack_a_portable(uint32_t *dst, const float *a, int lda, int rows, int k)
{
    int kp = (k + 1) / 2;
    for (int t = 0; t < rows; t += BF_MR, dst += (size_t)BF_MR * kp)
        for (int p = 0; p < kp; p++)
            for (int i = 0; i < BF_MR; i++) {
                const float *row = a + (size_t)(t + i) * lda;
                int live = t + i < rows;
                uint16_t lo = live ? attention_bf16_of(row[2 * p]) : 0;
                uint16_t hi = live && 2 * p + 1 < k ? attention_bf16_of(row[2 * p + 1]) : 0;
                dst[(size_t)p * BF_MR + i] = pair_of(lo, hi);
            }
}

#if defined(__x86_64__) && defined(__GNUC__)
/* pack_a_portable's tiles, each row's pairs 16 at a time by vcvtne2ps2bf16,
 * then 16 rows x 16 words turned into a tile's 16 pairs of its rows. */
BF16_TARGET static void pack_a_avx512(uint32_t *dst, const float *a, int lda, int rows, int k)
{
    int kp = (k + 1) / 2;
    uint32_t rows16[16 * 16];
    for (int t = 0; t < rows; t += BF_MR, dst += (size_t)BF_MR * kp) {
        int mv = rows - t < BF_MR ? rows - t : BF_MR;
        for (int p0 = 0; p0 < kp; p0 += 16) {
            int words = kp - p0 < 16 ? kp - p0 : 16;
            for (int i = 0; i < BF_MR; i++)
                _mm512_storeu_si512(rows16 + 16 * i, i < mv ? row_pairs16(a + (size_t)(t + i) * lda + 2 * p0,
                                                                          k - 2 * p0)
                                                            : _mm512_setzero_si512());
            kg_transpose((float *)(dst + (size_t)p0 * BF_MR), BF_MR, (const float *)rows16, 16, BF_MR, words, NULL);
        }
    }
}
#endif

void attn_bf16_pack_a(AttnIsa isa, uint32_t *dst, const float *a, int lda, int rows, int k)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (isa == ATTN_ISA_AVX512) {
        pack_a_avx512(dst, a, lda, rows, k);
        return;
    }
#else
    (void)isa;
#endif
    pack_a_portable(dst, a, lda, rows, k);
}

#if defined(__x86_64__) && defined(__GNUC__)
/* B as (k, n): rows d and d + 1 of w (<= 32) columns interleaved into 32
 * words, two vectors of 16 (vpermt2w); row k, past the last, as zeros. */
BF16_TARGET static void pack_b_rows_avx512(uint32_t *dst, const uint16_t *b, int ldb, int p0, int kp, int k, int c0,
                                           int w)
{
    __mmask32 cols = w >= 32 ? 0xffffffffu : (__mmask32)((1u << w) - 1);
    const __m512i lo = _mm512_set_epi16(47, 15, 46, 14, 45, 13, 44, 12, 43, 11, 42, 10, 41, 9, 40, 8, 39, 7, 38, 6,
                                        37, 5, 36, 4, 35, 3, 34, 2, 33, 1, 32, 0);
    const __m512i hi = _mm512_add_epi16(lo, _mm512_set1_epi16(16));
    for (int p = 0; p < kp; p++) {
        int d0 = 2 * (p0 + p);
        __m512i r0 = _mm512_maskz_loadu_epi16(cols, b + (size_t)d0 * ldb + c0);
        __m512i r1 = d0 + 1 < k ? _mm512_maskz_loadu_epi16(cols, b + (size_t)(d0 + 1) * ldb + c0)
                                : _mm512_setzero_si512();
        _mm512_storeu_si512(dst + (size_t)p * KG_NR, _mm512_permutex2var_epi16(r0, lo, r1));
        _mm512_storeu_si512(dst + (size_t)p * KG_NR + 16, _mm512_permutex2var_epi16(r0, hi, r1));
    }
}
#endif

void attn_bf16_pack_b(uint32_t *dst, const uint16_t *b, int ldb, int trans, int p0, int kp, int k, int c0, int w)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (!trans && attention_bf16_supported()) {
        pack_b_rows_avx512(dst, b, ldb, p0, kp, k, c0, w);
        return;
    }
#endif
    int words_in_place = trans && ldb % 2 == 0 && ((uintptr_t)b & 3u) == 0;
    if (words_in_place && 2 * (p0 + kp) <= k) {
        /* B^T given, (n, k): column c's pairs are words of its row */
        kg_transpose((float *)dst, KG_NR, (const float *)(b + (size_t)c0 * ldb + 2 * (size_t)p0), ldb / 2, w, kp,
                     NULL);
        for (int p = 0; p < kp && w < KG_NR; p++)
            memset(dst + (size_t)p * KG_NR + w, 0, (size_t)(KG_NR - w) * sizeof *dst);
        return;
    }
    for (int p = 0; p < kp; p++) {
        int d0 = 2 * (p0 + p), d1 = d0 + 1;
        uint32_t *row = dst + (size_t)p * KG_NR;
        for (int c = 0; c < KG_NR; c++) {
            if (c >= w) {
                row[c] = 0;
                continue;
            }
            size_t col = (size_t)(c0 + c);
            uint16_t lo = trans ? b[col * ldb + d0] : b[(size_t)d0 * ldb + col];
            uint16_t hi = d1 >= k ? 0 : trans ? b[col * ldb + d1] : b[(size_t)d1 * ldb + col];
            row[c] = pair_of(lo, hi);
        }
    }
}

/* ---- the micro-kernels: c (mv, nv) at ldc = a tile @ a panel (+ beta c) ---- */

static void mk_bf16_portable(int kp, const uint32_t *a, const uint32_t *b, float *c, int ldc, int mv, int nv,
                             float beta)
{
    float acc[BF_MR][KG_NR];
    memset(acc, 0, sizeof acc);
    for (int p = 0; p < kp; p++)
        for (int i = 0; i < BF_MR; i++) {
            uint32_t x = a[(size_t)p * BF_MR + i];
            float x_lo = attention_f32_of_bf16((uint16_t)x), x_hi = attention_f32_of_bf16((uint16_t)(x >> 16));
            for (int j = 0; j < KG_NR; j++) {
                uint32_t y = b[(size_t)p * KG_NR + j];
                /* the odd product first, then the even: vdpbf16ps's order */
                acc[i][j] += x_hi * attention_f32_of_bf16((uint16_t)(y >> 16));
                acc[i][j] += x_lo * attention_f32_of_bf16((uint16_t)y);
            }
        }
    for (int i = 0; i < mv; i++)
        for (int j = 0; j < nv; j++) {
            float *cij = c + (size_t)i * ldc + j;
            *cij = beta == 0.0f ? acc[i][j] : acc[i][j] + beta * *cij;
        }
}

#if defined(__x86_64__) && defined(__GNUC__)
/* 12 x 32: 24 accumulators; per pair of depth two loads of B and twelve
 * broadcast words of A, 24 vdpbf16ps (64 flops each). */
BF16_TARGET static void mk_bf16_avx512(int kp, const uint32_t *a, const uint32_t *b, float *c, int ldc, int mv,
                                       int nv, float beta)
{
    __m512 acc0[BF_MR], acc1[BF_MR];
    _Pragma("GCC unroll 12") for (int i = 0; i < BF_MR; i++) acc0[i] = acc1[i] = _mm512_setzero_ps();
    for (int p = 0; p < kp; p++) {
        __m512bh b0 = (__m512bh)_mm512_loadu_si512(b + (size_t)p * KG_NR);
        __m512bh b1 = (__m512bh)_mm512_loadu_si512(b + (size_t)p * KG_NR + 16);
        const uint32_t *ap = a + (size_t)p * BF_MR;
        _Pragma("GCC unroll 12") for (int i = 0; i < BF_MR; i++) {
            __m512bh x = (__m512bh)_mm512_set1_epi32((int)ap[i]);
            acc0[i] = _mm512_dpbf16_ps(acc0[i], x, b0);
            acc1[i] = _mm512_dpbf16_ps(acc1[i], x, b1);
        }
    }
    __mmask16 m0 = nv >= 16 ? 0xffff : (__mmask16)((1u << nv) - 1);
    __mmask16 m1 = nv >= 32 ? 0xffff : nv <= 16 ? 0 : (__mmask16)((1u << (nv - 16)) - 1);
    __m512 vb = _mm512_set1_ps(beta);
    _Pragma("GCC unroll 12") for (int i = 0; i < BF_MR; i++) {
        if (i >= mv)
            break;
        float *ci = c + (size_t)i * ldc;
        __m512 r0 = acc0[i], r1 = acc1[i];
        if (beta != 0.0f) {
            r0 = _mm512_fmadd_ps(vb, _mm512_maskz_loadu_ps(m0, ci), r0);
            r1 = _mm512_fmadd_ps(vb, _mm512_maskz_loadu_ps(m1, ci + 16), r1);
        }
        _mm512_mask_storeu_ps(ci, m0, r0);
        _mm512_mask_storeu_ps(ci + 16, m1, r1);
    }
}
#endif

int attention_bf16_supported(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512bf16");
#else
    return 0;
#endif
}

AttnIsa attention_bf16_isa(void) { return attention_bf16_supported() ? ATTN_ISA_AVX512 : ATTN_ISA_SCALAR; }

void attn_bf16_gemm_panels(AttnIsa isa, int m, int k, const uint32_t *pa, const uint16_t *b, int ldb, int trans,
                           int c0, int n, float beta, float *c, int ldc, uint32_t *panel)
{
    void (*mk)(int, const uint32_t *, const uint32_t *, float *, int, int, int, float) = mk_bf16_portable;
#if defined(__x86_64__) && defined(__GNUC__)
    if (isa == ATTN_ISA_AVX512)
        mk = mk_bf16_avx512;
#endif
    int kp_all = (k + 1) / 2;
    if (kp_all == 0) {      /* an empty sum: c = beta c */
        for (int i = 0; i < m; i++)
            for (int j = c0; j < n; j++)
                c[(size_t)i * ldc + j] = beta == 0.0f ? 0.0f : beta * c[(size_t)i * ldc + j];
        return;
    }
    /* BF_PANELS panels packed at a time, so each tile of A, read once from
     * L3, meets all of them from L1 */
    for (int g0 = c0; g0 < n; g0 += BF_PANELS * KG_NR) {
        int g1 = n - g0 < BF_PANELS * KG_NR ? n : g0 + BF_PANELS * KG_NR, panels = (g1 - g0 + KG_NR - 1) / KG_NR;
        for (int p0 = 0; p0 < kp_all; p0 += BF_KP) {
            int kp = kp_all - p0 < BF_KP ? kp_all - p0 : BF_KP;
            for (int j = 0; j < panels; j++) {
                int j0 = g0 + j * KG_NR;
                attn_bf16_pack_b(panel + (size_t)j * kp * KG_NR, b, ldb, trans, p0, kp, k, j0,
                                 g1 - j0 < KG_NR ? g1 - j0 : KG_NR);
            }
            for (int t = 0; t < m; t += BF_MR)
                for (int j = 0; j < panels; j++) {
                    int j0 = g0 + j * KG_NR;
                    mk(kp, pa + (size_t)t * kp_all + (size_t)p0 * BF_MR, panel + (size_t)j * kp * KG_NR,
                       c + (size_t)t * ldc + j0, ldc, m - t < BF_MR ? m - t : BF_MR, g1 - j0 < KG_NR ? g1 - j0 : KG_NR,
                       p0 == 0 ? beta : 1.0f);
                }
        }
    }
}
