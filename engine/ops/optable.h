/*
 * optable.h - the one table of operations: for every operation a matrix can
 * record as its provenance (MatOp) and every function of the lesson
 * language, one row with its name, its arity, its kernel in ops.c (its
 * shape rule is op_rules.c's, asked through optable_check_shape by the
 * lesson evaluator), whether it only moves numbers, how
 * explain_name.c spells it, and its one-line documentation. How a cell of
 * it is explained is explain/'s own table (explain_table.c), so this room
 * and that one do not include each other.
 *
 * Rows 0..OP_COUNT-1 are the MatOp values, generated from mat.h's MAT_OPS;
 * the functions that record another operation's provenance (zeros, ones,
 * eye and load make inputs) follow. Adding a function to the lesson language is one row in optable.c
 * plus its kernel (and a MatOp when it records one of its own).
 */
#ifndef ATTN_OPTABLE_H
#define ATTN_OPTABLE_H

#include <stddef.h>

#include "mat.h"
#include "op_rules.h"
#include "rng.h"

/* The rows after the MatOp values: functions that record OP_INPUT. */
enum { OPT_ZEROS = OP_COUNT, OPT_ONES, OPT_EYE, OPT_LOAD, OPT_COUNT };

/* How the evaluator gets a call's arguments. */
typedef enum {
    OPARGS_NONE,    /* not evaluated from the table (input, copy, element) */
    OPARGS_MATS,    /* each argument a matrix                              */
    OPARGS_SIZES,   /* whole numbers >= 1, named by size_what              */
    OPARGS_RANGE,   /* a matrix, a first and an optional last index        */
    OPARGS_FILE,    /* a file name, a string literal; the caller hands over
                       the file's bytes                                    */
    OPARGS_PARAMS   /* by param_kinds: a matrix first ('M'), then numbers:
                       'n' whole >= 1, 'i' whole >= 0, 'r' any finite one,
                       named by size_what                                  */
} OpArgs;

/* Which labels a file's reader may keep (1) or must refuse (0). */
typedef int (*OpLabelCheck)(const char *label);

/* How explain_name.c writes a matrix made by the operation. */
typedef enum {
    OPNAME_VALUE,   /* a given value: the number, or [RxC]                 */
    OPNAME_SIZED,   /* name(sizes): randn(2, 3), causal_mask(3)            */
    OPNAME_SAME,    /* its operand (a copy)                                */
    OPNAME_INFIX,   /* a op b                                              */
    OPNAME_PREFIX,  /* -a                                                  */
    OPNAME_POSTFIX, /* a^T                                                 */
    OPNAME_CALL,    /* name(a), name(a, b), name(p1, p2, ...)              */
    OPNAME_RANGE,   /* name(a, first, last)                                */
    OPNAME_INDEX,   /* a[i,j]                                              */
    OPNAME_PARAMS   /* name(a, p1, p2) or name(p1, p2), from the provenance */
} OpNameStyle;

typedef struct OpInfo {
    MatOp prov;             /* the provenance its result records           */
    const char *name;       /* as a lesson writes it: "softmax_rows", "@"  */
    const char *params;     /* a function's parameters for messages, "(S)";
                               NULL for an operator or an internal step     */
    int min_args, max_args; /* max_args -1: any number                     */
    OpArgs args;
    const char *size_what[2]; /* OPARGS_SIZES: each size in messages (the
                               second NULL: one size n, n x n); OPARGS_RANGE:
                               the axis word in [0]; OPARGS_PARAMS: each
                               number after the matrix                      */
    /* The kernel in ops.c, one of these by the kind of arguments. */
    attn_status (*unary)(Mat **out, const Mat *a, AttnError *err);
    attn_status (*binary)(Mat **out, const Mat *a, const Mat *b, AttnError *err);
    attn_status (*matmul)(Mat **out, const Mat *a, int trans_a, const Mat *b, int trans_b, AttnError *err);
    attn_status (*parts)(Mat **out, Mat *const *parts, int n, AttnError *err);
    attn_status (*range)(Mat **out, const Mat *a, int lo, int hi, AttnError *err);
    attn_status (*make)(Mat **out, int r, int c, Rng *rng, AttnError *err);
    /* OPARGS_PARAMS: a (NULL when param_kinds has no 'M') and the numbers
     * p[0..n) after it, as the call gave them (fewer when optional). */
    attn_status (*with)(Mat **out, const Mat *a, const double *p, int n, AttnError *err);
    const char *param_kinds;
    /* OPARGS_FILE: the matrix in bytes[0..len) of the file named path (its
     * extension says the format), at most max_elems elements. */
    attn_status (*read)(Mat **out, const char *path, const char *bytes, size_t len, long max_elems,
                        OpLabelCheck label_ok, AttnError *err);
    int makes_inf;          /* gives infinities by design (a mask): exempt
                               from the evaluator's check of its results    */
    int moves;              /* only moves numbers (a copy, a view, a
                               concatenation): a cell of its result is a
                               cell of an operand                           */
    OpNameStyle style;
    const char *doc;        /* one line, as lessons/README.md says it      */
} OpInfo;

/* Row id (0..OPT_COUNT-1), or NULL outside. optable_op(m->prov.op) is the
 * row of the operation that made m. */
const OpInfo *optable_at(int id);
static inline const OpInfo *optable_op(MatOp op) { return optable_at((int)op); }

/* The id of the lesson-language function called name[0..len), or -1. */
int optable_fn_lookup(const char *name, size_t len);

/* 1 when row id is a function of the lesson language (called name(...)). */
int optable_is_fn(int id);

/* How messages name the operation: "`@`" for an operator, "hcat" for a
 * function. Returns buf. */
const char *optable_title(const OpInfo *op, char *buf, size_t size);

/* Check args[0..n) against op's shape rule (none: always fits, the result
 * has args[0]'s shape): op_rule_check of its MatOp. */
int optable_check_shape(const OpInfo *op, const OpShape *args, int n, int *rows, int *cols, int *bad,
                        AttnError *err);

#endif
