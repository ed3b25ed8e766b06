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
 *
 * After a refused directive the walk may go on (lesson_parse_all; see
 * resume): at the line after the statement, or past the 'end' of a block
 * whose first line was refused, so each further error is the file's own
 * and not an echo of the first.
 */
#include "alloc.h"
#include "lesson_parse_state.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*DirectiveFn)(PS *ps, size_t kw, size_t arg);

static int d_show(PS *ps, size_t kw, size_t arg) { return dir_panes(ps, kw, arg, 0); }
static int d_heatmap(PS *ps, size_t kw, size_t arg);
static int d_heatmap(PS *ps, size_t kw, size_t arg) { return dir_panes(ps, kw, arg, 1); }

static const struct {
    const char *name;
    DirectiveFn read;       /* NULL: only inside a block               */
    int in_exercise;        /* read by the exercise block, not here    */
    int prose;              /* words and prose: brackets are text      */
    int block;              /* its lines run to an 'end'               */
} directives[] = {
    { "lesson", dir_lesson, 0, 1, 0 },  { "about", dir_about, 0, 1, 0 },     { "layout", dir_layout, 0, 0, 0 },
    { "tokens", dir_tokens, 0, 1, 0 },  { "seed", dir_seed, 0, 0, 0 },       { "let", dir_let, 0, 0, 0 },
    { "labels", dir_labels, 0, 1, 0 },  { "step", dir_step, 0, 1, 0 },       { "text", dir_text, 0, 1, 1 },
    { "show", d_show, 0, 0, 0 },        { "heatmap", d_heatmap, 0, 0, 0 },   { "exercise", dir_exercise, 0, 1, 1 },
    { "answer", NULL, 1, 0, 0 },        { "hint", NULL, 1, 1, 0 },           { "mistake", NULL, 1, 0, 0 },
    { "hide", NULL, 1, 0, 0 },          { "end", NULL, 0, 1, 0 },            { "check", dir_check, 0, 0, 0 },
    { "knob", dir_knob, 0, 0, 0 },
    { "switch", dir_switch, 0, 0, 0 },
};
#define N_DIRECTIVES ((int)(sizeof directives / sizeof *directives))

int ps_top_directive(const char *w, size_t n)
{
    for (int i = 0; i < N_DIRECTIVES; i++)
        if (directives[i].read && strlen(directives[i].name) == n && memcmp(directives[i].name, w, n) == 0)
            return 1;
    return 0;
}

const char *ps_directive_suggestion(const char *w, size_t n, int in_exercise, char *buf, size_t size)
{
    const char *names[N_DIRECTIVES];
    int k = 0;
    for (int i = 0; i < N_DIRECTIVES; i++)
        if (!in_exercise || directives[i].in_exercise || strcmp(directives[i].name, "end") == 0)
            names[k++] = directives[i].name;
    /* a directive of the lesson met in an exercise is a missing 'end',
     * not a misspelling */
    const char *best = in_exercise && ps_top_directive(w, n) ? NULL : lesson_suggest_name(w, n, (char *const *)names, k);
    return lesson_did_you_mean(best, buf, size);
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
        return ps_fail(ps, ATTN_E_SYNTAX, p, "expected a directive (lesson, let, step, text, show, check, ...), found '%s'", found);
    }
    char nm[48], mean[48];
    snprintf(nm, sizeof nm, "%.*s", (int)(n < 40 ? n : 40), w);
    return ps_fail(ps, ATTN_E_SYNTAX, p, "unknown directive '%s'%s", nm, ps_directive_suggestion(w, n, 0, mean, sizeof mean));
}

/* The directive the current line starts with (its index), or -1. */
static int line_directive(PS *ps)
{
    size_t p = ps_skip_blanks(ps, ps->pos), n = ps_word_len(ps, p);
    for (int k = 0; k < N_DIRECTIVES; k++)
        if (strlen(directives[k].name) == n && memcmp(directives[k].name, S(ps)->text + p, n) == 0)
            return k;
    return -1;
}

/* Where the walk goes on after the directive at kw (directives[k], -1 when
 * unknown) was refused: the line after its statement (or where its
 * handler got to, when further); but when a line with just 'end' comes
 * before any 'text' or 'exercise', the lines up to it are a block whose
 * first line was lost (refused, or misspelt), and the walk goes on after
 * that 'end'. */
static void resume(PS *ps, size_t kw, int k)
{
    ps_skip_statement(ps, kw, k >= 0 && directives[k].prose);
    PS look = *ps;
    for (; !ps_at_end(&look); ps_next_line(&look)) {
        if (ps_is_empty_line(&look))
            continue;
        if (ps_line_is(&look, "end")) {
            ps_set_line(ps, look.pos);
            ps_next_line(ps);
            return;
        }
        int d = line_directive(&look);
        if (d >= 0 && directives[d].block)
            return;
    }
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
            ps_fail(ps, ATTN_E_SYNTAX, p, "a lesson starts with 'lesson TITLE', not '%s'", found);
            ps_go_on(ps);   /* kept; what follows may not be a lesson at all */
            return -1;
        }
        int k = 0;
        while (k < N_DIRECTIVES && !IS(directives[k].name))
            k++;
        int failed;
        if (k == N_DIRECTIVES)
            failed = unknown_directive(ps, p, n);
        else if (directives[k].read)
            failed = directives[k].read(ps, p, arg);
        else if (directives[k].in_exercise)
            failed = ps_fail(ps, ATTN_E_SYNTAX, p, "'%s' belongs inside an exercise", directives[k].name);
        else
            failed = ps_fail(ps, ATTN_E_SYNTAX, p, "'end' without a 'text' or 'exercise' to close");
#undef IS
        if (failed) {
            if (!ps_go_on(ps))
                return -1;
            resume(ps, p, k < N_DIRECTIVES ? k : -1);
        }
    }
    if (!ps->l->title) {
        ps_fail(ps, ATTN_E_SYNTAX, S(ps)->len, "the lesson is empty: it starts with 'lesson TITLE'");
        ps_go_on(ps);
        return -1;
    }
    if (ps_close_step(ps)) {
        ps_go_on(ps);
        return -1;
    }
    return ps->n_errs > 0 ? -1 : 0;
}

Lesson *lesson_parse(const char *text, size_t len, const char *file, LessonError *err)
{
    LessonError scratch;
    int n;
    return lesson_parse_all(text, len, file, err ? err : &scratch, 1, &n);
}

Lesson *lesson_parse_all(const char *text, size_t len, const char *file, LessonError *errs, int max, int *n_errs)
{
    LessonError *err = errs;
    *n_errs = 1;    /* until the text parses */
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
    if (src_validate(&l->src, err)) {
        lesson_free(l);
        return NULL;
    }
    PS ps = { .l = l, .err = err, .errs = errs, .max_errs = max > 0 ? max : 1, .line = 1, .step = -1 };
    ps_set_line(&ps, 0);
    int failed = parse_lines(&ps);
    for (int i = 0; i < ps.n_pending; i++)
        free(ps.pending[i].name);
    free(ps.pending);
    if (!failed && !l->about && !(l->about = ps_dupn("", 0))) {
        failed = ps_nomem(&ps);
        ps_go_on(&ps);
    }
    if (failed) {
        lesson_free(l);
        /* NULL always comes with a code that says why */
        if (err->code == ATTN_OK) {
            err->code = ATTN_E_NOMEM;
            snprintf(err->msg, sizeof err->msg, "out of memory reading the lesson");
        }
        *n_errs = ps.n_errs > 0 ? ps.n_errs : 1;
        return NULL;
    }
    *n_errs = 0;
    return l;
}
