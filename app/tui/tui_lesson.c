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

#include "tui_screen.h"
#include "tui_bug.h"
#include "tui_chrome.h"
#include "tui_knobs.h"
#include "tui_pane.h"
#include "tui_live.h"
#include "text.h"
#include "tui_state.h"


#include "minmax.h"

void lv_close(LessonView *lv)
{
    tui_views_free(lv);
    session_free(lv->ses);
    free(lv->panes);
    memset(lv, 0, sizeof *lv);
}

void lv_adopt(Tui *t, Session *ses)
{
    lv_close(&t->lv);
    t->lv.ses = ses;
    /* the student's progress: back where they left, saved as they go; a
     * room's presenter starts at the beginning and saves nothing */
    if (!t->present)
        session_keep_default_progress(ses);
    session_defer_step_saves(ses, 1);   /* the frame first (tui_main) */
    if (session_progress_warning(ses)[0])
        tui_message(t, 1, "%s", session_progress_warning(ses));
    /* a class reads two decimals from the back of the room (+ for more) */
    t->lv.decimals = t->lv.decimals_shown = t->present ? PRESENT_DECIMALS : NUM_DECIMALS_DEFAULT;
    t->lv.decimals_chosen = 0;
    lv_build_panes(t, NULL, 0);
}

int lv_open(Tui *t, const char *path, char *msg, size_t size)
{
    LessonError err;
    Session *ses = session_open(path, &err);
    if (!ses) {
        lesson_error_format(&err, msg, size);
        return -1;
    }
    lv_adopt(t, ses);
    return 0;
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

/* The largest pane whose numbers are compared pair by pair. */
#define TELL_APART_CELLS 256

/* Do two numbers of m that differ read the same at d decimals, or does one
 * too small for them need an exponent (-5.0e-3 beside -0.01 in a column)? */
static int numbers_clash(const Mat *m, int d)
{
    int n = m->rows * m->cols;
    for (int a = 0; a < n; a++) {
        float x = mat_get(m, a / m->cols, a % m->cols);
        char fx[64];
        if (!isfinite(x))
            continue;
        if (x != 0 && fabs((double)x) < 0.5 * pow(10.0, -d))    /* as num_format decides */
            return 1;
        snprintf(fx, sizeof fx, "%.*f", d, x);
        for (int b = a + 1; b < n; b++) {
            float y = mat_get(m, b / m->cols, b % m->cols);
            char fy[64];
            /* float noise is one number, not two */
            if (!isfinite(y) || fabsf(x - y) <= 1e-6f * fmaxf(1.0f, fabsf(x)))
                continue;
            snprintf(fy, sizeof fy, "%.*f", d, y);
            if (strcmp(fx, fy) == 0)
                return 1;
        }
    }
    return 0;
}

/* Presenter mode: the fewest decimals, from PRESENT_DECIMALS up to
 * NUM_DECIMALS_DEFAULT, at which no two different numbers of a pane read
 * the same (at 2, 0.3577 and 0.3622 would both be 0.36). */
static int decimals_to_tell_apart(const LessonView *lv)
{
    for (int d = PRESENT_DECIMALS; d < NUM_DECIMALS_DEFAULT; d++) {
        int clash = 0;
        for (int i = 0; i < lv->n_panes && !clash; i++) {
            const Mat *m = lv_pane_mat(lv, i);
            clash = m && m->rows * m->cols <= TELL_APART_CELLS && numbers_clash(m, d);
        }
        if (!clash)
            return d;
    }
    return NUM_DECIMALS_DEFAULT;
}

/* Is pane i a given matrix (a literal, a knob, a file's, randn's), with
 * nothing to predict? */
static int pane_given(const LessonView *lv, int i)
{
    const Mat *m = i >= 0 && i < lv->n_panes ? lv_pane_mat(lv, i) : NULL;
    return m && (m->prov.op == OP_INPUT || m->prov.op == OP_RANDN);
}

int lv_pane_shown(const Tui *t, int i)
{
    /* a room predicts what is computed; what is given is shown */
    return !t->present || i < t->lv.revealed || pane_given(&t->lv, i);
}

int lv_pane_next_hidden(const Tui *t)
{
    const LessonView *lv = &t->lv;
    for (int i = lv->revealed; i < lv->n_panes; i++)
        if (!lv_pane_shown(t, i))
            return i;
    return -1;
}

/* The step's panes and what they ask of the numbers. */
static void build_panes(Tui *t, const Pane *prev, int n_prev);

void lv_build_panes(Tui *t, const Pane *prev, int n_prev)
{
    build_panes(t, prev, n_prev);
    LessonView *lv = &t->lv;
    if (t->present && !lv->decimals_chosen)
        lv->decimals = lv->decimals_shown = decimals_to_tell_apart(lv);
}

static void build_panes(Tui *t, const Pane *prev, int n_prev)
{
    LessonView *lv = &t->lv;
    char focus_name[MAT_NAME_MAX] = "";
    if (prev && lv->n_panes > 0)
        snprintf(focus_name, sizeof focus_name, "%s", prev[lv->focus].name);
    int old_focus = lv->focus;
    tui_views_free(lv);
    free(lv->panes);
    lv->panes = NULL;
    lv->n_panes = lv->focus = 0;
    const Lesson *l = session_lesson(lv->ses);
    const LessonStep *st = session_step(lv->ses);
    int want = st ? (st->n_show > 0 ? st->n_show : st->n_defines) : lesson_n_setup(l);
    lv->panes = calloc((size_t)imax(want, 1), sizeof *lv->panes);
    lv->views = calloc((size_t)imax(want, 1), sizeof *lv->views);
    if (!lv->panes || !lv->views)
        tui_fatal("out of memory");
    for (int i = 0; i < want; i++) {
        const char *name;
        if (!st)
            name = lesson_setup_name(l, i);
        else
            name = st->n_show > 0 ? st->show[i] : st->defines[i];
        int heat = 0;
        for (int k = 0; st && k < st->n_heatmap; k++)
            heat |= strcmp(st->heatmap[k], name) == 0;
        add_pane(lv, name, heat);
    }
    if (!prev)
        return;
    /* the panes that are still there keep their cursor, scroll and view */
    lv->focus = imin(old_focus, imax(lv->n_panes - 1, 0));
    for (int i = 0; i < lv->n_panes; i++) {
        Pane *p = &lv->panes[i];
        if (strcmp(p->name, focus_name) == 0)
            lv->focus = i;
        const Mat *m = lv_pane_mat(lv, i);
        for (int k = 0; k < n_prev && m; k++) {
            if (strcmp(prev[k].name, p->name) != 0)
                continue;
            /* a heat toggle by hand stays; otherwise the file decides */
            if (prev[k].heat != prev[k].heat_file)
                p->heat = prev[k].heat;
            p->overview = prev[k].overview;
            p->cur_r = imin(prev[k].cur_r, m->rows - 1);
            p->cur_c = imin(prev[k].cur_c, m->cols - 1);
            p->first_r = prev[k].first_r;
            p->first_c = prev[k].first_c;
        }
    }
}

void lv_go(Tui *t, int screen)
{
    LessonView *lv = &t->lv;
    if (!lv->ses || !(session_go(lv->ses, screen) & SESSION_SCREEN))
        return;
    lv->explain_on = 0;
    lv->ex_index = 0;
    lv->feedback[0] = '\0';
    lv->revealed = 0;
    lv->zoom = 0;
    lv_build_panes(t, NULL, 0);
}

/* Show what the session said of an action: an error when it refused. */
static void tell(Tui *t, unsigned change, const char *then)
{
    const char *m = session_message(t->lv.ses);
    if (m[0])
        tui_message(t, (change & SESSION_REFUSED) != 0, "%s%s", m,
                    (change & SESSION_REFUSED) ? "" : then);
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
    char why[200];
    if (!m) {
        tui_message(t, 1, "no matrix here to edit");
        return;
    }
    if (!session_editable(session_state(lv->ses), p->name, p->cur_r, p->cur_c, why, sizeof why)) {
        tui_message(t, 1, "%s", why);
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
    tell(t, session_edit_text(lv->ses, p->name, p->cur_r, p->cur_c, t->input), " (u undoes, r resets)");
}

static void submit_answer(Tui *t)
{
    LessonView *lv = &t->lv;
    if (!session_exercise(lv->ses, lv->ex_index))
        return;
    /* the verdict is the session's (it saves it); the screen shows it from
     * there. Only text that is not an answer is said here. */
    unsigned c = session_answer_shown(lv->ses, lv->ex_index, t->input, lv->decimals_shown);
    if (c & SESSION_REFUSED)
        snprintf(lv->feedback, sizeof lv->feedback, "%s %s: %s", t->utf8 ? "✗" : "X", t->input,
                 session_message(lv->ses));
    else
        lv->feedback[0] = '\0';
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

/* The summary at the end of the lesson. */
static void end_summary(Tui *t)
{
    int first, later, revealed, open;
    session_summary(t->lv.ses, &first, &later, &revealed, &open);
    if (first + later + revealed + open == 0) {
        tui_message(t, 0, "the end of the lesson: p goes back, Esc to the menu");
        return;
    }
    tui_message(t, 0, "the end of the lesson: %d right first time, %d after hints or tries, %d revealed, %d open; "
                "p goes back, Esc to the menu", first, later, revealed, open);
}

void lv_confirm_reveal(Tui *t, int ch)
{
    LessonView *lv = &t->lv;
    lv->confirm_reveal = 0;
    if (ch != 'v' && ch != 'y' && ch != 'Y') {
        tui_message(t, 0, "%s", session_bug(lv->ses) ? "keep looking" : "keep trying: a answers");
        return;
    }
    if (session_bug(lv->ses)) {
        session_bug_show_fix(lv->ses);
        lv->hunt.fix_at = 0;
        tui_push(t, &tui_screen_bug_fix);
        return;
    }
    session_reveal(lv->ses, lv->ex_index);
    lv->feedback[0] = '\0';
}

void lv_action(Tui *t, TuiAction a)
{
    LessonView *lv = &t->lv;
    Pane *p = focused(lv);
    const LessonStep *st = session_step(lv->ses);
    if (tui_bug_action(t, a))
        return;     /* a bug hunt's keys */
    switch (a) {
    case ACT_NEXT:
        if (t->present && lv_pane_next_hidden(t) >= 0) {
            /* the class predicted: show the next matrix it could predict */
            lv->focus = lv_pane_next_hidden(t);
            lv->revealed = lv->focus + 1;
            break;
        }
        if (session_screen(lv->ses) + 1 < session_n_screens(lv->ses))
            lv_go(t, session_screen(lv->ses) + 1);
        else
            end_summary(t);
        break;
    case ACT_PREV:
        if (session_screen(lv->ses) > 0) {
            lv_go(t, session_screen(lv->ses) - 1);
            lv->revealed = lv->n_panes;     /* seen already */
        }
        break;
    case ACT_FIRST:
        lv_go(t, 0);
        break;
    case ACT_LAST:
        lv_go(t, session_n_screens(lv->ses) - 1);
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
    case ACT_HEAT_NUMBERS:
        t->heat_numbers_off = !t->heat_numbers_off;
        tui_message(t, 0, "%s", t->heat_numbers_off ? "heatmaps: colour only (N: numbers too)"
                                                    : "heatmaps: colour and numbers (N: colour only)");
        break;
    case ACT_BLANK:
        tui_push(t, &tui_screen_blank);
        break;
    case ACT_BIG:
        t->big_numbers = !t->big_numbers;
        tui_message(t, 0, "%s", t->big_numbers ? "big numbers where the cells have grown (B: plain)"
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
            tui_message(t, 0, "the block at %s[%d,%d], cell by cell", p->name, p->cur_r + 1, p->cur_c + 1);
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
        start_edit(t);
        break;
    case ACT_UNDO:
        tell(t, session_undo(lv->ses), "");
        break;
    case ACT_RESET:
        tell(t, session_reset(lv->ses), " (u brings them back)");
        break;
    case ACT_HINT:
        if (!(session_hint(lv->ses, lv->ex_index) & SESSION_REFUSED))
            ;
        else if (session_reveal_offer(lv->ses, lv->ex_index) == REVEAL_SOLVED)
            tui_message(t, 0, "%s: this exercise is solved", session_message(lv->ses));
        else if (session_reveal_offer(lv->ses, lv->ex_index) != REVEAL_OFFERED)
            tui_message(t, 0, "%s", session_message(lv->ses));
        else {
            /* no hint left: the worked answer, if the student wants it */
            lv->confirm_reveal = 1;
            tui_message(t, 0, "%s: v shows the worked answer (counted as revealed); any other key keeps trying",
                        session_message(lv->ses));
        }
        break;
    case ACT_REVEAL:
        switch (session_reveal_offer(lv->ses, lv->ex_index)) {
        case REVEAL_NO_EXERCISE:
            tui_message(t, 0, "no exercise on this step");
            break;
        case REVEAL_SHOWN:
            tui_message(t, 0, "the worked answer is shown");
            break;
        case REVEAL_SOLVED:
            tui_message(t, 0, "this exercise is solved: i shows its hints");
            break;
        case REVEAL_OFFERED:
            lv->confirm_reveal = 1;
            tui_message(t, 0, "v again shows the worked answer (counted as revealed); any other key keeps trying");
            break;
        }
        break;
    case ACT_ANSWER:
        if (!st || st->n_exercises == 0)
            tui_message(t, 0, "no exercise on this step");
        else
            start_prompt(t, PROMPT_ANSWER, "your answer (a number; arithmetic like 0.5*2 + 1 is fine): ");
        break;
    case ACT_EXERCISE:
        if (st && st->n_exercises > 1) {
            lv->ex_index = (lv->ex_index + 1) % st->n_exercises;
            lv->feedback[0] = '\0';
        }
        break;
    case ACT_TEXT:
        tui_push(t, &tui_screen_text);
        break;
    case ACT_KNOB_NEXT: case ACT_KNOB_DOWN: case ACT_KNOB_UP: case ACT_KNOB_DOWN_BIG: case ACT_KNOB_UP_BIG:
    case ACT_KNOB_TOGGLE:
        lv_knob_action(t, a);
        break;
    default:
        break;
    }
}

/* ---- the lesson screen's keys ------------------------------------------- */

#define KEY_ESC 27
#define CTRL(c) ((c) & 0x1f)

/* Typing into the prompt: printable characters, Backspace, Enter, Esc. */
static void prompt_key(Tui *t, int ch)
{
    if (ch == KEY_ESC || ch == CTRL('g')) {
        t->prompt = PROMPT_NONE;
    } else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
        lv_submit(t);
    } else if (ch == KEY_BACKSPACE || ch == 127 || ch == CTRL('h')) {
        if (t->input_len > 0)
            t->input[--t->input_len] = '\0';
    } else if (ch == CTRL('u')) {
        t->input_len = 0;
        t->input[0] = '\0';
    } else if (ch >= ' ' && ch < 127 && t->input_len < INPUT_MAX - 1) {
        t->input[t->input_len++] = (char)ch;
        t->input[t->input_len] = '\0';
    }
}

static TuiAction lv_key(Tui *t, int ch)
{
    t->message[0] = '\0';
    if (t->prompt != PROMPT_NONE) {
        prompt_key(t, ch);
        return ACT_NONE;
    }
    if (t->lv.confirm_reveal) {
        lv_confirm_reveal(t, ch);
        return ACT_NONE;
    }
    TuiAction a = tui_key_action(ch, KEYS_LESSON);
    if (tui_action_shared(a))
        return a;
    if (!t->layout_ok)
        return ACT_NONE;    /* (nothing to act on while the screen is too small) */
    if (ch == KEY_MOUSE) {
        MEVENT ev;
        if (getmouse(&ev) == OK && (ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
            lv_click(t, ev.x, ev.y);
        return ACT_NONE;
    }
    lv_action(t, a);
    return ACT_NONE;
}

const TuiScreen tui_screen_lesson = { "lesson", lv_key, lv_prepare, lv_draw, NULL };
