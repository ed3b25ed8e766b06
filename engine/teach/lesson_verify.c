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
