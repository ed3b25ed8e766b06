/*
 * session_exercises.h - the exercises of an opened lesson
 * (session_exercises.c): answers judged against the lesson as written,
 * hints, reveals, the verdicts kept. Included through session.h.
 */
#ifndef ATTN_SESSION_EXERCISES_H
#define ATTN_SESSION_EXERCISES_H

#include "lesson.h"
#include "teach.h"

typedef struct Session Session;

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
/* Judge typed as an answer to exercise number n (1-based over the whole
 * lesson, as attn grade numbers them) the way a screen showing `decimals`
 * decimals judges it (0: 4), against the lesson as written, with the
 * session's one judge; nothing of the session changes (a class's answers,
 * judged by the instructor's session). 0, or -1 when there is no such
 * exercise or no memory to judge. */
int session_judge_number(Session *s, int n, const char *typed, int decimals, Judgement *out);
unsigned session_answer_shown(Session *s, int k, const char *typed, int decimals);
/* Show the next hint of exercise k (a solved one shows its hints too; a
 * revealed one has its worked answer, and refuses). */
unsigned session_hint(Session *s, int k);
/* When knobs are moved from the lesson's values and exercise k of this step
 * gives another value at them: "asked at T = 1; the knob is at 1.3" into
 * buf, and 1; else 0 (a cache's size at any h is the one asked). */
int session_asked_note(const Session *s, int k, char *buf, size_t size);
/* The lesson as written: its knobs at their file values, no edits (what
 * exercises are judged against). */
const LessonState *session_asked_state(const Session *s);
/* Give up on exercise k: it is revealed and counts as not solved. */
unsigned session_reveal(Session *s, int k);
/* A class closed exercise n (1-based, in the lesson): unless it is solved
 * it is revealed, its value shown in every pane, as a teacher gives it
 * when the question closes. SESSION_EXERCISE when it changed, else 0. */
unsigned session_close_number(Session *s, int n);
/* What giving up on exercise k would do, the one rule of it (the screen
 * words it with its keys): it may be revealed, it is already, it is
 * solved (nothing to give up), or there is no such exercise. */
typedef enum { REVEAL_NO_EXERCISE, REVEAL_OFFERED, REVEAL_SHOWN, REVEAL_SOLVED } RevealOffer;
RevealOffer session_reveal_offer(const Session *s, int k);
/* Exercises of the whole lesson: how many, and how many solved (right
 * without being revealed first). */
void session_progress(const Session *s, int *solved, int *total);
/* Is name[row,col] kept as '?' now: exercise asked of the current step, or
 * one after it not yet reached (on this step or a later one; on the set-up
 * every one), is still open (unanswered or tried) and hides it. An
 * exercise passed over (behind the one asked) hides nothing: a cell is
 * hidden only while its exercise is open. The number of the first
 * exercise that hides it (as the screen numbers them, from 1 through the
 * lesson), or 0. */
int session_cell_hidden(const Session *s, int asked, const char *name, int row, int col);
/* How the lesson went, for the summary at its end: exercises right at the
 * first attempt, right later (after hints or tries), revealed, left open. */
void session_summary(const Session *s, int *first_time, int *later, int *revealed, int *open);

#endif
