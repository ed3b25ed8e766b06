/*
 * tui_bug.c - find the bug on the screen (tui_bug.h). The session keeps
 * the hunt and judges each guess (session_bug.h); this shows it: where the
 * hunt is, in the exercise area; the list of the catalogue's kinds to name
 * the mistake from; the fix, with the lesson's numbers beside the buggy
 * ones. The hunt's own view state (the kind picked, the hints shown, the
 * matrix the fix shows) lives in LessonView.hunt.
 */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "text.h"
#include "tui_bug.h"
#include "tui_pane.h"
#include "tui_put.h"
#include "tui_lesson.h"
#include "tui_screen.h"

#include "minmax.h"

#define KEY_ESC 27

/* ---- the exercise area ---- */

/* The judge's words for a kind ("softmax along the wrong axis"). */
static const char *kind_title(const char *id)
{
    const char *w = lesson_diagnosis_words(id);
    return w ? w : "";
}

int bug_exercise_lines(const TuiTerm *term, const LessonScreen *ls, ExLines *x)
{
    Session *ses = ls->lv.ses;
    const BugHunt *h = session_bug(ses);
    const LessonBug *b = &h->bug;
    const char *ok = ui_glyph(&term->cv, "✓", "OK"), *no = ui_glyph(&term->cv, "✗", "X");
    int tries = h->matrix_tries + h->kind_tries;
    char count[48] = "";
    if (tries > 0)
        snprintf(count, sizeof count, ", %d guess%s", tries, tries == 1 ? "" : "es");
    /* the title, then the verdict (what the person waits for), then the
     * keys: the area is short on a small screen */
    switch (h->stage) {
    case HUNT_LOOKING:
        ex_add(x, EXL_TITLE, "Find the bug (seed %u%s): which matrix is the first one wrong?", b->seed, count);
        break;
    case HUNT_MATRIX:
        ex_add(x, EXL_TITLE, "Find the bug (seed %u%s): %s %s is the first wrong matrix. Which mistake?", b->seed,
               count, ok, b->matrix);
        break;
    case HUNT_FOUND:
        ex_add(x, EXL_TITLE, "Found (seed %u%s): %s %s, %s", b->seed, count, ok, b->kind, kind_title(b->kind));
        break;
    case HUNT_REVEALED:
        ex_add(x, EXL_TITLE, "The fix is shown (seed %u%s): %s, in %s", b->seed, count, b->kind, b->written);
        break;
    }
    if (h->guessed && h->stage != HUNT_REVEALED)
        ex_add(x, h->verdict.right ? EXL_RIGHT : EXL_WRONG, "  %s %s: %s", h->verdict.right ? ok : no, h->guess,
               h->verdict.msg);
    if (ls->lv.hunt.hints >= 1 && h->stage == HUNT_LOOKING) {
        const LessonStep *st = lesson_step(session_lesson(ses), b->step);
        ex_add(x, EXL_HINT, "  Hint: the first wrong matrix is shown on step %d (%s)", b->step + 1,
               st && st->title ? st->title : "");
    }
    if (ls->lv.hunt.hints >= 1 && h->stage == HUNT_MATRIX)
        ex_add(x, EXL_HINT, "  Hint: the mistake is in %s", b->written);
    if (h->stage == HUNT_LOOKING)
        ex_add(x, EXL_NOTE, "  Tab to it, a: this one. Enter works a cell as the lesson writes it; i a hint, v "
               "the fix");
    else if (h->stage == HUNT_MATRIX)
        ex_add(x, EXL_NOTE, "  a: the list of mistakes to name it from; i a hint, v the fix");
    else
        ex_add(x, EXL_NOTE, "  v: the fix, the numbers as written beside the buggy ones");
    if (session_bug_stale(ses))
        ex_add(x, EXL_NOTE, "  (the numbers are from before the last edit: the bug's statement does not take it)");
    return x->n;
}

const char *tui_bug_answer_label(const LessonScreen *ls)
{
    const BugHunt *h = session_bug(ls->lv.ses);
    return !h ? "answer" : h->stage == HUNT_LOOKING ? "this one" : h->stage == HUNT_MATRIX ? "name it" : "the fix";
}

/* ---- the keys ---- */

int tui_bug_action(TuiTerm *term, LessonScreen *ls, TuiAction a)
{
    LessonView *lv = &ls->lv;
    const BugHunt *h = session_bug(lv->ses);
    if (!h)
        return 0;
    unsigned c;
    switch (a) {
    case ACT_ANSWER:
        if (h->stage == HUNT_LOOKING) {
            if (lv->n_panes == 0) {
                tui_message(term, 1, "this step shows no matrices: go to one that does (n)");
                return 1;
            }
            c = session_bug_point(lv->ses, lv->panes[lv->focus].name);
            if (c & SESSION_REFUSED)
                tui_message(term, 1, "%s", session_message(lv->ses));
            lv->hunt.hints = 0;
        } else if (h->stage == HUNT_MATRIX) {
            lv->hunt.typed[0] = '\0';
            ls->asks = ACT_BUG_KINDS;
        } else {
            lv->hunt.fix_at = 0;
            ls->asks = ACT_BUG_FIX;
        }
        return 1;
    case ACT_HINT:
        if (h->stage == HUNT_LOOKING || h->stage == HUNT_MATRIX) {
            if (lv->hunt.hints >= 1)
                tui_message(term, 0, "no more hints: v shows the fix (counted as revealed)");
            lv->hunt.hints = 1;
        } else {
            tui_message(term, 0, "the hunt is over: v shows the fix");
        }
        return 1;
    case ACT_REVEAL:
        if (h->stage == HUNT_LOOKING || h->stage == HUNT_MATRIX) {
            lv->confirm_reveal = 1;
            tui_message(term, 0, "v again shows the fix (counted as revealed); any other key keeps looking");
        } else {
            lv->hunt.fix_at = 0;
            ls->asks = ACT_BUG_FIX;
        }
        return 1;
    case ACT_EXERCISE:
        tui_message(term, 0, "a bug hunt has no exercises: find the bug (a)");
        return 1;
    default:
        return 0;
    }
}

/* ---- the list of kinds ---- */

/* The list's rows from y: one column with titles when it fits, else
 * two of ids alone. */
static void draw_kinds(TuiTerm *term, LessonScreen *ls)
{
    const BugHunt *h = session_bug(ls->lv.ses);
    ui_fill(&term->cv, 0, 0, term->cols, term->attr[C_TITLE]);
    ui_putf(&term->cv, 0, 1, term->cols - 2, term->attr[C_TITLE], "Which mistake makes %s wrong? (seed %u)",
            h ? h->bug.matrix : "?", h ? h->bug.seed : 0);
    int n = lesson_bug_n_kinds(), top = 2, room = term->rows - top - 3;
    int cols = n <= room ? 1 : 2, per = (n + cols - 1) / cols, col_w = (term->cols - 2) / cols;
    for (int i = 1; i <= n; i++) {
        int row = (i - 1) % per, c = (i - 1) / per;
        if (row >= room)
            continue;
        int y = top + row, x = 1 + c * col_w;
        int picked = ls->lv.hunt.pick == i;
        char line[160];
        if (cols == 1)
            snprintf(line, sizeof line, "%2d  %-19s %s", i, lesson_bug_kind_id(i), lesson_bug_kind_title(i));
        else
            snprintf(line, sizeof line, "%2d  %s", i, lesson_bug_kind_id(i));
        ui_put(&term->cv, y, x, col_w - 1, picked ? (int)(term->attr[C_SELECTED] | A_REVERSE) : (int)A_NORMAL, line);
    }
    int y = term->rows - 2;
    ui_putf(&term->cv, y, 1, term->cols - 2, term->attr[C_KEYBAR], "the mistake's number or id (Up/Down, Enter; Esc: "
            "back): %s", ls->lv.hunt.typed);
    int cx = 1 + fmt_display_width("the mistake's number or id (Up/Down, Enter; Esc: back): ")
           + (int)strlen(ls->lv.hunt.typed);
    if (cx < term->cols)
        ui_fill(&term->cv, y, cx, 1, term->attr[C_CURSOR]);
}

static TuiAction kinds_key(TuiTerm *term, LessonScreen *ls, int ch)
{
    LessonView *lv = &ls->lv;
    size_t len = strlen(lv->hunt.typed);
    int n = lesson_bug_n_kinds();
    term->message[0] = '\0';
    if (ch == KEY_ESC) {
        return ACT_CLOSE;
    } else if (ch == KEY_UP || ch == KEY_DOWN) {
        lv->hunt.pick = lv->hunt.pick < 1 ? 1 : (lv->hunt.pick - 1 + (ch == KEY_UP ? n - 1 : 1)) % n + 1;
        lv->hunt.typed[0] = '\0';
    } else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
        char said[40];
        if (lv->hunt.typed[0])
            snprintf(said, sizeof said, "%s", lv->hunt.typed);
        else if (lv->hunt.pick >= 1)
            snprintf(said, sizeof said, "%d", lv->hunt.pick);
        else
            return ACT_NONE;
        unsigned c = session_bug_name(lv->ses, said);
        if (c & SESSION_REFUSED) {
            tui_message(term, 1, "%s", session_message(lv->ses));
            return ACT_NONE;    /* the list stays: try again */
        }
        lv->hunt.hints = 0;
        return ACT_CLOSE;
    } else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        if (len > 0)
            lv->hunt.typed[len - 1] = '\0';
    } else if (ch > ' ' && ch < 127 && len + 1 < sizeof lv->hunt.typed) {
        lv->hunt.typed[len] = (char)ch;
        lv->hunt.typed[len + 1] = '\0';
        lv->hunt.pick = 0;
    }
    return ACT_NONE;
}

static void kinds_draw(TuiTerm *term, LessonScreen *ls)
{
    draw_kinds(term, ls);
    if (term->message[0])
        ui_put(&term->cv, term->rows - 1, 1, term->cols - 2, term->message_error ? (int)(term->attr[C_ERROR] | A_REVERSE)
                                                                     : term->attr[C_KEYBAR], term->message);
}

static TuiAsk kinds_screen_key(TuiTerm *term, void *self, int ch) { return tui_ask(kinds_key(term, self, ch)); }

static void kinds_screen_draw(TuiTerm *term, void *self) { kinds_draw(term, self); }

/* The screen objects of a hunt's lists (self: the LessonScreen under
 * them, borrowed: nothing to close). */
const TuiScreen tui_screen_bug_kinds = { .name = "bug-kinds", .key = kinds_screen_key, .prepare = tui_prepare_min_size,
                                         .draw = kinds_screen_draw };

/* ---- the fix ---- */

/* The matrices the steps show that the bug changed, in order (at most
 * max), the first wrong one first. */
static int changed_names(Session *ses, const char **out, int max)
{
    const Lesson *l = session_lesson(ses);
    const LessonState *right = session_state(ses), *buggy = session_shown_state(ses);
    int n = 0;
    for (int s = 0; s < lesson_n_steps(l); s++) {
        const LessonStep *st = lesson_step(l, s);
        for (int k = 0; k < st->n_show && n < max; k++) {
            int seen = 0;
            for (int i = 0; i < n; i++)
                seen |= strcmp(out[i], st->show[k]) == 0;
            int differs = lesson_mats_differ(lesson_state_get(right, st->show[k]),
                                             lesson_state_get(buggy, st->show[k]));
            if (!seen && differs)
                out[n++] = st->show[k];
        }
    }
    return n;
}

/* The widest of m's numbers at dec decimals. */
static int number_width(const Mat *m, int dec, int utf8)
{
    int w = 1;
    for (int i = 0; i < m->rows; i++)
        for (int j = 0; j < m->cols; j++) {
            char num[48];
            num_format(num, sizeof num, mat_get(m, i, j), dec, utf8);
            w = imax(w, fmt_display_width(num));
        }
    return w;
}

/* The widest of m's row labels (its 1-based numbers where it has none),
 * at most 12 columns. */
static int row_label_width(const Mat *m)
{
    int w = 1;
    for (int k = m->rows; k >= 10; k /= 10)
        w++;
    for (int i = 0; i < m->rows; i++)
        if (mat_row_label(m, i))
            w = imax(w, fmt_display_width(mat_row_label(m, i)));
    return imin(w, 12);
}

/* One matrix as a grid of numbers at (x, y), w x h at most, its rows and
 * columns labelled as the panes label them; each cell is the number, then
 * a column of its own for the mark (* where it differs from other), then a
 * blank, so no mark ever touches the next number. Returns the rows drawn,
 * the header included. */
static int draw_grid(TuiTerm *term, const Mat *m, const Mat *other, int x, int y, int w, int h, int dec, int num_w,
                     int is_buggy)
{
    int lw = row_label_width(m), cell_w = num_w + 2;
    int shown_c = imin(m->cols, imax(1, (w - lw - 1) / cell_w));
    char buf[256];
    if (h <= 0)
        return 0;
    for (int j = 0; j < shown_c; j++) {
        pane_axis_label(buf, sizeof buf, m, j, 1, 0);
        ui_put_right(&term->cv, y, x + lw + 1 + j * cell_w, num_w, term->attr[C_LABEL], buf);
    }
    int rows = 1;
    for (int i = 0; i < m->rows && rows < h; i++, rows++) {
        pane_axis_label(buf, sizeof buf, m, i, 1, 1);
        ui_put(&term->cv, y + rows, x, lw, term->attr[C_LABEL], buf);
        for (int j = 0; j < shown_c; j++) {
            char num[48];
            float v = mat_get(m, i, j);
            num_format(num, sizeof num, v, dec, term->utf8);
            int diff = other && i < other->rows && j < other->cols && lesson_values_differ(v, mat_get(other, i, j));
            int a = diff ? (int)(term->attr[is_buggy ? C_WRONG : C_RIGHT] | A_BOLD) : (int)A_NORMAL;
            int cx = x + lw + 1 + j * cell_w;
            ui_put_right(&term->cv, y + rows, cx, num_w, a, num);
            if (diff)
                ui_put(&term->cv, y + rows, cx + num_w, 1, a, "*");
        }
        if (shown_c < m->cols)
            ui_put(&term->cv, y + rows, x + lw + 1 + shown_c * cell_w, 3, term->attr[C_DIM], ui_glyph(&term->cv, "…", "..."));
    }
    if (rows - 1 < m->rows)
        ui_putf(&term->cv, y + rows - 1, x, w, term->attr[C_DIM], "    (%d more rows)", m->rows - (rows - 1) + 1);
    return rows;
}

static void fix_draw(TuiTerm *term, LessonScreen *ls)
{
    Session *ses = ls->lv.ses;
    const BugHunt *h = session_bug(ses);
    if (!h)
        return;
    const LessonBug *b = &h->bug;
    ui_fill(&term->cv, 0, 0, term->cols, term->attr[C_TITLE]);
    ui_putf(&term->cv, 0, 1, term->cols - 2, term->attr[C_TITLE], "The fix (seed %u): %s, %s", b->seed, b->kind,
            kind_title(b->kind));
    int y = 2;
    char wrapped[2048];
    int k = text_wrap_lines(wrapped, sizeof wrapped, b->explain, term->cols - 4, 4);
    ui_lines(&term->cv, wrapped, (Rect){ 2, y, term->cols - 4, imin(k, 3) }, term->attr[C_TEXT], term->attr[C_DIM], NULL);
    y += imin(k, 3) + 1;
    ui_putf(&term->cv, y++, 2, term->cols - 4, term->attr[C_RIGHT], "as written:  %s", b->written);
    ui_putf(&term->cv, y++, 2, term->cols - 4, term->attr[C_WRONG], "as planted:  %s", b->planted);
    y++;
    const char *names[64];
    int n = changed_names(ses, names, 64);
    if (n == 0) {
        ui_put(&term->cv, y, 2, term->cols - 4, term->attr[C_DIM], "(with these edits the bug changes nothing shown)");
    } else {
        int at = ((ls->lv.hunt.fix_at % n) + n) % n;
        const char *name = names[at];
        const Mat *right = lesson_state_get(session_state(ses), name);
        const Mat *buggy = lesson_state_get(session_shown_state(ses), name);
        int dec = ls->lv.decimals_shown > 0 ? ls->lv.decimals_shown : NUM_DECIMALS_DEFAULT;
        int num_w = imax(number_width(right, dec, term->utf8), number_width(buggy, dec, term->utf8));
        int cells = 0;
        for (int i = 0; i < right->rows && i < buggy->rows; i++)
            for (int j = 0; j < right->cols && j < buggy->cols; j++)
                cells += lesson_values_differ(mat_get(buggy, i, j), mat_get(right, i, j));
        ui_putf(&term->cv, y++, 2, term->cols - 4, term->attr[C_PANE_TITLE], "%s: %d cell%s differ%s (marked *)%s", name, cells,
                cells == 1 ? "" : "s", cells == 1 ? "s" : "",
                n > 1 ? " (Tab: the next matrix the bug changed)" : "");
        int grid_w = imax(row_label_width(buggy), row_label_width(right)) + 1
                     + imax(buggy->cols, right->cols) * (num_w + 2);
        int room = term->rows - 2 - y;
        if (2 * grid_w + 4 <= term->cols - 2) {
            ui_put(&term->cv, y, 2, grid_w, term->attr[C_WRONG], "with the bug");
            ui_put(&term->cv, y, 2 + grid_w + 4, grid_w, term->attr[C_RIGHT], "as written");
            draw_grid(term, buggy, right, 2, y + 1, grid_w, room - 1, dec, num_w, 1);
            draw_grid(term, right, buggy, 2 + grid_w + 4, y + 1, grid_w, room - 1, dec, num_w, 0);
        } else {
            int half = (room - 2) / 2;
            ui_put(&term->cv, y, 2, term->cols - 4, term->attr[C_WRONG], "with the bug");
            int r = draw_grid(term, buggy, right, 2, y + 1, term->cols - 4, half, dec, num_w, 1);
            ui_put(&term->cv, y + 1 + r, 2, term->cols - 4, term->attr[C_RIGHT], "as written");
            draw_grid(term, right, buggy, 2, y + 2 + r, term->cols - 4, room - 2 - r, dec, num_w, 0);
        }
    }
    ui_put(&term->cv, term->rows - 1, 1, term->cols - 2, term->attr[C_DIM],
           n > 1 ? "Tab: the next changed matrix; any other key closes the fix" : "any key closes the fix");
}

static TuiAction fix_key(TuiTerm *term, LessonScreen *ls, int ch)
{
    term->message[0] = '\0';
    if (ch != '\t' && ch != KEY_BTAB)
        return ACT_CLOSE;
    ls->lv.hunt.fix_at += ch == '\t' ? 1 : -1;
    return ACT_NONE;
}

static TuiAsk fix_screen_key(TuiTerm *term, void *self, int ch) { return tui_ask(fix_key(term, self, ch)); }

static void fix_screen_draw(TuiTerm *term, void *self) { fix_draw(term, self); }

const TuiScreen tui_screen_bug_fix = { .name = "bug-fix", .key = fix_screen_key, .prepare = tui_prepare_min_size,
                                       .draw = fix_screen_draw };
