/*
 * session_internal.h - the Session struct, shared by the files that make
 * the session (session.c: the state, screens, edits; session_life.c:
 * open, go, free; session_exercises.c:
 * answers judged and kept; session_progress.c: the store;
 * session_knobs.c: knobs; session_reload.c: live reload). Not for the
 * session's users.
 */
#ifndef ATTN_SESSION_INTERNAL_H
#define ATTN_SESSION_INTERNAL_H

#include "filestamp.h"
#include "session.h"

/* One entry of the undo history: an edit appended, or a reset that put
 * away the edits it dropped. */
typedef struct {
    int is_reset;
    LessonEdit *saved;      /* a reset: the edits before it (owned)          */
    int n_saved;
} UndoEntry;

/* A data file a lesson loads: its path as opened and its stamp. */
typedef struct {
    char *path;
    FileStamp stamp;
} DataStamp;

struct Session {
    Lesson *lesson;
    LessonState *state;     /* with the edits; == asked when there are none   */
    LessonState *asked;     /* the lesson as written: what exercises ask     */
    LessonJudge *judge;     /* of asked, made when first needed              */
    char *path;             /* NULL when opened from text                    */
    FileStamp stamp;        /* the version last read, or last tried          */
    DataStamp *data;        /* the files its load() calls read, likewise    */
    int n_data;
    int screen, has_setup;
    LessonEdit *edits;
    int n_edits, cap_edits;
    UndoEntry *undo;
    int n_undo, cap_undo;
    ExerciseState *ex;      /* every exercise of the lesson, in file order   */
    int n_ex;
    char message[640];
    char *reload_error;
    int reload_dropped;
    char *progress_dir;     /* NULL: progress is not kept                   */
    int finished;           /* the last screen was reached                  */
    char progress_warning[600];
    int save_failures;      /* saves that failed (each said)                 */
    int save_warnings;      /* saves that worked but warned (a set-aside)   */
    int defer_step_saves;   /* session_go leaves its save to session_save_pending */
    int step_save_pending;  /* 1: the screen moved and is not saved yet; 2: durably */
    /* a new state, a new lesson: counted, so what follows them (the
     * planted bug's values) knows when to be redone */
    unsigned values_gen, lesson_gen;
    /* find the bug (session_bug.c): the hunt (NULL: no bug), the lesson
     * with the bug and the edits (owned; NULL: the bug's own state, when
     * there are no edits), and the counts it was made at */
    BugHunt *hunt;
    LessonState *hunt_shown;
    unsigned hunt_values_gen, hunt_lesson_gen;
    int hunt_stale;         /* the edits refuse the bug: shown is older      */
};

/* Make st the session's state (the one with the edits), freeing the old
 * one unless it is the asked state. */
void session_set_state(Session *s, LessonState *st);
/* Take a new lesson as written: asked and the judge replaced, the state too
 * when it is asked. */
void session_set_asked(Session *s, LessonState *asked);

/* Drop every edit of name[row,col] (a knob back at the lesson's value is
 * no edit); undo brings them back, as after a reset. */
unsigned session_unedit(Session *s, const char *name, int row, int col);

/* The hunt's end (session_free). */
void session_bug_drop(Session *s);

/* Save the session's progress when it keeps it (a failure is kept as the
 * warning, once); durable: see progress_save. */
void session_save_progress(Session *s, int durable);


/* Leave the message of an action (printf-style); returns change. */
unsigned session_say(Session *s, unsigned change, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Load-then-evaluate: the lesson at path and its state without edits.
 * 0, or -1 with err and nothing kept. */
int session_read_lesson(const char *path, Lesson **l, LessonState **st, LessonError *errs, int max, int *n_errs);
void session_undo_clear(Session *s);
/* Stamp the files lesson l loads (beside the session's file), so reload
 * notices when one changes; l NULL: nothing is watched (what
 * session_free does to let go of the list). */
void session_watch_data(Session *s, const Lesson *l);

#endif
