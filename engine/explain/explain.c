/*
 * explain.c - the arithmetic behind one cell of a matrix, read from its
 * provenance: which cells fed it, in which formula, with the real numbers.
 *
 * A cell is explained one operation deep: a product cell as a dot product
 * of a row and a column (with a following division or multiplication by a
 * scalar folded in, so S = K^T @ Q / sqrt(4) reads as one formula); a
 * softmax cell over its line; a layer-norm cell over its row; element-wise
 * ops on their (broadcast) operand cells; copies, transposes, ranges and
 * concatenations as the cell they came from; masks and encodings from the
 * position alone. Operand cells are followed through the operations that
 * only move numbers (transpose, copy, views, cat, element) back to the
 * nearest named matrix, so K^T[2,k] is reported as K[k,2].
 *
 * The text has three lines: the formula with names and 1-based indices as
 * the lessons write them, the same with the numbers (4 decimals unless asked
 * otherwise, the middle
 * of long sums elided), and "= value". Cells with no arithmetic (inputs,
 * copies) have two: what they are, and the value.
 */
#include "alloc.h"
#include "explain.h"
#include "explain_internal.h"
#include "optable.h"
#include "strbuf.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sums over more terms than this show the first EXPLAIN_HEAD and the last
 * EXPLAIN_TAIL terms around "...". */
#define EXPLAIN_MAX_TERMS 8
#define EXPLAIN_HEAD 4
#define EXPLAIN_TAIL 2

/* The text grows in a StrBuf (base/strbuf.h); numbers go in at the
 * builder's decimals. */

/* ---- building an explanation ----------------------------------------- */

typedef struct ExplainBuilder {
    Explanation *ex;
    int cap;
    int failed;
    StrBuf text;
    int decimals;       /* of the numbers in the text */
} Builder;

/* A number as the explanations print it: the one formatter, in ASCII. */
static const char *fmt_num(char *buf, size_t size, double v, int decimals)
{
    num_format(buf, size, v, decimals, 0);
    return buf;
}

static void put_num(Builder *b, double v)
{
    char buf[48];
    strbuf_add(&b->text, "%s", fmt_num(buf, sizeof buf, v, b->decimals));
}

/* A number inside a product or sum: negatives in parentheses. */
static void put_term(Builder *b, double v)
{
    char buf[48];
    fmt_num(buf, sizeof buf, v, b->decimals);
    strbuf_add(&b->text, v < 0 ? "(%s)" : "%s", buf);
}

static void add_cell(Builder *b, const Mat *m, int r, int c)
{
    Explanation *ex = b->ex;
    if (b->failed)
        return;
    if (ex->n_operands == b->cap) {
        int cap = b->cap ? b->cap * 2 : 16;
        CellRef *ops = attn_realloc(ex->operands, (size_t)cap * sizeof *ops);
        if (!ops) {
            b->failed = 1;
            return;
        }
        ex->operands = ops;
        b->cap = cap;
    }
    ex->operands[ex->n_operands++] = explain_resolve(m, r, c);
}

/* The name of cell (r, c) of m as an operand: the resolved named cell. */
static const char *operand_name(const Mat *m, int r, int c, char *buf, size_t size)
{
    CellRef ref = explain_resolve(m, r, c);
    return explain_cell_name(ref.mat, ref.row, ref.col, buf, size);
}

static void target_head(Builder *b)
{
    char name[EXPLAIN_NAME_MAX];
    const CellRef *t = &b->ex->target;
    strbuf_add(&b->text, "%s = ", explain_cell_name(t->mat, t->row, t->col, name, sizeof name));
}

static void result_line(Builder *b)
{
    strbuf_add(&b->text, "\n= ");
    put_num(b, b->ex->target.value);
}

/* Should term k of n be printed, and is it where the "..." goes? */
static int term_shown(int k, int n)
{
    return n <= EXPLAIN_MAX_TERMS || k < EXPLAIN_HEAD || k >= n - EXPLAIN_TAIL;
}

static int term_elided_here(int k, int n)
{
    return n > EXPLAIN_MAX_TERMS && k == EXPLAIN_HEAD;
}

/* "a1*b1 + a2*b2 + ... + an*bn" over the operand pairs from first. */
static void text_pairs(Builder *b, int first, int n_pairs)
{
    const CellRef *o = b->ex->operands + first;
    for (int k = 0; k < n_pairs; k++) {
        if (term_elided_here(k, n_pairs))
            strbuf_add(&b->text, " + ...");
        if (!term_shown(k, n_pairs))
            continue;
        if (k)
            strbuf_add(&b->text, " + ");
        put_term(b, o[2 * k].value);
        strbuf_add(&b->text, "*");
        put_term(b, o[2 * k + 1].value);
    }
}

static void input_text(Builder *b, const Mat *m)
{
    target_head(b);
    if (m->prov.op == OP_RANDN)
        strbuf_add(&b->text, "a draw of randn(%d, %d)", m->rows, m->cols);
    else
        strbuf_add(&b->text, "a given value");
    result_line(b);
}

void explain_input(Builder *b, const Mat *m, int row, int col)
{
    (void)row;
    (void)col;
    input_text(b, m);
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
        input_text(b, m);
        return;
    }
    int r = row, c = col;
    const Mat *src = explain_source_step(m, &r, &c);
    char name[EXPLAIN_NAME_MAX];
    b->ex->kind = EXPLAIN_GATHER;
    add_cell(b, src, r, c);
    target_head(b);
    strbuf_add(&b->text, "%s", operand_name(src, r, c, name, sizeof name));
    if (m->prov.op == OP_TRANSPOSE)
        strbuf_add(&b->text, " (transposed)");
    else if (m->prov.op == OP_HCAT || m->prov.op == OP_VCAT)
        strbuf_add(&b->text, " (%s)", mat_op_name(m->prov.op));
    result_line(b);
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
            add_cell(b, a, k, row);
        else
            add_cell(b, a, row, k);
        if (p->trans_b)
            add_cell(b, bm, col, k);
        else
            add_cell(b, bm, k, col);
    }
    if (scale_m) {
        add_cell(b, scale_m, 0, 0);
        ex->scale_op = scale_op;
        ex->scale = mat_get(scale_m, 0, 0);
    }
    if (b->failed)
        return;

    char ea[EXPLAIN_NAME_MAX], eb[EXPLAIN_NAME_MAX], es[EXPLAIN_NAME_MAX];
    explain_expr(a, ea, sizeof ea, 1);
    explain_expr(bm, eb, sizeof eb, 1);
    target_head(b);
    strbuf_add(&b->text, "%s%s%s[%d,:] . %s%s[:,%d]%s", scale_m ? "(" : "", ea, p->trans_a ? "^T" : "", row + 1, eb,
             p->trans_b ? "^T" : "", col + 1, scale_m ? ")" : "");
    if (scale_m) {
        explain_expr(scale_m, es, sizeof es, 1);
        strbuf_add(&b->text, " %c %s", scale_op, es);
    }
    strbuf_add(&b->text, "\n= %s", scale_m ? "(" : "");
    text_pairs(b, 0, inner);
    if (scale_m) {
        strbuf_add(&b->text, ") %c ", scale_op);
        put_num(b, ex->scale);
    }
    result_line(b);
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
    broadcast_cell(p->a, row, col, &ra, &ca);
    broadcast_cell(p->b, row, col, &rb, &cb);
    b->ex->kind = EXPLAIN_ELEMENTWISE;
    add_cell(b, p->a, ra, ca);
    add_cell(b, p->b, rb, cb);
    if (b->failed)
        return;
    char na[EXPLAIN_NAME_MAX], nb[EXPLAIN_NAME_MAX];
    const char *op = mat_op_name(p->op);
    target_head(b);
    strbuf_add(&b->text, "%s %s %s", operand_name(p->a, ra, ca, na, sizeof na), op,
             operand_name(p->b, rb, cb, nb, sizeof nb));
    strbuf_add(&b->text, "\n= ");
    put_term(b, b->ex->operands[0].value);
    strbuf_add(&b->text, " %s ", op);
    put_term(b, b->ex->operands[1].value);
    result_line(b);
}

void explain_unary(Builder *b, const Mat *m, int row, int col)
{
    const Mat *a = m->prov.a;
    b->ex->kind = EXPLAIN_ELEMENTWISE;
    add_cell(b, a, row, col);
    if (b->failed)
        return;
    char na[EXPLAIN_NAME_MAX], num[48];
    double v = b->ex->operands[0].value;
    fmt_num(num, sizeof num, v, b->decimals);
    operand_name(a, row, col, na, sizeof na);
    target_head(b);
    if (m->prov.op == OP_NEG) {
        strbuf_add(&b->text, "-%s\n= -(%s)", na, num);
    } else {
        const char *fn = mat_op_name(m->prov.op);
        strbuf_add(&b->text, "%s(%s)\n= %s(%s)", fn, na, fn, num);
        if (m->prov.op == OP_RELU)
            strbuf_add(&b->text, " = max(0, %s)", num);
    }
    result_line(b);
}

/* Softmax along a row (rows = 1) or down a column of a. */
void explain_softmax(Builder *b, const Mat *m, int row, int col)
{
    const Mat *a = m->prov.a;
    int by_rows = m->prov.op == OP_SOFTMAX_ROWS;
    int n = by_rows ? a->cols : a->rows;
    int own = by_rows ? col : row;
    b->ex->kind = EXPLAIN_SOFTMAX;
    add_cell(b, a, row, col);
    for (int k = 0; k < n; k++)
        if (k != own)
            add_cell(b, a, by_rows ? row : k, by_rows ? k : col);
    if (b->failed)
        return;

    char ea[EXPLAIN_NAME_MAX], own_name[EXPLAIN_NAME_MAX];
    explain_expr(a, ea, sizeof ea, 1);
    explain_cell_name(a, row, col, own_name, sizeof own_name);
    target_head(b);
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
        result_line(b);
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
    put_num(b, mat_get(a, row, col));
    strbuf_add(&b->text, " - ");
    put_term(b, max);
    strbuf_add(&b->text, ") / (");
    for (int k = 0; k < n; k++) {
        if (term_elided_here(k, n))
            strbuf_add(&b->text, " + ...");
        if (!term_shown(k, n))
            continue;
        double v = by_rows ? mat_get(a, row, k) : mat_get(a, k, col);
        if (k)
            strbuf_add(&b->text, " + ");
        put_num(b, isinf(v) && v < 0 ? 0.0 : exp(v - max));
    }
    strbuf_add(&b->text, ")");
    result_line(b);
}

void explain_layernorm(Builder *b, const Mat *m, int row, int col)
{
    const Mat *a = m->prov.a;
    int n = a->cols;
    b->ex->kind = EXPLAIN_LAYERNORM;
    add_cell(b, a, row, col);
    for (int k = 0; k < n; k++)
        if (k != col)
            add_cell(b, a, row, k);
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
    target_head(b);
    strbuf_add(&b->text, "(%s - mean) / sqrt(var + 1e-5), mean and var of %s[%d,:]", own, ea, row + 1);
    strbuf_add(&b->text, "\n= (");
    put_num(b, mat_get(a, row, col));
    strbuf_add(&b->text, " - ");
    put_term(b, mean);
    strbuf_add(&b->text, ") / sqrt(");
    put_num(b, var);
    strbuf_add(&b->text, " + 1e-5)");
    result_line(b);
}

void explain_mask(Builder *b, const Mat *m, int row, int col)
{
    (void)m;
    b->ex->kind = EXPLAIN_FORMULA;
    target_head(b);
    if (col > row)
        strbuf_add(&b->text, "-inf: column %d comes after row %d, a later position is hidden", col + 1, row + 1);
    else
        strbuf_add(&b->text, "0: column %d is not after row %d, so it stays visible", col + 1, row + 1);
    result_line(b);
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
    target_head(b);
    strbuf_add(&b->text, "%s(pos / 10000^(%s/d)), pos %d, %s %d, d %d", fn, book ? "2k" : "2i", row, book ? "k" : "2i",
             even, d);
    double angle = row / pow(10000.0, (double)expo / d);
    strbuf_add(&b->text, "\n= %s(%d / 10000^(%d/%d)) = %s(", fn, row, expo, d, fn);
    put_num(b, angle);
    strbuf_add(&b->text, ")");
    result_line(b);
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
        add_cell(b, a, ra, cra);
        add_cell(b, v, rb, cb);
        na += (double)mat_get(a, ra, cra) * mat_get(a, ra, cra);
        nb += (double)mat_get(v, rb, cb) * mat_get(v, rb, cb);
    }
    if (b->failed)
        return;
    double norms = sqrt(na) * sqrt(nb);
    char ea[EXPLAIN_NAME_MAX], eb[EXPLAIN_NAME_MAX];
    explain_expr(a, ea, sizeof ea, 1);
    explain_expr(v, eb, sizeof eb, 1);
    target_head(b);
    strbuf_add(&b->text, "(%s . %s) / (|%s| |%s|)", ea, eb, ea, eb);
    if (norms == 0) {
        strbuf_add(&b->text, "\n= 0, a vector is all zeros");
    } else {
        ex->scale_op = '/';
        ex->scale = (float)norms;
        strbuf_add(&b->text, "\n= (");
        text_pairs(b, 0, n);
        strbuf_add(&b->text, ") / (");
        put_num(b, sqrt(na));
        strbuf_add(&b->text, " * ");
        put_num(b, sqrt(nb));
        strbuf_add(&b->text, ")");
    }
    result_line(b);
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
    add_cell(b, x[0], rc, cc);
    add_cell(b, pick, rp, cp);
    if (b->failed)
        return;
    char nc[EXPLAIN_NAME_MAX], np[EXPLAIN_NAME_MAX];
    target_head(b);
    strbuf_add(&b->text, "%s, because %s is %s\n= ", operand_name(pick, rp, cp, np, sizeof np),
             operand_name(x[0], rc, cc, nc, sizeof nc), take ? "not 0" : "0");
    put_num(b, b->ex->operands[1].value);
}

/* Does m's provenance hold the operands its operation needs, in shapes
 * that fit m by the operation's shape rule? (A matrix edited in place or
 * built by hand may not.) Operations that only move numbers are checked
 * cell by cell when followed (explain_gather). */
static int prov_complete(const Mat *m, const OpInfo *op)
{
    const Prov *p = &m->prov;
    if (op->parts)
        return p->n_parts >= op->min_args && (op->max_args < 0 || p->n_parts <= op->max_args);
    if (op->args != OPARGS_MATS)
        return 1;
    int n = op->binary || op->matmul ? 2 : 1;
    const Mat *x[2] = { p->a, p->b };
    int trans[2] = { p->trans_a, p->trans_b };
    OpShape s[2];
    for (int i = 0; i < n; i++) {
        if (!x[i])
            return 0;
        s[i] = (OpShape){ trans[i] ? x[i]->cols : x[i]->rows, trans[i] ? x[i]->rows : x[i]->cols, "" };
    }
    int r, c, bad;
    return optable_check_shape(op, s, n, &r, &c, &bad, NULL) && r == m->rows && c == m->cols;
}

attn_status explain_cell(Explanation *ex, const Mat *m, int row, int col, AttnError *err)
{
    return explain_cell_digits(ex, m, row, col, EXPLAIN_DECIMALS, err);
}

attn_status explain_cell_digits(Explanation *ex, const Mat *m, int row, int col, int decimals, AttnError *err)
{
    if (!ex)
        return attn_fail(err, ATTN_E_ARG, "no explanation to fill");
    memset(ex, 0, sizeof *ex);
    if (!m)
        return attn_fail(err, ATTN_E_ARG, "no matrix to explain");
    if (row < 0 || col < 0 || row >= m->rows || col >= m->cols) {
        char shape[32];
        return attn_fail(err, ATTN_E_RANGE, "cell [%d,%d] is outside the %s matrix %s", row + 1, col + 1,
                         mat_shape_str(m, shape, sizeof shape), m->name[0] ? m->name : "(unnamed)");
    }
    Builder b = { .ex = ex };
    b.decimals = decimals < 0 ? 0 : decimals > EXPLAIN_DECIMALS_MAX ? EXPLAIN_DECIMALS_MAX : decimals;
    ex->kind = EXPLAIN_INPUT;
    ex->target = (CellRef){ m, row, col, mat_get(m, row, col) };

    const OpInfo *op = optable_op(m->prov.op);
    explain_row(op && prov_complete(m, op) ? m->prov.op : OP_INPUT)->cell(&b, m, row, col);
    char *text = b.failed ? NULL : strbuf_take(&b.text);
    if (!text) {
        strbuf_free(&b.text);
        explain_free(ex);
        return attn_fail(err, ATTN_E_NOMEM, "out of memory explaining a cell");
    }
    ex->text = text;
    attn_error_clear(err);
    return ATTN_OK;
}

void explain_free(Explanation *ex)
{
    if (!ex)
        return;
    free(ex->operands);
    free(ex->text);
    memset(ex, 0, sizeof *ex);
}
