/*
 * lesson_parse.c - the directives of a lesson file, read line by line into
 * a compiled Lesson: its metadata, its steps (text, panes, exercises), the
 * statements to evaluate in order (let, seed) with their expression trees,
 * the label directives and the checks. The grammar of expressions is in
 * lesson_expr.c; this file decides where statements start and end.
 *
 * Rules (documented for authors in lessons/README.md):
 * - A directive is the first word of a line; indentation is cosmetic.
 * - `lesson TITLE` is the first directive. `about`, `layout`, `tokens` come
 *   before the first step.
 * - A step runs from `step TITLE` to the next `step`, the next top-level
 *   `check`, or the end of the file. `text` and `exercise` blocks close with
 *   `end`.
 * - Prose (titles, text, questions, hints) is taken as written: a `#` in it
 *   is text, but a line starting with `#` is a comment everywhere. In the
 *   other directives `#` starts a comment.
 * - An expression may continue on the next lines while a ( or [ is open.
 * - A backslash that ends a line (src_joint) joins it to the next: the
 *   directive, its words or its prose go on there, and the joint reads as
 *   one blank. Positions stay those of the file, so errors on a continued
 *   line name its true line and column.
 */
#include "alloc.h"
#include "lesson_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static const char *const directives[] = {
    "lesson", "about", "layout", "tokens", "seed", "let", "labels", "step", "text",
    "show", "heatmap", "exercise", "answer", "hint", "end", "check",
};
#define N_DIRECTIVES ((int)(sizeof directives / sizeof *directives))

static const Src *S(PS *ps) { return &ps->l->src; }

static int fail(PS *ps, attn_status code, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(PS *ps, attn_status code, size_t pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    src_verror(S(ps), ps->err, code, pos, fmt, ap);
    va_end(ap);
    return 0;
}

static int nomem(PS *ps)
{
    return fail(ps, ATTN_E_NOMEM, ps->pos, "out of memory reading the lesson");
}

/* Append one zeroed element to *arr (which holds n); 1 on success. */
static int grow1(void *arr, int n, size_t size)
{
    void **p = arr;
    void *bigger = attn_realloc(*p, (size_t)(n + 1) * size);
    if (!bigger)
        return 0;
    memset((char *)bigger + (size_t)n * size, 0, size);
    *p = bigger;
    return 1;
}

static char *dupn(const char *s, size_t n)
{
    char *d = attn_malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* The length of the blank at p (before end): a space, a tab, a CR, or a
 * line joint; 0 when p is not blank. */
static size_t blank_len(const char *t, size_t p, size_t end)
{
    if (p >= end)
        return 0;
    return is_blank(t[p]) ? 1 : src_joint(t, p, end);
}

/* Set the current line to the one starting at pos. */
static void set_line(PS *ps, size_t pos)
{
    const Src *s = S(ps);
    for (size_t i = ps->pos; i < pos && i < s->len; i++)
        if (s->text[i] == '\n')
            ps->line++;
    ps->pos = pos;
    size_t from = pos;
    for (;;) {
        const char *nl = from < s->len ? memchr(s->text + from, '\n', s->len - from) : NULL;
        ps->eol = nl ? (size_t)(nl - s->text) : s->len;
        size_t q = ps->eol;
        int joined = nl && ((q >= 1 && s->text[q - 1] == '\\') ||
                            (q >= 2 && s->text[q - 1] == '\r' && s->text[q - 2] == '\\'));
        if (!joined)
            return;
        from = q + 1;
    }
}

static void next_line(PS *ps)
{
    set_line(ps, ps->eol < S(ps)->len ? ps->eol + 1 : S(ps)->len);
}

static int at_end(PS *ps) { return ps->pos >= S(ps)->len; }

static size_t skip_blanks(PS *ps, size_t p)
{
    size_t n;
    while ((n = blank_len(S(ps)->text, p, ps->eol)) > 0)
        p += n;
    return p;
}

/* Prose text[a..e) as a new string, each line joint (with the blanks
 * around it) made one space. */
static char *prose_dup(PS *ps, size_t a, size_t e)
{
    const char *t = S(ps)->text;
    char *out = attn_malloc(e - a + 1);
    if (!out)
        return NULL;
    size_t n = 0;
    for (size_t i = a; i < e;) {
        size_t j = src_joint(t, i, e);
        if (j == 0) {
            out[n++] = t[i++];
            continue;
        }
        while (n > 0 && is_blank(out[n - 1]))
            n--;
        out[n++] = ' ';
        for (i += j; i < e && is_blank(t[i]); i++)
            ;
    }
    out[n] = '\0';
    return out;
}

/* The end of the prose from p to the line end, trailing blanks left out. */
static size_t prose_end(PS *ps, size_t p)
{
    size_t e = ps->eol;
    while (e > p && is_blank(S(ps)->text[e - 1]))
        e--;
    return e;
}

/* The prose from p to the end of the line, trimmed, as a new string. */
static char *rest_of_line(PS *ps, size_t p)
{
    p = skip_blanks(ps, p);
    return prose_dup(ps, p, prose_end(ps, p));
}

/* The word at p (letters, digits, _), its length in *n. */
static size_t word_len(PS *ps, size_t p)
{
    size_t q = p;
    while (q < ps->eol && (isalnum((unsigned char)S(ps)->text[q]) || S(ps)->text[q] == '_'))
        q++;
    return q - p;
}

/* A line with nothing but blanks or a comment. */
static int is_empty_line(PS *ps)
{
    size_t p = skip_blanks(ps, ps->pos);
    return p == ps->eol || S(ps)->text[p] == '#';
}

/* ---- expressions inside directives ---- */

typedef struct {
    Lexer lx;
    Token tok;
} Cursor;

static int cursor_at(PS *ps, Cursor *c, size_t p)
{
    c->lx.src = S(ps);
    c->lx.pos = p;
    c->lx.err = ps->err;
    return lex_next(&c->lx, &c->tok);
}

static int cursor_next(Cursor *c) { return lex_next(&c->lx, &c->tok); }

/* The statement must end here; move to the line after it. */
static int end_statement(PS *ps, Cursor *c, const char *after)
{
    if (c->tok.kind != T_NEWLINE && c->tok.kind != T_EOF) {
        char found[64];
        snprintf(found, sizeof found, "%.*s", (int)(c->tok.len < 40 ? c->tok.len : 40),
                 S(ps)->text + c->tok.pos);
        return fail(ps, ATTN_E_SYNTAX, c->tok.pos, "unexpected '%s' after %s", found, after);
    }
    set_line(ps, c->lx.pos);   /* just after the line end, or the end of the text */
    return 1;
}

static Expr *parse_expr_at(PS *ps, Cursor *c)
{
    Scope scope = { ps->l->names, ps->l->n_names };
    return expr_parse(&c->lx, &c->tok, &scope);
}

/* A number with an optional sign (or inf) from the cursor. */
static int parse_number(PS *ps, Cursor *c, double *out, const char *what)
{
    double sign = 1;
    size_t pos = c->tok.pos;
    if (c->tok.kind == T_SYM && (c->tok.sym == '-' || c->tok.sym == '+')) {
        sign = c->tok.sym == '-' ? -1 : 1;
        if (!cursor_next(c))
            return 0;
    }
    if (c->tok.kind == T_NUM)
        *out = sign * c->tok.num;
    else if (tok_is(S(ps), &c->tok, "inf"))
        *out = sign * INFINITY;
    else
        return fail(ps, ATTN_E_SYNTAX, pos, "expected %s (a number)", what);
    return cursor_next(c);
}

/* Optional `within TOL`. */
static int parse_within(PS *ps, Cursor *c, double *tol)
{
    if (!tok_is(S(ps), &c->tok, "within"))
        return 1;
    size_t pos = c->tok.pos;
    if (!cursor_next(c) || !parse_number(ps, c, tol, "a tolerance after 'within'"))
        return 0;
    if (!(*tol >= 0) || isinf(*tol))
        return fail(ps, ATTN_E_SYNTAX, pos, "a tolerance is a number of 0 or more");
    return 1;
}

/* The source text from a to b with runs of blanks and line ends made one
 * space, for a check's description. */
static char *squeeze(PS *ps, size_t a, size_t b)
{
    char *out = attn_malloc(b - a + 1);
    if (!out)
        return NULL;
    size_t n = 0;
    int blank = 0;
    for (size_t i = a; i < b; i++) {
        char ch = S(ps)->text[i];
        size_t j = src_joint(S(ps)->text, i, b);
        if (j > 0) {
            i += j - 1;
            ch = ' ';
        } else if (ch == '#') {     /* a comment inside a multi-line literal */
            while (i < b && S(ps)->text[i] != '\n')
                i++;
            ch = ' ';
        }
        if (isspace((unsigned char)ch)) {
            blank = 1;
            continue;
        }
        if (blank && n > 0)
            out[n++] = ' ';
        blank = 0;
        out[n++] = ch;
    }
    out[n] = '\0';
    return out;
}

/* ---- names ---- */

static int find_name(const Lesson *l, const char *name, size_t n)
{
    for (int i = 0; i < l->n_names; i++)
        if (strlen(l->names[i]) == n && memcmp(l->names[i], name, n) == 0)
            return i;
    return -1;
}

static int define_name(PS *ps, size_t pos, size_t n)
{
    Lesson *l = ps->l;
    const char *name = S(ps)->text + pos;
    char nm[80];
    snprintf(nm, sizeof nm, "%.*s", (int)(n < 60 ? n : 60), name);
    int prev = find_name(l, name, n);
    if (prev >= 0) {
        src_error(S(ps), ps->err, ATTN_E_NAME, pos,
                  "'%s' is already defined at line %d (a let may not redefine a name)", nm, l->name_lines[prev]);
        return -1;
    }
    if (optable_fn_lookup(name, n) >= 0 || (n == 3 && memcmp(name, "inf", 3) == 0) ||
        (n == 6 && memcmp(name, "within", 6) == 0)) {
        fail(ps, ATTN_E_NAME, pos, "'%s' is a reserved word of the language; choose another name", nm);
        return -1;
    }
    if (n >= MAT_NAME_MAX) {
        fail(ps, ATTN_E_LIMIT, pos, "the name '%s' is longer than the limit of %d characters", nm, MAT_NAME_MAX - 1);
        return -1;
    }
    if (l->n_names >= LESSON_MAX_NAMES) {
        fail(ps, ATTN_E_LIMIT, pos, "a lesson may define at most %d names", LESSON_MAX_NAMES);
        return -1;
    }
    if (!grow1(&l->names, l->n_names, sizeof *l->names) ||
        !grow1(&l->name_lines, l->n_names, sizeof *l->name_lines) ||
        !(l->names[l->n_names] = dupn(name, n))) {
        nomem(ps);
        return -1;
    }
    l->name_lines[l->n_names] = ps->line;
    return l->n_names++;
}

/* A name token at the cursor that must already be defined. */
static int lookup_defined(PS *ps, size_t pos, size_t n, const char *context)
{
    int slot = find_name(ps->l, S(ps)->text + pos, n);
    if (slot >= 0)
        return slot;
    char nm[80], msg[160];
    snprintf(nm, sizeof nm, "%.*s", (int)(n < 60 ? n : 60), S(ps)->text + pos);
    const char *best = suggest_name(S(ps)->text + pos, n, ps->l->names, ps->l->n_names);
    if (best)
        snprintf(msg, sizeof msg, "; did you mean '%s'?", best);
    else
        msg[0] = '\0';
    char full[200];
    snprintf(full, sizeof full, "unknown name '%s' in %s", nm, context);
    fail(ps, ATTN_E_NAME, pos, "%s%s", full, msg);
    return -1;
}

/* ---- directives ---- */

static LessonStep *cur_step(PS *ps) { return ps->step >= 0 ? &ps->l->steps[ps->step] : NULL; }

static int add_string(char ***arr, int *n, const char *s)
{
    char *d = dupn(s, strlen(s));
    if (!d || !grow1(arr, *n, sizeof **arr)) {
        free(d);
        return 0;
    }
    (*arr)[(*n)++] = d;
    return 1;
}

static int has_string(char **arr, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(arr[i], s) == 0)
            return 1;
    return 0;
}

/* Close the open step: resolve its show/heatmap names and default panes. */
static int close_step(PS *ps)
{
    LessonStep *st = cur_step(ps);
    if (!st)
        return 1;
    for (int i = 0; i < ps->n_pending; i++) {
        struct Pending *pd = &ps->pending[i];
        if (lookup_defined(ps, pd->pos, strlen(pd->name), pd->heat ? "'heatmap'" : "'show'") < 0)
            return 0;
        if (pd->heat && !has_string(st->heatmap, st->n_heatmap, pd->name) &&
            !add_string(&st->heatmap, &st->n_heatmap, pd->name))
            return nomem(ps);
        if (!pd->heat && !has_string(st->show, st->n_show, pd->name) &&
            !add_string(&st->show, &st->n_show, pd->name))
            return nomem(ps);
    }
    if (!ps->show_given)
        for (int i = 0; i < st->n_defines; i++)
            if (!has_string(st->show, st->n_show, st->defines[i]) &&
                !add_string(&st->show, &st->n_show, st->defines[i]))
                return nomem(ps);
    /* a heatmap is a pane too */
    for (int i = 0; i < st->n_heatmap; i++)
        if (!has_string(st->show, st->n_show, st->heatmap[i]) &&
            !add_string(&st->show, &st->n_show, st->heatmap[i]))
            return nomem(ps);
    for (int i = 0; i < ps->n_pending; i++)
        free(ps->pending[i].name);
    free(ps->pending);
    ps->pending = NULL;
    ps->n_pending = 0;
    ps->step = -1;
    ps->show_given = 0;
    return 1;
}

static int d_lesson(PS *ps, size_t kw, size_t arg)
{
    Lesson *l = ps->l;
    if (l->title)
        return fail(ps, ATTN_E_SYNTAX, kw, "the lesson already has a title");
    l->title = rest_of_line(ps, arg);
    if (!l->title)
        return nomem(ps);
    if (!*l->title)
        return fail(ps, ATTN_E_SYNTAX, arg, "'lesson' needs a title: lesson TITLE");
    next_line(ps);
    return 1;
}

static int before_steps(PS *ps, size_t kw, const char *what)
{
    if (ps->l->n_steps > 0)
        return fail(ps, ATTN_E_SYNTAX, kw, "'%s' belongs before the first step", what);
    return 1;
}

static int d_about(PS *ps, size_t kw, size_t arg)
{
    if (!before_steps(ps, kw, "about"))
        return 0;
    if (ps->l->about)
        return fail(ps, ATTN_E_SYNTAX, kw, "the lesson already has an 'about' line");
    ps->l->about = rest_of_line(ps, arg);
    if (!ps->l->about)
        return nomem(ps);
    next_line(ps);
    return 1;
}

static int d_layout(PS *ps, size_t kw, size_t arg)
{
    if (!before_steps(ps, kw, "layout"))
        return 0;
    Cursor c;
    if (!cursor_at(ps, &c, arg))
        return 0;
    if (tok_is(S(ps), &c.tok, "rows"))
        ps->l->layout = LAYOUT_ROWS;
    else if (tok_is(S(ps), &c.tok, "columns") || tok_is(S(ps), &c.tok, "cols"))
        ps->l->layout = LAYOUT_COLUMNS;
    else {
        char found[64];
        snprintf(found, sizeof found, "%.*s", (int)(c.tok.len < 40 ? c.tok.len : 40), S(ps)->text + c.tok.pos);
        return fail(ps, ATTN_E_SYNTAX, c.tok.pos, "layout is 'rows' or 'columns', not '%s'", found);
    }
    return cursor_next(&c) && end_statement(ps, &c, "the layout");
}

/* Blank-separated words up to the end of the line or a '#'. */
static int read_words(PS *ps, size_t p, char ***out, int *n)
{
    const char *t = S(ps)->text;
    for (;;) {
        p = skip_blanks(ps, p);
        if (p >= ps->eol || t[p] == '#')
            return 1;
        size_t q = p;
        while (q < ps->eol && blank_len(t, q, ps->eol) == 0)
            q++;
        if (*n >= LESSON_MAX_NAMES) {
            return fail(ps, ATTN_E_LIMIT, p, "more than the limit of %d labels", LESSON_MAX_NAMES);
        }
        char *w = dupn(t + p, q - p);
        if (!w || !grow1(out, *n, sizeof **out)) {
            free(w);
            return nomem(ps);
        }
        (*out)[(*n)++] = w;
        p = q;
    }
}

static int d_tokens(PS *ps, size_t kw, size_t arg)
{
    if (!before_steps(ps, kw, "tokens"))
        return 0;
    if (ps->l->n_tokens > 0)
        return fail(ps, ATTN_E_SYNTAX, kw, "the tokens are already given");
    if (!read_words(ps, arg, &ps->l->tokens, &ps->l->n_tokens))
        return 0;
    if (ps->l->n_tokens == 0)
        return fail(ps, ATTN_E_SYNTAX, kw, "'tokens' needs at least one word: tokens The sky is");
    next_line(ps);
    return 1;
}

static int add_stmt(PS *ps, Stmt st)
{
    Lesson *l = ps->l;
    if (!grow1(&l->stmts, l->n_stmts, sizeof *l->stmts))
        return nomem(ps);
    l->stmts[l->n_stmts++] = st;
    return 1;
}

static int d_seed(PS *ps, size_t kw, size_t arg)
{
    Cursor c;
    if (!cursor_at(ps, &c, arg))
        return 0;
    size_t pos = c.tok.pos;
    if (c.tok.kind != T_NUM || c.tok.num != floor(c.tok.num) || c.tok.num > 9007199254740992.0)
        return fail(ps, ATTN_E_SYNTAX, pos, "'seed' needs a whole number of 0 or more: seed 3");
    Stmt st = { .kind = ST_SEED, .pos = kw, .seed = (uint64_t)c.tok.num };
    return cursor_next(&c) && end_statement(ps, &c, "the seed") && add_stmt(ps, st);
}

/* Where a name must come next (after blanks from p), a word that starts
 * with a digit is refused as a name rather than lexed as a bad number.
 * Returns 1 when what follows may be a name, 0 after failing. */
static int name_expected(PS *ps, size_t p)
{
    p = skip_blanks(ps, p);
    if (p < ps->eol && isdigit((unsigned char)S(ps)->text[p]))
        return fail(ps, ATTN_E_SYNTAX, p, "'%.*s' is not a name: a name starts with a letter or '_'",
                    (int)word_len(ps, p), S(ps)->text + p);
    return 1;
}

static int d_let(PS *ps, size_t kw, size_t arg)
{
    Cursor c;
    if (!name_expected(ps, arg) || !cursor_at(ps, &c, arg))
        return 0;
    if (c.tok.kind != T_NAME)
        return fail(ps, ATTN_E_SYNTAX, c.tok.pos, "'let' needs a name: let NAME = EXPRESSION");
    Token name = c.tok;
    if (!cursor_next(&c))
        return 0;
    if (!(c.tok.kind == T_SYM && c.tok.sym == '='))
        return fail(ps, ATTN_E_SYNTAX, c.tok.pos, "expected '=' after the name: let NAME = EXPRESSION");
    if (!cursor_next(&c))
        return 0;
    int line = ps->line;
    Expr *e = parse_expr_at(ps, &c);
    if (!e)
        return 0;
    if (!end_statement(ps, &c, "the expression")) {
        expr_free(e);
        return 0;
    }
    /* defined after its expression: `let X = X + 1` is an unknown name */
    int save = ps->line;
    ps->line = line;
    int slot = define_name(ps, name.pos, name.len);
    ps->line = save;
    if (slot < 0) {
        expr_free(e);
        return 0;
    }
    Stmt st = { .kind = ST_LET, .pos = kw, .slot = slot, .expr = e };
    if (!add_stmt(ps, st)) {
        expr_free(e);
        return 0;
    }
    Lesson *l = ps->l;
    LessonStep *step = cur_step(ps);
    if (step) {
        if (!add_string(&step->defines, &step->n_defines, l->names[slot]))
            return nomem(ps);
    } else if (l->n_steps == 0) {
        if (!grow1(&l->setup, l->n_setup, sizeof *l->setup))
            return nomem(ps);
        l->setup[l->n_setup++] = l->names[slot];
    }
    return 1;
}

static int d_labels(PS *ps, size_t kw, size_t arg)
{
    (void)kw;
    Cursor c;
    if (!name_expected(ps, arg) || !cursor_at(ps, &c, arg))
        return 0;
    if (c.tok.kind != T_NAME)
        return fail(ps, ATTN_E_SYNTAX, c.tok.pos, "usage: labels NAME rows|cols LABEL...");
    size_t name_pos = c.tok.pos;
    int slot = lookup_defined(ps, c.tok.pos, c.tok.len, "'labels'");
    if (slot < 0 || !cursor_next(&c))
        return 0;
    int cols;
    if (tok_is(S(ps), &c.tok, "rows"))
        cols = 0;
    else if (tok_is(S(ps), &c.tok, "cols") || tok_is(S(ps), &c.tok, "columns"))
        cols = 1;
    else
        return fail(ps, ATTN_E_SYNTAX, c.tok.pos, "expected 'rows' or 'cols' after the name: labels NAME rows|cols LABEL...");
    LabelSpec spec = { .pos = name_pos, .slot = slot, .cols = cols };
    if (!read_words(ps, c.lx.pos, &spec.names, &spec.n))
        goto fail;
    if (spec.n == 1 && strcmp(spec.names[0], "none") == 0) {
        free(spec.names[0]);
        free(spec.names);
        spec.names = NULL;
        spec.n = 0;
    } else if (spec.n == 0) {
        fail(ps, ATTN_E_SYNTAX, c.lx.pos, "'labels' needs the labels (or 'none')");
        goto fail;
    }
    Lesson *l = ps->l;
    if (!grow1(&l->labels, l->n_labels, sizeof *l->labels)) {
        nomem(ps);
        goto fail;
    }
    l->labels[l->n_labels++] = spec;
    next_line(ps);
    return 1;
fail:
    for (int i = 0; i < spec.n; i++)
        free(spec.names[i]);
    free(spec.names);
    return 0;
}

static int d_step(PS *ps, size_t kw, size_t arg)
{
    if (!close_step(ps))
        return 0;
    Lesson *l = ps->l;
    char *title = rest_of_line(ps, arg);
    if (!title)
        return nomem(ps);
    if (!*title) {
        free(title);
        return fail(ps, ATTN_E_SYNTAX, kw, "'step' needs a title: step TITLE");
    }
    if (!grow1(&l->steps, l->n_steps, sizeof *l->steps)) {
        free(title);
        return nomem(ps);
    }
    LessonStep *st = &l->steps[l->n_steps];
    st->line = ps->line;
    st->title = title;
    ps->step = l->n_steps++;    /* counted first, so lesson_free frees the title */
    st->text = dupn("", 0);
    if (!st->text)
        return nomem(ps);
    next_line(ps);
    return 1;
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
        return 0;
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
    return 1;
}

/* Append the prose text[a..e) to *buf (joints made blanks) as
 * append_text does; 1 on success. */
static int append_prose(PS *ps, char **buf, size_t a, size_t e, int new_paragraph, int own_line, int indent)
{
    char *piece = prose_dup(ps, a, e);
    int ok = piece && append_text(buf, piece, strlen(piece), new_paragraph, own_line, indent);
    free(piece);
    return ok;
}

/* The first word of the current line is `word` with nothing after it but
 * blanks or a comment. */
static int line_is(PS *ps, const char *word)
{
    size_t p = skip_blanks(ps, ps->pos), n = strlen(word);
    if (p + n > ps->eol || memcmp(S(ps)->text + p, word, n) != 0)
        return 0;
    p = skip_blanks(ps, p + n);
    return p == ps->eol || S(ps)->text[p] == '#';
}

static int d_text(PS *ps, size_t kw, size_t arg)
{
    LessonStep *st = cur_step(ps);
    if (!st)
        return fail(ps, ATTN_E_SYNTAX, kw, "'text' belongs inside a step (after 'step TITLE')");
    int new_paragraph = st->text[0] != '\0';
    size_t p = skip_blanks(ps, arg);
    const char *t = S(ps)->text;
    if (p < ps->eol) {  /* prose on the directive's own line */
        if (!append_prose(ps, &st->text, p, prose_end(ps, p), new_paragraph, 0, 0))
            return nomem(ps);
        new_paragraph = 0;
    }
    /* the indentation of the paragraph's first line (-1: none yet), and
     * whether the line before was deeper */
    long para_indent = -1;
    int prev_deeper = 0;
    for (next_line(ps); !at_end(ps); next_line(ps)) {
        if (line_is(ps, "end")) {
            next_line(ps);
            return 1;
        }
        size_t a = skip_blanks(ps, ps->pos), e = prose_end(ps, a);
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
        if (!append_prose(ps, &st->text, a, e, new_paragraph, deeper || prev_deeper, extra))
            return nomem(ps);
        new_paragraph = 0;
        prev_deeper = deeper;
    }
    return fail(ps, ATTN_E_SYNTAX, kw, "this 'text' has no 'end' (prose runs to a line with just 'end')");
}

static int d_panes(PS *ps, size_t kw, size_t arg, int heat)
{
    if (!cur_step(ps))
        return fail(ps, ATTN_E_SYNTAX, kw, "'%s' belongs inside a step", heat ? "heatmap" : "show");
    if (!heat)
        ps->show_given = 1;
    Cursor c;
    if (!name_expected(ps, arg) || !cursor_at(ps, &c, arg))
        return 0;
    int count = 0;
    for (;; count++) {
        if (c.tok.kind == T_SYM && c.tok.sym == ',') {
            if (!name_expected(ps, c.lx.pos) || !cursor_next(&c))
                return 0;
        }
        if (c.tok.kind == T_NEWLINE || c.tok.kind == T_EOF)
            break;
        if (c.tok.kind != T_NAME)
            return fail(ps, ATTN_E_SYNTAX, c.tok.pos, "'%s' takes names of matrices", heat ? "heatmap" : "show");
        if (!grow1(&ps->pending, ps->n_pending, sizeof *ps->pending))
            return nomem(ps);
        struct Pending *pd = &ps->pending[ps->n_pending];
        pd->pos = c.tok.pos;
        pd->heat = heat;
        pd->name = dupn(S(ps)->text + c.tok.pos, c.tok.len);
        if (!pd->name)
            return nomem(ps);
        ps->n_pending++;
        if (!name_expected(ps, c.lx.pos) || !cursor_next(&c))
            return 0;
    }
    if (count == 0)
        return fail(ps, ATTN_E_SYNTAX, kw, "'%s' needs at least one name", heat ? "heatmap" : "show");
    return end_statement(ps, &c, "the names");
}

static int add_item(PS *ps, VerifyItem it)
{
    Lesson *l = ps->l;
    if (!grow1(&l->items, l->n_items, sizeof *l->items))
        return nomem(ps);
    l->items[l->n_items++] = it;
    return 1;
}

/* `answer EXPR [= VALUE] [within TOL]` of exercise *ex (item *it). */
static int d_answer(PS *ps, size_t kw, size_t arg, LessonExercise *ex, VerifyItem *it)
{
    if (it->lhs)
        return fail(ps, ATTN_E_SYNTAX, kw, "this exercise already has an answer");
    Cursor c;
    if (!cursor_at(ps, &c, arg))
        return 0;
    size_t start = c.tok.pos;
    Expr *e = parse_expr_at(ps, &c);
    if (!e)
        return 0;
    it->lhs = e;
    size_t end = e->end;
    ex->answer = squeeze(ps, start, end);
    if (!ex->answer)
        return nomem(ps);
    if (c.tok.kind == T_SYM && c.tok.sym == '=') {
        if (!cursor_next(&c) || !parse_number(ps, &c, &ex->expected, "the answer's value after '='"))
            return 0;
        ex->has_expected = 1;
    }
    if (!parse_within(ps, &c, &ex->within))
        return 0;
    it->has_expected = ex->has_expected;
    it->expected = ex->expected;
    it->tol = ex->within;
    return end_statement(ps, &c, "the answer");
}

static int d_exercise(PS *ps, size_t kw, size_t arg)
{
    LessonStep *st = cur_step(ps);
    if (!st)
        return fail(ps, ATTN_E_SYNTAX, kw, "'exercise' belongs inside a step");
    if (!grow1(&st->exercises, st->n_exercises, sizeof *st->exercises))
        return nomem(ps);
    LessonExercise *ex = &st->exercises[st->n_exercises++];
    ex->line = ps->line;
    ex->within = 1e-3;
    ex->question = rest_of_line(ps, arg);
    if (!ex->question)
        return nomem(ps);
    if (!*ex->question)
        return fail(ps, ATTN_E_SYNTAX, kw, "'exercise' needs a question: exercise QUESTION");
    VerifyItem it = { .kind = VERIFY_EXERCISE, .line = ps->line, .pos = kw, .tol = 1e-3 };
    int ok = 0;
    for (next_line(ps); !at_end(ps);) {
        if (is_empty_line(ps)) {
            next_line(ps);
            continue;
        }
        size_t p = skip_blanks(ps, ps->pos), n = word_len(ps, p);
        const char *w = S(ps)->text + p;
        if (n == 3 && memcmp(w, "end", 3) == 0) {
            if (!line_is(ps, "end")) {
                fail(ps, ATTN_E_SYNTAX, p + 3, "nothing may follow 'end' on its line");
                goto out;
            }
            if (!it.lhs) {
                fail(ps, ATTN_E_SYNTAX, kw, "this exercise has no 'answer EXPRESSION'");
                goto out;
            }
            next_line(ps);
            ok = 1;
            goto out;
        } else if (n == 6 && memcmp(w, "answer", 6) == 0) {
            if (!d_answer(ps, p, p + 6, ex, &it))
                goto out;
        } else if (n == 4 && memcmp(w, "hint", 4) == 0) {
            char *h = rest_of_line(ps, p + 4);
            if (!h || !grow1(&ex->hints, ex->n_hints, sizeof *ex->hints)) {
                free(h);
                nomem(ps);
                goto out;
            }
            ex->hints[ex->n_hints++] = h;
            if (!*h) {
                fail(ps, ATTN_E_SYNTAX, p, "'hint' needs the hint's text");
                goto out;
            }
            next_line(ps);
        } else {
            if (n == 0)     /* not a word: show one whole character */
                for (n = 1; p + n < ps->eol && ((unsigned char)w[n] & 0xC0) == 0x80; n++)
                    ;
            fail(ps, ATTN_E_SYNTAX, p,
                 "expected 'answer', 'hint' or 'end' in the exercise of line %d, found '%.*s' (missing 'end'?)",
                 ex->line, (int)(n < 30 ? n : 30), w);
            goto out;
        }
    }
    fail(ps, ATTN_E_SYNTAX, kw, "this exercise has no 'end'");
out:
    if (!ok) {
        expr_free(it.lhs);
        return 0;
    }
    it.what = dupn(ex->question, strlen(ex->question));
    if (!it.what) {
        expr_free(it.lhs);
        return nomem(ps);
    }
    if (!add_item(ps, it)) {
        expr_free(it.lhs);
        free(it.what);
        return 0;
    }
    return 1;
}

static int d_check(PS *ps, size_t kw, size_t arg)
{
    if (!close_step(ps))
        return 0;
    Cursor c;
    if (!cursor_at(ps, &c, arg))
        return 0;
    VerifyItem it = { .kind = VERIFY_CHECK, .line = ps->line, .pos = kw, .tol = 1e-4 };
    size_t start = c.tok.pos;
    it.lhs = parse_expr_at(ps, &c);
    if (!it.lhs)
        return 0;
    if (!(c.tok.kind == T_SYM && c.tok.sym == '=')) {
        fail(ps, ATTN_E_SYNTAX, c.tok.pos, "expected '=' in the check: check EXPRESSION = VALUE [within TOLERANCE]");
        goto fail;
    }
    if (!cursor_next(&c) || !(it.rhs = parse_expr_at(ps, &c)))
        goto fail;
    size_t end = it.rhs->end;
    if (tok_is(S(ps), &c.tok, "within")) {
        if (!parse_within(ps, &c, &it.tol))
            goto fail;
        end = c.tok.pos;
    }
    if (!(it.what = squeeze(ps, start, end))) {
        nomem(ps);
        goto fail;
    }
    if (!end_statement(ps, &c, "the check") || !add_item(ps, it))
        goto fail;
    return 1;
fail:
    expr_free(it.lhs);
    expr_free(it.rhs);
    free(it.what);
    return 0;
}

static int unknown_directive(PS *ps, size_t p, size_t n)
{
    const char *w = S(ps)->text + p;
    if (n == 0) {
        char found[8];
        size_t k = 1;
        while (p + k < ps->eol && ((unsigned char)w[k] & 0xC0) == 0x80 && k < 4)
            k++;
        snprintf(found, sizeof found, "%.*s", (int)k, w);
        return fail(ps, ATTN_E_SYNTAX, p, "expected a directive (lesson, let, step, text, show, check, ...), found '%s'", found);
    }
    char nm[48];
    snprintf(nm, sizeof nm, "%.*s", (int)(n < 40 ? n : 40), w);
    if (n == 6 && memcmp(w, "answer", 6) == 0)
        return fail(ps, ATTN_E_SYNTAX, p, "'answer' belongs inside an exercise");
    if (n == 4 && memcmp(w, "hint", 4) == 0)
        return fail(ps, ATTN_E_SYNTAX, p, "'hint' belongs inside an exercise");
    if (n == 3 && memcmp(w, "end", 3) == 0)
        return fail(ps, ATTN_E_SYNTAX, p, "'end' without a 'text' or 'exercise' to close");
    const char *best = suggest_name(w, n, (char *const *)directives, N_DIRECTIVES);
    if (best)
        return fail(ps, ATTN_E_SYNTAX, p, "unknown directive '%s'; did you mean '%s'?", nm, best);
    return fail(ps, ATTN_E_SYNTAX, p, "unknown directive '%s'", nm);
}

static int parse_lines(PS *ps)
{
    while (!at_end(ps)) {
        if (is_empty_line(ps)) {
            next_line(ps);
            continue;
        }
        size_t p = skip_blanks(ps, ps->pos), n = word_len(ps, p);
        const char *w = S(ps)->text + p;
        size_t arg = p + n;
#define IS(word) (n == sizeof(word) - 1 && memcmp(w, word, n) == 0)
        if (!ps->l->title && !IS("lesson")) {
            char found[48];
            if (n == 0)     /* not a word: quote one whole character */
                for (n = 1; p + n < ps->eol && ((unsigned char)w[n] & 0xC0) == 0x80; n++)
                    ;
            snprintf(found, sizeof found, "%.*s", (int)(n < 40 ? n : 40), w);
            return fail(ps, ATTN_E_SYNTAX, p, "a lesson starts with 'lesson TITLE', not '%s'", found);
        }
        int ok;
        if (IS("lesson")) ok = d_lesson(ps, p, arg);
        else if (IS("about")) ok = d_about(ps, p, arg);
        else if (IS("layout")) ok = d_layout(ps, p, arg);
        else if (IS("tokens")) ok = d_tokens(ps, p, arg);
        else if (IS("seed")) ok = d_seed(ps, p, arg);
        else if (IS("let")) ok = d_let(ps, p, arg);
        else if (IS("labels")) ok = d_labels(ps, p, arg);
        else if (IS("step")) ok = d_step(ps, p, arg);
        else if (IS("text")) ok = d_text(ps, p, arg);
        else if (IS("show")) ok = d_panes(ps, p, arg, 0);
        else if (IS("heatmap")) ok = d_panes(ps, p, arg, 1);
        else if (IS("exercise")) ok = d_exercise(ps, p, arg);
        else if (IS("check")) ok = d_check(ps, p, arg);
        else ok = unknown_directive(ps, p, n);
#undef IS
        if (!ok)
            return 0;
    }
    if (!ps->l->title)
        return fail(ps, ATTN_E_SYNTAX, S(ps)->len, "the lesson is empty: it starts with 'lesson TITLE'");
    return close_step(ps);
}

Lesson *lesson_parse(const char *text, size_t len, const char *file, LessonError *err)
{
    LessonError scratch;
    if (!err)
        err = &scratch;
    memset(err, 0, sizeof *err);
    if (text && len > (size_t)LESSON_MAX_BYTES) {   /* refused before copying it */
        err->code = ATTN_E_LIMIT;
        snprintf(err->file, sizeof err->file, "%s", file ? file : "<lesson>");
        snprintf(err->msg, sizeof err->msg, "the lesson is larger than the limit of %ld bytes",
                 (long)LESSON_MAX_BYTES);
        return NULL;
    }
    /* a byte-order mark (Windows Notepad writes one) is not part of the
     * text: line 1, column 1 is the character after it */
    if (text && len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
        text += 3;
        len -= 3;
    }
    Lesson *l = attn_calloc(1, sizeof *l);
    if (!l || !(l->text = dupn(text ? text : "", text ? len : 0)) ||
        !(l->file = dupn(file ? file : "<lesson>", strlen(file ? file : "<lesson>")))) {
        lesson_free(l);
        err->code = ATTN_E_NOMEM;
        snprintf(err->file, sizeof err->file, "%s", file ? file : "<lesson>");
        snprintf(err->msg, sizeof err->msg, "out of memory reading the lesson");
        return NULL;
    }
    l->src.text = l->text;
    l->src.len = text ? len : 0;
    l->src.file = l->file;
    l->layout = LAYOUT_ROWS;
    if (!src_validate(&l->src, err)) {
        lesson_free(l);
        return NULL;
    }
    PS ps = { .l = l, .err = err, .line = 1, .step = -1 };
    set_line(&ps, 0);
    int ok = parse_lines(&ps);
    for (int i = 0; i < ps.n_pending; i++)
        free(ps.pending[i].name);
    free(ps.pending);
    if (!ok) {
        lesson_free(l);
        return NULL;
    }
    if (!l->about && !(l->about = dupn("", 0))) {
        lesson_free(l);
        return NULL;
    }
    return l;
}

static void free_strings(char **a, int n)
{
    for (int i = 0; i < n; i++)
        free(a[i]);
    free(a);
}

void lesson_free(Lesson *l)
{
    if (!l)
        return;
    for (int i = 0; i < l->n_steps; i++) {
        LessonStep *st = &l->steps[i];
        free(st->title);
        free(st->text);
        free_strings(st->show, st->n_show);
        free_strings(st->heatmap, st->n_heatmap);
        free_strings(st->defines, st->n_defines);
        for (int j = 0; j < st->n_exercises; j++) {
            free(st->exercises[j].question);
            free(st->exercises[j].answer);
            free_strings(st->exercises[j].hints, st->exercises[j].n_hints);
        }
        free(st->exercises);
    }
    free(l->steps);
    for (int i = 0; i < l->n_stmts; i++)
        expr_free(l->stmts[i].expr);
    free(l->stmts);
    for (int i = 0; i < l->n_labels; i++)
        free_strings(l->labels[i].names, l->labels[i].n);
    free(l->labels);
    for (int i = 0; i < l->n_items; i++) {
        expr_free(l->items[i].lhs);
        expr_free(l->items[i].rhs);
        free(l->items[i].what);
    }
    free(l->items);
    free_strings(l->names, l->n_names);
    free(l->name_lines);
    free(l->setup);
    free_strings(l->tokens, l->n_tokens);
    free(l->title);
    free(l->about);
    free(l->text);
    free(l->file);
    free(l);
}

const char *lesson_title(const Lesson *l) { return l->title; }
const char *lesson_about(const Lesson *l) { return l->about ? l->about : ""; }
const char *lesson_file(const Lesson *l) { return l->file; }
LessonLayout lesson_layout(const Lesson *l) { return l->layout; }
int lesson_n_tokens(const Lesson *l) { return l->n_tokens; }
const char *lesson_token(const Lesson *l, int i) { return i >= 0 && i < l->n_tokens ? l->tokens[i] : NULL; }
int lesson_n_steps(const Lesson *l) { return l->n_steps; }
const LessonStep *lesson_step(const Lesson *l, int i) { return i >= 0 && i < l->n_steps ? &l->steps[i] : NULL; }
int lesson_n_setup(const Lesson *l) { return l->n_setup; }
const char *lesson_setup_name(const Lesson *l, int i) { return i >= 0 && i < l->n_setup ? l->setup[i] : NULL; }
