/*
 * explain_name.c - how explanations and pane titles name things: a short
 * expression for any matrix as a lesson would write it ("S", "K^T",
 * "(W_q @ X)", "sqrt(4)"), spelled by the operation table's style of each
 * operation; how a matrix was made ("softmax_rows(S / sqrt(2))"); the
 * 1-based name of a cell, and the walk from a cell back through the
 * operations that only move numbers (transpose, copy, views, cat, element)
 * to the nearest named matrix.
 */
#include "explain.h"
#include "explain_internal.h"
#include "ops.h"
#include "optable.h"

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

static void str_cat(char *buf, size_t size, const char *s)
{
    size_t used = strlen(buf);
    if (used + 1 < size)
        snprintf(buf + used, size - used, "%s", s);
}

/* How the namer writes: an explanation's operand (its name when it has
 * one, every infix operation in parentheses) or a pane's title (how the
 * matrix itself was made, parentheses only where an operand needs them). */
typedef struct {
    int how;        /* describe the top matrix's operation even when named */
} NameMode;

static void name_into(const Mat *m, char *buf, size_t size, int depth, const NameMode *mode, int wrap);

/* Append operand m's expression to buf (bounded). */
static void operand_cat(char *buf, size_t size, const Mat *m, int depth, const NameMode *mode, int wrap)
{
    size_t used = strlen(buf);
    if (used + 1 < size)
        name_into(m, buf + used, size - used, depth, mode, wrap);
}

/* The expression of m into buf by its operation's spelling in the
 * operation table (OpInfo.style). wrap: m is the operand of an infix
 * operator (1: an infix expression needs parentheses in the pane's style)
 * or of ^T or [i,j] (2: a negation needs them too). */
static void name_into(const Mat *m, char *buf, size_t size, int depth, const NameMode *mode, int wrap)
{
    buf[0] = '\0';
    if (!m) {
        snprintf(buf, size, "?");
        return;
    }
    int top = mode->how && depth == 0;
    if (m->name[0] && !top) {
        snprintf(buf, size, "%s", m->name);
        return;
    }
    const Prov *p = &m->prov;
    const OpInfo *op = optable_op(p->op);
    if (!op)
        op = optable_op(OP_INPUT);
    if (depth >= EXPLAIN_EXPR_DEPTH && p->op != OP_INPUT) {
        snprintf(buf, size, "(...)");
        return;
    }
    char num[48];
    switch (op->style) {
    case OPNAME_VALUE:
        if (top)
            break;      /* a given matrix: nothing to say how */
        if (m->rows == 1 && m->cols == 1)
            snprintf(buf, size, "%g", (double)mat_get(m, 0, 0));
        else
            snprintf(buf, size, "[%dx%d]", m->rows, m->cols);
        break;
    case OPNAME_SIZED:
        if (op->size_what[1])
            snprintf(buf, size, "%s(%d, %d)", op->name, m->rows, m->cols);
        else
            snprintf(buf, size, "%s(%d)", op->name, m->rows);
        break;
    case OPNAME_SAME:       /* at the top of a title, the copied matrix by name */
        name_into(p->a, buf, size, depth + top, mode, wrap);
        break;
    case OPNAME_POSTFIX:
        operand_cat(buf, size, p->a, depth + 1, mode, 2);
        str_cat(buf, size, op->name);
        break;
    case OPNAME_PREFIX:
        str_cat(buf, size, wrap > 1 ? "(-" : "-");
        operand_cat(buf, size, p->a, depth + 1, mode, 1);
        str_cat(buf, size, wrap > 1 ? ")" : "");
        break;
    case OPNAME_INFIX: { /* the transposes only a product has are 0 elsewhere */
        int parens = !mode->how || wrap;
        str_cat(buf, size, parens ? "(" : "");
        operand_cat(buf, size, p->a, depth + 1, mode, 1);
        snprintf(num, sizeof num, "%s %s ", p->trans_a ? "^T" : "", op->name);
        str_cat(buf, size, num);
        operand_cat(buf, size, p->b, depth + 1, mode, 1);
        str_cat(buf, size, p->trans_b ? "^T" : "");
        str_cat(buf, size, parens ? ")" : "");
        break;
    }
    case OPNAME_RANGE: {
        int r0, c0;
        view_origin(m, &r0, &c0);
        snprintf(buf, size, "%s(", op->name);
        operand_cat(buf, size, p->a, depth + 1, mode, 0);
        if (p->op == OP_ROWS)
            snprintf(num, sizeof num, ", %d, %d)", r0 + 1, r0 + m->rows);
        else
            snprintf(num, sizeof num, ", %d, %d)", c0 + 1, c0 + m->cols);
        str_cat(buf, size, num);
        break;
    }
    case OPNAME_INDEX:
        operand_cat(buf, size, p->a, depth + 1, mode, 2);
        snprintf(num, sizeof num, "[%d,%d]", p->lo + 1, p->hi + 1);
        str_cat(buf, size, num);
        break;
    case OPNAME_CALL: { /* f(a), f(a, b), f(p1, p2, ...) */
        const Mat *two[2] = { p->a, p->b };
        const Mat *const *args = p->n_parts ? (const Mat *const *)p->parts : two;
        int n = p->n_parts ? p->n_parts : p->b ? 2 : 1;
        snprintf(buf, size, "%s(", op->name);
        for (int i = 0; i < n; i++) {
            if (i)
                str_cat(buf, size, ", ");
            operand_cat(buf, size, args[i], depth + 1, mode, 0);
        }
        str_cat(buf, size, ")");
        break;
    }
    case OPNAME_PARAMS: { /* rope(X, 10000), window_mask(4, 2) */
        snprintf(buf, size, "%s(", op->name);
        if (p->a)
            operand_cat(buf, size, p->a, depth + 1, mode, 0);
        for (int i = 0; i < p->n_param; i++) {
            snprintf(num, sizeof num, "%s%g", p->a || i ? ", " : "", p->param[i]);
            str_cat(buf, size, num);
        }
        str_cat(buf, size, ")");
        break;
    }
    }
}

void explain_expr(const Mat *m, char *buf, size_t size, int depth)
{
    static const NameMode operand = { 0 };
    name_into(m, buf, size, depth, &operand, 0);
}

const char *explain_how(const Mat *m, char *buf, size_t size)
{
    static const NameMode how = { 1 };
    if (buf && size > 0)
        name_into(m, buf, size, 0, &how, 0);
    return buf;
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

/* The steps back through each operation that only moves numbers, named by
 * the rows of explain_table.c. */
const Mat *explain_back_copy(const Mat *m, int *r, int *c)
{
    (void)r;
    (void)c;
    return m->prov.a;
}

const Mat *explain_back_transpose(const Mat *m, int *r, int *c)
{
    int t = *r;
    *r = *c;
    *c = t;
    return m->prov.a;
}

const Mat *explain_back_view(const Mat *m, int *r, int *c)
{
    int r0, c0;
    view_origin(m, &r0, &c0);
    *r += r0;
    *c += c0;
    return m->prov.a;
}

const Mat *explain_back_element(const Mat *m, int *r, int *c)
{
    *r = m->prov.lo;
    *c = m->prov.hi;
    return m->prov.a;
}

const Mat *explain_back_repeat(const Mat *m, int *r, int *c)
{
    (void)r;
    *c = op_repeat_source(*c, (int)m->prov.param[0], (int)m->prov.param[1]);
    return m->prov.a;
}

const Mat *explain_back_cat(const Mat *m, int *r, int *c)
{
    const Prov *p = &m->prov;
    int *at = p->op == OP_HCAT ? c : r;
    for (int i = 0; i < p->n_parts; i++) {
        const Mat *part = p->parts[i];
        int extent = p->op == OP_HCAT ? part->cols : part->rows;
        if (*at < extent)
            return part;
        *at -= extent;
    }
    return NULL;
}

/* One step back from cell (r, c) of m through an operation that copies
 * numbers; returns the source matrix and updates r, c, or NULL when m's
 * operation computes its cells. */
const Mat *explain_source_step(const Mat *m, int *r, int *c)
{
    const ExplainRow *row = explain_row(m->prov.op);
    return row && row->back ? row->back(m, r, c) : NULL;
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
