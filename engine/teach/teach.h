/*
 * teach.h - the teaching built on the lesson language (lesson.h): what
 * `attn check` verifies, a student's number read and judged (a verdict, a
 * diagnosis by one of the classic mistakes, a message), and find the bug
 * (one classic mistake planted, guesses at it judged). The mistakes are
 * one table (teach_internal.h's MUT_KINDS); the judge, the bug hunt and
 * the diagnoses read it.
 *
 * No curses, no files, no printing, as for the language. Ownership: a
 * LessonJudge, a LessonBug and a verify array are the caller's, freed by
 * lesson_judge_free, lesson_bug_free and free().
 */
#ifndef ATTN_TEACH_H
#define ATTN_TEACH_H

#include "lesson.h"

/* Find the bug (lesson_bug.c): one classic mistake planted in one
 * statement, chosen by seed among those that keep the lesson evaluable
 * and change a matrix a step shows; the same seed, the same bug. */
typedef struct {
    unsigned seed;
    char kind[32];          /* the diagnosis id ("wrong-axis", ...)          */
    int mut;                /* which rewrite (lesson_bug_eval's to redo it)  */
    int stmt;               /* the statement planted                         */
    int step;               /* the first step showing a changed matrix (0-based) */
    char matrix[MAT_NAME_MAX]; /* that matrix: the first shown, in order, that changed */
    char planted[512], written[512]; /* "NAME = EXPR" as planted and as written */
    char explain[400];      /* what the mistake does, in words              */
    LessonState *state;     /* the lesson evaluated with the bug (owned)     */
} LessonBug;
/* A seed as typed: decimal digits only, 0 to 4294967295 (4294967296 once
 * planted seed 0). 0, or -1 for anything else. The one reader of a seed
 * for attn bug --seed, attn run --bug and attn grade --bug. */
int lesson_bug_seed_parse(const char *text, unsigned *seed);
/* Plant the bug of seed in l (evaluated as written: asked). 0, or -1 with
 * err (a lesson no mistake changes has no bug). */
int lesson_bug_plant(const Lesson *l, const LessonState *asked, unsigned seed, LessonBug *bug, LessonError *err);
void lesson_bug_free(LessonBug *bug);
/* l with the person's edits (knobs too) and bug's mistake: a new state the
 * caller frees, or NULL and err (the rewrite refuses these values). */
LessonState *lesson_bug_eval(const Lesson *l, const LessonBug *bug, const LessonEdit *edits, int n_edits,
                             LessonError *err);
/* text (a step's prose, a hint) as a hunt shows it: each number written
 * with two decimals or more that a cell of the lesson as written (asked)
 * reads as, where the bug changed that cell, becomes the bugged value at
 * the same digits, or '?' where the cells that read so disagree; so the
 * prose never quotes the right number beside the bug's; with no bug
 * (NULL), text as written. A new string the caller frees (NULL on no
 * memory). */
char *lesson_bug_text(const LessonState *asked, const LessonBug *bug, const char *text);
/* name's statement as written, worked from the values in bugged: what the
 * lesson says the matrix should be, given the numbers before it (an input
 * is itself). A new matrix the caller frees, or NULL and err. */
Mat *lesson_bug_as_written(const Lesson *l, const LessonState *bugged, const char *name, LessonError *err);

/* Do two matrices differ in shape or in a value beyond float noise (and
 * two values)? The one test of "the bug changed it". */
int lesson_mats_differ(const Mat *a, const Mat *b);
int lesson_values_differ(float x, float y);

/* The kinds a bug may be, numbered from 1 for the student's list: how
 * many, and the i-th's id and title ("a scale left out"); NULL outside. */
int lesson_bug_n_kinds(void);
const char *lesson_bug_kind_id(int i);
const char *lesson_bug_kind_title(int i);
/* The kind a person named: its number in the list ("3") or its id. NULL
 * when it is neither. */
const char *lesson_bug_kind_named(const char *text);

/* A guess at the bug, judged (lesson_bug_judge.c): right or not, with
 * what to tell the person. */
typedef struct {
    int right;              /* 1 right, 0 wrong, -1 not a guess (no such name) */
    char msg[1024];
} BugVerdict;
/* Is name the first wrong matrix? */
void lesson_bug_judge_matrix(const Lesson *l, const LessonState *asked, const LessonBug *bug, const char *name,
                             BugVerdict *v);
/* Is text (a number of the list or an id) the mistake? A kind that gives
 * the very numbers the bug gives is right too. */
void lesson_bug_judge_kind(const Lesson *l, const LessonState *asked, const LessonBug *bug, const char *text,
                           BugVerdict *v);


/* What `attn check` verifies: every check line, and every exercise (its
 * answer evaluates; where it states a value, the answer matches it). */

typedef struct {
    VerifyKind kind;
    int line;
    int passed;
    char what[160];         /* "X_prime = [...] within 0.0001" or the question */
    char detail[352];       /* why it failed: max difference and where, or the
                               error (line:col: and a LessonError msg, whole) */
    int stated;             /* an exercise states its value (`= VALUE`)       */
} VerifyResult;

/* Verify l against s. *out gets an array of *n results (caller frees with
 * free()). Returns ATTN_OK, or ATTN_E_NOMEM. */
attn_status lesson_verify(const Lesson *l, const LessonState *s, VerifyResult **out, int *n);

/* The one measure of a number against another, for `check` lines, stated
 * exercise values and a student's answers alike: how far got is from want.
 * Equal infinities and two NaNs are 0 apart; a NaN or an infinity against
 * anything else is infinitely far; otherwise |got - want|. A value is right
 * when this is <= the tolerance. */
double lesson_judge_distance(double got, double want);

/* Read what a student typed: a number, or arithmetic on numbers (+ - * /,
 * parentheses, sqrt exp log cos sin, e, inf), never a name. 0 and *out, or -1 with
 * why (one line for each kind: empty, a name, a cell, nan, too large, a
 * stray character, a missing parenthesis). */
int lesson_read_answer(const char *text, double *out, char *why, size_t size);

/* ---- the judge of a student's answer (lesson_judge.c) ----
 *
 * One verdict with one home: the judge decides it, the session stores and
 * saves it, the screen, `attn grade`, the handouts and the progress file
 * only show it. An exercise is judged against the lesson as written (its
 * knobs at their file values, no edits), whatever the screen shows. */
typedef enum {
    VERDICT_UNANSWERED, /* nothing judged yet                              */
    VERDICT_RIGHT,      /* within the tolerance, or what the exercise's own
                           arithmetic gives from the rounded numbers shown */
    VERDICT_WRONG,      /* a number, but not the answer                    */
    VERDICT_REVEALED,   /* right, but the worked answer was shown before   */
    VERDICT_INVALID     /* not one number (or the exercise is broken)      */
} Verdict;

/* "unanswered" "right" "wrong" "revealed" "invalid": the words JSON and the
 * progress file use. */
const char *verdict_word(Verdict v);
/* The verdict a word names: 0 and *v, or -1. */
int verdict_from_word(const char *word, Verdict *v);

#define DIAGNOSIS_ID_MAX 24

typedef struct {
    Verdict verdict;
    char diagnosis[DIAGNOSIS_ID_MAX]; /* the mistake's stable id, "" for none */
    double got;         /* the student's value (right, wrong, revealed)    */
    double want;        /* the exercise's value in the lesson as written    */
    int from_rounded;   /* right from the rounded numbers the screen shows  */
    char msg[400];      /* the verdict in words, never giving a wrong answer
                           the right value: "right", "not yet: off by more
                           than 0.001", the mistake named, or why the text
                           is not an answer                                 */
} Judgement;

/* The catalogue of diagnoses: each id with a few words for a tally
 * ("softmax along the wrong axis"). n is the count; NULL past it. */
int lesson_n_diagnoses(void);
const char *lesson_diagnosis_id(int i);
const char *lesson_diagnosis_words(const char *id);   /* NULL: unknown id */

/* What the person looks at besides the lesson as written. */
typedef struct {
    const LessonState *now; /* the values on the screen when knobs moved or
                               inputs were edited; NULL when as written     */
    const char *moved;      /* those knobs in words, "T = 1.3" ("" or NULL:
                               edits only)                                   */
    const char *asked;      /* the knobs as the lesson has them, "T = 1"    */
    int decimals;           /* decimals the screen shows (0: 4)             */
    int revealed;           /* the worked answer was shown already          */
} JudgeContext;

typedef struct LessonJudge LessonJudge;

/* A judge of l's exercises against asked, the lesson evaluated as written
 * (both borrowed: they outlive the judge). It keeps the lesson evaluated
 * with each classic mistake as it needs them, so judging a class's sheets
 * costs each only once. NULL on no memory. */
LessonJudge *lesson_judge_new(const Lesson *l, const LessonState *asked);
void lesson_judge_free(LessonJudge *j);

/* Judge typed as the answer to ex (an exercise of the judge's lesson).
 * ctx may be NULL (the lesson as written, 4 decimals). The right value
 * rounded to the digits typed is right within the tolerance, else "not
 * yet: more digits", no mistake named. A wrong answer is named by the one
 * mistake whose rewrite of the exercise's arithmetic gives the student's
 * number, and is nearer it than the right value; when several do, none is
 * named and the message lists them; a number a visible cell of the
 * exercise's screen shows, that no reading of a cell explains, is said to
 * be that cell; when nothing fits, rounding too early (one unit of the
 * last digit off) is tried last. */
void lesson_judge(LessonJudge *j, const LessonExercise *ex, const char *typed, const JudgeContext *ctx,
                  Judgement *out);

/* `attn check --strict` (lesson_leaks.c): is ex's value, as the screen
 * writes it, shown before it is asked, on its step or an earlier one, the
 * set-up included: a visible cell reads as it (any cell for a value of
 * three significant digits or more, for a shorter one only the asked
 * cell's neighbours in its row or column; the cells it and later exercises keep as '?' do not
 * count), a text, question or hint writes it (a decimal or fraction the
 * judge takes, or the value rounded to three significant digits or more;
 * a short value in the exercise's own hints is an operand),
 * or it is the one hidden cell of a row or column summing to 0 or 1? 1
 * with why, naming where; 0 otherwise, and for an answer that is not one
 * number. */
int lesson_exercise_leaks(const Lesson *l, const LessonState *s, const LessonExercise *ex, char *why, size_t size);
/* The same, and when the value is read off a visible cell, that cell in
 * *cell (its name "" otherwise): what a writer of lessons hides to cure it. */
int lesson_exercise_leak_cell(const Lesson *l, const LessonState *s, const LessonExercise *ex, LessonCell *cell,
                              char *why, size_t size);

/* The numbers a step's prose quotes for the value one of its exercises asks
 * (the asked value rounded to the digits written) that the judge would
 * refuse as an answer: for `attn check --strict`. Calls fn once for each,
 * with the exercise, the number as written and its message. Returns how
 * many. */
typedef void (*ProseQuoteFn)(void *ctx, const LessonStep *st, const LessonExercise *ex, const char *quoted,
                             const char *why);
int lesson_judge_prose(LessonJudge *j, ProseQuoteFn fn, void *ctx);

#endif
