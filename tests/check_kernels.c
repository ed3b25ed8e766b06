/*
 * check_kernels.c - attn's own kernels for the attention core
 * (engine/attention/attention_gemm.c), each instruction set the CPU has
 * (portable C, AVX2, AVX-512): the packed product against a double
 * reference on odd shapes (rows, columns and depth not multiples of any
 * tile, 1 included, depth past one pass of 512; B packed as it is and
 * transposed, and read in place; beta 0, 1 and 0.5),
 * then the whole forward pass on attn's kernels against attention_ref for
 * heads of width 1, 7, 16, 64, 96 and 128, n not a multiple of the block,
 * causal and not, one worker and two: max error within 1e-5 of the scale
 * of what is computed; the online softmax over two tiles of keys; and
 * attention_core with grouped-query heads and each query's log-sum-exp; the
 * phases a pass tells its observer of. Run under ASan by `make asan` like every suite.
 * Never a speed.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "attention.h"
#include "attention_internal.h"
#include "attention_linear.h"
#include "model_internal.h"

static uint32_t seed = 77u;

static float rnd(void)
{
    seed = seed * 1664525u + 1013904223u;
    return (float)((seed >> 8) / 16777216.0 * 2.0 - 1.0);
}

static float *random_buf(size_t n, float scale)
{
    float *p = malloc((n ? n : 1) * sizeof *p);
    ck_assert_ptr_nonnull(p);
    for (size_t i = 0; i < n; i++)
        p[i] = scale * rnd();
    return p;
}

static const AttnIsa isas[] = { ATTN_ISA_SCALAR, ATTN_ISA_AVX2, ATTN_ISA_AVX512 };

/* c = alpha a @ B + beta c on one shape, every kernel the CPU has, against
 * double sums: each cell within 1e-5 of the sum of the magnitudes it adds. */
static void expect_gemm(int m, int n, int k, int trans, float alpha, float beta)
{
    int lda = k + 3, ldb = trans ? k + 2 : n + 5, ldc = n + 1;
    float *a = random_buf((size_t)m * lda, 1.0f);
    float *b = random_buf((size_t)(trans ? n : k) * ldb, 1.0f);
    float *c0 = random_buf((size_t)m * ldc, 1.0f);
    float *pb = malloc(kg_packed_floats(k, n) * sizeof *pb), *c = malloc((size_t)m * ldc * sizeof *c);
    ck_assert(pb && c);
    kg_pack_b(pb, b, ldb, k, n, trans);
    /* packed, and (B as it is, n a multiple of a panel) read in place
     * against A packed once in two parts (the rows from 24 on apart) */
    for (int raw = 0; raw <= (!trans && n % KG_NR == 0); raw++)
    for (size_t s = 0; s < sizeof isas / sizeof *isas; s++) {
        if (!attention_isa_supported(isas[s]))
            continue;
        for (size_t i = 0; i < (size_t)m * ldc; i++)
            c[i] = c0[i];
        if (raw) {
            float *pa = malloc(kg_packed_a_floats(isas[s], m, k) * sizeof *pa);
            ck_assert_ptr_nonnull(pa);
            int split = m > 24 ? 24 : m;
            kg_pack_a_part(isas[s], pa, a, lda, m, 0, split, k);
            if (m > split)
                kg_pack_a_part(isas[s], pa, a, lda, m, split, m - split, k);
            kg_gemm_packed_raw(isas[s], m, n, k, alpha, pa, m, k, b, ldb, beta, c, ldc);
            free(pa);
        } else
            kg_gemm(isas[s], m, n, k, alpha, a, lda, pb, k, beta, c, ldc);
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < n; j++) {
                double want = 0, mag = 0;
                for (int p = 0; p < k; p++) {
                    double x = a[(size_t)i * lda + p], y = trans ? b[(size_t)j * ldb + p] : b[(size_t)p * ldb + j];
                    want += x * y;
                    mag += fabs(x * y);
                }
                double cin = beta == 0.0f ? 0.0 : (double)beta * c0[(size_t)i * ldc + j];
                want = alpha * want + cin;
                mag = fabs(alpha) * mag + fabs(cin);
                double got = c[(size_t)i * ldc + j];
                ck_assert_msg(fabs(got - want) <= 1e-5 * (mag > 1e-30 ? mag : 1.0),
                              "%s raw=%d m=%d n=%d k=%d trans=%d alpha=%g beta=%g: c[%d,%d] = %.9g, want %.9g",
                              attention_isa_name(isas[s]), raw, m, n, k, trans, alpha, beta, i, j, got, want);
            }
            /* the padding past n is never written */
            ck_assert_float_eq(c[(size_t)i * ldc + n], c0[(size_t)i * ldc + n]);
        }
    }
    free(a);
    free(b);
    free(c0);
    free(pb);
    free(c);
}

START_TEST(test_gemm_odd_shapes)
{
    static const int ms[] = { 1, 5, 12, 13, 25, 97 }, ns[] = { 1, 7, 16, 31, 32, 33, 64, 70 };
    static const int ks[] = { 1, 7, 64, 255, 256, 300, 600 };
    for (size_t i = 0; i < sizeof ms / sizeof *ms; i++)
        for (size_t j = 0; j < sizeof ns / sizeof *ns; j++)
            for (size_t p = 0; p < sizeof ks / sizeof *ks; p++)
                expect_gemm(ms[i], ns[j], ks[p], (int)((i + j + p) % 2), (i % 3) ? 1.0f : 0.125f,
                            p % 3 == 0 ? 0.0f : p % 3 == 1 ? 1.0f : 0.5f);
}
END_TEST

/* The transpose (the packing of Q^T and the weighted sum's way out) on
 * odd shapes, with and without a scale per row of the result, and never
 * past its block of dst. */
START_TEST(test_transpose)
{
    static const int sizes[] = { 1, 5, 15, 16, 17, 32, 33, 64 };
    for (size_t a = 0; a < sizeof sizes / sizeof *sizes; a++)
        for (size_t b = 0; b < sizeof sizes / sizeof *sizes; b++) {
            int rows = sizes[a], cols = sizes[b], lds = cols + 3, ldd = rows + 2;
            float *src = random_buf((size_t)rows * lds, 1.0f), *scale = random_buf((size_t)cols, 2.0f);
            float *dst = random_buf((size_t)cols * ldd, 1.0f), *before = malloc((size_t)cols * ldd * sizeof *before);
            ck_assert_ptr_nonnull(before);
            for (int scaled = 0; scaled <= 1; scaled++) {
                memcpy(before, dst, (size_t)cols * ldd * sizeof *dst);
                kg_transpose(dst, ldd, src, lds, rows, cols, scaled ? scale : NULL);
                for (int j = 0; j < cols; j++)
                    for (int i = 0; i < ldd; i++) {
                        float want = i < rows ? src[(size_t)i * lds + j] * (scaled ? scale[j] : 1.0f)
                                              : before[(size_t)j * ldd + i];
                        ck_assert_msg(dst[(size_t)j * ldd + i] == want, "%dx%d scaled %d: [%d,%d] = %g, want %g",
                                      rows, cols, scaled, j, i, dst[(size_t)j * ldd + i], want);
                    }
            }
            free(src);
            free(scale);
            free(dst);
            free(before);
        }
}
END_TEST

/* The whole forward pass on attn's kernels at isa against the reference. */
static void expect_forward(int n, int dk, int heads, int causal, int threads, AttnIsa isa)
{
    int d = dk * heads;
    size_t nd = (size_t)n * d;
    float *x = random_buf(nd, 1.0f), *w[8];
    for (int i = 0; i < 4; i++)
        w[i] = random_buf((size_t)d * d, 2.0f / sqrtf((float)d));
    for (int i = 4; i < 8; i++)
        w[i] = random_buf((size_t)d, 0.5f);
    AttnWeights aw = { w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7] };
    AttnConfig cfg = { n, d, heads, causal, 0, threads, ATTN_PAR_POOL, ATTN_KERNELS_OWN, isa };
    float *got = malloc(nd * sizeof *got), *want = malloc(nd * sizeof *want);
    AttnError err;
    ck_assert_int_eq(attention_ref(want, x, &aw, &cfg, &err), ATTN_OK);
    ck_assert_msg(attention_forward(got, x, &aw, &cfg, &err) == ATTN_OK, "%s", err.msg);
    double scale = 0, diff = 0;
    size_t at = 0;
    for (size_t i = 0; i < nd; i++) {
        scale = fmax(scale, fabs(want[i]));
        double e = fabs((double)got[i] - want[i]);
        if (!(e <= diff))
            diff = e, at = i;
    }
    ck_assert_msg(diff <= 1e-5 * scale, "%s n=%d dk=%d heads=%d causal=%d threads=%d: max error %g of %g (%.2e) at "
                  "[%zu,%zu]", attention_isa_name(isa), n, dk, heads, causal, threads, diff, scale, diff / scale,
                  at / d, at % d);
    free(x);
    for (int i = 0; i < 8; i++)
        free(w[i]);
    free(got);
    free(want);
}

START_TEST(test_forward_on_own_kernels)
{
    /* dk, heads, n: widths of one lane, odd, a tile, and past two tiles;
     * n within one tile of keys (384), past it by one key and by many, not
     * a multiple of it (causal blocks then end inside a tile) */
    static const int shapes[][3] = { { 1, 3, 37 }, { 7, 2, 50 }, { 16, 4, 61 }, { 64, 2, 131 }, { 96, 1, 45 },
                                     { 128, 2, 77 }, { 1, 2, 777 }, { 7, 3, 385 }, { 64, 2, 1000 }, { 96, 1, 401 },
                                     { 128, 1, 800 } };
    for (size_t s = 0; s < sizeof isas / sizeof *isas; s++) {
        if (!attention_isa_supported(isas[s]))
            continue;
        for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
            for (int causal = 0; causal <= 1; causal++)
                for (int threads = 1; threads <= 2; threads++)
                    expect_forward(shapes[i][2], shapes[i][0], shapes[i][1], causal, threads, isas[s]);
    }
}
END_TEST

/* attention_core, the core alone as a model's layer calls it: grouped-query
 * heads (8 query heads reading 2 key/value heads, and 3 reading 1), strides
 * wider than the rows, n past a tile of keys and not a multiple of it,
 * causal and not: every output against double sums, within 1e-5 of the
 * largest value, and each query's log-sum-exp within 1e-5. */
static void expect_core(int n, int heads, int kv_heads, int dk, int causal)
{
    int ldq = heads * dk + 3, ldk = kv_heads * dk + 5, ldv = kv_heads * dk + 1, ldo = heads * dk + 2;
    float *q = random_buf((size_t)n * ldq, 1.0f), *k = random_buf((size_t)n * ldk, 1.0f);
    float *v = random_buf((size_t)n * ldv, 1.0f), *out = random_buf((size_t)n * ldo, 1.0f);
    float *lse = malloc((size_t)heads * n * sizeof *lse), *before = malloc((size_t)n * ldo * sizeof *before);
    double *p = malloc((size_t)n * sizeof *p);
    ck_assert(lse && before && p);
    memcpy(before, out, (size_t)n * ldo * sizeof *out);
    AttnWorkspace *ws = attention_workspace_new();
    AttnError err;
    ck_assert_int_eq(attention_core(ws, out, ldo, q, ldq, k, ldk, v, ldv, n, heads, kv_heads, dk, causal, lse, &err),
                     ATTN_OK);
    double scale = 1.0 / sqrt((double)dk), worst = 0, worst_lse = 0, largest = 0;
    for (int h = 0; h < heads; h++) {
        int g = h / (heads / kv_heads);
        for (int i = 0; i < n; i++) {
            int live = causal ? i + 1 : n;
            double max = -INFINITY, sum = 0;
            for (int j = 0; j < live; j++) {
                double dot = 0;
                for (int c = 0; c < dk; c++)
                    dot += (double)q[(size_t)i * ldq + h * dk + c] * k[(size_t)j * ldk + g * dk + c];
                p[j] = dot * scale;
                max = fmax(max, p[j]);
            }
            for (int j = 0; j < live; j++)
                sum += (p[j] = exp(p[j] - max));
            worst_lse = fmax(worst_lse, fabs(lse[(size_t)h * n + i] - (max + log(sum))));
            for (int c = 0; c < dk; c++) {
                double want = 0;
                for (int j = 0; j < live; j++)
                    want += p[j] / sum * v[(size_t)j * ldv + g * dk + c];
                largest = fmax(largest, fabs(want));
                worst = fmax(worst, fabs(out[(size_t)i * ldo + h * dk + c] - want));
            }
        }
    }
    ck_assert_msg(worst <= 1e-5 * largest, "n=%d heads=%d/%d dk=%d causal=%d: max error %g of %g", n, heads, kv_heads,
                  dk, causal, worst, largest);
    ck_assert_msg(worst_lse <= 1e-5, "n=%d heads=%d/%d: log-sum-exp off by %g", n, heads, kv_heads, worst_lse);
    /* the columns past the heads are not written */
    for (int i = 0; i < n; i++)
        for (int c = heads * dk; c < ldo; c++)
            ck_assert_float_eq(out[(size_t)i * ldo + c], before[(size_t)i * ldo + c]);
    attention_workspace_free(ws);
    free(q), free(k), free(v), free(out), free(lse), free(before), free(p);
}

START_TEST(test_core_grouped_heads)
{
    for (int causal = 0; causal <= 1; causal++) {
        expect_core(437, 8, 2, 16, causal);
        expect_core(129, 3, 1, 7, causal);
        expect_core(1, 2, 2, 64, causal);
    }
    AttnWorkspace *ws = attention_workspace_new();
    AttnError err;
    float x[4] = { 0 };
    ck_assert_int_eq(attention_core(ws, x, 2, x, 2, x, 2, x, 2, 1, 3, 2, 1, 1, NULL, &err), ATTN_E_ARG);
    ck_assert_msg(strstr(err.msg, "kv_heads=2"), "%s", err.msg);
    attention_workspace_free(ws);
}
END_TEST

/* The online softmax down columns (attn's kernels' scores are transposed,
 * in base 2), over two tiles of keys: every instruction set against double
 * sums, widths 1 to 32, causal and not, the second tile starting after the
 * block's first queries (live0 negative: columns with no live key in it),
 * scores far apart (2^-80, 2^-1e30, -inf) included. A column's reference
 * max moves only when a tile passes it by more than ATTN_MAX_SLACK (and
 * some columns here grow by less: they keep it, and their rescale is 1
 * exactly). After each tile its numbers are 2^(x - the reference max), the
 * rescale is 2^(old reference - new), and after the last the sum is the
 * whole column's. */
START_TEST(test_softmax_columns)
{
    static const int widths[] = { 1, 5, 8, 16, 17, 31, 32 };
    int kept_while_growing = 0;
    for (size_t s = 0; s < sizeof isas / sizeof *isas; s++) {
        if (!attention_isa_supported(isas[s]))
            continue;
        for (size_t w = 0; w < sizeof widths / sizeof *widths; w++)
            for (int causal = 0; causal <= 1; causal++) {
                int width = widths[w], live0 = causal ? 9 : ATTN_ALL_LIVE, keys = causal ? live0 + width : 45, ld = 32;
                int split = keys - 1 < 12 ? keys - 1 : 12;
                float *x = random_buf((size_t)keys * ld, 40.0f), *y = malloc((size_t)keys * ld * sizeof *y);
                float max[32], sum[32], rescale[32];
                x[ld] = -INFINITY;      /* a score nothing can follow: 0, not NaN */
                x[2 * ld + width - 1] = -1e30f;
                for (int i = 0; i < keys * ld; i++)
                    y[i] = x[i];
                for (int c = 0; c < 32; c++)
                    max[c] = -INFINITY, sum[c] = 0.0f;
                double before[32];
                for (int tile = 0; tile < 2; tile++) {
                    int t0 = tile ? split : 0, t1 = tile ? keys : split;
                    int tile_live0 = causal ? live0 - t0 : ATTN_ALL_LIVE;
                    attn_softmax_columns_isa(y + (size_t)t0 * ld, t1 - t0, ld, width, tile_live0, max, sum, rescale,
                                             isas[s]);
                    for (int c = 0; c < width; c++) {
                        double tile_max = -INFINITY, total = 0, old = tile ? before[c] : -INFINITY;
                        for (int p = t0; p < t1 && p <= live0 + c; p++)
                            tile_max = fmax(tile_max, x[p * ld + c]);
                        double m = tile_max > old + ATTN_MAX_SLACK ? tile_max : old;
                        ck_assert_msg(max[c] == (float)m, "%s width %d causal %d tile %d: max %d = %g, want %g",
                                      attention_isa_name(isas[s]), width, causal, tile, c, max[c], m);
                        if (tile && tile_max > old && m == old) {
                            ck_assert_msg(rescale[c] == 1.0f, "%s: rescale %d = %g, want 1 (max kept)",
                                          attention_isa_name(isas[s]), c, rescale[c]);
                            kept_while_growing++;
                        }
                        double grow = exp2(old - m);
                        if (tile)
                            ck_assert_msg(fabs(rescale[c] - grow) <= 2e-6 * fmax(1e-30, grow),
                                          "%s: rescale %d = %g, want %g", attention_isa_name(isas[s]), c, rescale[c],
                                          grow);
                        before[c] = m;
                        for (int p = 0; p < t1; p++) {
                            int live = p <= live0 + c;
                            double want = live ? exp2((double)x[p * ld + c] - m) : 0.0;
                            total += want;
                            if (p >= t0)
                                ck_assert_msg(fabs(y[p * ld + c] - want) <= 2e-6 * fmax(1.0, want),
                                              "%s width %d causal %d: [%d,%d] = %g, want %g",
                                              attention_isa_name(isas[s]), width, causal, p, c, y[p * ld + c], want);
                        }
                        ck_assert_msg(fabs(sum[c] - total) <= 1e-5 * total, "%s tile %d: sum %d = %g, want %g",
                                      attention_isa_name(isas[s]), tile, c, sum[c], total);
                    }
                }
                /* the columns past width are not touched */
                for (int p = 0; p < keys; p++)
                    for (int c = width; c < ld; c++)
                        ck_assert_float_eq(y[p * ld + c], x[p * ld + c]);
                free(x);
                free(y);
            }
    }
    ck_assert_msg(kept_while_growing > 0, "no column kept its max while a tile raised it a little");
}
END_TEST

/* The accumulator's rescale: each column times its own number, columns
 * past the width as they were, and nothing touched when every rescale is
 * 1; every instruction set alike. */
START_TEST(test_rescale_columns)
{
    for (size_t s = 0; s < sizeof isas / sizeof *isas; s++) {
        if (!attention_isa_supported(isas[s]))
            continue;
        for (int width = 1; width <= 32; width += 3) {
            float *acc = random_buf(64 * 32, 3.0f), was[64 * 32], rescale[32];
            memcpy(was, acc, sizeof was);
            for (int c = 0; c < 32; c++)
                rescale[c] = 1.0f;
            attn_rescale_columns_isa(acc, 64, width, rescale, isas[s]);
            ck_assert(memcmp(acc, was, sizeof was) == 0);
            for (int c = 0; c < 32; c++)
                rescale[c] = c == width - 1 ? 0.25f : 1.0f / (float)(c + 2);
            attn_rescale_columns_isa(acc, 64, width, rescale, isas[s]);
            for (int i = 0; i < 64; i++)
                for (int c = 0; c < 32; c++)
                    ck_assert_msg(acc[i * 32 + c] == (c < width ? was[i * 32 + c] * rescale[c] : was[i * 32 + c]),
                                  "%s width %d: [%d,%d] = %g from %g", attention_isa_name(isas[s]), width, i, c,
                                  acc[i * 32 + c], was[i * 32 + c]);
            free(acc);
        }
    }
}
END_TEST

/* GPT-2's GELU, sixteen at a time where the CPU has AVX-512 (and the tail
 * one by one), against tanh in double: each value and its tanh, over the
 * range a layer sees and far past it (where exp overflows or underflows). */
START_TEST(test_gelu_against_tanh)
{
    enum { N = 1003 };
    float x[N], out[N], th[N];
    for (int i = 0; i < N; i++)
        x[i] = -12.0f + 24.0f * (float)i / (N - 1);
    x[0] = -100.0f, x[1] = 100.0f, x[2] = 0.0f, x[N - 1] = 60.0f;
    model_gelu(out, th, x, N);
    for (int i = 0; i < N; i++) {
        double u = 0.7978845608028654 * (x[i] + 0.044715 * (double)x[i] * x[i] * x[i]), t = tanh(u);
        double want = 0.5 * x[i] * (1.0 + t);
        ck_assert_msg(fabs(th[i] - t) <= 2e-6, "tanh at %g: %.9g, want %.9g", x[i], th[i], t);
        ck_assert_msg(fabs(out[i] - want) <= 2e-6 * fmax(1.0, fabs(want)), "gelu(%g) = %.9g, want %.9g", x[i], out[i],
                      want);
    }
    /* out may be x */
    float y[N];
    memcpy(y, x, sizeof y);
    model_gelu(y, NULL, y, N);
    ck_assert(memcmp(y, out, sizeof y) == 0);
}
END_TEST

/* ---- the linear layer: float32 and BF16 weights ---- */

/* BF16 rounding: to nearest, ties to even; infinities kept, a float past
 * BF16's largest goes to infinity, a NaN stays a NaN. */
START_TEST(test_bf16_rounding)
{
    static const struct {
        uint32_t f;
        uint16_t h;
    } cases[] = {
        { 0x3f800000u, 0x3f80 },    /* 1 */
        { 0x3f808000u, 0x3f80 },    /* 1 + 2^-8: a tie, to the even 1 */
        { 0x3f818000u, 0x3f82 },    /* 1 + 3 x 2^-8: a tie, up to the even */
        { 0x3f808001u, 0x3f81 },    /* just past the tie: up */
        { 0x3f807fffu, 0x3f80 },    /* just short of it: down */
        { 0xbf818000u, 0xbf82 },    /* negative: the same by magnitude */
        { 0x7f800000u, 0x7f80 },    /* inf */
        { 0xff800000u, 0xff80 },    /* -inf */
        { 0x7f7fffffu, 0x7f80 },    /* FLT_MAX rounds to inf */
        { 0x00000000u, 0x0000 },
        { 0x80000000u, 0x8000 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        float x;
        memcpy(&x, &cases[i].f, sizeof x);
        ck_assert_msg(attention_bf16_of(x) == cases[i].h, "%08x -> %04x, want %04x", cases[i].f, attention_bf16_of(x),
                      cases[i].h);
    }
    float nan = NAN;
    ck_assert(isnan(attention_f32_of_bf16(attention_bf16_of(nan))));
    ck_assert_float_eq(attention_f32_of_bf16(0x3f80), 1.0f);
    ck_assert_float_eq(attention_f32_of_bf16(0xc040), -3.0f);
    /* the vector packing rounds as the portable one, bit for bit, on
     * random floats and on ties (low halves 0x8000) */
    if (attention_bf16_supported()) {
        int m = 29, k = 77;
        float *a = random_buf((size_t)m * k, 3.0f);
        for (int i = 0; i < m * k; i += 3) {
            uint32_t u;
            memcpy(&u, &a[i], sizeof u);
            u = (u & 0xffff0000u) | 0x8000u;
            memcpy(&a[i], &u, sizeof u);
        }
        size_t words = attn_bf16_packed_a_words(m, k);
        uint32_t *p0 = malloc(words * sizeof *p0), *p1 = malloc(words * sizeof *p1);
        ck_assert(p0 && p1);
        attn_bf16_pack_a(ATTN_ISA_SCALAR, p0, a, k, m, k);
        attn_bf16_pack_a(ATTN_ISA_AVX512, p1, a, k, m, k);
        for (size_t i = 0; i < words; i++)
            ck_assert_msg(p0[i] == p1[i], "word %zu: portable %08x, avx512 %08x", i, p0[i], p1[i]);
        free(a), free(p0), free(p1);
    }
}
END_TEST

/* y = x @ W + b through attention_linear_isa, W float32 or BF16, stored
 * (in, out) or (out, in), at every instruction set the CPU has, against
 * double sums (of the BF16-rounded operands for BF16): each cell within
 * 1e-5 of the sum of the magnitudes it adds; the columns past out never
 * written. */
static void expect_linear(int m, int in, int out, int out_major, AttnDtype dtype, int pad, const float *bias)
{
    int ld = (out_major ? in : out) + pad, ldx = in + 1, ldy = out + 2, rows = out_major ? out : in;
    float *x = random_buf((size_t)m * ldx, 1.0f), *wf = random_buf((size_t)rows * ld, 1.0f);
    float *y0 = random_buf((size_t)(m ? m : 1) * ldy, 1.0f), *y = malloc((size_t)(m ? m : 1) * ldy * sizeof *y);
    uint16_t *wh = malloc((size_t)rows * ld * sizeof *wh);
    ck_assert(y && wh);
    for (size_t i = 0; i < (size_t)rows * ld; i++)
        wh[i] = attention_bf16_of(wf[i]);
    AttnLinear w = { dtype == ATTN_DTYPE_BF16 ? (const void *)wh : (const void *)wf, dtype, in, out, ld, out_major };
    AttnWorkspace *ws = attention_workspace_new();
    for (size_t s = 0; s < sizeof isas / sizeof *isas; s++) {
        int have = dtype == ATTN_DTYPE_BF16 ? isas[s] != ATTN_ISA_AVX512 || attention_bf16_supported()
                                            : attention_isa_supported(isas[s]);
        if (!have || (dtype == ATTN_DTYPE_BF16 && isas[s] == ATTN_ISA_AVX2))
            continue;
        memcpy(y, y0, (size_t)(m ? m : 1) * ldy * sizeof *y);
        AttnError err;
        ck_assert_int_eq(attention_linear_isa(ws, y, ldy, x, ldx, m, &w, bias, isas[s], &err), ATTN_OK);
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < out; j++) {
                double want = bias ? bias[j] : 0, mag = fabs(want);
                for (int p = 0; p < in; p++) {
                    size_t at = out_major ? (size_t)j * ld + p : (size_t)p * ld + j;
                    double a = x[(size_t)i * ldx + p], b = wf[at];
                    if (dtype == ATTN_DTYPE_BF16)
                        a = attention_f32_of_bf16(attention_bf16_of((float)a)), b = attention_f32_of_bf16(wh[at]);
                    want += a * b;
                    mag += fabs(a * b);
                }
                double got = y[(size_t)i * ldy + j];
                ck_assert_msg(fabs(got - want) <= 1e-5 * (mag > 1e-30 ? mag : 1.0),
                              "%s %s m=%d in=%d out=%d out_major=%d pad=%d: y[%d,%d] = %.9g, want %.9g",
                              dtype == ATTN_DTYPE_BF16 ? "bf16" : "f32", attention_isa_name(isas[s]), m, in, out,
                              out_major, pad, i, j, got, want);
            }
            for (int j = out; j < ldy; j++)
                ck_assert_float_eq(y[(size_t)i * ldy + j], y0[(size_t)i * ldy + j]);
        }
    }
    attention_workspace_free(ws);
    free(x), free(wf), free(y0), free(y), free(wh);
}

START_TEST(test_linear_odd_shapes)
{
    static const int ms[] = { 1, 13, 25, 97 }, ins[] = { 1, 2, 7, 64, 255, 1100 }, outs[] = { 1, 33, 64, 70, 130 };
    float *bias = random_buf(200, 1.0f);
    int k = 0;
    for (size_t i = 0; i < sizeof ms / sizeof *ms; i++)
        for (size_t p = 0; p < sizeof ins / sizeof *ins; p++)
            for (size_t j = 0; j < sizeof outs / sizeof *outs; j++, k++)
                for (int dtype = 0; dtype <= 1; dtype++)
                    expect_linear(ms[i], ins[p], outs[j], k % 2, (AttnDtype)dtype, k % 3, k % 4 ? bias : NULL);
    /* a model's shape, (out, in) as torch keeps it, and (in, out) */
    expect_linear(40, 768, 96, 1, ATTN_DTYPE_BF16, 0, bias);
    expect_linear(40, 768, 96, 0, ATTN_DTYPE_BF16, 0, NULL);
    /* nothing to do, and bad shapes refused */
    expect_linear(0, 5, 7, 1, ATTN_DTYPE_BF16, 0, NULL);
    float x[4] = { 0 }, y[4];
    AttnLinear w = { x, ATTN_DTYPE_F32, 2, 2, 1, 0 };
    AttnWorkspace *ws = attention_workspace_new();
    AttnError err;
    ck_assert_int_eq(attention_linear(ws, y, 2, x, 2, 2, &w, NULL, &err), ATTN_E_ARG);
    ck_assert_msg(strstr(err.msg, "strides too short (ldx=2 ldy=2 ld=1 for 2 x 2)"), "%s", err.msg);
    if (!attention_bf16_supported()) {
        w = (AttnLinear){ x, ATTN_DTYPE_BF16, 2, 2, 2, 0 };
        ck_assert_int_eq(attention_linear_isa(ws, y, 2, x, 2, 2, &w, NULL, ATTN_ISA_AVX512, &err), ATTN_E_ARG);
        ck_assert_msg(strstr(err.msg, "no AVX512_BF16"), "%s", err.msg);
    }
    ck_assert_str_eq(attention_linear_path(ATTN_DTYPE_BF16), attention_bf16_supported() ? "avx512_bf16" : "portable");
    attention_workspace_free(ws);
    free(bias);
}
END_TEST

/* The phases a pass tells its workspace's observer of, in the order
 * they ran, each begun and ended once (what `attn bench --phases` times). */
typedef struct {
    int order[32], count, open;
} PhaseLog;

static void log_phase(void *ctx, AttnPhase phase, int done)
{
    PhaseLog *log = ctx;
    if (!done) {
        ck_assert_int_eq(log->open, -1);    /* phases do not nest */
        ck_assert_int_lt(log->count, 32);
        log->order[log->count++] = phase;
        log->open = phase;
    } else {
        ck_assert_int_eq(log->open, (int)phase);
        log->open = -1;
    }
}

static void expect_phases(AttnWorkspace *ws, const PhaseLog *log, const AttnPhase *want, int count)
{
    (void)ws;
    ck_assert_int_eq(log->open, -1);
    ck_assert_int_eq(log->count, count);
    for (int i = 0; i < count; i++)
        ck_assert_msg(log->order[i] == (int)want[i], "phase %d: %s, want %s", i,
                      attention_phase_name((AttnPhase)log->order[i]), attention_phase_name(want[i]));
}

START_TEST(test_phases_observed)
{
    /* d a multiple of a panel: the weights read in place; 40 = 8 x 5: packed first */
    static const int widths[] = { 64, 40 };
    for (size_t s = 0; s < sizeof isas / sizeof *isas; s++) {
        if (!attention_isa_supported(isas[s]))
            continue;
        for (size_t i = 0; i < 2; i++) {
            int n = 70, d = widths[i];
            float *x = random_buf((size_t)n * d, 1.0f), *wt = random_buf((size_t)d * d, 0.1f);
            float *out = malloc((size_t)n * d * sizeof *out);
            AttnWeights w = { wt, wt, wt, wt, NULL, NULL, NULL, NULL };
            AttnConfig cfg = { n, d, 4, 1, 0, 2, ATTN_PAR_POOL, ATTN_KERNELS_OWN, isas[s] };
            AttnWorkspace *ws = attention_workspace_new();
            PhaseLog log = { .open = -1 };
            attention_workspace_observe(ws, log_phase, &log);
            AttnError err;
            ck_assert_int_eq(attention_forward_in(ws, out, x, &w, &cfg, &err), ATTN_OK);
            AttnPhase all[] = { ATTN_PHASE_PACK_WEIGHTS, ATTN_PHASE_PROJECT_IN, ATTN_PHASE_PACK_KV, ATTN_PHASE_CORE,
                                ATTN_PHASE_PROJECT_OUT };
            int packed = d % KG_NR != 0;
            expect_phases(ws, &log, all + !packed, 5 - !packed);
            /* the core alone: K and V packed, then the core */
            log = (PhaseLog){ .open = -1 };
            ck_assert_int_eq(attention_core(ws, out, d, x, d, x, d, x, d, n, 4, 2, d / 4, 0, NULL, &err), ATTN_OK);
            expect_phases(ws, &log, all + 2, 2);
            /* nobody told once the observer is taken away */
            attention_workspace_observe(ws, NULL, NULL);
            log = (PhaseLog){ .open = -1 };
            ck_assert_int_eq(attention_forward_in(ws, out, x, &w, &cfg, &err), ATTN_OK);
            ck_assert_int_eq(log.count, 0);
            /* the phases' flops add up to the pass's: 6nd^2 in, 2nd^2 out, the scores between */
            double sum = 0;
            for (int p = 0; p < ATTN_PHASES; p++)
                sum += attention_phase_flops(&cfg, (AttnPhase)p);
            ck_assert_double_eq_tol(sum, attention_flops(&cfg), 1e-6 * attention_flops(&cfg));
            ck_assert_double_eq(attention_phase_flops(&cfg, ATTN_PHASE_PROJECT_IN), 6.0 * n * d * d);
            ck_assert_double_eq(attention_phase_flops(&cfg, ATTN_PHASE_PROJECT_OUT), 2.0 * n * d * d);
            ck_assert_double_eq(attention_phase_flops(&cfg, ATTN_PHASE_PACK_KV), 0.0);
            attention_workspace_free(ws);
            free(x), free(wt), free(out);
        }
    }
    ck_assert_str_eq(attention_phase_name(ATTN_PHASE_CORE), "core");
    ck_assert_str_eq(attention_phase_name(ATTN_PHASES), "?");
}
END_TEST

/* A CPU without the instruction set asked for is refused, not crashed. */
START_TEST(test_unsupported_isa_refused)
{
    for (size_t s = 0; s < sizeof isas / sizeof *isas; s++) {
        if (attention_isa_supported(isas[s]))
            continue;
        float x[4] = { 0 }, w[4] = { 0 }, out[4];
        AttnWeights aw = { w, w, w, w, NULL, NULL, NULL, NULL };
        AttnConfig cfg = { 2, 2, 1, 0, 0, 1, ATTN_PAR_POOL, ATTN_KERNELS_OWN, isas[s] };
        AttnError err;
        ck_assert_int_eq(attention_forward(out, x, &aw, &cfg, &err), ATTN_E_ARG);
        ck_assert_msg(strstr(err.msg, "this CPU has no"), "%s", err.msg);
    }
    ck_assert(attention_isa_supported(ATTN_ISA_SCALAR));
    ck_assert(attention_isa_supported(attention_isa()));
}
END_TEST

Suite *kernels_suite(void)
{
    Suite *s = suite_create("kernels");
    TCase *c = tcase_create("core");
    tcase_set_timeout(c, 300);
    tcase_add_test(c, test_gemm_odd_shapes);
    tcase_add_test(c, test_forward_on_own_kernels);
    tcase_add_test(c, test_softmax_columns);
    tcase_add_test(c, test_rescale_columns);
    tcase_add_test(c, test_gelu_against_tanh);
    tcase_add_test(c, test_core_grouped_heads);
    tcase_add_test(c, test_transpose);
    tcase_add_test(c, test_unsupported_isa_refused);
    tcase_add_test(c, test_phases_observed);
    tcase_add_test(c, test_bf16_rounding);
    tcase_add_test(c, test_linear_odd_shapes);
    suite_add_tcase(s, c);
    return s;
}
