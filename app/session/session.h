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

typedef enum { EX_UNANSWERED, EX_TRIED, EX_RIGHT, EX_REVEALED } ExerciseStatus;

/* One answer as it was judged: what was typed, the verdict, its diagnosis
 * id ("" for none) and message, and when (seconds since the epoch). */
#define ANSWER_TYPED_MAX 64
typedef struct {
    char typed[ANSWER_TYPED_MAX];
    Verdict verdict;
    char diagnosis[DIAGNOSIS_ID_MAX];
    char msg[400];
    long long when;
} AnswerRecord;

/* The answers an exercise keeps (the latest; older ones drop out). */
#define ANSWER_HISTORY_MAX 16

typedef struct {
    ExerciseStatus status;  /* the best reached: right and revealed stay     */
    int attempts;           /* answers judged (a right one counted)          */
    int hints_shown;
    int first_try;          /* the first judged answer was right, no hint   */
    char last[ANSWER_TYPED_MAX]; /* the last answer as typed                */
    Judgement judged;       /* what the judge said of it (saved with it)     */
    AnswerRecord history[ANSWER_HISTORY_MAX]; /* oldest first               */
    int n_history;
} ExerciseState;

typedef struct Session Session;

/* Read, parse and evaluate the lesson at path, and watch it for reload.
 * NULL and err when it cannot be read or is refused. */
Session *session_open(const char *path, LessonError *err);
/* The same from text in memory (name is used in errors); no reload. */
Session *session_open_text(const char *text, size_t len, const char *name, LessonError *err);
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

/* ---- exercises (k counts the current step's exercises from 0) ---- */
int session_n_exercises(const Session *s);
/* Exercise k of the current step as the lesson numbers its exercises
 * (1, 2, ... in lesson order, as `attn run` and `attn grade` do), or 0. */
int session_exercise_number(const Session *s, int k);
const LessonExercise *session_exercise(const Session *s, int k);
const ExerciseState *session_exercise_state(const Session *s, int k);
/* Judge typed as the answer to exercise k (the one judge of the engine,
 * lesson_judge): against the lesson as written, whatever the knobs and
 * edits show, so nothing done later (undo, reset, reload, a knob) changes
 * the verdict, which is kept and saved as it was given. decimals: what the
 * screen shows (0: 4), for answers worked from the rounded numbers. */
unsigned session_answer(Session *s, int k, const char *typed);
unsigned session_answer_shown(Session *s, int k, const char *typed, int decimals);
/* Show the next hint of exercise k (a solved one shows its hints too). */
unsigned session_hint(Session *s, int k);
/* When knobs are moved from the lesson's values: "asked at T = 1; the knob
 * is at 1.3" into buf, and 1; else 0. */
int session_asked_note(const Session *s, char *buf, size_t size);
/* The lesson as written: its knobs at their file values, no edits (what
 * exercises are judged against). */
const LessonState *session_asked_state(const Session *s);
/* Give up on exercise k: it is revealed and counts as not solved. */
unsigned session_reveal(Session *s, int k);
/* Exercises of the whole lesson: how many, and how many solved (right
 * without being revealed first). */
void session_progress(const Session *s, int *solved, int *total);
/* Is name[row,col] kept as '?' now: an exercise of the current step that
 * is still open (unanswered or tried) hides it. */
int session_cell_hidden(const Session *s, const char *name, int row, int col);
/* How the lesson went, for the summary at its end: exercises right at the
 * first attempt, right later (after hints or tries), revealed, left open. */
void session_summary(const Session *s, int *first_time, int *later, int *revealed, int *open);

/* ---- progress (progress.h) ---- */
/* Keep this session's progress in the store in dir: what the store has
 * for this lesson is taken in (exercise states, and the screen goes to the
 * step last seen), and every later change of an exercise or the screen is
 * saved at once. 0, or -1 when the store could not be read (see
 * session_progress_warning; the session runs on, starting afresh). */
int session_keep_progress(Session *s, const char *dir);
/* The same in the default store (progress_dir: $ATTN_STATE_DIR, else under
 * $HOME); 1 when there is none to keep to. */
int session_keep_default_progress(Session *s);
/* A screen answers a key before it saves: with on, moving to another
 * screen (session_go) marks the step to be saved instead of saving it, and
 * session_save_pending saves it (the screen calls it once the frame is
 * drawn; any other save, and session_free, take it along). Off saves what
 * is pending. */
void session_defer_step_saves(Session *s, int on);
void session_save_pending(Session *s);
/* The last warning of the progress store ("" when none): the file was
 * damaged and set aside, or progress cannot be kept. */
const char *session_progress_warning(const Session *s);
/* How many saves failed (nothing was written; the old file stays), and how
 * many saves failed or warned: a screen shows the warning whenever this
 * count moves, and attn exits with 1 when any save failed. */
int session_save_failures(const Session *s);
int session_save_notes(const Session *s);
/* The key an exercise is known by in the store (its answer, #2 for a
 * second with the same answer), for exercise idx in lesson order. */
void session_exercise_key(const Lesson *l, int idx, char *buf, size_t size);
/* A lesson's progress as the menu and `attn progress` show it: its
 * exercises, and how many rec (NULL: none kept) has right. */
void session_lesson_progress(const Lesson *l, const ProgressLesson *rec, int *solved, int *total);

/* ---- knobs (lesson_knob: `knob` and `switch` lines) ---- */
/* The value knob i holds now (its default, or as the person set it); NaN
 * when there is no knob i. */
double session_knob_value(const Session *s, int i);
/* Set knob i to value, clamped to its range and snapped to its step, by an
 * edit of NAME[1,1] (so everything downstream follows and undo takes it
 * back). SESSION_NOTHING with a message when it already holds that value
 * (at an end of its range); SESSION_REFUSED when there is no knob i. */
unsigned session_knob_set(Session *s, int i, double value);
/* Move knob i one step up (dir > 0) or down (dir < 0); a switch goes on or
 * off. */
unsigned session_knob_nudge(Session *s, int i, int dir);
/* Flip a switch (a slider goes to the other end of its range). */
unsigned session_knob_toggle(Session *s, int i);
/* Parse the value text for knob k as `--set` takes it: a number, or for a
 * switch on/off/1/0. 1 and *v on success; 0 with why in buf otherwise
 * (not a number, outside the range, not on/off). */
int session_knob_parse(const LessonKnob *k, const char *text, double *v, char *why, size_t size);

/* ---- live reload ---- */
/* Read the file again if it changed since it was last read (always when
 * by_hand). A good version replaces the lesson: the screen is found again
 * by its step's title (else kept by number), the edits that still apply
 * stay, exercises keep their state by question. A refused version leaves
 * everything as it was and reports SESSION_RELOAD_FAILED; its error stays
 * in session_reload_error until a good version is read. */
unsigned session_reload(Session *s, int by_hand);
/* The last refused reload, formatted (file:line:col, line, caret), or
 * NULL. How many edits the last good reload dropped. */
const char *session_reload_error(const Session *s);
int session_reload_dropped(const Session *s);

#endif
