/*
 * tui_cost.c - the cost of attention, on the screen (C from the menu or a
 * lesson): the same sweep as `attn bench --sweep` (app/cli/bench_sweep.c),
 * one size per idle moment of the main loop so the keys stay live, with a
 * progress bar, the table so far, and the log-log plot of time against n
 * with its slopes and the n x n memory: a student watches the n^2 wall
 * appear on their own machine. A screen object (tui_screen.h) whose
 * CostView the stack owns.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure.h"
#include "format.h"
#include "tui_put.h"
#include "tui_cost.h"
#include "tui_screen.h"
#include "tui_keybar.h"
#include "text.h"

#include "minmax.h"

/* Sizes are timed between keys: none should hold the keys for long. */
#define COST_SLOW_MS 700.0

struct CostView {
    BenchOpts o;
    Sweep s;
    int done;           /* the sweep has finished (or failed: err)          */
    char err[128];
};

static void cost_restart(CostView *c, int causal)
{
    bench_opts_default(&c->o);
    c->o.causal = causal;
    c->o.reps = 3;
    c->o.slow_ms = COST_SLOW_MS;
    memset(&c->s, 0, sizeof c->s);
    c->done = 0;
    c->err[0] = '\0';
}

CostView *cost_new(void)
{
    CostView *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    cost_restart(c, 0);
    return c;
}

void cost_free(CostView *c)
{
    free(c);
}

static TuiAction cost_key(TuiTerm *term, CostView *c, int ch)
{
    term->message[0] = '\0';
    TuiAction a = tui_key_action(ch, KEYS_LESSON);
    if (ch == 'r')
        cost_restart(c, c->o.causal);
    else if (ch == 'c')
        cost_restart(c, !c->o.causal);
    else if (a == ACT_BACK || a == ACT_QUIT || a == ACT_COST)
        return ACT_CLOSE;   /* the stack lets the view go */
    return ACT_NONE;
}

/* The next size, between keys. Returns 1 when the screen changed. */
static int cost_idle(CostView *c)
{
    if (c->done)
        return 0;
    int ran;
    if (sweep_next(&c->o, &c->s, &ran, c->err, sizeof c->err) != 0 || !ran)
        c->done = 1;
    return 1;
}

static void cost_draw(TuiTerm *term, CostView *c)
{
    const Sweep *s = &c->s;
    int w = term->cols;
    ui_fill(&term->cv, 0, 0, w, term->attr[C_TITLE]);
    ui_putf(&term->cv, 0, 1, w - 2, term->attr[C_TITLE], "attn %s the cost of attention on this machine: d=%d, %d heads%s",
            ui_glyph(&term->cv, "·", "-"), c->o.d, c->o.heads, c->o.causal ? ", causal" : "");
    /* progress: sizes done, the one being timed */
    int bar_w = imin(30, w / 3), filled = imin(bar_w, s->count * bar_w / 8);
    char bar[128];
    for (int k = 0; k < bar_w; k++)
        bar[k] = k < filled || c->done ? '#' : '.';
    bar[bar_w] = '\0';
    if (c->err[0])
        ui_putf(&term->cv, 1, 1, w - 2, term->attr[C_ERROR], "stopped: %s", c->err);
    else if (c->done)
        ui_putf(&term->cv, 1, 1, w - 2, term->attr[C_RIGHT], "[%s] done: %d sizes, up to n = %.0f", bar, s->count,
                s->count ? s->n[s->count - 1] : 0.0);
    else
        ui_putf(&term->cv, 1, 1, w - 2, term->attr[C_STEP], "[%s] timing n = %ld (fused, then naive: the n x n matrices)...",
                bar, s->next_n ? s->next_n : 64);
    /* the sizes so far, one line each, beside the plot when there is room,
     * else the last few above it */
    int beside = w >= 110, shown = beside ? s->count : imin(s->count, imax(2, term->rows - 20));
    int y = 3;
    ui_putf(&term->cv, y++, 1, w - 2, term->attr[C_LABEL], "%7s %10s %10s %9s", "n", "fused ms", "naive ms", "n x n MB");
    for (int i = s->count - shown; i < s->count && y < term->rows - 2; i++, y++) {
        char naive[24] = "-";
        if (s->naive[i] > 0)
            snprintf(naive, sizeof naive, "%.2f", s->naive[i]);
        ui_putf(&term->cv, y, 1, w - 2, A_NORMAL, "%7.0f %10.2f %10s %9.1f", s->n[i], s->fused[i], naive,
                s->nn[i] / 1e6);
    }
    /* the plot and what it shows, once two sizes are in */
    if (s->count >= 2) {
        int top = 3 + (beside ? 0 : shown + 2);
        int left = beside ? 44 : 1;
        int plot_h = imax(4, term->rows - top - 9), plot_w = imax(8, w - left - 16);
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        if (f) {
            sweep_report(f, &c->o, s, plot_w, plot_h, term->utf8);
            fclose(f);
            /* the plot's lines fit; the sentences under it wrap */
            char line[1024], wrapped[2048], part[1024];
            int yy = top, room = w - left - 1;
            for (const char *p = text; (p = text_line(p, line, sizeof line)) && yy < term->rows - 1;) {
                if (fmt_display_width(line) <= room)
                    snprintf(wrapped, sizeof wrapped, "%s", line);
                else
                    text_wrap(wrapped, sizeof wrapped, line, room);
                for (const char *q = wrapped; (q = text_line(q, part, sizeof part)) && yy < term->rows - 1; yy++)
                    ui_put_fit(&term->cv, yy, left, room, A_NORMAL, part);
            }
        }
        free(text);
    }
    ui_fill(&term->cv, term->rows - 1, 0, w, term->attr[C_KEYBAR]);
    ui_put(&term->cv, term->rows - 1, 1, w - 2, term->attr[C_KEYBAR], "Esc back  r time again  c causal on/off");
}

/* The screen object (self: a CostView of cost_new). */
static TuiAsk cost_screen_key(TuiTerm *term, void *self, int ch) { return tui_ask(cost_key(term, self, ch)); }
static void cost_screen_draw(TuiTerm *term, void *self) { cost_draw(term, self); }
static int cost_screen_idle(TuiTerm *term, void *self)
{
    (void)term;
    return cost_idle(self);
}

static void cost_screen_close(void *self) { cost_free(self); }

const TuiScreen tui_screen_cost = { .name = "cost", .key = cost_screen_key, .prepare = tui_prepare_min_size,
                                    .draw = cost_screen_draw, .idle = cost_screen_idle, .close = cost_screen_close };
