/*
 * session_progress.c - a session's progress in the store (progress.h):
 * taken in when the session starts keeping it, saved after each change of
 * an exercise or of the screen.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "progress.h"
#include "session_internal.h"

void session_exercise_key(const Lesson *l, int idx, char *buf, size_t size)
{
    const LessonExercise *target = lesson_exercise_at(l, idx);
    int seen = 0, i = 0;
    if (!target) {
        snprintf(buf, size, "#%d", idx);
        return;
    }
    /* the same answer earlier in the lesson makes this one #2, #3, ... */
    i = 0;
    for (int k = 0; k < lesson_n_steps(l); k++) {
        const LessonStep *st = lesson_step(l, k);
        for (int e = 0; e < st->n_exercises; e++, i++)
            if (i < idx && strcmp(st->exercises[e].answer, target->answer) == 0)
                seen++;
    }
    if (seen)
        snprintf(buf, size, "%s#%d", target->answer, seen + 1);
    else
        snprintf(buf, size, "%s", target->answer);
}

void session_lesson_progress(const Lesson *l, const ProgressLesson *rec, int *solved, int *answered, int *total)
{
    *solved = *answered = *total = 0;
    char key[PROGRESS_KEY_MAX];
    for (int k = 0, idx = 0; k < lesson_n_steps(l); k++)
        for (int e = 0; e < lesson_step(l, k)->n_exercises; e++, idx++) {
            (*total)++;
            session_exercise_key(l, idx, key, sizeof key);
            const ProgressExercise *p = progress_find_exercise(rec, key, lesson_exercise_at(l, idx)->question);
            *solved += p && p->status == PROG_RIGHT;
            *answered += p && (p->status == PROG_RIGHT || p->status == PROG_REVEALED);
        }
}

static ExerciseStatus from_store(ProgressStatus p)
{
    return p == PROG_RIGHT ? EX_RIGHT : p == PROG_REVEALED ? EX_REVEALED : p == PROG_TRIED ? EX_TRIED : EX_UNANSWERED;
}

static ProgressStatus to_store(ExerciseStatus e)
{
    return e == EX_RIGHT ? PROG_RIGHT : e == EX_REVEALED ? PROG_REVEALED : e == EX_TRIED ? PROG_TRIED : PROG_UNANSWERED;
}

/* The answers as they were judged, and the last one shown as it was. */
static void restore_history(ExerciseState *e, const ProgressExercise *p)
{
    e->n_history = 0;
    for (int h = 0; h < p->n_hist && h < ANSWER_HISTORY_MAX; h++) {
        AnswerRecord *r = &e->history[e->n_history];
        memset(r, 0, sizeof *r);
        if (verdict_from_word(p->hist[h].verdict, &r->verdict) != 0)
            continue;
        snprintf(r->typed, sizeof r->typed, "%s", p->hist[h].typed);
        snprintf(r->diagnosis, sizeof r->diagnosis, "%s", p->hist[h].diagnosis);
        snprintf(r->msg, sizeof r->msg, "%s", p->hist[h].msg);
        r->when = p->hist[h].when;
        e->n_history++;
    }
    if (e->n_history) {
        const AnswerRecord *last = &e->history[e->n_history - 1];
        memset(&e->judged, 0, sizeof e->judged);
        e->judged.verdict = last->verdict;
        snprintf(e->judged.diagnosis, sizeof e->judged.diagnosis, "%s", last->diagnosis);
        snprintf(e->judged.msg, sizeof e->judged.msg, "%s", last->msg);
        snprintf(e->last, sizeof e->last, "%s", last->typed);
    }
}

static void store_history(ProgressExercise *p, const ExerciseState *e)
{
    p->n_hist = 0;
    for (int h = 0; h < e->n_history && h < PROGRESS_HISTORY_MAX; h++) {
        ProgressAnswer *a = &p->hist[p->n_hist++];
        const AnswerRecord *r = &e->history[h];
        snprintf(a->typed, sizeof a->typed, "%s", r->typed);
        snprintf(a->verdict, sizeof a->verdict, "%s", verdict_word(r->verdict));
        snprintf(a->diagnosis, sizeof a->diagnosis, "%s", r->diagnosis);
        snprintf(a->msg, sizeof a->msg, "%s", r->msg);
        a->when = r->when;
    }
}

/* The hunt of this seed in rec, taken in (a bug hunt: session_bug.c). */
static void take_in_hunt(Session *s, const ProgressLesson *rec)
{
    BugHunt *h = s->hunt;
    const ProgressBug *b = h ? progress_find_bug(rec, h->bug.seed) : NULL;
    if (!b || strcmp(b->kind, h->bug.kind) != 0 || strcmp(b->matrix, h->bug.matrix) != 0)
        return;     /* another bug under this seed (the lesson changed): afresh */
    /* the store's statuses are the stages, in order: one list, checked */
    _Static_assert(HUNT_LOOKING == 0 && HUNT_MATRIX == 1 && HUNT_REVEALED == 2 && HUNT_FOUND == PROGRESS_BUG_FOUND,
                   "a hunt's stages are the progress store's statuses");
    h->stage = (HuntStage)b->status;
    h->matrix_tries = b->matrix_tries;
    h->kind_tries = b->kind_tries;
    h->fix_shown = b->status == HUNT_REVEALED;
}

/* The hunt as the store keeps it. */
static void hunt_record(const Session *s, ProgressBug *out)
{
    const BugHunt *h = s->hunt;
    memset(out, 0, sizeof *out);
    out->seed = h->bug.seed;
    out->status = (int)h->stage;
    out->matrix_tries = h->matrix_tries;
    out->kind_tries = h->kind_tries;
    snprintf(out->kind, sizeof out->kind, "%s", h->bug.kind);
    snprintf(out->matrix, sizeof out->matrix, "%s", h->bug.matrix);
}

int session_keep_progress(Session *s, const char *dir)
{
    free(s->progress_dir);
    s->progress_dir = strdup(dir);
    s->progress_warning[0] = '\0';
    ProgressLesson *recs;
    int n;
    int rc = progress_load(dir, &recs, &n, s->progress_warning, sizeof s->progress_warning);
    const ProgressLesson *mine = rc == 0 ? progress_find(recs, n, lesson_title(s->lesson)) : NULL;
    if (mine && s->hunt) {
        /* a bug hunt: its own record; the lesson's place and exercises
         * are the lesson's, not the hunt's */
        take_in_hunt(s, mine);
    } else if (mine) {
        char key[PROGRESS_KEY_MAX];
        for (int i = 0; i < s->n_ex; i++) {
            session_exercise_key(s->lesson, i, key, sizeof key);
            const ProgressExercise *p = progress_find_exercise(mine, key, lesson_exercise_at(s->lesson, i)->question);
            if (!p)
                continue;
            ExerciseState *e = &s->ex[i];
            e->status = from_store(p->status);
            e->attempts = p->attempts;
            e->hints_shown = p->hints;
            e->first_try = p->first_try;
            restore_history(e, p);
        }
        /* back to the step last seen */
        int found = 0;
        for (int k = 0; k < lesson_n_steps(s->lesson); k++)
            if (progress_same_key(mine->last_step, lesson_step(s->lesson, k)->title)) {
                s->screen = k + s->has_setup;
                found = 1;
            }
        /* a step renamed since: the same number */
        if (!found && mine->last_step[0] && mine->step_number >= 1 && mine->step_number <= lesson_n_steps(s->lesson))
            s->screen = mine->step_number - 1 + s->has_setup;
        s->finished = mine->finished;
    }
    progress_free(recs, n);
    return rc;
}

const char *session_progress_warning(const Session *s) { return s->progress_warning; }
int session_save_failures(const Session *s) { return s->save_failures; }
int session_save_notes(const Session *s) { return s->save_failures + s->save_warnings; }

void session_defer_step_saves(Session *s, int on)
{
    s->defer_step_saves = on;
    if (!on)
        session_save_pending(s);
}

void session_save_pending(Session *s)
{
    if (s->step_save_pending)
        session_save_progress(s, s->step_save_pending == 2);
}

void session_save_progress(Session *s, int durable)
{
    /* the record holds the screen too: a move waiting to be saved is in it */
    durable = durable || s->step_save_pending == 2;
    s->step_save_pending = 0;
    if (!s->progress_dir)
        return;
    ProgressLesson rec;
    memset(&rec, 0, sizeof rec);
    snprintf(rec.lesson, sizeof rec.lesson, "%s", lesson_title(s->lesson));
    const LessonStep *st = session_step(s);
    snprintf(rec.last_step, sizeof rec.last_step, "%s", st ? st->title : "");
    rec.step_number = session_step_number(s);
    rec.finished = s->finished;
    rec.ex = calloc((size_t)(s->n_ex > 0 ? s->n_ex : 1), sizeof *rec.ex);
    if (!rec.ex)
        return;
    ProgressBug hunt;
    if (s->hunt) {
        /* the hunt alone: the lesson's own record stays as it is */
        rec.step_number = PROGRESS_STEP_KEPT;
        rec.finished = 0;
        hunt_record(s, &hunt);
        hunt.when = (long long)time(NULL);
        rec.bugs = &hunt;
        rec.n_bugs = 1;
    }
    for (int i = 0; i < s->n_ex && !s->hunt; i++) {
        session_exercise_key(s->lesson, i, rec.ex[i].key, sizeof rec.ex[i].key);
        snprintf(rec.ex[i].question, sizeof rec.ex[i].question, "%s", lesson_exercise_at(s->lesson, i)->question);
        rec.ex[i].status = to_store(s->ex[i].status);
        rec.ex[i].attempts = s->ex[i].attempts;
        rec.ex[i].hints = s->ex[i].hints_shown;
        rec.ex[i].first_try = s->ex[i].first_try;
        store_history(&rec.ex[i], &s->ex[i]);
    }
    rec.n_ex = s->hunt ? 0 : s->n_ex;
    char warn[600];
    int rc = progress_save(s->progress_dir, &rec, durable, warn, sizeof warn);
    if (rc != 0) {
        /* said every time, never in silence: the screen shows it and attn
         * exits with 1 (session_save_failures) */
        s->save_failures++;
        snprintf(s->progress_warning, sizeof s->progress_warning, "%s", warn);
    } else if (warn[0]) {
        snprintf(s->progress_warning, sizeof s->progress_warning, "%s", warn);
        s->save_warnings++;
    }
    free(rec.ex);
}

int session_keep_default_progress(Session *s)
{
    char dir[1024];
    const char *state = progress_dir(dir, sizeof dir);
    return state ? session_keep_progress(s, state) : 1;
}
