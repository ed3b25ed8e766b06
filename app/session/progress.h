/*
 * progress.h - a student's progress, kept per user so it is never lost:
 * per lesson, the last step seen, whether it was finished, and each
 * exercise's state, attempts, hints shown and its latest answers as they
 * were judged.
 *
 * Where: $ATTN_STATE_DIR, else $XDG_STATE_HOME/attn, else
 * ~/.local/state/attn; one text file, `progress`, in that directory.
 * A lesson is known by its title (so moving the file or editing its prose
 * keeps its progress); an exercise by its answer's expression (so adding
 * a step keeps it), with #2, #3 for a second, third of the same answer,
 * and by its question (so removing one of two with the same answer hands
 * nothing on to the other).
 *
 * Every save takes a lock on `progress.lock`, reads the file, merges this
 * lesson's record into it (the better state of each exercise wins, so two
 * attn processes do not lose each other's work), writes a temporary file,
 * fsyncs it and renames it over the old one: a kill at any moment leaves
 * the old file or the new one, never a torn one. A line that cannot be
 * read is set aside alone (in progress.damaged-DATE, a name of its own, so
 * set-asides never overwrite each other) and the rest is kept; a file
 * whose header is damaged, or that a newer attn wrote, is set aside whole.
 * Only a regular file is read. A read-only store is not replaced: the save
 * fails and says so. The lock is waited for a moment, not for ever.
 */
#ifndef ATTN_PROGRESS_H
#define ATTN_PROGRESS_H

#include <stddef.h>

#define PROGRESS_KEY_MAX 256

typedef enum { PROG_UNANSWERED, PROG_TRIED, PROG_REVEALED, PROG_RIGHT } ProgressStatus;

/* One answer as judged: what was typed, the verdict as the judge words it
 * ("right", "wrong", "revealed"), the diagnosis id ("" for none), the
 * message, and when (seconds since the epoch). */
#define PROGRESS_HISTORY_MAX 16
/* The most a count of the store (attempts, hints, a hunt's guesses) holds:
 * one read back from a file is refused above it, and counting stops at it,
 * so no count can overflow its int however the file was edited. */
#define PROGRESS_COUNT_MAX 1000000000
typedef struct {
    char typed[64];
    char verdict[16];
    char diagnosis[24];
    char msg[400];
    long long when;
} ProgressAnswer;

typedef struct {
    char key[PROGRESS_KEY_MAX];     /* the exercise: its answer, as written */
    char question[PROGRESS_KEY_MAX]; /* and its question ("": an older attn's
                                       record, which kept none)             */
    ProgressStatus status;
    int attempts;
    int hints;
    int first_try;                  /* right at the first answer, no hint  */
    ProgressAnswer hist[PROGRESS_HISTORY_MAX];  /* the latest, oldest first */
    int n_hist;
} ProgressExercise;

/* A bug hunted in the lesson (attn bug): its seed, how far the hunt went
 * (0 looking, 1 the matrix found, 2 the fix revealed, 3 found: better is
 * more), the guesses, and the bug itself (a lesson changed since may give
 * the seed another). */
typedef struct {
    unsigned seed;
    int status;
    int matrix_tries, kind_tries;
    char kind[32];
    char matrix[64];
    long long when;
} ProgressBug;
#define PROGRESS_BUG_FOUND 3
/* The word for a hunt's status, as the store and `attn progress --json`
 * write it ("looking", "matrix", "revealed", "found"). */
const char *progress_bug_word(int status);

typedef struct {
    char lesson[PROGRESS_KEY_MAX];  /* the lesson's title                   */
    char last_step[PROGRESS_KEY_MAX]; /* the title of the step last seen    */
    int step_number;                /* its number (0: the set-up; -1: not
                                       known), for a step renamed since      */
    int finished;                   /* reached the end                      */
    ProgressExercise *ex;           /* owned                                */
    int n_ex;
    ProgressBug *bugs;              /* owned                                */
    int n_bugs;
} ProgressLesson;
/* step_number of a record that leaves the step where it is (a bug hunt
 * does not move the lesson's place). */
#define PROGRESS_STEP_KEPT (-2)

/* The directory progress lives in, into buf; NULL when none can be named
 * (no $HOME and no variable set). */
const char *progress_dir(char *buf, size_t size);

/* Every lesson's record in dir (*out owned: free with progress_free).
 * 0 on success (an absent file is an empty store); -1 when the file is
 * damaged or newer (set aside; *out empty) or unreadable, with a one-line
 * warning in warn. */
int progress_load(const char *dir, ProgressLesson **out, int *n, char *warn, size_t size);
void progress_free(ProgressLesson *recs, int n);
/* Is stored (a key as the store keeps it) the key of name? Names longer
 * than a key compare as they were stored, cut to PROGRESS_KEY_MAX - 1. */
int progress_same_key(const char *stored, const char *name);

/* The record in rec of the exercise with this key and question: the same
 * exercise, or the same one renumbered, or an older attn's record of the
 * key; never the record of another exercise with the same answer (one
 * removed from the lesson does not hand its state on). NULL when none. */
const ProgressExercise *progress_find_exercise(const ProgressLesson *rec, const char *key, const char *question);

/* The hunt of seed in rec, or NULL. */
const ProgressBug *progress_find_bug(const ProgressLesson *rec, unsigned seed);

/* The record of lesson in recs, or NULL. */
const ProgressLesson *progress_find(const ProgressLesson *recs, int n, const char *lesson);

/* Merge rec into the store in dir (created when missing). 0, or -1 with a
 * one-line warning (progress could not be kept). Always atomic; durable
 * (fsync'd, ~1-4 ms) for what a person did (answers, hints, a finished
 * lesson), not for the step they are on, which changes with every key. */
int progress_save(const char *dir, const ProgressLesson *rec, int durable, char *warn, size_t size);

/* Forget lesson's record, or every record when lesson is NULL. 0 or -1. */
int progress_reset(const char *dir, const char *lesson, char *warn, size_t size);

#endif
