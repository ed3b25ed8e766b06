/*
 * session_exercises.c - a session's exercises: which are on the screen and
 * their numbers, judging an answer with the engine's judge against the
 * lesson as written (and keeping the verdict, and the answer in the
 * exercise's history), hints, the worked answer, the cells an open
 * exercise hides, and the summary at the lesson's end. Saved progress is
 * session_progress.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "session_internal.h"

/* ---- exercises ---- */

/* Index into s->ex of exercise k of the current step, or -1. */
static int ex_index(const Session *s, int k)
{
    const LessonStep *st = session_step(s);
    if (!st || k < 0 || k >= st->n_exercises)
        return -1;
    int first = 0;
    for (int i = 0; i < s->screen - s->has_setup; i++)
        first += lesson_step(s->lesson, i)->n_exercises;
    return first + k;
}

int session_n_exercises(const Session *s)
{
    const LessonStep *st = session_step(s);
    return st ? st->n_exercises : 0;
}

int session_exercise_number(const Session *s, int k) { return ex_index(s, k) + 1; }

const LessonExercise *session_exercise(const Session *s, int k)
{
    return ex_index(s, k) < 0 ? NULL : &session_step(s)->exercises[k];
}

const ExerciseState *session_exercise_state(const Session *s, int k)
{
    int i = ex_index(s, k);
    return i < 0 ? NULL : &s->ex[i];
}

/* The state of exercise k for an action on it, or NULL, said why. */
static ExerciseState *acted_on(Session *s, int k)
{
    int i = ex_index(s, k);
    s->message[0] = '\0';
    if (i < 0)
        session_say(s, SESSION_REFUSED, "no exercise on this step");
    return i < 0 ? NULL : &s->ex[i];
}

/* The knobs moved from the lesson's values, in words: "T = 1.3" into now
 * and "T = 1" into asked; 0 when none is moved. */
static int moved_knobs(const Session *s, char *now, char *asked, size_t size)
{
    int n = 0;
    now[0] = asked[0] = '\0';
    for (int i = 0; i < lesson_n_knobs(s->lesson); i++) {
        const LessonKnob *k = lesson_knob(s->lesson, i);
        double v = session_knob_value(s, i);
        if ((float)v == (float)k->value)
            continue;
        char a[48], b[48];
        size_t ln = strlen(now), la = strlen(asked);
        snprintf(now + ln, size - ln, "%s%s = %s", n ? ", " : "", k->name, lesson_knob_text(k, v, a, sizeof a));
        snprintf(asked + la, size - la, "%s%s = %s", n ? ", " : "", k->name,
                 lesson_knob_text(k, k->value, b, sizeof b));
        n++;
    }
    return n;
}

int session_asked_note(const Session *s, int k, char *buf, size_t size)
{
    char now[200], asked[200];
    const LessonExercise *ex = session_exercise(s, k);
    if (!ex || !moved_knobs(s, now, asked, sizeof now))
        return 0;
    /* a value the moved knobs leave as it was is asked at any of them */
    LessonError err;
    Mat *a = lesson_eval_expr(s->asked, ex->answer, &err), *b = lesson_eval_expr(s->state, ex->answer, &err);
    int same = a && b && a->rows == 1 && a->cols == 1 && b->rows == 1 && b->cols == 1
               && mat_get(a, 0, 0) == mat_get(b, 0, 0);
    mat_free(a);
    mat_free(b);
    if (same)
        return 0;
    if (strchr(now, ',')) {
        snprintf(buf, size, "asked at %s; the knobs are at %s", asked, now);
    } else {
        const char *value = strstr(now, " = ");   /* one knob: its value */
        snprintf(buf, size, "asked at %s; the knob is at %s", asked, value ? value + 3 : now);
    }
    return 1;
}

static LessonJudge *judge_of(Session *s)
{
    if (!s->judge)
        s->judge = lesson_judge_new(s->lesson, s->asked);
    return s->judge;
}

/* Keep the answer in the exercise's history (the latest ANSWER_HISTORY_MAX). */
static void remember(ExerciseState *e, const char *typed, const Judgement *j)
{
    if (e->n_history == ANSWER_HISTORY_MAX) {
        memmove(e->history, e->history + 1, (ANSWER_HISTORY_MAX - 1) * sizeof *e->history);
        e->n_history--;
    }
    AnswerRecord *r = &e->history[e->n_history++];
    memset(r, 0, sizeof *r);
    snprintf(r->typed, sizeof r->typed, "%s", typed);
    r->verdict = j->verdict;
    snprintf(r->diagnosis, sizeof r->diagnosis, "%s", j->diagnosis);
    snprintf(r->msg, sizeof r->msg, "%s", j->msg);
    r->when = (long long)time(NULL);
}

unsigned session_answer(Session *s, int k, const char *typed) { return session_answer_shown(s, k, typed, 0); }

int session_judge_number(Session *s, int n, const char *typed, int decimals, Judgement *out)
{
    const LessonExercise *ex = lesson_exercise_at(s->lesson, n - 1);
    LessonJudge *judge = ex ? judge_of(s) : NULL;
    if (!judge)
        return -1;
    JudgeContext ctx = { .decimals = decimals };
    lesson_judge(judge, ex, typed, decimals ? &ctx : NULL, out);
    return 0;
}

unsigned session_answer_shown(Session *s, int k, const char *typed, int decimals)
{
    ExerciseState *e = acted_on(s, k);
    if (!e)
        return SESSION_REFUSED;
    LessonJudge *judge = judge_of(s);
    if (!judge)
        return session_say(s, SESSION_REFUSED, "out of memory: the answer was not judged");
    char now[200], asked[200];
    int moved = moved_knobs(s, now, asked, sizeof now);
    JudgeContext ctx = { .now = s->n_edits > 0 ? s->state : NULL, .moved = moved ? now : "", .asked = asked,
                         .decimals = decimals, .revealed = e->status == EX_REVEALED };
    Judgement j;
    lesson_judge(judge, session_exercise(s, k), typed, &ctx, &j);
    if (j.verdict == VERDICT_INVALID)
        return session_say(s, SESSION_REFUSED, "%s", j.msg);
    e->judged = j;
    snprintf(e->last, sizeof e->last, "%s", typed);
    if (e->attempts < PROGRESS_COUNT_MAX)
        e->attempts++;
    if (e->attempts == 1 && j.verdict == VERDICT_RIGHT && e->hints_shown == 0)
        e->first_try = 1;
    /* the best state reached stays: a right exercise answered wrong later
     * is still solved, a revealed one is still revealed */
    if (e->status != EX_REVEALED && e->status != EX_RIGHT)
        e->status = j.verdict == VERDICT_RIGHT ? EX_RIGHT : EX_TRIED;
    remember(e, typed, &j);
    session_save_progress(s, 1);
    return SESSION_EXERCISE;
}

unsigned session_hint(Session *s, int k)
{
    ExerciseState *e = acted_on(s, k);
    if (!e)
        return SESSION_REFUSED;
    const LessonExercise *ex = session_exercise(s, k);
    if (e->status == EX_REVEALED)
        return session_say(s, SESSION_REFUSED, "the worked answer is shown");
    if (e->hints_shown >= ex->n_hints)
        return session_say(s, SESSION_REFUSED, ex->n_hints ? "no more hints" : "this exercise has no hints");
    if (e->hints_shown < PROGRESS_COUNT_MAX)
        e->hints_shown++;
    session_save_progress(s, 1);
    return SESSION_EXERCISE;
}

unsigned session_reveal(Session *s, int k)
{
    ExerciseState *e = acted_on(s, k);
    if (!e)
        return SESSION_REFUSED;
    if (e->status == EX_RIGHT)
        return session_say(s, SESSION_REFUSED, "already solved");
    e->status = EX_REVEALED;
    session_save_progress(s, 1);
    return SESSION_EXERCISE;
}

unsigned session_close_number(Session *s, int n)
{
    if (n < 1 || n > s->n_ex)
        return 0;
    ExerciseState *e = &s->ex[n - 1];
    if (e->status == EX_RIGHT || e->status == EX_REVEALED)
        return 0;
    e->status = EX_REVEALED;
    session_save_progress(s, 1);
    return SESSION_EXERCISE;
}

RevealOffer session_reveal_offer(const Session *s, int k)
{
    const ExerciseState *e = ex_index(s, k) >= 0 ? session_exercise_state(s, k) : NULL;
    if (!e)
        return REVEAL_NO_EXERCISE;
    return e->status == EX_REVEALED ? REVEAL_SHOWN : e->status == EX_RIGHT ? REVEAL_SOLVED : REVEAL_OFFERED;
}

int session_cell_hidden(const Session *s, int asked, const char *name, int row, int col)
{
    if (s->hunt)
        return 0;       /* a bug hunt asks no exercise: every number shows */
    /* the exercises passed over (x) are behind the one asked: their cells
     * show, as the next exercise may need them; every open one ahead, on
     * this step or a later one (the set-up: all), keeps its cells: no pane
     * shows a value before it is asked */
    int first = 0;
    for (int i = 0; i < s->screen - s->has_setup; i++)
        first += lesson_step(s->lesson, i)->n_exercises;
    if (session_step(s) && asked > 0)
        first += asked;
    for (int k = first; k < s->n_ex; k++) {
        const ExerciseState *e = &s->ex[k];
        if ((e->status == EX_UNANSWERED || e->status == EX_TRIED)
            && lesson_exercise_hides(lesson_exercise_at(s->lesson, k), name, row, col))
            return k + 1;
    }
    return 0;
}


void session_summary(const Session *s, int *first_time, int *later, int *revealed, int *open)
{
    *first_time = *later = *revealed = *open = 0;
    for (int i = 0; i < s->n_ex; i++) {
        const ExerciseState *e = &s->ex[i];
        if (e->status == EX_RIGHT && e->first_try)
            (*first_time)++;
        else if (e->status == EX_RIGHT)
            (*later)++;
        else if (e->status == EX_REVEALED)
            (*revealed)++;
        else
            (*open)++;
    }
}

void session_progress(const Session *s, int *solved, int *total)
{
    *solved = 0;
    *total = s->n_ex;
    for (int i = 0; i < s->n_ex; i++)
        *solved += s->ex[i].status == EX_RIGHT;
}
