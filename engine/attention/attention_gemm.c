/*
 * attention_gemm.c - attn's own matrix products for the attention core
 * (attention_internal.h): c = alpha a @ B + beta c with B packed once into
 * panels of KG_NR columns, each panel row after row (k rows of KG_NR
 * floats, zero past B's last column), so the inner loop reads B straight
 * through. A is copied a band at a time into tiles of the kernel's rows,
 * column after column (a thread's own buffer), so the inner loop reads it
 * straight through too, a number at a time, broadcast: one pointer for
 * each operand, however far apart A's rows are.
 *
 * The work is tiled for the caches: depth in passes of KG_KC (512, a
 * model's whole width at d = 512, so a tile of C is read and written once:
 * the projections took 8% less time than with passes of 256, whose panel
 * slice, 32 KB, fitted L1), rows in bands of KG_MC (the band of A stays in
 * L2), and a micro-kernel keeps a tile of C in registers for a whole pass:
 *   AVX-512  12 rows x 32 columns: 24 zmm accumulators, two loads of B and
 *            twelve broadcasts of A per depth step, 24 FMAs; and 8 rows
 *            for a packed A whose rows 8 divides and 12 does not;
 *   AVX2      6 rows x 16 columns: 12 ymm accumulators (a panel is two);
 *   portable  4 rows x 32 columns in plain C: the reference the others are
 *            tested against, and the path of a CPU with neither.
 * A tile's missing rows (m not a multiple of the tile) are zeros and are
 * not stored; missing columns are zeros in the panel and not stored either
 * (AVX-512 by masked stores).
 */
#include "attention_internal.h"

#include <string.h>

#define KG_KC 512
#define KG_MC 96        /* a multiple of every kernel's rows (12, 8, 6, 4) */

size_t kg_packed_floats(int k, int n)
{
    return (size_t)((n + KG_NR - 1) / KG_NR) * KG_NR * (size_t)k;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define AVX512 __attribute__((target("avx512f")))
#define AVX512_MR 12
#define AVX512_MR_SHORT 8

/* Tiles of mr rows are the AVX-512 kernels' (12 or 8), whose packing
 * moves 16 floats at a time. */
static int avx512_tiles(int mr) { return mr == AVX512_MR || mr == AVX512_MR_SHORT; }

/* dst (cols, rows) at ldd = src (rows, cols) at lds transposed, rows and
 * cols <= 16, dst's row j times scale[j]: sixteen rows in registers
 * through the four rounds of shuffles that transpose them. Each row of
 * dst gets `lanes` (>= rows) numbers, zeros past the rows. */
AVX512 static void transpose16(float *dst, size_t ldd, const float *src, size_t lds, int rows, int cols,
                               const float *scale, int lanes)
{
    __mmask16 in = (__mmask16)((1u << cols) - 1), out = (__mmask16)((1u << lanes) - 1);
    __m512 r[16], t[16];
    _Pragma("GCC unroll 16") for (int i = 0; i < 16; i++)
        r[i] = i < rows ? _mm512_maskz_loadu_ps(in, src + (size_t)i * lds) : _mm512_setzero_ps();
    _Pragma("GCC unroll 8") for (int i = 0; i < 16; i += 2) {
        t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
    }
    _Pragma("GCC unroll 4") for (int i = 0; i < 16; i += 4) {
        r[i] = _mm512_shuffle_ps(t[i], t[i + 2], 0x44);
        r[i + 1] = _mm512_shuffle_ps(t[i], t[i + 2], 0xee);
        r[i + 2] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0x44);
        r[i + 3] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0xee);
    }
    _Pragma("GCC unroll 2") for (int i = 0; i < 16; i += 8) {
        _Pragma("GCC unroll 4") for (int j = 0; j < 4; j++) {
            t[i + j] = _mm512_shuffle_f32x4(r[i + j], r[i + j + 4], 0x88);
            t[i + j + 4] = _mm512_shuffle_f32x4(r[i + j], r[i + j + 4], 0xdd);
        }
    }
    _Pragma("GCC unroll 8") for (int j = 0; j < 8; j++) {
        r[j] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0x88);
        r[j + 8] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0xdd);
    }
    _Pragma("GCC unroll 16") for (int j = 0; j < 16; j++)
        if (j < cols)
            _mm512_mask_storeu_ps(dst + (size_t)j * ldd, out,
                                  scale ? _mm512_mul_ps(r[j], _mm512_set1_ps(scale[j])) : r[j]);
}
#endif

void kg_transpose(float *dst, int ldd, const float *src, int lds, int rows, int cols, const float *scale)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (attention_isa_supported(ATTN_ISA_AVX512)) {
        for (int i0 = 0; i0 < rows; i0 += 16) {
            int block_rows = rows - i0 < 16 ? rows - i0 : 16;
            for (int j0 = 0; j0 < cols; j0 += 16)
                transpose16(dst + (size_t)j0 * ldd + i0, (size_t)ldd, src + (size_t)i0 * lds + j0, (size_t)lds,
                            block_rows, cols - j0 < 16 ? cols - j0 : 16, scale ? scale + j0 : NULL, block_rows);
        }
        return;
    }
#endif
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < rows; i++)
            dst[(size_t)j * ldd + i] = src[(size_t)i * lds + j] * (scale ? scale[j] : 1.0f);
}

void kg_pack_b(float *dst, const float *b, int ldb, int k, int n, int trans)
{
    int panels = (n + KG_NR - 1) / KG_NR;
    for (int j = 0; j < panels; j++) {
        float *pan = dst + (size_t)j * k * KG_NR;
        int c0 = j * KG_NR, w = n - c0 < KG_NR ? n - c0 : KG_NR;
        if (trans)  /* the panel's rows are B's columns: b's rows c0.. transposed */
            kg_transpose(pan, KG_NR, b + (size_t)c0 * ldb, ldb, w, k, NULL);
        for (int p = 0; p < k; p++) {
            float *row = pan + (size_t)p * KG_NR;
            if (!trans)
                memcpy(row, b + (size_t)p * ldb + c0, (size_t)w * sizeof *row);
            for (int c = w; c < KG_NR; c++)
                row[c] = 0.0f;
        }
    }
}

/* ---- the portable kernel: 4 x 32 ---- */

#define PORT_MR 4

static void mk_portable(int k, const float *a, int mv, const float *b, int ldb, float *c, int ldc, int nv,
                        float alpha, float beta)
{
    float acc[PORT_MR][KG_NR];
    memset(acc, 0, sizeof acc);
    for (int p = 0; p < k; p++) {
        const float *bp = b + (size_t)p * ldb;
        for (int i = 0; i < PORT_MR; i++) {
            float x = a[(size_t)p * PORT_MR + i];
            for (int j = 0; j < KG_NR; j++)
                acc[i][j] += x * bp[j];
        }
    }
    for (int i = 0; i < mv; i++)
        for (int j = 0; j < nv; j++) {
            float *cij = c + (size_t)i * ldc + j;
            *cij = beta == 0.0f ? alpha * acc[i][j] : alpha * acc[i][j] + beta * *cij;
        }
}

#if defined(__x86_64__) && defined(__GNUC__)

/* ---- AVX2 + FMA: 6 x 16, a panel in two halves ---- */

#define AVX2 __attribute__((target("avx2,fma")))
#define AVX2_MR 6

AVX2 static void mk_avx2_half(int k, const float *a, int mv, const float *b, int ldb, float *c, int ldc, int nv,
                              float alpha, float beta)
{
    __m256 c00 = _mm256_setzero_ps(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00;
    __m256 c30 = c00, c31 = c00, c40 = c00, c41 = c00, c50 = c00, c51 = c00;
    for (int p = 0; p < k; p++) {
        __m256 b0 = _mm256_loadu_ps(b + (size_t)p * ldb), b1 = _mm256_loadu_ps(b + (size_t)p * ldb + 8);
        const float *ap = a + (size_t)p * AVX2_MR;
        __m256 x;
        x = _mm256_broadcast_ss(ap + 0), c00 = _mm256_fmadd_ps(x, b0, c00), c01 = _mm256_fmadd_ps(x, b1, c01);
        x = _mm256_broadcast_ss(ap + 1), c10 = _mm256_fmadd_ps(x, b0, c10), c11 = _mm256_fmadd_ps(x, b1, c11);
        x = _mm256_broadcast_ss(ap + 2), c20 = _mm256_fmadd_ps(x, b0, c20), c21 = _mm256_fmadd_ps(x, b1, c21);
        x = _mm256_broadcast_ss(ap + 3), c30 = _mm256_fmadd_ps(x, b0, c30), c31 = _mm256_fmadd_ps(x, b1, c31);
        x = _mm256_broadcast_ss(ap + 4), c40 = _mm256_fmadd_ps(x, b0, c40), c41 = _mm256_fmadd_ps(x, b1, c41);
        x = _mm256_broadcast_ss(ap + 5), c50 = _mm256_fmadd_ps(x, b0, c50), c51 = _mm256_fmadd_ps(x, b1, c51);
    }
    __m256 acc[AVX2_MR][2] = { { c00, c01 }, { c10, c11 }, { c20, c21 }, { c30, c31 }, { c40, c41 }, { c50, c51 } };
    __m256 va = _mm256_set1_ps(alpha), vb = _mm256_set1_ps(beta);
    for (int i = 0; i < mv; i++) {
        float *ci = c + (size_t)i * ldc;
        for (int h = 0; h < 2; h++) {
            if (nv >= 8 * (h + 1)) {
                __m256 r = _mm256_mul_ps(va, acc[i][h]);
                if (beta != 0.0f)
                    r = _mm256_fmadd_ps(vb, _mm256_loadu_ps(ci + 8 * h), r);
                _mm256_storeu_ps(ci + 8 * h, r);
            } else if (nv > 8 * h) {
                float t[8];
                _mm256_storeu_ps(t, acc[i][h]);
                for (int j = 8 * h; j < nv; j++)
                    ci[j] = beta == 0.0f ? alpha * t[j - 8 * h] : alpha * t[j - 8 * h] + beta * ci[j];
            }
        }
    }
}

AVX2 static void mk_avx2(int k, const float *a, int mv, const float *b, int ldb, float *c, int ldc, int nv,
                         float alpha, float beta)
{
    mk_avx2_half(k, a, mv, b, ldb, c, ldc, nv < 16 ? nv : 16, alpha, beta);
    if (nv > 16)
        mk_avx2_half(k, a, mv, b + 16, ldb, c + 16, ldc, nv - 16, alpha, beta);
}

/* ---- AVX-512: 12 x 32, and 8 x 32 for A of 8k rows (a head's 64) ---- */

/* The body of both AVX-512 kernels, mr a constant: every loop over the
 * rows is unrolled, so the accumulators stay in registers through the
 * stores too (a loop over mv would index them, and put them in memory). */
#define MK512_BODY(mr, prefetch)                                                                                \
    __m512 acc0[mr], acc1[mr];                                                                                  \
    _Pragma("GCC unroll 12") for (int i = 0; i < (mr); i++) acc0[i] = acc1[i] = _mm512_setzero_ps();            \
    for (int p = 0; p < k; p++) {                                                                               \
        __m512 b0 = _mm512_loadu_ps(b + (size_t)p * ldb), b1 = _mm512_loadu_ps(b + (size_t)p * ldb + 16);       \
        if (prefetch) {                                                                                         \
            _mm_prefetch((const char *)(b + (size_t)(p + 16) * ldb), _MM_HINT_T0);                               \
            _mm_prefetch((const char *)(b + (size_t)(p + 16) * ldb + 16), _MM_HINT_T0);                          \
        }                                                                                                       \
        const float *ap = a + (size_t)p * (mr);                                                                 \
        _Pragma("GCC unroll 12") for (int i = 0; i < (mr); i++) {                                               \
            __m512 x = _mm512_set1_ps(ap[i]);                                                                   \
            acc0[i] = _mm512_fmadd_ps(x, b0, acc0[i]);                                                          \
            acc1[i] = _mm512_fmadd_ps(x, b1, acc1[i]);                                                          \
        }                                                                                                       \
    }                                                                                                           \
    __m512 va = _mm512_set1_ps(alpha), vb = _mm512_set1_ps(beta);                                               \
    __mmask16 m0 = nv >= 16 ? 0xffff : (__mmask16)((1u << nv) - 1);                                             \
    __mmask16 m1 = nv >= 32 ? 0xffff : nv <= 16 ? 0 : (__mmask16)((1u << (nv - 16)) - 1);                      \
    _Pragma("GCC unroll 12") for (int i = 0; i < (mr); i++) {                                                   \
        if (i >= mv)                                                                                            \
            break;                                                                                              \
        float *ci = c + (size_t)i * ldc;                                                                        \
        __m512 r0 = _mm512_mul_ps(va, acc0[i]), r1 = _mm512_mul_ps(va, acc1[i]);                                \
        if (beta != 0.0f) {                                                                                     \
            r0 = _mm512_fmadd_ps(vb, _mm512_maskz_loadu_ps(m0, ci), r0);                                        \
            r1 = _mm512_fmadd_ps(vb, _mm512_maskz_loadu_ps(m1, ci + 16), r1);                                   \
        }                                                                                                       \
        _mm512_mask_storeu_ps(ci, m0, r0);                                                                      \
        _mm512_mask_storeu_ps(ci + 16, m1, r1);                                                                 \
    }

AVX512 static void mk_avx512(int k, const float *a, int mv, const float *b, int ldb, float *c, int ldc, int nv,
                             float alpha, float beta)
{
    MK512_BODY(AVX512_MR, 0)
}

AVX512 static void mk_avx512_short(int k, const float *a, int mv, const float *b, int ldb, float *c, int ldc,
                                   int nv, float alpha, float beta)
{
    MK512_BODY(AVX512_MR_SHORT, 0)
}

/* The 12-row kernel for B read in place, its rows ldb apart: each row
 * prefetched sixteen depth steps ahead (a model's weights d floats apart
 * had cost the projections at n = 512 a sixth more time than a packed
 * copy; on packed panels the prefetch cost the core 2%, so only here). */
AVX512 static void mk_avx512_in_place(int k, const float *a, int mv, const float *b, int ldb, float *c, int ldc,
                                      int nv, float alpha, float beta)
{
    MK512_BODY(AVX512_MR, 1)
}

#endif

/* c (mv, nv) at ldc = alpha a @ b + beta c: a a tile of depth k, b k
 * rows of a panel of KG_NR columns at ldb (KG_NR when packed). */
typedef void (*MicroKernel)(int k, const float *a, int mv, const float *b, int ldb, float *c, int ldc, int nv,
                            float alpha, float beta);

/* A's band, rows [0, rows) and columns [0, kc) at lda (or, with trans,
 * A^T given: element (i, p) at a[p * lda + i]), into tiles of mr rows:
 * tile t holds, column after column, its mr numbers (zeros past the last
 * row); tile t at dst + t * mr * pk. With the AVX-512 kernels' tiles (12
 * or 8 rows) a tile is A's rows transposed 16 columns at a time, and a
 * row of A^T goes into a tile as one masked vector. */
#if defined(__x86_64__) && defined(__GNUC__)
/* The trans case with the AVX-512 kernels' tiles, in pack_tiles' order,
 * inline (a call for each row of each tile had cost the core at n = 512
 * a tenth of its time). */
AVX512 static void rows_into_tiles512(float *dst, const float *a, int lda, int rows, int kc, int mr, int pk)
{
    __mmask16 whole = (__mmask16)((1u << mr) - 1);
    for (int p0 = 0; p0 < kc; p0 += 16)
        for (int t = 0; t < rows; t += mr) {
            __mmask16 in = rows - t < mr ? (__mmask16)((1u << (rows - t)) - 1) : whole;
            float *d = dst + (size_t)(t / mr) * mr * pk;
            for (int p = p0; p < kc && p < p0 + 16; p++)
                _mm512_mask_storeu_ps(d + (size_t)p * mr, whole, _mm512_maskz_loadu_ps(in, a + (size_t)p * lda + t));
        }
}
#endif

/* mv numbers of a row of A^T into a tile's column of mr, zeros after. */
static void row_into_tile(float *d, const float *src, int mv, int mr)
{
    memcpy(d, src, (size_t)mv * sizeof *d);
    memset(d + mv, 0, (size_t)(mr - mv) * sizeof *d);
}

static void pack_tiles(float *dst, const float *a, int lda, int rows, int kc, int mr, int pk, int trans)
{
    if (trans) {
        /* sixteen rows of A^T at a time, into every tile: A^T is read once,
         * and each tile written 16 columns on end (a tile's columns one at
         * a time, every tile in turn, were stores a power of two apart) */
#if defined(__x86_64__) && defined(__GNUC__)
        if (avx512_tiles(mr)) {
            rows_into_tiles512(dst, a, lda, rows, kc, mr, pk);
            return;
        }
#endif
        for (int p0 = 0; p0 < kc; p0 += 16)
            for (int t = 0; t < rows; t += mr)
                for (int p = p0; p < kc && p < p0 + 16; p++)
                    row_into_tile(dst + (size_t)(t / mr) * mr * pk + (size_t)p * mr, a + (size_t)p * lda + t,
                                  rows - t < mr ? rows - t : mr, mr);
        return;
    }
    for (int t = 0; t < rows; t += mr, dst += (size_t)mr * pk) {
        int mv = rows - t < mr ? rows - t : mr;
        const float *src = a + (size_t)t * lda;
#if defined(__x86_64__) && defined(__GNUC__)
        if (avx512_tiles(mr)) {
            for (int p0 = 0; p0 < kc; p0 += 16)
                transpose16(dst + (size_t)p0 * mr, (size_t)mr, src + p0, (size_t)lda, mv, kc - p0 < 16 ? kc - p0 : 16,
                            NULL, mr);
            continue;
        }
#endif
        /* written in order, each row read as a stream of its own */
        for (int p = 0; p < kc; p++) {
            float *d = dst + (size_t)p * mr;
            for (int i = 0; i < mv; i++)
                d[i] = src[(size_t)i * lda + p];
            for (int i = mv; i < mr; i++)
                d[i] = 0.0f;
        }
    }
}

/* The micro-kernel of isa and its rows (mr: 0 for the widest, else the
 * rows a packing of A was made with). */
static MicroKernel kernel_of(AttnIsa isa, int *mr)
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (isa == ATTN_ISA_AVX512 && *mr == AVX512_MR_SHORT)
        return mk_avx512_short;
    if (isa == ATTN_ISA_AVX512)
        return *mr = AVX512_MR, mk_avx512;
    if (isa == ATTN_ISA_AVX2)
        return *mr = AVX2_MR, mk_avx2;
#else
    (void)isa;
#endif
    return *mr = PORT_MR, mk_portable;
}

int kg_rows(AttnIsa isa)
{
    int mr = 0;
    kernel_of(isa, &mr);
    return mr;
}

/* The tiles a packing of A with `rows` rows is made of: the kernel's
 * widest, unless the short AVX-512 kernel leaves out more than a 32nd of
 * the rows less (a head's 64 rows are 8 tiles of 8, not 6 of 12 with 8
 * rows of zeros). */
static int rows_for(AttnIsa isa, int rows)
{
    int mr = kg_rows(isa);
#if defined(__x86_64__) && defined(__GNUC__)
    if (isa == ATTN_ISA_AVX512) {
        int pad = (mr - rows % mr) % mr, pad_short = (AVX512_MR_SHORT - rows % AVX512_MR_SHORT) % AVX512_MR_SHORT;
        if ((pad - pad_short) * 32 > rows)
            mr = AVX512_MR_SHORT;
    }
#endif
    return mr;
}

size_t kg_packed_a_floats(AttnIsa isa, int rows, int k)
{
    int mr = rows_for(isa, rows);
    return (size_t)((rows + mr - 1) / mr) * mr * (size_t)k;
}

size_t kg_packed_a_at(AttnIsa isa, int rows, int pk, int row0, int p0)
{
    int mr = rows_for(isa, rows);
    return (size_t)(row0 / mr) * mr * (size_t)pk + (size_t)p0 * mr;
}

void kg_pack_a(AttnIsa isa, float *dst, const float *a, int lda, int rows, int k, int trans)
{
    pack_tiles(dst, a, lda, rows, k, rows_for(isa, rows), k, trans);
}

/* c = alpha A @ B + beta c, A packed as tiles of depth pka, one pass of
 * depth kc from p0 (beta for the first, 1 after). B's panels start
 * panel_step floats apart and their rows row_step apart: a packing of
 * depth pk is (pk x KG_NR, KG_NR), B read where it is (KG_NR, ldb). A
 * tile of A at a time against each panel, so a tile is read once a pass
 * (the panels after the first take it from L1) and the few panels stay in
 * L2: panel by panel, a model's packed input (3 MB at 1024 x 768) was read
 * from L3 once a panel. Each tile of C is the same sums in either order. */
static void tiles_times_panels(MicroKernel mk, int mr, int m, int n, int kc, int p0, float alpha, const float *pa,
                               int pka, const float *pb, size_t panel_step, int row_step, float beta, float *c,
                               int ldc)
{
    int panels = (n + KG_NR - 1) / KG_NR;
    for (int t = 0; t < m; t += mr)
        for (int j = 0; j < panels; j++)
            mk(kc, pa + (size_t)t * pka + (size_t)p0 * mr, m - t < mr ? m - t : mr,
               pb + (size_t)j * panel_step + (size_t)p0 * row_step, row_step, c + (size_t)t * ldc + j * KG_NR, ldc,
               n - j * KG_NR < KG_NR ? n - j * KG_NR : KG_NR, alpha, beta);
}

/* c = beta c where the sum is empty (k = 0). */
static int empty_sum(int m, int n, int k, float beta, float *c, int ldc)
{
    if (m <= 0 || n <= 0)
        return 1;
    if (k > 0)
        return 0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            c[(size_t)i * ldc + j] = beta == 0.0f ? 0.0f : beta * c[(size_t)i * ldc + j];
    return 1;
}

/* c = alpha A @ B + beta c, A packed as kg_pack_a packs it (pa_rows rows,
 * depth pka), B's panels as tiles_times_panels takes them, in passes of
 * depth KG_KC; B read in place (its rows not KG_NR apart) by the kernel
 * that prefetches them. */
static void packed_times_panels(AttnIsa isa, int m, int n, int k, float alpha, const float *pa, int pa_rows, int pka,
                                const float *pb, size_t panel_step, int row_step, float beta, float *c, int ldc)
{
    int mr = rows_for(isa, pa_rows);
    MicroKernel mk = kernel_of(isa, &mr);
#if defined(__x86_64__) && defined(__GNUC__)
    if (mk == mk_avx512 && row_step != KG_NR)
        mk = mk_avx512_in_place;
#endif
    if (empty_sum(m, n, k, beta, c, ldc))
        return;
    for (int p0 = 0; p0 < k; p0 += KG_KC)
        tiles_times_panels(mk, mr, m, n, k - p0 < KG_KC ? k - p0 : KG_KC, p0, alpha, pa, pka, pb, panel_step, row_step,
                           p0 == 0 ? beta : 1.0f, c, ldc);
}

void kg_gemm_packed(AttnIsa isa, int m, int n, int k, float alpha, const float *pa, int pa_rows, int pka,
                    const float *pb, int pkb, float beta, float *c, int ldc)
{
    packed_times_panels(isa, m, n, k, alpha, pa, pa_rows, pka, pb, (size_t)pkb * KG_NR, KG_NR, beta, c, ldc);
}

void kg_pack_a_part(AttnIsa isa, float *dst, const float *a, int lda, int pa_rows, int row0, int rows, int k)
{
    int mr = rows_for(isa, pa_rows);
    pack_tiles(dst + (size_t)(row0 / mr) * mr * k, a + (size_t)row0 * lda, lda, rows, k, mr, k, 0);
}

void kg_gemm_packed_raw(AttnIsa isa, int m, int n, int k, float alpha, const float *pa, int pa_rows, int pka,
                        const float *b, int ldb, float beta, float *c, int ldc)
{
    packed_times_panels(isa, m, n, k, alpha, pa, pa_rows, pka, b, KG_NR, ldb, beta, c, ldc);
}

/* Each thread's band of A, packed (KG_MC x KG_KC floats: 192 KB). */
static _Thread_local float a_band[KG_MC * KG_KC];

/* c = alpha a @ B + beta c, a band of A packed at a time against B's
 * packed panels. */
void kg_gemm(AttnIsa isa, int m, int n, int k, float alpha, const float *a, int lda, const float *pb, int pk,
             float beta, float *c, int ldc)
{
    int mr = 0;
    MicroKernel mk = kernel_of(isa, &mr);
    if (empty_sum(m, n, k, beta, c, ldc))
        return;
    for (int p0 = 0; p0 < k; p0 += KG_KC) {
        int kc = k - p0 < KG_KC ? k - p0 : KG_KC;
        for (int i0 = 0; i0 < m; i0 += KG_MC) {
            int rows = m - i0 < KG_MC ? m - i0 : KG_MC;
            /* the band as tiles of depth kc, read from column 0 of the pass */
            pack_tiles(a_band, a + (size_t)i0 * lda + p0, lda, rows, kc, mr, kc, 0);
            tiles_times_panels(mk, mr, rows, n, kc, 0, alpha, a_band, kc, pb + (size_t)p0 * KG_NR,
                               (size_t)pk * KG_NR, KG_NR, p0 == 0 ? beta : 1.0f, c + (size_t)i0 * ldc, ldc);
        }
    }
}

