/*
 * lesson_directives.c - the directives that build a lesson's frame and its
 * steps: lesson, about, layout, tokens, seed, let, labels, step, text,
 * show and heatmap. Each reads its line (or block) at the parse state and
 * adds to the Lesson; lesson_parse.c's table says which handles which.
 * knob and switch define a 1x1 input, as a literal would, and record its
 * range.
 */
#include "alloc.h"
#include "lesson_parse_state.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int add_let(PS *ps, size_t kw, int slot, Expr *e);
static int add_stmt(PS *ps, Stmt st);
static int append_prose(PS *ps, char **buf, size_t a, size_t e, int new_paragraph, int own_line, int indent);
static int append_text(char **buf, const char *s, size_t n, int new_paragraph, int own_line, int indent);
static int before_steps(PS *ps, size_t kw, const char *what);
static int name_expected(PS *ps, size_t p);
static int read_words(PS *ps, size_t p, char ***out, int *n);

int dir_lesson(PS *ps, size_t kw, size_t arg)
{
    Lesson *l = ps->l;
    if (l->title)
        return ps_fail(ps, ATTN_E_SYNTAX, kw, "the lesson already has a title");
    l->title = ps_rest_of_line(ps, arg);
    if (!l->title)
        return ps_nomem(ps);
    if (!*l->title)
        return ps_fail(ps, ATTN_E_SYNTAX, arg, "'lesson' needs a title: lesson TITLE");
    ps_next_line(ps);
    return 0;
}

static int before_steps(PS *ps, size_t kw, const char *what)
{
    if (ps->l->n_steps > 0)
        return ps_fail(ps, ATTN_E_SYNTAX, kw, "'%s' belongs before the first step", what);
    return 0;
}

int dir_about(PS *ps, size_t kw, size_t arg)
{
    if (before_steps(ps, kw, "about"))
        return -1;
    if (ps->l->about)
        return ps_fail(ps, ATTN_E_SYNTAX, kw, "the lesson already has an 'about' line");
    ps->l->about = ps_rest_of_line(ps, arg);
    if (!ps->l->about)
        return ps_nomem(ps);
    ps_next_line(ps);
    return 0;
}

int dir_layout(PS *ps, size_t kw, size_t arg)
{
    if (before_steps(ps, kw, "layout"))
        return -1;
    Cursor c;
    if (ps_cursor_at(ps, &c, arg))
        return -1;
    if (lex_tok_is(S(ps), &c.tok, "rows"))
        ps->l->layout = LAYOUT_ROWS;
    else if (lex_tok_is(S(ps), &c.tok, "columns") || lex_tok_is(S(ps), &c.tok, "cols"))
        ps->l->layout = LAYOUT_COLUMNS;
    else {
        static const char *const layouts[] = { "rows", "columns" };
        char found[64], mean[48];
        snprintf(found, sizeof found, "%.*s", (int)(c.tok.len < 40 ? c.tok.len : 40), S(ps)->text + c.tok.pos);
        return ps_fail(ps, ATTN_E_SYNTAX, c.tok.pos, "layout is 'rows' or 'columns', not '%s'%s", found,
                       ps_keyword_suggestion(ps, c.tok.pos, c.tok.len, layouts, 2, mean, sizeof mean));
    }
    return ps_cursor_next(&c) || ps_end_statement(ps, &c, "the layout") ? -1 : 0;
}

/* Blank-separated words up to the end of the line or a '#'. */
static int read_words(PS *ps, size_t p, char ***out, int *n)
{
    const char *t = S(ps)->text;
    for (;;) {
        p = ps_skip_blanks(ps, p);
        if (p >= ps->eol || t[p] == '#')
            return 0;
        size_t q = p;
        while (q < ps->eol && ps_blank_len(t, q, ps->eol) == 0)
            q++;
        if (*n >= LESSON_MAX_NAMES) {
            return ps_fail(ps, ATTN_E_LIMIT, p, "more than the limit of %d labels", LESSON_MAX_NAMES);
        }
        char *w = ps_dupn(t + p, q - p);
        if (!w || ps_grow1(out, *n, sizeof **out)) {
            free(w);
            return ps_nomem(ps);
        }
        (*out)[(*n)++] = w;
        p = q;
    }
}

int dir_tokens(PS *ps, size_t kw, size_t arg)
{
    if (before_steps(ps, kw, "tokens"))
        return -1;
    if (ps->l->n_tokens > 0)
        return ps_fail(ps, ATTN_E_SYNTAX, kw, "the tokens are already given");
    if (read_words(ps, arg, &ps->l->tokens, &ps->l->n_tokens))
        return -1;
    if (ps->l->n_tokens == 0)
        return ps_fail(ps, ATTN_E_SYNTAX, kw, "'tokens' needs at least one word: tokens The sky is");
    ps_next_line(ps);
    return 0;
}

static int add_stmt(PS *ps, Stmt st)
{
    Lesson *l = ps->l;
    if (ps_grow1(&l->stmts, l->n_stmts, sizeof *l->stmts))
        return ps_nomem(ps);
    l->stmts[l->n_stmts++] = st;
    return 0;
}

int dir_seed(PS *ps, size_t kw, size_t arg)
{
    Cursor c;
    if (ps_cursor_at(ps, &c, arg))
        return -1;
    size_t pos = c.tok.pos;
    if (c.tok.kind != T_NUM || c.tok.num != floor(c.tok.num) || c.tok.num > 9007199254740992.0)
        return ps_fail(ps, ATTN_E_SYNTAX, pos, "'seed' needs a whole number of 0 or more: seed 3");
    Stmt st = { .kind = ST_SEED, .pos = kw, .seed = (uint64_t)c.tok.num };
    return ps_cursor_next(&c) || ps_end_statement(ps, &c, "the seed") || add_stmt(ps, st) ? -1 : 0;
}

/* Where a name must come next (after blanks from p), a word that starts
 * with a digit is refused as a name rather than lexed as a bad number.
 * Returns 0 when what follows may be a name, -1 after failing. */
static int name_expected(PS *ps, size_t p)
{
    p = ps_skip_blanks(ps, p);
    if (p < ps->eol && isdigit((unsigned char)S(ps)->text[p]))
        return ps_fail(ps, ATTN_E_SYNTAX, p, "'%.*s' is not a name: a name starts with a letter or '_'",
                    (int)ps_word_len(ps, p), S(ps)->text + p);
    return 0;
}

/* A directive that defines a name (let, knob, switch) and was refused
 * after reading it (name->len > 0): the name defined all the same. -1. */
static int refused_naming(PS *ps, const Token *name)
{
    if (name->len > 0)
        ps_define_refused(ps, name->pos, name->len);
    return -1;
}

static int read_let(PS *ps, size_t kw, size_t arg, Token *name);
static int read_knob(PS *ps, size_t kw, size_t arg, Token *name);
static int read_switch(PS *ps, size_t kw, size_t arg, Token *name);

int dir_let(PS *ps, size_t kw, size_t arg)
{
    Token name = { .len = 0 };
    return read_let(ps, kw, arg, &name) ? refused_naming(ps, &name) : 0;
}

int dir_knob(PS *ps, size_t kw, size_t arg)
{
    Token name = { .len = 0 };
    return read_knob(ps, kw, arg, &name) ? refused_naming(ps, &name) : 0;
}

int dir_switch(PS *ps, size_t kw, size_t arg)
{
    Token name = { .len = 0 };
    return read_switch(ps, kw, arg, &name) ? refused_naming(ps, &name) : 0;
}

/* let NAME = EXPRESSION; *name once read. */
static int read_let(PS *ps, size_t kw, size_t arg, Token *name_out)
{
    Cursor c;
    if (name_expected(ps, arg) || ps_cursor_at(ps, &c, arg))
        return -1;
    if (c.tok.kind != T_NAME)
        return ps_fail(ps, ATTN_E_SYNTAX, c.tok.pos, "'let' needs a name: let NAME = EXPRESSION");
    Token name = c.tok;
    *name_out = name;
    if (ps_cursor_next(&c))
        return -1;
    if (!(c.tok.kind == T_SYM && c.tok.sym == '='))
        return ps_fail(ps, ATTN_E_SYNTAX, c.tok.pos, "expected '=' after the name: let NAME = EXPRESSION");
    if (ps_cursor_next(&c))
        return -1;
    int line = ps->line;
    Expr *e = ps_expr_at(ps, &c);
    if (!e)
        return -1;
    if (ps_end_statement(ps, &c, "the expression")) {
        expr_free(e);
        return -1;
    }
    /* defined after its expression: `let X = X + 1` is an unknown name */
    int save = ps->line;
    ps->line = line;
    int slot = ps_define_name(ps, name.pos, name.len);
    ps->line = save;
    if (slot < 0) {
        expr_free(e);
        return -1;
    }
    return add_let(ps, kw, slot, e);
}

/* The statement `let NAME = e` (NAME already defined at slot; e owned),
 * and NAME on the step's or the set-up's list. */
static int add_let(PS *ps, size_t kw, int slot, Expr *e)
{
    Stmt st = { .kind = ST_LET, .pos = kw, .slot = slot, .expr = e };
    if (add_stmt(ps, st)) {
        expr_free(e);
        return -1;
    }
    Lesson *l = ps->l;
    LessonStep *step = ps_cur_step(ps);
    if (step) {
        if (ps_add_string(&step->defines, &step->n_defines, l->names[slot]))
            return ps_nomem(ps);
    } else if (l->n_steps == 0) {
        if (ps_grow1(&l->setup, l->n_setup, sizeof *l->setup))
            return ps_nomem(ps);
        l->setup[l->n_setup++] = l->names[slot];
    }
    return 0;
}

int dir_labels(PS *ps, size_t kw, size_t arg)
{
    (void)kw;
    Cursor c;
    if (name_expected(ps, arg) || ps_cursor_at(ps, &c, arg))
        return -1;
    if (c.tok.kind != T_NAME)
        return ps_fail(ps, ATTN_E_SYNTAX, c.tok.pos, "usage: labels NAME rows|cols LABEL...");
    size_t name_pos = c.tok.pos;
    int slot = ps_lookup_defined(ps, c.tok.pos, c.tok.len, "'labels'");
    if (slot < 0 || ps_cursor_next(&c))
        return -1;
    int cols;
    if (lex_tok_is(S(ps), &c.tok, "rows"))
        cols = 0;
    else if (lex_tok_is(S(ps), &c.tok, "cols") || lex_tok_is(S(ps), &c.tok, "columns"))
        cols = 1;
    else {
        static const char *const axes[] = { "rows", "cols", "columns" };
        char mean[48];
        return ps_fail(ps, ATTN_E_SYNTAX, c.tok.pos,
                       "expected 'rows' or 'cols' after the name: labels NAME rows|cols LABEL...%s",
                       ps_keyword_suggestion(ps, c.tok.pos, c.tok.len, axes, 3, mean, sizeof mean));
    }
    LabelSpec spec = { .pos = name_pos, .slot = slot, .cols = cols };
    if (read_words(ps, c.lx.pos, &spec.names, &spec.n))
        goto fail;
    if (spec.n == 1 && strcmp(spec.names[0], "none") == 0) {
        free(spec.names[0]);
        free(spec.names);
        spec.names = NULL;
        spec.n = 0;
    } else if (spec.n == 0) {
        ps_fail(ps, ATTN_E_SYNTAX, c.lx.pos, "'labels' needs the labels (or 'none')");
        goto fail;
    }
    Lesson *l = ps->l;
    if (ps_grow1(&l->labels, l->n_labels, sizeof *l->labels)) {
        ps_nomem(ps);
        goto fail;
    }
    l->labels[l->n_labels++] = spec;
    ps_next_line(ps);
    return 0;
fail:
    for (int i = 0; i < spec.n; i++)
        free(spec.names[i]);
    free(spec.names);
    return -1;
}

int dir_step(PS *ps, size_t kw, size_t arg)
{
    if (ps_close_step(ps))
        return -1;
    Lesson *l = ps->l;
    char *title = ps_rest_of_line(ps, arg);
    if (!title)
        return ps_nomem(ps);
    if (!*title) {
        ps_fail(ps, ATTN_E_SYNTAX, kw, "'step' needs a title: step TITLE");
        /* going on, the step is opened untitled: its lines are a step's */
        if (!ps_go_on(ps)) {
            free(title);
            return -1;
        }
    }
    if (ps_grow1(&l->steps, l->n_steps, sizeof *l->steps)) {
        free(title);
        return ps_nomem(ps);
    }
    LessonStep *st = &l->steps[l->n_steps];
    st->line = ps->line;
    st->title = title;
    ps->step = l->n_steps++;    /* counted first, so lesson_free frees the title */
    st->text = ps_dupn("", 0);
    if (!st->text)
        return ps_nomem(ps);
    ps_next_line(ps);
    return 0;
}

/* Append prose to buf (paragraphs separated by "\n\n"). */
/* Append n bytes of prose to *buf: after a blank line as a new paragraph
 * ("\n\n"); on a line of its own ("\n", then `indent` spaces) when it is
 * indented deeper than its paragraph or follows such a line (a formula, a
 * list); otherwise joined with a space. */
static int append_text(char **buf, const char *s, size_t n, int new_paragraph, int own_line, int indent)
{
    size_t have = strlen(*buf);
    char *bigger = attn_realloc(*buf, have + n + 3 + (size_t)indent);
    if (!bigger)
        return -1;
    if (have > 0) {
        if (new_paragraph) {
            memcpy(bigger + have, "\n\n", 2);
            have += 2;
        } else if (own_line) {
            bigger[have++] = '\n';
            memset(bigger + have, ' ', (size_t)indent);
            have += (size_t)indent;
        } else {
            bigger[have++] = ' ';
        }
    }
    memcpy(bigger + have, s, n);
    bigger[have + n] = '\0';
    *buf = bigger;
    return 0;
}

/* Append the prose text[a..e) to *buf (joints made blanks) as
 * append_text does; 0, or -1 when out of memory. */
static int append_prose(PS *ps, char **buf, size_t a, size_t e, int new_paragraph, int own_line, int indent)
{
    char *piece = ps_prose_dup(ps, a, e);
    int failed = !piece || append_text(buf, piece, strlen(piece), new_paragraph, own_line, indent);
    free(piece);
    return failed ? -1 : 0;
}

/* The first word of the current line is `word` with nothing after it but
 * blanks or a comment. */
int ps_line_is(PS *ps, const char *word)
{
    size_t p = ps_skip_blanks(ps, ps->pos), n = strlen(word);
    if (p + n > ps->eol || memcmp(S(ps)->text + p, word, n) != 0)
        return 0;
    p = ps_skip_blanks(ps, p + n);
    return p == ps->eol || S(ps)->text[p] == '#';
}

int dir_text(PS *ps, size_t kw, size_t arg)
{
    LessonStep *st = ps_cur_step(ps);
    if (!st)
        return ps_fail(ps, ATTN_E_SYNTAX, kw, "'text' belongs inside a step (after 'step TITLE')");
    int new_paragraph = st->text[0] != '\0';
    size_t p = ps_skip_blanks(ps, arg);
    const char *t = S(ps)->text;
    if (p < ps->eol) {  /* prose on the directive's own line */
        if (append_prose(ps, &st->text, p, ps_prose_end(ps, p), new_paragraph, 0, 0))
            return ps_nomem(ps);
        new_paragraph = 0;
    }
    /* the indentation of the paragraph's first line (-1: none yet), and
     * whether the line before was deeper */
    long para_indent = -1;
    int prev_deeper = 0;
    for (ps_next_line(ps); !ps_at_end(ps); ps_next_line(ps)) {
        if (ps_line_is(ps, "end")) {
            ps_next_line(ps);
            return 0;
        }
        size_t a = ps_skip_blanks(ps, ps->pos), e = ps_prose_end(ps, a);
        if (a < e && t[a] == '#')
            continue;
        if (a == e) {
            new_paragraph = 1;
            para_indent = -1;
            prev_deeper = 0;
            continue;
        }
        long indent = (long)(a - ps->pos);
        if (para_indent < 0 || new_paragraph)
            para_indent = indent;
        int deeper = indent > para_indent;
        int extra = deeper ? (int)(indent - para_indent) : 0;
        if (append_prose(ps, &st->text, a, e, new_paragraph, deeper || prev_deeper, extra))
            return ps_nomem(ps);
        new_paragraph = 0;
        prev_deeper = deeper;
    }
    return ps_fail(ps, ATTN_E_SYNTAX, kw, "this 'text' has no 'end' (prose runs to a line with just 'end')");
}

int dir_panes(PS *ps, size_t kw, size_t arg, int heat)
{
    if (!ps_cur_step(ps))
        return ps_fail(ps, ATTN_E_SYNTAX, kw, "'%s' belongs inside a step", heat ? "heatmap" : "show");
    if (!heat)
        ps->show_given = 1;
    Cursor c;
    if (name_expected(ps, arg) || ps_cursor_at(ps, &c, arg))
        return -1;
    int count = 0;
    for (;; count++) {
        if (c.tok.kind == T_SYM && c.tok.sym == ',') {
            if (name_expected(ps, c.lx.pos) || ps_cursor_next(&c))
                return -1;
        }
        if (c.tok.kind == T_NEWLINE || c.tok.kind == T_EOF)
            break;
        if (c.tok.kind != T_NAME)
            return ps_fail(ps, ATTN_E_SYNTAX, c.tok.pos, "'%s' takes names of matrices", heat ? "heatmap" : "show");
        if (ps_grow1(&ps->pending, ps->n_pending, sizeof *ps->pending))
            return ps_nomem(ps);
        struct Pending *pd = &ps->pending[ps->n_pending];
        pd->pos = c.tok.pos;
        pd->heat = heat;
        pd->name = ps_dupn(S(ps)->text + c.tok.pos, c.tok.len);
        if (!pd->name)
            return ps_nomem(ps);
        ps->n_pending++;
        if (name_expected(ps, c.lx.pos) || ps_cursor_next(&c))
            return -1;
    }
    if (count == 0)
        return ps_fail(ps, ATTN_E_SYNTAX, kw, "'%s' needs at least one name", heat ? "heatmap" : "show");
    return ps_end_statement(ps, &c, "the names");
}

/* ---- knobs ------------------------------------------------------------------ */

/* Define the knob k (its name at name_pos, len n; its default in k->value)
 * as a 1x1 literal, as `let NAME = [ VALUE ]` would, and record it. */
static int add_knob(PS *ps, size_t kw, size_t name_pos, size_t n, size_t value_pos, size_t value_end, LessonKnob k)
{
    int line, col;      /* the knob's own line: the parse is past it now */
    src_linecol(S(ps), kw, &line, &col);
    int save = ps->line;
    ps->line = line;
    int slot = ps_define_name(ps, name_pos, n);
    ps->line = save;
    if (slot < 0)
        return -1;
    Expr *e = attn_calloc(1, sizeof *e);
    if (!e || !(e->vals = attn_malloc(sizeof *e->vals))) {
        free(e);
        return ps_nomem(ps);
    }
    e->kind = E_MATRIX;
    e->pos = e->start = value_pos;
    e->end = value_end;
    e->rows = e->cols = 1;
    e->vals[0] = (float)k.value;
    Lesson *l = ps->l;
    if (ps_grow1(&l->knobs, l->n_knobs, sizeof *l->knobs)) {
        expr_free(e);
        return ps_nomem(ps);
    }
    snprintf(k.name, sizeof k.name, "%s", l->names[slot]);
    k.line = line;
    l->knobs[l->n_knobs++] = k;
    return add_let(ps, kw, slot, e);
}

/* The word `word` next, then a number into *out (its position in *pos). */
static int knob_part(PS *ps, Cursor *c, const char *word, double *out, size_t *pos, const char *what)
{
    if (!lex_tok_is(S(ps), &c->tok, word))
        return ps_fail(ps, ATTN_E_SYNTAX, c->tok.pos, "expected '%s' here: knob NAME = VALUE from LO to HI step STEP", word);
    if (ps_cursor_next(c))
        return -1;
    *pos = c->tok.pos;
    return ps_number(ps, c, out, what);
}

/* knob NAME = VALUE from LO to HI step STEP; *name once read. */
static int read_knob(PS *ps, size_t kw, size_t arg, Token *name_out)
{
    Cursor c;
    if (name_expected(ps, arg) || ps_cursor_at(ps, &c, arg))
        return -1;
    if (c.tok.kind != T_NAME)
        return ps_fail(ps, ATTN_E_SYNTAX, c.tok.pos, "'knob' needs a name: knob NAME = VALUE from LO to HI step STEP");
    Token name = c.tok;
    *name_out = name;
    if (ps_cursor_next(&c))
        return -1;
    if (!(c.tok.kind == T_SYM && c.tok.sym == '='))
        return ps_fail(ps, ATTN_E_SYNTAX, c.tok.pos, "expected '=' after the name: knob NAME = VALUE from LO to HI step STEP");
    if (ps_cursor_next(&c))
        return -1;
    LessonKnob k = { .is_switch = 0 };
    size_t value_pos = c.tok.pos, lo_pos, hi_pos, step_pos;
    if (ps_number(ps, &c, &k.value, "the knob's value after '='"))
        return -1;
    size_t value_end = c.tok.pos;
    if (knob_part(ps, &c, "from", &k.lo, &lo_pos, "the lowest value after 'from'"))
        return -1;
    if (knob_part(ps, &c, "to", &k.hi, &hi_pos, "the highest value after 'to'"))
        return -1;
    if (knob_part(ps, &c, "step", &k.step, &step_pos, "the step after 'step'"))
        return -1;
    if (!isfinite(k.value) || !isfinite(k.lo) || !isfinite(k.hi) || !isfinite(k.step))
        return ps_fail(ps, ATTN_E_SYNTAX, value_pos, "a knob's value, range and step must be finite numbers");
    if (k.lo >= k.hi)
        return ps_fail(ps, ATTN_E_SYNTAX, k.lo > k.hi ? lo_pos : hi_pos, "the knob's range is empty: 'from %g' must be below 'to %g'", k.lo, k.hi);
    if (k.step <= 0)
        return ps_fail(ps, ATTN_E_SYNTAX, step_pos, "the knob's step must be more than 0, not %g", k.step);
    if (k.value < k.lo || k.value > k.hi)
        return ps_fail(ps, ATTN_E_SYNTAX, value_pos, "the knob's value %g is outside its range %g to %g", k.value, k.lo,
                    k.hi);
    return ps_end_statement(ps, &c, "the knob") || add_knob(ps, kw, name.pos, name.len, value_pos, value_end, k) ? -1 : 0;
}

/* switch NAME on|off; *name once read. */
static int read_switch(PS *ps, size_t kw, size_t arg, Token *name_out)
{
    Cursor c;
    if (name_expected(ps, arg) || ps_cursor_at(ps, &c, arg))
        return -1;
    if (c.tok.kind != T_NAME)
        return ps_fail(ps, ATTN_E_SYNTAX, c.tok.pos, "'switch' needs a name: switch NAME on|off");
    Token name = c.tok;
    *name_out = name;
    if (ps_cursor_next(&c))
        return -1;
    LessonKnob k = { .is_switch = 1, .lo = 0, .hi = 1, .step = 1 };
    size_t value_pos = c.tok.pos, value_end = c.tok.pos + c.tok.len;
    if (lex_tok_is(S(ps), &c.tok, "on"))
        k.value = 1;
    else if (lex_tok_is(S(ps), &c.tok, "off"))
        k.value = 0;
    else if (c.tok.kind == T_NEWLINE || c.tok.kind == T_EOF)
        return ps_fail(ps, ATTN_E_SYNTAX, c.tok.pos, "'switch' needs 'on' or 'off' after the name: switch NAME on|off");
    else {
        static const char *const states[] = { "on", "off" };
        char mean[48];
        return ps_fail(ps, ATTN_E_SYNTAX, c.tok.pos, "a switch is 'on' or 'off', not '%.*s'%s",
                       (int)(c.tok.len < 40 ? c.tok.len : 40), S(ps)->text + c.tok.pos,
                       ps_keyword_suggestion(ps, c.tok.pos, c.tok.len, states, 2, mean, sizeof mean));
    }
    return ps_cursor_next(&c) || ps_end_statement(ps, &c, "the switch") || add_knob(ps, kw, name.pos, name.len, value_pos, value_end, k) ? -1 : 0;
}
