/*
 * explain_table.c - which explainer (explain.c) and which step back
 * (explain_name.c) each operation has: one row per MatOp, generated from
 * mat.h's MAT_OPS, so an operation without one does not compile. The
 * operation table (ops/optable.c) knows nothing of explanations; this table
 * reads nothing of it.
 */
#include "explain_internal.h"

#define ROW_INPUT { explain_input, NULL }
#define ROW_RANDN { explain_input, NULL }
#define ROW_COPY { explain_gather, explain_back_copy }
#define ROW_MATMUL { explain_product, NULL }
#define ROW_TRANSPOSE { explain_gather, explain_back_transpose }
#define ROW_ADD { explain_binary, NULL }
#define ROW_SUB { explain_binary, NULL }
#define ROW_MUL { explain_binary, NULL }
#define ROW_DIV { explain_binary, NULL }
#define ROW_NEG { explain_unary, NULL }
#define ROW_SOFTMAX_ROWS { explain_softmax, NULL }
#define ROW_SOFTMAX_COLS { explain_softmax, NULL }
#define ROW_LAYERNORM_ROWS { explain_layernorm, NULL }
#define ROW_RELU { explain_unary, NULL }
#define ROW_EXP { explain_unary, NULL }
#define ROW_LOG { explain_unary, NULL }
#define ROW_SQRT { explain_unary, NULL }
#define ROW_HCAT { explain_gather, explain_back_cat }
#define ROW_VCAT { explain_gather, explain_back_cat }
#define ROW_ROWS { explain_gather, explain_back_view }
#define ROW_COLS { explain_gather, explain_back_view }
#define ROW_ELEMENT { explain_gather, explain_back_element }
#define ROW_CAUSAL_MASK { explain_mask, NULL }
#define ROW_POSENC { explain_posenc, NULL }
#define ROW_POSENC_BOOK { explain_posenc, NULL }
#define ROW_COSINE { explain_cosine, NULL }
#define ROW_WHERE { explain_where, NULL }
#define ROW_ROWMAX { explain_reduce, NULL }
#define ROW_ROWSUM { explain_reduce, NULL }
#define ROW_COLMAX { explain_reduce, NULL }
#define ROW_COLSUM { explain_reduce, NULL }
#define ROW_MAXIMUM { explain_call2, NULL }
#define ROW_ELU { explain_unary, NULL }
#define ROW_ROPE { explain_rope, NULL }
#define ROW_ROPE_HALF { explain_rope, NULL }
#define ROW_WINDOW_MASK { explain_positions, NULL }
#define ROW_ALIBI { explain_positions, NULL }
#define ROW_TOPK_MASK { explain_topk, NULL }
#define ROW_REPEAT_HEADS { explain_gather, explain_back_repeat }

#define EXPLAIN_ROW(id, spelling) [OP_##id] = ROW_##id,

static const ExplainRow rows[OP_COUNT] = { MAT_OPS(EXPLAIN_ROW) };

const ExplainRow *explain_row(MatOp op)
{
    return (int)op >= 0 && op < OP_COUNT ? &rows[op] : NULL;
}
