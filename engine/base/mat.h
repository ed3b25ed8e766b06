/*
 * mat.h - the matrix: row-major float data, a leading dimension, a name,
 * axis labels, and the provenance of how it was computed.
 *
 * Element (i, j), 0-based, lives at data[i * ld + j]. ld >= cols, so a view
 * (a range of columns, one head of a wider matrix) shares its parent's
 * buffer without a copy. The lesson language is 1-based; the engine is
 * 0-based throughout and the evaluator converts.
 *
 * Ownership: matrices are reference counted. mat_new* returns a matrix with
 * one reference held by the caller; mat_free() drops one reference and frees
 * at zero; mat_free(NULL) does nothing. A matrix's provenance holds
 * references to its operands, and a view holds one on its parent, so an
 * operand lives as long as anything computed from it. Labels are shared
 * and reference counted the same way.
 */
#ifndef ATTN_MAT_H
#define ATTN_MAT_H

#include <stddef.h>

#include "status.h"

/* The largest matrix the engine allocates (elements); larger requests fail
 * with ATTN_E_TOO_BIG before any allocation. */
#define MAT_MAX_ELEMS (1L << 26)
#define MAT_NAME_MAX 32

/* Axis labels: n strings, shared between matrices. */
typedef struct Labels {
    int refs;
    int n;
    char **names;           /* n NUL-terminated strings, owned */
} Labels;

/* The one list of operations a matrix can record as its provenance: its
 * id and how a lesson spells it. MatOp and mat_op_name are generated from
 * it here, the operation table (ops/optable.c) and the explainers
 * (explain/explain_table.c) there, each row by the id: an operation missing
 * from either table does not compile. */
#define MAT_OPS(X)                                                                  \
    X(INPUT, "input")               /* literal, zeros/ones/eye, or an edited value */ \
    X(RANDN, "randn")               /* drawn from the generator                    */ \
    X(COPY, "copy")                 /* a = the matrix copied (let B = A)           */ \
    X(MATMUL, "@")                  /* a @ b, with trans_a / trans_b               */ \
    X(TRANSPOSE, "^T")              /* a^T                                         */ \
    X(ADD, "+")                     /* a op b, with broadcast                      */ \
    X(SUB, "-")                                                                     \
    X(MUL, "*")                                                                     \
    X(DIV, "/")                                                                     \
    X(NEG, "neg")                   /* -a                                          */ \
    X(SOFTMAX_ROWS, "softmax_rows")                                                 \
    X(SOFTMAX_COLS, "softmax_cols")                                                 \
    X(LAYERNORM_ROWS, "layernorm_rows")                                             \
    X(RELU, "relu")                                                                 \
    X(EXP, "exp")                                                                   \
    X(LOG, "log")                                                                   \
    X(SQRT, "sqrt")                                                                 \
    X(HCAT, "hcat")                 /* parts[0..n_parts-1]                         */ \
    X(VCAT, "vcat")                                                                 \
    X(ROWS, "rows")                 /* a's rows / columns lo..hi-1 (a view)        */ \
    X(COLS, "cols")                                                                 \
    X(ELEMENT, "element")           /* a[lo, hi] as 1x1 (lo = row, hi = col)       */ \
    X(CAUSAL_MASK, "causal_mask")                                                   \
    X(POSENC, "posenc")             /* Vaswani et al.: exponent uses the pair index */ \
    X(POSENC_BOOK, "posenc_book")   /* notebook 003: exponent uses the element index */ \
    X(COSINE, "cosine")             /* cosine(a, b)                                */ \
    X(WHERE, "where")               /* where(c, a, b): parts[0..2], with broadcast */ \
    X(ROWMAX, "rowmax")             /* R x 1: each row's largest                  */ \
    X(ROWSUM, "rowsum")             /* R x 1: each row's sum                       */ \
    X(COLMAX, "colmax")             /* 1 x C: each column's largest               */ \
    X(COLSUM, "colsum")             /* 1 x C: each column's sum                    */ \
    X(MAXIMUM, "maximum")           /* the larger of a and b, with broadcast       */ \
    X(ELU, "elu")                   /* a > 0 ? a : exp(a) - 1                      */ \
    X(ROPE, "rope")                 /* rotary positions, interleaved pairs: param base, p0 */ \
    X(ROPE_HALF, "rope_half")       /* the same, column k with k + C/2             */ \
    X(WINDOW_MASK, "window_mask")   /* n x n causal window of w: param n, w        */ \
    X(ALIBI, "alibi")               /* n x n ALiBi bias of slope m: param n, m     */ \
    X(TOPK_MASK, "topk_mask")       /* 0 at each row's k largest: param k          */ \
    X(REPEAT_HEADS, "repeat_heads") /* blocks of dk columns, each r times: param dk, r */

/* How a matrix was made. Operands are retained by the provenance. */
typedef enum {
#define MAT_OP_ENUM(id, spelling) OP_##id,
    MAT_OPS(MAT_OP_ENUM)
#undef MAT_OP_ENUM
    OP_COUNT
} MatOp;

typedef struct Mat Mat;

typedef struct {
    MatOp op;
    Mat *a, *b;         /* operands (retained), NULL when unused           */
    Mat **parts;        /* hcat/vcat operands (each retained), owned array */
    int n_parts;
    int trans_a, trans_b; /* OP_MATMUL: operand used transposed (no copy)  */
    int lo, hi;         /* OP_ROWS/OP_COLS range; OP_ELEMENT row/col       */
    double param[2];    /* the numbers of a call that takes them (rope's
                           base and first position, a window's n and w ...) */
    int n_param;
} Prov;

struct Mat {
    int refs;
    int rows, cols;
    int ld;             /* floats between the starts of two rows          */
    float *data;        /* rows x cols at stride ld                        */
    float *buf;         /* owned buffer, or NULL for a view                */
    char name[MAT_NAME_MAX]; /* "" for an unnamed intermediate            */
    Labels *row_labels; /* NULL: rows are shown as 1..rows                 */
    Labels *col_labels;
    Prov prov;
    /* Softmax lines whose inputs were all -inf: the result there is 0s and
     * masked[line] = 1 (line = row for softmax_rows, column for _cols).
     * NULL when no line was fully masked. Owned; holds max(rows, cols)
     * flags so it can be copied without knowing the axis. */
    unsigned char *masked;
    int n_masked;
    int masked_cols;    /* the flagged lines are columns (softmax_cols)   */
    /* This matrix's number, never given twice in a process: what a memo of
     * its numbers keys on, where an address could come back for another
     * matrix once this one is freed. (A matrix's numbers do not change
     * once the operation that made it returns.) */
    unsigned long serial;
};

/* A new rows x cols matrix of zeros, ld = cols, OP_INPUT, no name.
 * Returns NULL and sets err on a bad size (<= 0, or more than
 * MAT_MAX_ELEMS: ATTN_E_TOO_BIG, checked before allocating) or no memory. */
Mat *mat_new(int rows, int cols, AttnError *err);

/* A new matrix from row-major values (copied). NULL on failure. */
Mat *mat_from(int rows, int cols, const float *values, AttnError *err);

/* A deep copy with its own contiguous buffer (ld = cols); keeps name,
 * labels and masked lines; provenance OP_COPY of m. NULL on failure. */
Mat *mat_copy(const Mat *m, AttnError *err);

/* Take one more reference; returns m (NULL-safe). */
Mat *mat_retain(const Mat *m);

/* Drop one reference; frees at zero. NULL does nothing. */
void mat_free(Mat *m);

/* Element access, 0-based, unchecked (callers check ranges). */
static inline float mat_get(const Mat *m, int i, int j) { return m->data[(size_t)i * m->ld + j]; }
static inline void mat_set(Mat *m, int i, int j, float v) { m->data[(size_t)i * m->ld + j] = v; }
static inline float *mat_row(const Mat *m, int i) { return m->data + (size_t)i * m->ld; }

/* Name a matrix (truncated to MAT_NAME_MAX-1). */
void mat_set_name(Mat *m, const char *name);

/* "3x4" into buf; returns buf. */
const char *mat_shape_str(const Mat *m, char *buf, size_t size);

/* Labels: a new set of n labels copied from names (NULL on failure). */
Labels *labels_new(int n, const char *const *names);
Labels *labels_retain(Labels *l);
void labels_free(Labels *l);                  /* drop a reference */
/* Labels lo..hi-1 of l as a new set; NULL if l is NULL. */
Labels *labels_slice(const Labels *l, int lo, int hi);
/* Replace m's row / column labels (retains l; l may be NULL: the axis is
 * then shown as 1..n). A set whose n does not match the axis length is
 * ignored: the axis keeps what it had. */
void mat_set_row_labels(Mat *m, Labels *l);
void mat_set_col_labels(Mat *m, Labels *l);
/* The label of row i / column j, or NULL when the axis has none. */
const char *mat_row_label(const Mat *m, int i);
const char *mat_col_label(const Mat *m, int j);

/* Set m's provenance: retains a and b (either may be NULL). Replaces and
 * releases any previous provenance (parts, trans and lo/hi are cleared).
 * A view (buf == NULL) first takes its own copy of its data, since its
 * parent may be released; if that copy cannot be allocated nothing changes. */
void mat_set_prov(Mat *m, MatOp op, const Mat *a, const Mat *b);

/* 1 when softmax found line `line` of m all -inf (its weights are 0s):
 * row `line` when by_rows, else column `line`; 0 otherwise, and for a
 * line outside m. The screen and the handout mark such lines. */
int mat_line_masked(const Mat *m, int line, int by_rows);

/* 1 when m[i,j] is 0 because a mask made it so: m is a softmax and its
 * score at [i,j] was -inf. Such a zero is exact, where a computed weight
 * that rounds to 0 is not; the screen and the handout show it as a bare
 * "0" (MASKED_ZERO_TEXT) rather than 0.0000. */
int mat_cell_masked(const Mat *m, int i, int j);
#define MASKED_ZERO_TEXT "0"

/* How a lesson spells an operation ("@", "softmax_rows", ...), from
 * MAT_OPS; "unknown" outside MatOp. */
const char *mat_op_name(MatOp op);

#endif
