/*
 * explain_fixtures.c - what the explanation suites (check_explain.c,
 * check_explain_text.c) share: matrices made by the operations and freed
 * together at the end of a test, the value an explanation's operands give
 * back, and assertions on its cells and text.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "explain_fixtures.h"

#define MAX_KEPT 64
/* Matrices of one test, freed together. */
static Mat *kept[MAX_KEPT];
static int n_kept;

/* pm is read after the call that filled it (argument order is unspecified). */
Mat *keep(attn_status st, Mat *const *pm, const char *what)
{
    Mat *m = *pm;
    ck_assert_msg(st == ATTN_OK && m, "%s failed: %s", what, attn_status_str(st));
    ck_assert(n_kept < MAX_KEPT);
    kept[n_kept++] = m;
    return m;
}

void free_kept(void)
{
    while (n_kept > 0)
        mat_free(kept[--n_kept]);
}

/* A named input matrix (no name when name is NULL). */
Mat *input(const char *name, int r, int c, const float *v)
{
    Mat *m = mat_from(r, c, v, NULL);
    ck_assert_msg(m != NULL, "mat_from %s", name);
    keep(ATTN_OK, &m, name);
    if (name)
        mat_set_name(m, name);
    return m;
}

Mat *scalar(float v)
{
    return input(NULL, 1, 1, &v);
}


Mat *op1(UnaryOp fn, const Mat *a, const char *what)
{
    Mat *o = NULL;
    return keep(fn(&o, a, NULL), &o, what);
}

Mat *op2(BinaryOp fn, const Mat *a, const Mat *b, const char *what)
{
    Mat *o = NULL;
    return keep(fn(&o, a, b, NULL), &o, what);
}


Mat *matmul(const Mat *a, int ta, const Mat *b, int tb)
{
    Mat *o = NULL;
    return keep(op_matmul(&o, a, ta, b, tb, NULL), &o, "op_matmul");
}

/* The value an explanation's operands give. */
double recompute(const Explanation *ex)
{
    const CellRef *o = ex->operands;
    switch (ex->kind) {
    case EXPLAIN_DOT: {
        double sum = 0;
        for (int k = 0; k + 1 < ex->n_operands; k += 2)
            sum += (double)o[k].value * o[k + 1].value;
        if (ex->scale_op == '/')
            sum /= ex->scale;
        else if (ex->scale_op == '*')
            sum *= ex->scale;
        return sum;
    }
    case EXPLAIN_SOFTMAX: {
        double max = -INFINITY, sum = 0;
        for (int k = 0; k < ex->n_operands; k++)
            max = fmax(max, o[k].value);
        for (int k = 0; k < ex->n_operands; k++)
            sum += exp(o[k].value - max);
        return exp(o[0].value - max) / sum;
    }
    case EXPLAIN_LAYERNORM: {
        double mean = 0, var = 0;
        for (int k = 0; k < ex->n_operands; k++)
            mean += o[k].value;
        mean /= ex->n_operands;
        for (int k = 0; k < ex->n_operands; k++)
            var += (o[k].value - mean) * (o[k].value - mean);
        var /= ex->n_operands;
        return (o[0].value - mean) / sqrt(var + 1e-5);
    }
    case EXPLAIN_GATHER:
        return o[0].value;
    default:
        return NAN;
    }
}

void assert_adds_up(const Explanation *ex)
{
    double got = recompute(ex);
    ck_assert_msg(fabs(got - ex->target.value) <= EX_TOL * fmax(1.0, fabs(ex->target.value)),
                  "operands give %.9g, the cell holds %.9g\n%s", got, ex->target.value, ex->text);
}

void assert_cell(const CellRef *c, const Mat *m, int row, int col)
{
    ck_assert_msg(c->mat == m && c->row == row && c->col == col, "operand is %s[%d,%d], expected %s[%d,%d]",
                  c->mat ? c->mat->name : "?", c->row + 1, c->col + 1, m->name, row + 1, col + 1);
    ck_assert_float_eq(c->value, mat_get(m, row, col));
}

void assert_text(const Explanation *ex, const char *piece)
{
    ck_assert_msg(ex->text && strstr(ex->text, piece), "text lacks \"%s\":\n%s", piece, ex->text ? ex->text : "(null)");
}

const float K_V[12] = { 0.52f, -1.1f, 0.3f, 0.25f, 0.7f, -0.4f, -0.9f, 0.15f, 1.2f, 0.05f, -0.33f, 0.8f };
const float Q_V[12] = { -0.67f, 0.4f, 1.1f, 0.9f, -0.2f, 0.35f, 0.6f, -1.3f, 0.45f, 0.12f, 0.75f, -0.5f };

/* K and Q: 4 x 3, tokens as columns. */
void make_kq(Mat **k, Mat **q)
{
    *k = input("K", 4, 3, K_V);
    *q = input("Q", 4, 3, Q_V);
}
