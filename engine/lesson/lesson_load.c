/*
 * lesson_load.c - load("file") in the lesson language: the loader hook
 * through which the evaluator asks the app for a file's bytes (the engine
 * never opens files), the list of files a lesson loads (what live reload
 * watches), and the evaluation of a load call: bytes in, the row's reader
 * (npy.h, csv.h), errors at the call naming the file and what is wrong in
 * it ("weights.npy: truncated: ...").
 */
#include "lesson_tree.h"

#include <stdlib.h>
#include <string.h>

#include "utf8.h"

void lesson_set_loader(Lesson *l, LessonLoader fn, void *ctx)
{
    if (!l)
        return;
    l->loader = fn;
    l->loader_ctx = ctx;
}

/* Call fn on every load() of e's tree, in source order; stops at the
 * first nonzero return, which it returns. */
static int each_load(const Expr *e, int (*fn)(const char *path, void *arg), void *arg)
{
    if (!e)
        return 0;
    int r = 0;
    if (e->kind == E_CALL && e->str && (r = fn(e->str, arg)) != 0)
        return r;
    if ((r = each_load(e->a, fn, arg)) != 0 || (r = each_load(e->b, fn, arg)) != 0)
        return r;
    for (int i = 0; i < e->n_args; i++)
        if ((r = each_load(e->args[i], fn, arg)) != 0)
            return r;
    return 0;
}

/* Walking the loads: the distinct paths are counted, and the one numbered
 * want is kept. */
typedef struct {
    const Lesson *l;
    int seen, want;
    const char *found;
} LoadWalk;

/* At the first occurrence of self's path: 2 when it is self, else 1. */
static int first_of(const char *path, void *self)
{
    return strcmp(path, self) != 0 ? 0 : path == self ? 2 : 1;
}

/* 1 when the occurrence self (a string of l's tree) is the first use of
 * its path in l. */
static int is_first_use(const Lesson *l, const char *self)
{
    for (int i = 0; i < l->n_stmts; i++) {
        int r = l->stmts[i].kind == ST_LET ? each_load(l->stmts[i].expr, first_of, (void *)self) : 0;
        if (r)
            return r == 2;
    }
    return 0;
}

static int pick(const char *path, void *arg)
{
    LoadWalk *w = arg;
    if (!is_first_use(w->l, path))
        return 0;
    if (w->seen++ == w->want) {
        w->found = path;
        return 1;
    }
    return 0;
}

static const char *nth_load(const Lesson *l, int want, int *count)
{
    LoadWalk w = { l, 0, want, NULL };
    for (int i = 0; i < l->n_stmts && !w.found; i++)
        if (l->stmts[i].kind == ST_LET)
            each_load(l->stmts[i].expr, pick, &w);
    *count = w.seen;
    return w.found;
}

int lesson_n_loads(const Lesson *l)
{
    int n = 0;
    if (l)
        nth_load(l, -1, &n);
    return n;
}

const char *lesson_load_path(const Lesson *l, int i)
{
    int n;
    return l && i >= 0 ? nth_load(l, i, &n) : NULL;
}

/* A label from a CSV may reach a terminal: it is refused when it holds a
 * character that may not be written there raw (utf8_unsafe: a control, a
 * tab, invalid UTF-8, a character of the list), as escaping it would
 * change more than its backslashes; but not for the marks right-to-left
 * text needs, which a lesson's own text may hold too (U+200E, U+200F,
 * U+061C: the screen drops them, the escapes write them out). */
static int label_is_safe(const char *label)
{
    size_t n = strlen(label);
    if (4 * n + 1 > 4 * 64 + 8)      /* longer than a label escaped ever fit (65 bytes) */
        return 0;
    for (size_t i = 0, k; i < n; i += k) {
        unsigned cp;
        const unsigned char *t = (const unsigned char *)label + i;
        if (utf8_unsafe(t, n - i, &k)
            && !(k > 1 && utf8_decode(t, n - i, &cp) == k && !utf8_control_refused_in_text(cp)))
            return 0;
    }
    return 1;
}

Mat *eval_load(EvalCtx *c, const Expr *e, const OpInfo *op)
{
    const Lesson *l = c->lesson;
    if (!l || !l->loader) {
        src_error(c->src, c->err, ATTN_E_ARG, e->pos,
                  l ? "load() cannot read files here: this lesson was not opened from a file"
                    : "load() reads files in let lines only: let a name hold the file's matrix");
        return NULL;
    }
    char *bytes = NULL;
    size_t len = 0;
    char why[256] = "";
    if (!l->loader(l->loader_ctx, l->file, e->str, &bytes, &len, why, sizeof why)) {
        free(bytes);
        src_error(c->src, c->err, ATTN_E_IO, e->pos, "%s: %s", e->str, why[0] ? why : "cannot be read");
        return NULL;
    }
    Mat *out = NULL;
    AttnError ae = { 0 };
    attn_status st = op->read(&out, e->str, bytes ? bytes : "", len, LESSON_MAX_ELEMS, label_is_safe, &ae);
    free(bytes);
    if (st != ATTN_OK || !out) {
        src_error(c->src, c->err, st != ATTN_OK ? st : ATTN_E_ARG, e->pos, "%s: %s", e->str,
                  ae.msg[0] ? ae.msg : attn_status_str(st));
        return NULL;
    }
    return out;
}
