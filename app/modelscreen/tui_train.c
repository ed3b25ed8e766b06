/*
 * tui_train.c - `attn train` on the screen (tui_train.h). The model
 * trains in the screen's idle, a slice of steps at a time, so keys stay
 * answered; each evaluation adds a point to the curves and measures the
 * heads again.
 */
#include "tui_train.h"
#include "escape.h"

#include <curses.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <limits.h>

#include "clock.h"
#include "format.h"
#include "text.h"
#include "minmax.h"
#include "tui_help.h"
#include "tui_keybar.h"
#include "tui_pixels.h"
#include "tui_screen.h"
#include "lesson.h"
#include "model_shelf.h"

#define SLICE_S 0.15        /* training between two looks at the keys */
#define FRAME_S 0.5         /* the step counter redrawn at least this often */

/* Repeated, so a head that has learnt to copy shows it on the screen. */
static const char probe_text[] = "ROMEO: What light through yonder window breaks? "
                                 "ROMEO: What light through yonder window breaks?";

struct TrainScreen {
    Trainer *t;
    float *probe;               /* layers x heads x probe_n x probe_n */
    int probe_n;
    char sample[160];
    double rate;                /* tokens per second at the last evaluation */
    int paused, finished, failed;
    double last_frame;
    /* the run's last word (done, or why it failed), said again until a
     * frame of this screen has shown it: it may come while the help is
     * on top, whose keys clear the message line */
    char note[1400];
    int note_error, note_seen;
};

static double now_s(void) { return clock_seconds(); }

static void say_last(TuiTerm *term, TrainScreen *s, int error, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void say_last(TuiTerm *term, TrainScreen *s, int error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->note, sizeof s->note, fmt, ap);
    va_end(ap);
    s->note_error = error;
    s->note_seen = 0;
    tui_message(term, error, "%s", s->note);
}

/* After each key and at each tick: the last word put back where a key on
 * a screen above cleared it before it was seen. */
static int train_tick(TuiTerm *term, void *self)
{
    TrainScreen *s = self;
    if (!s->note[0] || s->note_seen || term->message[0])
        return 0;
    tui_message(term, s->note_error, "%s", s->note);
    return 1;
}

/* The heads looked at again: the probe, a sample (each evaluation's
 * induction scores are the run's own, kept in its checkpoint, so the
 * curves of them survive a resume). */
static void observe(TrainScreen *s)
{
    trainer_probe(s->t, probe_text, s->probe, &s->probe_n);
    trainer_sample(s->t, "ROMEO:", s->sample, sizeof s->sample);
}

TrainScreen *train_screen_new(Trainer *t)
{
    TrainScreen *s = calloc(1, sizeof *s);
    const GptShape *g = &trainer_run(t)->set.shape;
    if (s)
        s->probe = malloc((size_t)g->layers * g->heads * g->context * g->context * sizeof *s->probe);
    if (!s || !s->probe) {
        free(s);
        return NULL;
    }
    s->t = t;
    s->finished = trainer_done(t);
    observe(s);
    return s;
}

/* The loop has ended with the run on the screen, the terminal the
 * shell's again: a run not finished is checkpointed and how to go on said.
 * The exit status: 0, 1 a checkpoint or the model not written (a signal's
 * is the loop's when this is 0). */
static int train_at_exit(TuiTerm *term, void *self)
{
    (void)term;
    TrainScreen *s = self;
    char why[1200], shown[4200];
    const TrainRun *r = trainer_run(s->t);
    int status = s->failed ? 1 : 0;
    if (s->failed && s->note[0])    /* the reason, off the screen with it */
        fprintf(stderr, "attn: %s\n", term_escape(s->note, shown, sizeof shown));
    if (!s->finished && !s->failed) {
        /* q: a stop asked for, everything kept (exit 0) */
        if (trainer_checkpoint(s->t, why, sizeof why) != 0) {
            fprintf(stderr, "attn: %s\n", term_escape(why, shown, sizeof shown));
            status = 1;
        } else {
            fprintf(stderr, "attn: stopped after %lld of %lld steps; attn train --resume --out %s goes on\n",
                    (long long)r->step, (long long)r->set.steps, term_escape(trainer_out(s->t), shown, sizeof shown));
        }
    }
    return status;
}

void train_screen_free(TrainScreen *s)
{
    if (!s)
        return;
    trainer_free(s->t);
    free(s->probe);
    free(s);
}

/* Whether the menu's m lists the model in dir: it does for a folder in
 * $ATTN_MODELS, or in one of them, and for those attn ships. */
static int shelf_lists(const char *dir)
{
    ModelShelf shelf;
    model_shelf_find(&shelf);
    char want[4096], got[4096];
    int listed = 0;
    for (int i = 0; realpath(dir, want) && i < shelf.n && !listed; i++)
        listed = realpath(shelf.path[i], got) && strcmp(want, got) == 0;
    model_shelf_free(&shelf);
    return listed;
}

/* ---- between keys: train ------------------------------------------------ */

static int train_idle(TuiTerm *term, void *self)
{
    TrainScreen *s = self;
    if (s->paused || s->finished || s->failed)
        return 0;       /* the loop's tick: no work, so a wait */
    timeout(0);         /* no wait for keys while there is work */
    double t0 = now_s();
    int changed = 0;
    char why[1200];
    while (now_s() - t0 < SLICE_S) {
        double rate = 0;
        int e = trainer_step(s->t, &rate, why, sizeof why);
        if (e < 0) {
            say_last(term, s, 1, "%s", why);
            s->failed = 1;
            return 1;
        }
        if (e > 0) {
            s->rate = rate;
            observe(s);
            changed = 1;
        }
        if (trainer_done(s->t)) {
            s->finished = 1;
            if (trainer_save_model(s->t, why, sizeof why) != 0) {
                say_last(term, s, 1, "%s", why);
                s->failed = 1;
            } else {
                trainer_log_end(s->t);
                /* what matters first: a path is long, and the line is cut */
                if (shelf_lists(trainer_out(s->t)))
                    say_last(term, s, 0, "done: m on the menu lists it; attn model opens %s", trainer_out(s->t));
                else
                    say_last(term, s, 0, "done: m on the menu lists it once $ATTN_MODELS holds its folder's parent; "
                                "attn model opens %s", trainer_out(s->t));
            }
            return 1;
        }
    }
    if (now_s() - s->last_frame > FRAME_S) {
        s->last_frame = now_s();    /* drawn or not: a screen above draws no step */
        changed = 1;
    }
    return changed;
}

static TuiAsk train_key(TuiTerm *term, void *self, int ch)
{
    TrainScreen *s = self;
    TuiAction a = tui_key_action(ch, KEYS_TRAIN);
    if (a == ACT_QUIT || a == ACT_BACK)
        return tui_ask(ACT_QUIT);   /* the checkpoint is written at the exit */
    int over = s->finished || s->failed;
    if (a == ACT_HELP)
        return tui_help_open(&(HelpWant){ .where = KEYS_TRAIN, .words = over ? KEYS_TRAIN_OVER : KEYS_TRAIN });
    if (a == ACT_PAUSE && !over) {
        s->paused = !s->paused;
        tui_message(term, 0, s->paused ? "paused: p goes on" : "training");
    }
    return tui_ask(ACT_NONE);
}

/* ---- the frame ------------------------------------------------------------- */

/* The curves: training (dots) and validation (discs) loss by step. */
static void draw_curves(TuiTerm *term, const TrainRun *r, int y0, int x0, int h, int w)
{
    ui_put(&term->cv, y0, x0, w, tui_attr(term, C_PANE_TITLE), "loss");
    ui_putf(&term->cv, y0, x0 + 6, w - 6, tui_attr(term, C_DIM), "%s train  %s validation",
            ui_glyph(&term->cv, "·", "."), ui_glyph(&term->cv, "●", "o"));
    if (r->n_curve == 0) {
        /* before the first evaluation: the steps so far, not a blank */
        if (r->loss_n > 0) {
            ui_putf(&term->cv, y0 + 2, x0, w, tui_attr(term, C_DIM), "step %lld: training loss %.4f so far",
                    (long long)r->step, r->loss_sum / (double)r->loss_n);
            ui_putf(&term->cv, y0 + 3, x0, w, tui_attr(term, C_DIM), "the first evaluation at step %lld",
                    (long long)r->set.eval_every);
        } else
            ui_put(&term->cv, y0 + 2, x0, w, tui_attr(term, C_DIM), "the first steps are on their way");
        return;
    }
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < r->n_curve; i++) {
        lo = fmin(lo, fmin(r->curve[i].train_loss, r->curve[i].val_loss));
        hi = fmax(hi, fmax(r->curve[i].train_loss, r->curve[i].val_loss));
    }
    if (hi - lo < 1e-6)
        hi = lo + 1;
    int top = y0 + 1, rows = h - 2, left = x0 + 7, cols = w - 8;
    ui_putf(&term->cv, top, x0, 6, tui_attr(term, C_DIM), "%6.2f", hi);
    ui_putf(&term->cv, top + rows - 1, x0, 6, tui_attr(term, C_DIM), "%6.2f", lo);
    ui_putf(&term->cv, top + rows, left, cols, tui_attr(term, C_DIM), "0%*lld", cols - 1, (long long)r->set.steps);
    for (int i = 0; i < r->n_curve; i++) {
        int x = left + (int)((double)r->curve[i].step / (double)r->set.steps * (cols - 1));
        int yt = top + (int)lround((hi - r->curve[i].train_loss) / (hi - lo) * (rows - 1));
        int yv = top + (int)lround((hi - r->curve[i].val_loss) / (hi - lo) * (rows - 1));
        ui_put(&term->cv, yt, x, 1, tui_attr(term, C_DIM), ui_glyph(&term->cv, "·", "."));
        ui_put(&term->cv, yv, x, 1, tui_attr(term, C_HINT), ui_glyph(&term->cv, "●", "o"));
    }
}

/* Each head's induction score over the evaluations, newest at the right;
 * when not every head fits, the heads of the highest scores now. */
static void draw_induction(TuiTerm *term, const TrainScreen *s, int y0, int x0, int h, int w)
{
    const TrainRun *r = trainer_run(s->t);
    const GptShape *g = &r->set.shape;
    static const char *const bars[8] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
    static const char *const ascii = " .:-=+*#";
    int heads = g->layers * g->heads, width = imax(4, w - 14), n_evals = r->n_curve;
    int rows = imin(heads, h - 1), first = imax(0, n_evals - width);
    const float *now_ind = n_evals ? r->induction + (size_t)(n_evals - 1) * heads : NULL;
    int order[TRAIN_MAX_LAYERS * 64], n = imin(heads, (int)(sizeof order / sizeof order[0]));
    for (int k = 0; k < n; k++)
        order[k] = k;
    if (rows < heads && now_ind)
        for (int i = 1; i < n; i++)     /* highest first: the head forming is never the one cut */
            for (int j = i; j > 0 && now_ind[order[j]] > now_ind[order[j - 1]]; j--) {
                int tmp = order[j];
                order[j] = order[j - 1];
                order[j - 1] = tmp;
            }
    if (rows < heads)
        ui_putf(&term->cv, y0, x0, w, tui_attr(term, C_PANE_TITLE), "induction score, top %d of %d heads", rows,
                heads);
    else
        ui_put(&term->cv, y0, x0, w, tui_attr(term, C_PANE_TITLE), "induction score, each head");
    for (int row = 0; row < rows && row < n; row++) {
        int k = order[row], y = y0 + 1 + row;
        double now = now_ind ? now_ind[k] : 0;
        ui_putf(&term->cv, y, x0, 7, tui_attr(term, C_LABEL), "L%dH%d", k / g->heads + 1, k % g->heads + 1);
        char line[1024] = "";
        size_t at = 0;
        for (int e = first; e < n_evals && at + 4 < sizeof line; e++) {
            double v = fmax(0, fmin(1, r->induction[(size_t)e * heads + k]));
            int level = (int)(v * 7.999);
            if (term->utf8) {
                memcpy(line + at, bars[level], strlen(bars[level]));
                at += strlen(bars[level]);
            } else {
                line[at++] = ascii[level];
            }
        }
        line[at] = '\0';
        int mark = now >= TRAINER_INDUCTION_MARK;
        ui_put(&term->cv, y, x0 + 7, width, mark ? tui_attr(term, C_RIGHT) : tui_attr(term, C_HINT), line);
        if (now_ind)
            ui_putf(&term->cv, y, x0 + 7 + width + 1, 5, mark ? tui_attr(term, C_RIGHT) : (int)A_NORMAL, "%.2f", now);
        else if (row == 0)
            ui_put(&term->cv, y, x0 + 7, width, tui_attr(term, C_DIM), "measured at each evaluation");
    }
    /* a run that ended with no copying head: how to watch one form (the
     * whole of it in train.log and on the command line's last lines) */
    char note[600], wrapped[800], line[200];
    if (s->finished && trainer_induction_note(s->t, note, sizeof note)) {
        snprintf(note, sizeof note, "No head reached %.1f. To watch one form, train on lines said twice: --data "
                 "models/tinyshakespeare-twice.txt", TRAINER_INDUCTION_MARK);
        text_wrap(wrapped, sizeof wrapped, note, w);
        const char *p = wrapped;
        for (int y = y0 + 2 + rows; y < y0 + h && (p = text_line(p, line, sizeof line)) != NULL; y++)
            ui_put(&term->cv, y, x0, w, tui_attr(term, C_HINT), line);
    }
}

/* Every head's attention on the probe text, two pixels a cell. */
static void draw_probe(TuiTerm *term, const TrainScreen *s, int y0, int h)
{
    const GptShape *g = &trainer_run(s->t)->set.shape;
    int n = s->probe_n;
    ui_putf(&term->cv, y0, 1, term->cols - 2, tui_attr(term, C_PANE_TITLE), "every head on \"%.22s...\", twice: a "
            "copying head lights a band", probe_text);
    int tile = imax(4, imin(n, (term->cols - 5) / g->heads - 1)), rows = imax(1, (h - 1) / g->layers - 1);
    for (int l = 0; l < g->layers; l++) {
        int y = y0 + 1 + l * (rows + 1);
        if (y + rows >= y0 + h)
            break;
        ui_putf(&term->cv, y, 0, 4, tui_attr(term, C_DIM), "L%d", l + 1);
        for (int hd = 0; hd < g->heads; hd++) {
            int x = 4 + hd * (tile + 1);
            if (x + tile > term->cols)
                break;
            tui_pixels_matrix(term, y, x, rows, tile, s->probe + ((size_t)l * g->heads + hd) * n * n, n);
        }
    }
}

static void train_draw(TuiTerm *term, void *self)
{
    TrainScreen *s = self;
    const TrainRun *r = trainer_run(s->t);
    const GptShape *g = &r->set.shape;
    s->last_frame = now_s();
    if (s->note[0] && strcmp(term->message, s->note) == 0)
        s->note_seen = 1;
    /* the rate of the steps since the last evaluation until one measures it */
    double rate = s->rate > 0 ? s->rate : trainer_rate_now(s->t), left = trainer_seconds_left(s->t, rate);
    const char *dot = ui_glyph(&term->cv, "·", "-");
    char state[48] = "";
    if (s->finished)
        snprintf(state, sizeof state, "done");
    else if (s->paused)
        snprintf(state, sizeof state, "paused (p)");
    else if (rate > 0)
        snprintf(state, sizeof state, "%.0fm%02.0fs left", floor(left / 60), fmod(left, 60));
    /* one line, cut at a word where it does not fit: the parts never run
     * into each other */
    ui_fill(&term->cv, 0, 0, term->cols, tui_attr(term, C_TITLE));
    ui_putf(&term->cv, 0, 1, term->cols - 2, tui_attr(term, C_TITLE), "attn train %s step %lld/%lld %s %s %s %.0f "
            "tokens/s %s %d layers x %d heads x %d", dot, (long long)r->step, (long long)r->set.steps, dot, state, dot,
            rate, dot, g->layers, g->heads, g->d);
    int top_h = imax(6, (term->rows - 4) / 2), half = term->cols / 2;
    draw_curves(term, r, 2, 1, top_h, half - 2);
    draw_induction(term, s, 2, half + 1, top_h, term->cols - half - 2);
    int probe_y = 2 + top_h + 1;
    draw_probe(term, s, probe_y, term->rows - probe_y - 2);
    char shown[200];
    size_t k = 0;
    for (size_t i = 0; s->sample[i] && k + 4 < sizeof shown; i++) {
        unsigned char c = (unsigned char)s->sample[i];
        if (c == '\n') {
            const char *arrow = ui_glyph(&term->cv, "↵", "/");
            memcpy(shown + k, arrow, strlen(arrow));
            k += strlen(arrow);
        } else {
            shown[k++] = c < 0x20 || c >= 0x7f ? '?' : (char)c;
        }
    }
    shown[k] = '\0';
    ui_putf(&term->cv, term->rows - 2, 1, term->cols - 2, tui_attr(term, C_DIM), "it writes: ROMEO:%s", shown);
    tui_keybar_draw(term, &(KeyBarWant){ .where = KEYS_MODEL, .alert = NULL, .model_keys = 0 });
}

static void train_close(void *self) { train_screen_free(self); }

const TuiScreen tui_screen_train = { .name = "train", .key = train_key, .prepare = tui_prepare_min_size,
                                     .draw = train_draw, .idle = train_idle, .tick = train_tick,
                                     .at_exit = train_at_exit,
                                     .close = train_close };
