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

#include "tui_put.h"
#include "tui_live.h"
#include "tui_pane.h"
#include "text.h"
#include "tui_lesson_internal.h"

#include "minmax.h"

int lv_reload_if_changed(TuiTerm *term, LessonScreen *ls, int by_hand)
{
    LessonView *lv = &ls->lv;
    if (!lv->ses)
        return 0;
    /* where the person was, for the panes that are still there */
    int n_old = lv->n_panes, ex_index = lv->ex_index, explain_on = lv->explain_on;
    const LessonStep *st = session_step(lv->ses);
    char old_title[256];
    snprintf(old_title, sizeof old_title, "%s", st ? st->title : "");
    unsigned c = session_reload(lv->ses, by_hand);
    if (c & SESSION_RELOAD_FAILED) {
        lv->reload_error_hidden = 0;
        term->message[0] = '\0';     /* an older "reloaded" is not true any more */
        if (by_hand)
            tui_message(term, 1, "%s", session_message(lv->ses));
        return 1;
    }
    if (!(c & SESSION_LESSON))
        return 0;
    Pane *old = malloc((size_t)imax(n_old, 1) * sizeof *old);
    if (!old)
        tui_fatal("out of memory");
    if (n_old > 0)
        memcpy(old, lv->panes, (size_t)n_old * sizeof *old);
    lv_build_panes(ls, old, n_old);
    free(old);
    st = session_step(lv->ses);
    if (st && strcmp(st->title, old_title) == 0) {
        lv->explain_on = explain_on;
        lv->ex_index = ex_index < st->n_exercises ? ex_index : 0;
    } else {
        lv->explain_on = lv->ex_index = 0;
        lv->feedback[0] = '\0';
    }
    lv->reload_error_hidden = 0;
    /* a dropped edit stays until the next key: it says what was lost */
    tui_message(term, 0, "%s", session_message(lv->ses));
    ls->changed |= SESSION_LESSON;  /* what runs beside follows the lesson as it is now */
    term->message_brief = session_reload_dropped(lv->ses) == 0;
    return 1;
}

void lv_hide_reload_error(TuiTerm *term, LessonScreen *ls)
{
    if (!session_reload_error(ls->lv.ses) || ls->lv.reload_error_hidden) {
        tui_message(term, 0, "no reload error to hide");
        return;
    }
    ls->lv.reload_error_hidden = 1;
}

/* The banner: a marked heading, the error's first line wrapped, then the
 * offending source line and its caret as they are (not wrapped, so the
 * caret stays under the column). Short of rows, the heading is folded
 * into the error's first line. */
#define BANNER_HEADING "reload failed, the last good version stays · R retry · c hide"

/* The error as banner lines into buf, its first line after prefix and
 * wrapped (*first_rows rows). Returns the number of lines. */
static int banner_text(const TuiTerm *term, const LessonScreen *ls, const char *prefix, char *buf, size_t size, int *first_rows)
{
    const char *e = session_reload_error(ls->lv.ses);
    const char *nl = strchr(e, '\n');
    char first[1200];
    snprintf(first, sizeof first, "%s%.*s", prefix, nl ? (int)(nl - e) : (int)strlen(e), e);
    int n = text_wrap_lines(buf, size, first, imax(term->cols - 2, 10), 4);
    *first_rows = n;
    if (nl) {
        size_t len = strlen(buf);
        snprintf(buf + len, size - len, "\n%s", nl + 1);
        for (const char *p = nl; p; p = strchr(p + 1, '\n'))
            n++;
    }
    return n;
}

int lv_banner_want(const TuiTerm *term, const LessonScreen *ls)
{
    const LessonView *lv = &ls->lv;
    if (!lv->ses || !session_reload_error(lv->ses) || lv->reload_error_hidden)
        return 0;
    char buf[4096];
    int first;
    return 1 + banner_text(term, ls, "", buf, sizeof buf, &first);
}

void lv_banner_draw(const TuiTerm *term, const LessonScreen *ls, Rect r)
{
    if (r.h <= 0)
        return;
    int err = term->attr[C_ERROR], marked = (int)(term->attr[C_ERROR] | A_REVERSE);
    char buf[4096], line[1024];
    int first, k = 0;
    if (r.h >= lv_banner_want(term, ls)) {
        ui_fill(&term->cv, r.y, 0, term->cols, marked);
        ui_putf(&term->cv, r.y, 1, r.w - 2, marked, "%s %s", ui_glyph(&term->cv, "✗", "X"), term->cv.utf8 ? BANNER_HEADING : "reload failed, the "
                "last good version stays - R retry - c hide");
        banner_text(term, ls, "", buf, sizeof buf, &first);
        k = 1;
        first += 1;
    } else {
        banner_text(term, ls, ui_glyph(&term->cv, "✗ reload failed (c hides): ", "X reload failed (c hides): "), buf, sizeof buf, &first);
    }
    const char *p = buf;
    for (int row = k; row < r.h && (p = text_line(p, line, sizeof line)); row++) {
        int a = row < first || line[strspn(line, " ")] == '^' ? err : term->attr[C_TEXT];
        if (row == 0) {
            ui_fill(&term->cv, r.y, 0, term->cols, marked);
            a = marked;
        }
        ui_put(&term->cv, r.y + row, 1, r.w - 2, a, line);
    }
}
