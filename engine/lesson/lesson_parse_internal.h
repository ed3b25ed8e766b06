/*
 * lesson_parse_internal.h - what the files of the lesson parser share: the
 * parse state (PS) walking the text line by line, the cursor over the
 * tokens of an expression inside a directive, and the helpers and
 * directive handlers of lesson_parse.c (the line walk, the directive
 * table, names), lesson_directives.c (lesson, let, step, text, show, ...)
 * and lesson_exercise.c (exercise, answer, hint, check). Not for the
 * parser's users: they see lesson.h.
 */
#ifndef ATTN_LESSON_PARSE_INTERNAL_H
#define ATTN_LESSON_PARSE_INTERNAL_H

#include "lesson_internal.h"

typedef struct {
    Lesson *l;
    LessonError *err;
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

int fail(PS *ps, attn_status code, size_t pos, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
int nomem(PS *ps);
int grow1(void *arr, int n, size_t size);
char *dupn(const char *s, size_t n);
int is_blank(char c);
size_t blank_len(const char *t, size_t p, size_t end);
void set_line(PS *ps, size_t pos);
void next_line(PS *ps);
int at_end(PS *ps);
size_t skip_blanks(PS *ps, size_t p);
char *prose_dup(PS *ps, size_t a, size_t e);
size_t prose_end(PS *ps, size_t p);
char *rest_of_line(PS *ps, size_t p);
size_t word_len(PS *ps, size_t p);
int is_empty_line(PS *ps);
int cursor_at(PS *ps, Cursor *c, size_t p);
int cursor_next(Cursor *c);
int end_statement(PS *ps, Cursor *c, const char *after);
Expr *parse_expr_at(PS *ps, Cursor *c);
int parse_number(PS *ps, Cursor *c, double *out, const char *what);
int parse_within(PS *ps, Cursor *c, double *tol);
char *squeeze(PS *ps, size_t a, size_t b);
int define_name(PS *ps, size_t pos, size_t n);
int lookup_defined(PS *ps, size_t pos, size_t n, const char *context);
LessonStep *cur_step(PS *ps);
int add_string(char ***arr, int *n, const char *s);
int has_string(char **arr, int n, const char *s);
int close_step(PS *ps);
int d_lesson(PS *ps, size_t kw, size_t arg);
int before_steps(PS *ps, size_t kw, const char *what);
int d_about(PS *ps, size_t kw, size_t arg);
int d_layout(PS *ps, size_t kw, size_t arg);
int read_words(PS *ps, size_t p, char ***out, int *n);
int d_tokens(PS *ps, size_t kw, size_t arg);
int add_stmt(PS *ps, Stmt st);
int d_seed(PS *ps, size_t kw, size_t arg);
int name_expected(PS *ps, size_t p);
int d_let(PS *ps, size_t kw, size_t arg);
int add_let(PS *ps, size_t kw, int slot, Expr *e);
int d_knob(PS *ps, size_t kw, size_t arg);
int d_switch(PS *ps, size_t kw, size_t arg);
int d_labels(PS *ps, size_t kw, size_t arg);
int d_step(PS *ps, size_t kw, size_t arg);
int append_text(char **buf, const char *s, size_t n, int new_paragraph, int own_line, int indent);
int append_prose(PS *ps, char **buf, size_t a, size_t e, int new_paragraph, int own_line, int indent);
int line_is(PS *ps, const char *word);
int d_text(PS *ps, size_t kw, size_t arg);
int d_panes(PS *ps, size_t kw, size_t arg, int heat);
int add_item(PS *ps, VerifyItem it);
int d_answer(PS *ps, size_t kw, size_t arg, LessonExercise *ex, VerifyItem *it);
int d_exercise(PS *ps, size_t kw, size_t arg);
int d_check(PS *ps, size_t kw, size_t arg);

#endif
