/*
 * check_attention.c - the fused attention path (engine/attention/attention.h): against
 * its double-precision reference on random shapes (heads narrower than the
 * sequence, n not a multiple of the block, n = 1, causal, scores far past
 * exp's range, one worker and several), against the lesson language's own
 * softmax(Q K^T / sqrt(dk)) V, its refusals, and its memory at n = 8192
 * seen through the engine's allocation observer: no n x n buffer, ever.
 * `attn bench` (app/cli/bench.c): its argument errors, the JSON of a tiny
 * run and its text, a small sweep, and the text plot (bench_plot.c); never
 * its speed.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "attention.h"
#include "attention_linear.h"
#include "attention_internal.h"
#include "bench_plot.h"
#include "json_read.h"
#include "lesson.h"
#include "pool.h"
#include "testutil.h"

/* ---- helpers ------------------------------------------------------------------ */

static uint32_t lcg_state = 2024u;

static float rnd(void)
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return (float)((lcg_state >> 8) / 16777216.0 * 2.0 - 1.0);   /* [-1, 1) */
}

/* n random values times scale (malloc'd). */
static float *random_buf(size_t n, float scale)
{
    float *p = malloc(n * sizeof *p);
    ck_assert_ptr_nonnull(p);
    for (size_t i = 0; i < n; i++)
        p[i] = scale * rnd();
    return p;
}

/* Random weights for width d: W ~ U(-1, 1) / sqrt(d) * 2, biases ~ U(-0.5, 0.5). */
typedef struct {
    AttnWeights w;
    float *buf[8];
} Params;

static Params params_new(int d)
{
    Params p;
    float ws = 2.0f / sqrtf((float)d);
    for (int i = 0; i < 4; i++)
        p.buf[i] = random_buf((size_t)d * d, ws);
    for (int i = 4; i < 8; i++)
        p.buf[i] = random_buf((size_t)d, 0.5f);
    p.w = (AttnWeights){ p.buf[0], p.buf[1], p.buf[2], p.buf[3], p.buf[4], p.buf[5], p.buf[6], p.buf[7] };
    return p;
}

static void params_free(Params *p)
{
    for (int i = 0; i < 8; i++)
        free(p->buf[i]);
}

/* Largest |a - b| over n values, and where. */
static double max_diff(const float *a, const float *b, size_t n, size_t *at)
{
    double m = 0.0;
    *at = 0;
    for (size_t i = 0; i < n; i++) {
        double e = fabs((double)a[i] - (double)b[i]);
        if (e > m || isnan(e)) {
            m = isnan(e) ? INFINITY : e;
            *at = i;
        }
    }
    return m;
}

static double max_abs(const float *a, size_t n)
{
    double m = 0.0;
    for (size_t i = 0; i < n; i++)
        if (fabs(a[i]) > m)
            m = fabs(a[i]);
    return m;
}

/* The fused path against the reference on one configuration, inputs
 * x_scale times U(-1, 1). Tolerance: 2e-5 of the output's largest value. */
static void expect_matches_ref(AttnConfig cfg, float x_scale)
{
    size_t nd = (size_t)cfg.n * cfg.d;
    Params p = params_new(cfg.d);
    float *x = random_buf(nd, x_scale), *got = malloc(nd * sizeof *got), *want = malloc(nd * sizeof *want);
    AttnError err;
    ck_assert_int_eq(attention_ref(want, x, &p.w, &cfg, &err), ATTN_OK);
    ck_assert_int_eq(attention_forward(got, x, &p.w, &cfg, &err), ATTN_OK);
    size_t at;
    double diff = max_diff(got, want, nd, &at), tol = 2e-5 * (1.0 + max_abs(want, nd));
    ck_assert_msg(diff <= tol,
                  "n=%d d=%d heads=%d causal=%d block=%d threads=%d x*%g: max diff %g > %g at row %zu col %zu "
                  "(fused %g, reference %g)",
                  cfg.n, cfg.d, cfg.heads, cfg.causal, cfg.block, cfg.threads, x_scale, diff, tol, at / cfg.d,
                  at % cfg.d, got[at], want[at]);
    free(x);
    free(got);
    free(want);
    params_free(&p);
}

/* ---- against the reference -------------------------------------------------------- */

START_TEST(test_shapes_match_reference)
{
    /* n, d, heads, block: heads narrower and wider than n, n not a multiple of the block */
    static const int shapes[][4] = {
        { 37, 24, 3, 16 }, { 64, 32, 4, 16 }, { 5, 48, 2, 0 }, { 100, 20, 5, 32 }, { 33, 64, 1, 8 },
        { 130, 96, 8, 0 }, { 17, 6, 2, 4 },
    };
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (int causal = 0; causal <= 1; causal++)
            for (int threads = 1; threads <= 3; threads += 2)
                expect_matches_ref((AttnConfig){ shapes[s][0], shapes[s][1], shapes[s][2], causal, shapes[s][3],
                                                 threads, ATTN_PAR_POOL, ATTN_KERNELS_AUTO, ATTN_ISA_SCALAR },
                                   1.0f);
}
END_TEST

START_TEST(test_blas_threads_match_reference)
{
    expect_matches_ref((AttnConfig){ 45, 32, 4, 0, 16, 0, ATTN_PAR_BLAS, ATTN_KERNELS_AUTO, ATTN_ISA_SCALAR }, 1.0f);
    expect_matches_ref((AttnConfig){ 45, 32, 4, 1, 16, 0, ATTN_PAR_BLAS, ATTN_KERNELS_AUTO, ATTN_ISA_SCALAR }, 1.0f);
}
END_TEST

START_TEST(test_one_token)
{
    /* n = 1: every weight is 1, so each head returns its V row */
    expect_matches_ref((AttnConfig){ 1, 8, 2, 0, 0, 0, ATTN_PAR_POOL, ATTN_KERNELS_AUTO, ATTN_ISA_SCALAR }, 1.0f);
    expect_matches_ref((AttnConfig){ 1, 8, 2, 1, 0, 2, ATTN_PAR_POOL, ATTN_KERNELS_AUTO, ATTN_ISA_SCALAR }, 1.0f);
}
END_TEST

START_TEST(test_scores_past_exp_range)
{
    /* inputs x 1e3: scores around 1e5, where exp(score) is inf; the shift by
     * the row's max keeps every weight finite */
    expect_matches_ref((AttnConfig){ 29, 16, 2, 0, 8, 2, ATTN_PAR_POOL, ATTN_KERNELS_AUTO, ATTN_ISA_SCALAR }, 1e3f);
    expect_matches_ref((AttnConfig){ 29, 16, 2, 1, 8, 2, ATTN_PAR_POOL, ATTN_KERNELS_AUTO, ATTN_ISA_SCALAR }, 1e3f);
    expect_matches_ref((AttnConfig){ 29, 16, 2, 0, 8, 2, ATTN_PAR_POOL, ATTN_KERNELS_AUTO, ATTN_ISA_SCALAR }, 1e-3f);
}
END_TEST

START_TEST(test_causal_first_row_is_v)
{
    /* causal: token 0 sees only itself, so before Wo its row is V[0] */
    int n = 9, d = 4;
    float eye[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
    float *x = random_buf((size_t)n * d, 1.0f), out[36];
    AttnWeights w = { eye, eye, eye, eye, NULL, NULL, NULL, NULL };
    AttnError err;
    ck_assert_int_eq(attention_forward(out, x, &w, &(AttnConfig){ n, d, 2, 1, 4, 2, ATTN_PAR_POOL, ATTN_KERNELS_AUTO, ATTN_ISA_SCALAR }, &err), ATTN_OK);
    for (int c = 0; c < d; c++)
        ck_assert_float_eq_tol(out[c], x[c], 1e-6f);
    free(x);
}
END_TEST

/* ---- against the lesson language ------------------------------------------------- */

/* Two heads of width 3 over 5 tokens, written as a student would. */
static const char *lesson_fmt =
    "lesson Attention by hand\nseed 7\n"
    "let X = randn(5, 6)\n"
    "let WQ = randn(6, 6) / sqrt(6)\nlet WK = randn(6, 6) / sqrt(6)\n"
    "let WV = randn(6, 6) / sqrt(6)\nlet WO = randn(6, 6) / sqrt(6)\n"
    "let bq = randn(1, 6)\nlet bk = randn(1, 6)\nlet bv = randn(1, 6)\nlet bo = randn(1, 6)\n"
    "step Two heads\n"
    "  let Q = X @ WQ + bq\n  let K = X @ WK + bk\n  let V = X @ WV + bv\n"
    "  let M = %s\n"
    "  let A1 = softmax_rows(cols(Q, 1, 3) @ cols(K, 1, 3)^T / sqrt(3) + M)\n"
    "  let A2 = softmax_rows(cols(Q, 4, 6) @ cols(K, 4, 6)^T / sqrt(3) + M)\n"
    "  let Y = hcat(A1 @ cols(V, 1, 3), A2 @ cols(V, 4, 6)) @ WO + bo\n";

/* A named matrix of the state as a contiguous row-major buffer (static, <= 36). */
static const float *lesson_buf(const LessonState *s, const char *name, float *dst)
{
    const Mat *m = lesson_state_get(s, name);
    ck_assert_msg(m != NULL, "the lesson defines no %s", name);
    for (int i = 0; i < m->rows; i++)
        for (int j = 0; j < m->cols; j++)
            dst[i * m->cols + j] = mat_get(m, i, j);
    return dst;
}

static void expect_matches_lesson(int causal)
{
    char text[2048];
    snprintf(text, sizeof text, lesson_fmt, causal ? "causal_mask(5)" : "zeros(5, 5)");
    LessonError lerr;
    Lesson *l = lesson_parse(text, strlen(text), "attention.lesson", &lerr);
    ck_assert_msg(l != NULL, "%s", lerr.msg);
    LessonState *s = lesson_eval(l, NULL, 0, &lerr);
    ck_assert_msg(s != NULL, "%s", lerr.msg);
    float b[10][36], out[30], want[30];
    static const char *names[] = { "X", "WQ", "WK", "WV", "WO", "bq", "bk", "bv", "bo", "Y" };
    for (int i = 0; i < 10; i++)
        lesson_buf(s, names[i], b[i]);
    AttnWeights w = { b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8] };
    AttnError err;
    ck_assert_int_eq(attention_forward(out, b[0], &w, &(AttnConfig){ 5, 6, 2, causal, 2, 2, ATTN_PAR_POOL, ATTN_KERNELS_AUTO, ATTN_ISA_SCALAR }, &err),
                     ATTN_OK);
    memcpy(want, b[9], sizeof want);
    size_t at;
    double diff = max_diff(out, want, 30, &at);
    ck_assert_msg(diff < 1e-5, "causal=%d: fused differs from the lesson's Y by %g at Y[%zu,%zu] (%g, lesson %g)",
                  causal, diff, at / 6 + 1, at % 6 + 1, out[at], want[at]);
    lesson_state_free(s);
    lesson_free(l);
}

START_TEST(test_matches_lesson_language)
{
    expect_matches_lesson(0);
    expect_matches_lesson(1);
}
END_TEST

/* ---- the softmax kernels ----------------------------------------------------------- */

START_TEST(test_softmax_kernels_agree)
{
    /* every instruction set this CPU has, against exp in double, on rows of
     * every length up to 40 (the vector loops' tails) and with values far
     * below the max (underflow to 0) */
    for (int isa = ATTN_ISA_SCALAR; isa <= ATTN_ISA_AVX512; isa++) {
        if (!attention_isa_supported((AttnIsa)isa))
            continue;
        for (int n = 1; n <= 40; n++) {
            float row[40], orig[40];
            for (int j = 0; j < n; j++)
                orig[j] = row[j] = j % 7 == 3 ? -200.0f * rnd() - 150.0f : 30.0f * rnd();
            float sum = attn_softmax_numerators_isa(row, n, (AttnIsa)isa);
            double max = orig[0], want_sum = 0.0;
            for (int j = 1; j < n; j++)
                max = orig[j] > max ? orig[j] : max;
            for (int j = 0; j < n; j++) {
                double arg = (double)orig[j] - max, want = exp(arg);
                want_sum += want;
                /* a few ulp, plus the rounding of x - max in float (relative
                 * 6e-8 of the argument becomes that much of exp) */
                ck_assert_msg(fabs(row[j] - want) <= (4e-7 + 1.2e-7 * fabs(arg)) * want + 1e-37,
                              "isa %d n=%d: exp(%g - %g) = %.9g, want %.9g", isa, n, orig[j], max, row[j], want);
            }
            ck_assert_msg(fabs(sum - want_sum) <= 1e-6 * want_sum, "isa %d n=%d: sum %.9g, want %.9g", isa, n,
                          sum, want_sum);
        }
    }
    ck_assert(attention_isa_supported(ATTN_ISA_SCALAR));
}
END_TEST

/* ---- refusals ---------------------------------------------------------------------- */

START_TEST(test_bad_config_refused)
{
    float x[12] = { 0 }, w16[16] = { 0 }, out[12];
    AttnWeights w = { w16, w16, w16, w16, NULL, NULL, NULL, NULL };
    AttnError err;
    ck_assert_int_eq(attention_forward(out, x, &w, &(AttnConfig){ 3, 4, 3, 0, 0, 0, ATTN_PAR_POOL, ATTN_KERNELS_AUTO, ATTN_ISA_SCALAR }, &err),
                     ATTN_E_ARG);
    ck_assert_str_eq(err.msg, "d=4 does not split into 3 heads");
    ck_assert_int_eq(attention_ref(out, x, &w, &(AttnConfig){ 0, 4, 1, 0, 0, 0, ATTN_PAR_POOL, ATTN_KERNELS_AUTO, ATTN_ISA_SCALAR }, &err), ATTN_E_ARG);
    ck_assert_str_eq(err.msg, "attention needs n, d and heads >= 1 (got n=0 d=4 heads=1)");
    w.wv = NULL;
    ck_assert_int_eq(attention_forward(out, x, &w, &(AttnConfig){ 3, 4, 2, 0, 0, 0, ATTN_PAR_POOL, ATTN_KERNELS_AUTO, ATTN_ISA_SCALAR }, &err),
                     ATTN_E_ARG);
    ck_assert_str_eq(err.msg, "attention needs the four weight matrices");
}
END_TEST

static void count_allocs(size_t size, void *ctx)
{
    (void)size;
    ++*(long *)ctx;
}

START_TEST(test_no_memory_refused)
{
    int n = 20, d = 8;
    Params p = params_new(d);
    float *x = random_buf((size_t)n * d, 1.0f), out[160];
    AttnConfig cfg = { n, d, 2, 0, 8, 2, ATTN_PAR_POOL, ATTN_KERNELS_AUTO, ATTN_ISA_SCALAR };
    /* the workspace is one allocation */
    AttnError err0;
    attn_alloc_fail_after(0);
    attn_status st0 = attention_forward(out, x, &p.w, &cfg, &err0);
    attn_alloc_fail_after(-1);
    ck_assert_int_eq(st0, ATTN_E_NOMEM);
    ck_assert_msg(strstr(err0.msg, "no memory") != NULL, "message: %s", err0.msg);
    /* a workspace kept: the first call allocates it, the next nothing; a
     * larger case grows it, and a refused growth leaves it usable */
    AttnWorkspace *ws = attention_workspace_new();
    ck_assert_ptr_nonnull(ws);
    for (int call = 0; call < 3; call++) {
        AttnError err;
        long count = 0;
        attn_alloc_observe(count_allocs, &count);
        ck_assert_int_eq(attention_forward_in(ws, out, x, &p.w, &cfg, &err), ATTN_OK);
        attn_alloc_observe(NULL, NULL);
        ck_assert_int_eq(count, call == 0 ? 1 : 0);
    }
    AttnConfig bigger = cfg;
    bigger.block = 16;
    bigger.threads = 3;
    AttnError err;
    attn_alloc_fail_after(0);
    ck_assert_int_eq(attention_forward_in(ws, out, x, &p.w, &bigger, &err), ATTN_E_NOMEM);
    attn_alloc_fail_after(-1);
    ck_assert_int_eq(attention_forward_in(ws, out, x, &p.w, &cfg, &err), ATTN_OK);
    attention_workspace_free(ws);
    attn_alloc_fail_after(0);
    attn_status st = attention_ref(out, x, &p.w, &cfg, &err);
    attn_alloc_fail_after(-1);
    ck_assert_int_eq(st, ATTN_E_NOMEM);
    free(x);
    params_free(&p);
}
END_TEST

/* ---- memory ------------------------------------------------------------------------ */

typedef struct {
    size_t largest, total;
    long count;
} AllocSeen;

static void observe(size_t size, void *ctx)
{
    AllocSeen *seen = ctx;
    if (size > seen->largest)
        seen->largest = size;
    seen->total += size;
    seen->count++;
}

START_TEST(test_memory_at_8192)
{
    /* n = 8192, d = 64, one head: the n x n scores alone would be 256 MB */
    int n = 8192, d = 64;
    size_t nd = (size_t)n * d, nn_bytes = (size_t)n * n * sizeof(float);
    Params p = params_new(d);
    float *x = random_buf(nd, 1.0f), *outs[2] = { malloc(nd * sizeof(float)), malloc(nd * sizeof(float)) };
    AttnConfig cfg = { n, d, 1, 0, 0, 2, ATTN_PAR_POOL, ATTN_KERNELS_AUTO, ATTN_ISA_SCALAR };
    for (int causal = 0; causal <= 1; causal++) {
        float *out = outs[causal];
        cfg.causal = causal;
        AllocSeen seen = { 0, 0, 0 };
        AttnError err;
        attn_alloc_observe(observe, &seen);
        attn_status st = attention_forward(out, x, &p.w, &cfg, &err);
        attn_alloc_observe(NULL, NULL);
        ck_assert_int_eq(st, ATTN_OK);
        ck_assert_msg(seen.count > 0, "attention_forward allocated nothing through alloc.h");
        ck_assert_msg(seen.largest < nn_bytes, "largest allocation %zu bytes, n x n is %zu", seen.largest, nn_bytes);
        ck_assert_msg(seen.largest < nn_bytes / 8, "largest allocation %zu bytes: more than n x n / 8",
                      seen.largest);
        ck_assert_uint_eq(seen.total, attention_extra_bytes(&cfg));
        /* everything: the inputs, the parameters, the output, the workspace */
        size_t peak = seen.total + 2 * nd * sizeof(float) + (4 * (size_t)d * d + 4 * d) * sizeof(float);
        ck_assert_msg(peak < 256u << 20, "peak %zu bytes >= 256 MB", peak);
        ck_assert_msg(isfinite(out[0]) && isfinite(out[nd - 1]), "output not finite: %g %g", out[0], out[nd - 1]);
    }
    /* the last row of the causal output sees every token: it equals the plain one's */
    for (int c = 0; c < d; c++)
        ck_assert_float_eq_tol(outs[1][nd - d + c], outs[0][nd - d + c], 1e-4f);
    free(x);
    free(outs[0]);
    free(outs[1]);
    params_free(&p);
}
END_TEST

START_TEST(test_extra_bytes_and_flops)
{
    AttnConfig cfg = { 2048, 512, 8, 0, 256, 2, ATTN_PAR_POOL, ATTN_KERNELS_BLAS, ATTN_ISA_SCALAR };
    /* qkv (n, 3d) + cat (n, d) + 2 workers x (256, n) + 2 x 256 */
    ck_assert_uint_eq(attention_extra_bytes(&cfg), (2048u * 2048 + 2u * 256 * 2048 + 512) * 4);
    /* attn's kernels (here the portable ones: tiles of 4 rows) keep a
     * worker's scores as one tile of 384 keys (n when fewer), a panel of 32
     * wide, whatever n, and a running max, sum and rescale per column for
     * each of a block's 8 panels of 32 queries; and add each head's K and
     * V^T packed (2048 x 64 each) and each panel's Q^T and O^T a worker
     * (64 x 32 each); the weights are read where they are (d = 512, a
     * multiple of 32), and a projection's input is packed once as tiles of
     * rows (2048 x 512) */
    AttnConfig own = cfg;
    own.kernels = ATTN_KERNELS_OWN;
    ck_assert_uint_eq(attention_extra_bytes(&own), (2048u * 2048 + 2u * 32 * 384 + 2u * 8 * 3 * 32
                                                    + 8u * 2 * 64 * 2048 + 2u * 8 * 2 * 64 * 32 + 2048u * 512) * 4);
    /* a head one wide: its V^T a tile of 4 rows, K's tiles 40 keys; the
     * weights packed (d = 8: not a multiple of 32) */
    own.d = 8;
    own.heads = 8;
    own.n = 40;
    own.block = 0;
    ck_assert_uint_eq(attention_extra_bytes(&own),
                      (40u * 32 + 2 * 32 * 40 + 2 * 8 * 3 * 32 + 4u * 32 * 8 + 8u * 40 + 8u * 4 * 40 + 2 * 8 * 2 * 32) * 4);
    ck_assert_double_eq_tol(attention_flops(&cfg), 8.0 * 2048 * 512 * 512 + 4.0 * 2048 * 2048 * 512, 1.0);
    cfg.causal = 1;
    /* blocks of 256: sum over b = 1..8 of 256 x 256 b scores */
    ck_assert_double_eq_tol(attention_flops(&cfg), 8.0 * 2048 * 512 * 512 + 4.0 * 256 * 256 * 36 * 512, 1.0);
    ck_assert_int_eq(attention_block(2048), 256);
    ck_assert_int_eq(attention_block(8192), 256);
    ck_assert_int_eq(attention_block(32768), 128);
    ck_assert_int_eq(attention_block(1 << 20), 32);
}
END_TEST

/* ---- attn bench -------------------------------------------------------------------- */

/* attn bench ARGS must refuse with status 2 and this message on stderr. */
static void expect_bench_refuses(const char *args, const char *message)
{
    CmdResult r = cmd_runf("%s bench %s", attn_bin(), args);
    ck_assert_msg(r.status == 2, "attn bench %s: status %d, want 2", args, r.status);
    ck_assert_msg(strstr(r.err, message) != NULL, "attn bench %s: stderr\n%s\nwants: %s", args, r.err, message);
    ck_assert_msg(strstr(r.err, "usage: attn bench") != NULL, "no usage line: %s", r.err);
    ck_assert_str_eq(r.out, "");
    cmd_free(&r);
}

START_TEST(test_bench_argument_errors)
{
    expect_bench_refuses("--n 0", "attn bench: --n needs a whole number from 1 to 1048576, not '0'");
    expect_bench_refuses("--n abc", "--n needs a whole number from 1 to 1048576, not 'abc'");
    expect_bench_refuses("--d 12x", "--d needs a whole number from 1 to 16384, not '12x'");
    expect_bench_refuses("--reps", "attn bench: --reps needs a value");
    expect_bench_refuses("--heads -2", "--heads needs a whole number from 1 to 64, not '-2'");
    expect_bench_refuses("--d 10 --heads 4", "--d 10 does not split into 4 heads");
    expect_bench_refuses("--fast", "attn bench: unknown option '--fast'");
    expect_bench_refuses("--kernels avx1024", "attn bench: --kernels takes auto, blas, avx512, avx2 or scalar");
    expect_bench_refuses("--kernels", "attn bench: --kernels takes auto, blas, avx512, avx2 or scalar");
}
END_TEST

/* --kernels picks the products: each the CPU has agrees with the naive
 * path and is named in the JSON and the first line; one it lacks is refused
 * with the reason (or, under valgrind, which hides AVX-512 from this
 * process only, may run). */
START_TEST(test_bench_kernels)
{
    static const char *names[] = { "blas", "scalar", "avx2", "avx512" };
    static const AttnIsa isas[] = { ATTN_ISA_SCALAR, ATTN_ISA_SCALAR, ATTN_ISA_AVX2, ATTN_ISA_AVX512 };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        CmdResult r = cmd_runf("%s bench --n 40 --d 24 --heads 3 --reps 1 --kernels %s --json", attn_bin(), names[i]);
        if (!attention_isa_supported(isas[i]) && r.status != 0) {
            ck_assert_int_eq(r.status, 2);
            ck_assert_msg(strstr(r.err, "this CPU has no"), "%s: %s", names[i], r.err);
            cmd_free(&r);
            continue;
        }
        ck_assert_msg(r.status == 0, "%s: status %d: %s", names[i], r.status, r.err);
        JVal root;
        char jerr[128];
        ck_assert_msg(json_parse(r.out, &root, jerr, sizeof jerr) == 0, "%s in\n%s", jerr, r.out);
        ck_assert_str_eq(json_get(&root, "kernels")->str, names[i]);
        double v;
        ck_assert_int_eq(json_number(json_get(&root, "max_abs_diff"), &v), 0);
        ck_assert_msg(v < 1e-5, "%s: max_abs_diff %g", names[i], v);
        json_free(&root);
        cmd_free(&r);
        r = cmd_runf("%s bench --n 40 --d 24 --heads 3 --reps 1 --fused-only --kernels %s", attn_bin(), names[i]);
        char said[64];
        snprintf(said, sizeof said, " threads, kernels %s\n", names[i]);
        ck_assert_msg(r.status == 0 && strstr(r.out, said), "%s: %s", names[i], r.out);
        cmd_free(&r);
    }
}
END_TEST

/* The threads bench reports are the ones it may use: under taskset -c 0,
 * one (it said 2, the machine's count). */
START_TEST(test_bench_threads_follow_the_affinity)
{
    CmdResult r = cmd_runf("command -v taskset >/dev/null && taskset -c 0 %s bench --n 64 --d 32 --heads 2 --reps 1 "
                           "--json", attn_bin());
    if (r.status == 0) {
        JVal root;
        char jerr[128];
        ck_assert_msg(json_parse(r.out, &root, jerr, sizeof jerr) == 0, "%s", jerr);
        const JVal *t = json_get(&root, "threads");
        ck_assert_msg(t && t->num == 1, "threads under taskset -c 0: %s", r.out);
        json_free(&root);
    }
    cmd_free(&r);
    r = cmd_runf("command -v taskset >/dev/null && taskset -c 0 %s bench --n 64 --d 32 --heads 2 --reps 1", attn_bin());
    ck_assert_msg(r.status != 0 || strstr(r.out, "warm-up, 1 thread\n") || strstr(r.out, "warm-up, 1 thread,"),
                  "%s", r.out);
    cmd_free(&r);
}
END_TEST

START_TEST(test_bench_json_keys)
{
    CmdResult r = cmd_runf("%s bench --n 16 --d 8 --heads 2 --reps 3 --causal --json", attn_bin());
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    JVal root;
    char jerr[128];
    ck_assert_msg(json_parse(r.out, &root, jerr, sizeof jerr) == 0, "%s in\n%s", jerr, r.out);
    static const char *keys[] = { "n", "d", "heads", "causal", "reps", "threads", "median_ms", "min_ms", "max_ms",
                                  "flops", "gflops", "sgemm_ms", "sgemm_gflops", "sgemm_share", "isa",
                                  "peak_gflops", "peak_share", "naive_ms",
                                  "naive_min_ms", "naive_max_ms", "naive_gflops", "max_abs_diff", "naive_skipped",
                                  "cpu_ms", "sgemm_cpu_ms", "naive_cpu_ms", "extra_bytes", "naive_bytes",
                                  "kernels", "projections_path", "core_path", "weights_in_place", "online_softmax",
                                  "key_tile", "block" };
    ck_assert_int_eq(root.n, (int)(sizeof keys / sizeof *keys));
    for (int i = 0; i < root.n; i++)
        ck_assert_str_eq(root.keys[i], keys[i]);
    double v;
    ck_assert_int_eq(json_number(json_get(&root, "n"), &v), 0);
    ck_assert_double_eq(v, 16);
    ck_assert_int_eq(json_get(&root, "causal")->type, J_BOOL);
    ck_assert_double_eq(json_get(&root, "causal")->num, 1);
    /* causal n=16 in one block of 16: 8*16*8^2 + 4*(16*16)*8 */
    ck_assert_int_eq(json_number(json_get(&root, "flops"), &v), 0);
    ck_assert_double_eq(v, 8.0 * 16 * 64 + 4.0 * 256 * 8);
    /* the paths agree; memory is what one fused run allocated: qkv, cat,
     * one worker's (16, 16) scores and its 16 sums */
    ck_assert_int_eq(json_number(json_get(&root, "max_abs_diff"), &v), 0);
    ck_assert_msg(v < 1e-5, "max_abs_diff %g", v);
    ck_assert_int_eq(json_number(json_get(&root, "extra_bytes"), &v), 0);
    /* on attn's kernels (where the CPU has AVX2 or AVX-512) what
     * attention_extra_bytes says (its parts are tested above), at the
     * instruction set attn saw: at least the widest this process sees (under
     * valgrind, which hides AVX-512 from this process and not from attn,
     * wider) */
    AttnIsa seen = attention_isa(), used = ATTN_ISA_SCALAR;
    for (AttnIsa i = ATTN_ISA_SCALAR; i <= ATTN_ISA_AVX512; i++)
        if (strcmp(json_get(&root, "isa")->str, attention_isa_name(i)) == 0)
            used = i;
    ck_assert_str_eq(json_get(&root, "isa")->str, attention_isa_name(used));
    ck_assert_msg(used >= seen, "attn saw %s, this process %s", attention_isa_name(used), attention_isa_name(seen));
    AttnConfig same = { 16, 8, 2, 1, 0, 0, ATTN_PAR_POOL, ATTN_KERNELS_OWN, used };
    if (used == ATTN_ISA_SCALAR)
        ck_assert_double_eq(v, (16 * 24 + 16 * 8 + 16 * 16 + 16) * 4);
    else
        ck_assert_double_eq(v, (double)attention_extra_bytes(&same));
    ck_assert_str_eq(json_get(&root, "kernels")->str, "auto");
    ck_assert_msg(json_get(&root, "peak_gflops")->num > 0 && json_get(&root, "peak_share")->num > 0,
                  "peak %g, share %g", json_get(&root, "peak_gflops")->num, json_get(&root, "peak_share")->num);
    ck_assert_int_eq(json_get(&root, "naive_skipped")->type, J_NULL);
    const char *timed[] = { "median_ms", "min_ms", "max_ms", "gflops", "sgemm_gflops", "naive_ms", "cpu_ms",
                            "sgemm_cpu_ms", "naive_cpu_ms" };
    for (size_t i = 0; i < sizeof timed / sizeof *timed; i++) {
        ck_assert_int_eq(json_get(&root, timed[i])->type, J_NUM);
        ck_assert_msg(json_get(&root, timed[i])->num >= 0, "%s < 0", timed[i]);
    }
    ck_assert_msg(json_get(&root, "min_ms")->num <= json_get(&root, "median_ms")->num &&
                      json_get(&root, "median_ms")->num <= json_get(&root, "max_ms")->num,
                  "min <= median <= max fails");
    json_free(&root);
    cmd_free(&r);
}
END_TEST

/* The path each part takes is a rule: two processes on one shape say the
 * same, and it is the rule's answer (attn's kernels at the widest
 * instruction set the CPU has, else BLAS; the online softmax over tiles of
 * ATTN_KEY_TILE keys, blocks by attn_core_block). It used to be a timing at
 * the first call, which a noisy millisecond could turn either way. */
START_TEST(test_bench_paths_are_a_rule)
{
    static const char *const keys[] = { "projections_path", "core_path", "weights_in_place", "online_softmax",
                                        "key_tile", "block" };
    char first[6][32];
    for (int run = 0; run < 2; run++) {
        CmdResult r = cmd_runf("%s bench --n 600 --d 64 --heads 1 --reps 1 --fused-only --json", attn_bin());
        ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
        JVal root;
        char jerr[128];
        ck_assert_msg(json_parse(r.out, &root, jerr, sizeof jerr) == 0, "%s in\n%s", jerr, r.out);
        const char *isa = json_get(&root, "isa")->str;
        int own = strcmp(isa, "scalar") != 0;
        ck_assert_str_eq(json_get(&root, "core_path")->str, own ? isa : "blas");
        ck_assert_str_eq(json_get(&root, "projections_path")->str, own ? isa : "blas");
        ck_assert_double_eq(json_get(&root, "online_softmax")->num, own);
        ck_assert_double_eq(json_get(&root, "weights_in_place")->num, own);
        ck_assert_double_eq(json_get(&root, "key_tile")->num, own ? ATTN_KEY_TILE : 0);
        ck_assert_double_eq(json_get(&root, "block")->num,
                            own ? attn_core_block(600, 1, pool_threads()) : attention_block(600));
        for (int i = 0; i < 6; i++) {
            const JVal *v = json_get(&root, keys[i]);
            char now[32];
            if (v->type == J_STR)
                snprintf(now, sizeof now, "%s", v->str);
            else
                snprintf(now, sizeof now, "%g", v->num);
            if (run == 0)
                snprintf(first[i], sizeof first[i], "%s", now);
            else
                ck_assert_msg(strcmp(first[i], now) == 0, "%s: %s, then %s", keys[i], first[i], now);
        }
        json_free(&root);
        cmd_free(&r);
    }
}
END_TEST

START_TEST(test_bench_fused_only_text)
{
    CmdResult r = cmd_runf("%s bench --n 24 --d 12 --heads 3 --reps 1 --fused-only", attn_bin());
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    ck_assert_msg(strncmp(r.out, "attn bench: n=24 d=12 heads=3 (dk=4), median of 1 after a warm-up", 65) == 0,
                  "first line: %s", r.out);
    ck_assert_msg(strstr(r.out, "  naive  skipped: --fused-only\n") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "(24 x 12 x 12, same run)") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, "  paths: projections on ") && strstr(r.out, "BLAS on one thread\n"), "%s", r.out);
    cmd_free(&r);
}
END_TEST

/* attn bench ARGS run to success, its JSON parsed into root (the caller
 * frees both). */
static CmdResult bench_json(const char *args, JVal *root)
{
    CmdResult r = cmd_runf("%s bench %s", attn_bin(), args);
    ck_assert_msg(r.status == 0, "attn bench %s: status %d: %s", args, r.status, r.err);
    char jerr[128];
    ck_assert_msg(json_parse(r.out, root, jerr, sizeof jerr) == 0, "%s in\n%s", jerr, r.out);
    return r;
}

/* --phases: each phase of the fused pass, in the order it runs, with
 * the flops it computes (the JSON's GFLOP/s times its ms), as text and
 * JSON; never its speed. */
START_TEST(test_bench_phases)
{
    JVal root;
    CmdResult r = bench_json("--n 96 --d 40 --heads 2 --reps 3 --fused-only --phases --json", &root);
    const JVal *phases = json_get(&root, "phases");
    ck_assert_msg(phases && phases->type == J_ARR, "%s", r.out);
    int own = strcmp(json_get(&root, "core_path")->str, "blas") != 0;
    /* d = 40 is no multiple of a panel: attn's kernels pack the weights first */
    static const char *const own_names[] = { "weights packed", "projections in", "K and V packed", "core",
                                             "projection out" };
    static const char *const blas_names[] = { "projections in", "core", "projection out" };
    const char *const *names = own ? own_names : blas_names;
    ck_assert_int_eq(phases->n, own ? 5 : 3);
    for (int i = 0; i < phases->n; i++) {
        const JVal *p = &phases->items[i];
        ck_assert_str_eq(json_get(p, "phase")->str, names[i]);
        ck_assert_msg(json_get(p, "ms")->num >= 0 && json_get(p, "peak_share")->num >= 0, "%s", r.out);
    }
    json_free(&root);
    cmd_free(&r);
    r = cmd_runf("%s bench --n 96 --d 40 --heads 2 --reps 3 --fused-only --phases", attn_bin());
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.out, "  phases, each timed inside every pass, the median of the passes:\n") &&
                      strstr(r.out, "\n    core  ") && strstr(r.out, "\n    projection out  ") &&
                      strstr(r.out, "% of the FMA peak\n"), "%s", r.out);
    cmd_free(&r);
    /* without --phases, neither */
    r = cmd_runf("%s bench --n 96 --d 40 --heads 2 --reps 1 --fused-only", attn_bin());
    ck_assert_msg(r.status == 0 && !strstr(r.out, "phases"), "%s", r.out);
    cmd_free(&r);
}
END_TEST

/* --linear: the four ways of one linear layer's weights, each with the
 * kernel that took it (BF16 on AVX512_BF16 where the CPU has it); never
 * a speed. */
START_TEST(test_bench_linear)
{
    JVal root;
    CmdResult r = bench_json("--linear --n 13 --d 40 --reps 1 --json", &root);
    ck_assert_double_eq(json_get(&root, "in")->num, 40);
    ck_assert_double_eq(json_get(&root, "out")->num, 120);
    const JVal *w = json_get(&root, "weights");
    ck_assert_msg(w && w->type == J_ARR && w->n == 4, "%s", r.out);
    static const char *const dtypes[] = { "f32", "f32", "bf16", "bf16" }, *const layouts[] = { "in_out", "out_in" };
    for (int i = 0; i < 4; i++) {
        ck_assert_str_eq(json_get(&w->items[i], "dtype")->str, dtypes[i]);
        ck_assert_str_eq(json_get(&w->items[i], "layout")->str, layouts[i % 2]);
        ck_assert_str_eq(json_get(&w->items[i], "path")->str,
                         attention_linear_path(i < 2 ? ATTN_DTYPE_F32 : ATTN_DTYPE_BF16));
    }
    json_free(&root);
    cmd_free(&r);
    r = cmd_runf("%s bench --linear --n 13 --d 40 --reps 1", attn_bin());
    ck_assert_msg(r.status == 0 && strstr(r.out, "attn bench --linear: x (13, 40) @ W (40, 120) + b, median of 1") &&
                      strstr(r.out, "\n  bf16 (out, in)   ") && strstr(r.out, "; bf16 / f32: "), "%s", r.out);
    cmd_free(&r);
}
END_TEST

START_TEST(test_bench_sweep_json)
{
    CmdResult r = cmd_runf("%s bench --sweep --max-n 256 --d 8 --heads 2 --reps 1 --json", attn_bin());
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    /* progress on stderr, one line per n */
    ck_assert_msg(strstr(r.err, "sweep n=64 ") && strstr(r.err, "sweep n=128 ") && strstr(r.err, "sweep n=256 "),
                  "stderr: %s", r.err);
    JVal root;
    char jerr[128];
    ck_assert_msg(json_parse(r.out, &root, jerr, sizeof jerr) == 0, "%s in\n%s", jerr, r.out);
    const JVal *points = json_get(&root, "points");
    ck_assert_ptr_nonnull(points);
    ck_assert_int_eq(points->n, 3);
    for (int i = 0; i < 3; i++) {
        const JVal *p = &points->items[i];
        ck_assert_double_eq(json_get(p, "n")->num, 64 << i);
        ck_assert_double_eq(json_get(p, "nn_bytes")->num, (double)(64 << i) * (64 << i) * 4);
        ck_assert_msg(json_get(p, "extra_bytes")->num > 0, "point %d: no extra bytes", i);
        ck_assert_int_eq(json_get(p, "naive_ms")->type, J_NUM);
    }
    ck_assert_int_eq(json_get(&root, "fused_slope")->type, J_NUM);
    /* (2 n^2 + 8 n d) x 4 bytes against what is available: far beyond n = 256 */
    ck_assert_msg(json_get(&root, "naive_out_of_memory_n")->num > 1024, "%s", r.out);
    json_free(&root);
    cmd_free(&r);
}
END_TEST

/* ---- the plot ----------------------------------------------------------------------- */

static char *plot_to_string(const PlotSeries *s, int n, int w, int h, int utf8)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    plot_loglog(f, s, n, w, h, "ms", utf8);
    fclose(f);
    return buf;
}

START_TEST(test_plot_ascii)
{
    double x[] = { 10, 100, 1000 }, sq[] = { 1, 100, 10000 }, lin[] = { 2, 20, 200 };
    PlotSeries s[2] = { { "sq", 's', x, sq, 3 }, { "lin", 'l', x, lin, 3 } };
    char *got = plot_to_string(s, 2, 20, 5, 0);
    ck_assert_str_eq(got, "  1e+04 ms |                 ..s\n"
                          "           |            .....   \n"
                          "    100 ms |        ..s........l\n"
                          "           |  ........l         \n"
                          "      1 ms |l..                 \n"
                          "           +--------------------\n"
                          "            10       100     1000\n"
                          "            s sq   l lin   (log-log)\n");
    free(got);
    PlotSeries none = { "none", 'x', x, (double[]){ 0, -1, NAN }, 3 };
    got = plot_to_string(&none, 1, 20, 5, 0);
    ck_assert_str_eq(got, "(nothing to plot)\n");
    free(got);
}
END_TEST

START_TEST(test_plot_braille)
{
    /* a diagonal from corner to corner, 2 x 4 dots a cell: U+2860 (dots 6
     * and 7) then U+280A (dots 2 and 4) on every row; the name at its end */
    double x[] = { 1, 100 }, y[] = { 1, 100 };
    PlotSeries s = { "t", 't', x, y, 2 };
    char *got = plot_to_string(&s, 1, 8, 4, 1);
    ck_assert_str_eq(got, "    100 ms |     t\u2860\u280a\n"
                          "   21.5 ms |    \u2860\u280a  \n"
                          "           |  \u2860\u280a    \n"
                          "      1 ms |\u2860\u280a      \n"
                          "           +--------\n"
                          "            1     100\n"
                          "            t   (log-log)\n");
    free(got);
}
END_TEST

START_TEST(test_plot_slope)
{
    double x[] = { 64, 128, 256, 512 }, y2[] = { 1, 4, 16, 64 }, y1[] = { 3, 6, 12, 24 }, bad[] = { 0, 0, 5, 0 };
    ck_assert_double_eq_tol(plot_slope(x, y2, 4), 2.0, 1e-12);
    ck_assert_double_eq_tol(plot_slope(x, y1, 4), 1.0, 1e-12);
    ck_assert(isnan(plot_slope(x, bad, 4)));    /* one usable point */
    ck_assert(isnan(plot_slope(x, y2, 1)));
}
END_TEST

Suite *attention_suite(void)
{
    Suite *s = suite_create("attention");
    TCase *core = tcase_create("core");
    tcase_set_timeout(core, 60);
    tcase_add_test(core, test_shapes_match_reference);
    tcase_add_test(core, test_blas_threads_match_reference);
    tcase_add_test(core, test_one_token);
    tcase_add_test(core, test_causal_first_row_is_v);
    tcase_add_test(core, test_matches_lesson_language);
    tcase_add_test(core, test_softmax_kernels_agree);
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_set_timeout(limits, 120);
    tcase_add_test(limits, test_scores_past_exp_range);
    tcase_add_test(limits, test_bad_config_refused);
    tcase_add_test(limits, test_no_memory_refused);
    tcase_add_test(limits, test_memory_at_8192);
    tcase_add_test(limits, test_extra_bytes_and_flops);
    suite_add_tcase(s, limits);
    TCase *bench = tcase_create("bench");
    tcase_set_timeout(bench, 60);
    tcase_add_test(bench, test_bench_argument_errors);
    tcase_add_test(bench, test_bench_json_keys);
    tcase_add_test(bench, test_bench_threads_follow_the_affinity);
    tcase_add_test(bench, test_bench_kernels);
    tcase_add_test(bench, test_bench_fused_only_text);
    tcase_add_test(bench, test_bench_phases);
    tcase_add_test(bench, test_bench_linear);
    tcase_add_test(bench, test_bench_paths_are_a_rule);
    tcase_add_test(bench, test_bench_sweep_json);
    tcase_add_test(bench, test_plot_ascii);
    tcase_add_test(bench, test_plot_braille);
    tcase_add_test(bench, test_plot_slope);
    suite_add_tcase(s, bench);
    return s;
}
