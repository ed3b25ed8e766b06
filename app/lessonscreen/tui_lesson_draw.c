/*
 * tui_lesson_draw.c - the lesson screen's frame, drawn from the state: its
 * layout (how much prose, which decimals fit, pages, zoom, scale on a big
 * screen), the title (a big one in presenter mode), the step's prose, the
 * panes (tui_pane.c), the exercise, the explanation of the cursor's cell,
 * and the key bar and "too small" notice the other screens use too. The
 * lesson's screen object (tui_screen.h) joins this to its keys
 * (tui_lesson.c).
 */
#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "tui_put.h"
#include "tui_bug.h"
#include "tui_exercise.h"
#include "tui_keybar.h"
#include "tui_knobs.h"
#include "tui_pane.h"
#include "tui_live.h"
#include "text.h"
#include "tui_lesson_internal.h"

#include "minmax.h"

void lv_frame_free(LessonScreen *ls)
{
    explain_free(&ls->frame.ex);
    mat_free(ls->frame.as_written);
    free(ls->frame.text);
    free(ls->frame.exercise);
    memset(&ls->frame, 0, sizeof ls->frame);
}

/* ---- per-frame layout -------------------------------------------------- */

static int step_text(const LessonScreen *ls, char *buf, size_t size, int width)
{
    const LessonView *lv = &ls->lv;
    const LessonStep *st = session_step(lv->ses);
    char intro[600];
    const char *text;
    if (st) {
        /* in a hunt the prose quotes the bug's numbers, never the right ones */
        char *shown = session_text_shown(lv->ses, st->text);
        int n = text_wrap(buf, size, shown ? shown : "", width);
        free(shown);
        return n;
    } else if (session_n_screens(lv->ses) == 0) {
        snprintf(intro, sizeof intro, "%s\n\nThis lesson has no steps yet.", lesson_about(session_lesson(lv->ses)));
        text = intro;
    } else {
        snprintf(intro, sizeof intro, "%s\n\nThe lesson's inputs, before any step. %s",
                 lesson_about(session_lesson(lv->ses)), "Press n (or Space) to begin; ? lists every key.");
        text = intro;
    }
    return text_wrap(buf, size, text, width);
}

/* How many decimals the panes may lose to fit one page (4 -> 2). */
#define FIT_DECIMALS 2

/* Lay out a frame with the panes' numbers at the given decimals: the
 * screen's regions, the panes' scale and places. panes_want is the rows
 * the panes would like (0: all of them, one shelf under another). Returns
 * the number of pages the panes take (0 when none or the screen is too
 * small). */
static int plan_frame(TuiTerm *term, LessonScreen *ls, int decimals, int text_n, int ex_n, int panes_want, PaneNeed *need, PanePlace *place)
{
    LessonView *lv = &ls->lv;
    int panes_min = 0;
    for (int i = 0; i < lv->n_panes; i++) {
        pane_need(term, ls, i, decimals, &need[i]);
        panes_min = imax(panes_min, need[i].min_h);
    }
    if (panes_want <= 0)
        panes_want = lv->n_panes ? imax(1, layout_panes_height(need, lv->n_panes, term->cols)) : 0;
    /* under the title (taller in presenter mode), the reload error and
     * the knob bar; the regions below move down */
    int top = ls->title_h - 1 + ls->banner_h + ls->knob_h + ls->bar_h;
    term->layout_ok = layout_screen(term->cols, term->rows - top, text_n, ex_n, panes_want, panes_min, &ls->layout);
    if (term->layout_ok && top > 0) {
        Rect *moved[] = { &ls->layout.text, &ls->layout.panes, &ls->layout.exercise, &ls->layout.status,
                          &ls->layout.keybar };
        for (size_t k = 0; k < sizeof moved / sizeof *moved; k++)
            moved[k]->y += top;
        ls->layout.title.h = ls->title_h;
    }
    if (!term->layout_ok || lv->n_panes == 0)
        return 0;
    if (lv->zoom) {
        /* the focused pane alone, in all the room, its cells as large as fit */
        int f = lv->focus;
        GridScale scale = layout_zoom_scale(&need[f], ls->layout.panes);
        lv->views[f].grid = grid_scaled(&lv->views[f].grid, scale);
        lv->views[f].scaled = scale.rows > 1 || scale.cols > 1;
        need[f] = pane_need_scaled(&need[f], scale);
        for (int i = 0; i < lv->n_panes; i++)
            place[i] = (PanePlace){ ls->layout.panes, i == f, 0 };
        return 1;
    }
    /* room to spare (a projector): scale the cells up, all alike, then
     * each level of panes into the room that leaves */
    GridScale scale = layout_pick_scale(need, lv->n_panes, ls->layout.panes, term->cols, term->rows);
    if ((scale.rows > 1 || scale.cols > 1) && lv->n_panes <= LAYOUT_SCALE_MAX_PANES) {
        GridScale each[LAYOUT_SCALE_MAX_PANES];
        for (int i = 0; i < lv->n_panes; i++)
            each[i] = scale;
        layout_fill(need, lv->n_panes, ls->layout.panes, each);
        for (int i = 0; i < lv->n_panes; i++)
            if (need[i].grow_rows > 0) {
                lv->views[i].grid = grid_scaled(&lv->views[i].grid, each[i]);
                lv->views[i].scaled = 1;
                need[i] = pane_need_scaled(&need[i], each[i]);
            }
    }
    return layout_panes(need, lv->n_panes, ls->layout.panes, lv->focus, place);
}

int lv_whole_text(const TuiTerm *term, const LessonScreen *ls, char *buf, size_t size, int width)
{
    int n = step_text(ls, buf, size, width);
    char ex[8192];
    int n_ex = ls->lv.ses ? lv_exercise_lines(term, ls, ex, sizeof ex, width, NULL) : 0;
    size_t len = strlen(buf);
    if (n_ex > 0 && len + 3 < size) {
        /* a blank line between them */
        snprintf(buf + len, size - len, "%s\n%s", len > 0 && buf[len - 1] == '\n' ? "" : "\n", ex);
        n += n_ex + 1;
    }
    return n;
}

void lv_prepare(TuiTerm *term, LessonScreen *ls)
{
    lv_frame_free(ls);      /* the last frame's text and explanation */
    ls->frame.ex_err[0] = '\0';
    ls->banner_h = 0;
    LessonView *lv = &ls->lv;
    /* the prose and the exercise, wrapped once: the plan counts their
     * lines, the draw puts them on the screen */
    size_t size = 65536;
    ls->frame.text = malloc(size);
    ls->frame.exercise = malloc(size);
    if (!ls->frame.text || !ls->frame.exercise)
        tui_fatal("out of memory");
    ls->frame.text_n = step_text(ls, ls->frame.text, size, text_measure(term->cols));
    ls->frame.exercise_n = lv_exercise_lines(term, ls, ls->frame.exercise, size, text_measure(term->cols), ls->frame.roles);
    /* zoomed, the pane has the screen: no prose, no exercise */
    int text_n = lv->zoom ? 0 : ls->frame.text_n;
    int ex_n = lv->zoom ? 0 : ls->frame.exercise_n;
    /* the row a verdict will take is kept from the start, so that the
     * first answer moves nothing on the screen */
    const LessonStep *ex_step = session_step(lv->ses);
    int last_role = ex_n > 0 && ex_n <= EX_ROLES_MAX ? ls->frame.roles[ex_n - 1] : EXL_TITLE;
    if (ex_n > 0 && ex_step && ex_step->n_exercises > 0 && !session_bug(lv->ses) && last_role != EXL_RIGHT
        && last_role != EXL_WRONG)
        ex_n++;
    PaneNeed *need = calloc((size_t)imax(lv->n_panes, 1), sizeof *need);
    PanePlace *place = calloc((size_t)imax(lv->n_panes, 1), sizeof *place);
    if (!need || !place)
        tui_fatal("out of memory");
    /* a failed reload's error goes under the title, the rest moves down;
     * with no rows to spare it goes to the key bar instead */
    ls->banner_h = imin(lv_banner_want(term, ls), term->rows - TUI_MIN_ROWS);
    if (ls->banner_h < 2)
        ls->banner_h = 0;
    /* the knob bar goes under them when the rows are there */
    ls->knob_h = knobs_bar_want(ls) && term->rows - ls->banner_h - 1 >= TUI_MIN_ROWS ? 1 : 0;
    /* on a projector, the knobs in the block font: read from the back */
    int big_knob_h = big_rows(term->utf8 ? BIG_HALF : BIG_FULL);
    if (ls->knob_h && lv_on_projector(term, ls))
        ls->knob_h = big_knob_h;
    /* a student in a class: where the class is, under them */
    ls->bar_h = ls->plug && ls->plug->bar_rows(ls->plug->self) && term->rows - ls->banner_h - ls->knob_h - 1 >= TUI_MIN_ROWS ? 1 : 0;
    /* presenter mode: the step's number in the block font, when the rows
     * are there */
    int big_h = big_rows(term->utf8 ? BIG_HALF : BIG_FULL);
    ls->title_h = ls->present && term->rows - ls->banner_h - ls->knob_h - (big_h - 1) >= 30 ? big_h : 1;
    /* the panes with the decimals asked for; when they would need more
     * than one page, with up to FIT_DECIMALS fewer if that puts them all
     * on one (unless the person chose the decimals with + or -) */
    int dec = lv->decimals;
    int pages = plan_frame(term, ls, dec, text_n, ex_n, 0, need, place);
    if (pages > 1 && !lv->decimals_chosen) {
        /* a room's numbers keep the digits that tell them apart */
        int least = ls->present ? dec : imax(dec - FIT_DECIMALS, 1), d = dec - 1;
        while (d >= least && plan_frame(term, ls, d, text_n, ex_n, 0, need, place) != 1)
            d--;
        if (d >= least)
            dec = d, pages = 1;
        else    /* fewer decimals do not help: the pages, at those asked for */
            plan_frame(term, ls, dec, text_n, ex_n, 0, need, place);
    }
    if (pages > 1) {
        /* the panes want the tallest page (and its note), not all of
         * them stacked: the prose gets the rest */
        int tallest = 0;
        for (int f = 0; f < lv->n_panes; f++) {
            layout_panes(need, lv->n_panes, ls->layout.panes, f, place);
            for (int i = 0; i < lv->n_panes; i++)
                if (place[i].visible)
                    tallest = imax(tallest, place[i].r.y + place[i].r.h - ls->layout.panes.y + 1);
        }
        plan_frame(term, ls, dec, text_n, ex_n, tallest, need, place);
    }
    lv->decimals_shown = term->layout_ok ? dec : lv->decimals;
    if (!term->layout_ok || lv->n_panes == 0) {
        free(need);
        free(place);
        return;
    }
    for (int i = 0; i < lv->n_panes; i++) {
        lv->views[i].place = place[i];
        if (place[i].visible)
            pane_fit(term, ls, i);
    }
    free(need);
    free(place);
    /* the exercise and the explanation follow the panes closely; the
     * space left over goes to the bottom, above the key bar */
    int bottom = ls->layout.panes.y;
    for (int i = 0; i < lv->n_panes; i++)
        if (lv->views[i].place.visible)
            bottom = imax(bottom, lv->views[i].place.r.y + lv->views[i].place.r.h);
    int spare = ls->layout.panes.y + ls->layout.panes.h - bottom - 1;
    if (spare > 0) {
        ls->layout.panes.h -= spare;
        ls->layout.exercise.y -= spare;
        ls->layout.status.y -= spare;
        ls->layout.status.h += spare;    /* room for a long explanation to wrap */
    }
    /* the explanation of the focused cell */
    Pane *p = &lv->panes[lv->focus];
    const Mat *m = lv->views[lv->focus].m;
    int hider = m && !p->overview ? session_cell_hidden(lv->ses, lv->ex_index, p->name, p->cur_r, p->cur_c) : 0;
    if (m && !lv_pane_shown(ls, lv->focus)) {
        snprintf(ls->frame.ex_err, sizeof ls->frame.ex_err, "%s", "not shown yet: what will it be? (Space shows it)");
    } else if (hider) {
        /* which exercise keeps it: the one answered may not be the one
         * that hides the cell (a later one asks for it too) */
        int step = lesson_exercise_step(session_lesson(lv->ses), hider - 1) + 1;  /* as the title counts */
        if (step == session_step_number(lv->ses))
            snprintf(ls->frame.ex_err, sizeof ls->frame.ex_err,
                     "kept hidden until exercise %d is answered: work it out (a answers, i for a hint)", hider);
        else
            snprintf(ls->frame.ex_err, sizeof ls->frame.ex_err,
                     "kept hidden: exercise %d asks for it on step %d", hider, step);
    } else if (m && !p->overview) {
        AttnError err;
        attn_error_clear(&err);
        /* in a bug hunt, the arithmetic the lesson writes, from the numbers
         * shown, its result left to the student (session_bug_explain) */
        if (session_bug(lv->ses)) {
            ls->frame.as_written = session_bug_explain(lv->ses, p->name, p->cur_r, p->cur_c, lv->decimals,
                                                      &ls->frame.ex, &err);
            if (ls->frame.as_written)
                ls->frame.ex_ok = 1;
            else
                snprintf(ls->frame.ex_err, sizeof ls->frame.ex_err, "%s", err.msg);
        } else if (explain_cell_digits(&ls->frame.ex, m, p->cur_r, p->cur_c, lv->decimals, &err) == ATTN_OK
                   && ls->frame.ex.text) {
            ls->frame.ex_ok = 1;
        } else {
            snprintf(ls->frame.ex_err, sizeof ls->frame.ex_err, "%s", err.msg);
        }
    }
}

/* ---- the lesson screen ------------------------------------------------- */

/* Presenter mode's title: the step's number in the block font, its title
 * beside it, the lesson's above that. */
static void draw_big_title(const TuiTerm *term, const LessonScreen *ls)
{
    const LessonView *lv = &ls->lv;
    Rect r = ls->layout.title;
    BigSize size = r.h >= 5 ? BIG_FULL : BIG_HALF;
    for (int y = r.y; y < r.y + r.h; y++)
        ui_fill(&term->cv, y, 0, r.w, term->attr[C_TITLE]);
    const LessonStep *st = session_step(lv->ses);
    char num[32] = "";
    if (st)
        snprintf(num, sizeof num, "%d/%d", session_step_number(lv->ses), lesson_n_steps(session_lesson(lv->ses)));
    int x = 2;
    if (num[0]) {
        ui_put_big(&term->cv, r.y, x, r.w - x, term->attr[C_STEP], num, size);
        x += big_width(num, size) + 3;
    }
    const char *step_title = st ? st->title : "Set-up: the lesson's inputs";
    /* on a projector (PROJECTOR_COLS wide) the step's title in the block
     * font too (in capitals: the font's e is a number's exponent), when it
     * fits beside the number */
    char caps[256];
    snprintf(caps, sizeof caps, "%s", step_title);
    for (char *c = caps; *c; c++)
        if (*c >= 'a' && *c <= 'z')
            *c = (char)(*c - 'a' + 'A');
    int bw = big_width(caps, size);
    if (r.w >= PROJECTOR_COLS && bw >= 0 && bw <= r.w - x - 1) {
        ui_put_big(&term->cv, r.y, x, r.w - x, term->attr[C_STEP] | A_BOLD, caps, size);
        return;
    }
    ui_put_fit(&term->cv, r.y, x, r.w - x - 1, term->attr[C_TITLE], lesson_title(session_lesson(lv->ses)));
    ui_put_fit(&term->cv, r.y + r.h / 2 + (r.h > 3), x, r.w - x - 1, term->attr[C_STEP] | A_BOLD, step_title);
}

static void draw_title(const TuiTerm *term, const LessonScreen *ls)
{
    const LessonView *lv = &ls->lv;
    Rect r = ls->layout.title;
    if (r.h > 1) {
        draw_big_title(term, ls);
        return;
    }
    ui_fill(&term->cv, r.y, 0, r.w, term->attr[C_TITLE]);
    const LessonStep *st = session_step(lv->ses);
    int n_edits = session_n_edits(lv->ses);
    char right[256], tail[96] = "";
    /* steps numbered as the handout numbers them: the set-up is not one */
    int n_steps = lesson_n_steps(session_lesson(lv->ses));
    if (session_n_screens(lv->ses) == 0)
        snprintf(right, sizeof right, " no steps ");
    else if (st)
        snprintf(right, sizeof right, " step %d/%d: %s ", session_step_number(lv->ses), n_steps, st->title);
    else
        snprintf(right, sizeof right, " Set-up, then %d step%s ", n_steps, n_steps == 1 ? "" : "s");
    /* what the title bar counts is never cut: a long step title gives way */
    int tl = 0;
    if (n_edits > 0)
        tl += snprintf(tail, sizeof tail, "%s %d edit%s ", ui_glyph(&term->cv, "│", "|"), n_edits,
                       n_edits == 1 ? "" : "s");
    if (session_reload_error(lv->ses) && lv->reload_error_hidden)
        snprintf(tail + tl, sizeof tail - (size_t)tl, "%s file has an error ", ui_glyph(&term->cv, "│", "|"));
    char clean[256], clean_tail[96];
    text_clean(clean, sizeof clean, right, 0, term->utf8);
    text_clean(clean_tail, sizeof clean_tail, tail, 0, term->utf8);
    int tw = fmt_display_width(clean_tail);
    int rw = imin(fmt_display_width(clean) + tw, r.w * 2 / 3);
    char left[300];
    snprintf(left, sizeof left, " attn %s %s", ui_glyph(&term->cv, "·", "-"), lesson_title(session_lesson(lv->ses)));
    ui_put_fit(&term->cv, r.y, 0, r.w - rw - 1, term->attr[C_TITLE], left);
    ui_put(&term->cv, r.y, r.w - rw, imax(0, rw - tw), term->attr[C_STEP], clean);
    if (tw > 0)
        ui_put(&term->cv, r.y, r.w - imin(tw, rw), imin(tw, rw), term->attr[C_STEP], clean_tail);
}

static void draw_status(const TuiTerm *term, const LessonScreen *ls)
{
    const LessonView *lv = &ls->lv;
    Rect r = ls->layout.status;
    if (lv->n_panes == 0) {
        ui_put(&term->cv, r.y, 1, r.w - 2, term->attr[C_DIM], "(this step shows no matrices)");
        return;
    }
    const Pane *p = &lv->panes[lv->focus];
    const PaneView *v = &lv->views[lv->focus];
    if (!v->m)
        return;
    if (p->overview) {
        int r1 = p->cur_r + 1, c1 = p->cur_c + 1;
        float val = v->pooled ? v->pooled[(p->cur_r / v->br) * v->cols + p->cur_c / v->bc] : 0;
        char num[48];
        num_format(num, sizeof num, val, lv->decimals, term->utf8);
        ui_putf(&term->cv, r.y, 1, r.w - 2, term->attr[C_STATUS], "%s rows %d-%d, cols %d-%d: %s %s", p->name, r1,
             imin(r1 + v->br - 1, v->m->rows), c1, imin(c1 + v->bc - 1, v->m->cols),
             p->overview == 2 ? "max" : "mean", num);
        ui_put(&term->cv, r.y + 1, 1, r.w - 2, term->attr[C_DIM], "Enter opens this block cell by cell; o: max / off");
        return;
    }
    if (!ls->frame.ex_ok) {
        char name[64], num[48];
        explain_cell_name(v->m, p->cur_r, p->cur_c, name, sizeof name);
        num_format(num, sizeof num, mat_get(v->m, p->cur_r, p->cur_c), lv->decimals, term->utf8);
        if (!lv_pane_shown(ls, lv->focus) || session_cell_hidden(lv->ses, lv->ex_index, p->name, p->cur_r, p->cur_c))
            snprintf(num, sizeof num, "?");
        ui_putf(&term->cv, r.y, 1, r.w - 2, term->attr[C_STATUS], "%s = %s", name, num);
        if (ls->frame.ex_err[0])
            ui_put(&term->cv, r.y + 1, 1, r.w - 2, term->attr[C_DIM], ls->frame.ex_err);
        return;
    }
    /* long arithmetic wraps when the rows are there, else it is cut */
    char buf[4096];
    if (text_wrap_lines(buf, sizeof buf, ls->frame.ex.text, r.w - 2, 4) > r.h)
        snprintf(buf, sizeof buf, "%s", ls->frame.ex.text);
    Rect lines = { r.x, r.y, r.w, r.h };
    const char *tag = lv->explain_on ? "operands marked (Enter: off)" : "Enter: mark its operands";
    ui_lines(&term->cv, buf, lines, term->attr[C_STATUS], term->attr[C_DIM], NULL);
    /* the hint goes after the shortest of the explanation's lines (the
     * result, usually), a few columns from its end */
    int tw = fmt_display_width(tag), best_row = -1, best_w = 0, row = 0;
    char line[1024];
    for (const char *q = buf; row < r.h && (q = text_line(q, line, sizeof line)); row++) {
        int w = fmt_display_width(line);
        if (best_row < 0 || w < best_w) {
            best_row = row;
            best_w = w;
        }
    }
    if ((best_row < 0 || 1 + best_w + 4 + tw >= r.w) && row < r.h) {
        best_row = row;     /* no room beside it: the empty row below */
        best_w = -3;
    }
    if (best_row >= 0 && 1 + best_w + 4 + tw < r.w)
        ui_put(&term->cv, r.y + best_row, 1 + best_w + 4, tw, term->attr[C_DIM], tag);
}

/* What the lesson asks of the key bar: its keys, which of them apply now,
 * and the first line of a reload error with no room under the title. */
/* The key bar, in its row less the `room` columns at its end a note about
 * the panes takes (its keys cut whole, never written over). */
static void draw_keybar(const TuiTerm *term, const LessonScreen *ls, int room)
{
    KeyBarWant want = { .where = KEYS_LESSON, .rect = ls->layout.keybar, .quiet = ls->present };
    want.rect.w -= room < want.rect.w ? room : 0;
    if (ls->prompt.kind != PROMPT_NONE) {
        want.prompt_label = ls->prompt.label;
        want.prompt_input = ls->prompt.input;
    }
    const LessonStep *st = session_step(ls->lv.ses);
    want.has_exercise = (st && st->n_exercises > 0) || session_bug(ls->lv.ses);
    if (session_bug(ls->lv.ses))
        want.answer_label = tui_bug_answer_label(ls);
    for (int i = 0; i < ls->lv.n_panes; i++) {
        const PaneView *v = &ls->lv.views[i];
        want.scrolls |= v->m && (v->fit_r < v->rows || v->fit_c < v->cols || ls->lv.panes[i].overview);
    }
    char first[512];
    if (ls->banner_h == 0 && lv_banner_want(term, ls) > 0) {
        const char *e = session_reload_error(ls->lv.ses);
        snprintf(first, sizeof first, "reload failed (c hides): %.*s", (int)strcspn(e, "\n"), e);
        want.alert = first;
    }
    tui_keybar_draw(term, &want);
}

/* The lowest row of the panes' area where [x, x + w) crosses no pane on
 * the page shown, or -1: where a note about the panes may go without
 * covering a number. */
static int note_row(const LessonView *lv, Rect pr, int x, int w)
{
    for (int y = pr.y + pr.h - 1; y >= pr.y; y--) {
        int hit = 0;
        for (int i = 0; i < lv->n_panes && !hit; i++) {
            const PanePlace *p = &lv->views[i].place;
            hit = p->visible && y >= p->r.y && y < p->r.y + p->r.h && x < p->r.x + p->r.w && p->r.x < x + w;
        }
        if (!hit)
            return y;
    }
    return -1;
}

void lv_draw(TuiTerm *term, LessonScreen *ls)
{
    LessonView *lv = &ls->lv;
    draw_title(term, ls);
    int under = ls->layout.title.y + ls->layout.title.h;
    if (ls->banner_h > 0)
        lv_banner_draw(term, ls, (Rect){ 0, under, term->cols, ls->banner_h });
    if (ls->knob_h > 0)
        knobs_bar_draw(term, ls, (Rect){ 0, under + ls->banner_h, term->cols, ls->knob_h });
    ui_lines(&term->cv, ls->frame.text, ls->layout.text, term->attr[C_TEXT], term->attr[C_DIM], ui_glyph(&term->cv, "… t: all", "... t: all"));
    for (int i = 0; i < lv->n_panes; i++)
        if (lv->views[i].place.visible)
            pane_draw(term, ls, i, lv->explain_on && ls->frame.ex_ok ? &ls->frame.ex : NULL);
    int pages = 0, page = lv->n_panes ? lv->views[lv->focus].place.page : 0;
    for (int i = 0; i < lv->n_panes; i++)
        pages = imax(pages, lv->views[i].place.page + 1);
    /* what the panes do to fit: pages, fewer decimals */
    char note[96] = "";
    if (lv->zoom)
        snprintf(note, sizeof note, " zoomed: z or Esc goes back ");
    else if (pages > 1)
        snprintf(note, sizeof note, " panes page %d/%d (Tab) ", page + 1, pages);
    else if (lv->decimals_shown < lv->decimals)
        snprintf(note, sizeof note, " %d decimals to fit (+: more) ", lv->decimals_shown);
    int note_y = -1, note_x = 0, nw = (int)strlen(note);
    if (note[0]) {
        Rect pr = ls->layout.panes;
        note_x = pr.x + pr.w - nw;
        note_y = note_row(lv, pr, note_x, nw);
        if (note_y < 0) {   /* no row free of numbers: over the key bar's end, after it is drawn */
            note_y = ls->layout.keybar.y;
            note_x = ls->layout.keybar.x + ls->layout.keybar.w - nw;
        }
        if (note_y != ls->layout.keybar.y)
            ui_put(&term->cv, note_y, note_x, nw, term->attr[C_DIM] | A_REVERSE, note);
    }
    if (ls->layout.exercise.h > 0) {
        const unsigned char *roles = ls->frame.roles;
        int n_ex = ls->frame.exercise_n;
        Rect er = ls->layout.exercise;
        const char *p = ls->frame.exercise;
        char line[1024];
        const char *more = ui_glyph(&term->cv, "… t: all", "... t: all");
        int more_w = fmt_display_width(more);
        static const int role_colour[] = { [EXL_TITLE] = C_PANE_TITLE, [EXL_HINT] = C_HINT,
                                           [EXL_RIGHT] = C_RIGHT, [EXL_WRONG] = C_WRONG, [EXL_NOTE] = C_DIM };
        /* a verdict, or why an answer could not be read, is what the
         * student just did: where the lines do not all fit it keeps the
         * last row, and the hints before it go under t */
        int verdict = 0;
        while (n_ex > er.h && verdict < er.h && n_ex - 1 - verdict >= 0 && n_ex - 1 - verdict < EX_ROLES_MAX
               && (roles[n_ex - 1 - verdict] == EXL_RIGHT || roles[n_ex - 1 - verdict] == EXL_WRONG))
            verdict++;
        int rows = er.h - verdict, from = n_ex - verdict;
        for (int k = 0; (p = text_line(p, line, sizeof line)); k++) {
            if (k < rows && k == rows - 1 && n_ex > er.h) {
                /* the rest (more hints, the verdict) is under t */
                ui_put(&term->cv, er.y + k, 1, er.w - 3 - more_w, term->attr[C_HINT], line);
                ui_put(&term->cv, er.y + k, er.w - more_w - 1, more_w, term->attr[C_DIM], more);
            } else if (k < rows || (verdict && k >= from)) {
                int a = term->attr[role_colour[k < EX_ROLES_MAX ? roles[k] : EXL_HINT]];
                ui_put(&term->cv, er.y + (k < rows ? k : rows + k - from), 1, er.w - 2, a, line);
            }
        }
    }
    draw_status(term, ls);
    draw_keybar(term, ls, note[0] && note_y == ls->layout.keybar.y ? nw + 1 : 0);
    if (note[0] && note_y == ls->layout.keybar.y)
        ui_put(&term->cv, note_y, note_x, nw, term->attr[C_DIM] | A_REVERSE, note);
    if (ls->plug)
        ls->plug->draw(ls->plug->self, term, ls);
}
