/*
 * lesson_tree.h - what the modules of the lesson language share, and what
 * the teaching built on it (engine/teach) reads: the source text and its
 * errors, the tokens of the lexer, the expression tree (one per let, check
 * and answer), the compiled Lesson and the evaluator's entry points, with
 * its one hook for a mistake (EvalCtx.mut_at). Not for app/ code, which
 * sees lesson.h and teach.h (scripts/check-layers refuses it there).
 *
 * The modules: lesson_src.c (source checks, positions, errors, an
 * expression's text), lesson_lex.c (tokens), lesson_expr*.c (expressions:
 * the grammar, the token cursor, matrix literals), lesson_parse.c with
 * lesson_directives.c and lesson_exercise.c (directives into a Lesson;
 * lesson_access.c reads it back), lesson_run.c and lesson_eval.c
 * (statements through the engine), lesson_load.c (files through the app's
 * loader), lesson_state.c (questions about a finished state).
 */
#ifndef ATTN_LESSON_TREE_H
#define ATTN_LESSON_TREE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "lesson.h"
#include "optable.h"
#include "rng.h"

/* ---- source text, positions, errors (lesson_src.c) ---- */

/* A text being parsed; positions are byte offsets into it. */
typedef struct {
    const char *text;
    size_t len;
    const char *file;       /* the name errors carry ("<expr>" for one expression) */
} Src;

/* 1-based line and column of byte offset pos (tabs count as one column). */
void src_linecol(const Src *s, size_t pos, int *line, int *col);

/* Fill err for offset pos: file, line, column, the source line with control
 * characters turned to spaces, and a printf-style message. Returns -1 so
 * a parser step can `return src_error(...)`. */
int src_error(const Src *s, LessonError *err, attn_status code, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
int src_verror(const Src *s, LessonError *err, attn_status code, size_t pos, const char *fmt, va_list ap);

/* Refuse text that is not lesson text: invalid UTF-8, control characters
 * other than tab and line ends (C0, DEL and C1), the bidirectional
 * overrides and isolates, a carriage return not before a line feed, a line
 * longer than LESSON_MAX_LINE. 0 when acceptable, else -1 and err. */
int src_validate(const Src *s, LessonError *err);

/* The length of a line joint at text[p] (before end): a backslash ending a
 * line, with its CR LF or LF, which joins the line to the next ("\\\n" is
 * 2, "\\\r\n" is 3); 0 when there is none. The joint reads as a blank. */
size_t src_joint(const char *text, size_t p, size_t end);

/* Levenshtein distance of a[0..na) and b[0..nb), capped at 100. */
int lesson_edit_distance(const char *a, size_t na, const char *b, size_t nb);

/* ---- tokens (lesson_lex.c) ---- */

typedef enum { T_EOF, T_NEWLINE, T_NUM, T_NAME, T_SYM, T_STR } TokKind;

typedef struct {
    TokKind kind;
    char sym;               /* T_SYM: one of @ + - * / ^ ( ) [ ] , ; = :    */
    double num;             /* T_NUM                                         */
    size_t pos, len;        /* where it is in the source (T_STR: with quotes) */
} Token;

typedef struct {
    const Src *src;
    size_t pos;
    LessonError *err;
} Lexer;

/* The next token from lx->pos (blanks and # comments skipped; a line end is
 * a T_NEWLINE token). 0 on success, -1 and lx->err on a bad character or a
 * bad number. */
int lex_next(Lexer *lx, Token *t);

/* 1 when the token is the name `word`. */
int lex_tok_is(const Src *s, const Token *t, const char *word);

/* The source text of e (an expression, lesson_expr.c), shortened to fit
 * buf, for messages (lesson_src.c). */
struct Expr;
const char *expr_text(const Src *s, const struct Expr *e, char *buf, size_t size);

/* ---- expressions (lesson_expr.c, evaluated by lesson_eval.c) ---- */

typedef enum {
    E_NUM, E_NAME, E_MATRIX, E_NEG, E_ADD, E_SUB, E_MUL, E_DIV, E_MATMUL,
    E_TRANSPOSE, E_INDEX, E_CALL
} ExprKind;

typedef struct Expr Expr;
struct Expr {
    ExprKind kind;
    size_t pos;             /* the operator, call, name or number: errors point here */
    size_t start, end;      /* the whole expression's source span            */
    double num;             /* E_NUM                                         */
    int slot;               /* E_NAME: index of the name                     */
    int rows, cols;         /* E_MATRIX                                      */
    float *vals;            /* E_MATRIX: rows*cols values, owned             */
    Expr *a, *b;            /* operands                                      */
    int row, col;           /* E_INDEX: 1-based; 0 means ':' (the whole axis) */
    int fn;                 /* E_CALL: the function's row in optable.h       */
    Expr **args;            /* E_CALL: owned                                 */
    char *str;              /* E_CALL of load: the file name, owned          */
    int n_args;
    int height;             /* levels of operations below, for the chain limit */
};

/* The most operations stacked in one expression tree (a long chain like
 * a + b + c + ... is deep without nesting): keeps evaluation's recursion
 * well inside the stack. */
#define LESSON_MAX_CHAIN 1000

void expr_free(Expr *e);

/* The names an expression may use: names[0..n), slot = index. */
typedef struct {
    char **names;
    int n;
} Scope;

/* Parse one expression starting with the token *tok (read by the caller
 * from lx); on return *tok is the first token after it. NULL and lx->err on
 * failure (syntax, unknown name or function, a limit). */
Expr *expr_parse(Lexer *lx, Token *tok, const Scope *scope);

/* The nearest of names[0..n) to name[0..len) within a few edits, or NULL. */
const char *lesson_suggest_name(const char *name, size_t len, char *const *names, int n);
/* The one wording of a suggestion, for names, functions, directives and
 * keywords alike: "; did you mean 'BEST'?", or "" when best is NULL. Into
 * buf; returns buf. */
const char *lesson_did_you_mean(const char *best, char *buf, size_t size);

/* ---- the compiled lesson (lesson_parse.c) ---- */

typedef enum { ST_LET, ST_SEED } StmtKind;

typedef struct {
    StmtKind kind;
    size_t pos;             /* the directive                                 */
    int slot;               /* ST_LET                                        */
    Expr *expr;             /* ST_LET                                        */
    uint64_t seed;          /* ST_SEED                                       */
} Stmt;

/* `labels NAME rows|cols a b c` (or `none`): applied right after NAME's let. */
typedef struct {
    size_t pos;
    int slot;
    int cols;               /* 0: rows, 1: columns                           */
    char **names;           /* NULL with n 0: remove the labels              */
    int n;
} LabelSpec;

/* A check or an exercise, in file order, for lesson_verify. */
typedef struct {
    VerifyKind kind;
    int line;
    size_t pos;
    Expr *lhs;              /* check: left side; exercise: the answer        */
    Expr *rhs;              /* check: right side; exercise: NULL             */
    double tol;
    int has_expected;       /* exercise: `= VALUE`                           */
    double expected;
    char *what;             /* the check as written, or the question         */
} VerifyItem;

struct Lesson {
    Src src;                /* text: an owned copy; file: owned              */
    char *text, *file;
    char *title, *about;
    LessonLayout layout;
    char **tokens;
    int n_tokens;
    LessonStep *steps;
    int n_steps;
    char **setup;           /* borrowed from names                           */
    int n_setup;
    char **names;           /* every name, slot = index, owned               */
    int *name_lines;
    int n_names, cap_names;
    Stmt *stmts;
    int n_stmts;
    LabelSpec *labels;
    int n_labels;
    VerifyItem *items;
    int n_items;
    LessonKnob *knobs;
    int n_knobs;
    LessonLoader loader;    /* lesson_set_loader; NULL: load() is refused    */
    void *loader_ctx;
};

/* ---- evaluation (lesson_eval.c) ---- */

struct EvalCtx;
/* A mistake of the teaching layer (teach_internal.h), and how the node it
 * rewrites is evaluated under it (lesson_mutate.c's mutation_eval): the
 * evaluator knows only the node and that there is one. */
struct Mutation;
typedef struct Mat *(*EvalRewrite)(struct EvalCtx *ctx, const struct Expr *e);

typedef struct EvalCtx {
    const Src *src;
    const Lesson *lesson;   /* its loader reads load()'s files; NULL: none   */
    Mat **env;              /* values by slot (borrowed)                     */
    Rng *rng;
    LessonError *err;
    long long made;         /* elements of the buffers made so far           */
    const struct Expr *mut_at; /* the node evaluated as a mistake would (or NULL) */
    const struct Mutation *mut; /* the mistake, for rewrite                   */
    EvalRewrite rewrite;    /* how: mut's rewrite of its node               */
} EvalCtx;

/* Evaluate e; a new reference the caller frees. NULL and ctx->err, also
 * when the matrices made under ctx pass LESSON_MAX_TOTAL elements. */
Mat *expr_eval(EvalCtx *ctx, const Expr *e);

/* Evaluate e as written, without looking for ctx->mut at e itself (its
 * operands are evaluated by expr_eval). */
Mat *expr_eval_node(EvalCtx *ctx, const Expr *e);

/* l's statements evaluated into a state, from statement `first` to `last`
 * (-1: the end), with the values before `first` taken from `from` (NULL
 * when first is 0), with node at evaluated by rewrite under mutation mut (NULL: as
 * written). No edits. */
LessonState *lesson_eval_range(const Lesson *l, const LessonState *from, int first, int last,
                               const struct Expr *at, const struct Mutation *mut, EvalRewrite rewrite,
                               LessonError *err);

/* The whole of l with the person's edits applied, under mutation mut
 * evaluated by rewrite: a planted bug as the screen shows it. */
LessonState *lesson_eval_edited_mutated(const Lesson *l, const LessonEdit *edits, int n_edits, const Expr *at,
                                        const struct Mutation *mut, EvalRewrite rewrite, LessonError *err);

/* e evaluated against s with every matrix it names rounded to `decimals`
 * decimals, except the cells ex hides (they show '?' on the screen): what
 * the arithmetic gives from the numbers as the screen shows them. */
Mat *lesson_eval_rounded(const LessonState *s, const Src *src, const Expr *e, int decimals,
                         const LessonExercise *ex, LessonError *err);

/* Mark in mark[] (one byte per slot) every name e uses. */
void expr_mark_slots(const Expr *e, unsigned char *mark);

/* The slot of name[0..n) in l (the parser's lookup), or -1. */
int lesson_find_name(const Lesson *l, const char *name, size_t n);

/* The slot a state's i-th value is kept in is i; the statements defining a
 * slot (the last one wins), for the judge: index in stmts, or -1. */
int lesson_stmt_of_slot(const Lesson *l, int slot);

/* Evaluate e (parsed from src) against a finished state, with a copy of
 * the state's generator. A new reference, or NULL and err. */
Mat *lesson_state_eval(const LessonState *s, const Src *src, const Expr *e, LessonError *err);

/* load("file") (lesson_load.c): the file's bytes from the lesson's
 * loader, read by the row's reader. A new reference, or NULL and ctx->err
 * at the call: the file name and what is wrong with the file. */
Mat *eval_load(EvalCtx *ctx, const Expr *e, const OpInfo *op);

/* An evaluation error at pos (lesson_eval.c): the message into c->err
 * with its line and column; returns NULL. */
Mat *eval_fail(EvalCtx *c, attn_status code, size_t pos, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The values of a lesson's names after evaluation (lesson_run.c makes
 * them, lesson_state.c reads them). */
struct LessonState {
    int n;
    Mat **vals;             /* by slot; one reference each                   */
    Rng rng;                /* the generator after the last statement        */
};

#endif
