/*
 * check_rng.c - the generator draws what PyTorch 1.13 draws: every vector of
 * torch-randn.ref, in order, from a fresh seed per block (the small path
 * with its cache, the 16+ path and its ragged tail), plus the mt19937
 * engine's standard check value and the limits of rng_randn.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "refdata.h"
#include "rng.h"

#define RNG_TOL 1e-6

/* Every `seed S` block of torch-randn.ref: reseed at each draw0 (or when the
 * seed changes), then draw each matrix in order with rng_randn and compare. */
START_TEST(test_every_reference_draw)
{
    RefFile rf;
    char msg[512];
    ck_assert_msg(ref_load(&rf, "torch-randn.ref", msg, sizeof msg) == 0, "%s", msg);
    ck_assert_msg(rf.n >= 30, "torch-randn.ref has only %d entries", rf.n);
    Rng g;
    long seed = -2;
    int blocks = 0, big = 0;
    for (int i = 0; i < rf.n; i++) {
        const RefEntry *e = &rf.entries[i];
        ck_assert_msg(e->seed >= 0, "%s has no seed before it", e->name);
        if (strcmp(e->name, "draw0") == 0 || e->seed != seed) {
            seed = e->seed;
            rng_seed(&g, (uint64_t)seed);
            blocks++;
        }
        AttnError err;
        attn_error_clear(&err);
        Mat *m = rng_randn(&g, e->rows, e->cols, &err);
        ck_assert_msg(m != NULL, "randn(%d,%d): %s", e->rows, e->cols, err.msg);
        ck_assert_int_eq(m->prov.op, OP_RANDN);
        int ok = ref_compare(m, e, RNG_TOL, msg, sizeof msg);
        ck_assert_msg(ok, "seed %ld: %s", seed, msg);
        if (e->rows * e->cols >= 16)
            big++;
        mat_free(m);
    }
    ck_assert_msg(blocks >= 6, "only %d seed blocks", blocks);
    ck_assert_msg(big >= 5, "only %d draws took the 16+ path", big);
    ref_free(&rf);
}
END_TEST

/* The small path caches the sine half: seed 42 then randn(1) leaves a value
 * that the next call returns first, and the 16+ path leaves it alone. */
START_TEST(test_cache_crosses_calls)
{
    RefFile rf;
    char msg[512];
    ck_assert_msg(ref_load(&rf, "torch-randn.ref", msg, sizeof msg) == 0, "%s", msg);
    const RefEntry *d1 = ref_find(&rf, "draw1", 42);
    ck_assert_ptr_nonnull(d1);

    Rng g;
    rng_seed(&g, 42);
    float one;
    rng_randn_fill(&g, &one, 1);
    ck_assert_int_eq(g.has_cached, 1);
    float cached = (float)g.cached;
    /* A 16+ draw does not consume or replace the cache. */
    Rng h = g;
    float big[32];
    rng_randn_fill(&h, big, 32);
    ck_assert_int_eq(h.has_cached, 1);
    ck_assert_float_eq(cached, (float)h.cached);

    float three[3];
    rng_randn_fill(&g, three, 3);
    ck_assert_msg(three[0] == cached, "first of the next call %.9g, cached %.9g", three[0], cached);
    for (int j = 0; j < 3; j++)
        ck_assert_msg(fabs(three[j] - d1->data[j]) <= RNG_TOL, "draw1[%d] %.9g vs %.9g", j, three[j], d1->data[j]);
    ref_free(&rf);
}
END_TEST

/* Reseeding clears the cache and restarts the sequence. */
START_TEST(test_reseed_restarts)
{
    Rng g;
    float a[3], b[3];
    rng_seed(&g, 7);
    rng_randn_fill(&g, a, 3);
    ck_assert_int_eq(g.has_cached, 1);
    rng_seed(&g, 7);
    ck_assert_int_eq(g.has_cached, 0);
    rng_randn_fill(&g, b, 3);
    for (int j = 0; j < 3; j++)
        ck_assert_float_eq(a[j], b[j]);
}
END_TEST

/* The C++ standard's check of mt19937: seeded with 5489, the 10000th output
 * is 4123659995. */
START_TEST(test_mt19937_check_value)
{
    Rng g;
    rng_seed(&g, 5489);
    uint32_t v = 0;
    for (int i = 0; i < 10000; i++)
        v = rng_u32(&g);
    ck_assert_msg(v == 4123659995u, "10000th output %u", v);
    /* Only the low 32 bits of the seed count, as in PyTorch. */
    Rng h;
    rng_seed(&h, (UINT64_C(1) << 32) + 5489);
    rng_seed(&g, 5489);
    ck_assert_uint_eq(rng_u32(&g), rng_u32(&h));
}
END_TEST

/* A matrix draw and a flat fill of the same count agree. */
START_TEST(test_fill_matches_matrix)
{
    Rng g, h;
    rng_seed(&g, 0);
    rng_seed(&h, 0);
    Mat *m = rng_randn(&g, 3, 7, NULL);
    ck_assert_ptr_nonnull(m);
    float flat[21];
    rng_randn_fill(&h, flat, 21);
    for (int i = 0; i < 21; i++)
        ck_assert_float_eq(mat_get(m, i / 7, i % 7), flat[i]);
    mat_free(m);
}
END_TEST

/* Bad sizes fail with a code, and the generator does not move. */
START_TEST(test_bad_size_does_not_advance)
{
    Rng g, before;
    rng_seed(&g, 1);
    before = g;
    AttnError err;
    attn_error_clear(&err);
    ck_assert_ptr_null(rng_randn(&g, 0, 3, &err));
    ck_assert_int_ne(err.code, ATTN_OK);
    attn_error_clear(&err);
    ck_assert_ptr_null(rng_randn(&g, -2, 3, &err));
    ck_assert_int_ne(err.code, ATTN_OK);
    attn_error_clear(&err);
    ck_assert_ptr_null(rng_randn(&g, 1 << 14, 1 << 14, &err));
    ck_assert_int_eq(err.code, ATTN_E_TOO_BIG);
    rng_randn_fill(&g, NULL, 0);
    ck_assert_int_eq(g.mti, before.mti);
    ck_assert(memcmp(g.mt, before.mt, sizeof g.mt) == 0);
    ck_assert_int_eq(g.has_cached, 0);
}
END_TEST

/* Exactly 16 takes the block path with no tail; 15 the small path. */
START_TEST(test_block_boundary)
{
    Rng g;
    rng_seed(&g, 0);
    float d16[16];
    rng_randn_fill(&g, d16, 16);
    ck_assert_int_eq(g.has_cached, 0);
    ck_assert_int_eq(g.mti, 16);       /* one u32 per element */
    rng_seed(&g, 0);
    float d15[15];
    rng_randn_fill(&g, d15, 15);
    ck_assert_int_eq(g.has_cached, 1); /* 15 = 7 pairs + one, cached */
    ck_assert_int_eq(g.mti, 32);       /* 8 pairs of two u64 each */
    for (int i = 0; i < 16; i++)
        ck_assert_msg(isfinite(d16[i]) && fabsf(d16[i]) < 10, "d16[%d] = %g", i, d16[i]);
}
END_TEST

Suite *rng_suite(void)
{
    Suite *s = suite_create("rng");
    TCase *core = tcase_create("core");
    tcase_add_test(core, test_every_reference_draw);
    tcase_add_test(core, test_cache_crosses_calls);
    tcase_add_test(core, test_reseed_restarts);
    tcase_add_test(core, test_mt19937_check_value);
    tcase_add_test(core, test_fill_matches_matrix);
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_add_test(limits, test_bad_size_does_not_advance);
    tcase_add_test(limits, test_block_boundary);
    suite_add_tcase(s, limits);
    return s;
}
