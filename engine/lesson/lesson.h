/*
 * lesson.h - the lesson language (../shared/LESSON-FORMAT.md, extended in
 * lessons/README.md): parse a lesson's text once into a Lesson, evaluate it
 * into a LessonState (every named matrix), verify its checks and exercises.
 *
 * No curses, no files, no printing: the caller reads the file and hands over
 * its text; errors come back as a LessonError with file, line and column.
 * Evaluation re-runs every statement through the engine (ops.h), cheaply
 * enough to repeat on each keystroke when the screen edits an input; edits
 * override cells of named matrices and everything downstream follows.
 *
 * Ownership: lesson_parse returns a Lesson the caller frees with
 * lesson_free; lesson_eval returns a LessonState the caller frees with
 * lesson_state_free. Matrices got from a state belong to it (mat_retain to
 * keep one longer). Strings and arrays inside LessonStep belong to the Lesson.
 * All *_free functions accept NULL.
 */
#ifndef ATTN_LESSON_H
#define ATTN_LESSON_H

#include "nest.h"
#include <stddef.h>

#include "mat.h"

/* Limits of the language; exceeding one is an error naming it. */
#define LESSON_MAX_BYTES      (1L << 20)  /* file size                       */
#define LESSON_MAX_LINE       4096        /* characters on one line          */
#define LESSON_MAX_DEPTH      ATTN_NEST_MAX /* nesting of an expression (nest.h) */
#define LESSON_MAX_ELEMS      (1L << 22)  /* elements of one matrix          */
#define LESSON_MAX_NAMES      4096        /* names one lesson may define     */
#define LESSON_MAX_EXERCISES  4096        /* exercises of one lesson (and the
                                             records the progress store keeps) */
#define LESSON_MAX_TOTAL      (1L << 26)  /* elements of all the matrices one
                                             evaluation makes (256 MB)       */

typedef enum { LAYOUT_ROWS, LAYOUT_COLUMNS } LessonLayout;

/* Where and why a lesson was refused. line and col are 1-based; col counts
 * characters (bytes) from 1. code is ATTN_E_SYNTAX, ATTN_E_NAME, ATTN_E_SHAPE,
 * ATTN_E_LIMIT, ... */
typedef struct {
    attn_status code;
    char file[256];
    int line, col;
    char msg[320];
    /* The offending line as it can be shown: control characters as blanks,
     * bytes that are not UTF-8 as '?'. A line too long to fit is shown as
     * a window around the column, "..." marking where it was cut. */
    char source_line[256];
    /* Where the caret goes in source_line: 1-based bytes, like col; 0 means
     * col itself (a line shown whole, or an error built without a window). */
    int source_col;
} LessonError;

/* Write "FILE:LINE:COL: error: MSG\n" + the line + "\n" + a caret under the
 * column + "\n" into buf (truncating safely). Returns buf. */
const char *lesson_error_format(const LessonError *e, char *buf, size_t size);

/* Copy s into buf (truncating safely) with every byte a terminal could act
 * on written as \xNN: C0 controls and tab, DEL, invalid UTF-8, C1 controls
 * (U+0080..U+009F), bidirectional overrides and isolates; a backslash
 * becomes \\. For text the lesson checks did not pass, such as a file
 * name. Returns buf. */
const char *lesson_escape(const char *s, char *buf, size_t size);
/* The same for a message attn wrote that may quote bytes of a file: every
 * byte a terminal could act on as \xNN, a backslash left as it is. */
const char *lesson_escape_text(const char *s, char *buf, size_t size);

/* One cell of a named matrix (0-based), and where the lesson names it. */
typedef struct {
    char name[MAT_NAME_MAX];
    int row, col;
    size_t pos;             /* byte offset in the lesson's text, for errors  */
} LessonCell;

struct Expr;                /* an expression, parsed once (lesson_internal.h) */

/* An author's own diagnosis: `mistake EXPR : MESSAGE`. */
typedef struct {
    char *expr;             /* what the mistaken arithmetic gives, as written */
    char *message;
    struct Expr *parsed;    /* expr, parsed when the lesson was (owned)      */
    size_t pos;             /* where it is written, for errors               */
} LessonMistake;

typedef struct {
    int line;               /* where it was written                          */
    char *question;         /* the prompt after 'exercise'                   */
    char *answer;           /* the answer's expression, as written           */
    const struct Expr *parsed; /* the answer, parsed once (the lesson's)    */
    int has_cell;           /* the answer is one cell, NAME[i,j]:            */
    LessonCell cell;        /* that cell (0-based)                           */
    int has_expected;       /* 'answer EXPR = VALUE': the value stated       */
    double expected;
    double within;          /* tolerance for a student's answer (default 1e-3) */
    char **hints;           /* revealed one at a time                        */
    int n_hints;
    /* The cells shown as '?' while the exercise is open: the `hide` lines,
     * else the answer's own cell when it is NAME[i,j]. */
    LessonCell *hides;
    int n_hides;
    LessonMistake *mistakes;
    int n_mistakes;
} LessonExercise;

/* When ex's answer is one cell, NAME[i,j]: 1 and the cell (0-based). */
int lesson_answer_cell(const LessonExercise *ex, LessonCell *cell);

/* 1 when ex keeps name[row,col] (0-based) hidden while it is open. */
int lesson_exercise_hides(const LessonExercise *ex, const char *name, int row, int col);

typedef struct {
    int line;
    char *title;
    char *text;             /* prose, paragraphs separated by blank lines    */
    char **show;            /* panes, in order                               */
    int n_show;
    char **heatmap;         /* the subset of panes drawn as heatmaps         */
    int n_heatmap;
    char **defines;         /* names this step's lets define, in order       */
    int n_defines;
    LessonExercise *exercises;
    int n_exercises;
} LessonStep;

typedef struct Lesson Lesson;
typedef struct LessonState LessonState;

/* The exercises of l counted in lesson order from 0 (as `attn run`, the
 * screen and `attn grade` number them from 1): how many, and the i-th
 * (NULL outside). */
int lesson_n_exercises(const Lesson *l);
const LessonExercise *lesson_exercise_at(const Lesson *l, int i);
/* The number of ex, an exercise of l, as attn numbers them (from 1); 0
 * when ex is not one of l's. */
int lesson_exercise_number(const Lesson *l, const LessonExercise *ex);

/* Parse text (len bytes, need not be NUL-terminated) named file in errors.
 * Checks syntax and names (every name used is defined earlier; an unknown
 * name suggests the nearest defined one). NULL and err on refusal. */
Lesson *lesson_parse(const char *text, size_t len, const char *file, LessonError *err);
void lesson_free(Lesson *l);

const char *lesson_title(const Lesson *l);
const char *lesson_about(const Lesson *l);          /* "" when absent */
const char *lesson_file(const Lesson *l);
LessonLayout lesson_layout(const Lesson *l);
int lesson_n_tokens(const Lesson *l);               /* 0 when no 'tokens' */
const char *lesson_token(const Lesson *l, int i);
int lesson_n_steps(const Lesson *l);
const LessonStep *lesson_step(const Lesson *l, int i);   /* 0-based */
/* Names defined before the first step (the set-up screen), in order. */
int lesson_n_setup(const Lesson *l);
const char *lesson_setup_name(const Lesson *l, int i);

/* A knob: `knob NAME = VALUE from LO to HI step STEP` (a slider) or
 * `switch NAME on|off` (is_switch; 0 to 1 step 1). Either defines NAME, a
 * 1x1 input holding the default value; a session changes it by an edit of
 * NAME[1,1], so everything downstream follows. */
typedef struct {
    char name[MAT_NAME_MAX];
    int is_switch;
    double value;           /* the default, as written                      */
    double lo, hi, step;
    int line;
} LessonKnob;

/* The knobs in file order; lesson_knob is NULL outside 0..n-1. */
int lesson_n_knobs(const Lesson *l);
const LessonKnob *lesson_knob(const Lesson *l, int i);
/* The index of the knob called name, or -1. */
int lesson_knob_find(const Lesson *l, const char *name);
/* Does the value of name depend on the value of on, however the
 * dependence goes (an operand, a function's argument such as rows(Q, t),
 * through any chain of lets)? A name depends on itself; an unknown name on
 * nothing. */
int lesson_depends_on(const Lesson *l, const char *name, const char *on);
/* v clamped to lo..hi and snapped to the nearest lo + k * step (a NaN
 * gives the default). What a knob may hold. */
double lesson_knob_snap(const LessonKnob *k, double v);
/* The value knob k holds in s (its 1x1 input NAME); NaN when s lacks it. */
double lesson_knob_now(const LessonState *s, const LessonKnob *k);
/* How value v of k reads in words: "on" or "off" for a switch, else the
 * number as %g writes it ("2", "0.1"). Returns buf. */
const char *lesson_knob_text(const LessonKnob *k, double v, char *buf, size_t size);

/* Files a lesson loads. The engine never opens files: load("path") asks
 * the lesson's loader, a function of the app, for the bytes of path as
 * written in the lesson (the app finds it beside lesson_file). It returns
 * 1 with *bytes (malloc'd; the evaluator frees it) and *len, or 0 with
 * why it could not ("cannot open: No such file or directory"). */
typedef int (*LessonLoader)(void *ctx, const char *lesson_file, const char *path, char **bytes, size_t *len,
                            char *why, size_t why_size);
/* Set l's loader (fn NULL: load() is refused). ctx is passed to fn and
 * stays the caller's. */
void lesson_set_loader(Lesson *l, LessonLoader fn, void *ctx);
/* The distinct files l's lines load, as written, in file order: how many,
 * and the i-th (0-based; NULL outside). The strings belong to l. */
int lesson_n_loads(const Lesson *l);
const char *lesson_load_path(const Lesson *l, int i);

/* Edits: overrides of single cells of named matrices, applied right after
 * that name is computed, so everything downstream follows. */
typedef struct {
    char name[MAT_NAME_MAX];
    int row, col;           /* 0-based */
    float value;
} LessonEdit;

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

/* Evaluate every statement in order. Shape errors and the like refuse the
 * lesson with the position of the operator or call at fault. An edit that
 * names an unknown matrix or a cell outside it is an error too. */
LessonState *lesson_eval(const Lesson *l, const LessonEdit *edits, int n_edits, LessonError *err);
void lesson_state_free(LessonState *s);

/* Named matrices in definition order, and by name (NULL when undefined). */
int lesson_state_count(const LessonState *s);
const Mat *lesson_state_at(const LessonState *s, int i);
const Mat *lesson_state_get(const LessonState *s, const char *name);
/* The defined name nearest to name (a typo a few edits away, or the same
 * name in another case), or NULL when none is near. The string belongs to
 * s. For "did you mean" in messages about names the lesson lacks. */
const char *lesson_state_nearest(const LessonState *s, const char *name);

/* Evaluate one expression in the language against a state (e.g. "A[2,1]",
 * "S / 2", a student's answer). Returns a new matrix the caller frees;
 * NULL and err (file "<expr>", line 1) on failure. */
Mat *lesson_eval_expr(const LessonState *s, const char *expr, LessonError *err);

/* What `attn check` verifies: every check line, and every exercise (its
 * answer evaluates; where it states a value, the answer matches it). */
typedef enum { VERIFY_CHECK, VERIFY_EXERCISE } VerifyKind;

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
 * parentheses, sqrt exp log, e, inf), never a name. 0 and *out, or -1 with
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
 * ctx may be NULL (the lesson as written, 4 decimals). A wrong answer is
 * named by the one mistake whose rewrite of the exercise's arithmetic gives
 * the student's number; when several do, none is named and the message
 * lists them; when none does, rounding too early is tried last. */
void lesson_judge(LessonJudge *j, const LessonExercise *ex, const char *typed, const JudgeContext *ctx,
                  Judgement *out);

/* `attn check --strict`: can ex's value be read off the screen that asks
 * it while it is open (a visible cell of that step's panes, within its
 * tolerance; the cells it and the step's later exercises hide do not
 * count), or found as the one hidden cell of a row or column that sums to
 * 0 or 1? 1 with why; 0 for an answer that is a count (a whole number, 0
 * included), or not one number. */
int lesson_exercise_leaks(const Lesson *l, const LessonState *s, const LessonExercise *ex, char *why, size_t size);

/* The numbers a step's prose quotes for the value one of its exercises asks
 * (the asked value rounded to the digits written) that the judge would
 * refuse as an answer: for `attn check --strict`. Calls fn once for each,
 * with the exercise, the number as written and its message. Returns how
 * many. */
typedef void (*ProseQuoteFn)(void *ctx, const LessonStep *st, const LessonExercise *ex, const char *quoted,
                             const char *why);
int lesson_judge_prose(LessonJudge *j, ProseQuoteFn fn, void *ctx);

#endif
