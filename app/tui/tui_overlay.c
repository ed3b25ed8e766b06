/*
 * tui_overlay.c - the two screens that cover the others: the help, made
 * from the bindings table (one column, two on a short terminal) with the
 * notes no key says under it (in class, the class's keys), scrolled when
 * it does not fit, and the step's whole text with its exercise
 * (t). Down and Up scroll either when it does not fit; any other key
 * closes it. Their screen objects (tui_screen.h).
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "tui_put.h"
#include "tui_screen.h"
#include "tui_chrome.h"
#include "tui_class.h"
#include "text.h"
#include "tui_state.h"

#include "minmax.h"

/* The help screen, generated from the bindings table: one column when
 * it fits, two when the terminal is short, and scrolled when even two do
 * not fit. */
typedef struct {
    int acts[ACT_COUNT];
    char keys[ACT_COUNT][64];
    int n, key_w, help_w;
    int columns, per_col, col_w;
    int notes;          /* lines of notes under the keys (help_note) */
    int top, room;
} HelpLayout;

/* Whose words the help uses: the menu's, the lesson's, or a hunt's. */
static int help_words(const Tui *t)
{
    return !t->lv.ses ? KEYS_MENU : session_bug(t->lv.ses) ? KEYS_HUNT : KEYS_LESSON;
}

/* The help's notes under the lesson screen's keys: what no key says,
 * and in class the class's keys. */
static int help_notes(const Tui *t)
{
    return !t->lv.ses ? 0 : tui_class_help(t) ? 3 : 2;
}

static void help_note(const Tui *t, int i, char *buf, size_t size)
{
    if (i == 0)
        snprintf(buf, size, "Enter marks where a value came from; a click selects a cell; -inf is masked.");
    else if (i == 1)
        snprintf(buf, size, "%s marks an edited cell; the title bar counts the edits.", ui_glyph(&t->cv, "✎", "'"));
    else
        snprintf(buf, size, "%s", tui_class_help(t));
}

static void help_layout(const Tui *t, HelpLayout *h)
{
    int where = t->lv.ses ? KEYS_LESSON : KEYS_MENU;
    h->n = h->key_w = h->help_w = 0;
    for (int a = ACT_NONE + 1; a < ACT_COUNT; a++) {
        tui_action_keys((TuiAction)a, where, h->keys[h->n], sizeof h->keys[h->n]);
        if (!h->keys[h->n][0])
            continue;
        h->key_w = imax(h->key_w, fmt_display_width(h->keys[h->n]));
        h->help_w = imax(h->help_w, fmt_display_width(tui_action_help_in((TuiAction)a, help_words(t))));
        h->acts[h->n++] = a;
    }
    h->top = 2;
    h->room = imax(1, t->rows - h->top - 2);
    int entry_w = h->key_w + 1 + h->help_w;
    h->columns = h->n > h->room && t->cols >= 1 + 2 * entry_w + 2 ? 2 : 1;
    h->per_col = (h->n + h->columns - 1) / h->columns;
    h->col_w = h->columns == 2 ? entry_w + 2 : t->cols - 2;
    h->notes = help_notes(t);
}

/* The help's rows: the keys' longest column, then a blank and the notes. */
static int help_rows(const HelpLayout *h)
{
    return h->per_col + (h->notes ? 1 + h->notes : 0);
}

static void prepare_help(Tui *t)
{
    HelpLayout h;
    help_layout(t, &h);
    t->overlay_max = imax(0, help_rows(&h) - h.room);
    t->overlay_first = imax(0, imin(t->overlay_first, t->overlay_max));
}

static void draw_help(Tui *t)
{
    int where = t->lv.ses ? KEYS_LESSON : KEYS_MENU;
    ui_fill(&t->cv, 0, 0, t->cols, t->attr[C_TITLE]);
    ui_put(&t->cv, 0, 1, t->cols - 2, t->attr[C_TITLE], where == KEYS_MENU ? "attn: keys of the lesson menu"
                                                       : help_words(t) == KEYS_HUNT ? "attn: keys of a bug hunt"
                                                                                     : "attn: keys of the lesson screen");
    HelpLayout h;
    help_layout(t, &h);
    for (int k = 0; k < h.n; k++) {
        int c = k / h.per_col, row = k % h.per_col - t->overlay_first;
        if (row < 0 || row >= h.room)
            continue;
        int x = 1 + c * h.col_w;
        ui_put(&t->cv, h.top + row, x, h.key_w, t->attr[C_HINT], h.keys[k]);
        ui_put(&t->cv, h.top + row, x + h.key_w + 1, t->cols - x - h.key_w - 1, A_NORMAL,
            tui_action_help_in((TuiAction)h.acts[k], help_words(t)));
    }
    /* the notes under the keys, a blank line between; scrolled with them */
    for (int i = 0; i < h.notes; i++) {
        int row = h.per_col + 1 + i - t->overlay_first;
        if (row < 0 || row >= h.room)
            continue;
        char note[200];
        help_note(t, i, note, sizeof note);
        ui_put(&t->cv, h.top + row, 2, t->cols - 4, t->attr[C_DIM], note);
    }
    ui_put(&t->cv, t->rows - 1, 1, t->cols - 2, t->attr[C_DIM],
        t->overlay_max > 0 ? (t->overlay_first < t->overlay_max ? "Down: more; any other key closes this help"
                                                       : "Up: back; any other key closes this help")
                        : "any key closes this help");
}

/* The step's whole prose, scrolled by Down/Up when it is longer than the
 * screen. */
static void prepare_text(Tui *t)
{
    size_t size = 65536;
    char *buf = malloc(size);
    if (!buf)
        tui_fatal("out of memory");
    int n = lv_whole_text(t, buf, size, text_measure(t->cols - 2));
    free(buf);
    t->overlay_max = imax(0, n - imax(t->rows - 4, 1));
    t->overlay_first = imax(0, imin(t->overlay_first, t->overlay_max));
}

static void draw_text(Tui *t)
{
    ui_fill(&t->cv, 0, 0, t->cols, t->attr[C_TITLE]);
    const LessonStep *st = session_step(t->lv.ses);
    ui_putf(&t->cv, 0, 1, t->cols - 2, t->attr[C_TITLE], "%s", st ? st->title : "Set-up");
    size_t size = 65536;
    char *buf = malloc(size);
    if (!buf)
        tui_fatal("out of memory");
    lv_whole_text(t, buf, size, text_measure(t->cols - 2));
    const char *from = buf;
    char line[1024];
    for (int k = 0; k < t->overlay_first && from; k++)
        from = text_line(from, line, sizeof line);
    ui_lines(&t->cv, from ? from : "", (Rect){ 1, 2, t->cols - 2, t->rows - 4 }, t->attr[C_TEXT], t->attr[C_DIM], NULL);
    free(buf);
    ui_put(&t->cv, t->rows - 1, 1, t->cols - 2, t->attr[C_DIM],
           t->overlay_max > 0 ? (t->overlay_first < t->overlay_max ? "Down: more text; any other key closes it"
                                                                   : "Up: back; any other key closes the text")
                              : "any key closes the text");
}

/* Down/Up scroll what does not fit; any other key closes the overlay. */
static TuiAction overlay_key(Tui *t, int ch)
{
    t->message[0] = '\0';
    TuiAction a = tui_key_action(ch, KEYS_LESSON);
    if (t->overlay_max > 0 && (a == ACT_DOWN || a == ACT_NEXT)) {
        t->overlay_first++;
    } else if (t->overlay_max > 0 && (a == ACT_UP || a == ACT_PREV)) {
        t->overlay_first--;
    } else {
        tui_pop(t, tui_screen(t));
        t->overlay_first = 0;
    }
    return ACT_NONE;
}

static void help_prepare(Tui *t)
{
    tui_prepare_min_size(t);
    prepare_help(t);
}

static void text_prepare(Tui *t)
{
    tui_prepare_min_size(t);
    prepare_text(t);
}

const TuiScreen tui_screen_help = { "help", overlay_key, help_prepare, draw_help, NULL };
const TuiScreen tui_screen_text = { "text", overlay_key, text_prepare, draw_text, NULL };
