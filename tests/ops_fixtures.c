/*
 * ops_fixtures.c - what the operation suites (check_ops.c, check_ops_shape.c)
 * share: a seeded generator, matrices from literals or at random, labels,
 * and assertions of values and of refusals.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>

#include "ops_fixtures.h"

uint32_t ops_lcg_state = 12345u;

float ops_rnd(void)
{
    ops_lcg_state = ops_lcg_state * 1664525u + 1013904223u;
    return (float)((ops_lcg_state >> 8) / 16777216.0 * 4.0 - 2.0);   /* [-2, 2) */
}

Mat *random_mat(int rows, int cols)
{
    AttnError err;
    Mat *m = mat_new(rows, cols, &err);
    ck_assert_msg(m != NULL, "mat_new(%d, %d): %s", rows, cols, err.msg);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            mat_set(m, i, j, ops_rnd());
    return m;
}

Mat *lit(int rows, int cols, const float *v, const char *name)
{
    AttnError err;
    Mat *m = mat_from(rows, cols, v, &err);
    ck_assert_msg(m != NULL, "mat_from: %s", err.msg);
    if (name)
        mat_set_name(m, name);
    return m;
}

Labels *labels3(const char *a, const char *b, const char *c, int n)
{
    const char *names[] = { a, b, c };
    return labels_new(n, names);
}

/* Assert got equals want element-wise within tol (absolute, scaled by
 * max(1, |want|)); a failure names the max difference and where. */
void assert_close(const Mat *got, const Mat *want, double tol, const char *what)
{
    ck_assert_msg(got->rows == want->rows && got->cols == want->cols, "%s: shape %dx%d, want %dx%d",
                  what, got->rows, got->cols, want->rows, want->cols);
    double worst = 0.0;
    int wi = 0, wj = 0;
    for (int i = 0; i < got->rows; i++)
        for (int j = 0; j < got->cols; j++) {
            double g = mat_get(got, i, j), w = mat_get(want, i, j);
            double d = g == w || (isnan(g) && isnan(w)) ? 0.0 : fabs(g - w) / fmax(1.0, fabs(w));
            if (isnan(g) != isnan(w) || (isinf(w) && g != w))
                d = INFINITY;
            if (d > worst || isnan(d)) {
                worst = d;
                wi = i;
                wj = j;
            }
        }
    ck_assert_msg(worst <= tol, "%s: max difference %g at [%d,%d] (got %.9g, want %.9g)", what, worst,
                  wi + 1, wj + 1, mat_get(got, wi, wj), mat_get(want, wi, wj));
}

void assert_values(const Mat *m, int rows, int cols, const float *want, double tol, const char *what)
{
    Mat *w = lit(rows, cols, want, NULL);
    assert_close(m, w, tol, what);
    mat_free(w);
}

void assert_err(attn_status st, const AttnError *err, const Mat *out, attn_status code, const char *msg)
{
    ck_assert_msg(st == code, "status %s, want %s (%s)", attn_status_str(st), attn_status_str(code), err->msg);
    ck_assert_int_eq(err->code, code);
    ck_assert_ptr_null(out);
    if (msg)
        ck_assert_str_eq(err->msg, msg);
}
