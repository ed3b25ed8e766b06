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
 * is an error here, with the nearest known spelling suggested.
 */
#include "alloc.h"
#include "lesson_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *suggest_name(const char *name, size_t len, char *const *names, int n)
{
    const char *best = NULL;
    int best_d = 100;
    for (int i = 0; i < n; i++) {
        size_t nl = strlen(names[i]);
        if (nl == len && strncasecmp(names[i], name, len) == 0)
            return names[i];
        int d = edit_distance(name, len, names[i], nl);
        int allowed = len <= 1 ? 0 : len <= 3 ? 1 : 2;
        if (d <= allowed && d < best_d) {
            best_d = d;
            best = names[i];
        }
    }
    return best;
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

static const Src *P_src(Parser *p) { return p->lx->src; }

static int fail(Parser *p, attn_status code, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(Parser *p, attn_status code, size_t pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    src_verror(P_src(p), p->lx->err, code, pos, fmt, ap);
    va_end(ap);
    return 0;
}

static int advance(Parser *p)
{
    p->prev_end = p->tok->pos + p->tok->len;
    p->crossed_newline = 0;
    for (;;) {
        if (!lex_next(p->lx, p->tok))
            return 0;
        if (p->tok->kind == T_NEWLINE && p->skip_newlines) {
            p->crossed_newline = 1;
            continue;
        }
        return 1;
    }
}

static int is_sym(const Token *t, char c) { return t->kind == T_SYM && t->sym == c; }

/* What the current token is, for messages. */
static const char *tok_desc(Parser *p, char *buf, size_t size)
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
static int unexpected(Parser *p, const char *wanted)
{
    char buf[64];
    if (p->opener && (p->crossed_newline || p->tok->kind == T_EOF ||
                      (p->opener == '[' && p->tok->kind == T_NAME && p->crossed_newline))) {
        char what[2] = { p->opener, 0 };
        return fail(p, ATTN_E_SYNTAX, p->opener_pos, "this '%s' is never closed%s", what,
                    p->opener == '(' ? " (missing ')')" : " (missing ']')");
    }
    return fail(p, ATTN_E_SYNTAX, p->tok->pos, "expected %s, found %s", wanted, tok_desc(p, buf, sizeof buf));
}

static Expr *node(ExprKind kind, size_t pos, size_t start)
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

static Expr *parse_expr(Parser *p);

/* parent sits on child: count the height, refuse past LESSON_MAX_CHAIN. */
static int stack_on(Parser *p, Expr *parent, const Expr *child)
{
    if (child->height + 1 > parent->height)
        parent->height = child->height + 1;
    if (parent->height <= LESSON_MAX_CHAIN)
        return 1;
    return fail(p, ATTN_E_LIMIT, parent->pos, "this expression is too long: it chains more than %d operations",
                LESSON_MAX_CHAIN);
}

static Expr *nomem(Parser *p)
{
    fail(p, ATTN_E_NOMEM, p->tok->pos, "out of memory parsing the lesson");
    return NULL;
}

static int enter(Parser *p)
{
    if (++p->depth > LESSON_MAX_DEPTH) {
        return fail(p, ATTN_E_LIMIT, p->tok->pos, "this expression nests deeper than the limit of %d", LESSON_MAX_DEPTH);
    }
    return 1;
}

/* An optionally signed number or inf, inside a literal matrix. */
static int literal_value(Parser *p, float *v)
{
    double sign = 1;
    if (is_sym(p->tok, '-') || is_sym(p->tok, '+')) {
        sign = p->tok->sym == '-' ? -1 : 1;
        if (!advance(p))
            return 0;
    }
    if (p->tok->kind == T_NUM)
        *v = (float)(sign * p->tok->num);
    else if (tok_is(P_src(p), p->tok, "inf"))
        *v = (float)(sign * INFINITY);
    else if (p->tok->kind == T_NAME && !p->crossed_newline)
        return fail(p, ATTN_E_SYNTAX, p->tok->pos,
                    "a matrix literal holds numbers; to join matrices write hcat(A, B) or vcat(A, B)");
    else
        return unexpected(p, "a number, ';' or ']' in the matrix");
    return advance(p);
}

static Expr *parse_matrix(Parser *p)
{
    Expr *e = node(E_MATRIX, p->tok->pos, p->tok->pos);
    if (!e)
        return nomem(p);
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
        nomem(p);
        goto fail;
    }
    if (!advance(p))
        goto fail;
    for (;;) {
        if (p->tok->kind == T_NEWLINE || is_sym(p->tok, ';') || is_sym(p->tok, ']')) {
            if (in_row) {
                long got = n - (long)rows * e->cols;
                if (rows == 0) {
                    e->cols = (int)got;
                } else if (got != e->cols) {
                    fail(p, ATTN_E_SHAPE, row_pos, "row %d has %ld value%s, but row 1 has %d", rows + 1, got,
                         got == 1 ? "" : "s", e->cols);
                    goto fail;
                }
                rows++;
                in_row = 0;
            }
            if (is_sym(p->tok, ']'))
                break;
            p->crossed_newline = p->tok->kind == T_NEWLINE;
            if (!lex_next(p->lx, p->tok))
                goto fail;
            if (p->tok->kind == T_NEWLINE)
                p->crossed_newline = 1;
            continue;
        }
        if (is_sym(p->tok, ',')) {
            if (!advance(p))
                goto fail;
            continue;
        }
        if (!in_row) {
            in_row = 1;
            row_pos = p->tok->pos;
        }
        if (n == cap) {
            if (cap >= LESSON_MAX_ELEMS) {
                fail(p, ATTN_E_LIMIT, e->pos, "this matrix has more than the limit of %ld elements", (long)LESSON_MAX_ELEMS);
                goto fail;
            }
            float *bigger = attn_realloc(e->vals, 2 * cap * sizeof *bigger);
            if (!bigger) {
                nomem(p);
                goto fail;
            }
            e->vals = bigger;
            cap *= 2;
        }
        if (!literal_value(p, &e->vals[n]))
            goto fail;
        n++;
        p->crossed_newline = 0;
    }
    if (rows == 0) {
        fail(p, ATTN_E_SHAPE, e->pos, "a matrix needs at least one value");
        goto fail;
    }
    e->rows = rows;
    p->opener = saved_opener;
    p->opener_pos = saved_pos;
    p->skip_newlines = saved_skip;
    e->end = p->tok->pos + 1;
    if (!advance(p))
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
    Expr *e = node(E_CALL, name_pos, name_pos);
    int ok = e ? advance(p) : (nomem(p), 0);
    if (ok && p->tok->kind != T_STR)
        ok = fail(p, ATTN_E_SYNTAX, is_sym(p->tok, ')') ? name_pos : p->tok->pos,
                  "%s takes a file name in double quotes: %s(\"weights.npy\")", name, name);
    size_t n = ok ? p->tok->len - 2 : 0;
    if (ok && n == 0)
        ok = fail(p, ATTN_E_ARG, p->tok->pos, "the file name is empty");
    if (ok && n > LESSON_MAX_PATH)
        ok = fail(p, ATTN_E_LIMIT, p->tok->pos, "the file name is longer than %d bytes", LESSON_MAX_PATH);
    if (ok && !(e->fn = fn, e->str = attn_malloc(n + 1)))
        ok = (nomem(p), 0);
    if (ok) {
        memcpy(e->str, P_src(p)->text + p->tok->pos + 1, n);
        e->str[n] = '\0';
        ok = advance(p);
    }
    if (ok && !is_sym(p->tok, ')'))
        ok = unexpected(p, is_sym(p->tok, ',') ? "')': load takes one file" : "')'");
    close_paren(p, s);
    if (ok)
        e->end = p->tok->pos + 1;
    if (ok && advance(p))
        return e;
    expr_free(e);
    return NULL;
}

static Expr *parse_call(Parser *p, int fn, size_t name_pos)
{
    if (optable_at(fn)->args == OPARGS_FILE)
        return parse_file_call(p, fn, name_pos);
    Expr *e = node(E_CALL, name_pos, name_pos);
    if (!e)
        return nomem(p);
    e->fn = fn;
    Saved s = open_paren(p, '(');
    int cap = 0;
    if (!advance(p))
        goto fail;
    if (!is_sym(p->tok, ')')) {
        for (;;) {
            if (e->n_args == cap) {
                int ncap = cap ? cap * 2 : 4;
                Expr **bigger = attn_realloc(e->args, ncap * sizeof *bigger);
                if (!bigger) {
                    nomem(p);
                    goto fail;
                }
                e->args = bigger;
                cap = ncap;
            }
            Expr *arg = parse_expr(p);
            if (!arg)
                goto fail;
            e->args[e->n_args++] = arg;
            if (!stack_on(p, e, arg))
                goto fail;
            if (is_sym(p->tok, ')'))
                break;
            if (!is_sym(p->tok, ',')) {
                unexpected(p, "',' or ')'");
                goto fail;
            }
            if (!advance(p))
                goto fail;
        }
    }
    close_paren(p, s);
    e->end = p->tok->pos + 1;
    const OpInfo *f = optable_at(fn);
    if (e->n_args < f->min_args || (f->max_args >= 0 && e->n_args > f->max_args)) {
        if (f->max_args < 0)
            fail(p, ATTN_E_SYNTAX, name_pos, "%s%s needs at least %d argument%s, not %d", f->name, f->params,
                 f->min_args, f->min_args == 1 ? "" : "s", e->n_args);
        else if (f->min_args == f->max_args)
            fail(p, ATTN_E_SYNTAX, name_pos, "%s%s takes %d argument%s, not %d", f->name, f->params, f->min_args,
                 f->min_args == 1 ? "" : "s", e->n_args);
        else
            fail(p, ATTN_E_SYNTAX, name_pos, "%s%s takes %d or %d arguments, not %d", f->name, f->params,
                 f->min_args, f->max_args, e->n_args);
        expr_free(e);
        return NULL;
    }
    if (!advance(p)) {
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
    if (tok_is(src, p->tok, "inf")) {
        Expr *e = node(E_NUM, pos, pos);
        if (!e)
            return nomem(p);
        e->num = INFINITY;
        e->end = pos + len;
        if (!advance(p)) {
            expr_free(e);
            return NULL;
        }
        return e;
    }
    if (!advance(p))
        return NULL;
    int fn = optable_fn_lookup(name, len);
    if (is_sym(p->tok, '(')) {
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
            best = suggest_name(name, len, fns, n_fns);
        if (best) {
            fail(p, ATTN_E_NAME, pos, "unknown function '%s'; did you mean '%s'?", nm, best);
        } else {
            fail(p, ATTN_E_NAME, pos, "unknown function '%s'", nm);
        }
        return NULL;
    }
    for (int i = p->scope->n - 1; i >= 0; i--)
        if (strlen(p->scope->names[i]) == len && memcmp(p->scope->names[i], name, len) == 0) {
            Expr *e = node(E_NAME, pos, pos);
            if (!e)
                return nomem(p);
            e->slot = i;
            e->end = pos + len;
            return e;
        }
    if (fn >= 0) {
        fail(p, ATTN_E_NAME, pos, "'%s' is a function: call it as %s(...)", nm, nm);
        return NULL;
    }
    const char *best = suggest_name(name, len, p->scope->names, p->scope->n);
    if (best)
        fail(p, ATTN_E_NAME, pos, "unknown name '%s'; did you mean '%s'?", nm, best);
    else
        fail(p, ATTN_E_NAME, pos, "unknown name '%s'", nm);
    return NULL;
}

static Expr *parse_primary(Parser *p)
{
    Token *t = p->tok;
    if (t->kind == T_NUM) {
        Expr *e = node(E_NUM, t->pos, t->pos);
        if (!e)
            return nomem(p);
        e->num = t->num;
        e->end = t->pos + t->len;
        if (!advance(p)) {
            expr_free(e);
            return NULL;
        }
        return e;
    }
    if (t->kind == T_NAME)
        return parse_name(p);
    if (t->kind == T_STR) {
        fail(p, ATTN_E_SYNTAX, t->pos, "a string in double quotes is a file name, as in load(\"weights.npy\")");
        return NULL;
    }
    if (is_sym(t, '[')) {
        if (!enter(p))
            return NULL;
        Expr *e = parse_matrix(p);
        p->depth--;
        return e;
    }
    if (is_sym(t, '(')) {
        size_t start = t->pos;
        Saved s = open_paren(p, '(');
        if (!advance(p))
            return NULL;
        Expr *e = parse_expr(p);
        if (e && !is_sym(p->tok, ')')) {
            unexpected(p, "')'");
            expr_free(e);
            e = NULL;
        }
        close_paren(p, s);
        if (!e)
            return NULL;
        e->start = start;
        e->end = p->tok->pos + 1;
        if (!advance(p)) {
            expr_free(e);
            return NULL;
        }
        return e;
    }
    unexpected(p, "a number, a name, '(' or '['");
    return NULL;
}

/* One index of A[i, j]: a whole number from 1, or ':' for the whole axis. */
static int parse_index(Parser *p, int *out)
{
    if (is_sym(p->tok, ':')) {
        *out = 0;
        return advance(p);
    }
    if (p->tok->kind != T_NUM)
        return unexpected(p, "an index (a whole number from 1, or ':')");
    double v = p->tok->num;
    if (v != floor(v) || v < 1 || v > 1e9) {
        char buf[64];
        return fail(p, ATTN_E_RANGE, p->tok->pos, "indices are whole numbers from 1 (found %s)",
                    tok_desc(p, buf, sizeof buf));
    }
    *out = (int)v;
    return advance(p);
}

static Expr *parse_postfix(Parser *p)
{
    size_t start = p->tok->pos;
    Expr *e = parse_primary(p);
    while (e) {
        if (is_sym(p->tok, '^')) {
            size_t pos = p->tok->pos;
            if (!advance(p))
                goto fail;
            if (!tok_is(P_src(p), p->tok, "T")) {
                fail(p, ATTN_E_SYNTAX, pos, "'^' must be followed by T (transpose)");
                goto fail;
            }
            Expr *t = node(E_TRANSPOSE, pos, start);
            if (!t) {
                nomem(p);
                goto fail;
            }
            t->a = e;
            e = t;
            if (!stack_on(p, e, e->a))
                goto fail;
            e->end = p->tok->pos + 1;
            if (!advance(p))
                goto fail;
        } else if (is_sym(p->tok, '[')) {
            Expr *ix = node(E_INDEX, p->tok->pos, start);
            if (!ix) {
                nomem(p);
                goto fail;
            }
            ix->a = e;
            e = ix;
            if (!stack_on(p, e, e->a))
                goto fail;
            Saved s = open_paren(p, '[');
            int ok = advance(p) && parse_index(p, &ix->row);
            if (ok && !is_sym(p->tok, ','))
                ok = unexpected(p, "',' between the row and the column (A[i,j])");
            ok = ok && advance(p) && parse_index(p, &ix->col);
            if (ok && !is_sym(p->tok, ']'))
                ok = unexpected(p, "']'");
            close_paren(p, s);
            if (!ok)
                goto fail;
            e->end = p->tok->pos + 1;
            if (!advance(p))
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
    if (!is_sym(p->tok, '-'))
        return parse_postfix(p);
    size_t pos = p->tok->pos;
    if (!enter(p) || !advance(p))
        return NULL;
    Expr *a = parse_unary(p);
    p->depth--;
    if (!a)
        return NULL;
    Expr *e = node(E_NEG, pos, pos);
    if (!e) {
        expr_free(a);
        return nomem(p);
    }
    e->a = a;
    e->end = a->end;
    if (!stack_on(p, e, a)) {
        expr_free(e);
        return NULL;
    }
    return e;
}

static Expr *binary(Parser *p, ExprKind kind, size_t pos, Expr *a, Expr *b)
{
    Expr *e = node(kind, pos, a->start);
    if (!e) {
        expr_free(a);
        expr_free(b);
        return nomem(p);
    }
    e->a = a;
    e->b = b;
    e->end = b->end;
    if (!stack_on(p, e, a) || !stack_on(p, e, b)) {
        expr_free(e);
        return NULL;
    }
    return e;
}

static Expr *parse_term(Parser *p)
{
    Expr *e = parse_unary(p);
    while (e && (is_sym(p->tok, '@') || is_sym(p->tok, '*') || is_sym(p->tok, '/'))) {
        char op = p->tok->sym;
        size_t pos = p->tok->pos;
        if (!advance(p)) {
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
    if (!enter(p))
        return NULL;
    Expr *e = parse_term(p);
    while (e && (is_sym(p->tok, '+') || is_sym(p->tok, '-'))) {
        char op = p->tok->sym;
        size_t pos = p->tok->pos;
        if (!advance(p)) {
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
