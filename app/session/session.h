/*
 * session.h - one opened lesson and everything a person does with it: the
 * parsed lesson, its evaluated state, the user's edits (with undo, and a
 * reset that can itself be undone), the exercise states (unanswered, tried,
 * right, revealed; attempts and hints shown), the current screen, and live
 * reload of the file. The screen, `attn run` and `attn check` all open
 * lessons here; nothing here draws or prints.
 *
 * Every action is a function that returns what changed (SessionChange bits)
 * and leaves a one-line message for the person (session_message): what was
 * done, or why it was refused.
 *
 * Screens are numbered from 0; when the lesson defines names before its
 * first step, screen 0 is the set-up screen and step k is screen k + 1.
 *
 * Ownership: session_open* return a Session the caller frees with
 * session_free (NULL is fine). Everything got from a session belongs to it
 * and lives until the next action that reports SESSION_VALUES or
 * SESSION_LESSON.
 */
#ifndef ATTN_SESSION_H
#define ATTN_SESSION_H

#include <stddef.h>

#include "lesson.h"
#include "progress.h"

typedef enum {
    SESSION_NOTHING  = 0,
    SESSION_SCREEN   = 1 << 0,  /* the current screen changed                 */
    SESSION_VALUES   = 1 << 1,  /* re-evaluated: the matrices are new         */
    SESSION_EXERCISE = 1 << 2,  /* an exercise's state changed                */
    SESSION_LESSON   = 1 << 3,  /* a new version of the file was read         */
    SESSION_REFUSED  = 1 << 4,  /* the action was refused: see the message    */
    SESSION_RELOAD_FAILED = 1 << 5 /* the file changed but its new version is
                                      refused: see session_reload_error       */
} SessionChange;


typedef struct Session Session;

/* The session's parts, each with its header: */
#include "session_exercises.h"
#include "session_knobs.h"
#include "session_progress.h"
#include "session_bug.h"


/* Read, parse and evaluate the lesson at path, and watch it for reload.
 * NULL and err when it cannot be read or is refused. */
Session *session_open(const char *path, LessonError *err);
/* The same, with every error the parser can find of the file
 * (lesson_parse_all) when it is refused: up to max into errs, how many in
 * *n_errs (0 on success; 1 for an error of reading or evaluation). */
Session *session_open_all(const char *path, LessonError *errs, int max, int *n_errs);
/* The same from text in memory (name is used in errors); no reload. */
Session *session_open_text(const char *text, size_t len, const char *name, LessonError *err);
/* A session of a lesson already parsed (its loader set by the caller: a
 * class's lesson reads the files the class sent). Takes l, also on
 * failure. No file is watched. */
Session *session_open_lesson(Lesson *l, LessonError *err);
void session_free(Session *s);

const Lesson *session_lesson(const Session *s);
const LessonState *session_state(const Session *s);
const char *session_path(const Session *s);        /* NULL: opened from text */
/* The message of the last action ("" when it had none). */
const char *session_message(const Session *s);

/* ---- screens ---- */
int session_n_screens(const Session *s);
int session_screen(const Session *s);
int session_has_setup(const Session *s);
/* The step shown, or NULL on the set-up screen. */
const LessonStep *session_step(const Session *s);
/* Its number as the handout numbers steps (1 .. lesson_n_steps; the
 * set-up screen is not a step), or 0 on the set-up screen. */
int session_step_number(const Session *s);
/* Go to screen i (clamped to the lesson). */
unsigned session_go(Session *s, int screen);

/* ---- edits of input cells ---- */
/* May the user edit name[row,col]? The one rule: the matrix is an input of
 * the lesson (a literal or randn, not computed) and the cell is inside it.
 * 0 with why in buf (when buf) otherwise. */
int session_editable(const LessonState *st, const char *name, int row, int col, char *why, size_t size);
/* Set name[row,col] to value; everything downstream follows. Refused (the
 * state unchanged) when the rule says no or the evaluation fails. */
unsigned session_edit(Session *s, const char *name, int row, int col, float value);
/* The same with text typed by the user: a number, or an expression of the
 * language giving one number ("E[1,1] * 2"). */
unsigned session_edit_text(Session *s, const char *name, int row, int col, const char *text);
/* Undo the last edit, or the last reset (its edits come back). */
unsigned session_undo(Session *s);
/* Drop every edit: the lesson's own values again. Undo brings them back. */
unsigned session_reset(Session *s);
int session_n_edits(const Session *s);
const LessonEdit *session_edits(const Session *s);
int session_is_edited(const Session *s, const char *name, int row, int col);
/* Keep, in order, the edits that still apply to state st (the rule of
 * session_editable). Works in place; returns how many are kept (they are
 * edits[0..kept-1]). Pure. */
int edits_still_apply(LessonEdit *edits, int n, const LessonState *st);

#endif
