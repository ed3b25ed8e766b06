/*
 * teach_internal.h - what the teaching modules share: the classic mistakes
 * (one row each in MUT_KINDS), a mistake placed at one node (Mutation),
 * the judge's state and its candidates. Built on the language's tree
 * (lesson_tree.h); not for app/ code, which sees teach.h.
 *
 * The modules: lesson_mutate.c (where each mistake may apply and its
 * rewrite, evaluated), lesson_diagnose.c (the rewrites of one exercise's
 * arithmetic, each with its message), lesson_judge.c (the one judge),
 * lesson_answer.c (reading a student's number), lesson_verify.c (what
 * `attn check` proves), lesson_bug.c and lesson_bug_judge.c (find the bug).
 */
#ifndef ATTN_TEACH_INTERNAL_H
#define ATTN_TEACH_INTERNAL_H

#include "lesson_tree.h"
#include "teach.h"

/* ---- the classic mistakes as rewrites (lesson_mutate.c) ---- */

/* The classic mistakes, one row each:
 *   X(KIND, id, words, bug)
 * KIND is the MutKind (MUT_KIND); id the diagnosis id, a contract (the
 * class tally, `attn grade --json` and find the bug depend on it); words
 * what a tally calls it; bug its number in find the bug's list (0: a
 * mistake of an answer, never of code: e taken as 3, a score given for a
 * weight). Each module that handles the mistakes has one row per kind
 * generated from this list, so a kind without its row does not compile:
 * lesson_mutate.c where it applies and its rewrite, lesson_diagnose.c what
 * the judge tells the student, lesson_bug.c the statement as planted. The
 * comment after each row is the rewrite. */
#define MUT_KINDS(X)                                                                                       \
    X(UNSCALED, "unscaled", "the scale left out", 2)               /* x / c, x * c (c one number) -> x */  \
    X(SCALED_TWICE, "scaled-twice", "the scale applied twice", 3)  /* -> x / c / c (x * c * c)        */  \
    X(SCALE_INVERTED, "scale-inverted", "multiplied by the scale where it divides", 5) /* x / c <-> x * c */ \
    X(SCALE_BY_D, "scale-by-d", "d_k where sqrt(d_k) belongs", 4)  /* x / sqrt(d) -> x / d            */  \
    X(WRONG_AXIS, "wrong-axis", "softmax along the wrong axis", 1) /* softmax_rows <-> softmax_cols   */  \
    X(SOFTMAX_TWICE, "softmax-twice", "softmax applied twice", 9)  /* softmax(softmax(x))             */  \
    X(NO_MASK, "no-mask", "the mask left out", 7)                  /* x + M (M holding -inf) -> x     */  \
    X(MASK_AFTER_SOFTMAX, "mask-after-softmax", "the mask after the softmax", 8) /* -> softmax(x) + M */   \
    X(NO_BIAS, "no-bias", "the bias left out", 11)                 /* x + b (a row or column) -> x    */  \
    X(TRANSPOSED, "transposed", "rows and columns swapped", 6)     /* A @ B, one side transposed      */  \
    X(E_AS_3, "e-as-3", "e taken as 3", 0)                         /* softmax in base 3               */  \
    X(TRUE_E, "true-e", "the true e where e = 3 was asked", 0)     /* log(3) -> 1                     */  \
    X(NOT_NORMALIZED, "not-normalized", "exp without the division", 10) /* softmax(x) -> exp(x), x / sums -> x */ \
    X(SCORE_NOT_WEIGHT, "score-not-weight", "the score given for the weight", 0) /* softmax(x) -> x   */   \
    X(HEADS_TILED, "heads-tiled", "key/value heads tiled where they repeat", 12) /* 1 2 1 2 for 1 1 2 2 */ \
    X(ROPE_PAIRING, "rope-pairing", "the other RoPE pairing", 13)  /* rope <-> rope_half              */  \
    X(WINDOW_OFF_BY_ONE, "window-off-by-one", "the sliding window one key off", 14) /* w + 1, w - 1  */  \
    X(NO_ROWSUM_TERM, "no-rowsum-term", "the softmax gradient's rowsum term left out", 15) /* x - rowsum -> x */ \
    X(ROPE_SIN_FOR_COS, "rope-sin-for-cos", "sin and cos swapped in the rotation", 0) /* cos <-> sin  */  \
    X(ROPE_BACKWARDS, "rope-backwards", "the rotation turned the other way", 0) /* sin's sign          */

#define MUT_KIND_ENUM(kind, id, words, bug) MUT_##kind,
typedef enum { MUT_KINDS(MUT_KIND_ENUM) MUT_COUNT } MutKind;

/* A kind's row of MUT_KINDS (lesson_mutate.c); k outside: NULL. */
typedef struct {
    const char *id, *words;
    int bug;
} MutKindInfo;
const MutKindInfo *mutation_kind(MutKind k);

typedef struct Mutation {
    MutKind kind;
    int stmt;               /* the statement rewritten (index in stmts)      */
    const struct Expr *node;/* the node of its expression rewritten          */
    int side;               /* MUT_TRANSPOSED: 0 the left operand, 1 the right;
                               MUT_WINDOW_OFF_BY_ONE: 0 one key more, 1 less */
} Mutation;

/* The rewritten value of node e under ctx->mut (the evaluator's hook,
 * EvalCtx.rewrite). */
Mat *mutation_eval(EvalCtx *ctx, const Expr *e);

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
/* May mutation m be planted as a bug in l (evaluated as written: s)? Its
 * kind is one someone writes in code, where its row allows (lesson_plant.c). */
int bug_plantable(const Lesson *l, const LessonState *s, const Mutation *m);
/* "NAME = EXPRESSION" of statement i, the node of m rewritten (m NULL: as
 * written), into out. */
void bug_statement_text(const Lesson *l, const LessonState *s, int i, const Mutation *m, char *out, size_t size);
/* The first matrix the steps show (in order) that differs between the two
 * states: its name and step (0-based), or -1. */
int bug_first_shown_change(const Lesson *l, const LessonState *right, const LessonState *bugged, const char **name);

/* ---- what a student can read (screen_reading.c) ---- */

/* A number a text writes on its own (not inside a word: W_k, e^10, x2): a
 * decimal ("0.4754", "-0.5") or a fraction of whole numbers ("1/4"); a
 * whole number alone is none. unit is the place of its last digit (1e-4
 * for 0.4754), 0 for a fraction (exact). */
typedef struct {
    char text[48];
    double value, unit;
} ProseNumber;
/* The next such number of text from *at on: 1, *out and *at past it, or 0
 * at the end. */
int prose_number(const char **at, const char *text, ProseNumber *out);

/* The first cell ex's own screen shows (its step's panes in s, less the
 * cells it and the exercises after it keep as '?') that reads as got to
 * the digits typed (within half of res, the unit of the last digit; res 0,
 * more decimals than the screen's, or fewer than three significant digits
 * typed, which meet their like by chance: none): 1 and "NAME[i,j]" into
 * cell, else 0. What a student who
 * typed got most likely read; first a cell at the asked cell's place
 * (*same_place 1: that matrix holds the number at the asked place, another
 * stage of the same cell, where a slip of the arithmetic lands). */
int screen_cell_reading(const Lesson *l, const LessonState *s, const LessonExercise *ex, double got, double res,
                        char *cell, size_t size, int *same_place);
/* The significant digits of a number as written ("0.4754": 4, "10.0000":
 * 1, "0.2500": 2, "4.5e-5": 2): leading and trailing zeros do not count. */
int reading_significant(const char *t);
/* Where ex stands: its place among the lesson's exercises and its step,
 * each -1 when it is none of l's. */
void reading_locate(const Lesson *l, const LessonExercise *ex, int *at, int *step);

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

#endif
