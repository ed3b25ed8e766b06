/*
 * explain.c - the arithmetic behind one cell of a matrix, read from its
 * provenance: which cells fed it, in which formula, with the real numbers.
 * Here the entry points (explain_cell, explain_free); the explainer of each
 * kind of operation is explain_ops.c's (picked by explain_table.c), the
 * builder they write into explain_builder.c's.
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
#include "explain.h"
#include "explain_builder.h"
#include "explain_internal.h"
#include "optable.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
