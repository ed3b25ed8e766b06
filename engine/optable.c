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
#include "explain_internal.h"
#include "npy.h"
#include "ops.h"

/* ---- shape rules ------------------------------------------------------- */

static int shape_fail(int *bad, int at, AttnError *err, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int shape_fail(int *bad, int at, AttnError *err, const char *fmt, ...)
{
    char msg[sizeof err->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    *bad = at;
    attn_fail(err, ATTN_E_SHAPE, "%s", msg);
    return 0;
}

/* a @ b: the columns of a meet the rows of b. */
static int shape_matmul(const OpInfo *op, const OpShape *x, int n, int *rows, int *cols, int *bad, AttnError *err)
{
    (void)op;
    (void)n;
    if (x[0].cols != x[1].rows)
        return shape_fail(bad, -1, err,
                          "`@` needs the columns of %s (%d) to equal the rows of %s (%d): %s is %dx%d, %s is %dx%d",
                          x[0].text, x[0].cols, x[1].text, x[1].rows, x[0].text, x[0].rows, x[0].cols, x[1].text,
                          x[1].rows, x[1].cols);
    *rows = x[0].rows;
    *cols = x[1].cols;
    return 1;
}

static int shape_transpose(const OpInfo *op, const OpShape *x, int n, int *rows, int *cols, int *bad,
                           AttnError *err)
{
    (void)op, (void)n, (void)bad, (void)err;
    *rows = x[0].cols;
    *cols = x[0].rows;
    return 1;
}

/* Can small stand in for big element-wise: the same shape, 1x1, a row
 * matching big's columns or a column matching its rows? */
static int broadcasts(const OpShape *big, const OpShape *small)
{
    return (small->rows == big->rows || small->rows == 1) && (small->cols == big->cols || small->cols == 1);
}

/* a + b, a - b, a * b, a / b: one side has the full shape, the other fits
 * into it. */
static int shape_broadcast(const OpInfo *op, const OpShape *x, int n, int *rows, int *cols, int *bad,
                           AttnError *err)
{
    (void)n;
    const OpShape *full = broadcasts(&x[0], &x[1]) ? &x[0] : broadcasts(&x[1], &x[0]) ? &x[1] : NULL;
    if (!full) {
        const OpShape *big = (int64_t)x[0].rows * x[0].cols >= (int64_t)x[1].rows * x[1].cols ? &x[0] : &x[1];
        return shape_fail(bad, -1, err,
                          "`%s` cannot combine %s (%dx%d) with %s (%dx%d): the shapes must match, "
                          "or one side must be a number, a 1x%d row or a %dx1 column",
                          op->name, x[0].text, x[0].rows, x[0].cols, x[1].text, x[1].rows, x[1].cols, big->cols,
                          big->rows);
    }
    *rows = full->rows;
    *cols = full->cols;
    return 1;
}

/* hcat / vcat: the parts agree on the kept axis; the other adds up
 * (clamped to INT_MAX: the kernel refuses more). */
static int shape_cat(const OpInfo *op, const OpShape *x, int n, int *rows, int *cols, int *bad, AttnError *err)
{
    int horizontal = op->prov == OP_HCAT;
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        if (horizontal ? x[i].rows != x[0].rows : x[i].cols != x[0].cols)
            return shape_fail(bad, i, err,
                              "%s needs the same number of %s in every part: %s is %dx%d, %s (part %d) is %dx%d",
                              op->name, horizontal ? "rows" : "columns", x[0].text, x[0].rows, x[0].cols,
                              x[i].text, i + 1, x[i].rows, x[i].cols);
        total += horizontal ? x[i].cols : x[i].rows;
    }
    int t = total > INT_MAX ? INT_MAX : (int)total;
    *rows = horizontal ? x[0].rows : t;
    *cols = horizontal ? t : x[0].cols;
    return 1;
}

/* cosine(a, b): as many numbers in each, in any orientation; 1x1. */
static int shape_cosine(const OpInfo *op, const OpShape *x, int n, int *rows, int *cols, int *bad, AttnError *err)
{
    (void)op;
    (void)n;
    long long na = (long long)x[0].rows * x[0].cols, nb = (long long)x[1].rows * x[1].cols;
    if (na != nb)
        return shape_fail(bad, -1, err,
                          "cosine needs two vectors of the same length: %s has %lld elements (%dx%d), %s has %lld "
                          "(%dx%d)",
                          x[0].text, na, x[0].rows, x[0].cols, x[1].text, nb, x[1].rows, x[1].cols);
    *rows = *cols = 1;
    return 1;
}

/* where(c, a, b): every part broadcasts to the largest rows and columns. */
static int shape_where(const OpInfo *op, const OpShape *x, int n, int *rows, int *cols, int *bad, AttnError *err)
{
    (void)op;
    OpShape full = { 1, 1, "" };
    for (int i = 0; i < n; i++) {
        full.rows = x[i].rows > full.rows ? x[i].rows : full.rows;
        full.cols = x[i].cols > full.cols ? x[i].cols : full.cols;
    }
    for (int i = 0; i < n; i++)
        if (!broadcasts(&full, &x[i]))
            return shape_fail(bad, i, err,
                              "where cannot fit %s (%dx%d) to %dx%d: each part must have that shape, "
                              "or be a number, a 1x%d row or a %dx1 column",
                              x[i].text, x[i].rows, x[i].cols, full.rows, full.cols, full.cols, full.rows);
    *rows = full.rows;
    *cols = full.cols;
    return 1;
}

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

/* An element-wise function of one matrix. */
#define ELEMENTWISE(id, nm, kernel, text) \
    [id] = { id, nm, "(A)", 1, 1, OPARGS_MATS, { 0 }, .unary = kernel, .explain = explain_unary, \
             .style = OPNAME_CALL, .doc = text }
/* An element-wise operator of two matrices, with broadcasting. */
#define ARITHMETIC(id, sym, kernel, text) \
    [id] = { id, sym, NULL, 2, 2, OPARGS_MATS, { 0 }, .binary = kernel, .shape = shape_broadcast, \
             .explain = explain_binary, .style = OPNAME_INFIX, .doc = text }

static const OpInfo table[OPT_COUNT] = {
    [OP_INPUT] = { OP_INPUT, "input", NULL, 0, 0, OPARGS_NONE, { 0 }, .explain = explain_input,
                   .style = OPNAME_VALUE, .doc = "a given value: a literal, a constant or an edited cell" },
    [OP_RANDN] = { OP_RANDN, "randn", "(r, c)", 2, 2, OPARGS_SIZES, RC, .make = k_randn, .explain = explain_input,
                   .style = OPNAME_SIZED, .doc = "r x c standard normal draws, exactly as torch.randn" },
    [OP_COPY] = { OP_COPY, "copy", NULL, 1, 1, OPARGS_NONE, { 0 }, .explain = explain_gather,
                  .back = explain_back_copy, .style = OPNAME_SAME, .doc = "a copy of a named matrix (let B = A)" },
    [OP_MATMUL] = { OP_MATMUL, "@", NULL, 2, 2, OPARGS_MATS, { 0 }, .matmul = op_matmul, .shape = shape_matmul,
                    .explain = explain_product, .style = OPNAME_INFIX,
                    .doc = "matrix product (columns of A = rows of B)" },
    [OP_TRANSPOSE] = { OP_TRANSPOSE, "^T", NULL, 1, 1, OPARGS_MATS, { 0 }, .unary = op_transpose,
                       .shape = shape_transpose, .explain = explain_gather, .back = explain_back_transpose,
                       .style = OPNAME_POSTFIX,
                       .doc = "transpose" },
    ARITHMETIC(OP_ADD, "+", op_add, "element-wise sum"),
    ARITHMETIC(OP_SUB, "-", op_sub, "element-wise difference"),
    ARITHMETIC(OP_MUL, "*", op_mul, "element-wise product"),
    ARITHMETIC(OP_DIV, "/", op_div, "element-wise quotient"),
    [OP_NEG] = { OP_NEG, "neg", NULL, 1, 1, OPARGS_MATS, { 0 }, .unary = op_neg, .explain = explain_unary,
                 .style = OPNAME_PREFIX, .doc = "negation, written -A" },
    [OP_SOFTMAX_ROWS] = { OP_SOFTMAX_ROWS, "softmax_rows", "(S)", 1, 1, OPARGS_MATS, { 0 },
                          .unary = op_softmax_rows, .explain = explain_softmax, .style = OPNAME_CALL,
                          .doc = "softmax along each row: exp(s - max) / sum exp(s - max); -inf gives weight 0" },
    [OP_SOFTMAX_COLS] = { OP_SOFTMAX_COLS, "softmax_cols", "(S)", 1, 1, OPARGS_MATS, { 0 },
                          .unary = op_softmax_cols, .explain = explain_softmax, .style = OPNAME_CALL,
                          .doc = "the same down each column (tokens as columns)" },
    [OP_LAYERNORM_ROWS] = { OP_LAYERNORM_ROWS, "layernorm_rows", "(A)", 1, 1, OPARGS_MATS, { 0 },
                            .unary = op_layernorm_rows, .explain = explain_layernorm, .style = OPNAME_CALL,
                            .doc = "each row to mean 0, variance 1: (a - mean) / sqrt(var + 1e-5)" },
    ELEMENTWISE(OP_RELU, "relu", op_relu, "max(0, a) element-wise"),
    ELEMENTWISE(OP_EXP, "exp", op_exp, "e^a element-wise"),
    ELEMENTWISE(OP_LOG, "log", op_log, "the natural logarithm element-wise"),
    ELEMENTWISE(OP_SQRT, "sqrt", op_sqrt, "the square root element-wise"),
    [OP_HCAT] = { OP_HCAT, "hcat", "(A, B, ...)", 1, -1, OPARGS_MATS, { 0 }, .parts = op_hcat, .shape = shape_cat,
                  .explain = explain_gather, .back = explain_back_cat, .style = OPNAME_CALL,
                  .doc = "side by side (same number of rows)" },
    [OP_VCAT] = { OP_VCAT, "vcat", "(A, B, ...)", 1, -1, OPARGS_MATS, { 0 }, .parts = op_vcat, .shape = shape_cat,
                  .explain = explain_gather, .back = explain_back_cat, .style = OPNAME_CALL,
                  .doc = "stacked (same number of columns)" },
    [OP_ROWS] = { OP_ROWS, "rows", "(A, a, b)", 2, 3, OPARGS_RANGE, { "row", NULL }, .range = op_rows,
                  .explain = explain_gather, .back = explain_back_view, .style = OPNAME_RANGE,
                  .doc = "rows a..b (inclusive), or row a" },
    [OP_COLS] = { OP_COLS, "cols", "(A, a, b)", 2, 3, OPARGS_RANGE, { "column", NULL }, .range = op_cols,
                  .explain = explain_gather, .back = explain_back_view, .style = OPNAME_RANGE,
                  .doc = "columns a..b (inclusive), or column a" },
    [OP_ELEMENT] = { OP_ELEMENT, "element", NULL, 1, 1, OPARGS_NONE, { 0 }, .explain = explain_gather,
                     .back = explain_back_element, .style = OPNAME_INDEX, .doc = "element i, j as 1 x 1, written A[i,j]" },
    [OP_CAUSAL_MASK] = { OP_CAUSAL_MASK, "causal_mask", "(n)", 1, 1, OPARGS_SIZES, N1, .make = k_causal_mask,
                         .makes_inf = 1, .explain = explain_mask, .style = OPNAME_SIZED,
                         .doc = "n x n: 0 on and below the diagonal, -inf above" },
    [OP_POSENC] = { OP_POSENC, "posenc", "(n, d)", 2, 2, OPARGS_SIZES, ND, .make = k_posenc,
                    .explain = explain_posenc, .style = OPNAME_SIZED,
                    .doc = "n positions x d, the sinusoidal encoding of Vaswani et al." },
    [OP_POSENC_BOOK] = { OP_POSENC_BOOK, "posenc_book", "(n, d)", 2, 2, OPARGS_SIZES, ND, .make = k_posenc_book,
                         .explain = explain_posenc, .style = OPNAME_SIZED,
                         .doc = "notebook 003's variant, with the element index k in place of 2i" },
    [OP_COSINE] = { OP_COSINE, "cosine", "(a, b)", 2, 2, OPARGS_MATS, { 0 }, .binary = op_cosine,
                    .shape = shape_cosine, .explain = explain_cosine, .style = OPNAME_CALL,
                    .doc = "cosine similarity of two vectors with the same number of elements, 1 x 1" },
    [OP_WHERE] = { OP_WHERE, "where", "(C, A, B)", 3, 3, OPARGS_MATS, { 0 }, .parts = op_where,
                   .shape = shape_where, .explain = explain_where, .style = OPNAME_CALL,
                   .doc = "element-wise: A where C is not 0, else B (each broadcasts); no 0 x -inf" },
    [OPT_ZEROS] = { OP_INPUT, "zeros", "(r, c)", 2, 2, OPARGS_SIZES, RC, .make = k_zeros, .explain = explain_input,
                    .style = OPNAME_VALUE, .doc = "an r x c matrix of zeros" },
    [OPT_ONES] = { OP_INPUT, "ones", "(r, c)", 2, 2, OPARGS_SIZES, RC, .make = k_ones, .explain = explain_input,
                   .style = OPNAME_VALUE, .doc = "an r x c matrix of ones" },
    [OPT_EYE] = { OP_INPUT, "eye", "(n)", 1, 1, OPARGS_SIZES, N1, .make = k_eye, .explain = explain_input,
                  .style = OPNAME_VALUE, .doc = "the n x n identity" },
    [OPT_LOAD] = { OP_INPUT, "load", "(\"file\")", 1, 1, OPARGS_FILE, { 0 }, .read = k_load,
                   .explain = explain_input, .style = OPNAME_VALUE,
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
    *bad = -1;
    if (op->shape)
        return op->shape(op, args, n, rows, cols, bad, err);
    *rows = n > 0 ? args[0].rows : 0;
    *cols = n > 0 ? args[0].cols : 0;
    return 1;
}

/* Declared in mat.h: the operation's name from its row. */
const char *mat_op_name(MatOp op)
{
    const OpInfo *row = (int)op < OP_COUNT ? optable_op(op) : NULL;
    return row ? row->name : "unknown";
}
