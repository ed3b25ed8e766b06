/*
 * tui_knobs.c - the knob bar: one row under the title of a lesson with
 * `knob` or `switch` lines, each knob as "T ◀ 1.0 ▶" and each switch as
 * "causal [on]", the one the keys move highlighted; and the keys' actions,
 * which go through the session (session_knob_*), so every matrix is
 * computed again and undo takes a change back.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "bigtext.h"
#include "tui_knobs.h"
#include "tui_pane.h"
#include "text.h"
#include "tui_lesson.h"

#include "minmax.h"

/* Is knob i on the bar of the screen shown? On the screen that writes it
 * (the set-up, or its step), and on later screens whose panes depend on
 * it, however the dependence goes (lesson_depends_on: rows(Q, t) too). */
static int shown(const LessonScreen *ls, int i)
{
    const Session *ses = ls->lv.ses;
    const Lesson *l = session_lesson(ses);
    int step = session_screen(ses) - session_has_setup(ses);
    const LessonStep *here = lesson_step(l, step), *next = lesson_step(l, step + 1);
    const LessonKnob *k = lesson_knob(l, i);
    if (!k || (next && k->line >= next->line))
        return 0;   /* written further on */
    if (!here || k->line > here->line)
        return 1;   /* written on this screen (the set-up, or this step) */
    for (int p = 0; p < ls->lv.n_panes; p++) {
        const Mat *m = lv_pane_mat(&ls->lv, p);
        if (m && lesson_depends_on(l, m->name, k->name))
            return 1;
    }
    return 0;
}

int knobs_bar_want(const LessonScreen *ls)
{
    if (!ls->lv.ses)
        return 0;
    for (int i = 0; i < lesson_n_knobs(session_lesson(ls->lv.ses)); i++)
        if (shown(ls, i))
            return 1;
    return 0;
}

/* The picked knob: the view's choice when it is shown, else the first
 * shown; -1 when none is. */
static int picked(const LessonScreen *ls)
{
    int n = lesson_n_knobs(session_lesson(ls->lv.ses));
    if (ls->lv.knob >= 0 && ls->lv.knob < n && shown(ls, ls->lv.knob))
        return ls->lv.knob;
    for (int i = 0; i < n; i++)
        if (shown(ls, i))
            return i;
    return -1;
}

/* Decimals that show a value on k's grid: 0 for whole steps, 1 for 0.1. */
static int knob_decimals(const LessonKnob *k)
{
    int d = 0;
    for (double s = k->step; d < 6 && fabs(s - round(s)) > 1e-9 * fmax(1.0, fabs(s)); s *= 10)
        d++;
    return d;
}

/* The text of knob i as the bar shows it. */
static void knob_text(const TuiTerm *term, const LessonScreen *ls, int i, char *buf, size_t size)
{
    const LessonKnob *k = lesson_knob(session_lesson(ls->lv.ses), i);
    double v = session_knob_value(ls->lv.ses, i);
    char word[8];
    if (k->is_switch)
        snprintf(buf, size, " %s [%s] ", k->name, lesson_knob_text(k, v, word, sizeof word));
    else
        snprintf(buf, size, " %s %s %.*f %s ", k->name, ui_glyph(&term->cv, "◀", "<"), knob_decimals(k), v,
                 ui_glyph(&term->cv, "▶", ">"));
}

/* The knobs in the block font, for a room: "T = 1.5   CAUSAL ON", the one
 * the keys move in bold. Rows r.h: 3 (half blocks) or 5. */
static void big_knobs(const TuiTerm *term, const LessonScreen *ls, Rect r, int pick)
{
    const Lesson *l = session_lesson(ls->lv.ses);
    BigSize size = r.h >= 5 ? BIG_FULL : BIG_HALF;
    int x = r.x + 2;
    for (int y = r.y; y < r.y + r.h; y++)
        ui_fill(&term->cv, y, r.x, r.w, term->attr[C_NORMAL]);
    for (int i = 0; i < lesson_n_knobs(l); i++) {
        if (!shown(ls, i))
            continue;
        const LessonKnob *k = lesson_knob(l, i);
        double v = session_knob_value(ls->lv.ses, i);
        char text[MAT_NAME_MAX + 64], word[8];
        if (k->is_switch)
            snprintf(text, sizeof text, "%s %s", k->name, lesson_knob_text(k, v, word, sizeof word));
        else
            snprintf(text, sizeof text, "%s = %.*f", k->name, knob_decimals(k), v);
        int w = big_width(text, size);
        if (w < 0 || x + w > r.x + r.w - 1)
            break;
        int attr = i == pick ? (int)(term->attr[C_PANE_FOCUS] | A_BOLD) : term->attr[C_PANE_TITLE];
        ui_put_big(&term->cv, r.y, x, w, attr, text, size);
        x += w + 6;
    }
}

void knobs_bar_draw(const TuiTerm *term, const LessonScreen *ls, Rect r)
{
    const Lesson *l = session_lesson(ls->lv.ses);
    int n = lesson_n_knobs(l), pick = picked(ls), x = r.x + 1, n_shown = 0;
    if (pick < 0)
        return;
    if (r.h >= 3) {
        big_knobs(term, ls, r, pick);
        return;
    }
    ui_fill(&term->cv, r.y, r.x, r.w, term->attr[C_NORMAL]);
    ui_put(&term->cv, r.y, x, r.w - 1, term->attr[C_DIM], "knobs:");
    x += 6;
    for (int i = 0; i < n && x < r.x + r.w - 1; i++) {
        if (!shown(ls, i))
            continue;
        n_shown++;
        char text[MAT_NAME_MAX + 64];
        knob_text(term, ls, i, text, sizeof text);
        int w = fmt_display_width(text);
        int attr = i == pick ? (int)(term->attr[C_SELECTED] | A_BOLD) : term->attr[C_PANE_TITLE];
        ui_put(&term->cv, r.y, x, imin(w, r.x + r.w - 1 - x), attr, text);
        x += w + 1;
    }
    /* the keys, when the row has room for them */
    char keys[64];
    snprintf(keys, sizeof keys, "%s< >: move%s", n_shown > 1 ? "K: next  " : "",
             lesson_knob(l, pick)->is_switch ? "  s: flip" : "");
    int kw = fmt_display_width(keys);
    if (x + 2 + kw < r.x + r.w - 1)
        ui_put(&term->cv, r.y, r.x + r.w - 1 - kw, kw, term->attr[C_DIM], keys);
}

void lv_knob_action(TuiTerm *term, LessonScreen *ls, TuiAction a)
{
    LessonView *lv = &ls->lv;
    const Lesson *l = session_lesson(lv->ses);
    int n = lesson_n_knobs(l), k = picked(ls);
    if (k < 0) {
        tui_message(term, 0, n ? "no knob on this step" : "this lesson has no knobs");
        return;
    }
    lv->knob = k;
    const LessonKnob *kn = lesson_knob(l, k);
    unsigned change;
    switch (a) {
    case ACT_KNOB_NEXT:
        do
            lv->knob = (lv->knob + 1) % n;
        while (!shown(ls, lv->knob));
        kn = lesson_knob(l, lv->knob);
        tui_message(term, 0, "knob %s: %s", kn->name, kn->is_switch ? "< > or s turn it off and on" : "< > move it, { } by ten");
        return;
    case ACT_KNOB_DOWN: case ACT_KNOB_UP:
        change = session_knob_nudge(lv->ses, k, a == ACT_KNOB_UP ? 1 : -1);
        break;
    case ACT_KNOB_DOWN_BIG: case ACT_KNOB_UP_BIG:
        change = session_knob_set(lv->ses, k,
                                  session_knob_value(lv->ses, k) + (a == ACT_KNOB_UP_BIG ? 10 : -10) * kn->step);
        break;
    default:
        change = session_knob_toggle(lv->ses, k);
        break;
    }
    const char *m = session_message(lv->ses);
    if (m[0])
        tui_message(term, (change & SESSION_REFUSED) != 0, "%s%s", m, change & SESSION_VALUES ? " (u undoes)" : "");
}
