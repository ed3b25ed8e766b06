/*
 * session_life.c - a session's life as a whole: opened (the lesson read,
 * evaluated, its data files watched), moved from screen to screen (the
 * step reached saved), freed (a pending save made first). The parts it
 * sets going live in their own files (session_reload.c, session_progress.c);
 * session.c is the state they all share and calls none of them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filestamp.h"
#include "lessonfile.h"
#include "session.h"
#include "session_internal.h"

void session_watch_data(Session *s, const Lesson *l)
{
    for (int i = 0; i < s->n_data; i++)
        free(s->data[i].path);
    free(s->data);
    s->data = NULL;
    s->n_data = 0;
    int n = l && s->path ? lesson_n_loads(l) : 0;
    if (n == 0 || !(s->data = calloc((size_t)n, sizeof *s->data)))
        return;
    for (int i = 0; i < n; i++) {
        char full[4096];
        lessonfile_data_path(s->path, lesson_load_path(l, i), full, sizeof full);
        if (!(s->data[i].path = strdup(full)))
            break;
        s->data[i].stamp = file_stamp(full);
        s->n_data = i + 1;
    }
}

/* Take ownership of a parsed, evaluated lesson. NULL when out of memory
 * (l and st are then freed). */
static Session *adopt(Lesson *l, LessonState *st, LessonError *err)
{
    Session *s = calloc(1, sizeof *s);
    int n_ex = lesson_n_exercises(l);
    ExerciseState *ex = calloc((size_t)(n_ex > 0 ? n_ex : 1), sizeof *ex);
    if (!s || !ex) {
        free(s);
        free(ex);
        lesson_state_free(st);
        lesson_free(l);
        memset(err, 0, sizeof *err);
        err->code = ATTN_E_NOMEM;
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    s->lesson = l;
    s->state = s->asked = st;
    s->ex = ex;
    s->n_ex = n_ex;
    s->has_setup = lesson_n_setup(l) > 0;
    return s;
}

Session *session_open(const char *path, LessonError *err)
{
    int n;
    return session_open_all(path, err, 1, &n);
}

Session *session_open_all(const char *path, LessonError *errs, int max, int *n_errs)
{
    FileStamp stamp = file_stamp(path);   /* before reading: a save after it is seen */
    Lesson *l;
    LessonState *st;
    if (session_read_lesson(path, &l, &st, errs, max, n_errs) < 0)
        return NULL;
    *n_errs = 1;    /* adopt's, if it fails */
    Session *s = adopt(l, st, errs);
    if (!s)
        return NULL;
    s->path = strdup(path);
    if (!s->path) {
        session_free(s);
        return NULL;
    }
    *n_errs = 0;
    s->stamp = stamp;
    session_watch_data(s, l);
    return s;
}

Session *session_open_lesson(Lesson *l, LessonError *err)
{
    LessonState *st = lesson_eval(l, NULL, 0, err);
    if (!st) {
        lesson_free(l);
        return NULL;
    }
    return adopt(l, st, err);
}

Session *session_open_text(const char *text, size_t len, const char *name, LessonError *err)
{
    Lesson *l = lesson_parse(text, len, name, err);
    LessonState *st = l ? lesson_eval(l, NULL, 0, err) : NULL;
    if (!st) {
        lesson_free(l);
        return NULL;
    }
    return adopt(l, st, err);
}

void session_free(Session *s)
{
    if (!s)
        return;
    session_save_pending(s);
    session_bug_drop(s);
    session_undo_clear(s);
    free(s->undo);
    free(s->edits);
    free(s->ex);
    free(s->path);
    session_watch_data(s, NULL);
    free(s->reload_error);
    free(s->progress_dir);
    session_set_state(s, NULL);
    session_set_asked(s, NULL);
    lesson_free(s->lesson);
    free(s);
}

unsigned session_go(Session *s, int screen)
{
    s->message[0] = '\0';
    int n = session_n_screens(s);
    if (screen >= n)
        screen = n - 1;
    if (screen < 0)
        screen = 0;
    if (screen == s->screen)
        return SESSION_NOTHING;
    s->screen = screen;
    int finishing = screen == n - 1 && !s->finished;
    if (screen == n - 1)
        s->finished = 1;
    /* the step a person is on, kept at every key; durably once they finish
     * (on a screen, once the frame is drawn: see session_defer_step_saves) */
    if (s->defer_step_saves)
        s->step_save_pending = s->step_save_pending == 2 || finishing ? 2 : 1;
    else
        session_save_progress(s, finishing);
    return SESSION_SCREEN;
}
