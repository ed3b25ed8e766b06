/*
 * explain_fixtures.h - helpers of the explanation suites
 * (explain_fixtures.c).
 */
#ifndef ATTN_TEST_EXPLAIN_FIXTURES_H
#define ATTN_TEST_EXPLAIN_FIXTURES_H

#include "explain.h"
#include "ops.h"

#define EX_TOL 1e-5

/* Keep *pm (the result of an operation that returned st) to free with the
 * test's others; the test fails when st is not ATTN_OK. */
Mat *keep(attn_status st, Mat *const *pm, const char *what);
/* Free every kept matrix. */
void free_kept(void);
/* A named input matrix (no name when name is NULL); a 1x1 one. */
Mat *input(const char *name, int r, int c, const float *v);
Mat *scalar(float v);
/* The operations, kept. */
typedef attn_status (*UnaryOp)(Mat **, const Mat *, AttnError *);
typedef attn_status (*BinaryOp)(Mat **, const Mat *, const Mat *, AttnError *);
Mat *op1(UnaryOp fn, const Mat *a, const char *what);
Mat *op2(BinaryOp fn, const Mat *a, const Mat *b, const char *what);
#define OP1(fn, a) op1(fn, (a), #fn)
#define OP2(fn, a, b) op2(fn, (a), (b), #fn)
Mat *matmul(const Mat *a, int ta, const Mat *b, int tb);
/* The value an explanation's operands give. */
double recompute(const Explanation *ex);
/* It adds back up to the cell's value (within EX_TOL). */
void assert_adds_up(const Explanation *ex);
/* Operand c is m[row, col]. */
void assert_cell(const CellRef *c, const Mat *m, int row, int col);
/* The explanation's text has piece in it. */
void assert_text(const Explanation *ex, const char *piece);
/* K and Q: 4 x 3, tokens as columns, from these values. */
extern const float K_V[12], Q_V[12];
void make_kq(Mat **k, Mat **q);

#endif
