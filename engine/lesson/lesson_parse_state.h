/*
 * lesson_parse_state.h - what the files of the lesson parser share: the
 * parse state (PS) walking the text line by line, the cursor over the
 * tokens of an expression inside a directive, its helpers
 * (lesson_parse_state.c: lines, prose, names, the step being read) and the
 * directive handlers of lesson_directives.c (lesson, let, step, text, show,
 * ...) and lesson_exercise.c (exercise, answer, hint, check), which the
 * line walk (lesson_parse.c) calls from its table. Not for the parser's
 * users: they see lesson.h.
 *
 * Returns: as everywhere in attn (ARCHITECTURE.md, Conventions), the
 * parser's steps (ps_fail, ps_nomem, ps_grow1, ps_cursor_at,
 * ps_end_statement, ps_number, dir_*, ...) return 0 when the step is done
 * and -1 when it failed, the error already in ps->err with its code, line
 * and column; ps_define_name and ps_lookup_defined return a slot, or -1.
 */
#ifndef ATTN_LESSON_PARSE_STATE_H
#define ATTN_LESSON_PARSE_STATE_H

#include "lesson_tree.h"

typedef struct {
    Lesson *l;
    LessonError *err;       /* where the next error goes: errs[n_errs]       */
    LessonError *errs;      /* the errors kept (lesson_parse_all), max_errs  */
    int max_errs, n_errs;
    int stopped;            /* the parse gives up: no error is kept after    */
    size_t pos;             /* start of the current line                     */
    int line;               /* its number                                    */
    size_t eol;             /* its end (the '\n' or the end of the text),
                               past any lines joined to it                 */
    int step;               /* index of the open step, -1 at top level       */
    int show_given;         /* the open step had a `show`                    */
    /* names a step's show/heatmap mention, resolved when the step closes */
    struct Pending { size_t pos; int heat; char *name; } *pending;
    int n_pending;
} PS;

typedef struct {
    Lexer lx;
    Token tok;
} Cursor;

static inline const Src *S(PS *ps) { return &ps->l->src; }

int ps_fail(PS *ps, attn_status code, size_t pos, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* After a refusal (the error in ps->err): keep the error; 1 when the parse
 * may go on past it (the caller starts again where it safely can), 0 when
 * it stops (the caller returns -1: out of memory, a limit, max_errs kept). */
int ps_go_on(PS *ps);
/* The end of the statement that starts at p: the line end (past joints)
 * at which no ( or [ opened since p is still open, or the end of the text;
 * prose: the line end, brackets being words there. */
size_t ps_statement_end(PS *ps, size_t p, int prose);
/* After a refused statement at p: on at the line after it (never back
 * before the current line). */
void ps_skip_statement(PS *ps, size_t p, int prose);
/* A statement refused after its name (name_pos, n): the name defined all
 * the same where it may be, the error in ps->err kept as it was. */
void ps_define_refused(PS *ps, size_t name_pos, size_t n);
int ps_nomem(PS *ps);
int ps_grow1(void *arr, int n, size_t size);
char *ps_dupn(const char *s, size_t n);
size_t ps_blank_len(const char *t, size_t p, size_t end);
/* Make the line starting at pos the current one. */
void ps_set_line(PS *ps, size_t pos);
void ps_next_line(PS *ps);
int ps_at_end(PS *ps);
size_t ps_skip_blanks(PS *ps, size_t p);
char *ps_prose_dup(PS *ps, size_t a, size_t e);
size_t ps_prose_end(PS *ps, size_t p);
char *ps_rest_of_line(PS *ps, size_t p);
size_t ps_word_len(PS *ps, size_t p);
int ps_is_empty_line(PS *ps);
int ps_cursor_at(PS *ps, Cursor *c, size_t p);
int ps_cursor_next(Cursor *c);
int ps_end_statement(PS *ps, Cursor *c, const char *after);
Expr *ps_expr_at(PS *ps, Cursor *c);
int ps_number(PS *ps, Cursor *c, double *out, const char *what);
int ps_within(PS *ps, Cursor *c, double *tol);
char *ps_squeeze(PS *ps, size_t a, size_t b);
int ps_define_name(PS *ps, size_t pos, size_t n);
int ps_lookup_defined(PS *ps, size_t pos, size_t n, const char *context);
LessonStep *ps_cur_step(PS *ps);
int ps_add_string(char ***arr, int *n, const char *s);
/* "; did you mean 'DIRECTIVE'?" for the directive nearest w[0..n), or "":
 * in_exercise, among the words of an exercise block (answer, hint,
 * mistake, hide, end), and never for a directive of the lesson itself
 * (met in an exercise, that is a missing 'end'); else among them all.
 * lesson_parse.c's table is the one list of them. Into buf; returns buf. */
const char *ps_directive_suggestion(const char *w, size_t n, int in_exercise, char *buf, size_t size);
/* Is w[0..n) a directive read at the top of a lesson or a step (not one of
 * an exercise block's)? */
int ps_top_directive(const char *w, size_t n);
/* The same for a keyword a directive expects here (words[0..n_words)). */
const char *ps_keyword_suggestion(PS *ps, size_t pos, size_t n, const char *const *words, int n_words, char *buf,
                                  size_t size);
int ps_close_step(PS *ps);
int dir_lesson(PS *ps, size_t kw, size_t arg);
int dir_about(PS *ps, size_t kw, size_t arg);
int dir_layout(PS *ps, size_t kw, size_t arg);
int dir_tokens(PS *ps, size_t kw, size_t arg);
int dir_seed(PS *ps, size_t kw, size_t arg);
int dir_let(PS *ps, size_t kw, size_t arg);
int dir_knob(PS *ps, size_t kw, size_t arg);
int dir_switch(PS *ps, size_t kw, size_t arg);
int dir_labels(PS *ps, size_t kw, size_t arg);
int dir_step(PS *ps, size_t kw, size_t arg);
int ps_line_is(PS *ps, const char *word);
int dir_text(PS *ps, size_t kw, size_t arg);
int dir_panes(PS *ps, size_t kw, size_t arg, int heat);
int dir_answer(PS *ps, size_t kw, size_t arg, LessonExercise *ex, VerifyItem *it);
int dir_exercise(PS *ps, size_t kw, size_t arg);
int dir_check(PS *ps, size_t kw, size_t arg);

#endif
