/*
 * explain_name.c - how explanations name things: a short expression for any
 * matrix as a lesson would write it ("S", "K^T", "(W_q @ X)", "sqrt(4)"),
 * the 1-based name of a cell, and the walk from a cell back through the
 * operations that only move numbers (transpose, copy, views, cat, element)
 * to the nearest named matrix.
 */
#include "explain.h"
#include "explain_internal.h"

#include <stdio.h>
#include <string.h>

/* Unnamed matrices are described to this depth of nested operations. */
#define EXPLAIN_EXPR_DEPTH 3

/* ---- names of matrices and cells ------------------------------------- */

/* Where a view (OP_ROWS / OP_COLS) starts in its parent. */
static void view_origin(const Mat *v, int *r0, int *c0)
{
    const Mat *p = v->prov.a;
    *r0 = *c0 = 0;
    if (!v->buf && p && v->ld == p->ld && v->data >= p->data) {
        ptrdiff_t off = v->data - p->data;
        *r0 = (int)(off / p->ld);
        *c0 = (int)(off % p->ld);
    } else if (v->prov.op == OP_ROWS) {
        *r0 = v->prov.lo;
    } else {
        *c0 = v->prov.lo;
    }
}

/* Append the expression of m to buf (bounded). */
static void expr_cat(char *buf, size_t size, const Mat *m, int depth)
{
    size_t used = strlen(buf);
    if (used + 1 < size)
        explain_expr(m, buf + used, size - used, depth);
}

static void str_cat(char *buf, size_t size, const char *s)
{
    size_t used = strlen(buf);
    if (used + 1 < size)
        snprintf(buf + used, size - used, "%s", s);
}

/* A short expression for m as a lesson would write it: its name, else the
 * operation on its operands' expressions ("(W_q @ X)", "K^T", "sqrt(4)"). */
void explain_expr(const Mat *m, char *buf, size_t size, int depth)
{
    buf[0] = '\0';
    if (!m) {
        snprintf(buf, size, "?");
        return;
    }
    if (m->name[0]) {
        snprintf(buf, size, "%s", m->name);
        return;
    }
    const Prov *p = &m->prov;
    if (depth >= EXPLAIN_EXPR_DEPTH && p->op != OP_INPUT) {
        snprintf(buf, size, "(...)");
        return;
    }
    char num[48];
    switch (p->op) {
    case OP_INPUT:
        if (m->rows == 1 && m->cols == 1) {
            snprintf(buf, size, "%g", (double)mat_get(m, 0, 0));
        } else {
            snprintf(buf, size, "[%dx%d]", m->rows, m->cols);
        }
        break;
    case OP_RANDN:
        snprintf(buf, size, "randn(%d, %d)", m->rows, m->cols);
        break;
    case OP_COPY:
        explain_expr(p->a, buf, size, depth);
        break;
    case OP_TRANSPOSE:
        expr_cat(buf, size, p->a, depth + 1);
        str_cat(buf, size, "^T");
        break;
    case OP_MATMUL: /* the transposes only a product has are 0 elsewhere */
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV:
        str_cat(buf, size, "(");
        expr_cat(buf, size, p->a, depth + 1);
        snprintf(num, sizeof num, "%s %s ", p->trans_a ? "^T" : "", mat_op_name(p->op));
        str_cat(buf, size, num);
        expr_cat(buf, size, p->b, depth + 1);
        str_cat(buf, size, p->trans_b ? "^T)" : ")");
        break;
    case OP_NEG:
        str_cat(buf, size, "-");
        expr_cat(buf, size, p->a, depth + 1);
        break;
    case OP_ROWS: case OP_COLS: {
        int r0, c0;
        view_origin(m, &r0, &c0);
        snprintf(buf, size, "%s(", mat_op_name(p->op));
        expr_cat(buf, size, p->a, depth + 1);
        if (p->op == OP_ROWS)
            snprintf(num, sizeof num, ", %d, %d)", r0 + 1, r0 + m->rows);
        else
            snprintf(num, sizeof num, ", %d, %d)", c0 + 1, c0 + m->cols);
        str_cat(buf, size, num);
        break;
    }
    case OP_ELEMENT:
        expr_cat(buf, size, p->a, depth + 1);
        snprintf(num, sizeof num, "[%d,%d]", p->lo + 1, p->hi + 1);
        str_cat(buf, size, num);
        break;
    case OP_HCAT: case OP_VCAT:
        snprintf(buf, size, "%s(", mat_op_name(p->op));
        for (int i = 0; i < p->n_parts; i++) {
            if (i)
                str_cat(buf, size, ", ");
            expr_cat(buf, size, p->parts[i], depth + 1);
        }
        str_cat(buf, size, ")");
        break;
    case OP_CAUSAL_MASK:
        snprintf(buf, size, "causal_mask(%d)", m->rows);
        break;
    case OP_POSENC: case OP_POSENC_BOOK:
        snprintf(buf, size, "%s(%d, %d)", mat_op_name(p->op), m->rows, m->cols);
        break;
    case OP_COSINE:
        str_cat(buf, size, "cosine(");
        expr_cat(buf, size, p->a, depth + 1);
        str_cat(buf, size, ", ");
        expr_cat(buf, size, p->b, depth + 1);
        str_cat(buf, size, ")");
        break;
    default: /* softmax, layernorm, relu, exp, log, sqrt: f(a) */
        snprintf(buf, size, "%s(", mat_op_name(p->op));
        expr_cat(buf, size, p->a, depth + 1);
        str_cat(buf, size, ")");
        break;
    }
}

const char *explain_cell_name(const Mat *m, int row, int col, char *buf, size_t size)
{
    if (!buf || size == 0)
        return buf;
    char expr[EXPLAIN_EXPR_MAX];
    explain_expr(m, expr, sizeof expr, 0);
    if (m && !m->name[0] && m->rows == 1 && m->cols == 1)
        snprintf(buf, size, "%s", expr);    /* a scalar: "sqrt(2)", not "sqrt(2)[1,1]" */
    else
        snprintf(buf, size, "%s[%d,%d]", expr, row + 1, col + 1);
    return buf;
}

/* ---- following cells back through operations that only move numbers -- */

/* One step back from cell (r, c) of m through an operation that copies
 * numbers; returns the source matrix and updates r, c, or NULL when m's
 * operation computes its cells. */
const Mat *explain_source_step(const Mat *m, int *r, int *c)
{
    const Prov *p = &m->prov;
    switch (p->op) {
    case OP_COPY:
        return p->a;
    case OP_TRANSPOSE: {
        int t = *r;
        *r = *c;
        *c = t;
        return p->a;
    }
    case OP_ROWS: case OP_COLS: {
        int r0, c0;
        view_origin(m, &r0, &c0);
        *r += r0;
        *c += c0;
        return p->a;
    }
    case OP_ELEMENT:
        *r = p->lo;
        *c = p->hi;
        return p->a;
    case OP_HCAT: case OP_VCAT:
        for (int i = 0; i < p->n_parts; i++) {
            const Mat *part = p->parts[i];
            int *at = p->op == OP_HCAT ? c : r;
            int extent = p->op == OP_HCAT ? part->cols : part->rows;
            if (*at < extent)
                return part;
            *at -= extent;
        }
        return NULL;
    default:
        return NULL;
    }
}

/* The cell (r, c) of m, followed back to the nearest named matrix (or the
 * first one that computes its cells). */
CellRef explain_resolve(const Mat *m, int r, int c)
{
    CellRef ref = { m, r, c, mat_get(m, r, c) };
    const Mat *cur = m;
    while (cur && !cur->name[0]) {
        int rr = r, cc = c;
        const Mat *src = explain_source_step(cur, &rr, &cc);
        if (!src || rr < 0 || cc < 0 || rr >= src->rows || cc >= src->cols)
            break;
        cur = src;
        r = rr;
        c = cc;
    }
    ref.mat = cur;
    ref.row = r;
    ref.col = c;
    return ref;
}
