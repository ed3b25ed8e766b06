/*
 * op_rules.c - each operation's shape rule (op_rules.h): the one place its
 * shape message is written, used by the kernels (ops.c, ops_shape.c) and,
 * through the operation table, by the lesson evaluator. A rule's message
 * names the operands by the text it is given: the lesson evaluator passes
 * the expressions as the author wrote them ("K^T", "W @ X"), ops.c the
 * matrices' names ("the left operand" when unnamed), so a refusal reads
 * the same from either. The rules are generated from mat.h's MAT_OPS, one
 * per operation (NULL: any shape, the result keeps its first operand's).
 */
#include "op_rules.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

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
static int shape_matmul(MatOp op, const OpShape *x, int n, int *rows, int *cols, int *bad, AttnError *err)
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

static int shape_transpose(MatOp op, const OpShape *x, int n, int *rows, int *cols, int *bad,
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
static int shape_broadcast(MatOp op, const OpShape *x, int n, int *rows, int *cols, int *bad,
                           AttnError *err)
{
    (void)n;
    const OpShape *full = broadcasts(&x[0], &x[1]) ? &x[0] : broadcasts(&x[1], &x[0]) ? &x[1] : NULL;
    if (!full) {
        const OpShape *big = (int64_t)x[0].rows * x[0].cols >= (int64_t)x[1].rows * x[1].cols ? &x[0] : &x[1];
        return shape_fail(bad, -1, err,
                          "`%s` cannot combine %s (%dx%d) with %s (%dx%d): the shapes must match, "
                          "or one side must be a number, a 1x%d row or a %dx1 column",
                          mat_op_name(op), x[0].text, x[0].rows, x[0].cols, x[1].text, x[1].rows, x[1].cols, big->cols,
                          big->rows);
    }
    *rows = full->rows;
    *cols = full->cols;
    return 1;
}

/* hcat / vcat: the parts agree on the kept axis; the other adds up
 * (clamped to INT_MAX: the kernel refuses more). */
static int shape_cat(MatOp op, const OpShape *x, int n, int *rows, int *cols, int *bad, AttnError *err)
{
    int horizontal = op == OP_HCAT;
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        if (horizontal ? x[i].rows != x[0].rows : x[i].cols != x[0].cols)
            return shape_fail(bad, i, err,
                              "%s needs the same number of %s in every part: %s is %dx%d, %s (part %d) is %dx%d",
                              mat_op_name(op), horizontal ? "rows" : "columns", x[0].text, x[0].rows, x[0].cols,
                              x[i].text, i + 1, x[i].rows, x[i].cols);
        total += horizontal ? x[i].cols : x[i].rows;
    }
    int t = total > INT_MAX ? INT_MAX : (int)total;
    *rows = horizontal ? x[0].rows : t;
    *cols = horizontal ? t : x[0].cols;
    return 1;
}

/* cosine(a, b): as many numbers in each, in any orientation; 1x1. */
static int shape_cosine(MatOp op, const OpShape *x, int n, int *rows, int *cols, int *bad, AttnError *err)
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
static int shape_where(MatOp op, const OpShape *x, int n, int *rows, int *cols, int *bad, AttnError *err)
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

/* rowmax, rowsum: R x 1; colmax, colsum: 1 x C. */
static int shape_reduce(MatOp op, const OpShape *x, int n, int *rows, int *cols, int *bad, AttnError *err)
{
    (void)n, (void)bad, (void)err;
    int by_rows = op == OP_ROWMAX || op == OP_ROWSUM;
    *rows = by_rows ? x[0].rows : 1;
    *cols = by_rows ? 1 : x[0].cols;
    return 1;
}

/* rope, rope_half: the columns pair up. */
static int shape_even_cols(MatOp op, const OpShape *x, int n, int *rows, int *cols, int *bad, AttnError *err)
{
    (void)n;
    if (x[0].cols % 2 != 0)
        return shape_fail(bad, 0, err, "%s turns pairs of columns: %s has %d, an odd number", mat_op_name(op),
                          x[0].text, x[0].cols);
    *rows = x[0].rows;
    *cols = x[0].cols;
    return 1;
}

/* ---- the rules by operation -------------------------------------------- */

typedef int (*OpRule)(MatOp op, const OpShape *args, int n, int *rows, int *cols, int *bad, AttnError *err);

#define RULE_INPUT NULL
#define RULE_RANDN NULL
#define RULE_COPY NULL
#define RULE_MATMUL shape_matmul
#define RULE_TRANSPOSE shape_transpose
#define RULE_ADD shape_broadcast
#define RULE_SUB shape_broadcast
#define RULE_MUL shape_broadcast
#define RULE_DIV shape_broadcast
#define RULE_NEG NULL
#define RULE_SOFTMAX_ROWS NULL
#define RULE_SOFTMAX_COLS NULL
#define RULE_LAYERNORM_ROWS NULL
#define RULE_RELU NULL
#define RULE_EXP NULL
#define RULE_LOG NULL
#define RULE_SQRT NULL
#define RULE_HCAT shape_cat
#define RULE_VCAT shape_cat
#define RULE_ROWS NULL
#define RULE_COLS NULL
#define RULE_ELEMENT NULL
#define RULE_CAUSAL_MASK NULL
#define RULE_POSENC NULL
#define RULE_POSENC_BOOK NULL
#define RULE_COSINE shape_cosine
#define RULE_WHERE shape_where
#define RULE_ROWMAX shape_reduce
#define RULE_ROWSUM shape_reduce
#define RULE_COLMAX shape_reduce
#define RULE_COLSUM shape_reduce
#define RULE_MAXIMUM shape_broadcast
#define RULE_ELU NULL
#define RULE_ROPE shape_even_cols
#define RULE_ROPE_HALF shape_even_cols
#define RULE_WINDOW_MASK NULL
#define RULE_ALIBI NULL
#define RULE_TOPK_MASK NULL
#define RULE_REPEAT_HEADS NULL

#define OP_RULE(id, spelling) [OP_##id] = RULE_##id,

static const OpRule rules[OP_COUNT] = { MAT_OPS(OP_RULE) };

int op_rule_check(MatOp op, const OpShape *args, int n, int *rows, int *cols, int *bad, AttnError *err)
{
    *bad = -1;
    if ((int)op >= 0 && op < OP_COUNT && rules[op])
        return rules[op](op, args, n, rows, cols, bad, err);
    *rows = n > 0 ? args[0].rows : 0;
    *cols = n > 0 ? args[0].cols : 0;
    return 1;
}

const char *op_rule_title(MatOp op, char *buf, size_t size)
{
    const char *s = mat_op_name(op);
    /* a function reads as its name; an operator in backquotes */
    int word = s[0] >= 'a' && s[0] <= 'z' && op != OP_NEG && op != OP_INPUT && op != OP_COPY && op != OP_ELEMENT;
    snprintf(buf, size, word ? "%s" : "`%s`", s);
    return buf;
}
