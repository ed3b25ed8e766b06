/*
 * check_present.c - the presentation shared by the screen and the handout:
 * the one number formatter (engine/base/numfmt.c), the one heat scale and its
 * shades (app/present/heat.c), so paper and screen read alike; a column's
 * width (app/present/format.c) is the widest value's, as printing each
 * value would find it.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bigtext.h"
#include "format.h"
#include "heat.h"
#include "numfmt.h"
#include "strbuf.h"
#include "text.h"

static const char *fmt(double v, int decimals, int utf8)
{
    static char buf[64];
    num_format(buf, sizeof buf, v, decimals, utf8);
    return buf;
}

START_TEST(numbers_have_one_form)
{
    ck_assert_str_eq(fmt(0.37754, 4, 0), "0.3775");
    ck_assert_str_eq(fmt(-1.5, 2, 0), "-1.50");
    ck_assert_str_eq(fmt(-0.0, 4, 0), "0.0000");          /* never -0.0000 */
    ck_assert_str_eq(fmt(0, 0, 0), "0");
    /* small but not zero: not mistaken for zero */
    ck_assert_str_eq(fmt(6.1e-6, 4, 0), "6.1e-6");
    ck_assert_str_eq(fmt(-0.00004, 4, 0), "-4.0e-5");
    ck_assert_str_eq(fmt(0.00005, 4, 0), "0.0001");        /* rounds up: shown as usual */
    ck_assert_str_eq(fmt(3e-12, 2, 0), "3.0e-12");
    ck_assert_str_eq(fmt(INFINITY, 4, 0), "inf");
    ck_assert_str_eq(fmt(-INFINITY, 4, 0), "-inf");
    ck_assert_str_eq(fmt(-INFINITY, 4, 1), "-∞");
    ck_assert_str_eq(fmt(NAN, 4, 1), "nan");
    ck_assert_str_eq(fmt(1.0, 42, 0), "1.000000000");      /* clamped to NUM_DECIMALS_MAX */
}
END_TEST

static Mat *mat_of(int rows, int cols, const float *v)
{
    Mat *m = mat_new(rows, cols, NULL);
    ck_assert_ptr_nonnull(m);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            mat_set(m, i, j, v[i * cols + j]);
    return m;
}

START_TEST(each_kind_of_matrix_has_its_scale)
{
    /* weights: the fixed 0..1 scale, whatever their own range */
    Mat *w = mat_of(1, 3, (const float[]){ 0.3f, 0.33f, 0.37f });
    HeatScale h = heat_scale(w);
    ck_assert_int_eq(h.diverging, 0);
    ck_assert_float_eq(h.lo, 0);
    ck_assert_float_eq(h.hi, 1);
    ck_assert_str_eq(heat_shade(&h, 0.33f, 0), ".");
    /* non-negative beyond 1: 0..max */
    Mat *p = mat_of(1, 2, (const float[]){ 0, 4 });
    h = heat_scale(p);
    ck_assert_int_eq(h.diverging, 0);
    ck_assert_float_eq(h.hi, 4);
    ck_assert_str_eq(heat_shade(&h, 4, 0), "@");
    ck_assert_str_eq(heat_shade(&h, 0, 0), " ");
    /* signed scores: symmetric, shaded by size; -inf off the scale */
    Mat *s = mat_of(1, 3, (const float[]){ -0.2853f, 0.0604f, -INFINITY });
    h = heat_scale(s);
    ck_assert_int_eq(h.diverging, 1);
    ck_assert_float_eq(h.hi, 0.2853f);
    ck_assert_float_eq(h.lo, -0.2853f);
    ck_assert_float_eq_tol(heat_position(&h, -0.2853f), -1, 1e-6);
    ck_assert_str_eq(heat_shade(&h, -0.2853f, 0), "@");
    ck_assert_str_eq(heat_shade(&h, 0.2853f, 0), "@");
    ck_assert_str_eq(heat_shade(&h, -INFINITY, 0), " ");
    ck_assert_str_eq(heat_shade(&h, 0.2853f, 1), "█");
    mat_free(w);
    mat_free(p);
    mat_free(s);
}
END_TEST

START_TEST(a_printed_heatmap_says_what_its_shades_mean)
{
    char buf[200];
    HeatScale w = { 0, 0, 1 }, s = { 1, -0.2853f, 0.2853f };
    heat_legend(&w, buf, sizeof buf, 4);
    ck_assert_str_eq(buf, "shades ' .:#@': ' ' is 0.0000, '@' is 1.0000");
    heat_legend(&s, buf, sizeof buf, 4);
    ck_assert_str_eq(buf, "shades ' .:#@' by size: ' ' is 0, '@' is -0.2853 or 0.2853");
}
END_TEST

/* A confirmed answer shows the digits its tolerance checked: 6.144e-6
 * judged within 1e-7 is not confirmed as 0.0000, on paper or on screen. */
START_TEST(answers_show_the_digits_checked)
{
    ck_assert_int_eq(num_decimals_for(1e-3, 4), 4);
    ck_assert_int_eq(num_decimals_for(1e-3, 2), 3);
    ck_assert_int_eq(num_decimals_for(1e-7, 4), 7);
    ck_assert_int_eq(num_decimals_for(5e-7, 4), 7);
    ck_assert_int_eq(num_decimals_for(0, 4), 4);
    ck_assert_int_eq(num_decimals_for(1e-15, 4), NUM_DECIMALS_MAX);
    ck_assert_str_eq(fmt(6.144e-6, num_decimals_for(1e-7, 4), 0), "0.0000061");
}
END_TEST

/* The projector's block font: "0.5" in both sizes, pixel for pixel, and
 * what does not fit or has no glyph falls back to plain text. */
/* Text shortened to a width ends at a word with a mark, never mid-word. */
START_TEST(shortened_text_ends_at_a_word_with_a_mark)
{
    char out[128];
    ck_assert_str_eq(text_shorten(out, sizeof out, "Sky is blue: attention by matrix products", 40, 1),
                     "Sky is blue: attention by matrix…");
    ck_assert_str_eq(text_shorten(out, sizeof out, "Sky is blue: attention by matrix products", 40, 0),
                     "Sky is blue: attention by matrix...");
    ck_assert_str_eq(text_shorten(out, sizeof out, "fits whole", 10, 1), "fits whole");
    ck_assert_str_eq(text_shorten(out, sizeof out, "Supercalifragilistic", 8, 1), "Superca…");
    ck_assert_str_eq(text_shorten(out, sizeof out, "a réponse très longue", 12, 1), "a réponse…");
}
END_TEST

START_TEST(big_numbers_for_the_back_of_the_room)
{
    char row[256];
    /* 0 is a ring, . a dot at the foot, 5 an S: 3 + 1 + 1 + 1 + 3 columns */
    ck_assert_int_eq(big_width("0.5", BIG_HALF), 9);
    ck_assert_str_eq(big_row("0.5", BIG_HALF, 0, 1, row, sizeof row), "█▀█   █▀▀");
    ck_assert_str_eq(big_row("0.5", BIG_HALF, 1, 1, row, sizeof row), "█ █   ▀▀█");
    ck_assert_str_eq(big_row("0.5", BIG_HALF, 2, 1, row, sizeof row), "▀▀▀ ▀ ▀▀▀");
    ck_assert_int_eq(big_width("0.5", BIG_FULL), 6 + 1 + 2 + 1 + 6);
    ck_assert_str_eq(big_row("-1", BIG_FULL, 0, 0, row, sizeof row), "         ##  ");
    ck_assert_str_eq(big_row("-1", BIG_FULL, 2, 0, row, sizeof row), "######   ##  ");
    ck_assert_str_eq(big_row("-1", BIG_FULL, 4, 0, row, sizeof row), "       ######");
    ck_assert_int_eq(big_rows(BIG_HALF), 3);
    ck_assert_int_eq(big_rows(BIG_FULL), 5);
    /* letters, as capitals, for titles and -INF */
    ck_assert_int_eq(big_width("-inf", BIG_HALF), 3 + 1 + 3 + 1 + 3 + 1 + 3);
    ck_assert_str_eq(big_row("Hi", BIG_FULL, 0, 0, row, sizeof row), "##  ## ######");
    ck_assert_str_eq(big_row("Hi", BIG_FULL, 2, 0, row, sizeof row), "######   ##  ");
    ck_assert_str_eq(big_row("Hi", BIG_FULL, 2, 0, row, sizeof row), big_row("HI", BIG_FULL, 2, 0, row + 128, 128));
    /* no glyph: plain */
    ck_assert_int_eq(big_width("-∞", BIG_HALF), -1);
    ck_assert_int_eq(big_width("tab\there", BIG_HALF), -1);
    ck_assert_str_eq(big_row("-∞", BIG_HALF, 0, 1, row, sizeof row), "");
    /* the largest that fits; half blocks only with UTF-8 */
    ck_assert_int_eq(big_fit("6.1e-6", 100, 5, 1), BIG_FULL);
    ck_assert_int_eq(big_fit("6.1e-6", 25, 5, 1), BIG_HALF);
    ck_assert_int_eq(big_fit("6.1e-6", 25, 5, 0), BIG_NONE);
    ck_assert_int_eq(big_fit("6.1e-6", 100, 4, 1), BIG_HALF);
    ck_assert_int_eq(big_fit("6.1e-6", 100, 2, 1), BIG_NONE);
}
END_TEST

/* A quoted string is whole, or cut at a character with a mark. */
START_TEST(quotes_are_cut_with_a_mark)
{
    char buf[64];
    ck_assert_str_eq(str_clip(buf, sizeof buf, "0.25", 40), "0.25");
    ck_assert_str_eq(str_clip(buf, sizeof buf, "abcdefghij", 4), "abcd...");
    /* "é" is two bytes: a cut inside it goes back to its start */
    ck_assert_str_eq(str_clip(buf, sizeof buf, "abcé", 4), "abc...");
    StrBuf b = { 0 };
    strbuf_add(&b, "%d + %d", 2, 3);
    strbuf_put(&b, " = 5", 4);
    char *text = strbuf_take(&b);
    ck_assert_str_eq(text, "2 + 3 = 5");
    free(text);
    ck_assert_ptr_null(b.s);
}
END_TEST

/* The tests' own small generator: 24 bits a draw. */
static unsigned next_random(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return *seed >> 8;
}

/* fmt_width looks at a few values, not all: it must agree with printing
 * every one, on values made to sit on num_format's edges (rounding up to
 * another digit, the switch to an exponent, its digit count, signs, zero,
 * nan, the infinities). */
START_TEST(column_width_is_the_widest_printed)
{
    static const double edges[] = { 0.0, 1.0, 9.99995, 9.99994, 99.9996, 0.00005, 0.000049999, 4.9e-5, 5e-6,
                                    9.96e-10, 9.94e-10, 1e-10, 1.2e-38, 123456.7, 0.5, 0.05, 0.0049, 1e30 };
    unsigned seed = 11u;
    char buf[64];
    for (int trial = 0; trial < 20000; trial++) {
        float v[5];
        int n = 1 + trial % 5;
        for (int i = 0; i < n; i++) {
            unsigned r = next_random(&seed);
            double x = r % 7 == 0 ? (r % 3 == 0 ? NAN : (r & 1) ? INFINITY : -INFINITY)
                                  : edges[r % (sizeof edges / sizeof *edges)] * (1.0 + ((int)(r % 5) - 2) * 1e-7);
            v[i] = (float)((r >> 4) & 1 ? -x : x);
        }
        for (int dec = 0; dec <= 6; dec++)
            for (int utf8 = 0; utf8 <= 1; utf8++) {
                int want = 1;
                for (int i = 0; i < n; i++) {
                    num_format(buf, sizeof buf, v[i], dec, utf8);
                    if (fmt_display_width(buf) > want)
                        want = fmt_display_width(buf);
                }
                ck_assert_msg(fmt_width(v, n, dec, utf8) == want, "%d values from %g, %d decimals: width %d, want %d",
                              n, (double)v[0], dec, fmt_width(v, n, dec, utf8), want);
            }
    }
}
END_TEST

/* The screen finds a heatmap's scale from the extremes it gathered for the
 * widths: the same scale as heat_scale's own pass, on every kind of
 * matrix (weights, non-negative, signed, one sign, all zeros, infinities
 * and nan among them, none finite). */
START_TEST(the_scale_from_the_extremes_is_the_scale)
{
    static const float pool[] = { 0.0f, -0.0f, 0.25f, 1.0f, 3.5f, -0.125f, -7.0f, 1e-30f, -1e-30f, 2e30f,
                                  INFINITY, -INFINITY, NAN };
    unsigned seed = 5u;
    for (int trial = 0; trial < 5000; trial++) {
        float v[6];
        int n = 1 + trial % 6;
        for (int i = 0; i < n; i++) {
            unsigned r = next_random(&seed);
            /* some trials from a pool without the odd ones, so every kind of range turns up */
            size_t k = trial % 3 == 0 ? r % 10 : r % (sizeof pool / sizeof *pool);
            v[i] = pool[k];
        }
        Mat *m = mat_of(1, n, v);
        FmtExtremes e;
        fmt_extremes_begin(&e);
        fmt_extremes_add(&e, v, n);
        float lo, hi;
        fmt_extremes_range(&e, &lo, &hi);
        HeatScale want = heat_scale(m), got = heat_scale_of_range(lo, hi);
        ck_assert_msg(got.diverging == want.diverging && got.lo == want.lo && got.hi == want.hi,
                      "trial %d (%d values from %g): scale %d %g..%g, want %d %g..%g", trial, n, (double)v[0],
                      got.diverging, (double)got.lo, (double)got.hi, want.diverging, (double)want.lo,
                      (double)want.hi);
        mat_free(m);
    }
}
END_TEST

Suite *present_suite(void)
{
    Suite *s = suite_create("present");
    TCase *c = tcase_create("core");
    tcase_add_test(c, numbers_have_one_form);
    tcase_add_test(c, column_width_is_the_widest_printed);
    tcase_add_test(c, quotes_are_cut_with_a_mark);
    tcase_add_test(c, each_kind_of_matrix_has_its_scale);
    tcase_add_test(c, the_scale_from_the_extremes_is_the_scale);
    tcase_add_test(c, a_printed_heatmap_says_what_its_shades_mean);
    tcase_add_test(c, big_numbers_for_the_back_of_the_room);
    tcase_add_test(c, answers_show_the_digits_checked);
    tcase_add_test(c, shortened_text_ends_at_a_word_with_a_mark);
    suite_add_tcase(s, c);
    return s;
}
