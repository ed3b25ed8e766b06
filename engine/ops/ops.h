/*
 * ops.h - the operations of attention on Mat, each recording provenance
 * and carrying axis labels.
 *
 * Every function has the same contract: on success it stores a new matrix
 * (one reference, owned by the caller) in *out and returns ATTN_OK; on
 * failure *out is NULL, err explains (shape errors name both shapes and what
 * the operation needs; ranges and indices are quoted 1-based and inclusive,
 * as the lessons write them) and the status is returned. err may be NULL.
 * Inputs are never modified except for their reference counts (a view from
 * op_rows/op_cols shares its parent's buffer: writing into it writes into
 * the parent). Nothing here prints, exits or aborts. The BLAS-backed
 * products go through blas.c, the one caller of cblas.
 *
 * Labels: a product takes a's row labels and b's column labels; a transpose
 * swaps them; element-wise ops take them from the operand of full shape;
 * softmax, layernorm and the element-wise functions keep them; ranges slice.
 */
#ifndef ATTN_OPS_H
#define ATTN_OPS_H

#include "mat.h"

/* out = op(a) @ op(b) where op transposes when trans_* is set, by one
 * cblas_sgemm: Q @ K^T is (q, 0, k, 1), no copy of K. (r, c) = (rows of
 * op(a), cols of op(b)). Its plain-loop reference, and softmax's and
 * layer norm's, are in ops_ref.h. */
attn_status op_matmul(Mat **out, const Mat *a, int trans_a, const Mat *b, int trans_b, AttnError *err);

attn_status op_transpose(Mat **out, const Mat *a, AttnError *err);

/* Element-wise a OP b. b (or a) may be 1x1 (scalar), 1xC (row, broadcast
 * down) or Rx1 (column, broadcast across) when the other is RxC. */
attn_status op_add(Mat **out, const Mat *a, const Mat *b, AttnError *err);
attn_status op_sub(Mat **out, const Mat *a, const Mat *b, AttnError *err);
attn_status op_mul(Mat **out, const Mat *a, const Mat *b, AttnError *err);
attn_status op_div(Mat **out, const Mat *a, const Mat *b, AttnError *err);
attn_status op_neg(Mat **out, const Mat *a, AttnError *err);

/* Stable softmax along each row / down each column: shift by the line's true
 * max; -inf gets weight exactly 0; a line that is all -inf gives 0s and is
 * flagged in out->masked. NaN inputs propagate as NaN. */
attn_status op_softmax_rows(Mat **out, const Mat *a, AttnError *err);
attn_status op_softmax_cols(Mat **out, const Mat *a, AttnError *err);

/* Each row to mean 0 and variance 1: (x - mean) / sqrt(var + 1e-5), biased
 * variance, gain 1 and bias 0 (torch.nn.LayerNorm's defaults). */
attn_status op_layernorm_rows(Mat **out, const Mat *a, AttnError *err);

attn_status op_relu(Mat **out, const Mat *a, AttnError *err);
attn_status op_exp(Mat **out, const Mat *a, AttnError *err);
attn_status op_log(Mat **out, const Mat *a, AttnError *err);
attn_status op_sqrt(Mat **out, const Mat *a, AttnError *err);

/* n x n: 0 on and below the diagonal, -inf above. */
attn_status op_causal_mask(Mat **out, int n, AttnError *err);

/* Side by side (same rows) / stacked (same cols); n >= 1 parts. */
attn_status op_hcat(Mat **out, Mat *const *parts, int n, AttnError *err);
attn_status op_vcat(Mat **out, Mat *const *parts, int n, AttnError *err);

/* Rows / columns lo..hi-1 (0-based, half-open) as a view sharing a's buffer. */
attn_status op_rows(Mat **out, const Mat *a, int lo, int hi, AttnError *err);
attn_status op_cols(Mat **out, const Mat *a, int lo, int hi, AttnError *err);
/* a[i, j] (0-based) as a 1x1 matrix. */
attn_status op_element(Mat **out, const Mat *a, int i, int j, AttnError *err);

/* n positions x d of the sinusoidal encoding. op_posenc is Vaswani et al.:
 * PE(p, 2i) = sin(p / 10000^(2i/d)), PE(p, 2i+1) = cos(same). op_posenc_book
 * is notebook 003's variant, whose exponent doubles the element index k
 * instead of the pair index i (k = 2i = 0, 2, 4 ...):
 * PE(p, k) = sin(p / 10000^(2k/d)), PE(p, k+1) = cos(same), so its
 * frequencies fall twice as fast (column 2 of the book equals column 4 of
 * the paper). Reference 003: pe_book_2_first8, cos_pe_book_2_10. Row p is
 * position p (0-based); an odd d ends on a sine column. */
attn_status op_posenc(Mat **out, int n, int d, AttnError *err);
attn_status op_posenc_book(Mat **out, int n, int d, AttnError *err);

/* Cosine similarity of two vectors of the same number of elements (any
 * orientation), as 1x1. Zero vectors give 0. */
attn_status op_cosine(Mat **out, const Mat *a, const Mat *b, AttnError *err);

/* Reductions (ops_reduce.c): rowmax and rowsum give R x 1 (each row's
 * largest value, its sum; a row of only -inf has max -inf), colmax and
 * colsum 1 x C (the same down each column). The kept axis keeps its
 * labels. */
attn_status op_rowmax(Mat **out, const Mat *a, AttnError *err);
attn_status op_rowsum(Mat **out, const Mat *a, AttnError *err);
attn_status op_colmax(Mat **out, const Mat *a, AttnError *err);
attn_status op_colsum(Mat **out, const Mat *a, AttnError *err);
/* The element-wise larger of a and b (broadcasting as + does). */
attn_status op_maximum(Mat **out, const Mat *a, const Mat *b, AttnError *err);
/* a where a > 0, exp(a) - 1 elsewhere (alpha 1, as torch's elu). */
attn_status op_elu(Mat **out, const Mat *a, AttnError *err);

/* With numbers among their arguments (ops_course.c), each p[0..n) as the
 * call gave them, recorded in the provenance (param[], n_param).
 * rope(a, base, p0): row i (0-based) is position p0 + i; columns 2k, 2k+1
 * (rope_half: k, k + C/2) turned by op_rope_angle; C must be even; base
 * defaults to 10000, p0 to 0. */
attn_status op_rope(Mat **out, const Mat *a, const double *p, int n, AttnError *err);
attn_status op_rope_half(Mat **out, const Mat *a, const double *p, int n, AttnError *err);
/* The rotation as a hand slips at it, for the judge: sin and cos each in
 * the other's place, or the turn the other way (the sign of sin flipped). */
typedef enum { ROPE_AS_WRITTEN, ROPE_SIN_FOR_COS, ROPE_BACKWARDS } RopeSlip;
attn_status op_rope_slipped(Mat **out, const Mat *a, const double *p, int n, int half, RopeSlip slip,
                            AttnError *err);
/* The angle of pair `pair` (0-based) of a C-column row at a position. */
double op_rope_angle(double base, int cols, int pair, double position);
/* window_mask(n, w): 0 where 0 <= i - j < w, -inf elsewhere; alibi(n, m):
 * m * (j - i) on and below the diagonal, -inf above (a is unused). */
attn_status op_window_mask(Mat **out, const Mat *a, const double *p, int n, AttnError *err);
attn_status op_alibi(Mat **out, const Mat *a, const double *p, int n, AttnError *err);
/* topk_mask(S, k): 0 at each row's k largest values (a tie goes to the
 * earlier column), -inf elsewhere; k from 1 to S's columns. */
attn_status op_topk_mask(Mat **out, const Mat *a, const double *p, int n, AttnError *err);
/* How many cells of row i outrank S[i,j] (larger, or equal and earlier):
 * it is kept by topk_mask(S, k) when that is below k. */
int op_topk_rank(const Mat *s, int i, int j);
/* repeat_heads(K, dk, r): K's columns in blocks of dk, each block repeated
 * r times in place (1 1 2 2 ...); the column of K that column `col` of the
 * result came from is op_repeat_source. */
attn_status op_repeat_heads(Mat **out, const Mat *a, const double *p, int n, AttnError *err);
int op_repeat_source(int col, int dk, int r);

/* out = where(c, a, b) (parts c, a, b): element-wise a where c is non-zero,
 * else b; each of the three may broadcast (1x1, a row, a column) to the
 * largest shape. The value not taken is never touched, so a 0 beside -inf
 * stays 0 (no 0 x -inf). */
attn_status op_where(Mat **out, Mat *const *parts, int n, AttnError *err);

/* Constant matrices (OP_INPUT). */
attn_status op_zeros(Mat **out, int r, int c, AttnError *err);
attn_status op_ones(Mat **out, int r, int c, AttnError *err);
attn_status op_eye(Mat **out, int n, AttnError *err);

#endif
