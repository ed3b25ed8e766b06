/*
 * ops_kernel.h - what a kernel of an operation runs in, below the fast
 * operations (ops.c, ops_shape.c, ...) and their references (ops_ref.c)
 * alike: the kernels' signatures, the frames that wrap one with checks,
 * labels and provenance (ops_kernel.c), the layer norm's epsilon, and the
 * helpers the operation files share (naming an operand, refusing a
 * missing one, the BEGIN prologue, checking a shape rule, copying
 * labels). Engine-internal: not part of ops.h.
 */
#ifndef ATTN_OPS_KERNEL_H
#define ATTN_OPS_KERNEL_H

#include "mat_make.h"
#include "op_rules.h"

/* ---- kernels and their frames ------------------------------------------- */

/* c = op(a) @ op(b) into an allocated c of the right shape. */
typedef void (*MatmulKernel)(Mat *c, const Mat *a, int trans_a, const Mat *b, int trans_b);
/* Softmax of a into out (same shape) along rows or columns; sets masked[line]
 * for each line of a that is all -inf (masked holds max(rows, cols) zeros
 * on entry) and returns how many there were. */
typedef int (*SoftmaxKernel)(Mat *out, const Mat *a, unsigned char *masked);
/* Layer norm of each row of a into out (same shape). */
typedef void (*RowKernel)(Mat *out, const Mat *a);

/* The frames: the contract of ops.h (a new matrix in *out, or NULL and
 * err) around the given kernel. */
attn_status ops_matmul_with(Mat **out, const Mat *a, int trans_a, const Mat *b, int trans_b,
                            MatmulKernel kernel, AttnError *err);
attn_status ops_softmax_with(Mat **out, const Mat *a, MatOp op, SoftmaxKernel kernel, AttnError *err);
attn_status ops_layernorm_with(Mat **out, const Mat *a, RowKernel kernel, AttnError *err);

/* The layer norm epsilon (torch.nn.LayerNorm's default). */
#define OPS_LAYERNORM_EPS 1e-5

/* ---- small helpers ------------------------------------------------------ */

/* How an operand is named in a message: its name, or a fallback. */
static inline const char *who(const Mat *m, const char *fallback)
{
    return m->name[0] ? m->name : fallback;
}

/* A refusal of a NULL operand, naming the operation as messages do:
 * "`@`", "softmax_rows". */
static inline attn_status missing(AttnError *err, MatOp op)
{
    char what[32];
    return attn_fail(err, ATTN_E_ARG, "%s was given no matrix", op_rule_title(op, what, sizeof what));
}

/* Start an operation: clear *out, and point err at a local AttnError when
 * the caller passed none, so a failure's code can always be read back. */
#define BEGIN(out, err)              \
    AttnError err##_scratch;         \
    if (!(err))                      \
        (err) = &err##_scratch;      \
    if (out)                         \
        *(out) = NULL;               \
    attn_error_clear(err)

/* Check operands x[0..n) by op's shape rule; the result's shape in *r, *c. */
static inline attn_status fits(MatOp op, const OpShape *x, int n, int *r, int *c, AttnError *err)
{
    int bad;
    return op_rule_check(op, x, n, r, c, &bad, err) ? ATTN_OK : ATTN_E_SHAPE;
}

/* The result of op on operands x[0..n): checked by op's shape rule and made
 * at the shape the rule gives. NULL with err (a shape refused, or no
 * memory). */
static inline Mat *fitted_new(MatOp op, const OpShape *x, int n, AttnError *err)
{
    int r, c;
    return fits(op, x, n, &r, &c, err) == ATTN_OK ? mat_new(r, c, err) : NULL;
}

/* A new matrix of a's shape carrying a's labels. */
static inline Mat *new_like(const Mat *a, AttnError *err)
{
    Mat *m = mat_new(a->rows, a->cols, err);
    if (m) {
        mat_set_row_labels(m, a->row_labels);
        mat_set_col_labels(m, a->col_labels);
    }
    return m;
}

/* The labels of range lo..hi-1 of l (NULL when l has none), attached by set. */
static inline void set_sliced(Mat *m, const Labels *l, int lo, int hi, void (*set)(Mat *, Labels *))
{
    Labels *s = labels_slice(l, lo, hi);
    set(m, s);
    labels_free(s);
}

#endif
