/*
 * tui_lesson.c - the lesson view's behaviour: opening a lesson, moving
 * between its screens, the cursor and panes, editing input cells and
 * re-evaluating, exercises with hints and answers. No drawing here: each
 * action changes the state and the main loop redraws.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lessonfile.h"
#include "tui_state.h"

#define DECIMALS_DEFAULT 4
#define DECIMALS_MAX 8

#include "minmax.h"

void lv_close(LessonView *lv)
{
    tui_views_free(lv);
    lesson_state_free(lv->state);
    lesson_free(lv->lesson);
    free(lv->edits);
    free(lv->panes);
    free(lv->hints_shown);
    free(lv->result);
    free(lv->path);
    free(lv->reload_error);
    memset(lv, 0, sizeof *lv);
}

void lv_adopt(Tui *t, Lesson *l, LessonState *s)
{
    lv_close(&t->lv);
    t->lv.lesson = l;
    t->lv.state = s;
    t->lv.decimals = DECIMALS_DEFAULT;
    t->lv.has_setup = lesson_n_setup(l) > 0;
    lv_go(t, 0);
}

int lv_open(Tui *t, const char *path, char *msg, size_t size)
{
    LessonError err;
    FileStamp stamp = file_stamp(path);   /* before reading: a save after it is seen */
    Lesson *l = lessonfile_load(path, &err);
    LessonState *s = l ? lesson_eval(l, NULL, 0, &err) : NULL;
    if (!s) {
        lesson_error_format(&err, msg, size);
        lesson_free(l);
        return -1;
    }
    lv_adopt(t, l, s);
    lv_watch(&t->lv, path, &stamp);
    return 0;
}

int lv_n_screens(const LessonView *lv)
{
    return lv->lesson ? lesson_n_steps(lv->lesson) + lv->has_setup : 0;
}

const LessonStep *lv_step(const LessonView *lv)
{
    int i = lv->screen - lv->has_setup;
    if (!lv->lesson || i < 0 || i >= lesson_n_steps(lv->lesson))
        return NULL;
    return lesson_step(lv->lesson, i);
}

static void add_pane(LessonView *lv, const char *name, int heat)
{
    for (int i = 0; i < lv->n_panes; i++)
        if (strcmp(lv->panes[i].name, name) == 0)
            return;
    Pane *p = &lv->panes[lv->n_panes++];
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "%s", name);
    p->heat = p->heat_file = heat;
}

void lv_go(Tui *t, int screen)
{
    LessonView *lv = &t->lv;
    int n = lv_n_screens(lv);
    if (n == 0)
        return;
    screen = imax(0, imin(screen, n - 1));
    tui_views_free(lv);
    free(lv->panes);
    free(lv->hints_shown);
    free(lv->result);
    lv->panes = NULL;
    lv->hints_shown = lv->result = NULL;
    lv->n_panes = lv->focus = 0;
    lv->screen = screen;
    lv->explain_on = 0;
    lv->ex_index = 0;
    lv->feedback[0] = '\0';
    const LessonStep *st = lv_step(lv);
    int want = st ? (st->n_show > 0 ? st->n_show : st->n_defines) : lesson_n_setup(lv->lesson);
    lv->panes = calloc((size_t)imax(want, 1), sizeof *lv->panes);
    lv->views = calloc((size_t)imax(want, 1), sizeof *lv->views);
    int n_ex = st ? st->n_exercises : 0;
    lv->hints_shown = calloc((size_t)imax(n_ex, 1), sizeof *lv->hints_shown);
    lv->result = calloc((size_t)imax(n_ex, 1), sizeof *lv->result);
    if (!lv->panes || !lv->views || !lv->hints_shown || !lv->result)
        tui_fatal("out of memory");
    for (int i = 0; i < want; i++) {
        const char *name;
        if (!st)
            name = lesson_setup_name(lv->lesson, i);
        else
            name = st->n_show > 0 ? st->show[i] : st->defines[i];
        int heat = 0;
        for (int k = 0; st && k < st->n_heatmap; k++)
            heat |= strcmp(st->heatmap[k], name) == 0;
        add_pane(lv, name, heat);
    }
}

const Mat *lv_pane_mat(const LessonView *lv, int i)
{
    return lv->state ? lesson_state_get(lv->state, lv->panes[i].name) : NULL;
}

int lv_is_edited(const LessonView *lv, const char *name, int row, int col)
{
    for (int i = 0; i < lv->n_edits; i++)
        if (lv->edits[i].row == row && lv->edits[i].col == col && strcmp(lv->edits[i].name, name) == 0)
            return 1;
    return 0;
}

/* Re-evaluate with the current edits. On failure keep the last good state
 * and drop the newest edit, which is the one that failed. */
static int reevaluate(Tui *t)
{
    LessonView *lv = &t->lv;
    LessonError err;
    LessonState *s = lesson_eval(lv->lesson, lv->edits, lv->n_edits, &err);
    if (!s) {
        char buf[600];
        lesson_error_format(&err, buf, sizeof buf);
        char *nl = strchr(buf, '\n');
        if (nl)
            *nl = '\0';
        if (lv->n_edits > 0)
            lv->n_edits--;
        tui_message(t, 1, "the edit was not applied: %s", buf);
        return -1;
    }
    lesson_state_free(lv->state);
    lv->state = s;
    return 0;
}

static Pane *focused(LessonView *lv)
{
    return lv->n_panes > 0 ? &lv->panes[lv->focus] : NULL;
}

/* Move the focused pane's cursor by (dr, dc) cells (blocks in overview). */
static void move_cursor(Tui *t, int dr, int dc)
{
    LessonView *lv = &t->lv;
    Pane *p = focused(lv);
    if (!p)
        return;
    const Mat *m = lv_pane_mat(lv, lv->focus);
    if (!m)
        return;
    PaneView *v = &lv->views[lv->focus];
    int sr = p->overview && v->br > 0 ? v->br : 1, sc = p->overview && v->bc > 0 ? v->bc : 1;
    p->cur_r = imax(0, imin(m->rows - 1, p->cur_r + dr * sr));
    p->cur_c = imax(0, imin(m->cols - 1, p->cur_c + dc * sc));
    if (p->overview) {
        p->cur_r -= p->cur_r % sr;
        p->cur_c -= p->cur_c % sc;
    }
}

static void start_prompt(Tui *t, PromptKind kind, const char *label)
{
    t->prompt = kind;
    t->input[0] = '\0';
    t->input_len = 0;
    snprintf(t->prompt_label, sizeof t->prompt_label, "%s", label);
}

static void start_edit(Tui *t)
{
    LessonView *lv = &t->lv;
    Pane *p = focused(lv);
    const Mat *m = p ? lv_pane_mat(lv, lv->focus) : NULL;
    if (!m) {
        tui_message(t, 1, "no matrix here to edit");
        return;
    }
    if (m->prov.op != OP_INPUT && m->prov.op != OP_RANDN) {
        tui_message(t, 1, "%s is computed (%s): edit one of its inputs, and it follows", p->name,
                    mat_op_name(m->prov.op));
        return;
    }
    if (p->overview) {
        tui_message(t, 1, "leave the overview (o) to edit a single cell");
        return;
    }
    char name[64], label[160], now[32];
    explain_cell_name(m, p->cur_r, p->cur_c, name, sizeof name);
    snprintf(now, sizeof now, "%g", (double)mat_get(m, p->cur_r, p->cur_c));
    snprintf(label, sizeof label, "new value for %s (now %s): ", name, now);
    start_prompt(t, PROMPT_EDIT, label);
}

static void submit_edit(Tui *t)
{
    LessonView *lv = &t->lv;
    Pane *p = focused(lv);
    if (!p || !lv_pane_mat(lv, lv->focus))
        return;
    char *end;
    float v = strtof(t->input, &end);
    while (*end == ' ')
        end++;
    if (end == t->input || *end) {
        /* not a plain number: an expression of the language ("E[1,1] * 2") */
        LessonError err;
        Mat *r = lesson_eval_expr(lv->state, t->input, &err);
        if (!r || r->rows != 1 || r->cols != 1) {
            tui_message(t, 1, "'%s' is not a number%s%s", t->input, r ? "" : ": ", r ? "" : err.msg);
            mat_free(r);
            return;
        }
        v = mat_get(r, 0, 0);
        mat_free(r);
    }
    if (lv->n_edits == lv->cap_edits) {
        int cap = lv->cap_edits ? lv->cap_edits * 2 : 16;
        LessonEdit *e = realloc(lv->edits, (size_t)cap * sizeof *e);
        if (!e) {
            tui_message(t, 1, "out of memory: the edit was not applied");
            return;
        }
        lv->edits = e;
        lv->cap_edits = cap;
    }
    LessonEdit *e = &lv->edits[lv->n_edits++];
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", p->name);
    e->row = p->cur_r;
    e->col = p->cur_c;
    e->value = v;
    if (reevaluate(t) == 0)
        tui_message(t, 0, "%s[%d,%d] = %g; everything after it follows (u undoes, r resets)", p->name,
                    p->cur_r + 1, p->cur_c + 1, (double)v);
}

/* The value an expression gives, for comparing answers: m must be 1x1. */
static int expr_value(const LessonState *s, const char *expr, double *out, char *msg, size_t size)
{
    LessonError err;
    Mat *m = lesson_eval_expr(s, expr, &err);
    if (!m) {
        snprintf(msg, size, "%s", err.msg);
        return -1;
    }
    if (m->rows != 1 || m->cols != 1) {
        snprintf(msg, size, "that is a %dx%d matrix; the answer is one number", m->rows, m->cols);
        mat_free(m);
        return -1;
    }
    *out = mat_get(m, 0, 0);
    mat_free(m);
    return 0;
}

static void submit_answer(Tui *t)
{
    LessonView *lv = &t->lv;
    const LessonStep *st = lv_step(lv);
    if (!st || lv->ex_index >= st->n_exercises)
        return;
    const LessonExercise *ex = &st->exercises[lv->ex_index];
    double want, got;
    char msg[400];
    if (expr_value(lv->state, ex->answer, &want, msg, sizeof msg) < 0) {
        snprintf(lv->feedback, sizeof lv->feedback, "this exercise's answer does not evaluate: %s", msg);
        lv->feedback_ok = 0;
        return;
    }
    if (expr_value(lv->state, t->input, &got, msg, sizeof msg) < 0) {
        snprintf(lv->feedback, sizeof lv->feedback, "could not read '%s': %s", t->input, msg);
        lv->feedback_ok = 0;
        return;
    }
    int right = fabs(got - want) <= ex->within || (isinf(got) && got == want);
    lv->result[lv->ex_index] = right ? 1 : -1;
    lv->feedback_ok = right;
    if (right)
        snprintf(lv->feedback, sizeof lv->feedback, "%s right: %s = %.*f", t->utf8 ? "✓" : "OK",
                 ex->answer, lv->decimals, want);
    else
        snprintf(lv->feedback, sizeof lv->feedback, "%s not yet: %s is off by more than %g%s",
                 t->utf8 ? "✗" : "X", t->input, ex->within,
                 lv->hints_shown[lv->ex_index] < ex->n_hints ? " (i: a hint)" : "");
}

void lv_submit(Tui *t)
{
    PromptKind k = t->prompt;
    t->prompt = PROMPT_NONE;
    if (t->input_len == 0)
        return;
    if (k == PROMPT_EDIT)
        submit_edit(t);
    else if (k == PROMPT_ANSWER)
        submit_answer(t);
}

void lv_click(Tui *t, int x, int y)
{
    LessonView *lv = &t->lv;
    for (int i = 0; i < lv->n_panes; i++) {
        PaneView *v = &lv->views[i];
        if (!v->m || !v->place.visible)
            continue;
        Pane *p = &lv->panes[i];
        int r, c;
        if (grid_hit(&v->grid, v->place.r, p->first_r, p->first_c, v->rows, v->cols, x, y, &r, &c)) {
            lv->focus = i;
            p->cur_r = imin(r * v->br, v->m->rows - 1);
            p->cur_c = imin(c * v->bc, v->m->cols - 1);
            return;
        }
        if (rect_inside((Rect){ x, y, 1, 1 }, v->place.r))
            lv->focus = i;
    }
}

void lv_action(Tui *t, TuiAction a)
{
    LessonView *lv = &t->lv;
    Pane *p = focused(lv);
    const LessonStep *st = lv_step(lv);
    switch (a) {
    case ACT_NEXT:
        if (lv->screen + 1 < lv_n_screens(lv))
            lv_go(t, lv->screen + 1);
        else
            tui_message(t, 0, "the end of the lesson: p goes back, Esc to the menu");
        break;
    case ACT_PREV:
        if (lv->screen > 0)
            lv_go(t, lv->screen - 1);
        break;
    case ACT_FIRST:
        lv_go(t, 0);
        break;
    case ACT_LAST:
        lv_go(t, lv_n_screens(lv) - 1);
        break;
    case ACT_UP:
        move_cursor(t, -1, 0);
        break;
    case ACT_DOWN:
        move_cursor(t, 1, 0);
        break;
    case ACT_LEFT:
        move_cursor(t, 0, -1);
        break;
    case ACT_RIGHT:
        move_cursor(t, 0, 1);
        break;
    case ACT_PANE_NEXT:
        if (lv->n_panes > 0)
            lv->focus = (lv->focus + 1) % lv->n_panes;
        break;
    case ACT_PANE_PREV:
        if (lv->n_panes > 0)
            lv->focus = (lv->focus + lv->n_panes - 1) % lv->n_panes;
        break;
    case ACT_SELECT:
        if (p && p->overview) {
            p->overview = 0;    /* open the block under the cursor */
            tui_message(t, 0, "the block at %s[%d,%d], cell by cell", p->name, p->cur_r + 1, p->cur_c + 1);
        } else {
            lv->explain_on = !lv->explain_on;
        }
        break;
    case ACT_MORE:
        lv->decimals = imin(lv->decimals + 1, DECIMALS_MAX);
        break;
    case ACT_LESS:
        lv->decimals = imax(lv->decimals - 1, 0);
        break;
    case ACT_HEAT:
        if (p)
            p->heat = !p->heat;
        break;
    case ACT_OVERVIEW:
        if (p) {
            p->overview = (p->overview + 1) % 3;
            p->first_r = p->first_c = 0;
        }
        break;
    case ACT_EDIT:
        start_edit(t);
        break;
    case ACT_UNDO:
        if (lv->n_edits == 0) {
            tui_message(t, 0, "no edits to undo");
        } else {
            LessonEdit last = lv->edits[--lv->n_edits];
            if (reevaluate(t) == 0)
                tui_message(t, 0, "undone: %s[%d,%d]", last.name, last.row + 1, last.col + 1);
        }
        break;
    case ACT_RESET:
        if (lv->n_edits > 0) {
            int n = lv->n_edits;
            lv->n_edits = 0;
            if (reevaluate(t) == 0)
                tui_message(t, 0, "%d edit%s reset: the lesson's own values again", n, n == 1 ? "" : "s");
        }
        break;
    case ACT_HINT:
        if (!st || st->n_exercises == 0) {
            tui_message(t, 0, "no exercise on this step");
        } else {
            const LessonExercise *ex = &st->exercises[lv->ex_index];
            if (lv->hints_shown[lv->ex_index] < ex->n_hints)
                lv->hints_shown[lv->ex_index]++;
            else
                tui_message(t, 0, ex->n_hints ? "no more hints" : "this exercise has no hints");
        }
        break;
    case ACT_ANSWER:
        if (!st || st->n_exercises == 0)
            tui_message(t, 0, "no exercise on this step");
        else
            start_prompt(t, PROMPT_ANSWER, "your answer (a number or an expression like S[2,1]): ");
        break;
    case ACT_EXERCISE:
        if (st && st->n_exercises > 1) {
            lv->ex_index = (lv->ex_index + 1) % st->n_exercises;
            lv->feedback[0] = '\0';
        }
        break;
    case ACT_TEXT:
        t->overlay = OVERLAY_TEXT;
        break;
    default:
        break;
    }
}
