/*
 * op_rules.h - what shapes each operation takes (op_rules.c), and how a
 * message names it: asked by the kernels and by the operation table alike,
 * so neither needs the other for it.
 */
#ifndef ATTN_OP_RULES_H
#define ATTN_OP_RULES_H

#include <stddef.h>

#include "mat.h"

/* An operand as a shape rule sees it: the shape it enters the operation
 * with (a transposed operand of `@` already transposed) and how a message
 * names it ("K^T", "W @ X", "the left operand"). */
typedef struct {
    int rows, cols;
    const char *text;
} OpShape;

/* Check args[0..n) against op's rule: 1 when they fit, with the result's
 * shape in *rows, *cols; else 0 with ATTN_E_SHAPE and the message in err
 * (may be NULL) and in *bad the argument the message is about (-1: the
 * operation itself). An operation with no rule takes any shape, and its
 * result has args[0]'s. */
int op_rule_check(MatOp op, const OpShape *args, int n, int *rows, int *cols, int *bad, AttnError *err);

/* How messages name op: "`@`" for an operator, "softmax_rows" for a
 * function. Returns buf. */
const char *op_rule_title(MatOp op, char *buf, size_t size);

#endif
