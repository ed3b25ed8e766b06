/*
 * ops_course.c - the operations of attention as models use it, with
 * numbers among their arguments (LESSON-FORMAT.md, "Operations for
 * attention as models use it"): rotary positions (rope, rope_half), the
 * sliding-window and ALiBi masks, the top-k mask and repeat_heads. Each
 * records its numbers in the provenance, where the explainers and the
 * names read them. Rows are positions: row i is position p0 + i - 1.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "ops.h"
#include "ops_kernel.h"

static void set_params(Mat *m, const double *p, int n)
{
    m->prov.n_param = n < 2 ? n : 2;
    for (int i = 0; i < m->prov.n_param; i++)
        m->prov.param[i] = p[i];
}

/* ---- rotary positions ----------------------------------------------------- */

double op_rope_angle(double base, int cols, int pair, double position)
{
    return position * pow(base, -2.0 * pair / cols);
}

static attn_status rope(Mat **out, const Mat *a, const double *p, int n, MatOp op, RopeSlip slip, AttnError *err)
{
    BEGIN(out, err);
    if (!out || !a)
        return missing(err, op);
    OpShape x = { a->rows, a->cols, who(a, "the matrix") };
    int r, c;
    if (fits(op, &x, 1, &r, &c, err) != ATTN_OK)
        return err->code;
    double base = n > 0 ? p[0] : 10000.0, p0 = n > 1 ? p[1] : 0.0;
    if (!(base > 0) || !isfinite(base))
        return attn_fail(err, ATTN_E_ARG, "%s needs a base above 0, not %g", mat_op_name(op), base);
    Mat *m = new_like(a, err);
    if (!m)
        return err->code;
    int half = a->cols / 2;
    for (int i = 0; i < a->rows; i++)
        for (int k = 0; k < half; k++) {
            int u = op == OP_ROPE ? 2 * k : k, v = op == OP_ROPE ? 2 * k + 1 : k + half;
            double theta = op_rope_angle(base, a->cols, k, p0 + i), cs = cos(theta), sn = sin(theta);
            if (slip == ROPE_SIN_FOR_COS) {     /* each in the other's place */
                double t = cs;
                cs = sn;
                sn = t;
            } else if (slip == ROPE_BACKWARDS) {
                sn = -sn;
            }
            double xu = mat_get(a, i, u), xv = mat_get(a, i, v);
            mat_set(m, i, u, (float)(xu * cs - xv * sn));
            mat_set(m, i, v, (float)(xu * sn + xv * cs));
        }
    mat_set_prov(m, op, a, NULL);
    double kept[2] = { base, p0 };
    set_params(m, kept, 2);
    *out = m;
    return ATTN_OK;
}

attn_status op_rope(Mat **out, const Mat *a, const double *p, int n, AttnError *err)
{
    return rope(out, a, p, n, OP_ROPE, ROPE_AS_WRITTEN, err);
}

attn_status op_rope_half(Mat **out, const Mat *a, const double *p, int n, AttnError *err)
{
    return rope(out, a, p, n, OP_ROPE_HALF, ROPE_AS_WRITTEN, err);
}

attn_status op_rope_slipped(Mat **out, const Mat *a, const double *p, int n, int half, RopeSlip slip,
                            AttnError *err)
{
    return rope(out, a, p, n, half ? OP_ROPE_HALF : OP_ROPE, slip, err);
}

/* ---- masks and biases from positions --------------------------------------- */

/* An n x n matrix of positions' values: f(i, j) for the cells it keeps,
 * -inf above the diagonal and wherever keep says no. */
static attn_status positions(Mat **out, int n, MatOp op, const double *p, int np, AttnError *err)
{
    BEGIN(out, err);
    if (!out)
        return missing(err, op);
    if (n < 1)
        return attn_fail(err, ATTN_E_ARG, "%s needs n of at least 1, not %d", mat_op_name(op), n);
    Mat *m = mat_new(n, n, err);
    if (!m)
        return err->code;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float v = -INFINITY;
            if (op == OP_WINDOW_MASK && i - j >= 0 && i - j < (int)p[1])
                v = 0.0f;
            else if (op == OP_ALIBI && j <= i)
                v = (float)(p[1] * (j - i));
            if (op == OP_ALIBI && j <= i && !isfinite(v)) {
                /* the -inf above the diagonal is the mask's; one below it
                 * would be arithmetic made up (honest arithmetic, finite.h) */
                mat_free(m);
                return attn_fail(err, ATTN_E_ARG, "alibi's bias m * (j - i) = %g * %d at [%d,%d] is beyond a float; "
                                 "a slope that large is no slope a model uses", p[1], j - i, i + 1, j + 1);
            }
            mat_set(m, i, j, v);
        }
    mat_set_prov(m, op, NULL, NULL);
    set_params(m, p, np);
    *out = m;
    return ATTN_OK;
}

attn_status op_window_mask(Mat **out, const Mat *a, const double *p, int n, AttnError *err)
{
    (void)a;
    return positions(out, n > 0 ? (int)p[0] : 0, OP_WINDOW_MASK, p, n, err);
}

attn_status op_alibi(Mat **out, const Mat *a, const double *p, int n, AttnError *err)
{
    (void)a;
    return positions(out, n > 0 ? (int)p[0] : 0, OP_ALIBI, p, n, err);
}

/* ---- top-k ------------------------------------------------------------------ */

/* Is S[i,j] among the k largest of row i? Larger values first, and of
 * equal ones the earlier column: the cells before j that outrank it. */
int op_topk_rank(const Mat *s, int i, int j)
{
    float v = mat_get(s, i, j);
    int above = 0;
    for (int t = 0; t < s->cols; t++) {
        float w = mat_get(s, i, t);
        above += w > v || (w == v && t < j);
    }
    return above;
}

attn_status op_topk_mask(Mat **out, const Mat *a, const double *p, int n, AttnError *err)
{
    BEGIN(out, err);
    if (!out || !a)
        return missing(err, OP_TOPK_MASK);
    int k = n > 0 ? (int)p[0] : 0;
    if (k < 1 || k > a->cols)
        return attn_fail(err, ATTN_E_ARG, "topk_mask keeps k of each row's %d values: k must be from 1 to %d, not %d",
                         a->cols, a->cols, k);
    Mat *m = new_like(a, err);
    if (!m)
        return err->code;
    for (int i = 0; i < a->rows; i++)
        for (int j = 0; j < a->cols; j++)
            mat_set(m, i, j, op_topk_rank(a, i, j) < k ? 0.0f : -INFINITY);
    mat_set_prov(m, OP_TOPK_MASK, a, NULL);
    set_params(m, p, 1);
    *out = m;
    return ATTN_OK;
}

/* ---- repeat_heads ------------------------------------------------------------- */

int op_repeat_source(int col, int dk, int r)
{
    return (col / dk / r) * dk + col % dk;
}

attn_status op_repeat_heads(Mat **out, const Mat *a, const double *p, int n, AttnError *err)
{
    BEGIN(out, err);
    if (!out || !a || n < 2)
        return missing(err, OP_REPEAT_HEADS);
    int dk = (int)p[0], r = (int)p[1];
    if (dk < 1 || a->cols % dk != 0)
        return attn_fail(err, ATTN_E_SHAPE,
                         "repeat_heads needs the columns of %s (%d) to split into heads of dk = %d columns",
                         who(a, "the matrix"), a->cols, dk);
    if ((long long)a->cols * r > INT_MAX)
        return attn_fail(err, ATTN_E_TOO_BIG, "repeat_heads would make %lld columns", (long long)a->cols * r);
    Mat *m = mat_new(a->rows, a->cols * r, err);
    if (!m)
        return err->code;
    for (int i = 0; i < a->rows; i++)
        for (int j = 0; j < m->cols; j++)
            mat_set(m, i, j, mat_get(a, i, op_repeat_source(j, dk, r)));
    mat_set_row_labels(m, a->row_labels);
    mat_set_prov(m, OP_REPEAT_HEADS, a, NULL);
    set_params(m, p, 2);
    *out = m;
    return ATTN_OK;
}
