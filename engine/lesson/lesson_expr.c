/*
 * lesson_expr.c - expressions of the lesson language, parsed by recursive
 * descent into an Expr tree that lesson_eval.c walks.
 *
 *   expr    := term (('+' | '-') term)*
 *   term    := unary (('@' | '*' | '/') unary)*          left associative
 *   unary   := '-' unary | postfix
 *   postfix := primary ('^' 'T' | '[' index ',' index ']')*
 *   index   := INTEGER | ':'
 *   primary := NUMBER | 'inf' | NAME | FUNC '(' expr (',' expr)* ')'
 *            | 'load' '(' STRING ')' | '(' expr ')' | '[' literal ']'
 *
 * Inside ( ) line ends are skipped, so a call may run over several lines;
 * inside [ ] a line end separates rows like ';'. Nesting is counted and
 * refused past LESSON_MAX_DEPTH, so no input can exhaust the stack.
 * Names resolve against a Scope at parse time: an unknown name or function
 * is an error here, with the nearest known spelling suggested. Matrix
 * literals are read in lesson_expr_matrix.c, tokens through lesson_expr_cursor.c.
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

const char *lesson_suggest_name(const char *name, size_t len, char *const *names, int n)
{
    const char *best = NULL;
    int best_d = 100;
    for (int i = 0; i < n; i++) {
        size_t nl = strlen(names[i]);
        if (nl == len && strncasecmp(names[i], name, len) == 0)
            return names[i];
        int d = lesson_edit_distance(name, len, names[i], nl);
        int allowed = len <= 1 ? 0 : len <= 3 ? 1 : 2;
        if (d <= allowed && d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    return best;
}

const char *lesson_did_you_mean(const char *best, char *buf, size_t size)
{
    if (best)
        snprintf(buf, size, "; did you mean '%s'?", best);
    else if (size > 0)
        buf[0] = '\0';
    return buf;
}

static Expr *parse_expr(Parser *p);

typedef struct { char opener; size_t pos; int skip; } Saved;

static Saved open_paren(Parser *p, char c)
{
    Saved s = { p->opener, p->opener_pos, p->skip_newlines };
    p->opener = c;
    p->opener_pos = p->tok->pos;
    p->skip_newlines = 1;
    return s;
}

static void close_paren(Parser *p, Saved s)
{
    p->opener = s.opener;
    p->opener_pos = s.pos;
    p->skip_newlines = s.skip;
}

/* The longest file name load() takes. */
#define LESSON_MAX_PATH 1024

/* A function of a file: name '(' STRING ')'. */
static Expr *parse_file_call(Parser *p, int fn, size_t name_pos)
{
    const char *name = optable_at(fn)->name;
    Saved s = open_paren(p, '(');
    Expr *e = px_node(E_CALL, name_pos, name_pos);
    int failed = e ? px_advance(p) : (px_nomem(p), -1);
    if (!failed && p->tok->kind != T_STR)
        failed = px_fail(p, ATTN_E_SYNTAX, px_is_sym(p->tok, ')') ? name_pos : p->tok->pos,
                         "%s takes a file name in double quotes: %s(\"weights.npy\")", name, name);
    size_t n = !failed ? p->tok->len - 2 : 0;
    if (!failed && n == 0)
        failed = px_fail(p, ATTN_E_ARG, p->tok->pos, "the file name is empty");
    if (!failed && n > LESSON_MAX_PATH)
        failed = px_fail(p, ATTN_E_LIMIT, p->tok->pos, "the file name is longer than %d bytes", LESSON_MAX_PATH);
    if (!failed && !(e->fn = fn, e->str = attn_malloc(n + 1)))
        failed = (px_nomem(p), -1);
    if (!failed) {
        memcpy(e->str, P_src(p)->text + p->tok->pos + 1, n);
        e->str[n] = '\0';
        failed = px_advance(p);
    }
    if (!failed && !px_is_sym(p->tok, ')'))
        failed = px_unexpected(p, px_is_sym(p->tok, ',') ? "')': load takes one file" : "')'");
    close_paren(p, s);
    if (!failed)
        e->end = p->tok->pos + 1;
    if (!failed && !px_advance(p))
        return e;
    expr_free(e);
    return NULL;
}

static Expr *parse_call(Parser *p, int fn, size_t name_pos)
{
    if (optable_at(fn)->args == OPARGS_FILE)
        return parse_file_call(p, fn, name_pos);
    Expr *e = px_node(E_CALL, name_pos, name_pos);
    if (!e)
        return px_nomem(p);
    e->fn = fn;
    Saved s = open_paren(p, '(');
    int cap = 0;
    if (px_advance(p))
        goto fail;
    if (!px_is_sym(p->tok, ')')) {
        for (;;) {
            if (e->n_args == cap) {
                int ncap = cap ? cap * 2 : 4;
                Expr **bigger = attn_realloc(e->args, ncap * sizeof *bigger);
                if (!bigger) {
                    px_nomem(p);
                    goto fail;
                }
                e->args = bigger;
                cap = ncap;
            }
            Expr *arg = parse_expr(p);
            if (!arg)
                goto fail;
            e->args[e->n_args++] = arg;
            if (px_stack_on(p, e, arg))
                goto fail;
            if (px_is_sym(p->tok, ')'))
                break;
            if (!px_is_sym(p->tok, ',')) {
                px_unexpected(p, "',' or ')'");
                goto fail;
            }
            if (px_advance(p))
                goto fail;
        }
    }
    close_paren(p, s);
    e->end = p->tok->pos + 1;
    const OpInfo *f = optable_at(fn);
    if (e->n_args < f->min_args || (f->max_args >= 0 && e->n_args > f->max_args)) {
        if (f->max_args < 0)
            px_fail(p, ATTN_E_SYNTAX, name_pos, "%s%s needs at least %d argument%s, not %d", f->name, f->params,
                 f->min_args, f->min_args == 1 ? "" : "s", e->n_args);
        else if (f->min_args == f->max_args)
            px_fail(p, ATTN_E_SYNTAX, name_pos, "%s%s takes %d argument%s, not %d", f->name, f->params, f->min_args,
                 f->min_args == 1 ? "" : "s", e->n_args);
        else
            px_fail(p, ATTN_E_SYNTAX, name_pos, "%s%s takes %d or %d arguments, not %d", f->name, f->params,
                 f->min_args, f->max_args, e->n_args);
        expr_free(e);
        return NULL;
    }
    if (px_advance(p)) {
        expr_free(e);
        return NULL;
    }
    return e;
fail:
    close_paren(p, s);
    expr_free(e);
    return NULL;
}

static Expr *parse_name(Parser *p)
{
    const Src *src = P_src(p);
    const char *name = src->text + p->tok->pos;
    size_t len = p->tok->len, pos = p->tok->pos;
    char nm[80];
    snprintf(nm, sizeof nm, "%.*s", (int)(len < 60 ? len : 60), name);
    if (lex_tok_is(src, p->tok, "inf")) {
        Expr *e = px_node(E_NUM, pos, pos);
        if (!e)
            return px_nomem(p);
        e->num = INFINITY;
        e->end = pos + len;
        if (px_advance(p)) {
            expr_free(e);
            return NULL;
        }
        return e;
    }
    if (px_advance(p))
        return NULL;
    int fn = optable_fn_lookup(name, len);
    if (px_is_sym(p->tok, '(')) {
        if (fn >= 0)
            return parse_call(p, fn, pos);
        const char *best = NULL;
        char *fns[OPT_COUNT];
        int n_fns = 0;
        for (int i = 0; i < OPT_COUNT; i++)
            if (optable_is_fn(i))
                fns[n_fns++] = (char *)optable_at(i)->name;
        for (int i = 0; i < n_fns && !best; i++)
            if (len >= 3 && strncmp(fns[i], name, len) == 0)
                best = fns[i];
        if (!best)
            best = lesson_suggest_name(name, len, fns, n_fns);
        char mean[MAT_NAME_MAX + 32];
        px_fail(p, ATTN_E_NAME, pos, "unknown function '%s'%s", nm, lesson_did_you_mean(best, mean, sizeof mean));
        return NULL;
    }
    for (int i = p->scope->n - 1; i >= 0; i--)
        if (strlen(p->scope->names[i]) == len && memcmp(p->scope->names[i], name, len) == 0) {
            Expr *e = px_node(E_NAME, pos, pos);
            if (!e)
                return px_nomem(p);
            e->slot = i;
            e->end = pos + len;
            return e;
        }
    if (fn >= 0) {
        px_fail(p, ATTN_E_NAME, pos, "'%s' is a function: call it as %s(...)", nm, nm);
        return NULL;
    }
    char mean[MAT_NAME_MAX + 32];
    const char *best = lesson_suggest_name(name, len, p->scope->names, p->scope->n);
    px_fail(p, ATTN_E_NAME, pos, "unknown name '%s'%s", nm, lesson_did_you_mean(best, mean, sizeof mean));
    return NULL;
}

static Expr *parse_primary(Parser *p)
{
    Token *t = p->tok;
    if (t->kind == T_NUM) {
        Expr *e = px_node(E_NUM, t->pos, t->pos);
        if (!e)
            return px_nomem(p);
        e->num = t->num;
        e->end = t->pos + t->len;
        if (px_advance(p)) {
            expr_free(e);
            return NULL;
        }
        return e;
    }
    if (t->kind == T_NAME)
        return parse_name(p);
    if (t->kind == T_STR) {
        px_fail(p, ATTN_E_SYNTAX, t->pos, "a string in double quotes is a file name, as in load(\"weights.npy\")");
        return NULL;
    }
    if (px_is_sym(t, '[')) {
        if (px_enter(p))
            return NULL;
        Expr *e = px_parse_matrix(p);
        p->depth--;
        return e;
    }
    if (px_is_sym(t, '(')) {
        size_t start = t->pos;
        Saved s = open_paren(p, '(');
        if (px_advance(p))
            return NULL;
        Expr *e = parse_expr(p);
        if (e && !px_is_sym(p->tok, ')')) {
            px_unexpected(p, "')'");
            expr_free(e);
            e = NULL;
        }
        close_paren(p, s);
        if (!e)
            return NULL;
        e->start = start;
        e->end = p->tok->pos + 1;
        if (px_advance(p)) {
            expr_free(e);
            return NULL;
        }
        return e;
    }
    px_unexpected(p, "a number, a name, '(' or '['");
    return NULL;
}

/* One index of A[i, j]: a whole number from 1, or ':' for the whole axis. */
static int parse_index(Parser *p, int *out)
{
    if (px_is_sym(p->tok, ':')) {
        *out = 0;
        return px_advance(p);
    }
    if (p->tok->kind != T_NUM)
        return px_unexpected(p, "an index (a whole number from 1, or ':')");
    double v = p->tok->num;
    if (v != floor(v) || v < 1 || v > 1e9) {
        char buf[64];
        return px_fail(p, ATTN_E_RANGE, p->tok->pos, "indices are whole numbers from 1 (found %s)",
                    px_tok_desc(p, buf, sizeof buf));
    }
    *out = (int)v;
    return px_advance(p);
}

static Expr *parse_postfix(Parser *p)
{
    size_t start = p->tok->pos;
    Expr *e = parse_primary(p);
    while (e) {
        if (px_is_sym(p->tok, '^')) {
            size_t pos = p->tok->pos;
            if (px_advance(p))
                goto fail;
            if (!lex_tok_is(P_src(p), p->tok, "T")) {
                px_fail(p, ATTN_E_SYNTAX, pos, "'^' must be followed by T (transpose)");
                goto fail;
            }
            Expr *t = px_node(E_TRANSPOSE, pos, start);
            if (!t) {
                px_nomem(p);
                goto fail;
            }
            t->a = e;
            e = t;
            if (px_stack_on(p, e, e->a))
                goto fail;
            e->end = p->tok->pos + 1;
            if (px_advance(p))
                goto fail;
        } else if (px_is_sym(p->tok, '[')) {
            Expr *ix = px_node(E_INDEX, p->tok->pos, start);
            if (!ix) {
                px_nomem(p);
                goto fail;
            }
            ix->a = e;
            e = ix;
            if (px_stack_on(p, e, e->a))
                goto fail;
            Saved s = open_paren(p, '[');
            int failed = px_advance(p) || parse_index(p, &ix->row);
            if (!failed && !px_is_sym(p->tok, ','))
                failed = px_unexpected(p, "',' between the row and the column (A[i,j])");
            failed = failed || px_advance(p) || parse_index(p, &ix->col);
            if (!failed && !px_is_sym(p->tok, ']'))
                failed = px_unexpected(p, "']'");
            close_paren(p, s);
            if (failed)
                goto fail;
            e->end = p->tok->pos + 1;
            if (px_advance(p))
                goto fail;
        } else {
            break;
        }
    }
    return e;
fail:
    expr_free(e);
    return NULL;
}

static Expr *parse_unary(Parser *p)
{
    if (!px_is_sym(p->tok, '-'))
        return parse_postfix(p);
    size_t pos = p->tok->pos;
    if (px_enter(p) || px_advance(p))
        return NULL;
    Expr *a = parse_unary(p);
    p->depth--;
    if (!a)
        return NULL;
    Expr *e = px_node(E_NEG, pos, pos);
    if (!e) {
        expr_free(a);
        return px_nomem(p);
    }
    e->a = a;
    e->end = a->end;
    if (px_stack_on(p, e, a)) {
        expr_free(e);
        return NULL;
    }
    return e;
}

static Expr *binary(Parser *p, ExprKind kind, size_t pos, Expr *a, Expr *b)
{
    Expr *e = px_node(kind, pos, a->start);
    if (!e) {
        expr_free(a);
        expr_free(b);
        return px_nomem(p);
    }
    e->a = a;
    e->b = b;
    e->end = b->end;
    if (px_stack_on(p, e, a) || px_stack_on(p, e, b)) {
        expr_free(e);
        return NULL;
    }
    return e;
}

static Expr *parse_term(Parser *p)
{
    Expr *e = parse_unary(p);
    while (e && (px_is_sym(p->tok, '@') || px_is_sym(p->tok, '*') || px_is_sym(p->tok, '/'))) {
        char op = p->tok->sym;
        size_t pos = p->tok->pos;
        if (px_advance(p)) {
            expr_free(e);
            return NULL;
        }
        Expr *b = parse_unary(p);
        if (!b) {
            expr_free(e);
            return NULL;
        }
        e = binary(p, op == '@' ? E_MATMUL : op == '*' ? E_MUL : E_DIV, pos, e, b);
    }
    return e;
}

static Expr *parse_expr(Parser *p)
{
    if (px_enter(p))
        return NULL;
    Expr *e = parse_term(p);
    while (e && (px_is_sym(p->tok, '+') || px_is_sym(p->tok, '-'))) {
        char op = p->tok->sym;
        size_t pos = p->tok->pos;
        if (px_advance(p)) {
            expr_free(e);
            return NULL;
        }
        Expr *b = parse_term(p);
        if (!b) {
            expr_free(e);
            return NULL;
        }
        e = binary(p, op == '+' ? E_ADD : E_SUB, pos, e, b);
    }
    p->depth--;
    return e;
}

Expr *expr_parse(Lexer *lx, Token *tok, const Scope *scope)
{
    Parser p = { .lx = lx, .tok = tok, .scope = scope };
    if (tok->kind == T_NEWLINE || tok->kind == T_EOF) {
        src_error(lx->src, lx->err, ATTN_E_SYNTAX, tok->pos, "expected an expression here");
        return NULL;
    }
    return parse_expr(&p);
}
