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
#include "lesson_parse_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int has_string(char **arr, int n, const char *s);
static int is_blank(char c);
static void set_line(PS *ps, size_t pos);




int ps_fail(PS *ps, attn_status code, size_t pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    src_verror(S(ps), ps->err, code, pos, fmt, ap);
    va_end(ap);
    return 0;
}

int ps_nomem(PS *ps)
{
    return ps_fail(ps, ATTN_E_NOMEM, ps->pos, "out of memory reading the lesson");
}

/* Append one zeroed element to *arr (which holds n); 1 on success. */
int ps_grow1(void *arr, int n, size_t size)
{
    void **p = arr;
    void *bigger = attn_realloc(*p, (size_t)(n + 1) * size);
    if (!bigger)
        return 0;
    memset((char *)bigger + (size_t)n * size, 0, size);
    *p = bigger;
    return 1;
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

void ps_next_line(PS *ps)
{
    set_line(ps, ps->eol < S(ps)->len ? ps->eol + 1 : S(ps)->len);
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
    set_line(ps, c->lx.pos);   /* just after the line end, or the end of the text */
    return 1;
}

Expr *parse_expr_at(PS *ps, Cursor *c)
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
        if (!ps_cursor_next(c))
            return 0;
    }
    if (c->tok.kind == T_NUM)
        *out = sign * c->tok.num;
    else if (lex_tok_is(S(ps), &c->tok, "inf"))
        *out = sign * INFINITY;
    else
        return ps_fail(ps, ATTN_E_SYNTAX, pos, "expected %s (a number)", what);
    return ps_cursor_next(c);
}

/* Optional `within TOL`. */
int ps_within(PS *ps, Cursor *c, double *tol)
{
    if (!lex_tok_is(S(ps), &c->tok, "within"))
        return 1;
    size_t pos = c->tok.pos;
    if (!ps_cursor_next(c) || !ps_number(ps, c, tol, "a tolerance after 'within'"))
        return 0;
    if (!(*tol >= 0) || isinf(*tol))
        return ps_fail(ps, ATTN_E_SYNTAX, pos, "a tolerance is a number of 0 or more");
    return 1;
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
    if (!ps_grow1(&l->names, l->n_names, sizeof *l->names) ||
        !ps_grow1(&l->name_lines, l->n_names, sizeof *l->name_lines) ||
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
    const char *best = lesson_suggest_name(S(ps)->text + pos, n, ps->l->names, ps->l->n_names);
    if (best)
        snprintf(msg, sizeof msg, "; did you mean '%s'?", best);
    else
        msg[0] = '\0';
    char full[200];
    snprintf(full, sizeof full, "unknown name '%s' in %s", nm, context);
    ps_fail(ps, ATTN_E_NAME, pos, "%s%s", full, msg);
    return -1;
}

/* ---- directives ---- */

LessonStep *ps_cur_step(PS *ps) { return ps->step >= 0 ? &ps->l->steps[ps->step] : NULL; }

int ps_add_string(char ***arr, int *n, const char *s)
{
    char *d = ps_dupn(s, strlen(s));
    if (!d || !ps_grow1(arr, *n, sizeof **arr)) {
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
int ps_close_step(PS *ps)
{
    LessonStep *st = ps_cur_step(ps);
    if (!st)
        return 1;
    for (int i = 0; i < ps->n_pending; i++) {
        struct Pending *pd = &ps->pending[i];
        if (ps_lookup_defined(ps, pd->pos, strlen(pd->name), pd->heat ? "'heatmap'" : "'show'") < 0)
            return 0;
        if (pd->heat && !has_string(st->heatmap, st->n_heatmap, pd->name) &&
            !ps_add_string(&st->heatmap, &st->n_heatmap, pd->name))
            return ps_nomem(ps);
        if (!pd->heat && !has_string(st->show, st->n_show, pd->name) &&
            !ps_add_string(&st->show, &st->n_show, pd->name))
            return ps_nomem(ps);
    }
    if (!ps->show_given)
        for (int i = 0; i < st->n_defines; i++)
            if (!has_string(st->show, st->n_show, st->defines[i]) &&
                !ps_add_string(&st->show, &st->n_show, st->defines[i]))
                return ps_nomem(ps);
    /* a heatmap is a pane too */
    for (int i = 0; i < st->n_heatmap; i++)
        if (!has_string(st->show, st->n_show, st->heatmap[i]) &&
            !ps_add_string(&st->show, &st->n_show, st->heatmap[i]))
            return ps_nomem(ps);
    for (int i = 0; i < ps->n_pending; i++)
        free(ps->pending[i].name);
    free(ps->pending);
    ps->pending = NULL;
    ps->n_pending = 0;
    ps->step = -1;
    ps->show_given = 0;
    return 1;
}

/* Every directive of the language, and who reads it. The ones without a
 * handler belong inside a block and are read by its handler (exercise). */
typedef int (*DirectiveFn)(PS *ps, size_t kw, size_t arg);

static int d_show(PS *ps, size_t kw, size_t arg) { return dir_panes(ps, kw, arg, 0); }
static int d_heatmap(PS *ps, size_t kw, size_t arg) { return dir_panes(ps, kw, arg, 1); }

static const struct {
    const char *name;
    DirectiveFn read;       /* NULL: only inside a block               */
    int in_exercise;        /* read by the exercise block, not here    */
} directives[] = {
    { "lesson", dir_lesson, 0 },   { "about", dir_about, 0 },     { "layout", dir_layout, 0 },
    { "tokens", dir_tokens, 0 },   { "seed", dir_seed, 0 },       { "let", dir_let, 0 },
    { "labels", dir_labels, 0 },   { "step", dir_step, 0 },       { "text", dir_text, 0 },
    { "show", d_show, 0 },       { "heatmap", d_heatmap, 0 }, { "exercise", dir_exercise, 0 },
    { "answer", NULL, 1 },       { "hint", NULL, 1 },         { "mistake", NULL, 1 },
    { "hide", NULL, 1 },         { "end", NULL, 0 },          { "check", dir_check, 0 },
    { "knob", dir_knob, 0 },
    { "switch", dir_switch, 0 },
};
#define N_DIRECTIVES ((int)(sizeof directives / sizeof *directives))

static int unknown_directive(PS *ps, size_t p, size_t n)
{
    const char *w = S(ps)->text + p;
    if (n == 0) {
        char found[8];
        size_t k = 1;
        while (p + k < ps->eol && ((unsigned char)w[k] & 0xC0) == 0x80 && k < 4)
            k++;
        snprintf(found, sizeof found, "%.*s", (int)k, w);
        return ps_fail(ps, ATTN_E_SYNTAX, p, "expected a directive (lesson, let, step, text, show, check, ...), found '%s'", found);
    }
    char nm[48];
    snprintf(nm, sizeof nm, "%.*s", (int)(n < 40 ? n : 40), w);
    const char *names[N_DIRECTIVES];
    for (int i = 0; i < N_DIRECTIVES; i++)
        names[i] = directives[i].name;
    const char *best = lesson_suggest_name(w, n, (char *const *)names, N_DIRECTIVES);
    if (best)
        return ps_fail(ps, ATTN_E_SYNTAX, p, "unknown directive '%s'; did you mean '%s'?", nm, best);
    return ps_fail(ps, ATTN_E_SYNTAX, p, "unknown directive '%s'", nm);
}

static int parse_lines(PS *ps)
{
    while (!ps_at_end(ps)) {
        if (ps_is_empty_line(ps)) {
            ps_next_line(ps);
            continue;
        }
        size_t p = ps_skip_blanks(ps, ps->pos), n = ps_word_len(ps, p);
        const char *w = S(ps)->text + p;
        size_t arg = p + n;
#define IS(word) (n == strlen(word) && memcmp(w, word, n) == 0)
        if (!ps->l->title && !IS("lesson")) {
            char found[48];
            if (n == 0)     /* not a word: quote one whole character */
                for (n = 1; p + n < ps->eol && ((unsigned char)w[n] & 0xC0) == 0x80; n++)
                    ;
            snprintf(found, sizeof found, "%.*s", (int)(n < 40 ? n : 40), w);
            return ps_fail(ps, ATTN_E_SYNTAX, p, "a lesson starts with 'lesson TITLE', not '%s'", found);
        }
        int k = 0;
        while (k < N_DIRECTIVES && !IS(directives[k].name))
            k++;
        int ok;
        if (k == N_DIRECTIVES)
            ok = unknown_directive(ps, p, n);
        else if (directives[k].read)
            ok = directives[k].read(ps, p, arg);
        else if (directives[k].in_exercise)
            ok = ps_fail(ps, ATTN_E_SYNTAX, p, "'%s' belongs inside an exercise", directives[k].name);
        else
            ok = ps_fail(ps, ATTN_E_SYNTAX, p, "'end' without a 'text' or 'exercise' to close");
#undef IS
        if (!ok)
            return 0;
    }
    if (!ps->l->title)
        return ps_fail(ps, ATTN_E_SYNTAX, S(ps)->len, "the lesson is empty: it starts with 'lesson TITLE'");
    return ps_close_step(ps);
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
    if (!l || !(l->text = ps_dupn(text ? text : "", text ? len : 0)) ||
        !(l->file = ps_dupn(file ? file : "<lesson>", strlen(file ? file : "<lesson>")))) {
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
    if (ok && !l->about && !(l->about = ps_dupn("", 0)))
        ok = ps_nomem(&ps);
    if (!ok) {
        lesson_free(l);
        /* NULL always comes with a code that says why */
        if (err->code == ATTN_OK) {
            err->code = ATTN_E_NOMEM;
            snprintf(err->msg, sizeof err->msg, "out of memory reading the lesson");
        }
        return NULL;
    }
    return l;
}
