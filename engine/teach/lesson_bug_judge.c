/*
 * lesson_bug_judge.c - a person's guesses at a planted bug (lesson_bug.c),
 * judged: the first wrong matrix they point at, and the kind of mistake
 * they name. Right is right: a kind that gives the very numbers the bug
 * gives is the bug as far as anyone can see. A wrong guess is told what
 * it got wrong from the numbers (that matrix is right; it is wrong but
 * only downstream; that mistake would show first elsewhere).
 */
#include "teach_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The step's title for messages: "step 3, Scores". */
static void step_words(const Lesson *l, int step, char *buf, size_t size)
{
    const LessonStep *st = lesson_step(l, step);
    snprintf(buf, size, "step %d%s%s", step + 1, st && st->title && st->title[0] ? ", " : "", st && st->title ? st->title : "");
}

/* Is name among the matrices the steps show? */
static int is_shown(const Lesson *l, const char *name)
{
    for (int s = 0; s < l->n_steps; s++)
        for (int k = 0; k < l->steps[s].n_show; k++)
            if (strcmp(l->steps[s].show[k], name) == 0)
                return 1;
    return 0;
}

void lesson_bug_judge_matrix(const Lesson *l, const LessonState *asked, const LessonBug *bug, const char *name,
                             BugVerdict *v)
{
    memset(v, 0, sizeof *v);
    const Mat *right = lesson_state_get(asked, name), *buggy = lesson_state_get(bug->state, name);
    char where[300];
    step_words(l, bug->step, where, sizeof where);
    if (!right || !buggy) {
        const char *near = lesson_state_nearest(asked, name);
        v->right = -1;
        snprintf(v->msg, sizeof v->msg, "the lesson has no matrix %s%s%s%s", name, near ? " (did you mean " : "",
                 near ? near : "", near ? "?)" : "");
    } else if (strcmp(name, bug->matrix) == 0) {
        v->right = 1;
        snprintf(v->msg, sizeof v->msg, "%s is the first wrong matrix (%s): everything before it is as the lesson "
                 "says", name, where);
    } else if (!lesson_mats_differ(right, buggy)) {
        snprintf(v->msg, sizeof v->msg, "%s is right: its numbers are what the lesson computes%s", name,
                 is_shown(l, name) ? "" : " (and no step shows it)");
    } else {
        snprintf(v->msg, sizeof v->msg, "%s is wrong, but not the first: a matrix shown before it is wrong "
                 "already, and %s only inherits it; follow the numbers back", name, name);
    }
}

/* Do the two states show the same numbers in every step? */
static int shows_the_same(const Lesson *l, const LessonState *a, const LessonState *b)
{
    for (int s = 0; s < l->n_steps; s++)
        for (int k = 0; k < l->steps[s].n_show; k++)
            if (lesson_mats_differ(lesson_state_get(a, l->steps[s].show[k]), lesson_state_get(b, l->steps[s].show[k])))
                return 0;
    return 1;
}

void lesson_bug_judge_kind(const Lesson *l, const LessonState *asked, const LessonBug *bug, const char *text,
                           BugVerdict *v)
{
    memset(v, 0, sizeof *v);
    const char *kind = lesson_bug_kind_named(text);
    if (!kind) {
        v->right = -1;
        snprintf(v->msg, sizeof v->msg, "'%s' is not a kind of mistake: type its number (1-%d) or its id", text,
                 lesson_bug_n_kinds());
        return;
    }
    if (strcmp(kind, bug->kind) == 0) {
        v->right = 1;
        snprintf(v->msg, sizeof v->msg, "%s", bug->explain);
        return;
    }
    Mutation *muts;
    int n;
    if (lesson_mutations(l, &muts, &n) != 0) {
        v->right = -1;
        snprintf(v->msg, sizeof v->msg, "out of memory");
        return;
    }
    /* where that mistake could be made, and what it would show; of the
     * places that do not give these numbers, the one nearest the bug
     * tells best why not: in the bug's statement, else one that makes
     * the same matrix wrong first, else the first */
    int applies = 0, same = -1, elsewhere = -1, step = -1, changes = 0, best = 0;
    const char *first = NULL;
    /* first that kind made where the bug is: some mistakes are others by
     * another name there (x / sqrt(d) scaled twice is x / d) */
    Mutation here = bug->mut >= 0 && bug->mut < n ? muts[bug->mut] : (Mutation){ 0 };
    for (int k = 0; k < MUT_COUNT && bug->mut >= 0 && bug->mut < n && same < 0; k++) {
        if (strcmp(mutation_id((MutKind)k), kind) != 0)
            continue;
        for (int side = 0; side < 2 && same < 0; side++) {
            here.kind = (MutKind)k;
            here.side = side;
            LessonError err;
            LessonState *st = lesson_eval_mutated(l, asked, &here, -1, &err);
            if (st && shows_the_same(l, st, bug->state))
                same = n;   /* "here", not in the list */
            lesson_state_free(st);
        }
    }
    for (int i = 0; i < n && same < 0; i++) {
        if (strcmp(mutation_id(muts[i].kind), kind) != 0)
            continue;
        LessonError err;
        LessonState *st = lesson_eval_mutated(l, asked, &muts[i], -1, &err);
        if (!st)
            continue;
        applies = 1;
        const char *name;
        int at = bug_first_shown_change(l, asked, st, &name);
        if (at >= 0 && shows_the_same(l, st, bug->state)) {
            same = i;
        } else if (at >= 0) {
            int here = strcmp(name, bug->matrix) == 0;
            int rank = muts[i].stmt == bug->stmt && here ? 3 : here ? 2 : 1;
            if (rank > best)
                best = rank, elsewhere = i, first = name, step = at, changes = here;
        }
        lesson_state_free(st);
    }
    char said[400];
    if (same >= 0) {
        v->right = 1;
        mutation_describe(l, same < n ? &muts[same] : &here, said, sizeof said);
        snprintf(v->msg, sizeof v->msg, "%s; it gives these very numbers (the bug planted was %s: %s)", said,
                 bug->kind, bug->explain);
    } else if (!applies) {
        snprintf(v->msg, sizeof v->msg, "this lesson has nowhere to make that mistake");
    } else if (elsewhere < 0) {
        snprintf(v->msg, sizeof v->msg, "made here, that mistake would change nothing the lesson shows");
    } else {
        char where[300];
        step_words(l, step, where, sizeof where);
        mutation_describe(l, &muts[elsewhere], said, sizeof said);
        if (changes)
            snprintf(v->msg, sizeof v->msg, "that mistake would make %s wrong too, but with other numbers than "
                     "these (%s)", first, said);
        else
            snprintf(v->msg, sizeof v->msg, "that mistake would make %s wrong first (%s), not %s (%s)", first,
                     where, bug->matrix, said);
    }
    free(muts);
}
