/*
 * explain_internal.h - shared between explain.c (the arithmetic of a cell),
 * explain_name.c (how matrices and cells are named, and the walk back to
 * named cells) and explain_table.c (each operation's explainer and step
 * back). Private to explain/.
 */
#ifndef ATTN_EXPLAIN_INTERNAL_H
#define ATTN_EXPLAIN_INTERNAL_H

#include <stddef.h>

#include "explain.h"

/* Buffer sizes for an expression and for a cell name built on one. */
#define EXPLAIN_EXPR_MAX 128
#define EXPLAIN_NAME_MAX (EXPLAIN_EXPR_MAX + 32)

/* A short expression for m into buf (always NUL-terminated, truncated to
 * size): its name, else its operation on its operands' expressions, cut to
 * "(...)" below a few levels. depth is the nesting already used (0 at the
 * top). */
void explain_expr(const Mat *m, char *buf, size_t size, int depth);

/* One step back from cell (*r, *c) of m through an operation that copies
 * numbers (copy, transpose, rows/cols view, element, hcat/vcat): returns the
 * source matrix and moves *r, *c there; NULL when m computes its cells. */
const Mat *explain_source_step(const Mat *m, int *r, int *c);

/* Cell (r, c) of m followed back through such steps to the nearest named
 * matrix (or the first that computes its cells). */
CellRef explain_resolve(const Mat *m, int r, int c);

/* The steps back from cell (*r, *c) of m to the cell it was moved from,
 * one per kind of operation that only moves numbers, named by the rows of
 * explain_table.c; see explain_source_step. */
const Mat *explain_back_copy(const Mat *m, int *r, int *c);
const Mat *explain_back_transpose(const Mat *m, int *r, int *c);
const Mat *explain_back_view(const Mat *m, int *r, int *c);      /* rows, cols */
const Mat *explain_back_element(const Mat *m, int *r, int *c);
const Mat *explain_back_cat(const Mat *m, int *r, int *c);       /* hcat, vcat */
const Mat *explain_back_repeat(const Mat *m, int *r, int *c);    /* repeat_heads */

/* The explainers of one cell (row, col) of m, one per kind of operation,
 * named by the rows of explain_table.c. Each writes the cell's operands and
 * text into b, explain.c's builder. */
struct ExplainBuilder;
void explain_input(struct ExplainBuilder *b, const Mat *m, int row, int col);     /* given, drawn   */
void explain_gather(struct ExplainBuilder *b, const Mat *m, int row, int col);    /* moved numbers  */
void explain_product(struct ExplainBuilder *b, const Mat *m, int row, int col);   /* a @ b          */
void explain_binary(struct ExplainBuilder *b, const Mat *m, int row, int col);    /* + - * /        */
void explain_unary(struct ExplainBuilder *b, const Mat *m, int row, int col);     /* -a, f(a)       */
void explain_softmax(struct ExplainBuilder *b, const Mat *m, int row, int col);
void explain_layernorm(struct ExplainBuilder *b, const Mat *m, int row, int col);
void explain_mask(struct ExplainBuilder *b, const Mat *m, int row, int col);
void explain_posenc(struct ExplainBuilder *b, const Mat *m, int row, int col);
void explain_cosine(struct ExplainBuilder *b, const Mat *m, int row, int col);
void explain_where(struct ExplainBuilder *b, const Mat *m, int row, int col);
void explain_reduce(struct ExplainBuilder *b, const Mat *m, int row, int col);   /* rowmax ... colsum */
void explain_call2(struct ExplainBuilder *b, const Mat *m, int row, int col);    /* maximum(a, b) */
void explain_rope(struct ExplainBuilder *b, const Mat *m, int row, int col);     /* rope, rope_half */
void explain_positions(struct ExplainBuilder *b, const Mat *m, int row, int col);/* window, alibi */
void explain_topk(struct ExplainBuilder *b, const Mat *m, int row, int col);

/* How a cell of a matrix made by one operation is explained, and for an
 * operation that only moves numbers (OpInfo.moves) the step back to the
 * cell it came from (NULL for one that computes its cells). */
typedef struct {
    void (*cell)(struct ExplainBuilder *b, const Mat *m, int row, int col);
    const Mat *(*back)(const Mat *m, int *r, int *c);
} ExplainRow;

/* op's row of explain_table.c (one per MatOp, generated from MAT_OPS);
 * NULL outside MatOp. */
const ExplainRow *explain_row(MatOp op);

#endif
