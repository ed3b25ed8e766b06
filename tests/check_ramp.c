/*
 * check_ramp.c - the heatmap colour ramps keep their promises: lightness
 * rising with the value, the right endpoints, a diverging ramp symmetric
 * about zero, xterm-256 approximations that keep the order, and 8-colour
 * and shade fallbacks that still read.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "ramp.h"

#define STEPS 200

START_TEST(sequential_lightness_rises)
{
    float prev = ramp_lightness(ramp_sequential(0.0f));
    for (int k = 1; k <= STEPS; k++) {
        float t = (float)k / STEPS;
        float l = ramp_lightness(ramp_sequential(t));
        ck_assert_msg(l > prev, "viridis L* falls at t=%.3f: %.3f after %.3f", t, l, prev);
        prev = l;
    }
}
END_TEST

START_TEST(sequential_endpoints)
{
    Rgb lo = ramp_sequential(0.0f), hi = ramp_sequential(1.0f);
    /* viridis: dark purple to yellow */
    ck_assert_float_eq_tol(lo.r, 0.267004f, 1e-6f);
    ck_assert_float_eq_tol(lo.g, 0.004874f, 1e-6f);
    ck_assert_float_eq_tol(lo.b, 0.329415f, 1e-6f);
    ck_assert_float_eq_tol(hi.r, 0.993248f, 1e-6f);
    ck_assert_float_eq_tol(hi.g, 0.906157f, 1e-6f);
    ck_assert_float_eq_tol(hi.b, 0.143936f, 1e-6f);
    ck_assert_msg(ramp_lightness(lo) < 20.0f, "low end L* %.1f should be dark", ramp_lightness(lo));
    ck_assert_msg(ramp_lightness(hi) > 85.0f, "high end L* %.1f should be light", ramp_lightness(hi));
}
END_TEST

START_TEST(diverging_symmetric)
{
    for (int k = 0; k <= STEPS; k++) {
        float t = (float)k / STEPS;
        float lp = ramp_lightness(ramp_diverging(t)), ln = ramp_lightness(ramp_diverging(-t));
        ck_assert_msg(fabsf(lp - ln) < 1.0f, "L*(%.3f)=%.2f but L*(-%.3f)=%.2f", t, lp, t, ln);
    }
    Rgb mid = ramp_diverging(0.0f), pos = ramp_diverging(1.0f), neg = ramp_diverging(-1.0f);
    ck_assert_msg(mid.r > 0.9f && mid.g > 0.9f && mid.b > 0.9f, "zero is near white: %.2f %.2f %.2f",
                  mid.r, mid.g, mid.b);
    ck_assert_msg(pos.r > pos.b + 0.3f, "+1 is red: %.2f %.2f %.2f", pos.r, pos.g, pos.b);
    ck_assert_msg(neg.b > neg.r + 0.3f, "-1 is blue: %.2f %.2f %.2f", neg.r, neg.g, neg.b);
}
END_TEST

START_TEST(diverging_darkens_away_from_zero)
{
    float prev = ramp_lightness(ramp_diverging(0.0f));
    for (int k = 1; k <= STEPS; k++) {
        float t = (float)k / STEPS;
        float l = ramp_lightness(ramp_diverging(t));
        ck_assert_msg(l < prev, "L* does not fall at t=%.3f: %.3f after %.3f", t, l, prev);
        prev = l;
    }
}
END_TEST

START_TEST(xterm256_keeps_order)
{
    /* the 16 levels the screen uses, as xterm colours */
    int seq[16], div[17];
    ramp_xterm256_sequential(seq, 16);
    float prev = -1.0f;
    int distinct = 0;
    for (int k = 0; k < 16; k++) {
        ck_assert_msg(seq[k] >= 16 && seq[k] <= 255, "index %d out of the 256-colour range", seq[k]);
        float l = ramp_lightness(ramp_xterm256_rgb(seq[k]));
        ck_assert_msg(l >= prev, "level %d (xterm %d) L* %.2f below previous %.2f", k, seq[k], l, prev);
        distinct += k == 0 || seq[k] != seq[k - 1];
        prev = l;
    }
    ck_assert_msg(distinct >= 10, "only %d distinct colours of 16 levels", distinct);
    ramp_xterm256_diverging(div, 8);
    for (int k = 1; k <= 8; k++) {
        float lp = ramp_lightness(ramp_xterm256_rgb(div[8 + k])), lq = ramp_lightness(ramp_xterm256_rgb(div[8 + k - 1]));
        float ln = ramp_lightness(ramp_xterm256_rgb(div[8 - k])), lm = ramp_lightness(ramp_xterm256_rgb(div[8 - k + 1]));
        ck_assert_msg(lp <= lq && ln <= lm, "diverging level %d: lighter away from zero (%.1f > %.1f or %.1f > %.1f)",
                      k, lp, lq, ln, lm);
        ck_assert_msg(fabsf(lp - ln) < 12.0f, "diverging level +-%d: L* %.1f vs %.1f", k, lp, ln);
    }
    Rgb red = ramp_xterm256_rgb(div[16]), blue = ramp_xterm256_rgb(div[0]);
    ck_assert_msg(red.r > red.b && blue.b > blue.r, "ends: red %.2f/%.2f blue %.2f/%.2f", red.r, red.b, blue.b, blue.r);
    ck_assert_int_eq(ramp_xterm256((Rgb){ 1, 1, 1 }), 231);
    ck_assert_int_eq(ramp_xterm256((Rgb){ 0, 0, 0 }), 16);
    Rgb c = ramp_xterm256_rgb(196);
    ck_assert_msg(c.r == 1.0f && c.g == 0.0f && c.b == 0.0f, "196 is pure red, got %.2f %.2f %.2f", c.r, c.g, c.b);
}
END_TEST

START_TEST(color8_fallbacks)
{
    float prev = -1.0f;
    for (int k = 0; k < RAMP8_SEQ_LEVELS; k++) {
        float t = ((float)k + 0.5f) / RAMP8_SEQ_LEVELS;
        int c = ramp8_sequential(t);
        ck_assert_msg(c >= 0 && c <= 7, "level %d gives colour %d", k, c);
        float l = ramp_lightness(ramp8_rgb(c));
        ck_assert_msg(l > prev, "8-colour level %d (colour %d) L* %.1f not above %.1f", k, c, l, prev);
        prev = l;
    }
    ck_assert_int_eq(ramp8_diverging(0.0f), -1);
    ck_assert_int_eq(ramp8_diverging(1.0f), 1);    /* red */
    ck_assert_int_eq(ramp8_diverging(-1.0f), 4);   /* blue */
    ck_assert_int_ne(ramp8_diverging(0.5f), ramp8_diverging(-0.5f));
    ck_assert_int_eq(ramp_signed_level(0.5f, 2), -ramp_signed_level(-0.5f, 2));
}
END_TEST

START_TEST(shade_fallbacks)
{
    ck_assert_str_eq(ramp_shade(0.0f, 1), " ");
    ck_assert_str_eq(ramp_shade(1.0f, 1), "█");
    ck_assert_str_eq(ramp_shade(0.5f, 1), "▒");
    ck_assert_str_eq(ramp_shade(0.0f, 0), " ");
    ck_assert_str_eq(ramp_shade(1.0f, 0), "@");
    ck_assert_str_eq(ramp_shade(0.5f, 0), ":");
    ck_assert_str_eq(ramp_shade_signed(-1.0f, 1), "█");
    ck_assert_str_eq(ramp_shade_signed(-0.5f, 0), ramp_shade_signed(0.5f, 0));
    /* every level is a different glyph, in both alphabets */
    for (int utf8 = 0; utf8 <= 1; utf8++)
        for (int k = 1; k < RAMP_SHADE_LEVELS; k++) {
            const char *a = ramp_shade(((float)k - 0.5f) / RAMP_SHADE_LEVELS, utf8);
            const char *b = ramp_shade(((float)k + 0.5f) / RAMP_SHADE_LEVELS, utf8);
            ck_assert_msg(strcmp(a, b) != 0, "levels %d and %d share glyph '%s' (utf8=%d)", k - 1, k, a, utf8);
        }
}
END_TEST

START_TEST(out_of_range_clamps)
{
    Rgb a = ramp_sequential(-3.0f), b = ramp_sequential(0.0f);
    ck_assert_float_eq(a.r, b.r);
    Rgb c = ramp_sequential(7.0f), d = ramp_sequential(1.0f);
    ck_assert_float_eq(c.g, d.g);
    Rgb n = ramp_sequential(NAN);
    ck_assert_msg(isfinite(n.r) && isfinite(n.g) && isfinite(n.b), "NaN gives a real colour");
    ck_assert_int_eq(ramp_level(INFINITY, 5), 4);
    ck_assert_int_eq(ramp_level(-INFINITY, 5), 0);
    ck_assert_int_eq(ramp_level(0.5f, 1), 0);
    ck_assert_int_eq(ramp_signed_level(-INFINITY, 3), -3);
    ck_assert_int_eq(ramp_text_dark(ramp_sequential(1.0f)), 1);
    ck_assert_int_eq(ramp_text_dark(ramp_sequential(0.0f)), 0);
}
END_TEST

Suite *ramp_suite(void)
{
    Suite *s = suite_create("ramp");
    TCase *core = tcase_create("core");
    tcase_add_test(core, sequential_lightness_rises);
    tcase_add_test(core, sequential_endpoints);
    tcase_add_test(core, diverging_symmetric);
    tcase_add_test(core, diverging_darkens_away_from_zero);
    tcase_add_test(core, xterm256_keeps_order);
    tcase_add_test(core, color8_fallbacks);
    tcase_add_test(core, shade_fallbacks);
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_add_test(limits, out_of_range_clamps);
    suite_add_tcase(s, limits);
    return s;
}
