/*
 * lesson_expr_cursor.h - the parser state shared by the files of the expression
 * parser (lesson_expr.c, lesson_expr_cursor.c, lesson_expr_matrix.c): the token
 * cursor, its error reporting and node allocation (lesson_expr_cursor.c).
 * Private to the expression parser's files; the px_ prefix marks the
 * helpers they share.
 */
#ifndef ATTN_LESSON_EXPR_CURSOR_H
#define ATTN_LESSON_EXPR_CURSOR_H

#include "lesson_tree.h"

typedef struct {
    Lexer *lx;
    Token *tok;
    const Scope *scope;
    int depth;
    size_t prev_end;        /* end of the last token consumed               */
    int skip_newlines;      /* inside ( ): line ends are blanks             */
    int crossed_newline;    /* the current token came after a skipped line end */
    char opener;            /* innermost unclosed '(' or '[' (0: none)      */
    size_t opener_pos;
} Parser;

static inline const Src *P_src(Parser *p) { return p->lx->src; }

/* The parser's steps return 0 when done, -1 after an error (in p->lx->err).
 * Report an error at pos; always returns -1. */
int px_fail(Parser *p, attn_status code, size_t pos, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Move to the next token, skipping line ends inside ( ). */
int px_advance(Parser *p);
int px_is_sym(const Token *t, char c);
/* What the current token is, for messages: "'x'", "the end of the line". */
const char *px_tok_desc(Parser *p, char *buf, size_t size);
/* An unexpected token, reported as found where `wanted` was. */
int px_unexpected(Parser *p, const char *wanted);
/* A new node of kind at pos; NULL when out of memory. */
Expr *px_node(ExprKind kind, size_t pos, size_t start);
/* parent sits on child: count the height, refuse past LESSON_MAX_CHAIN. */
int px_stack_on(Parser *p, Expr *parent, const Expr *child);
/* Report out of memory; returns NULL. */
Expr *px_nomem(Parser *p);
/* One level deeper; -1 (with an error) past LESSON_MAX_DEPTH. */
int px_enter(Parser *p);
/* '[' literal ']': a matrix written out, rows split by ';' or line ends. */
Expr *px_parse_matrix(Parser *p);

#endif
