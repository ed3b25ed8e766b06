/*
 * finite.h - honest arithmetic: finding the cell of an operation's result
 * that the arithmetic made up. A product that overflows ([1e30] @ [1e30]),
 * 0 * inf or inf - inf turns numbers into inf or NaN, and every matrix
 * computed from it is then meaningless; the lesson evaluator refuses such a
 * result at the operation's line.
 *
 * The rule, per cell of the result: it is refused when it is not finite
 * though every input of that cell was finite, or when it is NaN though no
 * input of it was NaN. A cell's inputs are the cells its explanation names
 * (explain.h): a product's row and column, a softmax's line, a sum's two
 * broadcast cells. So infinities a lesson asks for pass through: a mask
 * added to scores stays -inf, softmax gives those cells weight 0, and an
 * operation whose row says it makes infinities (causal_mask) is exempt.
 */
#ifndef ATTN_FINITE_H
#define ATTN_FINITE_H

#include "mat.h"
#include "optable.h"

typedef enum {
    FINITE_OK,          /* every cell is what its inputs allow            */
    FINITE_OVERFLOW,    /* inf or -inf from finite inputs                  */
    FINITE_NAN,         /* NaN from finite inputs                          */
    FINITE_NAN_FROM_INF /* NaN from inputs with infinities but no NaN      */
} FiniteVerdict;

/* The first refused cell of out (row by row), which op made from in[0..n):
 * its verdict, with the cell (0-based) in *row, *col and a message naming
 * the operation and the cell (1-based) in err (may be NULL), e.g. "`@`
 * overflowed at [1,1]: the result is inf from finite inputs"; FINITE_OK
 * when there is none. No allocation is needed when out is all finite; when a cell's
 * explanation cannot be allocated, or explaining has taken its budget
 * (a product of thousands fed infinities), a cell's inputs are taken to be
 * all of in. */
FiniteVerdict finite_check(const OpInfo *op, const Mat *out, Mat *const *in, int n, int *row, int *col,
                           AttnError *err);

#endif
