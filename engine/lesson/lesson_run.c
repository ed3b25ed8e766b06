/*
 * lesson_run.c - evaluating a compiled lesson: each let in file order
 * (lesson_eval.c evaluates its expression), with the generator that `seed`
 * restarts, the tokens' labels, `labels` directives and the screen's edits
 * applied right after a name is computed; the exercises' cells checked to
 * fit; a range of statements again from an earlier state, with a mistake
 * planted (lesson_mutate.c).
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
            return -1;
        }
        Labels *lab = ls->n ? labels_new(ls->n, (const char *const *)ls->names) : NULL;
        if (ls->n && !lab) {
            eval_fail(c, ATTN_E_NOMEM, ls->pos, "out of memory");
            return -1;
        }
        if (ls->cols)
            mat_set_col_labels(m, lab);
        else
            mat_set_row_labels(m, lab);
        labels_free(lab);
    }
    return 0;
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
 * (a hide of a cell that is not there hid nothing, in silence). 0, or -1
 * with err. */
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
                    return -1;
                }
            }
        }
    return 0;
}

/* Statements first..last of l into a new state (see lesson_eval_range),
 * with the edits applied right after each name is computed. */
static LessonState *eval_statements(const Lesson *l, const LessonEdit *edits, int n_edits, const LessonState *from,
                                    int first, int last, const Expr *at, const struct Mutation *mut, EvalRewrite rewrite,
                                    LessonError *err)
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
    EvalCtx c = { .src = &l->src, .lesson = l, .env = s->vals, .rng = &s->rng, .err = err, .mut_at = at, .mut = mut,
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
        if (apply_labels(l, &c, v, st->slot)) {
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
    if (ok && !at && first == 0 && last == l->n_stmts - 1)
        ok = exercises_fit(l, s, err) == 0;
    if (!ok) {
        lesson_state_free(s);
        return NULL;
    }
    return s;
}

LessonState *lesson_eval(const Lesson *l, const LessonEdit *edits, int n_edits, LessonError *err)
{
    return eval_statements(l, edits, n_edits, NULL, 0, -1, NULL, NULL, NULL, err);
}

LessonState *lesson_eval_range(const Lesson *l, const LessonState *from, int first, int last, const Expr *at,
                               const struct Mutation *mut,
                               EvalRewrite rewrite, LessonError *err)
{
    return eval_statements(l, NULL, 0, from, first, last, at, mut, rewrite, err);
}

LessonState *lesson_eval_edited_mutated(const Lesson *l, const LessonEdit *edits, int n_edits, const Expr *at,
                                        const struct Mutation *mut,
                                        EvalRewrite rewrite, LessonError *err)
{
    return eval_statements(l, edits, n_edits, NULL, 0, -1, at, mut, rewrite, err);
}

int lesson_stmt_of_slot(const Lesson *l, int slot)
{
    int at = -1;
    for (int i = 0; i < l->n_stmts; i++)
        if (l->stmts[i].kind == ST_LET && l->stmts[i].slot == slot)
            at = i;
    return at;
}
