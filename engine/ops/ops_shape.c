/*
 * ops_shape.c - the operations that make or reshape matrices rather than
 * compute on values: constant and positional matrices (causal mask,
 * sinusoidal encodings, zeros, ones, eye), concatenation, and ranges as
 * views (rows, cols, one element). Messages quote ranges 1-based, as the
 * lessons write them. Nothing here prints or exits.
 */
#include "alloc.h"
#include "ops.h"

#include <math.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mat_make.h"
#include "ops_kernel.h"

/* ---- constant and positional matrices ---------------------------------------- */

/* A new r x c matrix for a generator named what; NULL with err set. */
static Mat *new_made(int r, int c, MatOp op, AttnError *err)
{
    Mat *m = mat_new(r, c, err);
    if (m)
        m->prov.op = op;
    return m;
}

attn_status op_causal_mask(Mat **out, int n, AttnError *err)
{
    BEGIN(out, err);
    if (!out)
        return missing(err, OP_CAUSAL_MASK);
    Mat *m = new_made(n, n, OP_CAUSAL_MASK, err);
    if (!m)
        return err->code;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            mat_set(m, i, j, -INFINITY);
    *out = m;
    return ATTN_OK;
}

/* Row p, column k of a sinusoidal encoding: the pair (k & ~1, k | 1) shares
 * one angle p / 10000^(e/d), sine on the even member and cosine on the odd.
 * The paper's exponent e is the pair index times two (2i for columns 2i and
 * 2i+1); the notebook's is twice the even column's index (2k for columns k
 * and k+1, k = 0, 2, 4 ...). */
static attn_status posenc(Mat **out, int n, int d, MatOp op, AttnError *err)
{
    BEGIN(out, err);
    if (!out)
        return missing(err, op);
    Mat *m = new_made(n, d, op, err);
    if (!m)
        return err->code;
    for (int k = 0; k < d; k += 2) {
        double e = op == OP_POSENC_BOOK ? 2.0 * k : (double)k;
        double freq = pow(10000.0, e / d);
        for (int p = 0; p < n; p++) {
            double angle = p / freq;
            mat_set(m, p, k, (float)sin(angle));
            if (k + 1 < d)
                mat_set(m, p, k + 1, (float)cos(angle));
        }
    }
    *out = m;
    return ATTN_OK;
}

attn_status op_posenc(Mat **out, int n, int d, AttnError *err)
{
    return posenc(out, n, d, OP_POSENC, err);
}

attn_status op_posenc_book(Mat **out, int n, int d, AttnError *err)
{
    return posenc(out, n, d, OP_POSENC_BOOK, err);
}

attn_status op_zeros(Mat **out, int r, int c, AttnError *err)
{
    BEGIN(out, err);
    if (!out)
        return attn_fail(err, ATTN_E_ARG, "zeros was given no matrix");
    *out = new_made(r, c, OP_INPUT, err);
    return *out ? ATTN_OK : err->code;
}

attn_status op_ones(Mat **out, int r, int c, AttnError *err)
{
    attn_status st = op_zeros(out, r, c, err);
    if (st != ATTN_OK)
        return st;
    for (int i = 0; i < r; i++)
        for (int j = 0; j < c; j++)
            mat_set(*out, i, j, 1.0f);
    return ATTN_OK;
}

attn_status op_eye(Mat **out, int n, AttnError *err)
{
    attn_status st = op_zeros(out, n, n, err);
    if (st != ATTN_OK)
        return st;
    for (int i = 0; i < n; i++)
        mat_set(*out, i, i, 1.0f);
    return ATTN_OK;
}

/* ---- concatenation ---------------------------------------------------------------- */

/* Concatenate labels of one axis of every part, or NULL unless all have them. */
static Labels *concat_labels(Mat *const *parts, int n, int rows_axis)
{
    int total = 0;
    for (int p = 0; p < n; p++) {
        const Labels *l = rows_axis ? parts[p]->row_labels : parts[p]->col_labels;
        if (!l)
            return NULL;
        total += l->n;
    }
    const char **names = attn_malloc((size_t)total * sizeof *names);
    if (!names)
        return NULL;
    int k = 0;
    for (int p = 0; p < n; p++) {
        const Labels *l = rows_axis ? parts[p]->row_labels : parts[p]->col_labels;
        for (int t = 0; t < l->n; t++)
            names[k++] = l->names[t];
    }
    Labels *all = labels_new(total, names);
    free(names);
    return all;
}

/* hcat (horizontal) or vcat: parts agree on the kept axis; the other adds up. */
static attn_status concat(Mat **out, Mat *const *parts, int n, int horizontal, AttnError *err)
{
    const char *op = mat_op_name(horizontal ? OP_HCAT : OP_VCAT);
    BEGIN(out, err);
    if (!out || !parts || n < 1)
        return attn_fail(err, ATTN_E_ARG, "%s needs at least one matrix", op);
    for (int p = 0; p < n; p++)
        if (!parts[p])
            return attn_fail(err, ATTN_E_ARG, "%s was given no matrix as part %d", op, p + 1);
    OpShape *x = attn_malloc((size_t)n * sizeof *x);
    if (!x)
        return attn_fail(err, ATTN_E_NOMEM, "out of memory checking %d parts", n);
    int64_t total = 0;
    for (int p = 0; p < n; p++) {
        x[p] = (OpShape){ parts[p]->rows, parts[p]->cols, who(parts[p], "an unnamed matrix") };
        total += horizontal ? parts[p]->cols : parts[p]->rows;
    }
    int r, c;
    attn_status fit = fits(horizontal ? OP_HCAT : OP_VCAT, x, n, &r, &c, err);
    free(x);
    if (fit != ATTN_OK)
        return fit;
    if (total > INT_MAX)
        return attn_fail(err, ATTN_E_TOO_BIG, "%s of %d parts would have %lld %s; the limit is %lld",
                         op, n, (long long)total, horizontal ? "columns" : "rows",
                         (long long)MAT_MAX_ELEMS);
    Mat *m = mat_new(r, c, err);
    if (!m)
        return err->code;
    int at = 0;
    for (int p = 0; p < n; p++) {
        const Mat *part = parts[p];
        for (int i = 0; i < part->rows; i++)
            memcpy(horizontal ? mat_row(m, i) + at : mat_row(m, at + i), mat_row(part, i),
                   (size_t)part->cols * sizeof(float));
        at += horizontal ? part->cols : part->rows;
    }
    Labels *joined = concat_labels(parts, n, !horizontal);
    if (horizontal) {
        mat_set_row_labels(m, parts[0]->row_labels);
        mat_set_col_labels(m, joined);
    } else {
        mat_set_col_labels(m, parts[0]->col_labels);
        mat_set_row_labels(m, joined);
    }
    labels_free(joined);
    attn_status st = mat_set_prov_parts(m, horizontal ? OP_HCAT : OP_VCAT, parts, n, err);
    if (st != ATTN_OK) {
        mat_free(m);
        return st;
    }
    *out = m;
    return ATTN_OK;
}

attn_status op_hcat(Mat **out, Mat *const *parts, int n, AttnError *err)
{
    return concat(out, parts, n, 1, err);
}

attn_status op_vcat(Mat **out, Mat *const *parts, int n, AttnError *err)
{
    return concat(out, parts, n, 0, err);
}

/* ---- ranges ------------------------------------------------------------------ */

/* Check lo..hi-1 against an axis of size n; the message quotes the range
 * 1-based and inclusive (lo + 1 .. hi), as `rows(A, a, b)` writes it. */
static attn_status check_range(const Mat *a, int lo, int hi, int n, const char *axis, AttnError *err)
{
    if (lo >= hi)
        return attn_fail(err, ATTN_E_RANGE, "%s %d..%d of %s: the first comes after the last",
                         axis, lo + 1, hi, who(a, "the matrix"));
    if (lo < 0 || hi > n)
        return attn_fail(err, ATTN_E_RANGE, "%s %d..%d are outside %s, which has %d %s (%dx%d)",
                         axis, lo + 1, hi, who(a, "the matrix"), n, axis, a->rows, a->cols);
    return ATTN_OK;
}

/* Rows (by_rows) or columns lo..hi-1 of a as a view sharing a's buffer;
 * the sliced axis takes its slice of a's labels, the other keeps them. */
static attn_status range_view(Mat **out, const Mat *a, int lo, int hi, int by_rows, AttnError *err)
{
    BEGIN(out, err);
    if (!out || !a)
        return missing(err, by_rows ? OP_ROWS : OP_COLS);
    attn_status st = check_range(a, lo, hi, by_rows ? a->rows : a->cols, by_rows ? "rows" : "columns", err);
    if (st != ATTN_OK)
        return st;
    Mat *v = by_rows ? mat_view(a, OP_ROWS, lo, 0, hi - lo, a->cols, err)
                     : mat_view(a, OP_COLS, 0, lo, a->rows, hi - lo, err);
    if (!v)
        return err->code;
    v->prov.lo = lo;
    v->prov.hi = hi;
    if (by_rows) {
        set_sliced(v, a->row_labels, lo, hi, mat_set_row_labels);
        mat_set_col_labels(v, a->col_labels);
    } else {
        mat_set_row_labels(v, a->row_labels);
        set_sliced(v, a->col_labels, lo, hi, mat_set_col_labels);
    }
    *out = v;
    return ATTN_OK;
}

attn_status op_rows(Mat **out, const Mat *a, int lo, int hi, AttnError *err)
{
    return range_view(out, a, lo, hi, 1, err);
}

attn_status op_cols(Mat **out, const Mat *a, int lo, int hi, AttnError *err)
{
    return range_view(out, a, lo, hi, 0, err);
}

attn_status op_element(Mat **out, const Mat *a, int i, int j, AttnError *err)
{
    BEGIN(out, err);
    if (!out || !a)
        return missing(err, OP_ELEMENT);
    if (i < 0 || i >= a->rows || j < 0 || j >= a->cols)
        return attn_fail(err, ATTN_E_RANGE, "%s[%d,%d] is outside %s, which is %dx%d",
                         who(a, "the matrix"), i + 1, j + 1, who(a, "the matrix"), a->rows, a->cols);
    Mat *m = mat_new(1, 1, err);
    if (!m)
        return err->code;
    mat_set(m, 0, 0, mat_get(a, i, j));
    set_sliced(m, a->row_labels, i, i + 1, mat_set_row_labels);
    set_sliced(m, a->col_labels, j, j + 1, mat_set_col_labels);
    mat_set_prov(m, OP_ELEMENT, a, NULL);
    m->prov.lo = i;
    m->prov.hi = j;
    *out = m;
    return ATTN_OK;
}
