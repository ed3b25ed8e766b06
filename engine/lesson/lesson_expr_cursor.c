/*
 * lesson_expr_cursor.c - the expression parser's cursor over tokens: advancing
 * (line ends are blanks inside ( )), describing the current token and
 * reporting an error at FILE:LINE:COL, blaming an unclosed bracket when
 * that is the cause; a node made and freed (expr_free), the nesting and
 * chain limits.
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

int px_fail(Parser *p, attn_status code, size_t pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    src_verror(P_src(p), p->lx->err, code, pos, fmt, ap);
    va_end(ap);
    return -1;
}

int px_advance(Parser *p)
{
    p->prev_end = p->tok->pos + p->tok->len;
    p->crossed_newline = 0;
    for (;;) {
        if (lex_next(p->lx, p->tok))
            return -1;
        if (p->tok->kind == T_NEWLINE && p->skip_newlines) {
            p->crossed_newline = 1;
            continue;
        }
        return 0;
    }
}

int px_is_sym(const Token *t, char c) { return t->kind == T_SYM && t->sym == c; }

/* What the current token is, for messages. */
const char *px_tok_desc(Parser *p, char *buf, size_t size)
{
    const Token *t = p->tok;
    if (t->kind == T_EOF)
        return "the end of the file";
    if (t->kind == T_NEWLINE)
        return "the end of the line";
    size_t n = t->len < 40 ? t->len : 40;
    snprintf(buf, size, "'%.*s'", (int)n, P_src(p)->text + t->pos);
    return buf;
}

/* An unexpected token: blamed on an unclosed bracket when it starts a new
 * line or ends the file, otherwise reported as found where `wanted` was. */
int px_unexpected(Parser *p, const char *wanted)
{
    char buf[64];
    if (p->opener && (p->crossed_newline || p->tok->kind == T_EOF ||
                      (p->opener == '[' && p->tok->kind == T_NAME && p->crossed_newline))) {
        char what[2] = { p->opener, 0 };
        return px_fail(p, ATTN_E_SYNTAX, p->opener_pos, "this '%s' is never closed%s", what,
                    p->opener == '(' ? " (missing ')')" : " (missing ']')");
    }
    return px_fail(p, ATTN_E_SYNTAX, p->tok->pos, "expected %s, found %s", wanted, px_tok_desc(p, buf, sizeof buf));
}

Expr *px_node(ExprKind kind, size_t pos, size_t start)
{
    Expr *e = attn_calloc(1, sizeof *e);
    if (e) {
        e->kind = kind;
        e->pos = pos;
        e->start = start;
        e->end = start;
    }
    return e;
}

void expr_free(Expr *e)
{
    if (!e)
        return;
    expr_free(e->a);
    expr_free(e->b);
    for (int i = 0; i < e->n_args; i++)
        expr_free(e->args[i]);
    free(e->args);
    free(e->str);
    free(e->vals);
    free(e);
}

/* parent sits on child: count the height, refuse past LESSON_MAX_CHAIN. */
int px_stack_on(Parser *p, Expr *parent, const Expr *child)
{
    if (child->height + 1 > parent->height)
        parent->height = child->height + 1;
    if (parent->height <= LESSON_MAX_CHAIN)
        return 0;
    return px_fail(p, ATTN_E_LIMIT, parent->pos, "this expression is too long: it chains more than %d operations",
                LESSON_MAX_CHAIN);
}

Expr *px_nomem(Parser *p)
{
    px_fail(p, ATTN_E_NOMEM, p->tok->pos, "out of memory parsing the lesson");
    return NULL;
}

int px_enter(Parser *p)
{
    if (++p->depth > LESSON_MAX_DEPTH) {
        return px_fail(p, ATTN_E_LIMIT, p->tok->pos, "this expression nests deeper than the limit of %d", LESSON_MAX_DEPTH);
    }
    return 0;
}
