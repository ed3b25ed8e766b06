/*
 * lesson_bug.c - find the bug: one classic mistake (a rewrite of
 * lesson_mutate.c) planted in one statement of a lesson, chosen by a seed
 * among the rewrites whose effect shows (some matrix a step shows
 * changes) and that leave the lesson evaluable. The lesson evaluated with
 * the bug, the first shown matrix it changes (steps in order, each step's
 * panes in order), the step that shows it, the diagnosis id, and the
 * statement as planted beside the statement as written. The lesson itself
 * never changes.
 */
#include "alloc.h"
#include "teach_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "strbuf.h"

/* The kinds a bug may be are the mistakes someone writes in code (not the
 * answer-only ones: e taken as 3, a score given for a weight): those with
 * a number in MUT_KINDS's bug column, the order the student's list
 * numbers them. */
static MutKind bug_kind(int i)
{
    for (int k = 0; i >= 1 && k < MUT_COUNT; k++)
        if (mutation_kind((MutKind)k)->bug == i)
            return (MutKind)k;
    return MUT_COUNT;
}

int lesson_bug_n_kinds(void)
{
    int n = 0;
    for (int k = 0; k < MUT_COUNT; k++)
        n += mutation_kind((MutKind)k)->bug > 0;
    return n;
}

const char *lesson_bug_kind_id(int i) { return bug_kind(i) < MUT_COUNT ? mutation_id(bug_kind(i)) : NULL; }

/* the judge's words for the id: one home for them */
const char *lesson_bug_kind_title(int i) { return lesson_diagnosis_words(lesson_bug_kind_id(i)); }

const char *lesson_bug_kind_named(const char *text)
{
    while (*text == ' ')
        text++;
    size_t n = strlen(text);
    while (n > 0 && text[n - 1] == ' ')
        n--;
    char *end;
    long k = strtol(text, &end, 10);
    if (n > 0 && end == text + n)
        return lesson_bug_kind_id((int)k);
    for (int i = 1; i <= lesson_bug_n_kinds(); i++)
        if (strlen(lesson_bug_kind_id(i)) == n && strncmp(lesson_bug_kind_id(i), text, n) == 0)
            return lesson_bug_kind_id(i);
    return NULL;
}

int lesson_values_differ(float x, float y)
{
    return isnan(x) != isnan(y) || (isinf(x) || isinf(y) ? x != y : fabsf(x - y) > 1e-6f * fmaxf(1.0f, fabsf(x)));
}

int lesson_mats_differ(const Mat *a, const Mat *b)
{
    if (!a || !b)
        return a != b;
    if (a->rows != b->rows || a->cols != b->cols)
        return 1;
    for (int i = 0; i < a->rows; i++)
        for (int j = 0; j < a->cols; j++)
            if (lesson_values_differ(mat_get(a, i, j), mat_get(b, i, j)))
                return 1;
    return 0;
}

/* The first matrix the steps show that differs between the two states:
 * its name and its step (0-based), or -1. */
int bug_first_shown_change(const Lesson *l, const LessonState *right, const LessonState *bugged, const char **name)
{
    for (int s = 0; s < l->n_steps; s++) {
        const LessonStep *st = &l->steps[s];
        for (int k = 0; k < st->n_show; k++)
            if (lesson_mats_differ(lesson_state_get(right, st->show[k]), lesson_state_get(bugged, st->show[k]))) {
                *name = st->show[k];
                return s;
            }
    }
    return -1;
}

int lesson_bug_seed_parse(const char *text, unsigned *seed)
{
    unsigned long long v = 0;
    size_t n = strlen(text);
    if (n == 0 || n > 10)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (text[i] < '0' || text[i] > '9')
            return -1;
        v = v * 10 + (unsigned)(text[i] - '0');
    }
    if (v > 0xffffffffULL)
        return -1;
    *seed = (unsigned)v;
    return 0;
}

/* ---- planting ---- */

/* A well-mixed number from the seed, so nearby seeds pick far apart. */
static unsigned long long mix(unsigned long long x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

int lesson_bug_plant(const Lesson *l, const LessonState *asked, unsigned seed, LessonBug *bug, LessonError *err)
{
    memset(bug, 0, sizeof *bug);
    bug->seed = seed;
    Mutation *muts;
    int n;
    if (lesson_mutations(l, &muts, &n) != 0)
        return src_error(&l->src, err, ATTN_E_NOMEM, 0, "out of memory"), -1;
    int *ok = attn_calloc((size_t)(n > 0 ? n : 1), sizeof *ok), n_ok = 0;
    if (!ok) {
        free(muts);
        return src_error(&l->src, err, ATTN_E_NOMEM, 0, "out of memory"), -1;
    }
    /* the plantable rewrites that evaluate and change what a step shows,
     * in the lesson's order; one per (statement, kind, node, side) */
    for (int i = 0; i < n; i++) {
        if (!bug_plantable(l, asked, &muts[i]))
            continue;
        LessonError e2;
        LessonState *st = lesson_eval_mutated(l, asked, &muts[i], -1, &e2);
        const char *name;
        if (st && bug_first_shown_change(l, asked, st, &name) >= 0)
            ok[n_ok++] = i;
        lesson_state_free(st);
    }
    if (n_ok == 0) {
        free(ok);
        free(muts);
        src_error(&l->src, err, ATTN_E_ARG, 0, "no classic mistake changes what this lesson shows: it has no bug to plant");
        return -1;
    }
    const Mutation *m = &muts[ok[mix(seed) % (unsigned long long)n_ok]];
    LessonError e2;
    bug->state = lesson_eval_mutated(l, asked, m, -1, &e2);
    const char *name = NULL;
    bug->step = bug->state ? bug_first_shown_change(l, asked, bug->state, &name) : -1;
    if (!bug->state || bug->step < 0) {
        lesson_state_free(bug->state);
        bug->state = NULL;
        free(ok);
        free(muts);
        *err = e2;
        return -1;
    }
    snprintf(bug->matrix, sizeof bug->matrix, "%s", name);
    snprintf(bug->kind, sizeof bug->kind, "%s", mutation_id(m->kind));
    bug->stmt = m->stmt;
    bug->mut = ok[mix(seed) % (unsigned long long)n_ok];
    mutation_describe(l, m, bug->explain, sizeof bug->explain);
    bug_statement_text(l, asked, m->stmt, m, bug->planted, sizeof bug->planted);
    bug_statement_text(l, asked, m->stmt, NULL, bug->written, sizeof bug->written);
    free(ok);
    free(muts);
    return 0;
}

void lesson_bug_free(LessonBug *bug)
{
    lesson_state_free(bug->state);
    bug->state = NULL;
}

LessonState *lesson_bug_eval(const Lesson *l, const LessonBug *bug, const LessonEdit *edits, int n_edits,
                             LessonError *err)
{
    Mutation *muts;
    int n;
    if (lesson_mutations(l, &muts, &n) != 0)
        return src_error(&l->src, err, ATTN_E_NOMEM, 0, "out of memory"), NULL;
    LessonState *st = NULL;
    if (bug->mut >= 0 && bug->mut < n)
        st = lesson_eval_edited_mutated(l, edits, n_edits, muts[bug->mut].node, &muts[bug->mut], mutation_eval, err);
    else
        src_error(&l->src, err, ATTN_E_ARG, 0, "the bug is not one of this lesson's");
    free(muts);
    return st;
}

Mat *lesson_bug_as_written(const Lesson *l, const LessonState *bugged, const char *name, LessonError *err)
{
    const Mat *now = lesson_state_get(bugged, name);
    int at = lesson_stmt_of_slot(l, lesson_find_name(l, name, strlen(name)));
    if (!now || at < 0) {
        src_error(&l->src, err, ATTN_E_ARG, 0, "the lesson has no matrix %s", name);
        return NULL;
    }
    /* an input is what it holds (an edit included) */
    if (now->prov.op == OP_INPUT || now->prov.op == OP_RANDN)
        return mat_retain(now);
    Mat *m = lesson_state_eval(bugged, &l->src, l->stmts[at].expr, err);
    if (m)
        mat_set_name(m, name);
    return m;
}

/* ---- the text of a hunt ---- */

/* Does v, rounded to decimals, read as the number written? */
static int reads_as(double v, int decimals, double written)
{
    double unit = pow(10.0, -decimals);
    return isfinite(v) && fabs(round(v / unit) * unit - written) < unit / 2;
}

/* The number written at text[0..len) (digits with a '.' and at least two
 * decimals: 0.28, -1.3016), its value and decimals; 0 when it is none. */
static int quoted_number(const char *text, size_t len, double *value, int *decimals)
{
    size_t i = 0, dot = 0;
    if (i < len && text[i] == '-')
        i++;
    size_t digits = i;
    while (i < len && ((text[i] >= '0' && text[i] <= '9') || (text[i] == '.' && !dot))) {
        if (text[i] == '.')
            dot = i;
        i++;
    }
    if (!dot || dot == digits || i - dot - 1 < 2 || i != len)
        return 0;
    *value = strtod(text, NULL);
    *decimals = (int)(i - dot - 1);
    return 1;
}

/* For the number written (value at decimals): what the lesson with the bug
 * has where the lesson as written has it. 0: no changed cell reads so,
 * leave it; 1: every changed cell that reads so has one value with the bug
 * (in *now); -1: they disagree, or an unchanged cell reads so too. */
static int bugged_reading(const LessonState *asked, const LessonState *bugged, double value, int decimals,
                          double *now)
{
    int found = 0, kept = 0;
    for (int i = 0; i < lesson_state_count(asked); i++) {
        const Mat *a = lesson_state_at(asked, i);
        const Mat *b = a ? lesson_state_get(bugged, a->name) : NULL;
        if (!a || !b || a->rows != b->rows || a->cols != b->cols)
            continue;
        for (int r = 0; r < a->rows; r++)
            for (int c = 0; c < a->cols; c++) {
                double x = mat_get(a, r, c), y = mat_get(b, r, c);
                if (!reads_as(x, decimals, value))
                    continue;
                if (reads_as(y, decimals, value)) {
                    kept = 1;
                    continue;
                }
                if (found && !reads_as(y, decimals, *now))
                    return -1;
                *now = y;
                found = 1;
            }
    }
    if (!found)
        return 0;
    return kept ? -1 : 1;
}

char *lesson_bug_text(const LessonState *asked, const LessonBug *bug, const char *text)
{
    if (!bug)
        return strdup(text);
    StrBuf b = { 0 };
    const char *p = text;
    while (*p) {
        /* a word of digits, '.' and a leading '-' */
        size_t n = 0;
        int starts = (*p == '-' && p[1] >= '0' && p[1] <= '9') || (*p >= '0' && *p <= '9');
        int after_word = p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.');
        if (starts && !after_word)
            for (n = 1; p[n] && ((p[n] >= '0' && p[n] <= '9') || p[n] == '.'); n++)
                ;
        while (n > 0 && p[n - 1] == '.')       /* a sentence's full stop */
            n--;
        double value, now = 0;
        int decimals;
        if (n > 0 && quoted_number(p, n, &value, &decimals)) {
            int says = bugged_reading(asked, bug->state, value, decimals, &now);
            if (says == 1)
                strbuf_add(&b, "%.*f", decimals, now);
            else if (says < 0)
                strbuf_add(&b, "?");
            else
                strbuf_put(&b, p, n);
            p += n;
            continue;
        }
        size_t skip = n > 0 ? n : 1;
        strbuf_put(&b, p, skip);
        p += skip;
    }
    return strbuf_take(&b);
}
