/*
 * explain_builder.h - how an explanation is written (explain_builder.c):
 * the builder the explainers (explain_ops.c) fill, its operand cells, its
 * text growing in a StrBuf with numbers at the builder's decimals, and the
 * layout of sums (the middle of a long one elided). Private to explain/.
 */
#ifndef ATTN_EXPLAIN_BUILDER_H
#define ATTN_EXPLAIN_BUILDER_H

#include <stddef.h>

#include "explain.h"
#include "strbuf.h"

/* Sums over more terms than this show the first EXPLAIN_HEAD and the last
 * EXPLAIN_TAIL terms around "...". */
#define EXPLAIN_MAX_TERMS 8
#define EXPLAIN_HEAD 4
#define EXPLAIN_TAIL 2



typedef struct ExplainBuilder {
    Explanation *ex;
    int cap;
    int failed;
    StrBuf text;
    int decimals;       /* of the numbers in the text */
} Builder;

const char *eb_fmt_num(char *buf, size_t size, double v, int decimals);
void eb_put_num(Builder *b, double v);
void eb_put_term(Builder *b, double v);
void eb_add_cell(Builder *b, const Mat *m, int r, int c);
const char *eb_operand_name(const Mat *m, int r, int c, char *buf, size_t size);
void eb_target_head(Builder *b);
void eb_result_line(Builder *b);
int eb_term_shown(int k, int n);
int eb_term_elided_here(int k, int n);
void eb_text_pairs(Builder *b, int first, int n_pairs);
void eb_input_text(Builder *b, const Mat *m);

#endif
