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
#define LESSON_MAX_ERRORS     20          /* errors `attn check` reports of
                                             one file (lesson_parse_all)     */

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

/* One cell of a named matrix (0-based), and where the lesson names it. */
typedef struct {
    char name[MAT_NAME_MAX];
    int row, col;
    size_t pos;             /* byte offset in the lesson's text, for errors  */
} LessonCell;

struct Expr;                /* an expression, parsed once (lesson_tree.h) */

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
/* The step (from 0) that asks the i-th exercise; -1 outside. */
int lesson_exercise_step(const Lesson *l, int i);
/* 1 when exercise `first` (counted over the lesson, from 0) or one after
 * it hides name[row,col]: kept as '?' while `first` is the one open. */
int lesson_hidden_from(const Lesson *l, int first, const char *name, int row, int col);
/* The number of ex, an exercise of l, as attn numbers them (from 1); 0
 * when ex is not one of l's. */
int lesson_exercise_number(const Lesson *l, const LessonExercise *ex);

/* Parse text (len bytes, need not be NUL-terminated) named file in errors.
 * Checks syntax and names (every name used is defined earlier; an unknown
 * name suggests the nearest defined one). NULL and err on refusal. */
Lesson *lesson_parse(const char *text, size_t len, const char *file, LessonError *err);
/* lesson_parse, going on past an error where the parser can start again
 * safely, so one run finds up to max errors: errs[0..*n_errs) in the order
 * found, errs[0] the error lesson_parse gives (*n_errs is 0 when the text
 * parses). The parse starts again at the next line that begins a
 * statement (past a statement's open brackets), within an exercise at its
 * next line, and past the 'end' of a block whose first line was refused.
 * A statement refused after its name still defines the name, so the lines
 * that use it are not refused too. It stops at the first error when going
 * on could only mislead: a text that does not start with 'lesson', a limit
 * passed, memory run out. Evaluation's errors (shapes, files, numbers)
 * come one at a time, from lesson_eval. max >= 1. */
Lesson *lesson_parse_all(const char *text, size_t len, const char *file, LessonError *errs, int max, int *n_errs);
void lesson_free(Lesson *l);

const char *lesson_title(const Lesson *l);
const char *lesson_about(const Lesson *l);          /* "" when absent */
const char *lesson_file(const Lesson *l);
/* The text l was parsed from (l's own copy), its length in *len. */
const char *lesson_source(const Lesson *l, size_t *len);
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

/* The lines `attn check` verifies (teach.h), in file order: a check or
 * an exercise. */
typedef enum { VERIFY_CHECK, VERIFY_EXERCISE } VerifyKind;

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

#endif
