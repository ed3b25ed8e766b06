/*
 * lesson_verify.c - what `attn check` proves about a lesson: every `check`
 * holds within its tolerance; every exercise's answer evaluates to one
 * number and, when the exercise states `= VALUE`, matches it within its
 * `within`. Numbers are compared by the judge's one measure
 * (lesson_judge_distance, lesson_judge.c). Results come back in file
 * order, each with a reason when it failed.
 */
#include "alloc.h"
#include "teach_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Compare got with want (same shape, or want 1x1 against every cell). */
static int compare(const Mat *got, const Mat *want, double tol, char *detail, size_t size)
{
    int scalar = want->rows == 1 && want->cols == 1;
    if (!scalar && (got->rows != want->rows || got->cols != want->cols)) {
        snprintf(detail, size, "the left side is %dx%d but the right side is %dx%d", got->rows, got->cols,
                 want->rows, want->cols);
        return 0;
    }
    double worst = -1;
    int wi = 0, wj = 0;
    for (int i = 0; i < got->rows; i++)
        for (int j = 0; j < got->cols; j++) {
            double d = lesson_judge_distance(mat_get(got, i, j), scalar ? mat_get(want, 0, 0) : mat_get(want, i, j));
            if (d > worst) {
                worst = d;
                wi = i;
                wj = j;
            }
        }
    if (worst <= tol)
        return 1;
    snprintf(detail, size, "max difference %.6g at [%d,%d]: got %.6g, expected %.6g (within %g)", worst, wi + 1,
             wj + 1, mat_get(got, wi, wj), scalar ? mat_get(want, 0, 0) : mat_get(want, wi, wj), tol);
    return 0;
}

static void eval_error_detail(const LessonError *e, char *detail, size_t size)
{
    snprintf(detail, size, "%d:%d: %s", e->line, e->col, e->msg);
}

static void verify_one(const Lesson *l, const LessonState *s, const VerifyItem *it, VerifyResult *r)
{
    memset(r, 0, sizeof *r);
    r->kind = it->kind;
    r->line = it->line;
    r->stated = it->kind == VERIFY_CHECK || it->has_expected;
    snprintf(r->what, sizeof r->what, "%s", it->what ? it->what : "");
    LessonError err;
    Mat *got = lesson_state_eval(s, &l->src, it->lhs, &err);
    if (!got) {
        eval_error_detail(&err, r->detail, sizeof r->detail);
        return;
    }
    if (it->kind == VERIFY_CHECK) {
        Mat *want = lesson_state_eval(s, &l->src, it->rhs, &err);
        if (!want)
            eval_error_detail(&err, r->detail, sizeof r->detail);
        else
            r->passed = compare(got, want, it->tol, r->detail, sizeof r->detail);
        mat_free(want);
    } else if (got->rows != 1 || got->cols != 1) {
        /* the screen asks the student for one number: so must the answer */
        snprintf(r->detail, sizeof r->detail, "the answer is a %dx%d matrix; an exercise's answer is one number",
                 got->rows, got->cols);
    } else if (it->has_expected) {
        double d = lesson_judge_distance(mat_get(got, 0, 0), it->expected);
        r->passed = d <= it->tol;
        if (!r->passed)
            snprintf(r->detail, sizeof r->detail, "the answer is %.6g, but the exercise states %.6g (within %g)",
                     mat_get(got, 0, 0), it->expected, it->tol);
    } else {
        r->passed = 1;
    }
    mat_free(got);
}

attn_status lesson_verify(const Lesson *l, const LessonState *s, VerifyResult **out, int *n)
{
    *out = NULL;
    *n = 0;
    VerifyResult *res = attn_calloc((size_t)(l->n_items ? l->n_items : 1), sizeof *res);
    if (!res)
        return ATTN_E_NOMEM;
    for (int i = 0; i < l->n_items; i++)
        verify_one(l, s, &l->items[i], &res[i]);
    *out = res;
    *n = l->n_items;
    return ATTN_OK;
}

/* ---- answers the screen gives away (--strict) ---- */

/* Is name[r,c] kept as '?' on step k while exercise `asked` of it is open:
 * that exercise or a later one of the step hides it (as the screen does). */
static int hidden_on(const LessonStep *st, int asked, const char *name, int r, int c)
{
    for (int e = asked; e < st->n_exercises; e++)
        if (lesson_exercise_hides(&st->exercises[e], name, r, c))
            return 1;
    return 0;
}

/* A visible cell of m (shown on step k, the one asked on) that reads as v
 * within tol while exercise asked of it is open: 1 and where, into why. */
static int read_off(const Lesson *l, const Mat *m, int k, int asked, double v, double tol, char *why, size_t size)
{
    for (int r = 0; m && r < m->rows; r++)
        for (int c = 0; c < m->cols; c++) {
            double x = mat_get(m, r, c);
            if (!isfinite(x) || fabs(x - v) > tol || hidden_on(&l->steps[k], asked, m->name, r, c))
                continue;
            snprintf(why, size, "its value %.6g can be read on its own screen at %s[%d,%d] (--strict): hide that "
                     "cell too, or ask another", v, m->name, r + 1, c + 1);
            return 1;
        }
    return 0;
}

/* The asked cell m[i,j], hidden on its screen, is the only hidden cell of
 * a row (by_rows) or a column that sums to 0 or 1: found by subtraction. */
static int by_sum(const LessonStep *st, int asked, const Mat *m, int i, int j, int by_rows, char *why, size_t size)
{
    int n = by_rows ? m->cols : m->rows, hidden = 0;
    double sum = 0;
    if (n < 2)
        return 0;
    for (int k = 0; k < n; k++) {
        int r = by_rows ? i : k, c = by_rows ? k : j;
        double x = mat_get(m, r, c);
        if (!isfinite(x))
            return 0;
        sum += x;
        hidden += hidden_on(st, asked, m->name, r, c);
    }
    double target = fabs(sum) < 1e-4 ? 0 : fabs(sum - 1) < 1e-4 ? 1 : -1;
    if (hidden != 1 || target < 0)
        return 0;
    snprintf(why, size, "its value follows from %s %d of %s, which sums to %g with only this cell hidden "
             "(--strict): hide another cell of it, or ask another", by_rows ? "row" : "column", by_rows ? i + 1 : j + 1,
             m->name, target);
    return 1;
}

int lesson_exercise_leaks(const Lesson *l, const LessonState *s, const LessonExercise *ex, char *why, size_t size)
{
    int ek = -1, asked = -1;
    for (int k = 0; k < l->n_steps && ek < 0; k++)
        if (ex >= l->steps[k].exercises && ex < l->steps[k].exercises + l->steps[k].n_exercises) {
            ek = k;
            asked = (int)(ex - l->steps[k].exercises);
        }
    LessonError err;
    Mat *got = ek >= 0 ? lesson_state_eval(s, &l->src, ex->parsed, &err) : NULL;
    int one = got && got->rows == 1 && got->cols == 1;
    double v = one ? mat_get(got, 0, 0) : NAN;
    mat_free(got);
    /* a count (an integer, 0 included) meets its like on a screen by chance */
    double tol = ex->within > 5e-5 ? ex->within : 5e-5;
    if (!one || !isfinite(v) || fabs(v - round(v)) <= tol)
        return 0;
    /* the screen it is asked on (other steps show what earlier ones asked,
     * and what a property makes equal, as a lesson goes on) */
    for (int p = 0; p < l->steps[ek].n_show; p++)
        if (read_off(l, lesson_state_get(s, l->steps[ek].show[p]), ek, asked, v, tol, why, size))
            return 1;
    if (!ex->has_cell)
        return 0;
    const LessonStep *st = &l->steps[ek];
    for (int p = 0; p < st->n_show; p++)
        if (strcmp(st->show[p], ex->cell.name) == 0) {
            const Mat *m = lesson_state_get(s, ex->cell.name);
            if (m && hidden_on(st, asked, m->name, ex->cell.row, ex->cell.col)
                && (by_sum(st, asked, m, ex->cell.row, ex->cell.col, 1, why, size)
                    || by_sum(st, asked, m, ex->cell.row, ex->cell.col, 0, why, size)))
                return 1;
        }
    return 0;
}
