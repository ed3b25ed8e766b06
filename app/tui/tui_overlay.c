/*
 * tui_overlay.c - the two screens that cover the others: the help, made
 * from the bindings table (one column, two on a short terminal) with the
 * notes no key says under it (in class, the class's keys), scrolled when
 * it does not fit, and the step's whole text with its exercise
 * (term, o). Down and Up scroll either when it does not fit; any other key
 * closes it. Their screen objects (tui_screen.h).
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "tui_put.h"
#include "tui_screen.h"
#include "tui_keybar.h"
#include "tui_lesson.h"
#include "tui_overlay.h"
#include "tui_plugin.h"
#include "text.h"

#include "minmax.h"

/* The session of the lesson under the overlay, NULL over the menu. */
static Session *under(const OverlayView *o)
{
    return o->ls ? o->ls->lv.ses : NULL;
}

/* What runs beside the lesson, in words for the help (NULL: nothing). */
static const char *plug_help(const OverlayView *o)
{
    return o->ls && o->ls->plug ? o->ls->plug->help(o->ls->plug->self) : NULL;
}

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
static int help_words(const OverlayView *o)
{
    return o->where ? o->where : !under(o) ? KEYS_MENU : session_bug(under(o)) ? KEYS_HUNT : KEYS_LESSON;
}

/* The help's notes under the lesson screen's keys: what no key says,
 * and in class the class's keys. */
static int help_notes(const OverlayView *o)
{
    return !under(o) ? 0 : plug_help(o) ? 3 : 2;
}

static void help_note(const TuiTerm *term, const OverlayView *o, int i, char *buf, size_t size)
{
    if (i == 0)
        snprintf(buf, size, "Enter marks where a value came from; a click selects a cell; -inf is masked.");
    else if (i == 1)
        snprintf(buf, size, "%s marks an edited cell; the title bar counts the edits.", ui_glyph(&term->cv, "✎", "'"));
    else
        snprintf(buf, size, "%s", plug_help(o));
}

static void help_layout(const TuiTerm *term, const OverlayView *o, HelpLayout *h)
{
    int where = o->where ? o->where : under(o) ? KEYS_LESSON : KEYS_MENU;
    h->n = h->key_w = h->help_w = 0;
    for (int a = ACT_NONE + 1; a < ACT_COUNT; a++) {
        tui_action_keys((TuiAction)a, where, h->keys[h->n], sizeof h->keys[h->n]);
        if (!h->keys[h->n][0])
            continue;
        h->key_w = imax(h->key_w, fmt_display_width(h->keys[h->n]));
        h->help_w = imax(h->help_w, fmt_display_width(tui_action_help_in((TuiAction)a, help_words(o))));
        h->acts[h->n++] = a;
    }
    h->top = 2;
    h->room = imax(1, term->rows - h->top - 2);
    int entry_w = h->key_w + 1 + h->help_w;
    h->columns = h->n > h->room && term->cols >= 1 + 2 * entry_w + 2 ? 2 : 1;
    h->per_col = (h->n + h->columns - 1) / h->columns;
    h->col_w = h->columns == 2 ? entry_w + 2 : term->cols - 2;
    h->notes = help_notes(o);
}

/* The help's rows: the keys' longest column, then a blank and the notes. */
static int help_rows(const HelpLayout *h)
{
    return h->per_col + (h->notes ? 1 + h->notes : 0);
}

static void prepare_help(TuiTerm *term, OverlayView *o)
{
    HelpLayout h;
    help_layout(term, o, &h);
    o->max = imax(0, help_rows(&h) - h.room);
    o->first = imax(0, imin(o->first, o->max));
}

static void draw_help(TuiTerm *term, OverlayView *o)
{
    int where = o->where ? o->where : under(o) ? KEYS_LESSON : KEYS_MENU;
    ui_fill(&term->cv, 0, 0, term->cols, term->attr[C_TITLE]);
    ui_put(&term->cv, 0, 1, term->cols - 2, term->attr[C_TITLE], where == KEYS_MENU ? "attn: keys of the lesson menu"
                                                       : where == KEYS_MODEL ? "attn: keys of the real models"
                                                       : help_words(o) == KEYS_HUNT ? "attn: keys of a bug hunt"
                                                                                     : "attn: keys of the lesson screen");
    HelpLayout h;
    help_layout(term, o, &h);
    for (int k = 0; k < h.n; k++) {
        int c = k / h.per_col, row = k % h.per_col - o->first;
        if (row < 0 || row >= h.room)
            continue;
        int x = 1 + c * h.col_w;
        ui_put(&term->cv, h.top + row, x, h.key_w, term->attr[C_HINT], h.keys[k]);
        ui_put(&term->cv, h.top + row, x + h.key_w + 1, term->cols - x - h.key_w - 1, A_NORMAL,
            tui_action_help_in((TuiAction)h.acts[k], help_words(o)));
    }
    /* the notes under the keys, a blank line between; scrolled with them */
    for (int i = 0; i < h.notes; i++) {
        int row = h.per_col + 1 + i - o->first;
        if (row < 0 || row >= h.room)
            continue;
        char note[200];
        help_note(term, o, i, note, sizeof note);
        ui_put(&term->cv, h.top + row, 2, term->cols - 4, term->attr[C_DIM], note);
    }
    ui_put(&term->cv, term->rows - 1, 1, term->cols - 2, term->attr[C_DIM],
        o->max > 0 ? (o->first < o->max ? "Down: more; any other key closes this help"
                                                       : "Up: back; any other key closes this help")
                        : "any key closes this help");
}

/* The step's whole prose, scrolled by Down/Up when it is longer than the
 * screen. */
static void prepare_text(TuiTerm *term, OverlayView *o)
{
    size_t size = 65536;
    char *buf = malloc(size);
    if (!buf)
        tui_fatal("out of memory");
    int n = lv_whole_text(term, o->ls, buf, size, text_measure(term->cols - 2));
    free(buf);
    o->max = imax(0, n - imax(term->rows - 4, 1));
    o->first = imax(0, imin(o->first, o->max));
}

static void draw_text(TuiTerm *term, OverlayView *o)
{
    ui_fill(&term->cv, 0, 0, term->cols, term->attr[C_TITLE]);
    const LessonStep *st = session_step(under(o));
    ui_putf(&term->cv, 0, 1, term->cols - 2, term->attr[C_TITLE], "%s", st ? st->title : "Set-up");
    size_t size = 65536;
    char *buf = malloc(size);
    if (!buf)
        tui_fatal("out of memory");
    lv_whole_text(term, o->ls, buf, size, text_measure(term->cols - 2));
    const char *from = buf;
    char line[1024];
    for (int k = 0; k < o->first && from; k++)
        from = text_line(from, line, sizeof line);
    ui_lines(&term->cv, from ? from : "", (Rect){ 1, 2, term->cols - 2, term->rows - 4 }, term->attr[C_TEXT], term->attr[C_DIM], NULL);
    free(buf);
    ui_put(&term->cv, term->rows - 1, 1, term->cols - 2, term->attr[C_DIM],
           o->max > 0 ? (o->first < o->max ? "Down: more text; any other key closes it"
                                                                   : "Up: back; any other key closes the text")
                              : "any key closes the text");
}

/* Down/Up scroll what does not fit; any other key closes the overlay. */
static TuiAction overlay_key(TuiTerm *term, OverlayView *o, int ch)
{
    term->message[0] = '\0';
    TuiAction a = tui_key_action(ch, KEYS_LESSON);
    if (o->max > 0 && (a == ACT_DOWN || a == ACT_NEXT)) {
        o->first++;
    } else if (o->max > 0 && (a == ACT_UP || a == ACT_PREV)) {
        o->first--;
    } else {
        o->first = 0;
        return ACT_CLOSE;
    }
    return ACT_NONE;
}

static void help_prepare(TuiTerm *term, OverlayView *o)
{
    tui_prepare_min_size(term, o);
    prepare_help(term, o);
}

static void text_prepare(TuiTerm *term, OverlayView *o)
{
    tui_prepare_min_size(term, o);
    prepare_text(term, o);
}

/* The screen objects (self: the OverlayView). */
static TuiAction overlay_screen_key(TuiTerm *term, void *self, int ch) { return overlay_key(term, self, ch); }
static void help_screen_prepare(TuiTerm *term, void *self) { help_prepare(term, self); }
static void help_screen_draw(TuiTerm *term, void *self) { draw_help(term, self); }
static void text_screen_prepare(TuiTerm *term, void *self) { text_prepare(term, self); }
static void text_screen_draw(TuiTerm *term, void *self) { draw_text(term, self); }

const TuiScreen tui_screen_help = { "help", overlay_screen_key, help_screen_prepare, help_screen_draw, NULL };
const TuiScreen tui_screen_text = { "text", overlay_screen_key, text_screen_prepare, text_screen_draw, NULL };
