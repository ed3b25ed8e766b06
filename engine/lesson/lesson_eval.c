/*
 * lesson_eval.c - one expression of a compiled lesson evaluated through
 * the engine (ops.h). The whole lesson, statement by statement, is
 * lesson_run.c's; the finished state and what is asked of it,
 * lesson_state.c's.
 *
 * Operators and functions are evaluated through their rows of the
 * operation table (optable.h): arguments, shape rule, kernel. Shapes are
 * checked here before each operation by the row's rule, with the
 * expressions as the author wrote them, so that a refusal reads "`@` needs
 * the columns of K^T (3) to equal the rows of Q (2)" and points at the
 * operator or call.
 */
#include "alloc.h"
#include "lesson_tree.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "finite.h"
#include "ops.h"

Mat *eval_fail(EvalCtx *c, attn_status code, size_t pos, const char *fmt, ...)
{
    char msg[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    src_error(c->src, c->err, code, pos, "%s", msg);
    return NULL;
}

/* An engine failure, reported at the node that called it. */
static Mat *engine_fail(EvalCtx *c, const Expr *e, const AttnError *ae)
{
    return eval_fail(c, ae->code, e->pos, "%s", ae->msg[0] ? ae->msg : attn_status_str(ae->code));
}

static int too_many(EvalCtx *c, const Expr *e, long long rows, long long cols)
{
    if (rows * cols <= LESSON_MAX_ELEMS)
        return 0;
    char t[64];
    eval_fail(c, ATTN_E_LIMIT, e->pos,
              "%s would make a %lldx%lld matrix (%lld elements); the limit is %ld elements per matrix",
              expr_text(c->src, e, t, sizeof t), rows, cols, rows * cols, (long)LESSON_MAX_ELEMS);
    return 1;
}

static Mat *eval_index(EvalCtx *c, const Expr *e)
{
    Mat *a = expr_eval(c, e->a);
    if (!a)
        return NULL;
    char ta[64];
    Mat *out = NULL;
    AttnError ae = { 0 };
    attn_status st = ATTN_OK;
    if (e->row > a->rows || e->col > a->cols) {
        int bad_row = e->row > a->rows;
        eval_fail(c, ATTN_E_RANGE, e->pos, "%s %d is outside %s, which has %d %s (%dx%d)",
                  bad_row ? "row" : "column", bad_row ? e->row : e->col, expr_text(c->src, e->a, ta, sizeof ta),
                  bad_row ? a->rows : a->cols, bad_row ? "rows" : "columns", a->rows, a->cols);
    } else if (e->row && e->col) {
        st = op_element(&out, a, e->row - 1, e->col - 1, &ae);
    } else if (e->row) {
        st = op_rows(&out, a, e->row - 1, e->row, &ae);
    } else if (e->col) {
        st = op_cols(&out, a, e->col - 1, e->col, &ae);
    } else {
        out = mat_retain(a);
    }
    if (st != ATTN_OK)
        out = engine_fail(c, e, &ae);
    mat_free(a);
    return out;
}

/* Argument i of a call as a whole number >= min. */
static int int_arg(EvalCtx *c, const Expr *call, int i, const char *what, int min, int *out)
{
    const Expr *arg = call->args[i];
    Mat *m = expr_eval(c, arg);
    if (!m)
        return -1;
    const char *fn = optable_at(call->fn)->name;
    char t[64];
    int failed = -1;
    if (m->rows != 1 || m->cols != 1) {
        eval_fail(c, ATTN_E_ARG, arg->pos, "%s needs a number for %s, but %s is %dx%d", fn, what,
                  expr_text(c->src, arg, t, sizeof t), m->rows, m->cols);
    } else {
        double v = mat_get(m, 0, 0);
        if (!(v == floor(v)) || v < min || v > INT_MAX)
            /* the range both ways: 2147483648 is too large, not below 1 */
            eval_fail(c, ATTN_E_ARG, arg->pos, "%s needs a whole number from %d to %d for %s, not %s", fn, min,
                      INT_MAX, what, expr_text(c->src, arg, t, sizeof t));
        else {
            *out = (int)v;
            failed = 0;
        }
    }
    mat_free(m);
    return failed;
}

/* rows(A, a, b) / cols(A, a, b): 1-based, inclusive; (A, a) is one. */
static Mat *eval_range(EvalCtx *c, const Expr *e, const OpInfo *op)
{
    const char *axis = op->size_what[0];
    char first[32], last[32];
    snprintf(first, sizeof first, "the first %s", axis);
    snprintf(last, sizeof last, "the last %s", axis);
    int lo, hi;
    if (int_arg(c, e, 1, first, 1, &lo))
        return NULL;
    hi = lo;
    if (e->n_args == 3 && int_arg(c, e, 2, last, 1, &hi))
        return NULL;
    Mat *a = expr_eval(c, e->args[0]);
    if (!a)
        return NULL;
    int n = op->prov == OP_COLS ? a->cols : a->rows;
    Mat *out = NULL;
    char t[64], ta[64];
    if (hi < lo) {
        eval_fail(c, ATTN_E_RANGE, e->pos, "%s: the last %s (%d) comes before the first (%d)",
                  expr_text(c->src, e, t, sizeof t), axis, hi, lo);
    } else if (hi > n) {
        eval_fail(c, ATTN_E_RANGE, e->pos, "%s: %ss %d..%d are outside %s, which has %d %ss (%dx%d)",
                  expr_text(c->src, e, t, sizeof t), axis, lo, hi, expr_text(c->src, e->args[0], ta, sizeof ta),
                  n, axis, a->rows, a->cols);
    } else {
        AttnError ae = { 0 };
        if (op->range(&out, a, lo - 1, hi, &ae) != ATTN_OK)
            out = engine_fail(c, e, &ae);
    }
    mat_free(a);
    return out;
}

/* The constructors (randn zeros ones eye causal_mask posenc ...): sizes
 * as the row names them; one size is n x n. */
static Mat *eval_make(EvalCtx *c, const Expr *e, const OpInfo *op)
{
    int r = 0, k = 0;
    if (int_arg(c, e, 0, op->size_what[0], 1, &r))
        return NULL;
    if (!op->size_what[1])
        k = r;
    else if (int_arg(c, e, 1, op->size_what[1], 1, &k))
        return NULL;
    if (too_many(c, e, r, k))
        return NULL;
    Mat *out = NULL;
    AttnError ae = { 0 };
    if (op->make(&out, r, k, c->rng, &ae) != ATTN_OK || !out)
        return engine_fail(c, e, &ae);
    return out;
}

/* Argument i of a call as one finite number, for what (in messages). */
static int real_arg(EvalCtx *c, const Expr *call, int i, const char *what, double *out)
{
    const Expr *arg = call->args[i];
    Mat *m = expr_eval(c, arg);
    if (!m)
        return -1;
    const char *fn = optable_at(call->fn)->name;
    char t[64];
    int failed = -1;
    if (m->rows != 1 || m->cols != 1)
        eval_fail(c, ATTN_E_ARG, arg->pos, "%s needs a number for %s, but %s is %dx%d", fn, what,
                  expr_text(c->src, arg, t, sizeof t), m->rows, m->cols);
    else if (!isfinite(mat_get(m, 0, 0)))
        eval_fail(c, ATTN_E_ARG, arg->pos, "%s needs a finite number for %s, not %s", fn, what,
                  expr_text(c->src, arg, t, sizeof t));
    else
        *out = mat_get(m, 0, 0), failed = 0;
    mat_free(m);
    return failed;
}

/* The calls with numbers among their arguments (rope, window_mask, alibi,
 * topk_mask, repeat_heads): a matrix first when param_kinds says 'M', then
 * the numbers, each checked for its kind where the call writes it. */
static Mat *eval_params(EvalCtx *c, const Expr *e, const OpInfo *op)
{
    const char *kinds = op->param_kinds;
    int has_mat = kinds[0] == 'M';
    double p[2] = { 0, 0 };
    int np = 0;
    for (int i = has_mat; i < e->n_args && kinds[i] && np < 2; i++, np++) {
        const char *what = op->size_what[np];
        if (kinds[i] == 'r') {
            if (real_arg(c, e, i, what, &p[np]))
                return NULL;
        } else {
            int v;
            if (int_arg(c, e, i, what, kinds[i] == 'n' ? 1 : 0, &v))
                return NULL;
            p[np] = v;
        }
    }
    Mat *a = has_mat ? expr_eval(c, e->args[0]) : NULL;
    if (has_mat && !a)
        return NULL;
    Mat *out = NULL;
    AttnError ae = { 0 };
    char t[64];
    int r, k, bad;
    long long rows = a ? a->rows : (long long)p[0], cols = a ? a->cols : (long long)p[0];
    if (op->prov == OP_REPEAT_HEADS)
        cols *= (long long)p[1];
    OpShape x = { a ? a->rows : 0, a ? a->cols : 0, a ? expr_text(c->src, e->args[0], t, sizeof t) : "" };
    if (a && !optable_check_shape(op, &x, 1, &r, &k, &bad, &ae))
        eval_fail(c, ae.code, bad >= 0 ? e->args[0]->pos : e->pos, "%s", ae.msg);
    else if (!too_many(c, e, rows, cols)) {
        if (op->with(&out, a, p, np, &ae) != ATTN_OK)
            out = engine_fail(c, e, &ae);
        else if (!op->makes_inf && finite_check(op, out, &a, a ? 1 : 0, &r, &k, &ae) != FINITE_OK) {
            mat_free(out);     /* honest arithmetic (finite.h) */
            out = eval_fail(c, ae.code, e->pos, "%s", ae.msg);
        }
    }
    mat_free(a);
    return out;
}

/* What a call or an operator works on: its matrices, the shapes they enter
 * with and how messages name them. `@` folds a transposed side into the
 * product (A^T @ B is one product, no copy of A). */
typedef struct {
    int n;
    const Expr **at;        /* where a message about operand i points       */
    Mat **vals;             /* evaluated, one reference each                 */
    OpShape *shapes;
    char (*texts)[64];
    int trans[2];
    void *block;
} Operands;

static void operands_free(Operands *o)
{
    for (int i = 0; i < o->n && o->vals; i++)
        mat_free(o->vals[i]);
    free(o->block);
}

static int eval_operands(EvalCtx *c, const Expr *e, const OpInfo *op, Operands *o)
{
    const Expr *sides[2] = { e->a, e->b };
    const Expr *const *xs = e->kind == E_CALL ? (const Expr *const *)e->args : sides;
    int n = e->kind == E_CALL ? e->n_args : e->b ? 2 : 1;
    memset(o, 0, sizeof *o);
    size_t one = sizeof *o->at + sizeof *o->vals + sizeof *o->shapes + sizeof *o->texts;
    o->block = attn_calloc((size_t)n, one);
    if (!o->block) {
        eval_fail(c, ATTN_E_NOMEM, e->pos, "out of memory");
        return -1;
    }
    o->shapes = o->block;
    o->texts = (void *)(o->shapes + n);
    o->vals = (void *)(o->texts + n);
    o->at = (void *)(o->vals + n);
    for (int i = 0; i < n; i++) {
        const Expr *x = xs[i];
        o->at[i] = x;
        expr_text(c->src, x, o->texts[i], sizeof o->texts[i]);
        int t = op->matmul && i < 2 && x->kind == E_TRANSPOSE;
        if (t) {
            x = x->a;
            o->trans[i] = 1;
        }
        o->vals[i] = expr_eval(c, x);
        if (!o->vals[i])
            break;
        o->n = i + 1;
        const Mat *m = o->vals[i];
        o->shapes[i] = (OpShape){ t ? m->cols : m->rows, t ? m->rows : m->cols, o->texts[i] };
    }
    if (o->n == n)
        return 0;
    operands_free(o);
    return -1;
}

/* An operator or a function of matrices, through its row of the table:
 * the operands, the shape rule (its message points at the operation, or at
 * the part that does not fit), the size limit, the kernel. */
static Mat *eval_apply(EvalCtx *c, const Expr *e, const OpInfo *op)
{
    Operands o;
    if (eval_operands(c, e, op, &o))
        return NULL;
    Mat *out = NULL, **v = o.vals;
    AttnError ae = { 0 };
    int r, k, bad;
    if (!optable_check_shape(op, o.shapes, o.n, &r, &k, &bad, &ae)) {
        eval_fail(c, ae.code, bad >= 0 ? o.at[bad]->pos : e->pos, "%s", ae.msg);
    } else if (!too_many(c, e, r, k)) {
        attn_status st = op->matmul   ? op->matmul(&out, v[0], o.trans[0], v[1], o.trans[1], &ae)
                         : op->binary ? op->binary(&out, v[0], v[1], &ae)
                         : op->parts  ? op->parts(&out, v, o.n, &ae)
                                      : op->unary(&out, v[0], &ae);
        if (st != ATTN_OK)
            out = engine_fail(c, e, &ae);
        else if (finite_check(op, out, v, o.n, &r, &k, &ae) != FINITE_OK) {
            mat_free(out);     /* honest arithmetic: inf or NaN made up (finite.h) */
            out = eval_fail(c, ae.code, e->pos, "%s", ae.msg);
        }
    }
    operands_free(&o);
    return out;
}

/* The table row of an operator node; calls carry theirs. */
static const OpInfo *node_op(const Expr *e)
{
    static const int ops[] = { [E_NEG] = OP_NEG, [E_ADD] = OP_ADD, [E_SUB] = OP_SUB, [E_MUL] = OP_MUL,
                               [E_DIV] = OP_DIV, [E_MATMUL] = OP_MATMUL, [E_TRANSPOSE] = OP_TRANSPOSE };
    return e->kind == E_CALL ? optable_at(e->fn) : optable_at(ops[e->kind]);
}

Mat *expr_eval_node(EvalCtx *c, const Expr *e)
{
    AttnError ae = { 0 };
    Mat *out = NULL;
    switch (e->kind) {
    case E_NUM: {
        float v = (float)e->num;
        out = mat_from(1, 1, &v, &ae);
        return out ? out : engine_fail(c, e, &ae);
    }
    case E_NAME:
        return mat_retain(c->env[e->slot]);
    case E_MATRIX:
        out = mat_from(e->rows, e->cols, e->vals, &ae);
        return out ? out : engine_fail(c, e, &ae);
    case E_INDEX:
        return eval_index(c, e);
    case E_NEG: case E_ADD: case E_SUB: case E_MUL: case E_DIV: case E_MATMUL: case E_TRANSPOSE:
    case E_CALL: {
        const OpInfo *op = node_op(e);
        if (op->args == OPARGS_SIZES)
            return eval_make(c, e, op);
        if (op->args == OPARGS_RANGE)
            return eval_range(c, e, op);
        if (op->args == OPARGS_FILE)
            return eval_load(c, e, op);
        if (op->args == OPARGS_PARAMS)
            return eval_params(c, e, op);
        return eval_apply(c, e, op);
    }
    }
    return eval_fail(c, ATTN_E_ARG, e->pos, "unknown expression");
}

/* Every matrix is bounded by LESSON_MAX_ELEMS, and all a lesson makes
 * together (provenance keeps operands alive) by LESSON_MAX_TOTAL, so a
 * long lesson of big matrices is refused instead of exhausting memory. */
Mat *expr_eval(EvalCtx *c, const Expr *e)
{
    Mat *m = c->mut_at == e && c->rewrite ? c->rewrite(c, e) : expr_eval_node(c, e);
    if (!m || e->kind == E_NAME || !m->buf)    /* a name or a view: nothing new */
        return m;
    c->made += (long long)m->rows * m->cols;
    if (c->made <= LESSON_MAX_TOTAL)
        return m;
    mat_free(m);
    return eval_fail(c, ATTN_E_LIMIT, e->pos,
                     "the lesson's matrices would hold more than %ld numbers in all (%ld MB); that is the limit "
                     "for one lesson", (long)LESSON_MAX_TOTAL, (long)(LESSON_MAX_TOTAL * sizeof(float) >> 20));
}
