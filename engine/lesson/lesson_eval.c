/*
 * lesson_eval.c - evaluating a compiled lesson through the engine (ops.h):
 * each let in file order, with the generator that `seed` restarts, the
 * tokens' labels, `labels` directives and the screen's edits applied right
 * after a name is computed. Also one expression against a finished state.
 *
 * Operators and functions are evaluated through their rows of the
 * operation table (optable.h): arguments, shape rule, kernel. Shapes are
 * checked here before each operation by the row's rule, with the
 * expressions as the author wrote them, so that a refusal reads "`@` needs
 * the columns of K^T (3) to equal the rows of Q (2)" and points at the
 * operator or call.
 */
#include "alloc.h"
#include "lesson_internal.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "finite.h"
#include "ops.h"

struct LessonState {
    int n;
    Mat **vals;             /* by slot; one reference each                   */
    Rng rng;                /* the generator after the last statement        */
};

static Mat *eval_fail(EvalCtx *c, attn_status code, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static Mat *eval_fail(EvalCtx *c, attn_status code, size_t pos, const char *fmt, ...)
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
        return 0;
    const char *fn = optable_at(call->fn)->name;
    char t[64];
    int ok = 0;
    if (m->rows != 1 || m->cols != 1) {
        eval_fail(c, ATTN_E_ARG, arg->pos, "%s needs a number for %s, but %s is %dx%d", fn, what,
                  expr_text(c->src, arg, t, sizeof t), m->rows, m->cols);
    } else {
        double v = mat_get(m, 0, 0);
        if (!(v == floor(v)) || v < min || v > INT_MAX)
            eval_fail(c, ATTN_E_ARG, arg->pos, "%s needs a whole number %s %d for %s, not %s", fn,
                      min == 0 ? "from" : "of at least", min, what, expr_text(c->src, arg, t, sizeof t));
        else {
            *out = (int)v;
            ok = 1;
        }
    }
    mat_free(m);
    return ok;
}

/* rows(A, a, b) / cols(A, a, b): 1-based, inclusive; (A, a) is one. */
static Mat *eval_range(EvalCtx *c, const Expr *e, const OpInfo *op)
{
    const char *axis = op->size_what[0];
    char first[32], last[32];
    snprintf(first, sizeof first, "the first %s", axis);
    snprintf(last, sizeof last, "the last %s", axis);
    int lo, hi;
    if (!int_arg(c, e, 1, first, 1, &lo))
        return NULL;
    hi = lo;
    if (e->n_args == 3 && !int_arg(c, e, 2, last, 1, &hi))
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
    if (!int_arg(c, e, 0, op->size_what[0], 1, &r))
        return NULL;
    if (!op->size_what[1])
        k = r;
    else if (!int_arg(c, e, 1, op->size_what[1], 1, &k))
        return NULL;
    if (too_many(c, e, r, k))
        return NULL;
    Mat *out = NULL;
    AttnError ae = { 0 };
    if (op->make(&out, r, k, c->rng, &ae) != ATTN_OK || !out)
        return engine_fail(c, e, &ae);
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
        return 0;
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
        return 1;
    operands_free(o);
    return 0;
}

/* An operator or a function of matrices, through its row of the table:
 * the operands, the shape rule (its message points at the operation, or at
 * the part that does not fit), the size limit, the kernel. */
static Mat *eval_apply(EvalCtx *c, const Expr *e, const OpInfo *op)
{
    Operands o;
    if (!eval_operands(c, e, op, &o))
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
    Mat *m = c->mut && c->rewrite && c->mut->node == e ? c->rewrite(c, e) : expr_eval_node(c, e);
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

/* ---- the whole lesson ---- */

void lesson_state_free(LessonState *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n; i++)
        mat_free(s->vals[i]);
    free(s->vals);
    free(s);
}

static int edit_error(const Lesson *l, LessonError *err, attn_status code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int edit_error(const Lesson *l, LessonError *err, attn_status code, const char *fmt, ...)
{
    memset(err, 0, sizeof *err);
    err->code = code;
    snprintf(err->file, sizeof err->file, "%s", l->file);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return 0;
}

/* The tokens label the token axis of a matrix that is given (a literal, a
 * draw, a constant) or assembled by concatenation, when its length is the
 * number of tokens and it has no labels of its own. */
static void label_tokens(const Lesson *l, Mat *m, Labels *tokens)
{
    if (!tokens)
        return;
    MatOp op = m->prov.op;
    if (l->layout == LAYOUT_ROWS) {
        if (!m->row_labels && m->rows == l->n_tokens &&
            (op == OP_INPUT || op == OP_RANDN || op == OP_VCAT))
            mat_set_row_labels(m, tokens);
    } else {
        if (!m->col_labels && m->cols == l->n_tokens &&
            (op == OP_INPUT || op == OP_RANDN || op == OP_HCAT))
            mat_set_col_labels(m, tokens);
    }
}

static int apply_labels(const Lesson *l, EvalCtx *c, Mat *m, int slot)
{
    for (int i = 0; i < l->n_labels; i++) {
        const LabelSpec *ls = &l->labels[i];
        if (ls->slot != slot)
            continue;
        int len = ls->cols ? m->cols : m->rows;
        if (ls->n && ls->n != len) {
            eval_fail(c, ATTN_E_SHAPE, ls->pos, "%d labels for the %s of %s, which has %d", ls->n,
                      ls->cols ? "columns" : "rows", l->names[slot], len);
            return 0;
        }
        Labels *lab = ls->n ? labels_new(ls->n, (const char *const *)ls->names) : NULL;
        if (ls->n && !lab) {
            eval_fail(c, ATTN_E_NOMEM, ls->pos, "out of memory");
            return 0;
        }
        if (ls->cols)
            mat_set_col_labels(m, lab);
        else
            mat_set_row_labels(m, lab);
        labels_free(lab);
    }
    return 1;
}

/* Apply the edits of one name: on a copy of its own, which becomes an input. */
static Mat *apply_edits(const Lesson *l, EvalCtx *c, Mat *m, int slot, const LessonEdit *edits, int n_edits,
                        size_t pos)
{
    Mat *own = NULL;
    for (int i = 0; i < n_edits; i++) {
        if (strcmp(edits[i].name, l->names[slot]) != 0)
            continue;
        if (edits[i].row < 0 || edits[i].row >= m->rows || edits[i].col < 0 || edits[i].col >= m->cols) {
            eval_fail(c, ATTN_E_RANGE, pos, "an edit of %s[%d,%d] is outside %s (%dx%d)", l->names[slot],
                      edits[i].row + 1, edits[i].col + 1, l->names[slot], m->rows, m->cols);
            mat_free(own);
            return NULL;
        }
        if (!own) {
            AttnError ae = { 0 };
            own = mat_copy(m, &ae);
            if (!own) {
                eval_fail(c, ae.code, pos, "%s", ae.msg);
                return NULL;
            }
            mat_set_prov(own, OP_INPUT, NULL, NULL);
        }
        mat_set(own, edits[i].row, edits[i].col, edits[i].value);
    }
    return own ? own : mat_retain(m);
}

/* Every cell an exercise hides is inside its matrix, and every `mistake`
 * evaluates to one number: else the lesson is refused where it says so
 * (a hide of a cell that is not there hid nothing, in silence). */
static int exercises_fit(const Lesson *l, LessonState *s, LessonError *err)
{
    for (int k = 0; k < l->n_steps; k++)
        for (int e = 0; e < l->steps[k].n_exercises; e++) {
            const LessonExercise *ex = &l->steps[k].exercises[e];
            for (int h = 0; h < ex->n_hides; h++) {
                const LessonCell *c = &ex->hides[h];
                const Mat *m = lesson_state_get(s, c->name);
                if (m && (c->row >= m->rows || c->col >= m->cols))
                    return src_error(&l->src, err, ATTN_E_RANGE, c->pos, "%s[%d,%d] is outside %s, which is %dx%d",
                                     c->name, c->row + 1, c->col + 1, c->name, m->rows, m->cols);
            }
            for (int i = 0; i < ex->n_mistakes; i++) {
                LessonError me;
                Mat *v = lesson_state_eval(s, &l->src, ex->mistakes[i].parsed, &me);
                int one = v && v->rows == 1 && v->cols == 1;
                if (v && !one)
                    src_error(&l->src, &me, ATTN_E_SHAPE, ex->mistakes[i].pos,
                              "a mistake gives one number, as an answer does, but this is %dx%d", v->rows, v->cols);
                mat_free(v);
                if (!one) {
                    *err = me;
                    return 0;
                }
            }
        }
    return 1;
}

/* Statements first..last of l into a new state (see lesson_eval_range),
 * with the edits applied right after each name is computed. */
static LessonState *eval_statements(const Lesson *l, const LessonEdit *edits, int n_edits, const LessonState *from,
                                    int first, int last, const Mutation *mut, EvalRewrite rewrite, LessonError *err)
{
    LessonError scratch;
    if (!err)
        err = &scratch;
    memset(err, 0, sizeof *err);
    for (int i = 0; i < n_edits; i++) {
        int known = 0;
        for (int k = 0; k < l->n_names && !known; k++)
            known = strcmp(l->names[k], edits[i].name) == 0;
        if (!known) {
            edit_error(l, err, ATTN_E_ARG, "an edit names '%s', which the lesson does not define", edits[i].name);
            return NULL;
        }
    }
    LessonState *s = attn_calloc(1, sizeof *s);
    if (!s || !(s->vals = attn_calloc((size_t)(l->n_names ? l->n_names : 1), sizeof *s->vals))) {
        free(s);
        edit_error(l, err, ATTN_E_NOMEM, "out of memory evaluating the lesson");
        return NULL;
    }
    s->n = l->n_names;
    rng_seed(&s->rng, 0);
    if (from && first > 0) {
        s->rng = from->rng;
        for (int i = 0; i < first && i < l->n_stmts; i++)
            if (l->stmts[i].kind == ST_LET && from->vals[l->stmts[i].slot]) {
                mat_free(s->vals[l->stmts[i].slot]);
                s->vals[l->stmts[i].slot] = mat_retain(from->vals[l->stmts[i].slot]);
            }
    } else {
        first = 0;
    }
    if (last < 0 || last >= l->n_stmts)
        last = l->n_stmts - 1;
    Labels *tokens = l->n_tokens ? labels_new(l->n_tokens, (const char *const *)l->tokens) : NULL;
    EvalCtx c = { .src = &l->src, .lesson = l, .env = s->vals, .rng = &s->rng, .err = err, .mut = mut,
                  .rewrite = rewrite };
    int ok = 1;
    for (int i = first; i <= last && ok; i++) {
        const Stmt *st = &l->stmts[i];
        if (st->kind == ST_SEED) {
            rng_seed(&s->rng, st->seed);
            continue;
        }
        Mat *v = expr_eval(&c, st->expr);
        if (!v) {
            ok = 0;
            break;
        }
        if (v->name[0]) {   /* a named matrix, `let B = A`: B is a copy */
            AttnError ae = { 0 };
            Mat *copy = mat_copy(v, &ae);
            mat_free(v);
            if (!copy) {
                eval_fail(&c, ae.code, st->pos, "%s", ae.msg);
                ok = 0;
                break;
            }
            v = copy;
        }
        label_tokens(l, v, tokens);
        if (!apply_labels(l, &c, v, st->slot)) {
            mat_free(v);
            ok = 0;
            break;
        }
        Mat *edited = n_edits ? apply_edits(l, &c, v, st->slot, edits, n_edits, st->pos) : mat_retain(v);
        mat_free(v);
        if (!edited) {
            ok = 0;
            break;
        }
        mat_set_name(edited, l->names[st->slot]);
        mat_free(s->vals[st->slot]);
        s->vals[st->slot] = edited;
    }
    labels_free(tokens);
    /* the lesson as a whole: what its exercises name must exist */
    if (ok && !mut && first == 0 && last == l->n_stmts - 1)
        ok = exercises_fit(l, s, err);
    if (!ok) {
        lesson_state_free(s);
        return NULL;
    }
    return s;
}

LessonState *lesson_eval(const Lesson *l, const LessonEdit *edits, int n_edits, LessonError *err)
{
    return eval_statements(l, edits, n_edits, NULL, 0, -1, NULL, NULL, err);
}

LessonState *lesson_eval_range(const Lesson *l, const LessonState *from, int first, int last, const Mutation *mut,
                               EvalRewrite rewrite, LessonError *err)
{
    return eval_statements(l, NULL, 0, from, first, last, mut, rewrite, err);
}

int lesson_stmt_of_slot(const Lesson *l, int slot)
{
    int at = -1;
    for (int i = 0; i < l->n_stmts; i++)
        if (l->stmts[i].kind == ST_LET && l->stmts[i].slot == slot)
            at = i;
    return at;
}

int lesson_state_count(const LessonState *s) { return s ? s->n : 0; }

const Mat *lesson_state_at(const LessonState *s, int i)
{
    return s && i >= 0 && i < s->n ? s->vals[i] : NULL;
}

const Mat *lesson_state_get(const LessonState *s, const char *name)
{
    if (!s || !name)
        return NULL;
    for (int i = 0; i < s->n; i++)
        if (s->vals[i] && strcmp(s->vals[i]->name, name) == 0)
            return s->vals[i];
    return NULL;
}

Mat *lesson_state_eval(const LessonState *s, const Src *src, const Expr *e, LessonError *err)
{
    Rng rng = s->rng;
    EvalCtx c = { .src = src, .env = s->vals, .rng = &rng, .err = err };
    return expr_eval(&c, e);
}

/* Mark in mark[] (one byte per slot) every name e uses. */
void expr_mark_slots(const Expr *e, unsigned char *mark)
{
    if (!e)
        return;
    if (e->kind == E_NAME)
        mark[e->slot] = 1;
    expr_mark_slots(e->a, mark);
    expr_mark_slots(e->b, mark);
    for (int i = 0; e->kind == E_CALL && i < e->n_args; i++)
        expr_mark_slots(e->args[i], mark);
}

static double round_to(double v, double unit)
{
    return isfinite(v) ? round(v / unit) * unit : v;
}

Mat *lesson_eval_rounded(const LessonState *s, const Src *src, const Expr *e, int decimals,
                         const LessonExercise *ex, LessonError *err)
{
    unsigned char *mark = attn_calloc((size_t)(s->n ? s->n : 1), 1);
    Mat **env = attn_calloc((size_t)(s->n ? s->n : 1), sizeof *env);
    Mat *out = NULL;
    if (!mark || !env) {
        src_error(src, err, ATTN_E_NOMEM, 0, "out of memory");
        goto done;
    }
    expr_mark_slots(e, mark);
    double unit = pow(10.0, -decimals);
    for (int i = 0; i < s->n; i++) {
        if (!s->vals[i])
            continue;
        if (!mark[i]) {
            env[i] = mat_retain(s->vals[i]);
            continue;
        }
        AttnError ae = { 0 };
        Mat *m = mat_copy(s->vals[i], &ae);
        if (!m) {
            src_error(src, err, ae.code, 0, "%s", ae.msg);
            goto done;
        }
        mat_set_name(m, s->vals[i]->name);
        for (int r = 0; r < m->rows; r++)
            for (int k = 0; k < m->cols; k++)
                if (!ex || !lesson_exercise_hides(ex, m->name, r, k))
                    mat_set(m, r, k, (float)round_to(mat_get(m, r, k), unit));
        env[i] = m;
    }
    Rng rng = s->rng;
    EvalCtx c = { .src = src, .env = env, .rng = &rng, .err = err };
    out = expr_eval(&c, e);
done:
    for (int i = 0; env && i < s->n; i++)
        mat_free(env[i]);
    free(env);
    free(mark);
    return out;
}

/* The state's names, slot = index ("" for a slot not computed); the array
 * is the caller's to free, the strings belong to s. NULL on no memory. */
static char **state_names(const LessonState *s)
{
    char **names = attn_calloc((size_t)(s->n ? s->n : 1), sizeof *names);
    if (names)
        for (int i = 0; i < s->n; i++)
            names[i] = s->vals[i] ? s->vals[i]->name : "";
    return names;
}

const char *lesson_state_nearest(const LessonState *s, const char *name)
{
    if (!s || !name)
        return NULL;
    char **names = state_names(s);
    if (!names)
        return NULL;
    const char *best = lesson_suggest_name(name, strlen(name), names, s->n);
    free(names);
    return best;
}

Mat *lesson_eval_expr(const LessonState *s, const char *expr, LessonError *err)
{
    LessonError scratch;
    if (!err)
        err = &scratch;
    memset(err, 0, sizeof *err);
    Src src = { expr ? expr : "", expr ? strlen(expr) : 0, "<expr>" };
    if (!s) {
        src_error(&src, err, ATTN_E_ARG, 0, "no lesson state to evaluate against");
        return NULL;
    }
    if (!src_validate(&src, err))
        return NULL;
    char **names = state_names(s);
    if (!names) {
        src_error(&src, err, ATTN_E_NOMEM, 0, "out of memory");
        return NULL;
    }
    Scope scope = { names, s->n };
    Lexer lx = { &src, 0, err };
    Token tok;
    Expr *e = NULL;
    if (lex_next(&lx, &tok))
        e = expr_parse(&lx, &tok, &scope);
    free(names);
    if (!e)
        return NULL;
    while (e && tok.kind == T_NEWLINE)
        if (!lex_next(&lx, &tok)) {
            expr_free(e);
            return NULL;
        }
    Mat *m = NULL;
    if (tok.kind != T_EOF)
        src_error(&src, err, ATTN_E_SYNTAX, tok.pos, "unexpected '%.*s' after the expression",
                  (int)(tok.len < 40 ? tok.len : 40), src.text + tok.pos);
    else
        m = lesson_state_eval(s, &src, e, err);
    expr_free(e);
    return m;
}
