/*
 * lesson_parse_state.c - the parse state's helpers (lesson_parse_state.h),
 * shared by the line walk (lesson_parse.c) and the directive handlers
 * (lesson_directives.c, lesson_exercise.c): errors at a position, the
 * current line and its blanks, prose, expressions inside a directive,
 * names defined and looked up, the step being read.
 */
#include "alloc.h"
#include "lesson_parse_state.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int has_string(char **arr, int n, const char *s);
static int is_blank(char c);




int ps_fail(PS *ps, attn_status code, size_t pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    src_verror(S(ps), ps->err, code, pos, fmt, ap);
    va_end(ap);
    return -1;
}

int ps_go_on(PS *ps)
{
    if (ps->stopped)
        return 0;
    ps->n_errs++;
    if (ps->err->code == ATTN_E_NOMEM || ps->err->code == ATTN_E_LIMIT || ps->n_errs >= ps->max_errs) {
        ps->stopped = 1;
        return 0;
    }
    ps->err = &ps->errs[ps->n_errs];
    memset(ps->err, 0, sizeof *ps->err);
    return 1;
}

size_t ps_statement_end(PS *ps, size_t p, int prose)
{
    const char *t = S(ps)->text;
    size_t len = S(ps)->len;
    int depth = 0;
    for (; p < len; p++) {
        size_t j = src_joint(t, p, len);
        char ch = t[p];
        if (j > 0) {
            p += j - 1;
        } else if (ch == '\n') {
            if (depth == 0)
                return p;
        } else if (prose) {
            continue;
        } else if (ch == '#') {         /* a comment, to the line end */
            while (p + 1 < len && t[p + 1] != '\n')
                p++;
        } else if (ch == '"') {         /* a file's name: its brackets are not */
            size_t q = p + 1;
            while (q < len && t[q] != '"' && t[q] != '\n')
                q++;
            p = q < len && t[q] == '"' ? q : q - 1;
        } else if (ch == '(' || ch == '[') {
            depth++;
        } else if ((ch == ')' || ch == ']') && depth > 0) {
            depth--;
        }
    }
    return len;
}

void ps_skip_statement(PS *ps, size_t p, int prose)
{
    size_t end = ps_statement_end(ps, p, prose), next = end < S(ps)->len ? end + 1 : end;
    ps_set_line(ps, next > ps->pos ? next : ps->pos);
}

void ps_define_refused(PS *ps, size_t name_pos, size_t n)
{
    LessonError kept = *ps->err;
    ps_define_name(ps, name_pos, n);
    *ps->err = kept;
}

int ps_nomem(PS *ps)
{
    return ps_fail(ps, ATTN_E_NOMEM, ps->pos, "out of memory reading the lesson");
}

/* Append one zeroed element to *arr (which holds n); 0, or -1 when out of
 * memory. */
int ps_grow1(void *arr, int n, size_t size)
{
    void **p = arr;
    void *bigger = attn_realloc(*p, (size_t)(n + 1) * size);
    if (!bigger)
        return -1;
    memset((char *)bigger + (size_t)n * size, 0, size);
    *p = bigger;
    return 0;
}

char *ps_dupn(const char *s, size_t n)
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
size_t ps_blank_len(const char *t, size_t p, size_t end)
{
    if (p >= end)
        return 0;
    return is_blank(t[p]) ? 1 : src_joint(t, p, end);
}

/* Set the current line to the one starting at pos. */
void ps_set_line(PS *ps, size_t pos)
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

void ps_next_line(PS *ps)
{
    ps_set_line(ps, ps->eol < S(ps)->len ? ps->eol + 1 : S(ps)->len);
}

int ps_at_end(PS *ps) { return ps->pos >= S(ps)->len; }

size_t ps_skip_blanks(PS *ps, size_t p)
{
    size_t n;
    while ((n = ps_blank_len(S(ps)->text, p, ps->eol)) > 0)
        p += n;
    return p;
}

/* Prose text[a..e) as a new string, each line joint (with the blanks
 * around it) made one space. */
char *ps_prose_dup(PS *ps, size_t a, size_t e)
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
size_t ps_prose_end(PS *ps, size_t p)
{
    size_t e = ps->eol;
    while (e > p && is_blank(S(ps)->text[e - 1]))
        e--;
    return e;
}

/* The prose from p to the end of the line, trimmed, as a new string. */
char *ps_rest_of_line(PS *ps, size_t p)
{
    p = ps_skip_blanks(ps, p);
    return ps_prose_dup(ps, p, ps_prose_end(ps, p));
}

/* The word at p (letters, digits, _), its length in *n. */
size_t ps_word_len(PS *ps, size_t p)
{
    size_t q = p;
    while (q < ps->eol && (isalnum((unsigned char)S(ps)->text[q]) || S(ps)->text[q] == '_'))
        q++;
    return q - p;
}

/* A line with nothing but blanks or a comment. */
int ps_is_empty_line(PS *ps)
{
    size_t p = ps_skip_blanks(ps, ps->pos);
    return p == ps->eol || S(ps)->text[p] == '#';
}

/* ---- expressions inside directives ---- */


int ps_cursor_at(PS *ps, Cursor *c, size_t p)
{
    c->lx.src = S(ps);
    c->lx.pos = p;
    c->lx.err = ps->err;
    return lex_next(&c->lx, &c->tok);
}

int ps_cursor_next(Cursor *c) { return lex_next(&c->lx, &c->tok); }

/* The statement must end here; move to the line after it. */
int ps_end_statement(PS *ps, Cursor *c, const char *after)
{
    if (c->tok.kind != T_NEWLINE && c->tok.kind != T_EOF) {
        char found[64];
        snprintf(found, sizeof found, "%.*s", (int)(c->tok.len < 40 ? c->tok.len : 40),
                 S(ps)->text + c->tok.pos);
        return ps_fail(ps, ATTN_E_SYNTAX, c->tok.pos, "unexpected '%s' after %s", found, after);
    }
    ps_set_line(ps, c->lx.pos);   /* just after the line end, or the end of the text */
    return 0;
}

Expr *ps_expr_at(PS *ps, Cursor *c)
{
    Scope scope = { ps->l->names, ps->l->n_names };
    return expr_parse(&c->lx, &c->tok, &scope);
}

/* A number with an optional sign (or inf) from the cursor. */
int ps_number(PS *ps, Cursor *c, double *out, const char *what)
{
    double sign = 1;
    size_t pos = c->tok.pos;
    if (c->tok.kind == T_SYM && (c->tok.sym == '-' || c->tok.sym == '+')) {
        sign = c->tok.sym == '-' ? -1 : 1;
        if (ps_cursor_next(c))
            return -1;
    }
    if (c->tok.kind == T_NUM)
        *out = sign * c->tok.num;
    else if (lex_tok_is(S(ps), &c->tok, "inf"))
        *out = sign * INFINITY;
    else
        return ps_fail(ps, ATTN_E_SYNTAX, pos, "expected %s (a number)", what);
    return ps_cursor_next(c);
}

/* Optional `within TOL`; a bad tolerance is refused at its value. */
int ps_within(PS *ps, Cursor *c, double *tol)
{
    if (!lex_tok_is(S(ps), &c->tok, "within"))
        return 0;
    if (ps_cursor_next(c))
        return -1;
    size_t value = c->tok.pos;
    if (ps_number(ps, c, tol, "a tolerance after 'within'"))
        return -1;
    if (!(*tol >= 0) || isinf(*tol))
        return ps_fail(ps, ATTN_E_SYNTAX, value, "a tolerance is a number of 0 or more");
    return 0;
}

/* The source text from a to b with runs of blanks and line ends made one
 * space, for a check's description. */
char *ps_squeeze(PS *ps, size_t a, size_t b)
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

int lesson_find_name(const Lesson *l, const char *name, size_t n)
{
    for (int i = 0; i < l->n_names; i++)
        if (strlen(l->names[i]) == n && memcmp(l->names[i], name, n) == 0)
            return i;
    return -1;
}

int ps_define_name(PS *ps, size_t pos, size_t n)
{
    Lesson *l = ps->l;
    const char *name = S(ps)->text + pos;
    char nm[80];
    snprintf(nm, sizeof nm, "%.*s", (int)(n < 60 ? n : 60), name);
    int prev = lesson_find_name(l, name, n);
    if (prev >= 0) {
        src_error(S(ps), ps->err, ATTN_E_NAME, pos,
                  "'%s' is already defined at line %d (a let may not redefine a name)", nm, l->name_lines[prev]);
        return -1;
    }
    if (optable_fn_lookup(name, n) >= 0 || (n == 3 && memcmp(name, "inf", 3) == 0) ||
        (n == 6 && memcmp(name, "within", 6) == 0)) {
        ps_fail(ps, ATTN_E_NAME, pos, "'%s' is a reserved word of the language; choose another name", nm);
        return -1;
    }
    if (n >= MAT_NAME_MAX) {
        ps_fail(ps, ATTN_E_LIMIT, pos, "the name '%s' is longer than the limit of %d characters", nm, MAT_NAME_MAX - 1);
        return -1;
    }
    if (l->n_names >= LESSON_MAX_NAMES) {
        ps_fail(ps, ATTN_E_LIMIT, pos, "a lesson may define at most %d names", LESSON_MAX_NAMES);
        return -1;
    }
    if (ps_grow1(&l->names, l->n_names, sizeof *l->names) ||
        ps_grow1(&l->name_lines, l->n_names, sizeof *l->name_lines) ||
        !(l->names[l->n_names] = ps_dupn(name, n))) {
        ps_nomem(ps);
        return -1;
    }
    l->name_lines[l->n_names] = ps->line;
    return l->n_names++;
}

/* A name token at the cursor that must already be defined. */
int ps_lookup_defined(PS *ps, size_t pos, size_t n, const char *context)
{
    int slot = lesson_find_name(ps->l, S(ps)->text + pos, n);
    if (slot >= 0)
        return slot;
    char nm[80], msg[160];
    snprintf(nm, sizeof nm, "%.*s", (int)(n < 60 ? n : 60), S(ps)->text + pos);
    lesson_did_you_mean(lesson_suggest_name(S(ps)->text + pos, n, ps->l->names, ps->l->n_names), msg, sizeof msg);
    char full[200];
    snprintf(full, sizeof full, "unknown name '%s' in %s", nm, context);
    ps_fail(ps, ATTN_E_NAME, pos, "%s%s", full, msg);
    return -1;
}

const char *ps_keyword_suggestion(PS *ps, size_t pos, size_t n, const char *const *words, int n_words, char *buf,
                                  size_t size)
{
    return lesson_did_you_mean(lesson_suggest_name(S(ps)->text + pos, n, (char *const *)words, n_words), buf, size);
}

/* ---- directives ---- */

LessonStep *ps_cur_step(PS *ps) { return ps->step >= 0 ? &ps->l->steps[ps->step] : NULL; }

int ps_add_string(char ***arr, int *n, const char *s)
{
    char *d = ps_dupn(s, strlen(s));
    if (!d || ps_grow1(arr, *n, sizeof **arr)) {
        free(d);
        return -1;
    }
    (*arr)[(*n)++] = d;
    return 0;
}

static int has_string(char **arr, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(arr[i], s) == 0)
            return 1;
    return 0;
}

/* Close the open step: resolve its show/heatmap names and default panes. */
int ps_close_step(PS *ps)
{
    LessonStep *st = ps_cur_step(ps);
    if (!st)
        return 0;
    for (int i = 0; i < ps->n_pending; i++) {
        struct Pending *pd = &ps->pending[i];
        if (ps_lookup_defined(ps, pd->pos, strlen(pd->name), pd->heat ? "'heatmap'" : "'show'") < 0) {
            if (!ps_go_on(ps))
                return -1;
            continue;       /* the other names are looked up all the same */
        }
        if (pd->heat && !has_string(st->heatmap, st->n_heatmap, pd->name) &&
            ps_add_string(&st->heatmap, &st->n_heatmap, pd->name))
            return ps_nomem(ps);
        if (!pd->heat && !has_string(st->show, st->n_show, pd->name) &&
            ps_add_string(&st->show, &st->n_show, pd->name))
            return ps_nomem(ps);
    }
    if (!ps->show_given)
        for (int i = 0; i < st->n_defines; i++)
            if (!has_string(st->show, st->n_show, st->defines[i]) &&
                ps_add_string(&st->show, &st->n_show, st->defines[i]))
                return ps_nomem(ps);
    /* a heatmap is a pane too */
    for (int i = 0; i < st->n_heatmap; i++)
        if (!has_string(st->show, st->n_show, st->heatmap[i]) &&
            ps_add_string(&st->show, &st->n_show, st->heatmap[i]))
            return ps_nomem(ps);
    for (int i = 0; i < ps->n_pending; i++)
        free(ps->pending[i].name);
    free(ps->pending);
    ps->pending = NULL;
    ps->n_pending = 0;
    ps->step = -1;
    ps->show_given = 0;
    return 0;
}

/* Every directive of the language, and who reads it. The ones without a
 * handler belong inside a block and are read by its handler (exercise). */
