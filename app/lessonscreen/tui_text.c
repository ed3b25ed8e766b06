/*
 * tui_text.c - the step's whole text over the lesson screen (t): its prose
 * and its exercise as they stand, wrapped to the terminal and scrolled by
 * Down and Up when longer than it; any other key closes it. A screen
 * object (tui_screen.h) whose state, made here, the stack owns; the lesson
 * it shows is the one under it, borrowed.
 */
#include <stdlib.h>

#include "minmax.h"
#include "text.h"
#include "tui_help.h"
#include "tui_text.h"

typedef struct {
    int first, max;             /* the first line shown, the most there is */
    const LessonScreen *ls;     /* the lesson under it                     */
} TextView;

static const TuiScreen tui_screen_text;

TuiAsk lv_text_open(const LessonScreen *ls)
{
    TextView *o = calloc(1, sizeof *o);
    if (!o)
        tui_fatal("out of memory");
    o->ls = ls;
    return tui_ask_open(&tui_screen_text, o);
}

/* The text wrapped to the terminal into a buffer of its own (the caller
 * frees): how many lines. */
static char *whole_text(const TuiTerm *term, const TextView *o, int *lines)
{
    size_t size = 65536;
    char *buf = malloc(size);
    if (!buf)
        tui_fatal("out of memory");
    *lines = lv_whole_text(term, o->ls, buf, size, text_measure(term->cols - 2));
    return buf;
}

static void text_prepare(TuiTerm *term, void *self)
{
    TextView *o = self;
    tui_prepare_min_size(term, o);
    int n;
    free(whole_text(term, o, &n));
    o->max = imax(0, n - imax(term->rows - 4, 1));
    o->first = imax(0, imin(o->first, o->max));
}

static void text_draw(TuiTerm *term, void *self)
{
    TextView *o = self;
    ui_fill(&term->cv, 0, 0, term->cols, term->attr[C_TITLE]);
    const LessonStep *st = session_step(o->ls->lv.ses);
    ui_putf(&term->cv, 0, 1, term->cols - 2, term->attr[C_TITLE], "%s", st ? st->title : "Set-up");
    int n;
    char *buf = whole_text(term, o, &n);
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

static TuiAsk text_key(TuiTerm *term, void *self, int ch)
{
    TextView *o = self;
    return tui_ask(tui_cover_key(term, &o->first, o->max, ch));
}

static const TuiScreen tui_screen_text = { .name = "text", .key = text_key, .prepare = text_prepare,
                                           .draw = text_draw, .close = free };
