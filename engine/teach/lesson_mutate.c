/*
 * lesson_mutate.c - the classic mistakes of attention as rewrites of one
 * node of one statement: the scale left out, doubled, inverted or taken as
 * d_k; softmax along the other axis, twice, in base 3, without its
 * division, or left out; the mask left out or added after the softmax; a
 * bias left out; an operand of a product transposed; the true e where the
 * lesson takes e as 3; and the slips of attention as models use it: the
 * key/value heads tiled where they repeat, the other RoPE pairing, the
 * sliding window one key off, the softmax gradient's rowsum term left out.
 *
 * lesson_mutations lists where each may apply (by the form of the
 * expression); lesson_eval_mutated evaluates the lesson with one of them,
 * through the evaluator's hook (EvalCtx.mut, and .rewrite, which is
 * mutation_eval) at the rewritten node. A rewrite that the values do not admit (a "scale"
 * that is not one number, a product whose shapes no longer fit) refuses,
 * and is simply not a candidate. The judge (lesson_diagnose.c) reads the
 * asked cell in the rewritten lesson (judge_mutated keeps the small ones
 * for the next answer); the lesson itself never changes.
 */
#include "alloc.h"
#include "teach_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ops.h"

#define KIND_INFO(kind, id, words, bug) [MUT_##kind] = { id, words, bug },
static const MutKindInfo kinds[MUT_COUNT] = { MUT_KINDS(KIND_INFO) };

const MutKindInfo *mutation_kind(MutKind k) { return k >= 0 && k < MUT_COUNT ? &kinds[k] : NULL; }

const char *mutation_id(MutKind k) { return k >= 0 && k < MUT_COUNT ? kinds[k].id : "?"; }

/* ---- where each may apply ---- */

static int is_call(const Expr *e, int fn) { return e && e->kind == E_CALL && e->fn == fn; }

int expr_is_softmax(const Expr *e) { return is_call(e, OP_SOFTMAX_ROWS) || is_call(e, OP_SOFTMAX_COLS); }

/* log(3): the notes' e taken as 3, written out */
static int is_log3(const Expr *e)
{
    return is_call(e, OP_LOG) && e->n_args == 1 && e->args[0]->kind == E_NUM && e->args[0]->num == 3;
}

typedef struct {
    const Lesson *l;
    Mutation *list;
    int n, cap, failed;
} MutList;

/* Is e a call of rowsum, or a name whose statement is one? */
static int is_rowsum(const MutList *ml, const Expr *e)
{
    if (e && e->kind == E_NAME) {
        int at = lesson_stmt_of_slot(ml->l, e->slot);
        e = at >= 0 ? ml->l->stmts[at].expr : NULL;
    }
    return is_call(e, OP_ROWSUM);
}

static void add(MutList *ml, MutKind kind, int stmt, const Expr *node, int side)
{
    if (ml->failed)
        return;
    if (ml->n == ml->cap) {
        int cap = ml->cap ? ml->cap * 2 : 32;
        Mutation *bigger = attn_realloc(ml->list, (size_t)cap * sizeof *bigger);
        if (!bigger) {
            ml->failed = 1;
            return;
        }
        ml->list = bigger;
        ml->cap = cap;
    }
    ml->list[ml->n++] = (Mutation){ kind, stmt, node, side };
}

static void walk(MutList *ml, int stmt, const Expr *e, const Expr *parent)
{
    if (!e)
        return;
    switch (e->kind) {
    case E_DIV:
        if (!is_log3(e->b)) {
            add(ml, MUT_UNSCALED, stmt, e, 0);
            add(ml, MUT_SCALE_INVERTED, stmt, e, 0);
            /* x / sqrt(d) scaled twice is x / d: one name for one number */
            add(ml, is_call(e->b, OP_SQRT) ? MUT_SCALE_BY_D : MUT_SCALED_TWICE, stmt, e, 0);
        }
        add(ml, MUT_NOT_NORMALIZED, stmt, e, 0);
        break;
    case E_MUL:
        if (!is_log3(e->a) && !is_log3(e->b)) {     /* that is e taken as 3: MUT_TRUE_E */
            add(ml, MUT_UNSCALED, stmt, e, 0);
            add(ml, MUT_SCALED_TWICE, stmt, e, 0);
            add(ml, MUT_SCALE_INVERTED, stmt, e, 0);
        }
        break;
    case E_ADD:
        add(ml, MUT_NO_MASK, stmt, e, 0);
        add(ml, MUT_NO_BIAS, stmt, e, 0);
        /* after the mask left out: where both give one number, that one */
        if (parent && expr_is_softmax(parent))
            add(ml, MUT_MASK_AFTER_SOFTMAX, stmt, parent, 0);
        break;
    case E_SUB:
        if (is_rowsum(ml, e->b))
            add(ml, MUT_NO_ROWSUM_TERM, stmt, e, 0);
        break;
    case E_MATMUL:
        add(ml, MUT_TRANSPOSED, stmt, e, 0);
        add(ml, MUT_TRANSPOSED, stmt, e, 1);
        break;
    case E_CALL:
        if (expr_is_softmax(e)) {
            add(ml, MUT_WRONG_AXIS, stmt, e, 0);
            add(ml, MUT_SOFTMAX_TWICE, stmt, e, 0);
            add(ml, MUT_E_AS_3, stmt, e, 0);
            add(ml, MUT_NOT_NORMALIZED, stmt, e, 0);
            if (e->args[0]->kind == E_NAME)     /* softmax(masked), masked = x + M */
                add(ml, MUT_MASK_AFTER_SOFTMAX, stmt, e, 0);
        } else if (is_log3(e)) {
            add(ml, MUT_TRUE_E, stmt, e, 0);
        } else if (is_call(e, OP_REPEAT_HEADS)) {
            add(ml, MUT_HEADS_TILED, stmt, e, 0);
        } else if (is_call(e, OP_ROPE) || is_call(e, OP_ROPE_HALF)) {
            add(ml, MUT_ROPE_PAIRING, stmt, e, 0);
            add(ml, MUT_ROPE_SIN_FOR_COS, stmt, e, 0);
            add(ml, MUT_ROPE_BACKWARDS, stmt, e, 0);
        } else if (is_call(e, OP_WINDOW_MASK)) {
            add(ml, MUT_WINDOW_OFF_BY_ONE, stmt, e, 0);
            add(ml, MUT_WINDOW_OFF_BY_ONE, stmt, e, 1);
        }
        break;
    default:
        break;
    }
    walk(ml, stmt, e->a, e);
    walk(ml, stmt, e->b, e);
    for (int i = 0; e->kind == E_CALL && i < e->n_args; i++)
        walk(ml, stmt, e->args[i], e);
    /* last: where the masked score (-inf) is also the mask after the
     * softmax, the mask is named */
    if (expr_is_softmax(e))
        add(ml, MUT_SCORE_NOT_WEIGHT, stmt, e, 0);
}

int lesson_mutations(const Lesson *l, Mutation **out, int *n)
{
    MutList ml = { .l = l };
    for (int i = 0; i < l->n_stmts; i++)
        if (l->stmts[i].kind == ST_LET)
            walk(&ml, i, l->stmts[i].expr, NULL);
    if (ml.failed) {
        free(ml.list);
        *out = NULL;
        *n = 0;
        return -1;
    }
    *out = ml.list;
    *n = ml.n;
    return 0;
}

/* ---- evaluated ---- */

static int scalar(const Mat *m) { return m && m->rows == 1 && m->cols == 1; }

static int holds_neg_inf(const Mat *m)
{
    for (int i = 0; i < m->rows; i++)
        for (int j = 0; j < m->cols; j++)
            if (mat_get(m, i, j) == -INFINITY)
                return 1;
    return 0;
}

/* b is added to every row (a row) or every column (a column) of a */
static int is_bias_of(const Mat *b, const Mat *a)
{
    return ((b->rows == 1 && a->rows > 1 && b->cols == a->cols) || (b->cols == 1 && a->cols > 1 && b->rows == a->rows))
           && !holds_neg_inf(b);
}

typedef attn_status (*Binary)(Mat **, const Mat *, const Mat *, AttnError *);
typedef attn_status (*Unary)(Mat **, const Mat *, AttnError *);

/* repeat_heads(K, dk, r) with the heads tiled: the blocks 1 2 .. h 1 2 .. h
 * where they should repeat in place (1 1 2 2 ..). NULL where the two are
 * the same (one head, or r = 1). */
static Mat *heads_tiled(EvalCtx *c, const Expr *e, AttnError *ae)
{
    Mat *k = NULL, *dk = NULL, *r = NULL, *out = NULL;
    if (e->n_args == 3 && (k = expr_eval(c, e->args[0])) && (dk = expr_eval(c, e->args[1]))
        && (r = expr_eval(c, e->args[2])) && scalar(dk) && scalar(r)) {
        int d = (int)mat_get(dk, 0, 0), times = (int)mat_get(r, 0, 0);
        int heads = d > 0 && k->cols % d == 0 ? k->cols / d : 0;
        if (heads > 1 && times > 1 && (long long)k->cols * times <= 1 << 24 && (out = mat_new(k->rows, k->cols * times, ae)))
            for (int i = 0; i < k->rows; i++)
                for (int j = 0; j < out->cols; j++)
                    mat_set(out, i, j, mat_get(k, i, (j / d) % heads * d + j % d));
    }
    mat_free(k);
    mat_free(dk);
    mat_free(r);
    return out;
}

/* ---- each kind's row: where it fits, its rewrite ---- */

/* Is e a node of the shape the kind's rewrite reads (its operands, its
 * call's arguments)? walk lists each kind only where it fits, but a judge
 * may also try a kind where another was listed (naming the mistake where
 * the bug is), and evaluating a division as a softmax's call read
 * arguments it has not got. */
static int fits_scale(const Expr *e) { return e->kind == E_DIV || e->kind == E_MUL; }
static int fits_sqrt_scale(const Expr *e) { return e->kind == E_DIV && is_call(e->b, OP_SQRT) && e->b->n_args == 1; }
static int fits_normalizing(const Expr *e) { return e->kind == E_DIV || expr_is_softmax(e); }
static int fits_softmax(const Expr *e) { return expr_is_softmax(e) && e->n_args == 1; }
static int fits_sum(const Expr *e) { return e->kind == E_ADD; }
static int fits_difference(const Expr *e) { return e->kind == E_SUB; }
static int fits_product(const Expr *e) { return e->kind == E_MATMUL; }
static int fits_log3(const Expr *e) { return is_log3(e); }
static int fits_repeat_heads(const Expr *e) { return is_call(e, OP_REPEAT_HEADS); }
static int fits_rope(const Expr *e) { return is_call(e, OP_ROPE) || is_call(e, OP_ROPE_HALF); }
static int fits_window(const Expr *e) { return is_call(e, OP_WINDOW_MASK); }

/* A rewrite: the value of node e (which fits) under m, a new reference,
 * or NULL (with ae's reason where there is one) when it does not apply. */
typedef Mat *(*Rewrite)(EvalCtx *c, const Expr *e, const Mutation *m, AttnError *ae);

static Unary softmax_of(const Expr *e) { return is_call(e, OP_SOFTMAX_COLS) ? op_softmax_cols : op_softmax_rows; }

/* x / c, x * c (c one number): left out, applied twice, or inverted */
static Mat *rewrite_scale(EvalCtx *c, const Expr *e, const Mutation *m, AttnError *ae)
{
    Mat *a = NULL, *b = NULL, *t = NULL, *out = NULL;
    if ((a = expr_eval(c, e->a)) && (b = expr_eval(c, e->b))) {
        Mat *val = a, *by = b;
        if (!scalar(b) && e->kind == E_MUL && scalar(a)) {
            val = b;
            by = a;
        }
        if (scalar(by) && !scalar(val)) {
            Binary same = e->kind == E_DIV ? op_div : op_mul, other = e->kind == E_DIV ? op_mul : op_div;
            if (m->kind == MUT_UNSCALED)
                out = mat_retain(val);
            else if (m->kind == MUT_SCALE_INVERTED)
                other(&out, val, by, ae);
            else if (same(&t, val, by, ae) == ATTN_OK)
                same(&out, t, by, ae);
        }
    }
    mat_free(a);
    mat_free(b);
    mat_free(t);
    return out;
}

static Mat *rewrite_scale_by_d(EvalCtx *c, const Expr *e, const Mutation *m, AttnError *ae)
{
    (void)m;
    Mat *a = NULL, *b = NULL, *out = NULL;
    if ((a = expr_eval(c, e->a)) && (b = expr_eval(c, e->b->args[0])) && scalar(b) && !scalar(a))
        op_div(&out, a, b, ae);
    mat_free(a);
    mat_free(b);
    return out;
}

static Mat *rewrite_wrong_axis(EvalCtx *c, const Expr *e, const Mutation *m, AttnError *ae)
{
    (void)m;
    /* along a line of one the other softmax is all ones: no mistake a
     * student makes, and it would name the score 1 "softmax down" */
    Mat *a = expr_eval(c, e->args[0]), *out = NULL;
    if (a && a->rows > 1 && a->cols > 1)
        (softmax_of(e) == op_softmax_rows ? op_softmax_cols : op_softmax_rows)(&out, a, ae);
    mat_free(a);
    return out;
}

static Mat *rewrite_softmax_twice(EvalCtx *c, const Expr *e, const Mutation *m, AttnError *ae)
{
    (void)m;
    Mat *a = expr_eval_node(c, e), *out = NULL;
    if (a)
        softmax_of(e)(&out, a, ae);
    mat_free(a);
    return out;
}

static Mat *rewrite_e_as_3(EvalCtx *c, const Expr *e, const Mutation *m, AttnError *ae)
{
    (void)m;
    float l3 = (float)log(3.0);
    Mat *a = NULL, *b = NULL, *t = NULL, *out = NULL;
    if ((a = expr_eval(c, e->args[0])) && (b = mat_from(1, 1, &l3, ae)) && op_mul(&t, a, b, ae) == ATTN_OK)
        softmax_of(e)(&out, t, ae);
    mat_free(a);
    mat_free(b);
    mat_free(t);
    return out;
}

/* softmax(x) -> exp(x); x / (its row or column sums) -> x */
static Mat *rewrite_not_normalized(EvalCtx *c, const Expr *e, const Mutation *m, AttnError *ae)
{
    (void)m;
    Mat *a = NULL, *b = NULL, *out = NULL;
    if (e->kind == E_CALL) {
        if ((a = expr_eval(c, e->args[0])))
            op_exp(&out, a, ae);
    } else if ((a = expr_eval(c, e->a)) && (b = expr_eval(c, e->b)) && !scalar(b) && is_bias_of(b, a)) {
        out = mat_retain(a);
    }
    mat_free(a);
    mat_free(b);
    return out;
}

static Mat *rewrite_score_not_weight(EvalCtx *c, const Expr *e, const Mutation *m, AttnError *ae)
{
    (void)m;
    (void)ae;
    return expr_eval(c, e->args[0]);
}

/* x + M -> x where M holds -inf (the mask); x + b -> x where b is a bias */
static Mat *rewrite_term_left_out(EvalCtx *c, const Expr *e, const Mutation *m, AttnError *ae)
{
    (void)ae;
    Mat *a = NULL, *b = NULL, *out = NULL;
    if ((a = expr_eval(c, e->a)) && (b = expr_eval(c, e->b))) {
        if (m->kind == MUT_NO_MASK)
            out = holds_neg_inf(b) ? mat_retain(a) : holds_neg_inf(a) ? mat_retain(b) : NULL;
        else
            out = is_bias_of(b, a) ? mat_retain(a) : is_bias_of(a, b) ? mat_retain(b) : NULL;
    }
    mat_free(a);
    mat_free(b);
    return out;
}

static Mat *rewrite_mask_after_softmax(EvalCtx *c, const Expr *e, const Mutation *m, AttnError *ae)
{
    (void)m;
    /* the sum inside the call, or the statement of the name it reads */
    const Expr *sum = e->args[0];
    if (sum->kind == E_NAME && c->lesson) {
        int at = lesson_stmt_of_slot(c->lesson, sum->slot);
        sum = at >= 0 ? c->lesson->stmts[at].expr : NULL;
    }
    Mat *a = NULL, *b = NULL, *t = NULL, *out = NULL;
    if (sum && sum->kind == E_ADD && (a = expr_eval(c, sum->a)) && (b = expr_eval(c, sum->b))) {
        Mat *x = holds_neg_inf(b) ? a : holds_neg_inf(a) ? b : NULL, *mask = x == a ? b : a;
        if (x && softmax_of(e)(&t, x, ae) == ATTN_OK)
            op_add(&out, t, mask, ae);
    }
    mat_free(a);
    mat_free(b);
    mat_free(t);
    return out;
}

/* the same product with one side flipped: A @ B -> A^T @ B */
static Mat *rewrite_transposed(EvalCtx *c, const Expr *e, const Mutation *m, AttnError *ae)
{
    (void)ae;
    Expr node = *e, flip;
    const Expr *side = m->side ? e->b : e->a;
    if (side->kind == E_TRANSPOSE) {
        side = side->a;
    } else {
        memset(&flip, 0, sizeof flip);
        flip.kind = E_TRANSPOSE;
        flip.pos = side->pos;
        flip.start = side->start;
        flip.end = side->end;
        flip.a = (Expr *)side;
        side = &flip;
    }
    if (m->side)
        node.b = (Expr *)side;
    else
        node.a = (Expr *)side;
    return expr_eval_node(c, &node);    /* NULL: the shapes refused it, c->err says so */
}

static Mat *rewrite_true_e(EvalCtx *c, const Expr *e, const Mutation *m, AttnError *ae)
{
    (void)c;
    (void)e;
    (void)m;
    float one = 1;
    return mat_from(1, 1, &one, ae);
}

static Mat *rewrite_heads_tiled(EvalCtx *c, const Expr *e, const Mutation *m, AttnError *ae)
{
    (void)m;
    return heads_tiled(c, e, ae);
}

static Mat *rewrite_rope_pairing(EvalCtx *c, const Expr *e, const Mutation *m, AttnError *ae)
{
    (void)m;
    (void)ae;
    Expr node = *e;
    node.fn = e->fn == OP_ROPE ? OP_ROPE_HALF : OP_ROPE;
    return expr_eval_node(c, &node);
}

/* rope's rotation with sin and cos swapped, or turned the other way */
static Mat *rewrite_rope_slipped(EvalCtx *c, const Expr *e, const Mutation *m, AttnError *ae)
{
    double p[2];
    int n = 0;
    Mat *a = expr_eval(c, e->args[0]), *out = NULL;
    int ok = a != NULL;
    for (int i = 1; ok && i < e->n_args && n < 2; i++) {
        Mat *v = expr_eval(c, e->args[i]);
        ok = v && scalar(v);
        if (ok)
            p[n++] = mat_get(v, 0, 0);
        mat_free(v);
    }
    if (ok)
        op_rope_slipped(&out, a, p, n, e->fn == OP_ROPE_HALF,
                        m->kind == MUT_ROPE_SIN_FOR_COS ? ROPE_SIN_FOR_COS : ROPE_BACKWARDS, ae);
    mat_free(a);
    return out;
}

static Mat *rewrite_window(EvalCtx *c, const Expr *e, const Mutation *m, AttnError *ae)
{
    double p[2];
    Mat *a = NULL, *b = NULL, *out = NULL;
    if (e->n_args == 2 && (a = expr_eval(c, e->args[0])) && (b = expr_eval(c, e->args[1])) && scalar(a)
        && scalar(b)) {
        p[0] = mat_get(a, 0, 0);
        p[1] = mat_get(b, 0, 0) + (m->side ? -1 : 1);
        if (p[1] >= 1 && p[1] <= p[0])      /* a window of 0 keys, or past n: no window a student means */
            op_window_mask(&out, NULL, p, 2, ae);
    }
    mat_free(a);
    mat_free(b);
    return out;
}

static Mat *rewrite_first_term(EvalCtx *c, const Expr *e, const Mutation *m, AttnError *ae)
{
    (void)m;
    (void)ae;
    return expr_eval(c, e->a);
}

typedef struct {
    int (*fits)(const Expr *e);
    Rewrite rewrite;
} MutateRow;

#define ROW_UNSCALED { fits_scale, rewrite_scale }
#define ROW_SCALED_TWICE { fits_scale, rewrite_scale }
#define ROW_SCALE_INVERTED { fits_scale, rewrite_scale }
#define ROW_SCALE_BY_D { fits_sqrt_scale, rewrite_scale_by_d }
#define ROW_WRONG_AXIS { fits_softmax, rewrite_wrong_axis }
#define ROW_SOFTMAX_TWICE { fits_softmax, rewrite_softmax_twice }
#define ROW_NO_MASK { fits_sum, rewrite_term_left_out }
#define ROW_MASK_AFTER_SOFTMAX { fits_softmax, rewrite_mask_after_softmax }
#define ROW_NO_BIAS { fits_sum, rewrite_term_left_out }
#define ROW_TRANSPOSED { fits_product, rewrite_transposed }
#define ROW_E_AS_3 { fits_softmax, rewrite_e_as_3 }
#define ROW_TRUE_E { fits_log3, rewrite_true_e }
#define ROW_NOT_NORMALIZED { fits_normalizing, rewrite_not_normalized }
#define ROW_SCORE_NOT_WEIGHT { fits_softmax, rewrite_score_not_weight }
#define ROW_HEADS_TILED { fits_repeat_heads, rewrite_heads_tiled }
#define ROW_ROPE_PAIRING { fits_rope, rewrite_rope_pairing }
#define ROW_WINDOW_OFF_BY_ONE { fits_window, rewrite_window }
#define ROW_NO_ROWSUM_TERM { fits_difference, rewrite_first_term }
#define ROW_ROPE_SIN_FOR_COS { fits_rope, rewrite_rope_slipped }
#define ROW_ROPE_BACKWARDS { fits_rope, rewrite_rope_slipped }

#define MUTATE_ROW(kind, id, words, bug) [MUT_##kind] = ROW_##kind,
static const MutateRow rows[MUT_COUNT] = { MUT_KINDS(MUTATE_ROW) };

/* The rewrite's value at node e, or NULL with err when it does not apply. */
static Mat *rewrite(EvalCtx *c, const Expr *e, const Mutation *m, AttnError *ae)
{
    if (m->kind < 0 || m->kind >= MUT_COUNT || !rows[m->kind].fits(e))
        return NULL;
    return rows[m->kind].rewrite(c, e, m, ae);
}

Mat *mutation_eval(EvalCtx *c, const Expr *e)
{
    AttnError ae = { 0 };
    Mat *out = rewrite(c, e, c->mut, &ae);
    if (!out && c->err->code == ATTN_OK)
        src_error(c->src, c->err, ATTN_E_ARG, e->pos, "%s does not apply here%s%s", mutation_id(c->mut->kind),
                  ae.msg[0] ? ": " : "", ae.msg);
    return out;
}

/* Does e draw from the generator? */
static int draws(const Expr *e)
{
    if (!e)
        return 0;
    if (is_call(e, OP_RANDN))
        return 1;
    if (draws(e->a) || draws(e->b))
        return 1;
    for (int i = 0; e->kind == E_CALL && i < e->n_args; i++)
        if (draws(e->args[i]))
            return 1;
    return 0;
}

LessonState *lesson_eval_mutated(const Lesson *l, const LessonState *asked, const Mutation *m, int last,
                                 LessonError *err)
{
    int first = m->stmt;
    int end = last < 0 || last >= l->n_stmts ? l->n_stmts - 1 : last;
    for (int i = m->stmt; i <= end && first > 0; i++)
        if (l->stmts[i].kind == ST_SEED || draws(l->stmts[i].expr))
            first = 0;      /* the generator's state there is not kept: from the top */
    return lesson_eval_range(l, asked, first, last, m->node, m, mutation_eval, err);
}

/* ---- the judge's lessons with a mistake, kept while small ---- */

const LessonState *judge_mutated(LessonJudge *j, int i, int last)
{
    if (i < 0 || i >= j->n_muts)
        return NULL;
    if (j->upto[i] < last) {
        LessonError err;
        lesson_state_free(j->states[i]);
        j->states[i] = lesson_eval_mutated(j->l, j->asked, &j->muts[i], last, &err);
        j->upto[i] = last;
    }
    return j->states[i];
}

/* What a state holds, in numbers. */
static long long state_elements(const LessonState *s)
{
    long long n = 0;
    for (int i = 0; i < lesson_state_count(s); i++) {
        const Mat *m = lesson_state_at(s, i);
        n += m ? (long long)m->rows * m->cols : 0;
    }
    return n;
}

/* The largest mutated state a judge keeps between answers (numbers). */
#define JUDGE_KEEP_ELEMENTS (1 << 16)

void judge_release(LessonJudge *j, int i)
{
    if (i < 0 || i >= j->n_muts || !j->states[i] || state_elements(j->states[i]) <= JUDGE_KEEP_ELEMENTS)
        return;
    lesson_state_free(j->states[i]);
    j->states[i] = NULL;
    j->upto[i] = -2;
}
