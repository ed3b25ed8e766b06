/*
 * session.c - one opened lesson and the actions on it (see session.h):
 * load-then-evaluate, the screens, the editable rule, edits with undo, and
 * the lesson as written beside the edited one. It calls none of the other
 * session files: opening, moving and freeing are session_life.c's,
 * exercises session_exercises.c's, progress session_progress.c's, knobs
 * session_knobs.c's, live reload session_reload.c's.
 */
#include "session.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "lessonfile.h"
#include "session_internal.h"
#include "strbuf.h"

unsigned session_say(Session *s, unsigned change, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->message, sizeof s->message, fmt, ap);
    va_end(ap);
    return change;
}

/* The first line of a formatted lesson error, for one-line messages. */
static void error_line(const LessonError *err, char *buf, size_t size)
{
    char full[1200];
    term_lesson_error(err, full, sizeof full);
    size_t n = strcspn(full, "\n");
    if (n >= size)
        n = size - 1;
    memcpy(buf, full, n);
    buf[n] = '\0';
}

/* Load-then-evaluate: the lesson at path, and its state without edits.
 * 0, or -1 with the errors (up to max, *n_errs of them: the parser's, or
 * the one of reading or evaluating) and nothing kept. */
int session_read_lesson(const char *path, Lesson **l, LessonState **st, LessonError *errs, int max, int *n_errs)
{
    *l = lessonfile_load_all(path, errs, max, n_errs);
    *st = *l ? lesson_eval(*l, NULL, 0, errs) : NULL;
    if (*l && !*st)
        *n_errs = 1;
    if (!*st) {
        lesson_free(*l);
        *l = NULL;
        return -1;
    }
    return 0;
}

void session_undo_clear(Session *s)
{
    for (int i = 0; i < s->n_undo; i++)
        free(s->undo[i].saved);
    s->n_undo = 0;
}

const Lesson *session_lesson(const Session *s) { return s->lesson; }
const LessonState *session_state(const Session *s) { return s->state; }
const char *session_path(const Session *s) { return s->path; }
const char *session_message(const Session *s) { return s->message; }

/* ---- screens ---- */

int session_n_screens(const Session *s) { return lesson_n_steps(s->lesson) + s->has_setup; }
int session_screen(const Session *s) { return s->screen; }
int session_has_setup(const Session *s) { return s->has_setup; }

const LessonStep *session_step(const Session *s)
{
    int i = s->screen - s->has_setup;
    return i >= 0 && i < lesson_n_steps(s->lesson) ? lesson_step(s->lesson, i) : NULL;
}

int session_step_number(const Session *s)
{
    return session_step(s) ? s->screen - s->has_setup + 1 : 0;
}

/* ---- edits ---- */

int session_editable(const LessonState *st, const char *name, int row, int col, char *why, size_t size)
{
    const Mat *m = st ? lesson_state_get(st, name) : NULL;
    const char *reason = NULL;
    char buf[200];
    if (!m) {
        snprintf(buf, sizeof buf, "there is no matrix %s to edit", name);
        reason = buf;
    } else if (m->prov.op != OP_INPUT && m->prov.op != OP_RANDN) {
        snprintf(buf, sizeof buf, "%s is computed (%s): edit one of its inputs, and it follows", name,
                 mat_op_name(m->prov.op));
        reason = buf;
    } else if (row < 0 || row >= m->rows || col < 0 || col >= m->cols) {
        snprintf(buf, sizeof buf, "%s has no cell [%d,%d]: it is %dx%d", name, row + 1, col + 1, m->rows, m->cols);
        reason = buf;
    }
    if (reason && why)
        snprintf(why, size, "%s", reason);
    return reason == NULL;
}

int edits_still_apply(LessonEdit *edits, int n, const LessonState *st)
{
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (session_editable(st, edits[i].name, edits[i].row, edits[i].col, NULL, 0))
            edits[kept++] = edits[i];
    return kept;
}

void session_set_state(Session *s, LessonState *st)
{
    if (s->state != s->asked && s->state != st)
        lesson_state_free(s->state);
    s->state = st;
    s->values_gen++;
}

void session_set_asked(Session *s, LessonState *asked)
{
    lesson_judge_free(s->judge);
    s->judge = NULL;
    if (s->state == s->asked)
        s->state = NULL;
    if (s->asked != asked)
        lesson_state_free(s->asked);
    s->asked = asked;
    if (!s->state)
        s->state = asked;
    s->lesson_gen++;
    s->values_gen++;
}

const LessonState *session_asked_state(const Session *s) { return s->asked; }

/* Evaluate with edits[0..n-1]; on success they become the session's edits
 * (copied) and the state is replaced. 0, or -1 with the error in the
 * message and nothing changed. */
static int evaluate_with(Session *s, const LessonEdit *edits, int n)
{
    if (n > s->cap_edits) {
        int cap = s->cap_edits ? s->cap_edits : 16;
        while (cap < n)
            cap *= 2;
        LessonEdit *e = realloc(s->edits, (size_t)cap * sizeof *e);
        if (!e) {
            session_say(s, 0, "out of memory: the edit was not applied");
            return -1;
        }
        s->edits = e;
        s->cap_edits = cap;
    }
    LessonError err;
    /* no edits: the lesson as written, which is kept anyway */
    LessonState *st = n == 0 ? s->asked : lesson_eval(s->lesson, edits, n, &err);
    if (!st) {
        char line[600];
        error_line(&err, line, sizeof line);
        session_say(s, 0, "the edit was not applied: %s", line);
        return -1;
    }
    if (edits != s->edits && n > 0)
        memmove(s->edits, edits, (size_t)n * sizeof *edits);
    s->n_edits = n;
    session_set_state(s, st);
    return 0;
}

static int undo_push(Session *s, int is_reset)
{
    if (s->n_undo == s->cap_undo) {
        int cap = s->cap_undo ? s->cap_undo * 2 : 16;
        UndoEntry *u = realloc(s->undo, (size_t)cap * sizeof *u);
        if (!u)
            return -1;
        s->undo = u;
        s->cap_undo = cap;
    }
    UndoEntry *u = &s->undo[s->n_undo];
    memset(u, 0, sizeof *u);
    u->is_reset = is_reset;
    if (is_reset && s->n_edits > 0) {
        u->saved = malloc((size_t)s->n_edits * sizeof *u->saved);
        if (!u->saved)
            return -1;
        memcpy(u->saved, s->edits, (size_t)s->n_edits * sizeof *u->saved);
        u->n_saved = s->n_edits;
    }
    s->n_undo++;
    return 0;
}

unsigned session_edit(Session *s, const char *name, int row, int col, float value)
{
    char why[200];
    if (!session_editable(s->state, name, row, col, why, sizeof why))
        return session_say(s, SESSION_REFUSED, "%s", why);
    LessonEdit *all = malloc((size_t)(s->n_edits + 1) * sizeof *all);
    if (!all)
        return session_say(s, SESSION_REFUSED, "out of memory: the edit was not applied");
    if (s->n_edits > 0)
        memcpy(all, s->edits, (size_t)s->n_edits * sizeof *all);
    LessonEdit *e = &all[s->n_edits];
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    e->row = row;
    e->col = col;
    e->value = value;
    int ok = undo_push(s, 0) == 0;
    if (ok && evaluate_with(s, all, s->n_edits + 1) < 0) {
        s->n_undo--;
        ok = 0;
    } else if (!ok) {
        session_say(s, 0, "out of memory: the edit was not applied");
    }
    free(all);
    if (!ok)
        return SESSION_REFUSED;
    return session_say(s, SESSION_VALUES, "%s[%d,%d] = %g; everything after it follows", name, row + 1, col + 1,
               (double)value);
}

unsigned session_edit_text(Session *s, const char *name, int row, int col, const char *text)
{
    char *end;
    float v = strtof(text, &end);
    while (*end == ' ')
        end++;
    if (end == text || *end) {
        /* not a plain number: an expression of the language */
        LessonError err;
        Mat *r = lesson_eval_expr(s->state, text, &err);
        if (!r || r->rows != 1 || r->cols != 1) {
            char quoted[64];
            unsigned c = session_say(s, SESSION_REFUSED, "'%s' is not a number%s%s",
                                     str_clip(quoted, sizeof quoted, text, 40), r ? "" : ": ", r ? "" : err.msg);
            mat_free(r);
            return c;
        }
        v = mat_get(r, 0, 0);
        mat_free(r);
    }
    return session_edit(s, name, row, col, v);
}

unsigned session_undo(Session *s)
{
    if (s->n_undo == 0)
        return session_say(s, SESSION_REFUSED, "no edits to undo");
    UndoEntry *u = &s->undo[s->n_undo - 1];
    if (u->is_reset) {
        u->n_saved = edits_still_apply(u->saved, u->n_saved, s->state);
        if (evaluate_with(s, u->saved, u->n_saved) < 0)
            return SESSION_REFUSED;
        int n = u->n_saved;
        free(u->saved);
        s->n_undo--;
        return session_say(s, SESSION_VALUES, "the reset undone: %d edit%s back", n, n == 1 ? "" : "s");
    }
    LessonEdit last = s->edits[s->n_edits - 1];
    if (evaluate_with(s, s->edits, s->n_edits - 1) < 0)
        return SESSION_REFUSED;
    s->n_undo--;
    return session_say(s, SESSION_VALUES, "undone: %s[%d,%d]", last.name, last.row + 1, last.col + 1);
}

unsigned session_reset(Session *s)
{
    if (s->n_edits == 0)
        return session_say(s, SESSION_REFUSED, "no edits to reset");
    int n = s->n_edits;
    if (undo_push(s, 1) < 0)
        return session_say(s, SESSION_REFUSED, "out of memory: nothing was reset");
    if (evaluate_with(s, NULL, 0) < 0) {
        free(s->undo[--s->n_undo].saved);
        return SESSION_REFUSED;
    }
    return session_say(s, SESSION_VALUES, "%d edit%s reset: the lesson's own values again", n, n == 1 ? "" : "s");
}

unsigned session_unedit(Session *s, const char *name, int row, int col)
{
    LessonEdit *rest = malloc((size_t)(s->n_edits > 0 ? s->n_edits : 1) * sizeof *rest);
    if (!rest)
        return session_say(s, SESSION_REFUSED, "out of memory: nothing was changed");
    int n = 0;
    for (int i = 0; i < s->n_edits; i++)
        if (!(s->edits[i].row == row && s->edits[i].col == col && strcmp(s->edits[i].name, name) == 0))
            rest[n++] = s->edits[i];
    unsigned c = SESSION_VALUES;
    if (undo_push(s, 1) < 0) {
        c = session_say(s, SESSION_REFUSED, "out of memory: nothing was changed");
    } else if (evaluate_with(s, rest, n) < 0) {
        free(s->undo[--s->n_undo].saved);
        c = SESSION_REFUSED;
    }
    free(rest);
    return c;
}

int session_n_edits(const Session *s) { return s->n_edits; }
const LessonEdit *session_edits(const Session *s) { return s->edits; }

int session_is_edited(const Session *s, const char *name, int row, int col)
{
    for (int i = 0; i < s->n_edits; i++)
        if (s->edits[i].row == row && s->edits[i].col == col && strcmp(s->edits[i].name, name) == 0)
            return 1;
    return 0;
}
