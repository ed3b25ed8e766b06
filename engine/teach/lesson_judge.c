/*
 * lesson_judge.c - the one judge of a student's answer. It reads what was
 * typed (lesson_answer.c), compares it with the exercise's value in the
 * lesson as written, accepts what the exercise's own arithmetic gives from
 * the numbers as the screen rounds them, and names a wrong answer by the
 * one rewrite of the arithmetic (lesson_diagnose.c) that gives it: none
 * when several do (the message then lists them, all true of the number),
 * rounding too early when none does and the digits fit. The right value
 * rounded is never a mistake: right within the tolerance, else "more
 * digits"; a rewrite is named only where the number is nearer it than the
 * right value; a number a visible cell of the exercise's screen holds, no
 * reading of a cell explaining it, is said to be that cell. The verdict, the
 * diagnosis id and the message come back in one Judgement; every caller
 * (the session, `attn grade`, `attn check --strict`) only shows it.
 *
 * Also the one measure of distance between two numbers, used by `attn
 * check` too (lesson_verify.c), and the catalogue of diagnosis ids.
 */
#include "alloc.h"
#include "teach_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double lesson_judge_distance(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b) ? 0 : INFINITY;
    if (isinf(a) || isinf(b))
        return a == b ? 0 : INFINITY;
    return fabs(a - b);
}

/* ---- verdicts and diagnoses in words ---- */

static const char *const verdict_words[] = { "unanswered", "right", "wrong", "revealed", "invalid" };

const char *verdict_word(Verdict v)
{
    return v >= VERDICT_UNANSWERED && v <= VERDICT_INVALID ? verdict_words[v] : "invalid";
}

int verdict_from_word(const char *word, Verdict *v)
{
    for (int i = 0; i <= VERDICT_INVALID; i++)
        if (strcmp(word, verdict_words[i]) == 0) {
            *v = (Verdict)i;
            return 0;
        }
    return -1;
}

/* The diagnoses the judge names that are no rewrite of the lesson (the
 * classic mistakes that are have their row in MUT_KINDS), with the words a
 * tally uses. The ids are a contract: the class tally, `attn grade --json`
 * and find-the-bug depend on them. */
static const struct {
    const char *id, *words;
} named_otherwise[] = {
    { "scaled-early", "the scale applied too early" },
    { "off-by-one", "an index off by one" },
    { "weight-not-score", "the weight given for the score" },
    { "rounded-early", "rounded too early" },
    { "sign", "the sign the wrong way round" },
    { "knob-moved", "the value at the moved knob" },
    { "edited", "the value with the edits" },
    { "author", "a mistake the lesson names" },
};
#define N_OTHERWISE ((int)(sizeof named_otherwise / sizeof *named_otherwise))

/* Diagnosis i: the classic mistakes in MUT_KINDS's order, then the others. */
int lesson_n_diagnoses(void) { return MUT_COUNT + N_OTHERWISE; }

const char *lesson_diagnosis_id(int i)
{
    if (i >= 0 && i < MUT_COUNT)
        return mutation_kind((MutKind)i)->id;
    return i >= MUT_COUNT && i < lesson_n_diagnoses() ? named_otherwise[i - MUT_COUNT].id : NULL;
}

const char *lesson_diagnosis_words(const char *id)
{
    for (int i = 0; id && i < MUT_COUNT; i++)
        if (strcmp(mutation_kind((MutKind)i)->id, id) == 0)
            return mutation_kind((MutKind)i)->words;
    for (int i = 0; id && i < N_OTHERWISE; i++)
        if (strcmp(named_otherwise[i].id, id) == 0)
            return named_otherwise[i].words;
    return NULL;
}

/* ---- the judge ---- */

LessonJudge *lesson_judge_new(const Lesson *l, const LessonState *asked)
{
    LessonJudge *j = attn_calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->l = l;
    j->asked = asked;
    if (lesson_mutations(l, &j->muts, &j->n_muts) != 0
        || !(j->states = attn_calloc((size_t)(j->n_muts ? j->n_muts : 1), sizeof *j->states))
        || !(j->upto = attn_calloc((size_t)(j->n_muts ? j->n_muts : 1), sizeof *j->upto))) {
        lesson_judge_free(j);
        return NULL;
    }
    for (int i = 0; i < j->n_muts; i++)
        j->upto[i] = -2;
    return j;
}

void lesson_judge_free(LessonJudge *j)
{
    if (!j)
        return;
    for (int i = 0; j->states && i < j->n_muts; i++)
        lesson_state_free(j->states[i]);
    free(j->states);
    free(j->upto);
    free(j->muts);
    free(j);
}

/* How finely the student's number was written: 0.4754 -> 1e-4, 6.144e-6
 * -> 1e-9; 0 for a whole number and for arithmetic (taken as exact). */
static double typed_resolution(const char *typed)
{
    while (isspace((unsigned char)*typed))
        typed++;
    const char *p = typed;
    if (*p == '-' || *p == '+')
        p++;
    int decimals = 0, digits = 0;
    while (isdigit((unsigned char)*p))
        p++, digits++;
    if (*p == '.')
        for (p++; isdigit((unsigned char)*p); p++, digits++)
            decimals++;
    if (!digits)
        return 0;
    long exponent = 0;
    if (*p == 'e' || *p == 'E') {
        char *end;
        exponent = strtol(p + 1, &end, 10);
        if (end == p + 1 || exponent > 300 || exponent < -300)
            return 0;
        p = end;
    }
    while (isspace((unsigned char)*p))
        p++;
    return *p || decimals == 0 ? 0 : pow(10.0, (double)(exponent - decimals));
}

/* The values the exercise's arithmetic gives from the numbers as the
 * screen shows them at `decimals`: the answer on rounded matrices, and for
 * one cell, its own statement on rounded operands. */
static int rounded_values(const LessonJudge *j, const LessonExercise *ex, int decimals, double v[2])
{
    const Lesson *l = j->l;
    int n = 0;
    LessonError err;
    Mat *m = lesson_eval_rounded(j->asked, &l->src, ex->parsed, decimals, ex, &err);
    if (m && m->rows == 1 && m->cols == 1)
        v[n++] = mat_get(m, 0, 0);
    mat_free(m);
    if (!ex->has_cell)
        return n;
    int at = lesson_stmt_of_slot(l, lesson_find_name(l, ex->cell.name, strlen(ex->cell.name)));
    if (at < 0)
        return n;
    m = lesson_eval_rounded(j->asked, &l->src, l->stmts[at].expr, decimals, ex, &err);
    if (m && ex->cell.row < m->rows && ex->cell.col < m->cols && m->rows * m->cols > 1)
        v[n++] = mat_get(m, ex->cell.row, ex->cell.col);
    mat_free(m);
    return n;
}

/* Is got, wrong at the exercise's tolerance, what the rounded numbers on
 * the screen give? */
static int right_from_rounded(const LessonJudge *j, const LessonExercise *ex, double got, int shown)
{
    int tries[2] = { 4, shown > 0 && shown < 4 ? shown : 4 };
    for (int t = 0; t < (tries[1] != tries[0] ? 2 : 1); t++) {
        double v[2];
        int n = rounded_values(j, ex, tries[t], v);
        for (int k = 0; k < n; k++)
            if (lesson_judge_distance(got, v[k]) <= ex->within)
                return 1;
    }
    return 0;
}

/* Is id a cell read wrong (another cell of the same matrix), not a
 * rewrite of the formula? */
static int reads_a_cell(const char *id)
{
    return strcmp(id, "transposed") == 0 || strcmp(id, "off-by-one") == 0;
}

/* Is id a number read off the screen: another cell, or the same cell a
 * stage before or after (a score for a weight), or the lesson's own
 * diagnosis, the sign: what a visible cell holding the number does not
 * explain better. */
static int read_or_named(const char *id)
{
    static const char *const ids[] = { "transposed", "off-by-one", "score-not-weight", "weight-not-score",
                                       "scaled-early", "author", "sign", "knob-moved", "edited" };
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++)
        if (strcmp(id, ids[i]) == 0)
            return 1;
    return 0;
}

/* Name the mistake behind got, a wrong answer: the one id the candidates
 * that match got agree on, else none. */
static void diagnose(LessonJudge *j, const LessonExercise *ex, const char *typed, const JudgeContext *ctx,
                     Judgement *out)
{
    Candidates cs = { 0 };
    diagnose_candidates(j, ex, out->want, &cs);
    if (ctx && ctx->now) {
        LessonError err;
        Mat *m = lesson_state_eval(ctx->now, &j->l->src, ex->parsed, &err);
        if (m && m->rows == 1 && m->cols == 1) {
            if (ctx->moved && ctx->moved[0])
                diagnose_add(&cs, "knob-moved", mat_get(m, 0, 0), "that is the value at %s; the exercise asks at %s",
                              ctx->moved, ctx->asked && ctx->asked[0] ? ctx->asked : "the lesson's own values");
            else
                diagnose_add(&cs, "edited", mat_get(m, 0, 0),
                              "that is the value with your edits; the exercise asks about the lesson's own numbers");
        }
        mat_free(m);
    }
    /* a number written to 4 decimals stands for every value that rounds
     * to it */
    double res = typed_resolution(typed), tol = fmax(ex->within, 0.5 * res * (1 + 1e-9));
    double off = lesson_judge_distance(out->got, out->want);
    /* first the rewrites the number is exactly (to the digits typed), then
     * those it is within the exercise's tolerance of; a rewrite is named
     * only where the number is nearer it than the right value */
    int first = -1, ids = 0, read = 0, tier = 0;
    char list[300] = "";
    double tiers[2] = { 0.5 * res * (1 + 1e-9), tol };
    for (; tier < 2; tier++) {
        if (tier == 0 && res == 0)
            continue;
        list[0] = '\0';
        for (int i = 0; i < cs.n; i++) {
            const Candidate *c = &cs.c[i];
            /* a rewrite that gives the right value is no mistake */
            if (lesson_judge_distance(c->value, out->want) <= ex->within
                || lesson_judge_distance(out->got, c->value) > tiers[tier]
                || lesson_judge_distance(out->got, c->value) >= off)
                continue;
            /* one name per id; two rewrites of the formula that give
             * exactly one number are one slip seen twice (softmax twice is
             * also the weight of the next softmax) and name the earlier;
             * but where a cell read wrong (transposed, one off) gives the
             * same number as another candidate, both are listed, never
             * one named: a neighbour holding the number is no evidence */
            int seen = 0;
            for (int k = 0; k < i && !seen; k++)
                seen = lesson_judge_distance(out->got, cs.c[k].value) <= tiers[tier]
                       && lesson_judge_distance(cs.c[k].value, out->want) > ex->within
                       && (strcmp(cs.c[k].id, c->id) == 0
                           || (!reads_a_cell(cs.c[k].id) && !reads_a_cell(c->id)
                               && lesson_judge_distance(cs.c[k].value, c->value) <= 1e-9 * fmax(1, fabs(c->value))));
            if (seen)
                continue;
            if (ids == 0)
                first = i;
            ids++;
            read |= read_or_named(c->id);
            size_t len = strlen(list);
            snprintf(list + len, sizeof list - len, "%s%s", len ? "; or " : "", lesson_diagnosis_words(c->id));
        }
        if (ids > 0)
            break;
    }
    /* a number that a cell on the screen shows to the digits typed, where
     * no reading of a cell explains it as well and no slip lands on it
     * (the same cell a stage before: the logit for the scaled score):
     * that cell, which is no slip of the arithmetic */
    char cell[MAT_NAME_MAX + 32];
    int same_place = 0;
    if (screen_cell_reading(j->l, j->asked, ex, out->got, res, cell, sizeof cell, &same_place)
        && (ids == 0 || (!same_place && (!read || tier > 0)))) {
        snprintf(out->msg, sizeof out->msg, "not yet: that is %s on the screen, not the number asked", cell);
    } else if (ids == 0 && res >= 1e-3 && res <= 0.1 && off <= res * (1 + 1e-9)) {
        /* one unit of the last digit off: the arithmetic on numbers rounded
         * before the end */
        snprintf(out->diagnosis, sizeof out->diagnosis, "rounded-early");
        snprintf(out->msg, sizeof out->msg,
                 "close, but rounded too early: keep 4 decimals to the end (the answer must be within %g)",
                 ex->within);
    } else if (ids == 1) {
        snprintf(out->diagnosis, sizeof out->diagnosis, "%s", cs.c[first].id);
        /* a number typed with fewer digits than the screen's 4 decimals
         * that the rewrite gives only when rounded: said so, since "that
         * is" alone reads as exact (0.5 for a weight of 0.4754) */
        int rounded = tier == 0 && res > 1.0001e-4 && lesson_judge_distance(out->got, cs.c[first].value) > 0.5e-4;
        snprintf(out->msg, sizeof out->msg, "%s%s", rounded ? "to the digits you typed, " : "", cs.c[first].msg);
    } else if (ids > 1) {
        snprintf(out->msg, sizeof out->msg, "not yet: that number fits more than one slip (%s)", list);
    } else if (ex->within == 0) {
        snprintf(out->msg, sizeof out->msg, "not yet: the exact number is asked, and that is not it");
    } else {
        snprintf(out->msg, sizeof out->msg, "not yet: off by more than %g", ex->within);
    }
    free(cs.c);
}

void lesson_judge(LessonJudge *j, const LessonExercise *ex, const char *typed, const JudgeContext *ctx,
                  Judgement *out)
{
    memset(out, 0, sizeof *out);
    LessonError err;
    Mat *m = ex->parsed ? lesson_state_eval(j->asked, &j->l->src, ex->parsed, &err) : NULL;
    if (!m || m->rows != 1 || m->cols != 1) {
        out->verdict = VERDICT_INVALID;
        if (m)
            snprintf(out->msg, sizeof out->msg, "this exercise's answer is a %dx%d matrix, not one number", m->rows,
                     m->cols);
        else
            snprintf(out->msg, sizeof out->msg, "this exercise's answer does not evaluate: %s",
                     ex->parsed ? err.msg : "it was not parsed");
        mat_free(m);
        return;
    }
    out->want = mat_get(m, 0, 0);
    mat_free(m);
    char why[360];
    if (lesson_read_answer(typed, &out->got, why, sizeof why) < 0) {
        out->verdict = VERDICT_INVALID;
        snprintf(out->msg, sizeof out->msg, "%s", why);
        return;
    }
    int shown = ctx ? ctx->decimals : 0;
    if (lesson_judge_distance(out->got, out->want) <= ex->within) {
        out->verdict = VERDICT_RIGHT;
        snprintf(out->msg, sizeof out->msg, "right");
    } else if (right_from_rounded(j, ex, out->got, shown)) {
        out->verdict = VERDICT_RIGHT;
        out->from_rounded = 1;
        snprintf(out->msg, sizeof out->msg, "right (from the rounded numbers on screen; exact %.6g)", out->want);
    } else {
        out->verdict = VERDICT_WRONG;
        /* the right value rounded is no mistake: it wants more digits */
        double res = typed_resolution(typed);
        if (res > 0 && lesson_judge_distance(out->got, out->want) <= 0.5 * res * (1 + 1e-9))
            snprintf(out->msg, sizeof out->msg, "not yet: more digits (the answer must be within %g)", ex->within);
        else
            diagnose(j, ex, typed, ctx, out);
        return;
    }
    if (ctx && ctx->revealed) {
        out->verdict = VERDICT_REVEALED;
        snprintf(out->msg, sizeof out->msg, "right (revealed before)");
    }
}

/* ---- numbers the prose quotes ---- */

int lesson_judge_prose(LessonJudge *j, ProseQuoteFn fn, void *ctx)
{
    int found = 0;
    for (int s = 0; s < j->l->n_steps; s++) {
        const LessonStep *st = &j->l->steps[s];
        ProseNumber n;
        for (const char *at = st->text; st->text && prose_number(&at, st->text, &n);) {
            if (n.unit == 0)
                continue;   /* a fraction is exact: no digits cut short */
            for (int e = 0; e < st->n_exercises; e++) {
                const LessonExercise *ex = &st->exercises[e];
                Judgement jd;
                lesson_judge(j, ex, n.text, NULL, &jd);
                if (jd.verdict != VERDICT_WRONG || fabs(n.value - jd.want) > 0.5 * n.unit * (1 + 1e-9))
                    continue;   /* right, or not a quote of this exercise's value */
                found++;
                if (fn)
                    fn(ctx, st, ex, n.text, jd.msg);
            }
        }
    }
    return found;
}
