/*
 * tui_model_strip.c - the strip the heads and one head show while a head
 * is changed (x, P; tui_model_effect.c): the text's loss before and after,
 * the next token's top before and after, and under the tokens a coloured
 * cell each for how much harder (red) or easier (blue) that token became
 * to foretell, the tokens in lines that fit the width (as many as a tall
 * terminal has room for; where they do not all fit, the lines with the
 * text's end, or the head's query, the cut marked); and what Enter on a
 * weight adds of it. The numbers are app/models/model_effect.h's.
 */
#include "tui_model_view.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "minmax.h"
#include "model_effect.h"
#include "ramp.h"
#include "tui_term.h"

#define STRIP_TEXT_ROWS 2   /* the strip's loss and next token, around its lines */
#define STRIP_LINES_TALL 3  /* lines of tokens (each with its cells) on a tall terminal */
#define NEXT_K 3

static const char *edit_word(int how)
{
    return how == MODEL_EDIT_ZERO ? "zeros" : how == MODEL_EDIT_MEAN ? "its mean" : "patched";
}

const char *model_edits_said(const ModelLook *lk, char *buf, size_t size)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < lk->n_edits && k + 1 < size; i++)
        k += (size_t)snprintf(buf + k, size - k, "%sL%dH%d %s", i ? ", " : "", lk->edits[i].layer + 1,
                              lk->edits[i].head + 1, edit_word(lk->edits[i].how));
    return buf;
}

/* The strip's tokens laid in at most `most` lines of the columns [x0,
 * end): forward from token `at`, or (back) backward from it, so its line
 * is full. Each token's line (-1: not in them), column and width are set
 * (line NULL: only counted); the lines filled into *used; the token at
 * the other end returned. */
static int strip_fill(const TuiTerm *term, const ModelLook *lk, int x0, int end, int most, int at, int back,
                      int *line, int *col, int *width, int *used)
{
    char label[96];
    int n = lk->n, l = 0, room = 0, other = at, step = back ? -1 : 1;
    for (int i = 0; line && i < n; i++)
        line[i] = -1;
    for (int i = at; i >= 0 && i < n; i += step) {
        model_look_label(lk, lk->ids[i], term->utf8, label, sizeof label);
        int lw = imax(1, imin(end - x0, fmt_display_width(label)));
        if (room > 0 && room + lw > end - x0) {
            if (++l == most)
                break;
            room = 0;
        }
        if (line)
            line[i] = l, width[i] = lw;
        room += lw + 1;
        other = i;
    }
    *used = imin(l + 1, most);
    for (int i = 0, x = x0, prev = -1; line && i < n; i++) {
        if (line[i] < 0)
            continue;
        if (back)
            line[i] = *used - 1 - line[i];
        if (line[i] != prev)
            x = x0, prev = line[i];
        col[i] = x;
        x += width[i] + 1;
    }
    return other;
}

/* The lines of tokens the strip shows (several on a tall terminal), and
 * whether they hold every token: where they do not, the tokens are laid
 * inside a column at each side for the marks of the cut. */
static int strip_lines(const TuiTerm *term, const ModelLook *lk, int *whole)
{
    int most = term->rows >= 40 ? STRIP_LINES_TALL : 1, used;
    *whole = strip_fill(term, lk, 1, term->cols - 1, most, 0, 0, NULL, NULL, NULL, &used) == lk->n - 1;
    return *whole ? used : most;
}

int model_effect_rows(const TuiTerm *term, const ModelScreen *m)
{
    int whole;
    if (m->look.n_edits == 0 || term->rows < 20)
        return 0;
    return STRIP_TEXT_ROWS + 2 * strip_lines(term, &m->look, &whole);
}

/* The strip's tokens laid out for its lines: every one when they fit;
 * else the lines that hold the token in focus (the head's query, else the
 * last): from the first token when it is there, else up to the last (its
 * line full) when it is there, else up to it. */
static void strip_place(const TuiTerm *term, const ModelScreen *m, int whole, int shown, int *line, int *col,
                        int *width)
{
    const ModelLook *lk = &m->look;
    int x0 = whole ? 1 : 3, end = whole ? term->cols - 1 : term->cols - 3, used;
    int focus = m->view == MODEL_HEAD ? imax(0, imin(lk->n - 1, m->query)) : lk->n - 1;
    if (strip_fill(term, lk, x0, end, shown, 0, 0, line, col, width, &used) >= focus)
        return;
    if (strip_fill(term, lk, x0, end, shown, lk->n - 1, 1, line, col, width, &used) <= focus)
        return;
    strip_fill(term, lk, x0, end, shown, focus, 1, line, col, width, &used);
}

/* The top k of z as "tok 94%  tok 1%" into buf. */
static const char *top_said(const TuiTerm *term, ModelLook *lk, const float *z, char *buf, size_t size)
{
    int ids[NEXT_K];
    double p[NEXT_K];
    char tok[96];
    size_t k = 0;
    model_look_top(lk, z, 1.0, imin(NEXT_K, lk->md.cfg.vocab), ids, p);
    buf[0] = '\0';
    for (int j = 0; j < imin(NEXT_K, lk->md.cfg.vocab) && k + 1 < size; j++)
        k += (size_t)snprintf(buf + k, size - k, "%s%s %.0f%%", j ? "  " : "",
                              model_look_label(lk, ids[j], term->utf8, tok, sizeof tok), 100 * p[j]);
    return buf;
}

void model_effect_strip(TuiTerm *term, ModelScreen *m, int y)
{
    ModelLook *lk = &m->look;
    char why[600], said[300], before[200], after[200], label[96];
    double loss;
    const double *l = model_effect_losses(lk, &loss, why, sizeof why);
    if (!l || model_effect_base(lk, why, sizeof why) != 0) {
        ui_putf(&term->cv, y, 1, term->cols - 2, tui_attr(term, C_ERROR), "%s", why);
        return;
    }
    l = model_effect_losses(lk, &loss, why, sizeof why);     /* the base may have made a pass */
    if (!l)
        return;
    ui_putf(&term->cv, y, 1, term->cols - 2, tui_attr(term, C_PANE_TITLE), "%s: loss %.4f %s %.4f (%+.4f), the mean "
            "over %d tokens; under each, how much harder (red) or easier (blue) it got", model_edits_said(lk, said, sizeof said),
            lk->base_loss, ui_glyph(&term->cv, "→", "->"), loss, loss - lk->base_loss, lk->n - 1);
    /* the tokens in lines, and under each the change of its own loss (the
     * first token is foretold by nothing); where not all fit, the lines
     * that hold the token in focus (strip_place), the cut marked at either
     * end */
    int whole, shown = strip_lines(term, lk, &whole), from = -1, to = -1;
    int *line = malloc((size_t)lk->n * 3 * sizeof *line);
    if (!line)
        return;
    int *col = line + lk->n, *width = col + lk->n;
    strip_place(term, m, whole, shown, line, col, width);
    double most = 1e-9;
    for (int i = 0; i + 1 < lk->n; i++)
        most = fmax(most, fabs(l[i] - lk->base_losses[i]));
    for (int i = 0; i < lk->n; i++) {
        if (line[i] < 0)
            continue;
        from = from < 0 ? i : from;
        to = i;
        int ty = y + 1 + 2 * line[i], x = col[i], lw = width[i];
        model_look_label(lk, lk->ids[i], term->utf8, label, sizeof label);
        ui_put(&term->cv, ty, x, lw, i == m->query && m->view == MODEL_HEAD ? tui_attr(term, C_SELECTED)
               : tui_attr(term, C_LABEL), label);
        if (i > 0) {
            float t = (float)((l[i - 1] - lk->base_losses[i - 1]) / most);
            int attr = tui_heat_div(term, t);
            ui_fill(&term->cv, ty + 1, x, lw, attr);
            if (term->color == COLORS_NONE)
                for (int c = 0; c < lw; c++)
                    ui_put(&term->cv, ty + 1, x + c, 1, attr, ramp_shade_signed(t, term->utf8));
        }
    }
    if (from > 0)
        ui_put(&term->cv, y + 1, 1, 1, tui_attr(term, C_DIM), ui_glyph(&term->cv, "…", "<"));
    if (to >= 0 && to < lk->n - 1)
        ui_put(&term->cv, y + 2 * shown - 1, term->cols - 2, 1, tui_attr(term, C_DIM), ui_glyph(&term->cv, "…", ">"));
    free(line);
    /* the next token before and after, and where there is room beside it,
     * which tokens the lines show when not all */
    char next[500], range[48];
    int ny = y + 1 + 2 * shown;
    snprintf(next, sizeof next, "next token: before %s  %s  after %s", top_said(term, lk, lk->base_logits, before,
             sizeof before), ui_glyph(&term->cv, "→", "->"), top_said(term, lk, lk->run.logits, after, sizeof after));
    ui_put(&term->cv, ny, 1, term->cols - 2, tui_attr(term, C_HINT), next);
    snprintf(range, sizeof range, "tokens %d-%d of %d", from + 1, to + 1, lk->n);
    int rw = (int)strlen(range);
    if (!whole && 1 + fmt_display_width(next) + 2 + rw <= term->cols - 1)
        ui_put(&term->cv, ny, term->cols - 1 - rw, rw, tui_attr(term, C_DIM), range);
}

const char *model_effect_at(ModelScreen *m, int i, char *buf, size_t size)
{
    ModelLook *lk = &m->look;
    char why[300], said[300];
    double loss;
    buf[0] = '\0';
    if (lk->n_edits == 0 || i + 1 >= lk->n || model_effect_base(lk, why, sizeof why) != 0)
        return buf;
    const double *l = model_effect_losses(lk, &loss, why, sizeof why);
    if (l)
        snprintf(buf, size, "; with %s, the next token's loss went %.4f -> %.4f", model_edits_said(lk, said, sizeof said),
                 lk->base_losses[i], l[i]);
    return buf;
}
