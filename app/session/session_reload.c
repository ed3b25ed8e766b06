/*
 * session_reload.c - live reload of a session's lesson file (see
 * session_reload in session.h): the stamps of the file and of the data
 * files its load() calls read are checked; a changed, good version
 * replaces the lesson, finding the person's step again by its
 * title, carrying exercise states over by question (verdicts as they were
 * given: nothing is judged again) and keeping the edits that still apply;
 * a refused version changes nothing and keeps its error. Which data files
 * are watched is session_life.c's (session_watch_data), set when a
 * lesson is opened.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "lessonfile.h"
#include "session_internal.h"

/* Has a watched data file changed since it was stamped? */
static int data_changed(const Session *s)
{
    for (int i = 0; i < s->n_data; i++) {
        FileStamp now = file_stamp(s->data[i].path);
        if (!file_stamp_same(&now, &s->data[i].stamp))
            return 1;
    }
    return 0;
}

/* After a refused version: watch the files it loads (it may be refused
 * because one is missing or bad), so fixing one is noticed too. */
static void watch_refused(Session *s)
{
    LessonError err;
    Lesson *probe = lessonfile_load(s->path, &err);
    session_watch_data(s, probe ? probe : s->lesson);
    lesson_free(probe);
}


/* The exercise of l with this step title and question, or -1. */
static int find_exercise(const Lesson *l, const char *title, const char *question)
{
    int idx = 0;
    for (int i = 0; i < lesson_n_steps(l); i++) {
        const LessonStep *st = lesson_step(l, i);
        for (int k = 0; k < st->n_exercises; k++, idx++)
            if (strcmp(st->title, title) == 0 && strcmp(st->exercises[k].question, question) == 0)
                return idx;
    }
    return -1;
}

/* The exercise states for lesson l (n_new exercises), carried over from
 * the session's lesson by step title and question. */
static ExerciseState *carry_exercises(const Session *s, const Lesson *l, int n_new)
{
    ExerciseState *ex = calloc((size_t)(n_new > 0 ? n_new : 1), sizeof *ex);
    if (!ex)
        return NULL;
    int idx = 0;
    for (int i = 0; i < lesson_n_steps(l); i++) {
        const LessonStep *st = lesson_step(l, i);
        for (int k = 0; k < st->n_exercises; k++, idx++) {
            int old = find_exercise(s->lesson, st->title, st->exercises[k].question);
            if (old < 0)
                continue;
            ex[idx] = s->ex[old];
            if (ex[idx].hints_shown > st->exercises[k].n_hints)
                ex[idx].hints_shown = st->exercises[k].n_hints;
        }
    }
    return ex;
}

/* The screen of l showing the step titled title, or -1. */
static int find_screen(const Lesson *l, const char *title)
{
    for (int i = 0; i < lesson_n_steps(l); i++)
        if (strcmp(lesson_step(l, i)->title, title) == 0)
            return i + (lesson_n_setup(l) > 0);
    return -1;
}

static void reload_refused(Session *s, const LessonError *err)
{
    char buf[2048];
    term_lesson_error(err, buf, sizeof buf);
    size_t n = strlen(buf);
    while (n > 0 && buf[n - 1] == '\n')
        buf[--n] = '\0';
    free(s->reload_error);
    s->reload_error = strdup(buf);
}

unsigned session_reload(Session *s, int by_hand)
{
    if (!s->path)
        return SESSION_NOTHING;
    FileStamp now = file_stamp(s->path);
    if (!by_hand && file_stamp_same(&now, &s->stamp) && !data_changed(s))
        return SESSION_NOTHING;
    s->stamp = now;     /* tried once per version: a bad one is not re-read */
    LessonError err;
    Lesson *l;
    LessonState *bare;
    int n_errs;
    session_read_lesson(s->path, &l, &bare, &err, 1, &n_errs);
    LessonEdit *kept = bare ? malloc((size_t)(s->n_edits > 0 ? s->n_edits : 1) * sizeof *kept) : NULL;
    int n_ex = l ? lesson_n_exercises(l) : 0;
    ExerciseState *ex = kept ? carry_exercises(s, l, n_ex) : NULL;
    if (!ex) {
        if (bare) {
            memset(&err, 0, sizeof err);
            snprintf(err.file, sizeof err.file, "%s", s->path);
            snprintf(err.msg, sizeof err.msg, "out of memory");
        }
        reload_refused(s, &err);
        watch_refused(s);
        lesson_state_free(bare);
        lesson_free(l);
        free(kept);
        return session_say(s, SESSION_RELOAD_FAILED, "%s still has an error: the last good version stays", s->path);
    }
    if (s->n_edits > 0)
        memcpy(kept, s->edits, (size_t)s->n_edits * sizeof *kept);
    int n_kept = edits_still_apply(kept, s->n_edits, bare);
    LessonState *st = bare;
    if (n_kept > 0) {
        st = lesson_eval(l, kept, n_kept, &err);
        if (!st) {
            lesson_state_free(bare);
            reload_refused(s, &err);
            watch_refused(s);
            free(kept);
            free(ex);
            lesson_free(l);
            return session_say(s, SESSION_RELOAD_FAILED, "%s still has an error: the last good version stays", s->path);
        }
    }
    /* where the person was: the same step by title, else the same number */
    const LessonStep *old = session_step(s);
    int screen = old ? find_screen(l, old->title) : -1;
    if (screen < 0) {
        int step = s->screen - s->has_setup;    /* -1: the set-up screen */
        screen = step < 0 ? 0 : step + (lesson_n_setup(l) > 0);
    }
    s->reload_dropped = s->n_edits - n_kept;
    if (s->reload_dropped > 0)
        session_undo_clear(s);
    session_set_state(s, NULL);
    session_set_asked(s, NULL);     /* the old lesson's judge goes with it */
    lesson_free(s->lesson);
    free(s->edits);
    free(s->ex);
    free(s->reload_error);
    s->reload_error = NULL;
    s->lesson = l;
    session_set_asked(s, bare);
    session_set_state(s, st);
    s->edits = kept;
    s->n_edits = s->cap_edits = n_kept;
    if (s->cap_edits == 0) {
        free(kept);
        s->edits = NULL;
    }
    s->ex = ex;
    s->n_ex = n_ex;
    session_watch_data(s, l);
    s->has_setup = lesson_n_setup(l) > 0;
    s->screen = 0;
    session_go(s, screen);
    if (s->reload_dropped > 0)
        return session_say(s, SESSION_LESSON | SESSION_VALUES | SESSION_SCREEN,
                   "reloaded %s; %d edit%s dropped: %s no longer an input cell there", s->path, s->reload_dropped,
                   s->reload_dropped == 1 ? "" : "s", s->reload_dropped == 1 ? "its cell is" : "their cells are");
    return session_say(s, SESSION_LESSON | SESSION_VALUES | SESSION_SCREEN, "reloaded %s", s->path);
}

const char *session_reload_error(const Session *s) { return s->reload_error; }
int session_reload_dropped(const Session *s) { return s->reload_dropped; }
