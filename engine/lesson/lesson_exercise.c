/*
 * lesson_exercise.c - the directives a lesson is verified by: `exercise`
 * blocks (question, answer, hints) and top-level `check` lines. Both become
 * VerifyItems that lesson_verify.c judges.
 */
#include "alloc.h"
#include "lesson_parse_state.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add_item(PS *ps, VerifyItem it);

static int add_item(PS *ps, VerifyItem it)
{
    Lesson *l = ps->l;
    if (ps_grow1(&l->items, l->n_items, sizeof *l->items))
        return ps_nomem(ps);
    l->items[l->n_items++] = it;
    return 0;
}

/* `answer EXPR [= VALUE] [within TOL]` of exercise *ex (item *it). */
int dir_answer(PS *ps, size_t kw, size_t arg, LessonExercise *ex, VerifyItem *it)
{
    if (it->lhs)
        return ps_fail(ps, ATTN_E_SYNTAX, kw, "this exercise already has an answer");
    Cursor c;
    if (ps_cursor_at(ps, &c, arg))
        return -1;
    size_t start = c.tok.pos;
    Expr *e = ps_expr_at(ps, &c);
    if (!e)
        return -1;
    it->lhs = e;
    size_t end = e->end;
    ex->answer = ps_squeeze(ps, start, end);
    if (!ex->answer)
        return ps_nomem(ps);
    if (c.tok.kind == T_SYM && c.tok.sym == '=') {
        if (ps_cursor_next(&c) || ps_number(ps, &c, &ex->expected, "the answer's value after '='"))
            return -1;
        ex->has_expected = 1;
    }
    if (ps_within(ps, &c, &ex->within))
        return -1;
    it->has_expected = ex->has_expected;
    it->expected = ex->expected;
    it->tol = ex->within;
    return ps_end_statement(ps, &c, "the answer");
}

/* Add name[row,col] (1-based here, written at pos) to the cells ex hides. */
static int add_hide(PS *ps, LessonExercise *ex, const char *name, int row, int col, size_t pos)
{
    if (ps_grow1(&ex->hides, ex->n_hides, sizeof *ex->hides))
        return ps_nomem(ps);
    LessonCell *c = &ex->hides[ex->n_hides++];
    snprintf(c->name, sizeof c->name, "%s", name);
    c->row = row - 1;
    c->col = col - 1;
    c->pos = pos;
    return 0;
}

/* `hide CELL...`: cells NAME[i,j] of defined matrices. */
static int d_hide(PS *ps, size_t kw, size_t arg, LessonExercise *ex)
{
    Cursor c;
    if (ps_cursor_at(ps, &c, arg))
        return -1;
    if (c.tok.kind == T_NEWLINE || c.tok.kind == T_EOF)
        return ps_fail(ps, ATTN_E_SYNTAX, kw, "'hide' needs the cells to hide, e.g. hide scaled[1,1]");
    while (c.tok.kind != T_NEWLINE && c.tok.kind != T_EOF) {
        size_t at = c.tok.pos;
        Expr *e = ps_expr_at(ps, &c);
        if (!e)
            return -1;
        int cell = e->kind == E_INDEX && e->a->kind == E_NAME && e->row > 0 && e->col > 0;
        int failed = cell ? add_hide(ps, ex, ps->l->names[e->a->slot], e->row, e->col, at)
                          : ps_fail(ps, ATTN_E_SYNTAX, at, "'hide' takes cells like scaled[1,1], one number each");
        expr_free(e);
        if (failed)
            return -1;
        if (c.tok.kind == T_SYM && c.tok.sym == ',' && ps_cursor_next(&c))
            return -1;
    }
    return ps_end_statement(ps, &c, "the cells to hide");
}

/* `mistake EXPR : MESSAGE`: what a wrong answer gives, and what to say. */
static int d_mistake(PS *ps, size_t kw, size_t arg, LessonExercise *ex)
{
    Cursor c;
    if (ps_cursor_at(ps, &c, arg))
        return -1;
    size_t start = c.tok.pos;
    Expr *e = ps_expr_at(ps, &c);
    if (!e)
        return -1;
    size_t end = e->end;
    if (c.tok.kind != T_SYM || c.tok.sym != ':') {
        expr_free(e);
        return ps_fail(ps, ATTN_E_SYNTAX, c.tok.pos, "a mistake reads 'mistake EXPRESSION : what went wrong'");
    }
    if (ps_grow1(&ex->mistakes, ex->n_mistakes, sizeof *ex->mistakes)) {
        expr_free(e);
        return ps_nomem(ps);
    }
    LessonMistake *m = &ex->mistakes[ex->n_mistakes++];
    m->parsed = e;
    m->pos = start;
    m->expr = ps_squeeze(ps, start, end);
    /* brackets may carry the expression onto later lines: the message is
     * the rest of the line the ':' is on */
    if (c.tok.pos > ps->eol)
        ps_set_line(ps, c.tok.pos);
    m->message = ps_rest_of_line(ps, c.tok.pos + 1);
    if (!m->expr || !m->message)
        return ps_nomem(ps);
    if (!*m->message)
        return ps_fail(ps, ATTN_E_SYNTAX, kw, "a mistake needs its message after ':'");
    ps_next_line(ps);
    return 0;
}

/* `hint TEXT`. */
static int d_hint(PS *ps, size_t kw, size_t arg, LessonExercise *ex)
{
    char *h = ps_rest_of_line(ps, arg);
    if (!h || ps_grow1(&ex->hints, ex->n_hints, sizeof *ex->hints)) {
        free(h);
        return ps_nomem(ps);
    }
    ex->hints[ex->n_hints++] = h;
    if (!*h)
        return ps_fail(ps, ATTN_E_SYNTAX, kw, "'hint' needs the hint's text");
    ps_next_line(ps);
    return 0;
}

/* The answer read, at the exercise's `end`: the cell it asks about, and
 * the cell it hides when no `hide` says. */
static int close_answer(PS *ps, LessonExercise *ex, const Expr *a)
{
    /* the answer parsed once: the judge, the handouts and the screen read
     * the cell it asks about from here */
    ex->parsed = a;
    if (a->kind == E_INDEX && a->a->kind == E_NAME && a->row > 0 && a->col > 0) {
        ex->has_cell = 1;
        snprintf(ex->cell.name, sizeof ex->cell.name, "%s", ps->l->names[a->a->slot]);
        ex->cell.row = a->row - 1;
        ex->cell.col = a->col - 1;
        ex->cell.pos = a->pos;
    }
    /* no `hide`: an answer that is one cell hides that cell */
    if (ex->n_hides == 0 && ex->has_cell && add_hide(ps, ex, ex->cell.name, a->row, a->col, a->pos))
        return -1;
    return 0;
}

/* A word at p (n bytes) that no exercise reads: refused. 1 when the block
 * goes on, 0 when it ends here (the parse going on after it), -1 when the
 * parse stops. refused: a line of this block was refused before. */
static int stray_word(PS *ps, LessonExercise *ex, size_t p, size_t n, int refused)
{
    const char *w = S(ps)->text + p;
    int directive = ps_top_directive(w, n);
    if (directive && refused)
        return 0;   /* the block ends unclosed: no second word on that */
    char mean[48];
    ps_directive_suggestion(w, n, 1, mean, sizeof mean);
    size_t shown = n;
    if (shown == 0)     /* not a word: show one whole character */
        for (shown = 1; p + shown < ps->eol && ((unsigned char)w[shown] & 0xC0) == 0x80; shown++)
            ;
    /* a misspelt word of the exercise, or else a missing 'end' */
    ps_fail(ps, ATTN_E_SYNTAX, p,
            "expected 'answer', 'hint', 'mistake', 'hide' or 'end' in the exercise of line %d, found '%.*s'%s",
            ex->line, (int)(shown < 30 ? shown : 30), w, mean[0] ? mean : " (missing 'end'?)");
    if (!ps_go_on(ps))
        return -1;
    if (directive)
        return 0;   /* the lesson's own directive: read as the lesson's */
    ps_skip_statement(ps, p, 0);
    return strstr(mean, "'end'") ? 0 : 1;     /* 'ned': the block ends there */
}

int dir_exercise(PS *ps, size_t kw, size_t arg)
{
    LessonStep *st = ps_cur_step(ps);
    if (!st)
        return ps_fail(ps, ATTN_E_SYNTAX, kw, "'exercise' belongs inside a step");
    if (lesson_n_exercises(ps->l) >= LESSON_MAX_EXERCISES)
        return ps_fail(ps, ATTN_E_LIMIT, kw, "more than the limit of %d exercises", LESSON_MAX_EXERCISES);
    if (ps_grow1(&st->exercises, st->n_exercises, sizeof *st->exercises))
        return ps_nomem(ps);
    LessonExercise *ex = &st->exercises[st->n_exercises++];
    ex->line = ps->line;
    ex->within = 1e-3;
    ex->question = ps_rest_of_line(ps, arg);
    if (!ex->question)
        return ps_nomem(ps);
    if (!*ex->question)
        return ps_fail(ps, ATTN_E_SYNTAX, kw, "'exercise' needs a question: exercise QUESTION");
    VerifyItem it = { .kind = VERIFY_EXERCISE, .line = ps->line, .pos = kw, .tol = 1e-3 };
    /* refused: a line of the block was, and the parse went on past it (to
     * the block's next line); the exercise is then no item to verify */
    int refused = 0;
    for (ps_next_line(ps); !ps_at_end(ps);) {
        if (ps_is_empty_line(ps)) {
            ps_next_line(ps);
            continue;
        }
        size_t p = ps_skip_blanks(ps, ps->pos), n = ps_word_len(ps, p);
        const char *w = S(ps)->text + p;
        int failed, prose = 0;
        if (n == 3 && memcmp(w, "end", 3) == 0) {
            if (!ps_line_is(ps, "end")) {
                ps_fail(ps, ATTN_E_SYNTAX, p + 3, "nothing may follow 'end' on its line");
                if (!ps_go_on(ps))
                    goto fail;
                refused = 1;
            }
            if (refused) {      /* the answer may be the line refused */
                ps_next_line(ps);
                goto recovered;
            }
            if (!it.lhs) {
                ps_fail(ps, ATTN_E_SYNTAX, kw, "this exercise has no 'answer EXPRESSION'");
                goto fail;
            }
            if (close_answer(ps, ex, it.lhs))
                goto fail;
            ps_next_line(ps);
            goto done;
        } else if (n == 6 && memcmp(w, "answer", 6) == 0) {
            failed = dir_answer(ps, p, p + 6, ex, &it);
        } else if (n == 4 && memcmp(w, "hide", 4) == 0) {
            failed = d_hide(ps, p, p + 4, ex);
        } else if (n == 7 && memcmp(w, "mistake", 7) == 0) {
            failed = d_mistake(ps, p, p + 7, ex);
        } else if (n == 4 && memcmp(w, "hint", 4) == 0) {
            failed = d_hint(ps, p, p + 4, ex);
            prose = 1;
        } else {
            int goes_on = stray_word(ps, ex, p, n, refused);
            if (goes_on < 0)
                goto fail;
            refused = 1;
            if (!goes_on)
                goto recovered;
            continue;
        }
        if (failed) {
            if (!ps_go_on(ps))
                goto fail;
            refused = 1;
            ps_skip_statement(ps, p, prose);
        }
    }
    if (refused)
        goto recovered;     /* its missing 'end' is no second error */
    ps_fail(ps, ATTN_E_SYNTAX, kw, "this exercise has no 'end'");
fail:
    expr_free(it.lhs);
    ex->parsed = NULL;
    return -1;
recovered:
    expr_free(it.lhs);
    ex->parsed = NULL;
    return 0;
done:
    it.what = ps_dupn(ex->question, strlen(ex->question));
    if (!it.what) {
        expr_free(it.lhs);
        return ps_nomem(ps);
    }
    if (add_item(ps, it)) {
        expr_free(it.lhs);
        free(it.what);
        return -1;
    }
    return 0;
}

int dir_check(PS *ps, size_t kw, size_t arg)
{
    if (ps_close_step(ps))
        return -1;
    Cursor c;
    if (ps_cursor_at(ps, &c, arg))
        return -1;
    VerifyItem it = { .kind = VERIFY_CHECK, .line = ps->line, .pos = kw, .tol = 1e-4 };
    size_t start = c.tok.pos;
    it.lhs = ps_expr_at(ps, &c);
    if (!it.lhs)
        return -1;
    if (!(c.tok.kind == T_SYM && c.tok.sym == '=')) {
        ps_fail(ps, ATTN_E_SYNTAX, c.tok.pos, "expected '=' in the check: check EXPRESSION = VALUE [within TOLERANCE]");
        goto fail;
    }
    if (ps_cursor_next(&c) || !(it.rhs = ps_expr_at(ps, &c)))
        goto fail;
    size_t end = it.rhs->end;
    if (lex_tok_is(S(ps), &c.tok, "within")) {
        if (ps_within(ps, &c, &it.tol))
            goto fail;
        end = c.tok.pos;
    }
    if (!(it.what = ps_squeeze(ps, start, end))) {
        ps_nomem(ps);
        goto fail;
    }
    if (ps_end_statement(ps, &c, "the check") || add_item(ps, it))
        goto fail;
    return 0;
fail:
    expr_free(it.lhs);
    expr_free(it.rhs);
    free(it.what);
    return -1;
}
