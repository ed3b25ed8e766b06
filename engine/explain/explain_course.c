/*
 * explain_course.c - the explainers of the operations with numbers among
 * their arguments (ops/ops_course.c): which pair a rotary cell belongs to,
 * at which angle, with its cos and sin; why a window, ALiBi or top-k cell
 * is 0, a bias or -inf; repeat_heads follows its cells back like any
 * operation that moves numbers (explain_back_repeat).
 */
#include <math.h>
#include <stdio.h>

#include "explain_builder.h"
#include "explain_internal.h"
#include "ops.h"

/* rope: x' = x cos - y sin, y' = x sin + y cos over the cell's pair. */
void explain_rope(Builder *b, const Mat *m, int row, int col)
{
    const Mat *a = m->prov.a;
    int interleaved = m->prov.op == OP_ROPE, half = a->cols / 2;
    int k = interleaved ? col / 2 : col % half;
    int u = interleaved ? 2 * k : k, v = interleaved ? 2 * k + 1 : k + half, first = col == u;
    double base = m->prov.param[0], pos = m->prov.param[1] + row;
    double theta = op_rope_angle(base, a->cols, k, pos);
    b->ex->kind = EXPLAIN_ELEMENTWISE;
    eb_add_cell(b, a, row, u);
    eb_add_cell(b, a, row, v);
    if (b->failed)
        return;
    char nu[EXPLAIN_NAME_MAX], nv[EXPLAIN_NAME_MAX];
    eb_operand_name(a, row, u, nu, sizeof nu);
    eb_operand_name(a, row, v, nv, sizeof nv);
    eb_target_head(b);
    strbuf_add(&b->text, first ? "%s cos(t) - %s sin(t)" : "%s sin(t) + %s cos(t)", first ? nu : nu, nv);
    strbuf_add(&b->text, ", pair (%d, %d) at position %g: t = %g * %g^(-2*%d/%d) = ", u + 1, v + 1, pos, pos, base, k,
               a->cols);
    eb_put_num(b, theta);
    strbuf_add(&b->text, "\n= ");
    eb_put_term(b, b->ex->operands[0].value);
    strbuf_add(&b->text, first ? "*" : "*");
    eb_put_term(b, first ? cos(theta) : sin(theta));
    strbuf_add(&b->text, first ? " - " : " + ");
    eb_put_term(b, b->ex->operands[1].value);
    strbuf_add(&b->text, "*");
    eb_put_term(b, first ? sin(theta) : cos(theta));
    eb_result_line(b);
}

/* window_mask and alibi: from the positions alone. */
void explain_positions(Builder *b, const Mat *m, int row, int col)
{
    int d = row - col;
    b->ex->kind = EXPLAIN_FORMULA;
    eb_target_head(b);
    if (m->prov.op == OP_WINDOW_MASK) {
        int w = (int)m->prov.param[1];
        if (d < 0)
            strbuf_add(&b->text, "-inf: column %d comes after row %d, a later position is hidden", col + 1, row + 1);
        else if (d >= w)
            strbuf_add(&b->text, "-inf: column %d is %d positions back from row %d, outside the window of %d", col + 1,
                       d, row + 1, w);
        else
            strbuf_add(&b->text, "0: column %d is %d position%s back from row %d, inside the window of %d", col + 1, d,
                       d == 1 ? "" : "s", row + 1, w);
    } else if (d < 0) {
        strbuf_add(&b->text, "-inf: column %d comes after row %d, a later position is hidden", col + 1, row + 1);
    } else {
        strbuf_add(&b->text, "m * (j - i) = %g * (%d - %d)", m->prov.param[1], col + 1, row + 1);
    }
    eb_result_line(b);
}

/* topk_mask: the cell against the k-th largest of its row. */
void explain_topk(Builder *b, const Mat *m, int row, int col)
{
    const Mat *s = m->prov.a;
    int k = (int)m->prov.param[0], rank = op_topk_rank(s, row, col);
    b->ex->kind = EXPLAIN_FORMULA;
    for (int t = 0; t < s->cols; t++)
        eb_add_cell(b, s, row, t);
    if (b->failed)
        return;
    char nc[EXPLAIN_NAME_MAX];
    eb_operand_name(s, row, col, nc, sizeof nc);
    eb_target_head(b);
    strbuf_add(&b->text, "%s: %s = ", rank < k ? "0" : "-inf", nc);
    eb_put_num(b, mat_get(s, row, col));
    strbuf_add(&b->text, rank < k ? " is among the %d largest of its row (%d cells of the row outrank it)"
                                  : " is not among the %d largest of its row (%d cells of the row outrank it)",
               k, rank);
    eb_result_line(b);
}
