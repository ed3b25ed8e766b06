/*
 * tui_keybar.c - the terminal's bottom row as every screen draws it: the
 * prompt as it is typed, else the message, else the screen's alert, else
 * its keys read from the key table (help and quit at the right)
 * (tui_keybar.h).
 */
#include "tui_keybar.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "minmax.h"

/* The key bar: the main actions, their keys read from the table. */
void tui_keybar_draw(const TuiTerm *term, const KeyBarWant *want)
{
    int where = want->where;
    Rect r = want->rect.w > 0 ? want->rect : (Rect){ 0, term->rows - 1, term->cols, 1 };
    ui_fill(&term->cv, r.y, 0, r.w, term->attr[C_KEYBAR]);
    if (want->prompt_label) {
        const char *input = want->prompt_input ? want->prompt_input : "";
        ui_putf(&term->cv, r.y, 1, r.w - 2, term->attr[C_KEYBAR], "%s%s", want->prompt_label, input);
        int cx = 1 + fmt_display_width(want->prompt_label) + fmt_display_width(input);
        if (cx < r.w)
            ui_fill(&term->cv, r.y, cx, 1, term->attr[C_CURSOR]);
        return;
    }
    if (term->message[0]) {
        ui_put(&term->cv, r.y, 1, r.w - 2, term->message_error ? (int)(term->attr[C_ERROR] | A_REVERSE) : term->attr[C_KEYBAR], term->message);
        return;
    }
    if (want->alert) {
        ui_put(&term->cv, r.y, 1, r.w - 2, (int)(term->attr[C_ERROR] | A_REVERSE), want->alert);
        return;
    }
    if (want->quiet) {
        /* presenter mode: no keys on the class's screen (? lists them) */
        ui_fill(&term->cv, r.y, 0, r.w, A_NORMAL);
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
        { ACT_UP, "move" }, { ACT_SELECT, "open" }, { ACT_MODELS, "real models" },
    }, model_keys[] = {
        { ACT_UP, "move" }, { ACT_SELECT, "open" }, { ACT_TYPE, "new text" }, { ACT_HEAD_LESSON, "as a lesson" },
        { ACT_KNOB_UP, "temperature" }, { ACT_BACK, "back" }, { ACT_GENERATE, "generate" }, { ACT_NEXT, "token" },
        { ACT_SELECT, "run" }, { ACT_KNOB_NEXT, "knob" }, { ACT_KNOB_DOWN, "turn" }, { ACT_KEEP_TEXT, "keep" },
        { ACT_LINES, "lines" }, { ACT_ABLATE, "ablate" }, { ACT_LENS, "lens" },
        { ACT_ATTRIBUTION, "attribution" },
    }, tail[] = {
        { ACT_HELP, "help" }, { ACT_QUIT, "quit" },
    };
    int has_ex = want->has_exercise, scrolls = want->scrolls;
    const struct {
        TuiAction a;
        const char *label;
    } *list = where == KEYS_MENU ? (const void *)menu_keys : where == KEYS_MODEL ? (const void *)model_keys
                                                                                  : (const void *)lesson_keys;
    int n = where == KEYS_MENU ? (int)(sizeof menu_keys / sizeof *menu_keys)
          : where == KEYS_MODEL ? (int)(sizeof model_keys / sizeof *model_keys)
                                : (int)(sizeof lesson_keys / sizeof *lesson_keys);
    int n_tail = (int)(sizeof tail / sizeof *tail);
    char keys[20][64];
    const char *labels[20];
    int n_shown = 0, tail_w = 0;
    for (int i = 0; i < n + n_tail; i++) {
        TuiAction a = i >= n ? tail[i - n].a : list[i].a;
        labels[n_shown] = i >= n ? tail[i - n].label : list[i].label;
        if (((a == ACT_HINT || a == ACT_ANSWER) && !has_ex) || (a == ACT_OVERVIEW && !scrolls)
            || (where == KEYS_MODEL && !(want->model_keys & (1u << (i < n ? i : 0))) && i < n))
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
        else if (a == ACT_KNOB_UP || a == ACT_KNOB_DOWN)
            snprintf(k, sizeof keys[0], "<>");
        else if (a == ACT_UP)   /* the arrows, as one entry */
            snprintf(k, sizeof keys[0], "%s", where == KEYS_MENU ? ui_glyph(&term->cv, "↑↓", "Up/Down") : ui_glyph(&term->cv, "←↑↓→", "arrows"));
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
        ui_put(&term->cv, r.y, x, r.w - x, term->attr[C_KEY], keys[i]);
        x += fmt_display_width(keys[i]) + 1;
        ui_put(&term->cv, r.y, x, r.w - x, term->attr[C_KEYBAR], labels[i]);
        x += (int)strlen(labels[i]) + 2;
    }
}
