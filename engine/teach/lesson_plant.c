/*
 * lesson_plant.c - find the bug's rows of the classic mistakes (MUT_KINDS):
 * where each may be planted (a kind someone writes in code, a scale's
 * mistakes where a scale is) and the statement as planted, its node
 * rewritten as source text beside the statement as written.
 */
#include "teach_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ops.h"
#include "strbuf.h"

/* ---- the statement as planted ---- */

static void put_span(StrBuf *b, const Lesson *l, const Expr *e)
{
    strbuf_put(b, l->src.text + e->start, e->end - e->start);
}

/* Is e one number in the lesson as written? */
static int is_scalar(const Lesson *l, const LessonState *s, const Expr *e)
{
    LessonError err;
    Mat *m = lesson_state_eval(s, &l->src, e, &err);
    int one = m && m->rows == 1 && m->cols == 1;
    mat_free(m);
    return one;
}

/* Does e hold -inf (a mask) in the lesson as written? */
static int holds_mask(const Lesson *l, const LessonState *s, const Expr *e)
{
    LessonError err;
    Mat *m = lesson_state_eval(s, &l->src, e, &err);
    int mask = 0;
    for (int i = 0; m && i < m->rows && !mask; i++)
        for (int j = 0; j < m->cols && !mask; j++)
            mask = mat_get(m, i, j) == -INFINITY;
    mat_free(m);
    return mask;
}

/* Is e a scale as a person writes one: numbers, knobs, and names made of
 * those only (sqrt(2), 1 / T, sqrt(d_k) with d_k = 4), within depth? A
 * running max or a row's sum (alpha * o1, o2 / l2 of lesson 10) is not:
 * nobody inverts or doubles those by the slip a scale invites. */
static int is_a_scale(const Lesson *l, const Expr *e, int depth)
{
    if (!e)
        return 1;
    if (depth > 64)
        return 0;
    switch (e->kind) {
    case E_NUM:
        return 1;
    case E_NAME: {
        if (lesson_knob_find(l, l->names[e->slot]) >= 0)
            return 1;
        int d = lesson_stmt_of_slot(l, e->slot);
        return d >= 0 && is_a_scale(l, l->stmts[d].expr, depth + 1);
    }
    case E_CALL:
        if (e->fn != OP_SQRT && e->fn != OP_EXP && e->fn != OP_LOG)
            return 0;
        for (int i = 0; i < e->n_args; i++)
            if (!is_a_scale(l, e->args[i], depth + 1))
                return 0;
        return 1;
    case E_ADD: case E_SUB: case E_MUL: case E_DIV: case E_NEG:
        return is_a_scale(l, e->a, depth + 1) && is_a_scale(l, e->b, depth + 1);
    default:
        return 0;
    }
}

/* ---- each kind's row: where it may be planted, the statement as planted ---- */

/* A scale's mistakes go where a scale is: the one-number side of the
 * product or the divisor is a scale, not a computed value; and a literal
 * scaled is a coefficient written out (b * [0 1]), not a scale applied to
 * something computed. */
static int plant_on_a_scale(const Lesson *l, const LessonState *s, const Mutation *m)
{
    const Expr *e = m->node;
    if (e->kind == E_DIV)
        return e->a->kind != E_MATRIX && is_a_scale(l, e->b, 0);
    return (is_scalar(l, s, e->a) && is_a_scale(l, e->a, 0) && e->b->kind != E_MATRIX)
        || (is_scalar(l, s, e->b) && is_a_scale(l, e->b, 0) && e->a->kind != E_MATRIX);
}

static int plant_on_sqrt_scale(const Lesson *l, const LessonState *s, const Mutation *m)
{
    (void)s;
    return m->node->a->kind != E_MATRIX && is_a_scale(l, m->node->b, 0);
}

/* The rewritten node m->node as source text, into b. */
typedef void (*PlantedText)(StrBuf *b, const Lesson *l, const LessonState *s, const Mutation *m);

/* the node as written: an answer's mistake, never planted */
static void text_as_written(StrBuf *b, const Lesson *l, const LessonState *s, const Mutation *m)
{
    (void)s;
    put_span(b, l, m->node);
}

/* the side that is not the one number */
static void text_unscaled(StrBuf *b, const Lesson *l, const LessonState *s, const Mutation *m)
{
    const Expr *e = m->node;
    put_span(b, l, e->kind == E_MUL && is_scalar(l, s, e->a) && !is_scalar(l, s, e->b) ? e->b : e->a);
}

static void text_scaled_twice(StrBuf *b, const Lesson *l, const LessonState *s, const Mutation *m)
{
    const Expr *e = m->node;
    strbuf_add(b, "(");
    put_span(b, l, e);
    strbuf_add(b, ")%s", e->kind == E_DIV ? " / " : " * ");
    put_span(b, l, e->kind == E_MUL && is_scalar(l, s, e->a) && !is_scalar(l, s, e->b) ? e->a : e->b);
}

/* c * x inverted is x / c: the scale divides, the value is divided */
static void text_scale_inverted(StrBuf *b, const Lesson *l, const LessonState *s, const Mutation *m)
{
    const Expr *e = m->node;
    if (e->kind == E_MUL && is_scalar(l, s, e->a) && !is_scalar(l, s, e->b)) {
        put_span(b, l, e->b);
        strbuf_add(b, " / ");
        put_span(b, l, e->a);
    } else {
        put_span(b, l, e->a);
        strbuf_add(b, "%s", e->kind == E_DIV ? " * " : " / ");
        put_span(b, l, e->b);
    }
}

static void text_scale_by_d(StrBuf *b, const Lesson *l, const LessonState *s, const Mutation *m)
{
    (void)s;
    put_span(b, l, m->node->a);
    strbuf_add(b, " / ");
    put_span(b, l, m->node->b->args[0]);
}

static void text_wrong_axis(StrBuf *b, const Lesson *l, const LessonState *s, const Mutation *m)
{
    (void)s;
    strbuf_add(b, "%s(", m->node->fn == OP_SOFTMAX_ROWS ? "softmax_cols" : "softmax_rows");
    put_span(b, l, m->node->args[0]);
    strbuf_add(b, ")");
}

static void text_softmax_twice(StrBuf *b, const Lesson *l, const LessonState *s, const Mutation *m)
{
    (void)s;
    strbuf_add(b, "%s(", m->node->fn == OP_SOFTMAX_COLS ? "softmax_cols" : "softmax_rows");
    put_span(b, l, m->node);
    strbuf_add(b, ")");
}

static void text_no_mask(StrBuf *b, const Lesson *l, const LessonState *s, const Mutation *m)
{
    put_span(b, l, holds_mask(l, s, m->node->b) ? m->node->a : m->node->b);
}

/* the side that is a row or a column for every line is the bias */
static void text_no_bias(StrBuf *b, const Lesson *l, const LessonState *s, const Mutation *m)
{
    LessonError err;
    Mat *mb = lesson_state_eval(s, &l->src, m->node->b, &err);
    int b_is_bias = mb && (mb->rows == 1 || mb->cols == 1);
    mat_free(mb);
    put_span(b, l, b_is_bias ? m->node->a : m->node->b);
}

static void text_mask_after_softmax(StrBuf *b, const Lesson *l, const LessonState *s, const Mutation *m)
{
    const Expr *e = m->node, *sum = e->args[0];
    if (sum->kind == E_NAME) {
        int at = lesson_stmt_of_slot(l, sum->slot);
        sum = at >= 0 ? l->stmts[at].expr : sum;
    }
    const Expr *x = sum->kind == E_ADD && holds_mask(l, s, sum->b) ? sum->a : sum->kind == E_ADD ? sum->b : sum;
    const Expr *mask = sum->kind == E_ADD ? (x == sum->a ? sum->b : sum->a) : NULL;
    strbuf_add(b, "%s(", e->fn == OP_SOFTMAX_COLS ? "softmax_cols" : "softmax_rows");
    put_span(b, l, x);
    strbuf_add(b, ")");
    if (mask) {
        strbuf_add(b, " + ");
        put_span(b, l, mask);
    }
}

/* one operand with ^T, or without it where it had one */
static void put_flipped(StrBuf *b, const Lesson *l, const Expr *side)
{
    put_span(b, l, side->kind == E_TRANSPOSE ? side->a : side);
    strbuf_add(b, side->kind == E_TRANSPOSE ? "" : "^T");
}

static void text_transposed(StrBuf *b, const Lesson *l, const LessonState *s, const Mutation *m)
{
    (void)s;
    const Expr *e = m->node;
    if (!m->side)
        put_flipped(b, l, e->a);
    else
        put_span(b, l, e->a);
    strbuf_add(b, " @ ");
    if (m->side)
        put_flipped(b, l, e->b);
    else
        put_span(b, l, e->b);
}

static void text_not_normalized(StrBuf *b, const Lesson *l, const LessonState *s, const Mutation *m)
{
    (void)s;
    if (m->node->kind == E_CALL) {
        strbuf_add(b, "exp(");
        put_span(b, l, m->node->args[0]);
        strbuf_add(b, ")");
    } else {
        put_span(b, l, m->node->a);
    }
}

/* the heads one after the other, r times: what tiling does */
static void text_heads_tiled(StrBuf *b, const Lesson *l, const LessonState *s, const Mutation *m)
{
    LessonError err;
    Mat *r = lesson_state_eval(s, &l->src, m->node->args[2], &err);
    int times = r && r->rows == 1 && r->cols == 1 ? (int)mat_get(r, 0, 0) : 2;
    mat_free(r);
    strbuf_add(b, "hcat(");
    for (int i = 0; i < times && i < 16; i++) {
        if (i)
            strbuf_add(b, ", ");
        put_span(b, l, m->node->args[0]);
    }
    strbuf_add(b, ")");
}

static void text_rope_pairing(StrBuf *b, const Lesson *l, const LessonState *s, const Mutation *m)
{
    (void)s;
    strbuf_add(b, "%s(", m->node->fn == OP_ROPE ? "rope_half" : "rope");
    for (int i = 0; i < m->node->n_args; i++) {
        if (i)
            strbuf_add(b, ", ");
        put_span(b, l, m->node->args[i]);
    }
    strbuf_add(b, ")");
}

static void text_window(StrBuf *b, const Lesson *l, const LessonState *s, const Mutation *m)
{
    (void)s;
    strbuf_add(b, "window_mask(");
    put_span(b, l, m->node->args[0]);
    strbuf_add(b, ", ");
    put_span(b, l, m->node->args[1]);
    strbuf_add(b, m->side ? " - 1)" : " + 1)");
}

static void text_first_term(StrBuf *b, const Lesson *l, const LessonState *s, const Mutation *m)
{
    (void)s;
    put_span(b, l, m->node->a);
}

typedef struct {
    /* where a bug of the kind may go beyond where it applies (NULL: there) */
    int (*may_plant)(const Lesson *l, const LessonState *s, const Mutation *m);
    PlantedText text;
} PlantRow;

#define PLANT_UNSCALED { plant_on_a_scale, text_unscaled }
#define PLANT_SCALED_TWICE { plant_on_a_scale, text_scaled_twice }
#define PLANT_SCALE_INVERTED { plant_on_a_scale, text_scale_inverted }
#define PLANT_SCALE_BY_D { plant_on_sqrt_scale, text_scale_by_d }
#define PLANT_WRONG_AXIS { NULL, text_wrong_axis }
#define PLANT_SOFTMAX_TWICE { NULL, text_softmax_twice }
#define PLANT_NO_MASK { NULL, text_no_mask }
#define PLANT_MASK_AFTER_SOFTMAX { NULL, text_mask_after_softmax }
#define PLANT_NO_BIAS { NULL, text_no_bias }
#define PLANT_TRANSPOSED { NULL, text_transposed }
#define PLANT_E_AS_3 { NULL, text_as_written }
#define PLANT_TRUE_E { NULL, text_as_written }
#define PLANT_NOT_NORMALIZED { NULL, text_not_normalized }
#define PLANT_SCORE_NOT_WEIGHT { NULL, text_as_written }
#define PLANT_HEADS_TILED { NULL, text_heads_tiled }
#define PLANT_ROPE_PAIRING { NULL, text_rope_pairing }
#define PLANT_WINDOW_OFF_BY_ONE { NULL, text_window }
#define PLANT_NO_ROWSUM_TERM { NULL, text_first_term }
#define PLANT_ROPE_SIN_FOR_COS { NULL, text_as_written }
#define PLANT_ROPE_BACKWARDS { NULL, text_as_written }

#define PLANT_ROW(kind, id, words, bug) [MUT_##kind] = PLANT_##kind,
static const PlantRow plant_rows[MUT_COUNT] = { MUT_KINDS(PLANT_ROW) };

/* May mutation m be planted as a bug: its kind is one someone writes in
 * code (MUT_KINDS's bug column), where its row allows? */
int bug_plantable(const Lesson *l, const LessonState *s, const Mutation *m)
{
    if (m->kind < 0 || m->kind >= MUT_COUNT || mutation_kind(m->kind)->bug == 0)
        return 0;
    return !plant_rows[m->kind].may_plant || plant_rows[m->kind].may_plant(l, s, m);
}

static void rewritten(StrBuf *b, const Lesson *l, const LessonState *s, const Mutation *m)
{
    if (m->kind < 0 || m->kind >= MUT_COUNT)
        put_span(b, l, m->node);
    else
        plant_rows[m->kind].text(b, l, s, m);
}

/* "NAME = EXPRESSION" of statement i, the node of m rewritten (m NULL: as
 * written), into out. */
void bug_statement_text(const Lesson *l, const LessonState *s, int i, const Mutation *m, char *out, size_t size)
{
    const Expr *whole = l->stmts[i].expr;
    StrBuf b = { 0 };
    strbuf_add(&b, "%s = ", l->names[l->stmts[i].slot]);
    if (!m || m->node->start < whole->start || m->node->end > whole->end) {
        put_span(&b, l, whole);
    } else {
        strbuf_add(&b, "%.*s", (int)(m->node->start - whole->start), l->src.text + whole->start);
        rewritten(&b, l, s, m);
        strbuf_add(&b, "%.*s", (int)(whole->end - m->node->end), l->src.text + m->node->end);
    }
    char *text = strbuf_take(&b);
    snprintf(out, size, "%s", text ? text : "(out of memory)");
    free(text);
}
