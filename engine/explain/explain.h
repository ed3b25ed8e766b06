/*
 * explain.h - why a cell has the value it has: the arithmetic behind any
 * cell of a computed matrix, from its provenance, with the real numbers.
 *
 * An Explanation is structured so the screen can lay it out and highlight
 * the operand cells in their panes, and the CLI can print its text field
 * as it is. Operand cells are resolved through transposes, copies
 * and views to the nearest NAMED matrix, so explaining S[2,1] of
 * S = K^T @ Q / sqrt(4) names cells of K and Q, not of the unnamed K^T.
 *
 * Examples of the text (indices 1-based, as the lessons use; one line each
 * for the formula, the numbers, the value):
 *   S[2,1] = (K^T[2,:] . Q[:,1]) / sqrt(4)
 *   = (3.2516*(-1.4282) + 3.9138*2.4459 + ...) / 2.0000
 *   = 3.2252
 *   A[2,1] = exp(S[2,1] - max) / sum_m exp(S[m,1] - max)
 *   = exp(3.2252 - 3.2252) / (0.0146 + 1.0000 + 0.0325)
 *   = 0.9551
 * Cells with no arithmetic (inputs, copies) have two lines.
 *
 * Ownership: explain_cell fills a caller-provided Explanation whose term
 * array and text it allocates; explain_free releases them (NULL-safe, and
 * safe on a zeroed Explanation). The Explanation holds no references to
 * matrices: it is valid only while the explained matrix lives.
 */
#ifndef ATTN_EXPLAIN_H
#define ATTN_EXPLAIN_H

#include <stddef.h>

#include "mat.h"
#include "numfmt.h"

/* A cell of a matrix, 0-based. */
typedef struct {
    const Mat *mat;     /* a named matrix where one could be found */
    int row, col;
    float value;
} CellRef;

/* The shape of the arithmetic, for layout. */
typedef enum {
    EXPLAIN_INPUT,      /* a given value: no arithmetic                     */
    EXPLAIN_DOT,        /* sum_k a_k * b_k (terms pair up a and b cells)    */
    EXPLAIN_ELEMENTWISE,/* one op on one or two cells (+ - * / relu ...)    */
    EXPLAIN_SOFTMAX,    /* exp(x - max) / sum exp(line - max)               */
    EXPLAIN_LAYERNORM,  /* (x - mean) / sqrt(var + eps) over the row        */
    EXPLAIN_GATHER,     /* copied from another cell (cat, range, element)   */
    EXPLAIN_FORMULA,    /* computed from position only (mask, posenc)       */
    EXPLAIN_REDUCE      /* the largest or the sum of a row or a column      */
} ExplainKind;

typedef struct {
    ExplainKind kind;
    CellRef target;     /* the cell explained                               */
    /* Cells that fed the target, in order. For EXPLAIN_DOT, terms come in
     * pairs (a_k, b_k); for softmax, the whole line with the target's own
     * input first; for a scaled product, the pairs then the scale cell. */
    CellRef *operands;
    int n_operands;
    /* The scale applied after a product folded into one explanation
     * (S = K^T @ Q / 2): op is '/' or '*' or 0 when none. */
    char scale_op;
    float scale;
    /* Rendered text, lines separated by '\n': the formula with names, the
     * same with numbers (long sums elided in the middle), and the result. */
    char *text;
} Explanation;

/* Explain m[row, col] (0-based). Returns ATTN_E_RANGE for a cell outside m,
 * ATTN_E_ARG for a NULL m, ATTN_E_NOMEM on allocation failure (ex is then
 * left empty, as on every failure). ex is overwritten, not freed: call
 * explain_free before reusing one. The caller frees with explain_free. */
attn_status explain_cell(Explanation *ex, const Mat *m, int row, int col, AttnError *err);

/* Numbers in an explanation's text: explain_cell's decimals, and the most
 * explain_cell_digits prints. */
#define EXPLAIN_DECIMALS NUM_DECIMALS_DEFAULT
#define EXPLAIN_DECIMALS_MAX NUM_DECIMALS_MAX

/* explain_cell with the numbers of the text printed to `decimals` places
 * (clamped to 0..EXPLAIN_DECIMALS_MAX), as a screen showing that precision
 * wants them. Same returns and ownership as explain_cell. */
attn_status explain_cell_digits(Explanation *ex, const Mat *m, int row, int col, int decimals, AttnError *err);

void explain_free(Explanation *ex);

/* The one-line name of a cell as the lessons write it: "S[2,1]" (1-based),
 * or "(K^T @ Q)[2,1]" style for an unnamed matrix; an unnamed 1x1 is its
 * expression alone ("sqrt(2)", "0.5"). Returns buf. */
const char *explain_cell_name(const Mat *m, int row, int col, char *buf, size_t size);

/* How m was made, in the lesson's notation, for a pane's title: its
 * operation on its operands, named operands by name and unnamed ones
 * spelled out a few levels deep ("softmax_rows(S / sqrt(2))", "Q @ K^T");
 * "" for a given matrix (a literal, a constant, an edited input). Returns
 * buf. */
const char *explain_how(const Mat *m, char *buf, size_t size);

#endif
