/*
 * lesson_diagnose.c - the rewrites of one exercise's arithmetic that
 * students make, each a candidate with its diagnosis id: the author's
 * `mistake` lines; each classic mistake (lesson_mutate.c) in a statement
 * the answer depends on, with the asked cell read from the lesson so
 * rewritten; the cell's transpose and its neighbours; the value one stage
 * later (the weight for the score, the scale applied too early); the sign.
 *
 * Which candidate, if any, names a wrong answer is the judge's call
 * (lesson_judge.c): this file only proposes. The messages never give the
 * right value away; they quote the lesson's own statements.
 */
#include "alloc.h"
#include "teach_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int diagnose_add(Candidates *cs, const char *id, double value, const char *fmt, ...)
{
    if (!isfinite(value) && !isinf(value))
        return 0;
    if (cs->n == cs->cap) {
        int cap = cs->cap ? cs->cap * 2 : 16;
        Candidate *bigger = attn_realloc(cs->c, (size_t)cap * sizeof *bigger);
        if (!bigger)
            return -1;
        cs->c = bigger;
        cs->cap = cap;
    }
    Candidate *c = &cs->c[cs->n++];
    snprintf(c->id, sizeof c->id, "%s", id);
    c->value = value;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    va_end(ap);
    return 0;
}

/* The one number e gives in s, or NaN. */
static double number_in(const LessonState *s, const Src *src, const Expr *e)
{
    LessonError err;
    Mat *m = lesson_state_eval(s, src, e, &err);
    double v = m && m->rows == 1 && m->cols == 1 ? (double)mat_get(m, 0, 0) : NAN;
    mat_free(m);
    return v;
}

/* "NAME = EXPRESSION" of statement i, shortened for a message. */
static const char *stmt_text(const Lesson *l, int i, char *buf, size_t size)
{
    char e[64];
    snprintf(buf, size, "%s = %s", l->names[l->stmts[i].slot], expr_text(&l->src, l->stmts[i].expr, e, sizeof e));
    return buf;
}

/* ---- each kind's row: what to tell a student whose number it gives ---- */

/* What a message reads: the lesson, the mistake (m, at node e), the
 * exercise (NULL when described for find the bug) and whether it asks a
 * cell of the statement rewritten; the statement as text ("where") and
 * room for one operand's text. */
typedef struct {
    const Lesson *l;
    const Mutation *m;
    const Expr *e;
    const LessonExercise *ex;
    int defines_cell;
    const char *where;
    char t[64];
} MsgCtx;

typedef void (*MistakeMessage)(MsgCtx *c, char *msg, size_t size);

/* The text of operand x of the node. */
static const char *operand(MsgCtx *c, const Expr *x) { return expr_text(&c->l->src, x, c->t, sizeof c->t); }

static void say_unscaled(MsgCtx *c, char *msg, size_t size)
{
    snprintf(msg, size, "the %s by %s was left out (in %s)", c->e->kind == E_DIV ? "division" : "multiplication",
             operand(c, c->e->b), c->where);
}

static void say_scaled_twice(MsgCtx *c, char *msg, size_t size)
{
    snprintf(msg, size, "the scaling by %s was applied twice (in %s): once is enough", operand(c, c->e->b), c->where);
}

static void say_scale_inverted(MsgCtx *c, char *msg, size_t size)
{
    int div = c->e->kind == E_DIV;
    snprintf(msg, size, "that %s by %s where %s %s", div ? "multiplies" : "divides", operand(c, c->e->b), c->where,
             div ? "divides" : "multiplies");
}

static void say_scale_by_d(MsgCtx *c, char *msg, size_t size)
{
    snprintf(msg, size, "that divides by %s where %s divides by its square root: the scale is sqrt(d_k), not d_k",
             operand(c, c->e->b->args[0]), c->where);
}

static void say_wrong_axis(MsgCtx *c, char *msg, size_t size)
{
    int rows = c->e->fn == OP_SOFTMAX_ROWS;
    if (c->defines_cell) {
        const LessonExercise *ex = c->ex;
        int line = rows ? ex->cell.row + 1 : ex->cell.col + 1, other = rows ? ex->cell.col + 1 : ex->cell.row + 1;
        snprintf(msg, size, "that is softmax down %s %d; here each %s is a distribution: softmax along %s %d",
                 rows ? "column" : "row", other, rows ? "row" : "column", rows ? "row" : "column", line);
    } else {
        snprintf(msg, size, "softmax ran along the other axis in %s: each %s is a distribution there", c->where,
                 rows ? "row" : "column");
    }
}

static void say_softmax_twice(MsgCtx *c, char *msg, size_t size)
{
    snprintf(msg, size, "softmax was applied twice (in %s): once is enough", c->where);
}

static void say_no_mask(MsgCtx *c, char *msg, size_t size)
{
    snprintf(msg, size, "the mask was left out (in %s): add it to the scores before the softmax", c->where);
}

static void say_mask_after_softmax(MsgCtx *c, char *msg, size_t size)
{
    snprintf(msg, size, "the mask was added after the softmax (in %s): it belongs on the scores, before", c->where);
}

static void say_no_bias(MsgCtx *c, char *msg, size_t size)
{
    snprintf(msg, size, "the bias was left out (in %s): it is added to every %s", c->where,
             c->l->layout == LAYOUT_COLUMNS ? "column" : "row");
}

static void say_transposed(MsgCtx *c, char *msg, size_t size)
{
    snprintf(msg, size, "one operand of the product was taken transposed: %s in %s",
             operand(c, c->m->side ? c->e->b : c->e->a), c->where);
}

static void say_e_as_3(MsgCtx *c, char *msg, size_t size)
{
    (void)c;
    snprintf(msg, size, "that is softmax with 3 in place of e: e is 2.71828..., and the shortcut shifts every weight");
}

static void say_true_e(MsgCtx *c, char *msg, size_t size)
{
    snprintf(msg, size, "that uses the true e; this exercise takes e as 3 (in %s)", c->where);
}

static void say_not_normalized(MsgCtx *c, char *msg, size_t size)
{
    snprintf(msg, size, "that is the exponential without the division by the sum (in %s): softmax divides "
                        "each by the sum of its line", c->where);
}

static void say_score_not_weight(MsgCtx *c, char *msg, size_t size)
{
    snprintf(msg, size, "that is the score that goes into the softmax; the question asks for the weight that "
                        "comes out (%s)", c->where);
}

static void say_heads_tiled(MsgCtx *c, char *msg, size_t size)
{
    snprintf(msg, size, "the key/value heads were tiled (1 2 1 2) where they repeat in place (1 1 2 2) (in %s): "
                        "the first %s query heads all read key/value head 1", c->where,
             c->e->n_args == 3 ? operand(c, c->e->args[2]) : "r");
}

static void say_rope_pairing(MsgCtx *c, char *msg, size_t size)
{
    if (c->e->fn == OP_ROPE)
        snprintf(msg, size, "that pairs column k with column k + C/2 (rope_half); rope in %s turns adjacent "
                            "columns, (1,2), (3,4), ...", c->where);
    else
        snprintf(msg, size, "that turns adjacent columns, (1,2), (3,4), ... (rope); rope_half in %s pairs "
                            "column k with column k + C/2", c->where);
}

/* One key wider is not a slip but the other convention (Mistral's paper:
 * positions i - w to i); say which one the lesson uses. */
static void say_window(MsgCtx *c, char *msg, size_t size)
{
    if (c->m->side)
        snprintf(msg, size, "the window is one key too narrow (in %s): window_mask(n, w) keeps w keys, the "
                            "query itself and the w - 1 before it", c->where);
    else
        snprintf(msg, size, "that counts the window as Mistral's paper does, i - w to i, w + 1 keys (in %s); "
                            "window_mask(n, w) here keeps w keys, the query itself and the w - 1 before it",
                 c->where);
}

static void say_no_rowsum_term(MsgCtx *c, char *msg, size_t size)
{
    snprintf(msg, size, "the rowsum term was left out (in %s): a row's weights sum to 1, so each score's "
                        "gradient counts from the row's weighted mean of dA", c->where);
}

static void say_rope_sin_for_cos(MsgCtx *c, char *msg, size_t size)
{
    snprintf(msg, size, "sin and cos are swapped (in %s): a pair (x, y) turns to (x cos - y sin, x sin + y cos)",
             c->where);
}

static void say_rope_backwards(MsgCtx *c, char *msg, size_t size)
{
    snprintf(msg, size, "that turns the pair the other way (in %s): (x cos - y sin, x sin + y cos) turns by +angle, "
                        "the sign of sin decides the direction", c->where);
}

#define SAY_ROW(kind, id, words, bug) [MUT_##kind] = SAY_##kind,
#define SAY_UNSCALED say_unscaled
#define SAY_SCALED_TWICE say_scaled_twice
#define SAY_SCALE_INVERTED say_scale_inverted
#define SAY_SCALE_BY_D say_scale_by_d
#define SAY_WRONG_AXIS say_wrong_axis
#define SAY_SOFTMAX_TWICE say_softmax_twice
#define SAY_NO_MASK say_no_mask
#define SAY_MASK_AFTER_SOFTMAX say_mask_after_softmax
#define SAY_NO_BIAS say_no_bias
#define SAY_TRANSPOSED say_transposed
#define SAY_E_AS_3 say_e_as_3
#define SAY_TRUE_E say_true_e
#define SAY_NOT_NORMALIZED say_not_normalized
#define SAY_SCORE_NOT_WEIGHT say_score_not_weight
#define SAY_HEADS_TILED say_heads_tiled
#define SAY_ROPE_PAIRING say_rope_pairing
#define SAY_WINDOW_OFF_BY_ONE say_window
#define SAY_NO_ROWSUM_TERM say_no_rowsum_term
#define SAY_ROPE_SIN_FOR_COS say_rope_sin_for_cos
#define SAY_ROPE_BACKWARDS say_rope_backwards
static const MistakeMessage messages[MUT_COUNT] = { MUT_KINDS(SAY_ROW) };

/* What to tell a student whose number mutation m gives. */
static void mutation_message(const Lesson *l, const Mutation *m, const LessonExercise *ex, int defines_cell,
                             char *msg, size_t size)
{
    char where[160];
    msg[0] = '\0';
    if (m->kind < 0 || m->kind >= MUT_COUNT)
        return;
    MsgCtx c = { l, m, m->node, ex, defines_cell, stmt_text(l, m->stmt, where, sizeof where), "" };
    messages[m->kind](&c, msg, size);
}

void mutation_describe(const Lesson *l, const Mutation *m, char *msg, size_t size)
{
    mutation_message(l, m, NULL, 0, msg, size);
}

/* The statements' evaluations one judgment may spend on rewrites. */
#define JUDGE_WORK_MAX 20000L

/* The statements the answer depends on: keep[stmt] = 1. */
static void upstream(const Lesson *l, const Expr *answer, unsigned char *keep)
{
    unsigned char *mark = attn_calloc((size_t)(l->n_names ? l->n_names : 1), 1);
    if (!mark)
        return;
    expr_mark_slots(answer, mark);
    for (int i = l->n_stmts - 1; i >= 0; i--) {
        const Stmt *st = &l->stmts[i];
        if (st->kind == ST_LET && mark[st->slot]) {
            keep[i] = 1;
            expr_mark_slots(st->expr, mark);
        }
    }
    free(mark);
}

/* Is e the name of slot, or slot scaled, masked or both ("the score" of a
 * softmax: S, S / c, S * c, S + M, S / c + M)? */
static int scores_of(const Expr *e, int slot)
{
    if (!e)
        return 0;
    if (e->kind == E_NAME)
        return e->slot == slot;
    if (e->kind == E_DIV || e->kind == E_MUL)
        return scores_of(e->a, slot) || (e->kind == E_MUL && scores_of(e->b, slot));
    if (e->kind == E_ADD)
        return scores_of(e->a, slot) || scores_of(e->b, slot);
    return 0;
}

/* The cell a rewrite reads: the transpose, the neighbours, the stages
 * before and after. */
static int cell_candidates(LessonJudge *j, const LessonExercise *ex, Candidates *out)
{
    const Lesson *l = j->l;
    const LessonCell *cell = &ex->cell;
    const Mat *m = lesson_state_get(j->asked, cell->name);
    int i = cell->row, k = cell->col, rc = 0;
    if (!m || i >= m->rows || k >= m->cols)
        return 0;
    if (i != k && k < m->rows && i < m->cols)
        rc |= diagnose_add(out, "transposed", mat_get(m, k, i),
                            "that is %s[%d,%d]: row and column swapped (the matrix transposed); the row comes first",
                            cell->name, k + 1, i + 1);
    static const int d[][2] = { { 1, 1 }, { -1, -1 }, { 1, 0 }, { 0, 1 }, { -1, 0 }, { 0, -1 } };
    for (int n = 0; n < 6; n++) {
        int r = i + d[n][0], c = k + d[n][1];
        if (r >= 0 && c >= 0 && r < m->rows && c < m->cols)
            rc |= diagnose_add(out, "off-by-one", mat_get(m, r, c),
                                "that is %s[%d,%d], one off: rows and columns count from 1 here, so %s[%d,%d] is "
                                "row %d, column %d", cell->name, r + 1, c + 1, cell->name, i + 1, k + 1, i + 1, k + 1);
    }
    /* a stage later: the lesson's next statements made from this matrix */
    int slot = lesson_find_name(l, cell->name, strlen(cell->name));
    int at = lesson_stmt_of_slot(l, slot);
    for (int s = at + 1; at >= 0 && s < l->n_stmts; s++) {
        const Stmt *st = &l->stmts[s];
        const Mat *later = st->kind == ST_LET ? lesson_state_at(j->asked, st->slot) : NULL;
        if (!later || later->rows != m->rows || later->cols != m->cols)
            continue;
        const Expr *e = st->expr;
        char where[160];
        stmt_text(l, s, where, sizeof where);
        if (expr_is_softmax(e) && scores_of(e->args[0], slot))
            rc |= diagnose_add(out, "weight-not-score", mat_get(later, i, k),
                                "that is the weight after the softmax (%s); the question asks for the score that "
                                "goes into it", where);
        else if ((e->kind == E_DIV || e->kind == E_MUL) && e->a->kind == E_NAME && e->a->slot == slot)
            rc |= diagnose_add(out, "scaled-early", mat_get(later, i, k),
                                "that is already scaled (%s); the question asks for the value before the scaling",
                                where);
    }
    return rc;
}

int diagnose_candidates(LessonJudge *j, const LessonExercise *ex, double want, Candidates *out)
{
    const Lesson *l = j->l;
    int rc = 0;
    /* the author knows their lesson best */
    for (int k = 0; k < ex->n_mistakes; k++) {
        double v = number_in(j->asked, &l->src, ex->mistakes[k].parsed);
        if (!isnan(v))
            rc |= diagnose_add(out, "author", v, "%s", ex->mistakes[k].message);
    }
    unsigned char *keep = attn_calloc((size_t)(l->n_stmts ? l->n_stmts : 1), 1);
    if (!keep)
        return -1;
    upstream(l, ex->parsed, keep);
    int last = -1;
    for (int i = 0; i < l->n_stmts; i++)
        if (keep[i])
            last = i;
    int cell_stmt = ex->has_cell ? lesson_stmt_of_slot(l, lesson_find_name(l, ex->cell.name, strlen(ex->cell.name))) : -1;
    /* Each rewrite evaluates the lesson again from its statement to the
     * answer's: in a long chain that work grows as the square of the
     * statements (1000 lets took 5.5 s for one wrong answer, freezing a
     * class). Past JUDGE_WORK_MAX statements in all, the rewrites nearest
     * the answer are tried, the ones far upstream left out. */
    int *rewrites = attn_calloc((size_t)(l->n_stmts ? l->n_stmts : 1), sizeof *rewrites);
    if (!rewrites) {
        free(keep);
        return -1;
    }
    for (int i = 0; i < j->n_muts; i++)
        if (keep[j->muts[i].stmt])
            rewrites[j->muts[i].stmt]++;
    /* statement s's rewrites each cost last - s + 1 evaluations; the
     * answer's own are always tried */
    int from = last;
    for (long work = 0; from > 0; from--) {
        work += (long)rewrites[from - 1] * (last - from + 2);
        if (work > JUDGE_WORK_MAX)
            break;
    }
    free(rewrites);
    for (int i = 0; i < j->n_muts; i++) {
        const Mutation *m = &j->muts[i];
        if (!keep[m->stmt] || m->stmt < from)
            continue;
        int defines_cell = m->stmt == cell_stmt && m->node == l->stmts[m->stmt].expr;
        if (m->kind == MUT_SCORE_NOT_WEIGHT && !defines_cell)
            continue;       /* a score for a weight: the asked weight's own scores */
        const LessonState *ms = judge_mutated(j, i, last);
        double v = ms ? number_in(ms, &l->src, ex->parsed) : NAN;
        judge_release(j, i);
        if (isnan(v))
            continue;
        char msg[300];
        mutation_message(l, m, ex, defines_cell, msg, sizeof msg);
        rc |= diagnose_add(out, mutation_id(m->kind), v, "%s", msg);
    }
    free(keep);
    if (ex->has_cell)
        rc |= cell_candidates(j, ex, out);
    rc |= diagnose_add(out, "sign", -want, "the sign is the wrong way round");
    return rc ? -1 : 0;
}
