/*
 * tui_help.c - the help screen: made from the bindings table (one column,
 * two on a short terminal) in the words of the screen that opened it, with
 * the notes it gave under the keys, scrolled when it does not fit; Down
 * and Up scroll, any other key closes it. A screen object (tui_screen.h)
 * whose state, made here, the stack owns.
 */
#include "tui_help.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "minmax.h"
#include "tui_put.h"

typedef struct {
    int where, words;
    char notes[HELP_NOTES_MAX][256];
    int n_notes;
    int first, max;     /* the first line shown, the most there is */
} HelpView;

TuiAsk tui_help_open(const HelpWant *want)
{
    HelpView *h = calloc(1, sizeof *h);
    if (!h)
        tui_fatal("out of memory");
    h->where = want->where;
    h->words = want->words ? want->words : want->where;
    for (int i = 0; i < HELP_NOTES_MAX && want->notes[i]; i++)
        snprintf(h->notes[h->n_notes++], sizeof h->notes[0], "%s", want->notes[i]);
    return tui_ask_open(&tui_screen_help, h);
}

TuiAction tui_cover_key(TuiTerm *term, int *first, int max, int ch)
{
    term->message[0] = '\0';
    TuiAction a = tui_key_action(ch, KEYS_LESSON);
    if (max > 0 && (a == ACT_DOWN || a == ACT_NEXT)) {
        ++*first;
    } else if (max > 0 && (a == ACT_UP || a == ACT_PREV)) {
        --*first;
    } else {
        *first = 0;
        return ACT_CLOSE;
    }
    return ACT_NONE;
}

/* The help, generated from the bindings table: one column when it fits,
 * two when the terminal is short, and scrolled when even two do not fit. */
typedef struct {
    int acts[ACT_COUNT];
    char keys[ACT_COUNT][64];
    int n, key_w, help_w;
    int columns, per_col, col_w;
    int top, room;
} HelpLayout;

static void help_layout(const TuiTerm *term, const HelpView *o, HelpLayout *h)
{
    h->n = h->key_w = h->help_w = 0;
    for (int a = ACT_NONE + 1; a < ACT_COUNT; a++) {
        tui_action_keys((TuiAction)a, o->where, h->keys[h->n], sizeof h->keys[h->n]);
        if (!h->keys[h->n][0] || !tui_action_help_in((TuiAction)a, o->words)[0])
            continue;   /* no key here, or none the screen takes now */
        h->key_w = imax(h->key_w, fmt_display_width(h->keys[h->n]));
        h->help_w = imax(h->help_w, fmt_display_width(tui_action_help_in((TuiAction)a, o->words)));
        h->acts[h->n++] = a;
    }
    h->top = 2;
    h->room = imax(1, term->rows - h->top - 2);
    int entry_w = h->key_w + 1 + h->help_w;
    h->columns = h->n > h->room && term->cols >= 1 + 2 * entry_w + 2 ? 2 : 1;
    h->per_col = (h->n + h->columns - 1) / h->columns;
    h->col_w = h->columns == 2 ? entry_w + 2 : term->cols - 2;
}

/* The help's rows: the keys' longest column, then a blank and the notes. */
static int help_rows(const HelpView *o, const HelpLayout *h)
{
    return h->per_col + (o->n_notes ? 1 + o->n_notes : 0);
}

static void help_prepare(TuiTerm *term, void *self)
{
    HelpView *o = self;
    tui_prepare_min_size(term, o);
    HelpLayout h;
    help_layout(term, o, &h);
    o->max = imax(0, help_rows(o, &h) - h.room);
    o->first = imax(0, imin(o->first, o->max));
}

static void help_draw(TuiTerm *term, void *self)
{
    HelpView *o = self;
    ui_fill(&term->cv, 0, 0, term->cols, term->attr[C_TITLE]);
    ui_put(&term->cv, 0, 1, term->cols - 2, term->attr[C_TITLE], o->where == KEYS_MENU ? "attn: keys of the lesson menu"
                                                       : o->where == KEYS_MODEL ? "attn: keys of the real models"
                                                       : o->where == KEYS_TRAIN ? "attn: keys of attn train"
                                                       : o->words == KEYS_HUNT ? "attn: keys of a bug hunt"
                                                       : o->words == KEYS_PRESENT ? "attn: keys of the lesson screen, presenting"
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
            tui_action_help_in((TuiAction)h.acts[k], o->words));
    }
    /* the notes under the keys, a blank line between; scrolled with them */
    for (int i = 0; i < o->n_notes; i++) {
        int row = h.per_col + 1 + i - o->first;
        if (row < 0 || row >= h.room)
            continue;
        ui_put(&term->cv, h.top + row, 2, term->cols - 4, term->attr[C_DIM], o->notes[i]);
    }
    ui_put(&term->cv, term->rows - 1, 1, term->cols - 2, term->attr[C_DIM],
        o->max > 0 ? (o->first < o->max ? "Down: more; any other key closes this help"
                                                       : "Up: back; any other key closes this help")
                        : "any key closes this help");
}

static TuiAsk help_key(TuiTerm *term, void *self, int ch)
{
    HelpView *o = self;
    return tui_ask(tui_cover_key(term, &o->first, o->max, ch));
}

const TuiScreen tui_screen_help = { .name = "help", .key = help_key, .prepare = help_prepare, .draw = help_draw,
                                    .close = free };
