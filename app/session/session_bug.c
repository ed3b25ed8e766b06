/*
 * session_bug.c - find the bug in an opened lesson (session_bug.h): the
 * bug planted once by its seed, the values shown with it (redone when the
 * edits or the file change), each guess judged by the engine, counted and
 * saved with the lesson's progress.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session.h"
#include "session_internal.h"

#include "numfmt.h"

static void drop_shown(Session *s)
{
    lesson_state_free(s->hunt_shown);
    s->hunt_shown = NULL;
}

void session_bug_drop(Session *s)
{
    drop_shown(s);
    if (s->hunt)
        lesson_bug_free(&s->hunt->bug);
    free(s->hunt);
    s->hunt = NULL;
}

unsigned session_plant_bug(Session *s, unsigned seed)
{
    LessonError err;
    LessonBug bug;
    if (lesson_bug_plant(s->lesson, s->asked, seed, &bug, &err) != 0)
        return session_say(s, SESSION_REFUSED, "%s", err.msg);
    session_bug_drop(s);
    s->hunt = calloc(1, sizeof *s->hunt);
    if (!s->hunt) {
        lesson_bug_free(&bug);
        return session_say(s, SESSION_REFUSED, "out of memory");
    }
    s->hunt->bug = bug;
    s->hunt_lesson_gen = s->lesson_gen;
    s->hunt_values_gen = s->values_gen - 1;     /* shown: made when first asked */
    return session_say(s, SESSION_VALUES, "a bug is planted (seed %u): find the first wrong matrix", seed);
}

const BugHunt *session_bug(const Session *s) { return s->hunt; }

/* The file was read again: the same seed in the new lesson. A different
 * bug starts the hunt again. */
static void replant(Session *s)
{
    BugHunt *h = s->hunt;
    LessonError err;
    LessonBug bug;
    s->hunt_lesson_gen = s->lesson_gen;
    if (lesson_bug_plant(s->lesson, s->asked, h->bug.seed, &bug, &err) != 0) {
        /* the lesson as it is now has nothing to plant: it is shown right */
        session_say(s, 0, "the lesson as reloaded has no bug for seed %u: %s", h->bug.seed, err.msg);
        session_bug_drop(s);
        return;
    }
    if (strcmp(bug.kind, h->bug.kind) != 0 || strcmp(bug.matrix, h->bug.matrix) != 0
        || strcmp(bug.planted, h->bug.planted) != 0) {
        h->stage = HUNT_LOOKING;
        h->guessed = h->fix_shown = 0;
    }
    lesson_bug_free(&h->bug);
    h->bug = bug;
}

const LessonState *session_shown_state(Session *s)
{
    if (!s->hunt)
        return s->state;
    if (s->hunt_lesson_gen != s->lesson_gen)
        replant(s);
    if (!s->hunt)
        return s->state;
    if (s->hunt_values_gen != s->values_gen) {
        s->hunt_values_gen = s->values_gen;
        s->hunt_stale = 0;
        if (s->n_edits == 0) {
            drop_shown(s);      /* the bug's own state */
        } else {
            LessonError err;
            LessonState *st = lesson_bug_eval(s->lesson, &s->hunt->bug, s->edits, s->n_edits, &err);
            if (st) {
                drop_shown(s);
                s->hunt_shown = st;
            } else {
                s->hunt_stale = 1;      /* the screen says the numbers are older */
            }
        }
    }
    return s->hunt_shown ? s->hunt_shown : s->hunt->bug.state;
}

int session_bug_stale(const Session *s) { return s->hunt && s->hunt_stale; }

static void keep_guess(BugHunt *h, const char *typed, const BugVerdict *v)
{
    snprintf(h->guess, sizeof h->guess, "%s", typed);
    h->verdict = *v;
    h->guessed = 1;
}

unsigned session_bug_point(Session *s, const char *name)
{
    BugHunt *h = s->hunt;
    if (!h)
        return session_say(s, SESSION_REFUSED, "no bug is planted here");
    if (h->stage == HUNT_REVEALED)
        return session_say(s, SESSION_NOTHING, "the hunt is over: the fix is shown (v)");
    if (h->stage != HUNT_LOOKING)
        return session_say(s, SESSION_NOTHING, "the first wrong matrix is found already: %s", h->bug.matrix);
    BugVerdict v;
    lesson_bug_judge_matrix(s->lesson, s->asked, &h->bug, name, &v);
    if (v.right < 0)
        return session_say(s, SESSION_REFUSED, "%s", v.msg);
    if (h->matrix_tries < PROGRESS_COUNT_MAX)
        h->matrix_tries++;
    keep_guess(h, name, &v);
    if (v.right)
        h->stage = HUNT_MATRIX;
    session_save_progress(s, 1);
    return session_say(s, SESSION_EXERCISE, "%s", v.msg);
}

unsigned session_bug_name(Session *s, const char *text)
{
    BugHunt *h = s->hunt;
    if (!h)
        return session_say(s, SESSION_REFUSED, "no bug is planted here");
    if (h->stage == HUNT_LOOKING)
        return session_say(s, SESSION_REFUSED, "first point at the first wrong matrix; then name the mistake");
    if (h->stage == HUNT_FOUND)
        return session_say(s, SESSION_NOTHING, "the mistake is named already: %s", h->bug.kind);
    if (h->stage != HUNT_MATRIX)
        return session_say(s, SESSION_NOTHING, "the hunt is over: the fix is shown (v)");
    BugVerdict v;
    lesson_bug_judge_kind(s->lesson, s->asked, &h->bug, text, &v);
    if (v.right < 0)
        return session_say(s, SESSION_REFUSED, "%s", v.msg);
    if (h->kind_tries < PROGRESS_COUNT_MAX)
        h->kind_tries++;
    keep_guess(h, lesson_bug_kind_named(text), &v);
    if (v.right)
        h->stage = HUNT_FOUND;
    session_save_progress(s, 1);
    return session_say(s, SESSION_EXERCISE, "%s", v.msg);
}

unsigned session_bug_show_fix(Session *s)
{
    BugHunt *h = s->hunt;
    if (!h)
        return session_say(s, SESSION_REFUSED, "no bug is planted here");
    h->fix_shown = 1;
    if (h->stage == HUNT_LOOKING || h->stage == HUNT_MATRIX) {
        h->stage = HUNT_REVEALED;
        session_save_progress(s, 1);
    }
    return session_say(s, SESSION_EXERCISE, "the fix: %s", h->bug.written);
}

Mat *session_bug_as_written(Session *s, const char *name)
{
    const LessonState *shown = session_shown_state(s);
    if (!s->hunt)
        return NULL;
    LessonError err;
    return lesson_bug_as_written(s->lesson, shown, name, &err);
}

char *session_text_shown(Session *s, const char *text)
{
    return lesson_bug_text(session_asked_state(s), s->hunt ? &s->hunt->bug : NULL, text ? text : "");
}

Mat *session_bug_explain(Session *s, const char *name, int row, int col, int decimals, Explanation *ex,
                         AttnError *err)
{
    const Mat *shown = lesson_state_get(session_shown_state(s), name);
    Mat *written = session_bug_as_written(s, name);
    if (!written || !shown) {
        mat_free(written);
        attn_fail(err, ATTN_E_ARG, "the lesson has no matrix %s", name);
        return NULL;
    }
    if (explain_cell_digits(ex, written, row, col, decimals, err) != ATTN_OK || !ex->text) {
        mat_free(written);
        return NULL;
    }
    /* A computed cell: the arithmetic as written, its result left to the
     * student beside the number the pane shows; an input is what it holds. */
    char *last = strrchr(ex->text, '\n');
    if (written != shown && last && row < shown->rows && col < shown->cols) {
        char num[64], tail[160];
        num_format(num, sizeof num, mat_get(shown, row, col), decimals, 0);
        snprintf(tail, sizeof tail, "\n= ? (work it out: the pane shows %s)", num);
        size_t keep = (size_t)(last - ex->text);
        char *text = malloc(keep + strlen(tail) + 1);
        if (text) {
            memcpy(text, ex->text, keep);
            strcpy(text + keep, tail);
            free(ex->text);
            ex->text = text;
        }
    }
    return written;
}
