/*
 * finite.c - honest arithmetic (see finite.h): the first cell of a result
 * that is inf or NaN though its inputs give no reason for it.
 */
#include "finite.h"

#include <math.h>

#include "explain.h"

/* Explaining cells costs about its operands plus a line of text; past this
 * much work in one result (a huge product fed infinities), the remaining
 * cells are judged by all the operands together, so no result takes long. */
#define FINITE_BUDGET (1L << 20)
#define FINITE_CELL_COST 32

/* What a set of values holds: any value that is not finite, any NaN. */
typedef struct {
    int nonfinite, nan;
} Seen;

static void see(Seen *s, float v)
{
    s->nonfinite |= !isfinite(v);
    s->nan |= isnan(v);
}

static Seen seen_in(Mat *const *in, int n)
{
    Seen s = { 0, 0 };
    for (int k = 0; k < n; k++)
        for (int i = 0; i < in[k]->rows; i++)
            for (int j = 0; j < in[k]->cols; j++)
                see(&s, mat_get(in[k], i, j));
    return s;
}

/* The inputs of cell (i, j): the operands its explanation names, or all of
 * in when it cannot be explained or the budget is spent. */
static Seen seen_cell(const Mat *out, int i, int j, const Seen *all, long *budget)
{
    Explanation ex;
    if (*budget <= 0 || explain_cell(&ex, out, i, j, NULL) != ATTN_OK)
        return *all;
    *budget -= ex.n_operands + FINITE_CELL_COST;
    Seen s = { 0, 0 };
    for (int k = 0; k < ex.n_operands; k++)
        see(&s, ex.operands[k].value);
    explain_free(&ex);
    return s;
}

/* The message of a refused cell (1-based, as lessons write cells). */
static void refusal(const OpInfo *op, FiniteVerdict verdict, int i, int j, float v, AttnError *err)
{
    char what[32];
    optable_title(op, what, sizeof what);
    if (verdict == FINITE_OVERFLOW)
        attn_fail(err, ATTN_E_ARG, "%s overflowed at [%d,%d]: the result is %s from finite inputs", what, i + 1,
                  j + 1, v < 0 ? "-inf" : "inf");
    else if (verdict == FINITE_NAN)
        attn_fail(err, ATTN_E_ARG, "%s gave NaN at [%d,%d] from finite inputs", what, i + 1, j + 1);
    else
        attn_fail(err, ATTN_E_ARG,
                  "%s gave NaN at [%d,%d] from infinite inputs: inf - inf, 0 * inf and inf / inf have no value",
                  what, i + 1, j + 1);
}

FiniteVerdict finite_check(const OpInfo *op, const Mat *out, Mat *const *in, int n, int *row, int *col,
                           AttnError *err)
{
    if (!op || !out || op->makes_inf)
        return FINITE_OK;
    int any = 0;
    for (int i = 0; i < out->rows && !any; i++)
        for (int j = 0; j < out->cols && !any; j++)
            any = !isfinite(mat_get(out, i, j));
    if (!any)
        return FINITE_OK;
    Seen all = seen_in(in, n);
    long budget = FINITE_BUDGET;
    for (int i = 0; i < out->rows; i++)
        for (int j = 0; j < out->cols; j++) {
            float v = mat_get(out, i, j);
            if (isfinite(v))
                continue;
            /* with finite operands every input of every cell is finite */
            Seen s = all.nonfinite ? seen_cell(out, i, j, &all, &budget) : all;
            FiniteVerdict verdict = !s.nonfinite ? (isnan(v) ? FINITE_NAN : FINITE_OVERFLOW)
                                    : isnan(v) && !s.nan ? FINITE_NAN_FROM_INF
                                                          : FINITE_OK;
            if (verdict != FINITE_OK) {
                *row = i;
                *col = j;
                refusal(op, verdict, i, j, v, err);
                return verdict;
            }
        }
    return FINITE_OK;
}
