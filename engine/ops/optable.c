/*
 * optable.c - the operation table (see optable.h) and its shape rules: the
 * one place where each operation's name, arity, kernel, shape message,
 * explanation, spelling and documentation are written down.
 *
 * A shape rule's message names the operands by the text it is given: the
 * lesson evaluator passes the expressions as the author wrote them ("K^T",
 * "W @ X"), ops.c the matrices' names ("the left operand" when unnamed), so
 * a refusal reads the same from either.
 */
#include "optable.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "csv.h"
#include "npy.h"
#include "ops.h"

/* ---- kernels that take sizes (the ops.c functions take fewer) ---------- */

static attn_status k_randn(Mat **o, int r, int c, Rng *g, AttnError *e)
{
    *o = rng_randn(g, r, c, e);
    return *o ? ATTN_OK : e ? e->code : ATTN_E_NOMEM;
}
static attn_status k_zeros(Mat **o, int r, int c, Rng *g, AttnError *e) { (void)g; return op_zeros(o, r, c, e); }
static attn_status k_ones(Mat **o, int r, int c, Rng *g, AttnError *e) { (void)g; return op_ones(o, r, c, e); }
static attn_status k_eye(Mat **o, int r, int c, Rng *g, AttnError *e) { (void)c, (void)g; return op_eye(o, r, e); }
static attn_status k_causal_mask(Mat **o, int r, int c, Rng *g, AttnError *e)
{
    (void)c, (void)g;
    return op_causal_mask(o, r, e);
}
static attn_status k_posenc(Mat **o, int r, int c, Rng *g, AttnError *e) { (void)g; return op_posenc(o, r, c, e); }
static attn_status k_posenc_book(Mat **o, int r, int c, Rng *g, AttnError *e)
{
    (void)g;
    return op_posenc_book(o, r, c, e);
}

/* load("file"): the reader its extension names. */
static attn_status k_load(Mat **o, const char *path, const char *bytes, size_t len, long max, OpLabelCheck ok,
                          AttnError *e)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    if (dot && (!slash || dot > slash) && strcasecmp(dot, ".npy") == 0)
        return npy_read(o, bytes, len, max, e);
    if (dot && (!slash || dot > slash) && strcasecmp(dot, ".csv") == 0)
        return csv_read(o, bytes, len, max, ok, e);
    *o = NULL;
    return attn_fail(e, ATTN_E_ARG, "load reads .npy and .csv files; this name ends in neither");
}

/* ---- the table ------------------------------------------------------------ */

#define RC { "the rows", "the columns" }
#define N1 { "n", NULL }
#define ND { "the positions n", "the dimension d" }

/* Each MatOp's row, after its id and spelling (mat.h's MAT_OPS): the table
 * below is generated from that list, so a missing row does not compile. */

/* An element-wise function of one matrix. */
#define ELEMENTWISE(kernel, text) "(A)", 1, 1, OPARGS_MATS, { 0 }, .unary = kernel, .style = OPNAME_CALL, .doc = text
/* An element-wise operator of two matrices, with broadcasting. */
#define ARITHMETIC(kernel, text) \
    NULL, 2, 2, OPARGS_MATS, { 0 }, .binary = kernel, .style = OPNAME_INFIX, .doc = text

#define ROW_INPUT NULL, 0, 0, OPARGS_NONE, { 0 }, .style = OPNAME_VALUE, \
                  .doc = "a given value: a literal, a constant or an edited cell"
#define ROW_RANDN "(r, c)", 2, 2, OPARGS_SIZES, RC, .make = k_randn, .style = OPNAME_SIZED, \
                  .doc = "r x c standard normal draws, exactly as torch.randn"
#define ROW_COPY NULL, 1, 1, OPARGS_NONE, { 0 }, .moves = 1, .style = OPNAME_SAME, \
                 .doc = "a copy of a named matrix (let B = A)"
#define ROW_MATMUL NULL, 2, 2, OPARGS_MATS, { 0 }, .matmul = op_matmul, \
                   .style = OPNAME_INFIX, .doc = "matrix product (columns of A = rows of B)"
#define ROW_TRANSPOSE NULL, 1, 1, OPARGS_MATS, { 0 }, .unary = op_transpose, .moves = 1, \
                      .style = OPNAME_POSTFIX, .doc = "transpose"
#define ROW_ADD ARITHMETIC(op_add, "element-wise sum")
#define ROW_SUB ARITHMETIC(op_sub, "element-wise difference")
#define ROW_MUL ARITHMETIC(op_mul, "element-wise product")
#define ROW_DIV ARITHMETIC(op_div, "element-wise quotient")
#define ROW_NEG NULL, 1, 1, OPARGS_MATS, { 0 }, .unary = op_neg, .style = OPNAME_PREFIX, .doc = "negation, written -A"
#define ROW_SOFTMAX_ROWS "(S)", 1, 1, OPARGS_MATS, { 0 }, .unary = op_softmax_rows, .style = OPNAME_CALL, \
                         .doc = "softmax along each row: exp(s - max) / sum exp(s - max); -inf gives weight 0"
#define ROW_SOFTMAX_COLS "(S)", 1, 1, OPARGS_MATS, { 0 }, .unary = op_softmax_cols, .style = OPNAME_CALL, \
                         .doc = "the same down each column (tokens as columns)"
#define ROW_LAYERNORM_ROWS "(A)", 1, 1, OPARGS_MATS, { 0 }, .unary = op_layernorm_rows, .style = OPNAME_CALL, \
                           .doc = "each row to mean 0, variance 1: (a - mean) / sqrt(var + 1e-5)"
#define ROW_RELU ELEMENTWISE(op_relu, "max(0, a) element-wise")
#define ROW_EXP ELEMENTWISE(op_exp, "e^a element-wise")
#define ROW_LOG ELEMENTWISE(op_log, "the natural logarithm element-wise")
#define ROW_SQRT ELEMENTWISE(op_sqrt, "the square root element-wise")
#define ROW_HCAT "(A, B, ...)", 1, -1, OPARGS_MATS, { 0 }, .parts = op_hcat, .moves = 1, \
                 .style = OPNAME_CALL, .doc = "side by side (same number of rows)"
#define ROW_VCAT "(A, B, ...)", 1, -1, OPARGS_MATS, { 0 }, .parts = op_vcat, .moves = 1, \
                 .style = OPNAME_CALL, .doc = "stacked (same number of columns)"
#define ROW_ROWS "(A, a, b)", 2, 3, OPARGS_RANGE, { "row", NULL }, .range = op_rows, .moves = 1, \
                 .style = OPNAME_RANGE, .doc = "rows a..b (inclusive), or row a"
#define ROW_COLS "(A, a, b)", 2, 3, OPARGS_RANGE, { "column", NULL }, .range = op_cols, .moves = 1, \
                 .style = OPNAME_RANGE, .doc = "columns a..b (inclusive), or column a"
#define ROW_ELEMENT NULL, 1, 1, OPARGS_NONE, { 0 }, .moves = 1, .style = OPNAME_INDEX, \
                    .doc = "element i, j as 1 x 1, written A[i,j]"
#define ROW_CAUSAL_MASK "(n)", 1, 1, OPARGS_SIZES, N1, .make = k_causal_mask, .makes_inf = 1, \
                        .style = OPNAME_SIZED, .doc = "n x n: 0 on and below the diagonal, -inf above"
#define ROW_POSENC "(n, d)", 2, 2, OPARGS_SIZES, ND, .make = k_posenc, .style = OPNAME_SIZED, \
                   .doc = "n positions x d, the sinusoidal encoding of Vaswani et al."
#define ROW_POSENC_BOOK "(n, d)", 2, 2, OPARGS_SIZES, ND, .make = k_posenc_book, .style = OPNAME_SIZED, \
                        .doc = "notebook 003's variant, with the element index k in place of 2i"
#define ROW_COSINE "(a, b)", 2, 2, OPARGS_MATS, { 0 }, .binary = op_cosine, \
                   .style = OPNAME_CALL, .doc = "cosine similarity of two vectors with the same number of elements, 1 x 1"
#define ROW_WHERE "(C, A, B)", 3, 3, OPARGS_MATS, { 0 }, .parts = op_where, \
                  .style = OPNAME_CALL, .doc = "element-wise: A where C is not 0, else B (each broadcasts); no 0 x -inf"

#define ROW_ROWMAX "(A)", 1, 1, OPARGS_MATS, { 0 }, .unary = op_rowmax, .style = OPNAME_CALL, \
                   .doc = "R x 1: each row's largest value (a row of only -inf has max -inf)"
#define ROW_ROWSUM "(A)", 1, 1, OPARGS_MATS, { 0 }, .unary = op_rowsum, .style = OPNAME_CALL, \
                   .doc = "R x 1: each row's sum"
#define ROW_COLMAX "(A)", 1, 1, OPARGS_MATS, { 0 }, .unary = op_colmax, .style = OPNAME_CALL, \
                   .doc = "1 x C: each column's largest value"
#define ROW_COLSUM "(A)", 1, 1, OPARGS_MATS, { 0 }, .unary = op_colsum, .style = OPNAME_CALL, \
                   .doc = "1 x C: each column's sum"
#define ROW_MAXIMUM "(A, B)", 2, 2, OPARGS_MATS, { 0 }, .binary = op_maximum, .style = OPNAME_CALL, \
                    .doc = "element-wise larger of the two (each broadcasts)"
#define ROW_ELU ELEMENTWISE(op_elu, "a where a > 0, exp(a) - 1 elsewhere (alpha 1, as torch's elu)")

#define ROW_ROPE "(X, base, p0)", 2, 3, OPARGS_PARAMS, { "the base", "the first position p0" }, .with = op_rope, \
                 .param_kinds = "Mri", .style = OPNAME_PARAMS, \
                 .doc = "rotary positions, interleaved pairs: row i at position p0 + i - 1, columns (2k-1, 2k) turned by " \
                        "p * base^(-2(k-1)/C)"
#define ROW_ROPE_HALF "(X, base, p0)", 2, 3, OPARGS_PARAMS, { "the base", "the first position p0" }, \
                      .with = op_rope_half, .param_kinds = "Mri", .style = OPNAME_PARAMS, \
                      .doc = "the same rotation with column k paired with column k + C/2 (split halves)"
#define ROW_WINDOW_MASK "(n, w)", 2, 2, OPARGS_PARAMS, { "n", "the window w" }, .with = op_window_mask, \
                        .param_kinds = "nn", .makes_inf = 1, .style = OPNAME_PARAMS, \
                        .doc = "n x n causal sliding window: 0 where 0 <= i - j < w, -inf elsewhere"
#define ROW_ALIBI "(n, m)", 2, 2, OPARGS_PARAMS, { "n", "the slope m" }, .with = op_alibi, .param_kinds = "nr", \
                  .makes_inf = 1, .style = OPNAME_PARAMS, \
                  .doc = "n x n ALiBi bias of slope m: m * (j - i) on and below the diagonal, -inf above"
#define ROW_TOPK_MASK "(S, k)", 2, 2, OPARGS_PARAMS, { "k", NULL }, .with = op_topk_mask, .param_kinds = "Mn", \
                      .makes_inf = 1, .style = OPNAME_PARAMS, \
                      .doc = "0 at each row's k largest values (a tie goes to the earlier column), -inf elsewhere"
#define ROW_REPEAT_HEADS "(K, dk, r)", 3, 3, OPARGS_PARAMS, { "the head size dk", "the repeats r" }, \
                         .with = op_repeat_heads, .param_kinds = "Mnn", .moves = 1, .style = OPNAME_PARAMS, \
                         .doc = "K's columns in blocks of dk, each block repeated r times in place (1 1 2 2 ...)"

#define OPTABLE_ROW(id, spelling) [OP_##id] = { OP_##id, spelling, ROW_##id },

static const OpInfo table[OPT_COUNT] = {
    MAT_OPS(OPTABLE_ROW)
    /* The functions that record OP_INPUT. */
    [OPT_ZEROS] = { OP_INPUT, "zeros", "(r, c)", 2, 2, OPARGS_SIZES, RC, .make = k_zeros, .style = OPNAME_VALUE,
                    .doc = "an r x c matrix of zeros" },
    [OPT_ONES] = { OP_INPUT, "ones", "(r, c)", 2, 2, OPARGS_SIZES, RC, .make = k_ones, .style = OPNAME_VALUE,
                   .doc = "an r x c matrix of ones" },
    [OPT_EYE] = { OP_INPUT, "eye", "(n)", 1, 1, OPARGS_SIZES, N1, .make = k_eye, .style = OPNAME_VALUE,
                  .doc = "the n x n identity" },
    [OPT_LOAD] = { OP_INPUT, "load", "(\"file\")", 1, 1, OPARGS_FILE, { 0 }, .read = k_load, .style = OPNAME_VALUE,
                   .doc = "a matrix from a .npy or .csv file, the path relative to the lesson file" },
};

const OpInfo *optable_at(int id)
{
    return id >= 0 && id < OPT_COUNT ? &table[id] : NULL;
}

int optable_is_fn(int id)
{
    return id >= 0 && id < OPT_COUNT && table[id].params != NULL;
}

int optable_fn_lookup(const char *name, size_t len)
{
    for (int i = 0; i < OPT_COUNT; i++)
        if (optable_is_fn(i) && strlen(table[i].name) == len && memcmp(table[i].name, name, len) == 0)
            return i;
    return -1;
}

const char *optable_title(const OpInfo *op, char *buf, size_t size)
{
    snprintf(buf, size, op->params ? "%s" : "`%s`", op->name);
    return buf;
}

int optable_check_shape(const OpInfo *op, const OpShape *args, int n, int *rows, int *cols, int *bad,
                        AttnError *err)
{
    return op_rule_check(op->prov, args, n, rows, cols, bad, err);
}
