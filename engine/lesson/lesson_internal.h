/*
 * lesson_internal.h - what the modules of the lesson language share: the
 * source text and its errors, the tokens of the lexer, the expression tree
 * (one per let, check and answer), the compiled Lesson and the evaluator's
 * entry points. Not for app/ code: app/ sees only lesson.h.
 *
 * The modules: lesson_src.c (source checks, positions, errors, an
 * expression's text),
 * lesson_lex.c (tokens), lesson_expr*.c (expressions: the grammar, the
 * token cursor, matrix literals), lesson_parse.c with lesson_directives.c
 * and lesson_exercise.c (directives into a Lesson; lesson_access.c reads
 * it back), lesson_eval.c and lesson_load.c (statements through the
 * engine, files through the app's loader), lesson_verify.c (what `attn
 * check` proves), lesson_answer.c (reading a student's number),
 * lesson_mutate.c (the classic mistakes as rewrites of one node of a
 * statement, evaluated), lesson_diagnose.c (the rewrites of one exercise's
 * arithmetic, each with its diagnosis id), lesson_judge.c (the one judge:
 * a verdict, a diagnosis or none, a message).
 */
#ifndef ATTN_LESSON_INTERNAL_H
#define ATTN_LESSON_INTERNAL_H

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

/* ---- the classic mistakes as rewrites (lesson_mutate.c) ---- */

typedef enum {
    MUT_UNSCALED,           /* x / c, x * c (c one number) -> x              */
    MUT_SCALED_TWICE,       /* -> x / c / c (x * c * c)                      */
    MUT_SCALE_INVERTED,     /* x / c -> x * c, and the reverse               */
    MUT_SCALE_BY_D,         /* x / sqrt(d) -> x / d                          */
    MUT_WRONG_AXIS,         /* softmax_rows <-> softmax_cols                 */
    MUT_SOFTMAX_TWICE,      /* softmax(softmax(x))                           */
    MUT_NO_MASK,            /* x + M (M holding -inf) -> x                   */
    MUT_MASK_AFTER_SOFTMAX, /* softmax(x + M) -> softmax(x) + M              */
    MUT_NO_BIAS,            /* x + b (b a row or column for every line) -> x */
    MUT_TRANSPOSED,         /* A @ B with one operand transposed (side)      */
    MUT_E_AS_3,             /* softmax in base 3                             */
    MUT_TRUE_E,             /* log(3) -> 1: e where 3 was asked              */
    MUT_NOT_NORMALIZED,     /* softmax(x) -> exp(x); x / (row sums) -> x     */
    MUT_SCORE_NOT_WEIGHT,   /* softmax(x) -> x                               */
    MUT_HEADS_TILED,        /* repeat_heads: blocks 1 2 1 2 for 1 1 2 2      */
    MUT_ROPE_PAIRING,       /* rope <-> rope_half                            */
    MUT_WINDOW_OFF_BY_ONE,  /* window_mask(n, w) -> w + 1 (side 0), w - 1 (1) */
    MUT_NO_ROWSUM_TERM,     /* x - rowsum(...) -> x: the softmax gradient's  */
    MUT_ROPE_SIN_FOR_COS,   /* rope's rotation with sin and cos swapped      */
    MUT_ROPE_BACKWARDS,     /* rope's rotation the other way (sin's sign)    */
    MUT_COUNT
} MutKind;

typedef struct {
    MutKind kind;
    int stmt;               /* the statement rewritten (index in stmts)      */
    const struct Expr *node;/* the node of its expression rewritten          */
    int side;               /* MUT_TRANSPOSED: 0 the left operand, 1 the right;
                               MUT_WINDOW_OFF_BY_ONE: 0 one key more, 1 less */
} Mutation;

/* Is e a call of softmax_rows or softmax_cols? */
int expr_is_softmax(const struct Expr *e);

/* The diagnosis id of a kind ("unscaled", "wrong-axis", ...). */
const char *mutation_id(MutKind k);
/* What mutation m does, in words, with the statement it is in (the
 * judge's message for it, lesson_diagnose.c). */
void mutation_describe(const Lesson *l, const Mutation *m, char *msg, size_t size);

/* Every rewrite that may apply to l's statements, in statement order: the
 * node's form admits it (whether the values do is known only when it is
 * evaluated). *out is the caller's to free. 0, or -1 on no memory. */
int lesson_mutations(const Lesson *l, Mutation **out, int *n);

/* l evaluated as written but for one mutation, up to and including
 * statement last (-1: all). Statements before the mutated one are taken
 * from asked when no later statement draws from the generator. NULL and
 * err when the rewrite does not apply to these values (a shape, a scalar
 * that is not one) or the evaluation fails. */
LessonState *lesson_eval_mutated(const Lesson *l, const LessonState *asked, const Mutation *m, int last,
                                 LessonError *err);

/* ---- find the bug (lesson_bug.c), for its judge ---- */
/* May a bug be of kind k? */
int bug_plantable(MutKind k);
/* The first matrix the steps show (in order) that differs between the two
 * states: its name and step (0-based), or -1. */
int bug_first_shown_change(const Lesson *l, const LessonState *right, const LessonState *bugged, const char **name);

/* ---- the judge and its candidates (lesson_judge.c, lesson_diagnose.c) ---- */

struct LessonJudge {
    const Lesson *l;
    const LessonState *asked;   /* the lesson as written (borrowed)          */
    Mutation *muts;             /* every rewrite that may apply              */
    int n_muts;
    LessonState **states;       /* the lesson under muts[i], when first asked */
    int *upto;                  /* states[i] holds statements 0..upto[i]; -2:
                                   not evaluated yet (NULL: refused)         */
};

/* The lesson under mutation i, evaluated through statement last (what an
 * exercise needs: a mistake may break what comes after, as -inf weights
 * times values would) the first time it is asked for; NULL when the
 * rewrite does not apply. Belongs to j. */
const LessonState *judge_mutated(LessonJudge *j, int i, int last);
/* Done reading mutation i's state: it is kept for the next exercise or
 * sheet when small, let go when large (a judge holds at most a few MB). */
void judge_release(LessonJudge *j, int i);

/* A rewrite of an exercise's arithmetic: the mistake's id, what it gives,
 * and what to tell the student (never the right value). */
typedef struct {
    char id[DIAGNOSIS_ID_MAX];
    double value;
    char msg[300];
} Candidate;

typedef struct {
    Candidate *c;
    int n, cap;
} Candidates;

/* Every rewrite of ex's arithmetic in the lesson as written: the author's
 * `mistake` lines, the classic mistakes in the statements the answer
 * depends on, the cell's neighbours and its transpose, the stages before
 * and after it, the sign (of want). Some may give the right value: the
 * judge leaves those out. 0, or -1 on no memory (what was found is kept).
 * The caller frees out->c. */
int diagnose_candidates(LessonJudge *j, const LessonExercise *ex, double want, Candidates *out);

/* Add a candidate (printf-style message). 0, or -1 on no memory. */
int diagnose_add(Candidates *cs, const char *id, double value, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* ---- evaluation (lesson_eval.c) ---- */

struct EvalCtx;
/* How a node is evaluated under a mutation (lesson_mutate.c's
 * mutation_eval): the evaluator knows only that there is one. */
typedef struct Mat *(*EvalRewrite)(struct EvalCtx *ctx, const struct Expr *e);

typedef struct EvalCtx {
    const Src *src;
    const Lesson *lesson;   /* its loader reads load()'s files; NULL: none   */
    Mat **env;              /* values by slot (borrowed)                     */
    Rng *rng;
    LessonError *err;
    long long made;         /* elements of the buffers made so far           */
    const Mutation *mut;    /* a node evaluated as a mistake would (or NULL) */
    EvalRewrite rewrite;    /* how: mut's rewrite of its node               */
} EvalCtx;

/* Evaluate e; a new reference the caller frees. NULL and ctx->err, also
 * when the matrices made under ctx pass LESSON_MAX_TOTAL elements. */
Mat *expr_eval(EvalCtx *ctx, const Expr *e);

/* Evaluate e as written, without looking for ctx->mut at e itself (its
 * operands are evaluated by expr_eval). */
Mat *expr_eval_node(EvalCtx *ctx, const Expr *e);

/* The rewritten value of node e under ctx->mut (lesson_mutate.c). */
Mat *mutation_eval(EvalCtx *ctx, const Expr *e);

/* l's statements evaluated into a state, from statement `first` to `last`
 * (-1: the end), with the values before `first` taken from `from` (NULL
 * when first is 0), under mutation mut evaluated by rewrite (NULL: as
 * written). No edits. */
LessonState *lesson_eval_range(const Lesson *l, const LessonState *from, int first, int last,
                               const Mutation *mut, EvalRewrite rewrite, LessonError *err);

/* The whole of l with the person's edits applied, under mutation mut
 * evaluated by rewrite: a planted bug as the screen shows it. */
LessonState *lesson_eval_edited_mutated(const Lesson *l, const LessonEdit *edits, int n_edits, const Mutation *mut,
                                        EvalRewrite rewrite, LessonError *err);

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
