/*
 * tui_model_strip.c - the strip the heads and one head show while a head
 * is changed (x, P; tui_model_effect.c): the text's loss before and after,
 * the next token's top before and after, and under the tokens a coloured
 * cell each for how much harder (red) or easier (blue) that token became
 * to foretell; and what Enter on a weight adds of it. The numbers are
 * app/models/model_effect.h's.
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

#define STRIP_ROWS 4        /* the loss, the tokens, their cells, the next token */
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

int model_effect_rows(const TuiTerm *term, const ModelScreen *m)
{
    return m->look.n_edits > 0 && term->rows >= 20 ? STRIP_ROWS : 0;
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
    /* the tokens, and under each the change of its own loss (the first
     * token is foretold by nothing) */
    double most = 1e-9;
    for (int i = 0; i + 1 < lk->n; i++)
        most = fmax(most, fabs(l[i] - lk->base_losses[i]));
    int x = 1, w = term->cols - 1;
    for (int i = 0; i < lk->n; i++) {
        model_look_label(lk, lk->ids[i], term->utf8, label, sizeof label);
        int lw = imax(1, fmt_display_width(label));
        if (x + lw > w)
            break;
        ui_put(&term->cv, y + 1, x, lw, i == m->query && m->view == MODEL_HEAD ? tui_attr(term, C_SELECTED)
               : tui_attr(term, C_LABEL), label);
        if (i > 0) {
            float t = (float)((l[i - 1] - lk->base_losses[i - 1]) / most);
            int attr = tui_heat_div(term, t);
            ui_fill(&term->cv, y + 2, x, lw, attr);
            if (term->color == COLORS_NONE)
                for (int c = 0; c < lw; c++)
                    ui_put(&term->cv, y + 2, x + c, 1, attr, ramp_shade_signed(t, term->utf8));
        }
        x += lw + 1;
    }
    ui_putf(&term->cv, y + 3, 1, term->cols - 2, tui_attr(term, C_HINT), "next token: before %s  %s  after %s",
            top_said(term, lk, lk->base_logits, before, sizeof before), ui_glyph(&term->cv, "→", "->"),
            top_said(term, lk, lk->run.logits, after, sizeof after));
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
