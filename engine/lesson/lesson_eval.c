/*
 * lesson_eval.c - evaluating a compiled lesson through the engine (ops.h):
 * each let in file order, with the generator that `seed` restarts, the
 * tokens' labels, `labels` directives and the screen's edits applied right
 * after a name is computed. Also one expression against a finished state.
 *
 * Shapes are checked here before each operation so that a refusal names
 * the expressions as the author wrote them ("`@` needs the columns of K^T
 * (3) to equal the rows of Q (2)") and points at the operator or call.
 */
#include "alloc.h"
#include "lesson_internal.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops.h"

struct LessonState {
    int n;
    Mat **vals;             /* by slot; one reference each                   */
    Rng rng;                /* the generator after the last statement        */
};

const char *expr_text(const Src *s, const Expr *e, char *buf, size_t size)
{
    size_t n = 0, max = size > 44 ? 40 : size - 4;
    int blank = 0;
    for (size_t i = e->start; i < e->end && i < s->len; i++) {
        char c = s->text[i];
        if (c == '\n' || c == '\t' || c == ' ' || c == '\r') {
            blank = 1;
            continue;
        }
        if (c == '#') {
            while (i < e->end && s->text[i] != '\n')
                i++;
            blank = 1;
            continue;
        }
        if (n >= max) {
            memcpy(buf + n, "...", 3);
            n += 3;
            break;
        }
        if (blank && n > 0 && n < max)
            buf[n++] = ' ';
        blank = 0;
        buf[n++] = c;
    }
    buf[n] = '\0';
    return buf;
}

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

static const char *op_symbol(ExprKind k)
{
    switch (k) {
    case E_ADD: return "+";
    case E_SUB: return "-";
    case E_MUL: return "*";
    case E_DIV: return "/";
    default:    return "@";
    }
}

/* Element-wise operands fit: same shape, or one is 1x1, a row or a column
 * matching the other's columns / rows. */
static int broadcasts(const Mat *big, const Mat *small)
{
    if (small->rows == 1 && small->cols == 1)
        return 1;
    if (small->rows == big->rows && small->cols == big->cols)
        return 1;
    if (small->rows == 1 && small->cols == big->cols)
        return 1;
    if (small->cols == 1 && small->rows == big->rows)
        return 1;
    return 0;
}

static Mat *eval_elementwise(EvalCtx *c, const Expr *e)
{
    Mat *a = expr_eval(c, e->a);
    if (!a)
        return NULL;
    Mat *b = expr_eval(c, e->b);
    if (!b) {
        mat_free(a);
        return NULL;
    }
    Mat *out = NULL;
    if (!broadcasts(a, b) && !broadcasts(b, a)) {
        char ta[64], tb[64];
        const Mat *big = (long)a->rows * a->cols >= (long)b->rows * b->cols ? a : b;
        eval_fail(c, ATTN_E_SHAPE, e->pos,
                  "`%s` cannot combine %s (%dx%d) with %s (%dx%d): the shapes must match, "
                  "or one side must be a number, a 1x%d row or a %dx1 column",
                  op_symbol(e->kind), expr_text(c->src, e->a, ta, sizeof ta), a->rows, a->cols,
                  expr_text(c->src, e->b, tb, sizeof tb), b->rows, b->cols, big->cols, big->rows);
    } else {
        AttnError ae = { 0 };
        attn_status st;
        switch (e->kind) {
        case E_ADD: st = op_add(&out, a, b, &ae); break;
        case E_SUB: st = op_sub(&out, a, b, &ae); break;
        case E_MUL: st = op_mul(&out, a, b, &ae); break;
        default:    st = op_div(&out, a, b, &ae); break;
        }
        if (st != ATTN_OK)
            out = engine_fail(c, e, &ae);
    }
    mat_free(a);
    mat_free(b);
    return out;
}

static Mat *eval_matmul(EvalCtx *c, const Expr *e)
{
    /* A^T @ B and A @ B^T fold the transpose into the product: no copy */
    const Expr *ea = e->a, *eb = e->b;
    int ta = 0, tb = 0;
    if (ea->kind == E_TRANSPOSE) {
        ea = ea->a;
        ta = 1;
    }
    if (eb->kind == E_TRANSPOSE) {
        eb = eb->a;
        tb = 1;
    }
    Mat *a = expr_eval(c, ea);
    if (!a)
        return NULL;
    Mat *b = expr_eval(c, eb);
    if (!b) {
        mat_free(a);
        return NULL;
    }
    int ar = ta ? a->cols : a->rows, ac = ta ? a->rows : a->cols;
    int br = tb ? b->cols : b->rows, bc = tb ? b->rows : b->cols;
    Mat *out = NULL;
    if (ac != br) {
        char sa[64], sb[64];
        eval_fail(c, ATTN_E_SHAPE, e->pos,
                  "`@` needs the columns of %s (%d) to equal the rows of %s (%d): %s is %dx%d, %s is %dx%d",
                  expr_text(c->src, e->a, sa, sizeof sa), ac, expr_text(c->src, e->b, sb, sizeof sb), br,
                  sa, ar, ac, sb, br, bc);
    } else if (!too_many(c, e, ar, bc)) {
        AttnError ae = { 0 };
        if (op_matmul(&out, a, ta, b, tb, &ae) != ATTN_OK)
            out = engine_fail(c, e, &ae);
    }
    mat_free(a);
    mat_free(b);
    return out;
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
    const char *fn = lesson_fns[call->fn].name;
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

static Mat *eval_args(EvalCtx *c, const Expr *e, Mat **vals)
{
    for (int i = 0; i < e->n_args; i++) {
        vals[i] = expr_eval(c, e->args[i]);
        if (!vals[i]) {
            for (int j = 0; j < i; j++)
                mat_free(vals[j]);
            return NULL;
        }
    }
    return vals[0];
}

static Mat *eval_cat(EvalCtx *c, const Expr *e)
{
    int horizontal = e->fn == FN_HCAT;
    Mat **parts = attn_calloc((size_t)e->n_args, sizeof *parts);
    if (!parts)
        return eval_fail(c, ATTN_E_NOMEM, e->pos, "out of memory");
    if (!eval_args(c, e, parts)) {
        free(parts);
        return NULL;
    }
    Mat *out = NULL;
    long long total = 0;
    int bad = -1;
    for (int i = 0; i < e->n_args; i++) {
        total += horizontal ? parts[i]->cols : parts[i]->rows;
        if (bad < 0 && (horizontal ? parts[i]->rows != parts[0]->rows : parts[i]->cols != parts[0]->cols))
            bad = i;
    }
    if (bad >= 0) {
        char t0[64], tb[64];
        const char *axis = horizontal ? "rows" : "columns";
        eval_fail(c, ATTN_E_SHAPE, e->args[bad]->pos,
                  "%s needs the same number of %s in every part: %s is %dx%d, %s (part %d) is %dx%d",
                  lesson_fns[e->fn].name, axis, expr_text(c->src, e->args[0], t0, sizeof t0), parts[0]->rows,
                  parts[0]->cols, expr_text(c->src, e->args[bad], tb, sizeof tb), bad + 1, parts[bad]->rows,
                  parts[bad]->cols);
    } else if (!too_many(c, e, horizontal ? parts[0]->rows : total, horizontal ? total : parts[0]->cols)) {
        AttnError ae = { 0 };
        attn_status st = horizontal ? op_hcat(&out, parts, e->n_args, &ae) : op_vcat(&out, parts, e->n_args, &ae);
        if (st != ATTN_OK)
            out = engine_fail(c, e, &ae);
    }
    for (int i = 0; i < e->n_args; i++)
        mat_free(parts[i]);
    free(parts);
    return out;
}

/* rows(A, a, b) / cols(A, a, b): 1-based, inclusive; (A, a) is one. */
static Mat *eval_range(EvalCtx *c, const Expr *e)
{
    int is_cols = e->fn == FN_COLS;
    int lo, hi;
    const char *axis = is_cols ? "column" : "row";
    if (!int_arg(c, e, 1, is_cols ? "the first column" : "the first row", 1, &lo))
        return NULL;
    hi = lo;
    if (e->n_args == 3 && !int_arg(c, e, 2, is_cols ? "the last column" : "the last row", 1, &hi))
        return NULL;
    Mat *a = expr_eval(c, e->args[0]);
    if (!a)
        return NULL;
    int n = is_cols ? a->cols : a->rows;
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
        attn_status st = is_cols ? op_cols(&out, a, lo - 1, hi, &ae) : op_rows(&out, a, lo - 1, hi, &ae);
        if (st != ATTN_OK)
            out = engine_fail(c, e, &ae);
    }
    mat_free(a);
    return out;
}

/* The constructors: randn zeros ones eye causal_mask posenc posenc_book. */
static Mat *eval_make(EvalCtx *c, const Expr *e)
{
    int r = 0, k = 0;
    int square = e->fn == FN_EYE || e->fn == FN_CAUSAL_MASK;
    int positions = e->fn == FN_POSENC || e->fn == FN_POSENC_BOOK;
    if (!int_arg(c, e, 0, square ? "n" : positions ? "the positions n" : "the rows", 1, &r))
        return NULL;
    if (square)
        k = r;
    else if (!int_arg(c, e, 1, positions ? "the dimension d" : "the columns", 1, &k))
        return NULL;
    if (too_many(c, e, r, k))
        return NULL;
    Mat *out = NULL;
    AttnError ae = { 0 };
    attn_status st = ATTN_OK;
    switch (e->fn) {
    case FN_RANDN:
        out = rng_randn(c->rng, r, k, &ae);
        st = out ? ATTN_OK : ae.code;
        break;
    case FN_ZEROS:       st = op_zeros(&out, r, k, &ae); break;
    case FN_ONES:        st = op_ones(&out, r, k, &ae); break;
    case FN_EYE:         st = op_eye(&out, r, &ae); break;
    case FN_CAUSAL_MASK: st = op_causal_mask(&out, r, &ae); break;
    case FN_POSENC:      st = op_posenc(&out, r, k, &ae); break;
    default:             st = op_posenc_book(&out, r, k, &ae); break;
    }
    if (st != ATTN_OK || !out)
        return engine_fail(c, e, &ae);
    return out;
}

static Mat *eval_call(EvalCtx *c, const Expr *e)
{
    switch (e->fn) {
    case FN_HCAT:
    case FN_VCAT:
        return eval_cat(c, e);
    case FN_COLS:
    case FN_ROWS:
        return eval_range(c, e);
    case FN_RANDN: case FN_ZEROS: case FN_ONES: case FN_EYE:
    case FN_CAUSAL_MASK: case FN_POSENC: case FN_POSENC_BOOK:
        return eval_make(c, e);
    default:
        break;
    }
    Mat *args[2] = { NULL, NULL };
    if (!eval_args(c, e, args))
        return NULL;
    Mat *out = NULL;
    AttnError ae = { 0 };
    attn_status st;
    switch (e->fn) {
    case FN_SOFTMAX_ROWS:    st = op_softmax_rows(&out, args[0], &ae); break;
    case FN_SOFTMAX_COLS:    st = op_softmax_cols(&out, args[0], &ae); break;
    case FN_SQRT:            st = op_sqrt(&out, args[0], &ae); break;
    case FN_EXP:             st = op_exp(&out, args[0], &ae); break;
    case FN_LOG:             st = op_log(&out, args[0], &ae); break;
    case FN_RELU:            st = op_relu(&out, args[0], &ae); break;
    case FN_LAYERNORM_ROWS:  st = op_layernorm_rows(&out, args[0], &ae); break;
    default: /* FN_COSINE */
        if ((long)args[0]->rows * args[0]->cols != (long)args[1]->rows * args[1]->cols) {
            char ta[64], tb[64];
            eval_fail(c, ATTN_E_SHAPE, e->pos,
                      "cosine needs two vectors of the same length: %s has %d elements (%dx%d), %s has %d (%dx%d)",
                      expr_text(c->src, e->args[0], ta, sizeof ta), args[0]->rows * args[0]->cols,
                      args[0]->rows, args[0]->cols, expr_text(c->src, e->args[1], tb, sizeof tb),
                      args[1]->rows * args[1]->cols, args[1]->rows, args[1]->cols);
            st = ATTN_E_SHAPE;
            ae.code = ATTN_OK;
        } else {
            st = op_cosine(&out, args[0], args[1], &ae);
        }
        break;
    }
    for (int i = 0; i < e->n_args; i++)
        mat_free(args[i]);
    if (st != ATTN_OK) {
        if (ae.code == ATTN_OK)     /* already reported */
            return NULL;
        return engine_fail(c, e, &ae);
    }
    return out;
}

static Mat *eval_node(EvalCtx *c, const Expr *e)
{
    AttnError ae = { 0 };
    Mat *out = NULL, *a;
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
    case E_ADD: case E_SUB: case E_MUL: case E_DIV:
        return eval_elementwise(c, e);
    case E_MATMUL:
        return eval_matmul(c, e);
    case E_INDEX:
        return eval_index(c, e);
    case E_CALL:
        return eval_call(c, e);
    case E_NEG:
    case E_TRANSPOSE:
        a = expr_eval(c, e->a);
        if (!a)
            return NULL;
        if ((e->kind == E_NEG ? op_neg(&out, a, &ae) : op_transpose(&out, a, &ae)) != ATTN_OK)
            out = engine_fail(c, e, &ae);
        mat_free(a);
        return out;
    }
    return eval_fail(c, ATTN_E_ARG, e->pos, "unknown expression");
}

/* Every matrix is bounded by LESSON_MAX_ELEMS, and all a lesson makes
 * together (provenance keeps operands alive) by LESSON_MAX_TOTAL, so a
 * long lesson of big matrices is refused instead of exhausting memory. */
Mat *expr_eval(EvalCtx *c, const Expr *e)
{
    Mat *m = eval_node(c, e);
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

static int edit_error(const Lesson *l, LessonError *err, const char *fmt, const char *a, int r, int c)
{
    memset(err, 0, sizeof *err);
    err->code = ATTN_E_ARG;
    snprintf(err->file, sizeof err->file, "%s", l->file);
    snprintf(err->msg, sizeof err->msg, fmt, a, r, c);
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

LessonState *lesson_eval(const Lesson *l, const LessonEdit *edits, int n_edits, LessonError *err)
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
            edit_error(l, err, "an edit names '%s', which the lesson does not define%.0d%.0d", edits[i].name, 0, 0);
            return NULL;
        }
    }
    LessonState *s = attn_calloc(1, sizeof *s);
    if (!s || !(s->vals = attn_calloc((size_t)(l->n_names ? l->n_names : 1), sizeof *s->vals))) {
        free(s);
        edit_error(l, err, "out of memory evaluating the lesson%s%.0d%.0d", "", 0, 0);
        err->code = ATTN_E_NOMEM;
        return NULL;
    }
    s->n = l->n_names;
    rng_seed(&s->rng, 0);
    Labels *tokens = l->n_tokens ? labels_new(l->n_tokens, (const char *const *)l->tokens) : NULL;
    EvalCtx c = { .src = &l->src, .env = s->vals, .rng = &s->rng, .err = err };
    int ok = 1;
    for (int i = 0; i < l->n_stmts && ok; i++) {
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
        s->vals[st->slot] = edited;
    }
    labels_free(tokens);
    if (!ok) {
        lesson_state_free(s);
        return NULL;
    }
    return s;
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
    const char *best = suggest_name(name, strlen(name), names, s->n);
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
