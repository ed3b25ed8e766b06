/*
 * explain_ops.c - the explainers of explain_table.c, one per kind of
 * operation: what one cell of a product, a softmax, a layer norm, an
 * element-wise operation, a mask, an encoding, a cosine or a where is
 * made of, written into the builder (explain_builder.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain_builder.h"
#include "explain_internal.h"
#include "optable.h"

void explain_input(Builder *b, const Mat *m, int row, int col)
{
    (void)row;
    (void)col;
    eb_input_text(b, m);
}

/* The cell one step back of a gathering op, when it exists and fits. */
static int gather_source_ok(const Mat *m, int row, int col)
{
    int r = row, c = col;
    const Mat *src = explain_source_step(m, &r, &c);
    return src && r >= 0 && c >= 0 && r < src->rows && c < src->cols;
}

/* A cell that was copied from another: the source cell (a given value
 * when the source cannot be followed). */
void explain_gather(Builder *b, const Mat *m, int row, int col)
{
    if (!gather_source_ok(m, row, col)) {
        eb_input_text(b, m);
        return;
    }
    int r = row, c = col;
    const Mat *src = explain_source_step(m, &r, &c);
    char name[EXPLAIN_NAME_MAX];
    b->ex->kind = EXPLAIN_GATHER;
    eb_add_cell(b, src, r, c);
    eb_target_head(b);
    strbuf_add(&b->text, "%s", eb_operand_name(src, r, c, name, sizeof name));
    if (m->prov.op == OP_TRANSPOSE)
        strbuf_add(&b->text, " (transposed)");
    else if (m->prov.op == OP_HCAT || m->prov.op == OP_VCAT)
        strbuf_add(&b->text, " (%s)", mat_op_name(m->prov.op));
    eb_result_line(b);
}

/* A product cell, optionally followed by `scale_op scale_m` (1x1). */
static void product_text(Builder *b, const Mat *prod, int row, int col, const Mat *scale_m, char scale_op)
{
    const Prov *p = &prod->prov;
    const Mat *a = p->a, *bm = p->b;
    int inner = p->trans_a ? a->rows : a->cols;
    Explanation *ex = b->ex;
    ex->kind = EXPLAIN_DOT;
    for (int k = 0; k < inner; k++) {
        if (p->trans_a)
            eb_add_cell(b, a, k, row);
        else
            eb_add_cell(b, a, row, k);
        if (p->trans_b)
            eb_add_cell(b, bm, col, k);
        else
            eb_add_cell(b, bm, k, col);
    }
    if (scale_m) {
        eb_add_cell(b, scale_m, 0, 0);
        ex->scale_op = scale_op;
        ex->scale = mat_get(scale_m, 0, 0);
    }
    if (b->failed)
        return;

    char ea[EXPLAIN_NAME_MAX], eb[EXPLAIN_NAME_MAX], es[EXPLAIN_NAME_MAX];
    explain_expr(a, ea, sizeof ea, 1);
    explain_expr(bm, eb, sizeof eb, 1);
    eb_target_head(b);
    strbuf_add(&b->text, "%s%s%s[%d,:] . %s%s[:,%d]%s", scale_m ? "(" : "", ea, p->trans_a ? "^T" : "", row + 1, eb,
             p->trans_b ? "^T" : "", col + 1, scale_m ? ")" : "");
    if (scale_m) {
        explain_expr(scale_m, es, sizeof es, 1);
        strbuf_add(&b->text, " %c %s", scale_op, es);
    }
    strbuf_add(&b->text, "\n= %s", scale_m ? "(" : "");
    eb_text_pairs(b, 0, inner);
    if (scale_m) {
        strbuf_add(&b->text, ") %c ", scale_op);
        eb_put_num(b, ex->scale);
    }
    eb_result_line(b);
}

/* The product m = a @ b / s (or * s) when a is an unnamed product and s a
 * 1x1: returns the product and sets *scale / *op; else NULL. */
static const Mat *folded_product(const Mat *m, const Mat **scale, char *op)
{
    const Prov *p = &m->prov;
    if ((p->op != OP_DIV && p->op != OP_MUL) || !p->a || !p->b)
        return NULL;
    const Mat *x = p->a, *y = p->b;
    if (p->op == OP_MUL && x->rows == 1 && x->cols == 1) {
        const Mat *t = x;
        x = y;
        y = t;
    }
    if (x->prov.op != OP_MATMUL || x->name[0] || y->rows != 1 || y->cols != 1 || x->rows != m->rows ||
        x->cols != m->cols)
        return NULL;
    *scale = y;
    *op = p->op == OP_DIV ? '/' : '*';
    return x;
}

/* The cell of operand o that broadcasts onto (row, col) of an r x c result. */
static void broadcast_cell(const Mat *o, int row, int col, int *r, int *c)
{
    *r = o->rows == 1 ? 0 : row;
    *c = o->cols == 1 ? 0 : col;
}

/* An element-wise cell of two operands, each broadcast: where in a and b
 * it reads (into ra, ca and rb, cb), both marked as operands. 0, or -1
 * when the builder failed. */
static int two_cells(Builder *b, const Prov *p, int row, int col, int *ra, int *ca, int *rb, int *cb)
{
    broadcast_cell(p->a, row, col, ra, ca);
    broadcast_cell(p->b, row, col, rb, cb);
    b->ex->kind = EXPLAIN_ELEMENTWISE;
    eb_add_cell(b, p->a, *ra, *ca);
    eb_add_cell(b, p->b, *rb, *cb);
    return b->failed ? -1 : 0;
}

void explain_product(Builder *b, const Mat *m, int row, int col)
{
    product_text(b, m, row, col, NULL, 0);
}

/* An element-wise cell; a product scaled by a number (S = K^T @ Q / 2) is
 * explained as one formula. */
void explain_binary(Builder *b, const Mat *m, int row, int col)
{
    const Mat *scale = NULL;
    char scale_op = 0;
    const Mat *prod = folded_product(m, &scale, &scale_op);
    if (prod) {
        product_text(b, prod, row, col, scale, scale_op);
        return;
    }
    const Prov *p = &m->prov;
    int ra, ca, rb, cb;
    if (two_cells(b, p, row, col, &ra, &ca, &rb, &cb) != 0)
        return;
    char na[EXPLAIN_NAME_MAX], nb[EXPLAIN_NAME_MAX];
    const char *op = mat_op_name(p->op);
    eb_target_head(b);
    strbuf_add(&b->text, "%s %s %s", eb_operand_name(p->a, ra, ca, na, sizeof na), op,
             eb_operand_name(p->b, rb, cb, nb, sizeof nb));
    strbuf_add(&b->text, "\n= ");
    eb_put_term(b, b->ex->operands[0].value);
    strbuf_add(&b->text, " %s ", op);
    eb_put_term(b, b->ex->operands[1].value);
    eb_result_line(b);
}

void explain_unary(Builder *b, const Mat *m, int row, int col)
{
    const Mat *a = m->prov.a;
    b->ex->kind = EXPLAIN_ELEMENTWISE;
    eb_add_cell(b, a, row, col);
    if (b->failed)
        return;
    char na[EXPLAIN_NAME_MAX], num[48];
    double v = b->ex->operands[0].value;
    eb_fmt_num(num, sizeof num, v, b->decimals);
    eb_operand_name(a, row, col, na, sizeof na);
    eb_target_head(b);
    if (m->prov.op == OP_NEG) {
        strbuf_add(&b->text, "-%s\n= -(%s)", na, num);
    } else {
        const char *fn = mat_op_name(m->prov.op);
        strbuf_add(&b->text, "%s(%s)\n= %s(%s)", fn, na, fn, num);
        if (m->prov.op == OP_RELU)
            strbuf_add(&b->text, " = max(0, %s)", num);
        else if (m->prov.op == OP_ELU && v <= 0)
            strbuf_add(&b->text, " = exp(%s) - 1", num);
    }
    eb_result_line(b);
}

/* rowmax, rowsum (the cell is row `row` of an R x 1 result), colmax,
 * colsum (column `col` of a 1 x C one): every cell of the line. */
void explain_reduce(Builder *b, const Mat *m, int row, int col)
{
    const Mat *a = m->prov.a;
    MatOp op = m->prov.op;
    int by_rows = op == OP_ROWMAX || op == OP_ROWSUM, is_max = op == OP_ROWMAX || op == OP_COLMAX;
    int line = by_rows ? row : col, n = by_rows ? a->cols : a->rows;
    b->ex->kind = EXPLAIN_REDUCE;
    for (int k = 0; k < n; k++)
        eb_add_cell(b, a, by_rows ? line : k, by_rows ? k : line);
    if (b->failed)
        return;
    char ea[EXPLAIN_NAME_MAX];
    explain_expr(a, ea, sizeof ea, 1);
    eb_target_head(b);
    if (by_rows)
        strbuf_add(&b->text, is_max ? "the largest of %s[%d,:]" : "sum_n %s[%d,n]", ea, line + 1);
    else
        strbuf_add(&b->text, is_max ? "the largest of %s[:,%d]" : "sum_m %s[m,%d]", ea, line + 1);
    strbuf_add(&b->text, is_max ? "\n= max(" : "\n= ");
    for (int k = 0; k < n; k++) {
        if (eb_term_elided_here(k, n))
            strbuf_add(&b->text, is_max ? ", ..." : " + ...");
        if (!eb_term_shown(k, n))
            continue;
        if (k)
            strbuf_add(&b->text, is_max ? ", " : " + ");
        if (is_max)
            eb_put_num(b, b->ex->operands[k].value);
        else
            eb_put_term(b, b->ex->operands[k].value);
    }
    if (is_max)
        strbuf_add(&b->text, ")");
    eb_result_line(b);
}

/* A function of two cells, each broadcast: maximum(a, b). */
void explain_call2(Builder *b, const Mat *m, int row, int col)
{
    const Prov *p = &m->prov;
    int ra, ca, rb, cb;
    if (two_cells(b, p, row, col, &ra, &ca, &rb, &cb) != 0)
        return;
    char na[EXPLAIN_NAME_MAX], nb[EXPLAIN_NAME_MAX];
    const char *fn = mat_op_name(p->op);
    eb_target_head(b);
    strbuf_add(&b->text, "%s(%s, %s)\n= %s(", fn, eb_operand_name(p->a, ra, ca, na, sizeof na),
               eb_operand_name(p->b, rb, cb, nb, sizeof nb), fn);
    eb_put_num(b, b->ex->operands[0].value);
    strbuf_add(&b->text, ", ");
    eb_put_num(b, b->ex->operands[1].value);
    strbuf_add(&b->text, ")");
    eb_result_line(b);
}

/* Softmax along a row (rows = 1) or down a column of a. */
void explain_softmax(Builder *b, const Mat *m, int row, int col)
{
    const Mat *a = m->prov.a;
    int by_rows = m->prov.op == OP_SOFTMAX_ROWS;
    int n = by_rows ? a->cols : a->rows;
    int own = by_rows ? col : row;
    b->ex->kind = EXPLAIN_SOFTMAX;
    eb_add_cell(b, a, row, col);
    for (int k = 0; k < n; k++)
        if (k != own)
            eb_add_cell(b, a, by_rows ? row : k, by_rows ? k : col);
    if (b->failed)
        return;

    char ea[EXPLAIN_NAME_MAX], own_name[EXPLAIN_NAME_MAX];
    explain_expr(a, ea, sizeof ea, 1);
    explain_cell_name(a, row, col, own_name, sizeof own_name);
    eb_target_head(b);
    /* a line that is -inf throughout has nothing to weigh: softmax
     * defines its weights as 0 (read from the line itself, so copies and
     * edited inputs explain the same) */
    int masked = 1;
    for (int k = 0; k < n && masked; k++) {
        double v = by_rows ? mat_get(a, row, k) : mat_get(a, k, col);
        masked = isinf(v) && v < 0;
    }
    if (masked) {
        if (by_rows)
            strbuf_add(&b->text, "0: row %d is fully masked (every %s[%d,:] is -inf), so its weights are defined as 0",
                     row + 1, ea, row + 1);
        else
            strbuf_add(&b->text,
                     "0: column %d is fully masked (every %s[:,%d] is -inf), so its weights are defined as 0",
                     col + 1, ea, col + 1);
        eb_result_line(b);
        return;
    }
    if (by_rows)
        strbuf_add(&b->text, "exp(%s - max) / sum_n exp(%s[%d,n] - max)", own_name, ea, row + 1);
    else
        strbuf_add(&b->text, "exp(%s - max) / sum_m exp(%s[m,%d] - max)", own_name, ea, col + 1);

    double max = -INFINITY;
    for (int k = 0; k < n; k++) {
        double v = by_rows ? mat_get(a, row, k) : mat_get(a, k, col);
        if (v > max)
            max = v;
    }
    strbuf_add(&b->text, "\n= exp(");
    eb_put_num(b, mat_get(a, row, col));
    strbuf_add(&b->text, " - ");
    eb_put_term(b, max);
    strbuf_add(&b->text, ") / (");
    for (int k = 0; k < n; k++) {
        if (eb_term_elided_here(k, n))
            strbuf_add(&b->text, " + ...");
        if (!eb_term_shown(k, n))
            continue;
        double v = by_rows ? mat_get(a, row, k) : mat_get(a, k, col);
        if (k)
            strbuf_add(&b->text, " + ");
        eb_put_num(b, isinf(v) && v < 0 ? 0.0 : exp(v - max));
    }
    strbuf_add(&b->text, ")");
    eb_result_line(b);
}

void explain_layernorm(Builder *b, const Mat *m, int row, int col)
{
    const Mat *a = m->prov.a;
    int n = a->cols;
    b->ex->kind = EXPLAIN_LAYERNORM;
    eb_add_cell(b, a, row, col);
    for (int k = 0; k < n; k++)
        if (k != col)
            eb_add_cell(b, a, row, k);
    if (b->failed)
        return;
    double mean = 0, var = 0;
    for (int k = 0; k < n; k++)
        mean += mat_get(a, row, k);
    mean /= n;
    for (int k = 0; k < n; k++) {
        double d = mat_get(a, row, k) - mean;
        var += d * d;
    }
    var /= n;
    char ea[EXPLAIN_NAME_MAX], own[EXPLAIN_NAME_MAX];
    explain_expr(a, ea, sizeof ea, 1);
    explain_cell_name(a, row, col, own, sizeof own);
    eb_target_head(b);
    strbuf_add(&b->text, "(%s - mean) / sqrt(var + 1e-5), mean and var of %s[%d,:]", own, ea, row + 1);
    strbuf_add(&b->text, "\n= (");
    eb_put_num(b, mat_get(a, row, col));
    strbuf_add(&b->text, " - ");
    eb_put_term(b, mean);
    strbuf_add(&b->text, ") / sqrt(");
    eb_put_num(b, var);
    strbuf_add(&b->text, " + 1e-5)");
    eb_result_line(b);
}

void explain_mask(Builder *b, const Mat *m, int row, int col)
{
    (void)m;
    b->ex->kind = EXPLAIN_FORMULA;
    eb_target_head(b);
    if (col > row)
        strbuf_add(&b->text, "-inf: column %d comes after row %d, a later position is hidden", col + 1, row + 1);
    else
        strbuf_add(&b->text, "0: column %d is not after row %d, so it stays visible", col + 1, row + 1);
    eb_result_line(b);
}

/* Sinusoidal encoding: row = position, col = element k. The paper's
 * exponent is the pair's even index 2i over d; the notebook's variant
 * (posenc_book) doubles it. */
void explain_posenc(Builder *b, const Mat *m, int row, int col)
{
    int book = m->prov.op == OP_POSENC_BOOK;
    int even = col - col % 2;
    int expo = book ? 2 * even : even;
    const char *fn = col % 2 ? "cos" : "sin";
    int d = m->cols;
    b->ex->kind = EXPLAIN_FORMULA;
    eb_target_head(b);
    strbuf_add(&b->text, "%s(pos / 10000^(%s/d)), pos %d, %s %d, d %d", fn, book ? "2k" : "2i", row, book ? "k" : "2i",
             even, d);
    double angle = row / pow(10000.0, (double)expo / d);
    strbuf_add(&b->text, "\n= %s(%d / 10000^(%d/%d)) = %s(", fn, row, expo, d, fn);
    eb_put_num(b, angle);
    strbuf_add(&b->text, ")");
    eb_result_line(b);
}

/* cosine(a, b): the dot product of the two vectors over their norms. */
void explain_cosine(Builder *b, const Mat *m, int row, int col)
{
    (void)row;
    (void)col;
    const Mat *a = m->prov.a, *v = m->prov.b;
    int n = a->rows * a->cols;
    double na = 0, nb = 0;
    Explanation *ex = b->ex;
    ex->kind = EXPLAIN_DOT;
    for (int k = 0; k < n; k++) {
        int ra = k / a->cols, cra = k % a->cols, rb = k / v->cols, cb = k % v->cols;
        eb_add_cell(b, a, ra, cra);
        eb_add_cell(b, v, rb, cb);
        na += (double)mat_get(a, ra, cra) * mat_get(a, ra, cra);
        nb += (double)mat_get(v, rb, cb) * mat_get(v, rb, cb);
    }
    if (b->failed)
        return;
    double norms = sqrt(na) * sqrt(nb);
    char ea[EXPLAIN_NAME_MAX], eb[EXPLAIN_NAME_MAX];
    explain_expr(a, ea, sizeof ea, 1);
    explain_expr(v, eb, sizeof eb, 1);
    eb_target_head(b);
    strbuf_add(&b->text, "(%s . %s) / (|%s| |%s|)", ea, eb, ea, eb);
    if (norms == 0) {
        strbuf_add(&b->text, "\n= 0, a vector is all zeros");
    } else {
        ex->scale_op = '/';
        ex->scale = (float)norms;
        strbuf_add(&b->text, "\n= (");
        eb_text_pairs(b, 0, n);
        strbuf_add(&b->text, ") / (");
        eb_put_num(b, sqrt(na));
        strbuf_add(&b->text, " * ");
        eb_put_num(b, sqrt(nb));
        strbuf_add(&b->text, ")");
    }
    eb_result_line(b);
}

/* where(c, a, b): the condition's cell, and the cell of the part it picks. */
void explain_where(Builder *b, const Mat *m, int row, int col)
{
    Mat *const *x = m->prov.parts;
    int rc, cc, rp, cp;
    broadcast_cell(x[0], row, col, &rc, &cc);
    int take = mat_get(x[0], rc, cc) != 0.0f;
    const Mat *pick = x[take ? 1 : 2];
    broadcast_cell(pick, row, col, &rp, &cp);
    b->ex->kind = EXPLAIN_ELEMENTWISE;
    eb_add_cell(b, x[0], rc, cc);
    eb_add_cell(b, pick, rp, cp);
    if (b->failed)
        return;
    char nc[EXPLAIN_NAME_MAX], np[EXPLAIN_NAME_MAX];
    eb_target_head(b);
    strbuf_add(&b->text, "%s, because %s is %s\n= ", eb_operand_name(pick, rp, cp, np, sizeof np),
             eb_operand_name(x[0], rc, cc, nc, sizeof nc), take ? "not 0" : "0");
    eb_put_num(b, b->ex->operands[1].value);
}
