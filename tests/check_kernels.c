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
 * attention_core with grouped-query heads and each query's log-sum-exp. Run under ASan by `make asan` like every suite.
 * Never a speed.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "attention.h"
#include "attention_internal.h"

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
    /* packed, and (B as it is, n a multiple of a panel) read in place */
    for (int raw = 0; raw <= (!trans && n % KG_NR == 0); raw++)
    for (size_t s = 0; s < sizeof isas / sizeof *isas; s++) {
        if (!attention_isa_supported(isas[s]))
            continue;
        for (size_t i = 0; i < (size_t)m * ldc; i++)
            c[i] = c0[i];
        if (raw)
            kg_gemm_raw(isas[s], m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
        else
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
 * scores far apart (2^-80, 2^-1e30, -inf) included. After each tile its
 * numbers are 2^(x - the running max), the rescale is 2^(old max - new),
 * and after the last the sum is the whole column's. */
START_TEST(test_softmax_columns)
{
    static const int widths[] = { 1, 5, 8, 16, 17, 31, 32 };
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
                        double m = -INFINITY, total = 0;
                        for (int p = 0; p < t1 && p <= live0 + c; p++)
                            m = fmax(m, x[p * ld + c]);
                        ck_assert_msg(max[c] == (float)m, "%s width %d causal %d tile %d: max %d = %g, want %g",
                                      attention_isa_name(isas[s]), width, causal, tile, c, max[c], m);
                        double grow = exp2(before[c] - m);
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
    tcase_add_test(c, test_core_grouped_heads);
    tcase_add_test(c, test_transpose);
    tcase_add_test(c, test_unsupported_isa_refused);
    suite_add_tcase(s, c);
    return s;
}
