/*
 * tui_model_effect.c - testing what a head does, on the model screen
 * (tui_model_view.h; the numbers are app/models/model_effect.h's, the same
 * `attn model --ablate/--patch/--lens/--attribution` prints):
 *   - x takes the chosen head out (its output zeros) or puts it back; P
 *     asks for a second text of as many tokens and patches the head from
 *     it. While a head is changed, the heads and the head show a strip
 *     (tui_model_strip.c);
 *   - L, the logit lens: layers down (0 the embeddings), positions across,
 *     each cell the top token of the stream there through the final norm
 *     and the unembedding, its probability as heat;
 *   - A, the attribution: a bar a head and an MLP for its direct share of
 *     the top next token's logit, the largest first.
 * Enter explains the number under the cursor in the message line.
 */
#include "tui_model_view.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "minmax.h"
#include "model_effect.h"
#include "text.h"
#include "tui_keys.h"
#include "tui_term.h"

#define LENS_TOP 3          /* title, the cursor's cell, layer numbers */
#define LENS_CELL 7         /* columns a position in the lens */
#define LENS_LABEL 9        /* "layer 12 " */

/* ---- x and P ---------------------------------------------------------- */

/* The look with head (layer, head) edited as how (-1: not edited), a
 * message saying what the loss did. */
static void set_edit(TuiTerm *term, ModelScreen *m, int how)
{
    ModelLook *lk = &m->look;
    ModelHeadEdit *ed = malloc((size_t)(lk->n_edits + 1) * sizeof *ed);
    char why[1200], said[300];
    if (!ed) {
        tui_message(term, 1, "out of memory");
        return;
    }
    int n = 0;
    for (int i = 0; i < lk->n_edits; i++)
        if (lk->edits[i].layer != m->layer || lk->edits[i].head != m->head)
            ed[n++] = lk->edits[i];
    if (how >= 0)
        ed[n++] = (ModelHeadEdit){ .layer = m->layer, .head = m->head, .how = (ModelEditHow)how };
    double before = 0, after = 0;
    if (model_effect_base(lk, why, sizeof why) != 0 || model_effect_edit(lk, ed, n, why, sizeof why) != 0
        || !model_effect_losses(lk, &after, why, sizeof why)) {
        tui_message(term, 1, "%s", why);
    } else {
        before = lk->base_loss;
        if (how < 0)
            tui_message(term, 0, "L%dH%d is back: loss %.4f (%s)", m->layer + 1, m->head + 1, after,
                        lk->n_edits ? model_edits_said(lk, said, sizeof said) : "the model as it is");
        else
            tui_message(term, 0, "L%dH%d %s: loss %.4f -> %.4f (%+.4f); x puts it back", m->layer + 1, m->head + 1,
                        how == MODEL_EDIT_GIVEN ? "patched from the second text" : "taken out (zeros)", before, after,
                        after - before);
    }
    free(ed);
}

/* P: the second text typed as t types a text, begun on the text shown;
 * after a refusal on this same text, on the one refused, to mend. */
static void start_patch(ModelScreen *m)
{
    int mend = m->patch_mend[0] && strcmp(m->patch_mend_for, m->text) == 0;
    model_type_start(m, TYPING_PATCH, mend ? m->patch_mend : m->text);
}

void model_effect_patch(TuiTerm *term, ModelScreen *m)
{
    ModelLook *lk = &m->look;
    char why[1200];
    int n = 0, *ids = model_look_encode(lk, m->typed.text, 0, &n, why, sizeof why);
    m->patch_mend[0] = '\0';
    if (!ids || n != lk->n) {
        /* kept for P to bring back to mend, while the text is this one */
        snprintf(m->patch_mend, sizeof m->patch_mend, "%s", m->typed.text);
        snprintf(m->patch_mend_for, sizeof m->patch_mend_for, "%s", m->text);
    }
    if (!ids) {
        tui_message(term, 1, "the second text: %s", why);
    } else if (n != lk->n) {
        tui_message(term, 1, "the second text is %d tokens and the text %d: a patch needs as many (P brings it back "
                    "to mend)", n, lk->n);
    } else if (model_effect_base(lk, why, sizeof why) != 0 || model_effect_source(lk, ids, n, why, sizeof why) != 0) {
        tui_message(term, 1, "%s", why);
    } else {
        set_edit(term, m, MODEL_EDIT_GIVEN);
    }
    free(ids);
}

void model_effect_said(TuiTerm *term, ModelScreen *m)
{
    if (m->look.patches_dropped)
        tui_message(term, 0, "%d tokens; the patched heads are as they were again: the second text has %d (P patches "
                    "from one of as many)", m->look.n, m->look.source_n);
}

/* ---- L, the lens ------------------------------------------------------- */

static int lens_shown(const TuiTerm *term)
{
    return imax(1, (term->cols - LENS_LABEL - 1) / LENS_CELL);
}

/* "after layer 3" or "after the embeddings" into buf. */
static const char *after_layer(int l, char *buf, size_t size)
{
    if (l)
        snprintf(buf, size, "after layer %d", l);
    else
        snprintf(buf, size, "after the embeddings");
    return buf;
}

static void lens_explain(TuiTerm *term, ModelScreen *m)
{
    ModelLook *lk = &m->look;
    int ids[3], l = m->lens_layer, i = m->lens_pos, L = lk->md.cfg.layers;
    double p[3];
    char why[600], tok[3][96], at[96], where[40];
    if (model_effect_lens(lk, l, i, 3, ids, p, why, sizeof why) != 0) {
        tui_message(term, 1, "%s", why);
        return;
    }
    for (int j = 0; j < 3; j++)
        model_look_label(lk, ids[j], term->utf8, tok[j], sizeof tok[j]);
    model_look_label(lk, lk->ids[i], term->utf8, at, sizeof at);
    tui_message(term, 0, "%s %.4f, %s %.4f, %s %.4f: the stream %s at token %d %s, through the final norm and the "
                "unembedding%s", tok[0], p[0], tok[1], p[1], tok[2], p[2], after_layer(l, where, sizeof where), i + 1,
                at, l == L ? " (the last layer's: the model's own next token)" : ", as if no layer came after");
}

/* Below the grid: the cursor's cell, its top tokens as bars. */
static void lens_cell(TuiTerm *term, ModelScreen *m, int y)
{
    ModelLook *lk = &m->look;
    int k = imin(5, imin(term->rows - 1 - y - 1, lk->md.cfg.vocab)), ids[5];
    double p[5];
    char why[600], tok[96], where[40];
    if (k < 1 || model_effect_lens(lk, m->lens_layer, m->lens_pos, k, ids, p, why, sizeof why) != 0)
        return;
    model_look_label(lk, lk->ids[m->lens_pos], term->utf8, tok, sizeof tok);
    ui_putf(&term->cv, y, 1, term->cols - 2, tui_attr(term, C_PANE_TITLE), "%s, at token %d %s:",
            after_layer(m->lens_layer, where, sizeof where), m->lens_pos + 1, tok);
    int bw = imax(8, imin(40, term->cols - 40));
    for (int r = 0; r < k; r++) {
        int units = (int)lround(p[r] * bw);
        model_look_label(lk, ids[r], term->utf8, tok, sizeof tok);
        ui_putf(&term->cv, y + 1 + r, 3, 12, tui_attr(term, C_LABEL), "%s", tok);
        for (int c = 0; c < units; c++)
            ui_put(&term->cv, y + 1 + r, 16 + c, 1, tui_attr(term, C_HINT), ui_glyph(&term->cv, "█", "#"));
        ui_putf(&term->cv, y + 1 + r, 17 + bw, 20, A_NORMAL, "%.4f  (id %d)", p[r], ids[r]);
    }
}

void model_effect_prepare(TuiTerm *term, ModelScreen *m)
{
    ModelLook *lk = &m->look;
    int L = lk->md.cfg.layers, shown = lens_shown(term);
    m->lens_layer = imax(0, imin(L, m->lens_layer));
    m->lens_pos = imax(0, imin(lk->n - 1, m->lens_pos));
    if (m->lens_pos < m->lens_left)
        m->lens_left = m->lens_pos;
    if (m->lens_pos >= m->lens_left + shown)
        m->lens_left = m->lens_pos - shown + 1;
    m->lens_left = imax(0, imin(m->lens_left, lk->n - shown));
    int rows = L * lk->md.cfg.heads + L + 1, room = term->rows - 4 - 4;     /* the attribution's */
    m->attr_row = imax(0, imin(rows - 1, m->attr_row));
    if (m->attr_row < m->attr_top)
        m->attr_top = m->attr_row;
    if (m->attr_row >= m->attr_top + room)
        m->attr_top = m->attr_row - room + 1;
}

static void lens_draw(TuiTerm *term, ModelScreen *m)
{
    ModelLook *lk = &m->look;
    int L = lk->md.cfg.layers, shown = lens_shown(term), rows = term->rows - LENS_TOP - 1;
    int first_layer = imax(0, imin(m->lens_layer - rows / 2, L + 1 - rows));
    char why[600], label[96];
    ui_fill(&term->cv, 0, 0, term->cols, tui_attr(term, C_TITLE));
    ui_putf(&term->cv, 0, 1, term->cols - 2, tui_attr(term, C_TITLE), "attn: %s %s the logit lens: what each layer "
            "would say comes next, were it the last", lk->name, ui_glyph(&term->cv, "·", "-"));
    ui_putf(&term->cv, 1, 1, term->cols - 2, tui_attr(term, C_HINT), "layers down (0: the embeddings), tokens across; "
            "each cell the top next token and its %%, as heat; Enter explains%s", lk->n_edits ? " (heads changed)" : "");
    for (int i = m->lens_left; i < imin(lk->n, m->lens_left + shown); i++) {
        model_look_label(lk, lk->ids[i], term->utf8, label, sizeof label);
        ui_putf(&term->cv, 2, LENS_LABEL + (i - m->lens_left) * LENS_CELL, LENS_CELL - 1, i == m->lens_pos
                ? tui_attr(term, C_SELECTED) : tui_attr(term, C_DIM), "%d %s", i + 1, label);
    }
    int last = first_layer;
    for (int l = first_layer; l <= L && LENS_TOP + l - first_layer < term->rows - 1; l++) {
        last = LENS_TOP + l - first_layer;
        int y = LENS_TOP + l - first_layer;
        ui_putf(&term->cv, y, 0, LENS_LABEL - 1, l == m->lens_layer ? tui_attr(term, C_SELECTED)
                : tui_attr(term, C_LABEL), "layer %d", l);
        for (int i = m->lens_left; i < imin(lk->n, m->lens_left + shown); i++) {
            float p;
            int id = model_effect_lens_top(lk, l, i, &p, why, sizeof why), x = LENS_LABEL + (i - m->lens_left) * LENS_CELL;
            if (id < 0) {
                ui_putf(&term->cv, y, x, term->cols - x - 1, tui_attr(term, C_ERROR), "%s", why);
                return;
            }
            int cursor = l == m->lens_layer && i == m->lens_pos;
            int attr = cursor ? tui_attr(term, C_CURSOR) : tui_heat_seq(term, p);
            model_look_label(lk, id, term->utf8, label, sizeof label);
            ui_fill(&term->cv, y, x, LENS_CELL - 1, attr);
            ui_put(&term->cv, y, x, 3, attr, label);
            ui_putf(&term->cv, y, x + 3, LENS_CELL - 4, attr, "%3d", (int)lround(fmin(99, 100 * p)));
        }
    }
    lens_cell(term, m, last + 2);
}

/* ---- A, the attribution ------------------------------------------------- */

/* The rows of the attribution, largest |share| first: a head (l, h), an
 * MLP (l, -1) or the rest (-1, -1), and its share. */
typedef struct {
    int layer, head;
    double share;
} Part;

static int by_size(const void *a, const void *b)
{
    double x = fabs(((const Part *)a)->share), y = fabs(((const Part *)b)->share);
    return x < y ? 1 : x > y ? -1 : 0;
}

static Part *parts_of(const ModelAttribution *a, int L, int H, int *n)
{
    Part *p = malloc((size_t)(L * H + L + 1) * sizeof *p);
    if (!p)
        return NULL;
    *n = 0;
    for (int l = 0; l < L; l++) {
        for (int h = 0; h < H; h++)
            p[(*n)++] = (Part){ l, h, a->heads[l * H + h] };
        p[(*n)++] = (Part){ l, -1, a->mlps[l] };
    }
    p[(*n)++] = (Part){ -1, -1, a->rest };
    qsort(p, (size_t)*n, sizeof *p, by_size);
    return p;
}

static const char *part_name(const Part *p, char *buf, size_t size)
{
    if (p->layer < 0)
        snprintf(buf, size, "rest");
    else if (p->head < 0)
        snprintf(buf, size, "MLP %d", p->layer + 1);
    else
        snprintf(buf, size, "L%dH%d", p->layer + 1, p->head + 1);
    return buf;
}

/* The attribution into *a and its parts sorted, or NULL with the message
 * said. */
static Part *attribution(TuiTerm *term, ModelScreen *m, const ModelAttribution **a, int *n)
{
    char why[600];
    const ModelConfig *c = &m->look.md.cfg;
    if (!(*a = model_effect_attribution(&m->look, why, sizeof why))) {
        ui_putf(&term->cv, 2, 1, term->cols - 2, tui_attr(term, C_ERROR), "%s", why);
        return NULL;
    }
    return parts_of(*a, c->layers, c->heads, n);
}

/* What row r of the attribution is, in words, into buf. */
static const char *part_explained(const ModelScreen *m, const ModelAttribution *a, const Part *p, int n, int r,
                                  int utf8, char *buf, size_t size)
{
    char tok[96], name[32];
    double heads = 0, mlps = 0;
    for (int i = 0; i < n; i++)
        if (p[i].layer >= 0)
            *(p[i].head < 0 ? &mlps : &heads) += p[i].share;
    model_look_label(&m->look, a->token, utf8, tok, sizeof tok);
    const char *what = p[r].layer < 0 ? "the embeddings, the output projections' biases and the final norm's bias"
                     : p[r].head < 0  ? "its output at the last token, less its projection's bias"
                                      : "its output at the last token through its rows of the output projection";
    snprintf(buf, size, "%s gives %+.4f of %s's logit %.4f (%.0f%%): %s, %s by the final norm's scale %.4f (frozen), "
             "dotted with gamma times %s's unembedding. Heads %+.4f, MLPs %+.4f, rest %+.4f: the logit.",
             part_name(&p[r], name, sizeof name), p[r].share, tok, a->logit,
             100 * p[r].share / (a->logit != 0 ? a->logit : 1), what,
             m->look.md.cfg.kind == FAMILY_GPT2 ? "centred and divided" : "divided", a->scale, tok, heads, mlps,
             a->rest);
    return buf;
}

#define ATTR_EXPLAIN 4      /* the rows under the bars that say what the chosen one is */

static void attribution_draw(TuiTerm *term, ModelScreen *m)
{
    ModelLook *lk = &m->look;
    const ModelAttribution *a;
    int n;
    char tok[96], name[32], big[32], head[32], said[700];
    ui_fill(&term->cv, 0, 0, term->cols, tui_attr(term, C_TITLE));
    Part *p = attribution(term, m, &a, &n);
    if (!p)
        return;
    int top_head = 0;
    while (top_head < n - 1 && (p[top_head].layer < 0 || p[top_head].head < 0))
        top_head++;
    model_look_label(lk, a->token, term->utf8, tok, sizeof tok);
    ui_putf(&term->cv, 0, 1, term->cols - 2, tui_attr(term, C_TITLE), "attn: %s %s who says %s comes next (logit "
            "%.4f), part by part", lk->name, ui_glyph(&term->cv, "·", "-"), tok, a->logit);
    ui_putf(&term->cv, 1, 1, term->cols - 2, tui_attr(term, C_HINT), "the largest: %s %+.4f; of the heads %s %+.4f%s",
            part_name(&p[0], big, sizeof big), p[0].share, part_name(&p[top_head], head, sizeof head),
            p[top_head].share, lk->n_edits ? " (* changed)" : "");
    double most = fmax(1e-9, fabs(p[0].share));
    int bw = imax(8, term->cols - 30), half = bw / 2, bottom = term->rows - 1 - ATTR_EXPLAIN;
    for (int r = m->attr_top, y = 3; r < n && y < bottom; r++, y++) {
        int sel = r == m->attr_row, len = (int)lround(fabs(p[r].share) / most * (half - 1));
        int is_head = p[r].layer >= 0 && p[r].head >= 0, how = is_head ? model_effect_of(lk, p[r].layer, p[r].head) : -1;
        ui_putf(&term->cv, y, 1, 10, sel ? tui_attr(term, C_SELECTED) : tui_attr(term, C_LABEL), "%s%s",
                part_name(&p[r], name, sizeof name), how >= 0 ? "*" : "");
        int x0 = 12 + half, attr = p[r].share >= 0 ? tui_attr(term, C_RIGHT) : tui_attr(term, C_WRONG);
        for (int k = 0; k < len; k++)
            ui_put(&term->cv, y, p[r].share >= 0 ? x0 + k : x0 - 1 - k, 1, attr,
                   ui_glyph(&term->cv, "█", p[r].share >= 0 ? "+" : "-"));
        ui_put(&term->cv, y, x0, 1, tui_attr(term, C_DIM), ui_glyph(&term->cv, "│", "|"));
        ui_putf(&term->cv, y, 12 + bw + 1, term->cols - bw - 14, sel ? tui_attr(term, C_SELECTED) : (int)A_NORMAL,
                "%+.4f", p[r].share);
    }
    char wrapped[900];
    text_wrap(wrapped, sizeof wrapped, part_explained(m, a, p, n, imin(m->attr_row, n - 1), term->utf8, said,
                                                      sizeof said), term->cols - 4);
    ui_lines(&term->cv, wrapped, (Rect){ 1, bottom, term->cols - 2, ATTR_EXPLAIN }, tui_attr(term, C_HINT),
             tui_attr(term, C_DIM), "…");
    free(p);
}

static void attribution_explain(TuiTerm *term, ModelScreen *m)
{
    const ModelAttribution *a;
    int n;
    char said[700];
    Part *p = attribution(term, m, &a, &n);
    if (!p)
        return;
    tui_message(term, 0, "%s", part_explained(m, a, p, n, imin(m->attr_row, n - 1), term->utf8, said, sizeof said));
    free(p);
}

void model_effect_draw(TuiTerm *term, ModelScreen *m)
{
    if (m->view == MODEL_LENS)
        lens_draw(term, m);
    else
        attribution_draw(term, m);
}

/* ---- keys ---------------------------------------------------------------- */

static void open_view(ModelScreen *m, ModelView v)
{
    if (m->view != MODEL_LENS && m->view != MODEL_ATTRIBUTION)
        m->from = m->view;
    m->view = v;
    if (v == MODEL_LENS) {
        m->lens_layer = m->look.md.cfg.layers;
        m->lens_pos = m->from == MODEL_HEAD ? m->query : m->look.n - 1;
    } else {
        m->attr_row = m->attr_top = 0;
    }
}

int model_effect_key(TuiTerm *term, ModelScreen *m, int action)
{
    TuiAction a = (TuiAction)action;
    int fx = m->view == MODEL_LENS || m->view == MODEL_ATTRIBUTION;
    switch (a) {
    case ACT_ABLATE:
        if (fx)
            return 1;
        set_edit(term, m, model_effect_of(&m->look, m->layer, m->head) >= 0 ? -1 : MODEL_EDIT_ZERO);
        return 1;
    case ACT_PATCH:
        if (!fx)
            start_patch(m);
        return 1;
    case ACT_LENS:
    case ACT_ATTRIBUTION:
        open_view(m, a == ACT_LENS ? MODEL_LENS : MODEL_ATTRIBUTION);
        return 1;
    default:
        break;
    }
    if (!fx)
        return 0;
    int L = m->look.md.cfg.layers;
    switch (a) {
    case ACT_BACK:
        m->view = m->from;
        return 1;
    case ACT_UP: case ACT_DOWN:
        if (m->view == MODEL_LENS)
            m->lens_layer += a == ACT_UP ? -1 : 1;
        else
            m->attr_row += a == ACT_UP ? -1 : 1;
        return 1;
    case ACT_LEFT: case ACT_RIGHT:
        if (m->view == MODEL_LENS)
            m->lens_pos += a == ACT_LEFT ? -1 : 1;
        return 1;
    case ACT_FIRST: case ACT_LAST:
        if (m->view == MODEL_LENS)
            m->lens_pos = a == ACT_FIRST ? 0 : m->look.n - 1;
        else
            m->attr_row = a == ACT_FIRST ? 0 : L * (m->look.md.cfg.heads + 1);
        return 1;
    case ACT_SELECT:
        if (m->view == MODEL_LENS)
            lens_explain(term, m);
        else
            attribution_explain(term, m);
        return 1;
    case ACT_QUIT: case ACT_HELP: case ACT_RELOAD:
        return 0;
    default:
        return 1;   /* the heads' keys (t, l, w) wait for Esc */
    }
}
