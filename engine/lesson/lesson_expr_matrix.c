/*
 * lesson_expr_matrix.c - matrix literals of the lesson language,
 * '[' 1, 2; 3, 4 ']': numbers (with 'inf' and a leading '-'), rows split by
 * ';' or line ends, every row as long as the first.
 */
#include "alloc.h"
#include "lesson_expr_cursor.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int literal_value(Parser *p, float *v)
{
    double sign = 1;
    if (px_is_sym(p->tok, '-') || px_is_sym(p->tok, '+')) {
        sign = p->tok->sym == '-' ? -1 : 1;
        if (px_advance(p))
            return -1;
    }
    if (p->tok->kind == T_NUM)
        *v = (float)(sign * p->tok->num);
    else if (lex_tok_is(P_src(p), p->tok, "inf"))
        *v = (float)(sign * INFINITY);
    else if (p->tok->kind == T_NAME && !p->crossed_newline)
        return px_fail(p, ATTN_E_SYNTAX, p->tok->pos,
                    "a matrix literal holds numbers; to join matrices write hcat(A, B) or vcat(A, B)");
    else
        return px_unexpected(p, "a number, ';' or ']' in the matrix");
    return px_advance(p);
}

Expr *px_parse_matrix(Parser *p)
{
    Expr *e = px_node(E_MATRIX, p->tok->pos, p->tok->pos);
    if (!e)
        return px_nomem(p);
    char saved_opener = p->opener;
    size_t saved_pos = p->opener_pos;
    int saved_skip = p->skip_newlines;
    p->opener = '[';
    p->opener_pos = e->pos;
    p->skip_newlines = 0;
    long cap = 16, n = 0;
    int rows = 0, in_row = 0;
    size_t row_pos = 0;
    e->vals = attn_malloc(cap * sizeof *e->vals);
    if (!e->vals) {
        px_nomem(p);
        goto fail;
    }
    if (px_advance(p))
        goto fail;
    for (;;) {
        if (p->tok->kind == T_NEWLINE || px_is_sym(p->tok, ';') || px_is_sym(p->tok, ']')) {
            if (in_row) {
                long got = n - (long)rows * e->cols;
                if (rows == 0) {
                    e->cols = (int)got;
                } else if (got != e->cols) {
                    px_fail(p, ATTN_E_SHAPE, row_pos, "row %d has %ld value%s, but row 1 has %d", rows + 1, got,
                         got == 1 ? "" : "s", e->cols);
                    goto fail;
                }
                rows++;
                in_row = 0;
            }
            if (px_is_sym(p->tok, ']'))
                break;
            p->crossed_newline = p->tok->kind == T_NEWLINE;
            if (lex_next(p->lx, p->tok))
                goto fail;
            if (p->tok->kind == T_NEWLINE)
                p->crossed_newline = 1;
            continue;
        }
        if (px_is_sym(p->tok, ',')) {
            if (px_advance(p))
                goto fail;
            continue;
        }
        if (!in_row) {
            in_row = 1;
            row_pos = p->tok->pos;
        }
        if (n == cap) {
            if (cap >= LESSON_MAX_ELEMS) {
                px_fail(p, ATTN_E_LIMIT, e->pos, "this matrix has more than the limit of %ld elements", (long)LESSON_MAX_ELEMS);
                goto fail;
            }
            float *bigger = attn_realloc(e->vals, 2 * cap * sizeof *bigger);
            if (!bigger) {
                px_nomem(p);
                goto fail;
            }
            e->vals = bigger;
            cap *= 2;
        }
        if (literal_value(p, &e->vals[n]))
            goto fail;
        n++;
        p->crossed_newline = 0;
    }
    if (rows == 0) {
        px_fail(p, ATTN_E_SHAPE, e->pos, "a matrix needs at least one value");
        goto fail;
    }
    e->rows = rows;
    p->opener = saved_opener;
    p->opener_pos = saved_pos;
    p->skip_newlines = saved_skip;
    e->end = p->tok->pos + 1;
    if (px_advance(p))
        goto fail_restored;
    return e;
fail:
    p->opener = saved_opener;
    p->opener_pos = saved_pos;
    p->skip_newlines = saved_skip;
fail_restored:
    expr_free(e);
    return NULL;
}

/* Open a bracketed context in which line ends are skipped. */
