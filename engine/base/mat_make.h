/*
 * mat_make.h - what the engine's kernels need to make matrices (ops/):
 * the size check, views, provenance with parts. Not for app/ code.
 */
#ifndef ATTN_MAT_MAKE_H
#define ATTN_MAT_MAKE_H

#include "mat.h"

/* ATTN_OK when a rows x cols matrix may be allocated; otherwise ATTN_E_ARG
 * (a size <= 0) or ATTN_E_TOO_BIG (more than MAT_MAX_ELEMS, computed in 64
 * bits), with a message naming the shape. */
attn_status mat_check_size(int rows, int cols, AttnError *err);

/* A rows x cols window of parent at (r0, c0), sharing its buffer (ld of the
 * parent), with provenance op (OP_ROWS / OP_COLS) whose prov.a retains the
 * parent. Writing into the view writes into the parent. The caller owns
 * the one reference. NULL and ATTN_E_RANGE when the window does not fit. */
Mat *mat_view(const Mat *parent, MatOp op, int r0, int c0, int rows, int cols, AttnError *err);

/* Replace m's provenance by op over parts[0..n-1] (each retained, the array
 * copied). ATTN_E_NOMEM leaves the provenance as it was. */
attn_status mat_set_prov_parts(Mat *m, MatOp op, Mat *const *parts, int n, AttnError *err);

/* The length of m->masked when it is set: max(rows, cols), so a flag array
 * can be copied without knowing which axis its lines ran along. */
static inline int mat_masked_len(const Mat *m) { return m->rows > m->cols ? m->rows : m->cols; }

#endif
