/*
 * tui_screen.c - what any screen may use of the screen object
 * (tui_screen.h): the blank screen, the frame of a screen that needs only
 * a minimum size, and the notice of a terminal too small.
 */
#include "tui_screen.h"

#include <stdio.h>
#include <string.h>

#include "minmax.h"
#include "tui_layout.h"
#include "tui_put.h"

/* b: nothing on the screen; the next key only brings it back. */
static TuiAsk blank_key(TuiTerm *term, void *self, int ch)
{
    (void)term;
    (void)self;
    (void)ch;
    return tui_ask(ACT_CLOSE);
}

static void blank_prepare(TuiTerm *term, void *self)
{
    (void)self;
    term->layout_ok = 1;
}

static void blank_draw(TuiTerm *term, void *self)
{
    (void)term;
    (void)self;
}

const TuiScreen tui_screen_blank = { .name = "blank", .key = blank_key, .prepare = blank_prepare, .draw = blank_draw };

void tui_prepare_min_size(TuiTerm *term, void *self)
{
    (void)self;
    term->layout_ok = term->cols >= TUI_MIN_COLS && term->rows >= TUI_MIN_ROWS;
}

void tui_draw_too_small(const TuiTerm *term)
{
    char msg[128];
    snprintf(msg, sizeof msg, "terminal too small: need at least %dx%d, have %dx%d", TUI_MIN_COLS,
             TUI_MIN_ROWS, term->cols, term->rows);
    int w = (int)strlen(msg);
    int y = term->rows / 2, x = imax(0, (term->cols - w) / 2);
    if (w > term->cols) {
        /* split it so it still reads on a very narrow terminal */
        ui_put(&term->cv, y, 0, term->cols, term->attr[C_ERROR], "terminal too small:");
        ui_putf(&term->cv, y + 1, 0, term->cols, A_NORMAL, "need at least %dx%d,", TUI_MIN_COLS, TUI_MIN_ROWS);
        ui_putf(&term->cv, y + 2, 0, term->cols, A_NORMAL, "have %dx%d", term->cols, term->rows);
    } else {
        ui_put(&term->cv, y, x, term->cols - x, term->attr[C_ERROR], msg);
    }
}
