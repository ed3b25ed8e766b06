/*
 * lesson_state.c - a finished lesson state and what is asked of it: the
 * value of a name, an expression against it (the screen's answers, the
 * judge's), with the numbers rounded as the screen shows them (the
 * cells an exercise hides left out), and the nearest name to one misspelt.
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

int lesson_exercise_hides(const LessonExercise *ex, const char *name, int row, int col)
{
    for (int i = 0; i < ex->n_hides; i++)
        if (ex->hides[i].row == row && ex->hides[i].col == col && strcmp(ex->hides[i].name, name) == 0)
            return 1;
    return 0;
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
    if (src_validate(&src, err))
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
    if (!lex_next(&lx, &tok))
        e = expr_parse(&lx, &tok, &scope);
    free(names);
    if (!e)
        return NULL;
    while (e && tok.kind == T_NEWLINE)
        if (lex_next(&lx, &tok)) {
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
