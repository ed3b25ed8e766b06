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

FiniteVerdict finite_check(const OpInfo *op, const Mat *out, Mat *const *in, int n, int *row, int *col)
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
                return verdict;
            }
        }
    return FINITE_OK;
}
