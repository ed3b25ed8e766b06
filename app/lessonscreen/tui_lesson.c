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

#include "tui_bug.h"
#include "tui_knobs.h"
#include "tui_pane.h"
#include "tui_live.h"
#include "text.h"
#include "tui_lesson_internal.h"


#include "escape.h"
#include "minmax.h"

void lv_close(LessonView *lv)
{
    tui_views_free(lv);
    session_free(lv->ses);
    free(lv->panes);
    memset(lv, 0, sizeof *lv);
}

void lv_adopt(TuiTerm *term, LessonScreen *ls, Session *ses)
{
    lv_close(&ls->lv);
    ls->lv.ses = ses;
    /* the student's progress: back where they left, saved as they go; a
     * room's presenter starts at the beginning and saves nothing */
    if (!ls->present)
        session_keep_default_progress(ses);
    session_defer_step_saves(ses, 1);   /* the frame first (tui_main) */
    if (session_progress_warning(ses)[0])
        tui_message(term, 1, "%s", session_progress_warning(ses));
    /* a class reads two decimals from the back of the room (+ for more) */
    ls->lv.decimals = ls->lv.decimals_shown = ls->present ? PRESENT_DECIMALS : NUM_DECIMALS_DEFAULT;
    ls->lv.decimals_chosen = 0;
    lv_build_panes(ls, NULL, 0);
}

int lv_open(TuiTerm *term, LessonScreen *ls, const char *path, char *msg, size_t size)
{
    LessonError err;
    Session *ses = session_open(path, &err);
    if (!ses) {
        term_lesson_error(&err, msg, size);
        return -1;
    }
    lv_adopt(term, ls, ses);
    return 0;
}

void lv_go(LessonScreen *ls, int screen)
{
    LessonView *lv = &ls->lv;
    if (!lv->ses || !(session_go(lv->ses, screen) & SESSION_SCREEN))
        return;
    lv->explain_on = 0;
    lv->ex_index = 0;
    lv->feedback[0] = '\0';
    lv->revealed = 0;
    lv->zoom = 0;
    ls->changed |= SESSION_SCREEN;
    lv_build_panes(ls, NULL, 0);
}

/* Show what the session said of an action: an error when it refused. */
static void tell(TuiTerm *term, LessonScreen *ls, unsigned change, const char *then)
{
    ls->changed |= change;
    const char *m = session_message(ls->lv.ses);
    if (m[0])
        tui_message(term, (change & SESSION_REFUSED) != 0, "%s%s", m,
                    (change & SESSION_REFUSED) ? "" : then);
}

static Pane *focused(LessonView *lv)
{
    return lv->n_panes > 0 ? &lv->panes[lv->focus] : NULL;
}

/* Move the focused pane's cursor by (dr, dc) cells (blocks in overview). */
static void move_cursor(LessonScreen *ls, int dr, int dc)
{
    LessonView *lv = &ls->lv;
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

static void start_prompt(LessonScreen *ls, PromptKind kind, const char *label)
{
    ls->prompt.kind = kind;
    ls->prompt.input[0] = '\0';
    ls->prompt.len = 0;
    snprintf(ls->prompt.label, sizeof ls->prompt.label, "%s", label);
}

static void start_edit(TuiTerm *term, LessonScreen *ls)
{
    LessonView *lv = &ls->lv;
    Pane *p = focused(lv);
    const Mat *m = p ? lv_pane_mat(lv, lv->focus) : NULL;
    char why[200];
    if (!m) {
        tui_message(term, 1, "no matrix here to edit");
        return;
    }
    if (!session_editable(session_state(lv->ses), p->name, p->cur_r, p->cur_c, why, sizeof why)) {
        tui_message(term, 1, "%s", why);
        return;
    }
    if (p->overview) {
        tui_message(term, 1, "leave the overview (o) to edit a single cell");
        return;
    }
    char name[64], label[160], now[32];
    explain_cell_name(m, p->cur_r, p->cur_c, name, sizeof name);
    snprintf(now, sizeof now, "%g", (double)mat_get(m, p->cur_r, p->cur_c));
    snprintf(label, sizeof label, "new value for %s (now %s): ", name, now);
    start_prompt(ls, PROMPT_EDIT, label);
}

static void submit_edit(TuiTerm *term, LessonScreen *ls)
{
    LessonView *lv = &ls->lv;
    Pane *p = focused(lv);
    if (!p || !lv_pane_mat(lv, lv->focus))
        return;
    tell(term, ls, session_edit_text(lv->ses, p->name, p->cur_r, p->cur_c, ls->prompt.input), " (u undoes, r resets)");
}

static void submit_answer(TuiTerm *term, LessonScreen *ls)
{
    LessonView *lv = &ls->lv;
    if (!session_exercise(lv->ses, lv->ex_index))
        return;
    /* the verdict is the session's (it saves it); the screen shows it from
     * there. Only text that is not an answer is said here. */
    unsigned c = session_answer_shown(lv->ses, lv->ex_index, ls->prompt.input, lv->decimals_shown);
    if (c & SESSION_REFUSED)
        snprintf(lv->feedback, sizeof lv->feedback, "%s %s: %s", term->utf8 ? "✗" : "X", ls->prompt.input,
                 session_message(lv->ses));
    else
        lv->feedback[0] = '\0';
}

void lv_submit(TuiTerm *term, LessonScreen *ls)
{
    PromptKind k = ls->prompt.kind;
    ls->prompt.kind = PROMPT_NONE;
    if (ls->prompt.len == 0)
        return;
    if (k == PROMPT_EDIT)
        submit_edit(term, ls);
    else if (k == PROMPT_ANSWER)
        submit_answer(term, ls);
}

void lv_click(LessonScreen *ls, int x, int y)
{
    LessonView *lv = &ls->lv;
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

/* The summary at the end of the lesson. */
static void end_summary(TuiTerm *term, LessonScreen *ls)
{
    int first, later, revealed, open;
    session_summary(ls->lv.ses, &first, &later, &revealed, &open);
    if (first + later + revealed + open == 0) {
        tui_message(term, 0, "the end of the lesson: p goes back, Esc to the menu");
        return;
    }
    tui_message(term, 0, "the end of the lesson: %d right first time, %d after hints or tries, %d revealed, %d open; "
                "p goes back, Esc to the menu", first, later, revealed, open);
    /* a laptop's row holds the counts whole in fewer words */
    if ((int)strlen(term->message) > term->cols - 2)
        tui_message(term, 0, "the end of the lesson: %d right first time, %d later, %d revealed, %d open",
                    first, later, revealed, open);
}

void lv_confirm_reveal(TuiTerm *term, LessonScreen *ls, int ch)
{
    LessonView *lv = &ls->lv;
    lv->confirm_reveal = 0;
    if (ch != 'v' && ch != 'y' && ch != 'Y') {
        tui_message(term, 0, "%s", session_bug(lv->ses) ? "keep looking" : "keep trying: a answers");
        return;
    }
    if (session_bug(lv->ses)) {
        session_bug_show_fix(lv->ses);
        lv->hunt.fix_at = 0;
        ls->asks = ACT_BUG_FIX;
        return;
    }
    session_reveal(lv->ses, lv->ex_index);
    lv->feedback[0] = '\0';
}

void lv_action(TuiTerm *term, LessonScreen *ls, TuiAction a)
{
    LessonView *lv = &ls->lv;
    Pane *p = focused(lv);
    const LessonStep *st = session_step(lv->ses);
    if (tui_bug_action(term, ls, a))
        return;     /* a bug hunt's keys */
    switch (a) {
    case ACT_NEXT:
        if (ls->present && lv_pane_next_hidden(ls) >= 0) {
            /* the class predicted: show the next matrix it could predict */
            lv->focus = lv_pane_next_hidden(ls);
            lv->revealed = lv->focus + 1;
            break;
        }
        if (session_screen(lv->ses) + 1 < session_n_screens(lv->ses))
            lv_go(ls, session_screen(lv->ses) + 1);
        else
            end_summary(term, ls);
        break;
    case ACT_PREV:
        if (session_screen(lv->ses) > 0) {
            lv_go(ls, session_screen(lv->ses) - 1);
            lv->revealed = lv->n_panes;     /* seen already */
        }
        break;
    case ACT_FIRST:
        lv_go(ls, 0);
        break;
    case ACT_LAST:
        lv_go(ls, session_n_screens(lv->ses) - 1);
        break;
    case ACT_UP:
        move_cursor(ls, -1, 0);
        break;
    case ACT_DOWN:
        move_cursor(ls, 1, 0);
        break;
    case ACT_LEFT:
        move_cursor(ls, 0, -1);
        break;
    case ACT_RIGHT:
        move_cursor(ls, 0, 1);
        break;
    case ACT_HEAT_NUMBERS:
        ls->heat_numbers_off = !ls->heat_numbers_off;
        tui_message(term, 0, "%s", ls->heat_numbers_off ? "heatmaps: colour only (N: numbers too)"
                                                    : "heatmaps: colour and numbers (N: colour only)");
        break;
    case ACT_BLANK:
        ls->asks = ACT_BLANK;
        break;
    case ACT_WRITE_SVG:
        lv_write_svg(term, ls);
        break;
    case ACT_BIG:
        ls->big_numbers = !ls->big_numbers;
        tui_message(term, 0, "%s", ls->big_numbers ? "big numbers where the cells have grown (B: plain)"
                                               : "plain numbers (B: big where the cells have grown)");
        break;
    case ACT_ZOOM:
        lv->zoom = lv->n_panes > 0 && !lv->zoom;
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
            tui_message(term, 0, "the block at %s[%d,%d], cell by cell", p->name, p->cur_r + 1, p->cur_c + 1);
        } else {
            lv->explain_on = !lv->explain_on;
        }
        break;
    case ACT_MORE:      /* from what is shown, which may have been fitted */
        lv->decimals = imin(lv->decimals_shown + 1, NUM_DECIMALS_MAX);
        lv->decimals_chosen = 1;
        break;
    case ACT_LESS:
        lv->decimals = imax(lv->decimals_shown - 1, 0);
        lv->decimals_chosen = 1;
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
        start_edit(term, ls);
        break;
    case ACT_UNDO:
        tell(term, ls, session_undo(lv->ses), "");
        break;
    case ACT_RESET:
        tell(term, ls, session_reset(lv->ses), " (u brings them back)");
        break;
    case ACT_HINT:
        if (!(session_hint(lv->ses, lv->ex_index) & SESSION_REFUSED))
            ;
        else if (session_reveal_offer(lv->ses, lv->ex_index) == REVEAL_SOLVED)
            tui_message(term, 0, "%s: this exercise is solved", session_message(lv->ses));
        else if (session_reveal_offer(lv->ses, lv->ex_index) != REVEAL_OFFERED)
            tui_message(term, 0, "%s", session_message(lv->ses));
        else {
            /* no hint left: the worked answer, if the student wants it */
            lv->confirm_reveal = 1;
            tui_message(term, 0, "%s: v shows the worked answer (counted as revealed); any other key keeps trying",
                        session_message(lv->ses));
        }
        break;
    case ACT_REVEAL:
        switch (session_reveal_offer(lv->ses, lv->ex_index)) {
        case REVEAL_NO_EXERCISE:
            tui_message(term, 0, "no exercise on this step");
            break;
        case REVEAL_SHOWN:
            tui_message(term, 0, "the worked answer is shown");
            break;
        case REVEAL_SOLVED:
            tui_message(term, 0, "this exercise is solved: i shows its hints");
            break;
        case REVEAL_OFFERED:
            lv->confirm_reveal = 1;
            tui_message(term, 0, "v again shows the worked answer (counted as revealed); any other key keeps trying");
            break;
        }
        break;
    case ACT_ANSWER:
        if (!st || st->n_exercises == 0)
            tui_message(term, 0, "no exercise on this step");
        else
            start_prompt(ls, PROMPT_ANSWER, "your answer (a number; arithmetic like 0.5*2 + 1 is fine): ");
        break;
    case ACT_EXERCISE:
        if (st && st->n_exercises > 1) {
            lv->ex_index = (lv->ex_index + 1) % st->n_exercises;
            lv->feedback[0] = '\0';
        }
        break;
    case ACT_TEXT:
        ls->asks = ACT_TEXT;
        break;
    case ACT_KNOB_NEXT: case ACT_KNOB_DOWN: case ACT_KNOB_UP: case ACT_KNOB_DOWN_BIG: case ACT_KNOB_UP_BIG:
    case ACT_KNOB_TOGGLE:
        lv_knob_action(term, ls, a);
        break;
    default:
        break;
    }
}
