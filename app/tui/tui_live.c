/*
 * tui_live.c - live reload of the open lesson, for authors who keep it on
 * screen while they edit its file: the main loop asks, on each key and each
 * 200 ms timeout, whether the file's stamp changed; if so the file is read,
 * parsed and evaluated again. A good version replaces the shown one and
 * keeps the user's place (step, focused pane, cursors) and the edits that
 * still apply; a bad one (or a file gone) leaves the last good version up
 * and shows its error under the title until the file is fixed or the user
 * hides it. No threads, no inotify: a stat per check.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lessonfile.h"
#include "tui_put.h"
#include "tui_state.h"

#include "minmax.h"

void lv_watch(LessonView *lv, const char *path, const FileStamp *stamp)
{
    free(lv->path);
    lv->path = NULL;
    if (path) {
        size_t n = strlen(path) + 1;
        lv->path = malloc(n);
        if (!lv->path)
            tui_fatal("out of memory");
        memcpy(lv->path, path, n);
    }
    lv->stamp = *stamp;
}

static void reload_failed(Tui *t, const LessonError *err)
{
    LessonView *lv = &t->lv;
    char buf[2048];
    lesson_error_format(err, buf, sizeof buf);
    size_t n = strlen(buf);
    while (n > 0 && buf[n - 1] == '\n')
        buf[--n] = '\0';
    free(lv->reload_error);
    lv->reload_error = malloc(n + 1);
    if (!lv->reload_error)
        tui_fatal("out of memory");
    memcpy(lv->reload_error, buf, n + 1);
    lv->reload_error_hidden = 0;
    t->message[0] = '\0';     /* an older "reloaded" is not true any more */
}

/* Read the file again: the new lesson and its state with the edits that
 * still apply (*edits, *n_edits replaced, the dropped ones counted in
 * *dropped). 0, or -1 with err and nothing changed. */
static int read_again(const LessonView *lv, Lesson **out_l, LessonState **out_s, LessonEdit **edits,
                      int *n_edits, int *dropped, LessonError *err)
{
    Lesson *l = lessonfile_load(lv->path, err);
    LessonState *bare = l ? lesson_eval(l, NULL, 0, err) : NULL;
    if (!bare) {
        lesson_free(l);
        return -1;
    }
    LessonEdit *kept = malloc((size_t)imax(lv->n_edits, 1) * sizeof *kept);
    if (!kept)
        tui_fatal("out of memory");
    if (lv->n_edits > 0)
        memcpy(kept, lv->edits, (size_t)lv->n_edits * sizeof *kept);
    int n_kept = edits_still_apply(kept, lv->n_edits, bare);
    LessonState *s = bare;
    if (n_kept > 0) {
        s = lesson_eval(l, kept, n_kept, err);
        lesson_state_free(bare);
        if (!s) {
            free(kept);
            lesson_free(l);
            return -1;
        }
    }
    *out_l = l;
    *out_s = s;
    *dropped = lv->n_edits - n_kept;
    *edits = kept;
    *n_edits = n_kept;
    return 0;
}

/* Put the new version in place, keeping the user's place in it. */
static void swap_in(Tui *t, Lesson *l, LessonState *s, LessonEdit *edits, int n_edits, int cap_edits)
{
    LessonView *lv = &t->lv;
    /* where the user was */
    int step = lv->screen - lv->has_setup;     /* -1: the set-up screen */
    int explain_on = lv->explain_on, ex_index = lv->ex_index, n_old = lv->n_panes;
    char focus_name[MAT_NAME_MAX] = "";
    if (lv->n_panes > 0)
        snprintf(focus_name, sizeof focus_name, "%s", lv->panes[lv->focus].name);
    int old_focus = lv->focus;
    Pane *old = malloc((size_t)imax(n_old, 1) * sizeof *old);
    const LessonStep *old_st = lv_step(lv);
    int n_hints = old_st ? old_st->n_exercises : 0;
    int *hints = malloc((size_t)imax(n_hints, 1) * sizeof *hints);
    if (!old || !hints)
        tui_fatal("out of memory");
    if (n_old > 0)
        memcpy(old, lv->panes, (size_t)n_old * sizeof *old);
    if (n_hints > 0)
        memcpy(hints, lv->hints_shown, (size_t)n_hints * sizeof *hints);

    lesson_state_free(lv->state);
    lesson_free(lv->lesson);
    free(lv->edits);
    lv->lesson = l;
    lv->state = s;
    lv->edits = edits;
    lv->n_edits = n_edits;
    lv->cap_edits = cap_edits;
    lv->has_setup = lesson_n_setup(l) > 0;
    lv_go(t, step < 0 ? 0 : step + lv->has_setup);
    int same_step = lv->screen - lv->has_setup == step;

    /* the panes that are still there keep their cursor, scroll and view */
    lv->focus = imin(old_focus, imax(lv->n_panes - 1, 0));
    for (int i = 0; i < lv->n_panes; i++) {
        Pane *p = &lv->panes[i];
        if (strcmp(p->name, focus_name) == 0)
            lv->focus = i;
        const Mat *m = lv_pane_mat(lv, i);
        for (int k = 0; k < n_old && m; k++) {
            if (strcmp(old[k].name, p->name) != 0)
                continue;
            /* a heat toggle by hand stays; otherwise the file decides */
            if (old[k].heat != old[k].heat_file)
                p->heat = old[k].heat;
            p->overview = old[k].overview;
            p->cur_r = imin(old[k].cur_r, m->rows - 1);
            p->cur_c = imin(old[k].cur_c, m->cols - 1);
            p->first_r = old[k].first_r;
            p->first_c = old[k].first_c;
        }
    }
    const LessonStep *st = lv_step(lv);
    if (same_step && st) {
        lv->explain_on = explain_on;
        lv->ex_index = imin(ex_index, imax(st->n_exercises - 1, 0));
        for (int k = 0; k < st->n_exercises && k < n_hints; k++)
            lv->hints_shown[k] = imin(hints[k], st->exercises[k].n_hints);
    }
    free(old);
    free(hints);
}

int lv_reload_if_changed(Tui *t, int by_hand)
{
    LessonView *lv = &t->lv;
    if (!lv->lesson || !lv->path)
        return 0;
    FileStamp now = file_stamp(lv->path);
    if (!by_hand && file_stamp_same(&now, &lv->stamp))
        return 0;
    lv->stamp = now;    /* tried once per version: a bad one is not re-read */
    Lesson *l;
    LessonState *s;
    LessonEdit *edits;
    int n_edits, dropped, cap = imax(lv->n_edits, 1);
    LessonError err;
    if (read_again(lv, &l, &s, &edits, &n_edits, &dropped, &err) < 0) {
        reload_failed(t, &err);
        if (by_hand)
            tui_message(t, 1, "%s still has an error: the last good version stays", lv->path);
        return 1;
    }
    swap_in(t, l, s, edits, n_edits, cap);
    free(lv->reload_error);
    lv->reload_error = NULL;
    lv->reload_error_hidden = 0;
    if (dropped > 0) {
        /* stays until the next key: it says what was lost */
        tui_message(t, 0, "reloaded %s; %d edit%s dropped: %s no longer an input cell there", lv->path, dropped,
                    dropped == 1 ? "" : "s", dropped == 1 ? "its cell is" : "their cells are");
    } else {
        tui_message(t, 0, "reloaded %s", lv->path);
        t->message_brief = 1;
    }
    return 1;
}

void lv_hide_reload_error(Tui *t)
{
    if (!t->lv.reload_error || t->lv.reload_error_hidden) {
        tui_message(t, 0, "no reload error to hide");
        return;
    }
    t->lv.reload_error_hidden = 1;
}

/* The banner: a marked heading, the error's first line wrapped, then the
 * offending source line and its caret as they are (not wrapped, so the
 * caret stays under the column). Short of rows, the heading is folded
 * into the error's first line. */
#define BANNER_HEADING "reload failed, the last good version stays · R retry · c hide"

/* The error as banner lines into buf, its first line after prefix and
 * wrapped (*first_rows rows). Returns the number of lines. */
static int banner_text(const Tui *t, const char *prefix, char *buf, size_t size, int *first_rows)
{
    const char *e = t->lv.reload_error;
    const char *nl = strchr(e, '\n');
    char first[1200];
    snprintf(first, sizeof first, "%s%.*s", prefix, nl ? (int)(nl - e) : (int)strlen(e), e);
    int n = text_wrap_lines(buf, size, first, imax(t->cols - 2, 10), 4);
    *first_rows = n;
    if (nl) {
        size_t len = strlen(buf);
        snprintf(buf + len, size - len, "\n%s", nl + 1);
        for (const char *p = nl; p; p = strchr(p + 1, '\n'))
            n++;
    }
    return n;
}

int lv_banner_want(const Tui *t)
{
    const LessonView *lv = &t->lv;
    if (!lv->reload_error || lv->reload_error_hidden)
        return 0;
    char buf[4096];
    int first;
    return 1 + banner_text(t, "", buf, sizeof buf, &first);
}

void lv_banner_draw(const Tui *t, Rect r)
{
    if (r.h <= 0)
        return;
    int err = t->attr[C_ERROR], marked = (int)(t->attr[C_ERROR] | A_REVERSE);
    char buf[4096], line[1024];
    int first, k = 0;
    if (r.h >= lv_banner_want(t)) {
        ui_fill(r.y, 0, t->cols, marked);
        ui_putf(r.y, 1, r.w - 2, marked, "%s %s", ui_glyph("✗", "X"), ui_utf8 ? BANNER_HEADING : "reload failed, the "
                "last good version stays - R retry - c hide");
        banner_text(t, "", buf, sizeof buf, &first);
        k = 1;
        first += 1;
    } else {
        banner_text(t, ui_glyph("✗ reload failed (c hides): ", "X reload failed (c hides): "), buf, sizeof buf, &first);
    }
    const char *p = buf;
    for (int row = k; row < r.h && (p = text_line(p, line, sizeof line)); row++) {
        int a = row < first || line[strspn(line, " ")] == '^' ? err : t->attr[C_TEXT];
        if (row == 0) {
            ui_fill(r.y, 0, t->cols, marked);
            a = marked;
        }
        ui_put(r.y + row, 1, r.w - 2, a, line);
    }
}
