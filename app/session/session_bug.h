/*
 * session_bug.h - find the bug in an opened lesson (session_bug.c): one
 * classic mistake planted by a seed (lesson_bug_plant), what the screen
 * shows with it (the person's edits and knobs followed), and the hunt: the
 * first wrong matrix pointed at, then the mistake named, then the fix
 * seen; every guess judged by the engine (lesson_bug_judge_*), counted,
 * and kept in the progress store with the lesson's record. Included
 * through session.h.
 */
#ifndef ATTN_SESSION_BUG_H
#define ATTN_SESSION_BUG_H

#include "explain.h"
#include "lesson.h"
#include "teach.h"

typedef struct Session Session;

/* Where the hunt is; the order is the progress store's (better is more). */
typedef enum {
    HUNT_LOOKING,       /* the first wrong matrix not found yet            */
    HUNT_MATRIX,        /* found; the mistake not named yet                */
    HUNT_REVEALED,      /* the fix seen before the mistake was named       */
    HUNT_FOUND          /* matrix and mistake both found                   */
} HuntStage;

typedef struct {
    LessonBug bug;          /* what was planted (its state: as written)     */
    HuntStage stage;
    int matrix_tries, kind_tries; /* guesses judged, right ones included   */
    int fix_shown;          /* the fix was looked at                         */
    char guess[64];         /* the last guess, as typed                      */
    BugVerdict verdict;     /* and what the judge said of it                 */
    int guessed;            /* a guess was judged (verdict holds it)         */
} BugHunt;

/* Plant the bug of seed; from then on the session shows it. SESSION_VALUES,
 * or SESSION_REFUSED with the message (a lesson no mistake changes). The
 * hunt of this seed in the progress store, when kept, is taken in. */
unsigned session_plant_bug(Session *s, unsigned seed);
/* The hunt, or NULL when no bug is planted. */
const BugHunt *session_bug(const Session *s);
/* What the screen shows: the lesson with the bug (and the edits), or the
 * session's state when no bug is planted. Re-evaluated when the edits,
 * the knobs or the file changed. */
const LessonState *session_shown_state(Session *s);
/* 1 when the last edit or knob made the bug's statement fail to evaluate:
 * what is shown is from before it (the screen says so). */
int session_bug_stale(const Session *s);
/* The first wrong matrix is name? Judged, counted, saved. */
unsigned session_bug_point(Session *s, const char *name);
/* The mistake is text (its number in lesson_bug_kind_* or its id)? Only
 * once the matrix is found (refused before). */
unsigned session_bug_name(Session *s, const char *text);
/* Show the fix: counted as revealed when the mistake was not named yet. */
unsigned session_bug_show_fix(Session *s);
/* name's statement as written, from the numbers shown (a new matrix the
 * caller frees; NULL when there is none): what the explanation works. */
Mat *session_bug_as_written(Session *s, const char *name);
/* Enter in a hunt: name[row, col] explained by its statement as written,
 * from the numbers shown, and for a computed cell the result left to the
 * student ("= ?", beside the number the pane shows), so no explanation
 * marks where the bug is; the student finds it by working the numbers.
 * Returns the matrix ex reads (the caller frees it after ex), or NULL
 * with err. */
Mat *session_bug_explain(Session *s, const char *name, int row, int col, int decimals, Explanation *ex,
                         AttnError *err);
/* text (a step's prose, a hint) as the session shows it: in a hunt the
 * numbers it quotes are the bug's (lesson_bug_text), else as written. A
 * new string the caller frees (NULL on no memory). */
char *session_text_shown(Session *s, const char *text);

#endif
