/*
 * explain_builder.c - writing an explanation (explain_builder.h): operand
 * cells added, names and numbers as the lessons write them, sums laid out.
 */
#include "explain_builder.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "explain_internal.h"

/* A number as the explanations print it: the one formatter, in ASCII. */
const char *eb_fmt_num(char *buf, size_t size, double v, int decimals)
{
    num_format(buf, size, v, decimals, 0);
    return buf;
}

void eb_put_num(Builder *b, double v)
{
    char buf[48];
    strbuf_add(&b->text, "%s", eb_fmt_num(buf, sizeof buf, v, b->decimals));
}

/* A number inside a product or sum: negatives in parentheses. */
void eb_put_term(Builder *b, double v)
{
    char buf[48];
    eb_fmt_num(buf, sizeof buf, v, b->decimals);
    strbuf_add(&b->text, v < 0 ? "(%s)" : "%s", buf);
}

void eb_add_cell(Builder *b, const Mat *m, int r, int c)
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
const char *eb_operand_name(const Mat *m, int r, int c, char *buf, size_t size)
{
    CellRef ref = explain_resolve(m, r, c);
    return explain_cell_name(ref.mat, ref.row, ref.col, buf, size);
}

void eb_target_head(Builder *b)
{
    char name[EXPLAIN_NAME_MAX];
    const CellRef *t = &b->ex->target;
    strbuf_add(&b->text, "%s = ", explain_cell_name(t->mat, t->row, t->col, name, sizeof name));
}

void eb_result_line(Builder *b)
{
    strbuf_add(&b->text, "\n= ");
    eb_put_num(b, b->ex->target.value);
}

/* Should term k of n be printed, and is it where the "..." goes? */
int eb_term_shown(int k, int n)
{
    return n <= EXPLAIN_MAX_TERMS || k < EXPLAIN_HEAD || k >= n - EXPLAIN_TAIL;
}

int eb_term_elided_here(int k, int n)
{
    return n > EXPLAIN_MAX_TERMS && k == EXPLAIN_HEAD;
}

/* "a1*b1 + a2*b2 + ... + an*bn" over the operand pairs from first. */
void eb_text_pairs(Builder *b, int first, int n_pairs)
{
    const CellRef *o = b->ex->operands + first;
    for (int k = 0; k < n_pairs; k++) {
        if (eb_term_elided_here(k, n_pairs))
            strbuf_add(&b->text, " + ...");
        if (!eb_term_shown(k, n_pairs))
            continue;
        if (k)
            strbuf_add(&b->text, " + ");
        eb_put_term(b, o[2 * k].value);
        strbuf_add(&b->text, "*");
        eb_put_term(b, o[2 * k + 1].value);
    }
}

void eb_input_text(Builder *b, const Mat *m)
{
    eb_target_head(b);
    if (m->prov.op == OP_RANDN)
        strbuf_add(&b->text, "a draw of randn(%d, %d)", m->rows, m->cols);
    else
        strbuf_add(&b->text, "a given value");
    eb_result_line(b);
}
