/*
 * tui_chrome.c - what every screen shares and no screen owns: the stack of
 * screens (which one is on top), the one-line message, the key bar (or the
 * prompt, or the message, in its place), the "too small" notice, and the
 * way out when something fatal happens (curses left first).
 */
#include "tui_chrome.h"

#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "minmax.h"
#include "tui_colors.h"
#include "tui_screen.h"
#include "tui_state.h"

/* Whether the terminal is in curses mode, for the atexit and fatal-error
 * paths that must restore it: the process's, not a screen's. */
static int curses_active;

void tui_curses_began(void)
{
    curses_active = 1;
    atexit(tui_curses_end);
}

void tui_curses_end(void)
{
    if (curses_active) {
        curses_active = 0;
        endwin();
    }
}

void tui_fatal(const char *msg)
{
    tui_curses_end();
    fprintf(stderr, "attn: %s\n", msg);
    exit(2);
}

void tui_message(Tui *t, int error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->message, sizeof t->message, fmt, ap);
    va_end(ap);
    t->message_error = error;
    t->message_brief = 0;
}

/* ---- the stack of screens ---------------------------------------------- */

const TuiScreen *tui_screen(const Tui *t)
{
    return t->depth > 0 ? t->stack[t->depth - 1] : NULL;
}

void tui_set_base(Tui *t, const TuiScreen *s)
{
    t->stack[0] = s;
    if (t->depth == 0)
        t->depth = 1;
}

int tui_on_base(const Tui *t, const TuiScreen *s)
{
    return t->depth > 0 && t->stack[0] == s;
}

void tui_push(Tui *t, const TuiScreen *s)
{
    if (tui_screen(t) == s)
        return;
    if (t->depth >= TUI_STACK_MAX)
        tui_fatal("too many screens on top of each other");
    t->stack[t->depth++] = s;
}

void tui_pop(Tui *t, const TuiScreen *s)
{
    for (int i = t->depth - 1; i >= 1; i--)
        if (t->stack[i] == s) {
            memmove(&t->stack[i], &t->stack[i + 1], (size_t)(t->depth - i - 1) * sizeof *t->stack);
            t->depth--;
            return;
        }
}

/* ---- the bottom row ------------------------------------------------------ */

/* The key bar: the main actions, their keys read from the table. */
void tui_keybar_draw(const Tui *t, const KeyBarWant *want)
{
    int where = want->where;
    Rect r = want->rect.w > 0 ? want->rect : (Rect){ 0, t->rows - 1, t->cols, 1 };
    ui_fill(&t->cv, r.y, 0, r.w, t->attr[C_KEYBAR]);
    if (t->prompt != PROMPT_NONE) {
        ui_putf(&t->cv, r.y, 1, r.w - 2, t->attr[C_KEYBAR], "%s%s", t->prompt_label, t->input);
        int cx = 1 + fmt_display_width(t->prompt_label) + fmt_display_width(t->input);
        if (cx < r.w)
            ui_fill(&t->cv, r.y, cx, 1, t->attr[C_CURSOR]);
        return;
    }
    if (t->message[0]) {
        ui_put(&t->cv, r.y, 1, r.w - 2, t->message_error ? (int)(t->attr[C_ERROR] | A_REVERSE) : t->attr[C_KEYBAR], t->message);
        return;
    }
    if (want->alert) {
        ui_put(&t->cv, r.y, 1, r.w - 2, (int)(t->attr[C_ERROR] | A_REVERSE), want->alert);
        return;
    }
    if (want->quiet) {
        /* presenter mode: no keys on the class's screen (? lists them) */
        ui_fill(&t->cv, r.y, 0, r.w, A_NORMAL);
        return;
    }
    /* what this screen offers, most useful first, with help and quit
     * always at the right end; keys from the table */
    static const struct {
        TuiAction a;
        const char *label;
    } lesson_keys[] = {
        { ACT_NEXT, "next" }, { ACT_PREV, "back" }, { ACT_HINT, "hint" }, { ACT_ANSWER, "answer" },
        { ACT_UP, "move" }, { ACT_PANE_NEXT, "pane" }, { ACT_SELECT, "explain" }, { ACT_HEAT, "heat" },
        { ACT_EDIT, "edit" }, { ACT_OVERVIEW, "overview" }, { ACT_MORE, "digits" },
    }, menu_keys[] = {
        { ACT_UP, "move" }, { ACT_SELECT, "open" },
    }, tail[] = {
        { ACT_HELP, "help" }, { ACT_QUIT, "quit" },
    };
    int has_ex = want->has_exercise, scrolls = want->scrolls;
    int n = where == KEYS_MENU ? (int)(sizeof menu_keys / sizeof *menu_keys)
                               : (int)(sizeof lesson_keys / sizeof *lesson_keys);
    int n_tail = (int)(sizeof tail / sizeof *tail);
    char keys[16][64];
    const char *labels[16];
    int n_shown = 0, tail_w = 0;
    for (int i = 0; i < n + n_tail; i++) {
        TuiAction a = i >= n ? tail[i - n].a : where == KEYS_MENU ? menu_keys[i].a : lesson_keys[i].a;
        labels[n_shown] = i >= n ? tail[i - n].label : where == KEYS_MENU ? menu_keys[i].label : lesson_keys[i].label;
        if (((a == ACT_HINT || a == ACT_ANSWER) && !has_ex) || (a == ACT_OVERVIEW && !scrolls))
            continue;
        if (a == ACT_ANSWER && want->answer_label)
            labels[n_shown] = want->answer_label;
        char *k = keys[n_shown];
        tui_action_keys(a, where, k, sizeof keys[0]);
        char *comma = strchr(k, ',');
        if (comma)
            *comma = '\0';
        if (a == ACT_MORE)
            snprintf(k, sizeof keys[0], "+/-");
        else if (a == ACT_UP)   /* the arrows, as one entry */
            snprintf(k, sizeof keys[0], "%s", where == KEYS_MENU ? ui_glyph(&t->cv, "↑↓", "Up/Down") : ui_glyph(&t->cv, "←↑↓→", "arrows"));
        if (i >= n)
            tail_w += fmt_display_width(k) + 1 + (int)strlen(labels[n_shown]) + 2;
        n_shown++;
    }
    int x = 1, tail_x = r.w - tail_w;
    for (int i = 0; i < n_shown; i++) {
        int is_tail = i >= n_shown - n_tail;
        int need = fmt_display_width(keys[i]) + 1 + (int)strlen(labels[i]) + 2;
        if (is_tail && x < tail_x)
            x = tail_x;
        else if (!is_tail && x + need > tail_x)
            continue;
        ui_put(&t->cv, r.y, x, r.w - x, t->attr[C_KEY], keys[i]);
        x += fmt_display_width(keys[i]) + 1;
        ui_put(&t->cv, r.y, x, r.w - x, t->attr[C_KEYBAR], labels[i]);
        x += (int)strlen(labels[i]) + 2;
    }
}

void tui_prepare_min_size(Tui *t)
{
    t->layout_ok = t->cols >= TUI_MIN_COLS && t->rows >= TUI_MIN_ROWS;
}

void tui_draw_too_small(const Tui *t)
{
    char msg[128];
    snprintf(msg, sizeof msg, "terminal too small: need at least %dx%d, have %dx%d", TUI_MIN_COLS,
             TUI_MIN_ROWS, t->cols, t->rows);
    int w = (int)strlen(msg);
    int y = t->rows / 2, x = imax(0, (t->cols - w) / 2);
    if (w > t->cols) {
        /* split it so it still reads on a very narrow terminal */
        ui_put(&t->cv, y, 0, t->cols, t->attr[C_ERROR], "terminal too small:");
        ui_putf(&t->cv, y + 1, 0, t->cols, A_NORMAL, "need at least %dx%d,", TUI_MIN_COLS, TUI_MIN_ROWS);
        ui_putf(&t->cv, y + 2, 0, t->cols, A_NORMAL, "have %dx%d", t->cols, t->rows);
    } else {
        ui_put(&t->cv, y, x, t->cols - x, t->attr[C_ERROR], msg);
    }
}

int tui_on_projector(const Tui *t)
{
    return t->present && t->cols >= PROJECTOR_COLS && t->rows >= PROJECTOR_ROWS;
}
