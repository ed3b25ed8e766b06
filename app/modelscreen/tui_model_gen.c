/*
 * tui_model_gen.c - g on a model: text generated after the text, a token
 * at a time, at a pace a person can follow (Space one token, Enter runs on
 * a token a tick until any key), by the one generator (look_gen.h). Shown:
 * the text with what was generated highlighted, the newest most; the
 * knobs (temperature, top-k, top-p: K picks one, < and > change it); the
 * next token's distribution before its draw, the kept set marked (p, q
 * and what they are), and the one the last token was drawn from with the
 * drawn token marked; where the
 * newest token looked in the chosen head, as bars over the tokens; the
 * key/value cache as a table that grows a row a token; and the tokens a
 * second with the cache and without it (the whole sequence again), side by
 * side. a keeps the text (tui_model.c), so every view reads it.
 */
#include "tui_model_view.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "minmax.h"
#include "tui_keys.h"
#include "tui_pixels.h"
#include "tui_term.h"

#define GEN_SEED 1

static const double temperatures[] = { 0, 0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 1.0, 1.2, 1.5, 2.0, 3.0, 5.0 };
static const int top_ks[] = { 0, 1, 2, 3, 5, 10, 20, 40, 50, 100 };
static const double top_ps[] = { 0.1, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 1.0 };
#define COUNT(a) ((int)(sizeof(a) / sizeof *(a)))

void model_gen_stop(ModelScreen *m)
{
    look_gen_end(&m->gen);
    m->running = 0;
    m->drawn = -1;
    m->drawn_from.n = 0;
}

int model_gen_enter(TuiTerm *term, ModelScreen *m)
{
    char why[600];
    if (!m->gen.gen) {
        if (look_gen_start(&m->gen, &m->look, &m->knobs, GEN_SEED, 1, 1, why, sizeof why) != 0) {
            tui_message(term, 1, "%s", why);
            return -1;
        }
        m->drawn = -1;
        m->drawn_from.n = 0;
    }
    m->running = 0;
    if (!look_gen_dist(&m->gen, why, sizeof why))
        tui_message(term, m->gen.full ? 0 : 1, "%s", why);
    return 0;
}

/* One token drawn, and the next one's distribution made: 1, or 0 when
 * none could be (said). */
static int step(TuiTerm *term, ModelScreen *m)
{
    char why[600];
    const ModelDist *d = look_gen_dist(&m->gen, why, sizeof why);
    if (!d) {
        m->running = 0;
        if (m->gen.full)
            tui_message(term, 0, "the model's context of %d tokens is full: a keeps the text",
                        m->look.md.cfg.context);
        else
            tui_message(term, 1, "%s", why);
        return 0;
    }
    int kept = d->kept, rows = imin(MODEL_DRAWN_ROWS, d->vocab);
    model_top_ids(d->p, d->vocab, rows, m->drawn_from.ids);
    for (int r = 0; r < rows; r++) {
        m->drawn_from.p[r] = d->p[m->drawn_from.ids[r]];
        m->drawn_from.q[r] = d->q[m->drawn_from.ids[r]];
    }
    m->drawn_from.n = rows;
    if (look_gen_next(&m->gen, why, sizeof why) <= 0) {
        m->running = 0;
        tui_message(term, 1, "%s", why);
        return 0;
    }
    int id = m->gen.ids[m->gen.n - 1], rank = 1;
    for (int i = 0; i < d->vocab; i++)
        rank += d->p[i] > d->p[id] || (d->p[i] == d->p[id] && i < id);
    m->drawn = id;
    m->drawn_q = m->gen.p[m->gen.n - 1];
    m->drawn_rank = rank;
    m->drawn_kept = kept;
    if (!m->gen.full && !look_gen_dist(&m->gen, why, sizeof why)) {
        m->running = 0;
        tui_message(term, 1, "%s", why);
    }
    return 1;
}

int model_gen_idle(TuiTerm *term, ModelScreen *m)
{
    if (m->view != MODEL_GEN || !m->running || !m->gen.gen)
        return 0;
    if (m->gen.full) {
        m->running = 0;
        tui_message(term, 0, "the model's context of %d tokens is full: a keeps the text", m->look.md.cfg.context);
        return 1;
    }
    step(term, m);
    return 1;
}

/* The knob picked one notch up or down its list. */
static void turn(ModelScreen *m, int up)
{
    ModelSampling *s = &m->knobs;
    int at = 0, dir = up ? 1 : -1;
    if (m->knob == KNOB_TEMPERATURE) {
        for (int i = 0; i < COUNT(temperatures); i++)
            at = temperatures[i] <= s->temperature + 1e-9 ? i : at;
        s->temperature = temperatures[imax(0, imin(COUNT(temperatures) - 1, at + dir))];
    } else if (m->knob == KNOB_TOP_K) {
        for (int i = 0; i < COUNT(top_ks); i++)
            at = top_ks[i] <= s->top_k ? i : at;
        s->top_k = top_ks[imax(0, imin(COUNT(top_ks) - 1, at + dir))];
    } else {
        for (int i = 0; i < COUNT(top_ps); i++)
            at = top_ps[i] <= s->top_p + 1e-9 ? i : at;
        s->top_p = top_ps[imax(0, imin(COUNT(top_ps) - 1, at + dir))];
    }
    if (m->gen.gen)
        look_gen_knobs(&m->gen, s);
}

int model_gen_key(TuiTerm *term, ModelScreen *m, int action)
{
    const ModelConfig *c = &m->look.md.cfg;
    switch (action) {
    case ACT_NEXT:
        step(term, m);
        return 1;
    case ACT_SELECT:
        m->running = !m->gen.full;
        tui_message(term, 0, m->gen.full ? "the model's context is full: a keeps the text"
                                         : "running on, a token a moment: any key stops");
        return 1;
    case ACT_KNOB_NEXT:
        m->knob = (m->knob + 1) % N_KNOBS;
        return 1;
    case ACT_KNOB_DOWN:
    case ACT_KNOB_UP:
        turn(m, action == ACT_KNOB_UP);
        return 1;
    case ACT_UP:
    case ACT_DOWN:
        m->layer = imax(0, imin(c->layers - 1, m->layer + (action == ACT_UP ? -1 : 1)));
        return 1;
    case ACT_LEFT:
    case ACT_RIGHT:
        m->head = imax(0, imin(c->heads - 1, m->head + (action == ACT_LEFT ? -1 : 1)));
        return 1;
    default:
        return 0;
    }
}

/* ---- drawing ---------------------------------------------------------- */

/* A token's text as it reads in running text into buf: its bytes, a
 * newline as a return arrow, control bytes and bytes that are not UTF-8
 * as '?'; its display width. */
static int token_text(const TuiTerm *term, const ModelScreen *m, int id, char *buf, size_t size)
{
    char label[128];
    model_look_label(&m->look, id, term->utf8, label, sizeof label);
    /* the label's dots stand for spaces: in running text, spaces */
    size_t k = 0;
    const char *dot = term->utf8 ? "·" : "_";
    for (const char *p = label; *p && k + 4 < size;) {
        if (strncmp(p, dot, strlen(dot)) == 0) {
            buf[k++] = ' ';
            p += strlen(dot);
        } else {
            buf[k++] = *p++;
        }
    }
    buf[k] = '\0';
    return fmt_display_width(buf);
}

/* The text and what was generated in rows y .. y + rows - 1, wrapped at
 * the width, the last rows shown when it does not fit. */
static void draw_text(TuiTerm *term, ModelScreen *m, int y, int rows)
{
    int len = look_gen_len(&m->gen), w = term->cols - 2, prompt = m->look.n;
    const int *ids = look_gen_all(&m->gen);
    int *row_of = malloc((size_t)len * sizeof *row_of), *col_of = malloc((size_t)len * sizeof *col_of);
    if (!row_of || !col_of) {
        free(row_of), free(col_of);
        return;
    }
    char t[160];
    int r = 0, x = 0;
    for (int i = 0; i < len; i++) {
        int tw = token_text(term, m, ids[i], t, sizeof t);
        if (x + tw > w && x > 0)
            r++, x = 0;
        row_of[i] = r, col_of[i] = x;
        x += tw;
        if (m->look.md.bpe && model_look_token(&m->look, ids[i]) && strchr(model_look_token(&m->look, ids[i]), '\n'))
            r++, x = 0;
    }
    int first = imax(0, r + 1 - rows);
    for (int i = 0; i < len; i++) {
        if (row_of[i] < first || row_of[i] >= first + rows)
            continue;
        token_text(term, m, ids[i], t, sizeof t);
        int attr = i == len - 1 && i >= prompt ? tui_attr(term, C_CURSOR)
                 : i >= prompt                 ? tui_attr(term, C_EDITED) | (int)A_BOLD
                                               : (int)A_NORMAL;
        ui_put(&term->cv, y + row_of[i] - first, 1 + col_of[i], w - col_of[i], attr, t);
    }
    free(row_of), free(col_of);
}

/* The knobs: each with its value, the one picked marked. */
static void draw_knobs(TuiTerm *term, const ModelScreen *m, int y)
{
    const ModelSampling *s = &m->knobs;
    char v[3][48];
    if (s->temperature > 0)
        snprintf(v[0], sizeof v[0], "temperature %g", s->temperature);
    else
        snprintf(v[0], sizeof v[0], "temperature 0 (greedy)");
    if (s->top_k > 0)
        snprintf(v[1], sizeof v[1], "top-k %d", s->top_k);
    else
        snprintf(v[1], sizeof v[1], "top-k off");
    if (s->top_p < 1)
        snprintf(v[2], sizeof v[2], "top-p %g", s->top_p);
    else
        snprintf(v[2], sizeof v[2], "top-p off");
    int x = 1;
    for (int k = 0; k < N_KNOBS; k++) {
        int picked = k == m->knob, wd = (int)strlen(v[k]) + 2;
        ui_putf(&term->cv, y, x, wd, picked ? tui_attr(term, C_SELECTED) : tui_attr(term, C_PANE_TITLE), "%s%s",
                picked ? ui_glyph(&term->cv, "▸", ">") : " ", v[k]);
        x += wd + 1;
    }
    ui_putf(&term->cv, y, x, term->cols - x - 1, tui_attr(term, C_DIM), "seed %d %s K picks a knob, < > turn it",
            GEN_SEED, ui_glyph(&term->cv, "·", "-"));
}

/* A list of a distribution's top rows: each a mark, its label, a bar of p,
 * p and q; the kept set (q > 0) marked, mark_id's row marked as drawn. */
static void draw_dist_rows(TuiTerm *term, int y, int x, int w, int rows, const ModelScreen *m, const int *ids,
                           const double *p, const double *q, int n, int mark_id)
{
    int lw = imin(14, w / 3), bw = imax(4, w - lw - 22);
    char label[128];
    for (int r = 0; r < n && r < rows; r++) {
        int kept = q[r] > 0, drawn = ids[r] == mark_id;
        const char *mark = drawn ? ui_glyph(&term->cv, "▶", ">") : kept ? ui_glyph(&term->cv, "●", "*") : " ";
        int attr = drawn ? tui_attr(term, C_SELECTED) : kept ? tui_attr(term, C_LABEL) : tui_attr(term, C_DIM);
        ui_put(&term->cv, y + r, x, 2, attr, mark);
        model_look_label(&m->look, ids[r], term->utf8, label, sizeof label);
        ui_put(&term->cv, y + r, x + 2, lw, attr, label);
        tui_bar(term, y + r, x + 3 + lw, bw, p[r], kept ? tui_attr(term, C_HINT) : tui_attr(term, C_DIM));
        if (kept)
            ui_putf(&term->cv, y + r, x + 4 + lw + bw, w - lw - bw - 4, attr, "p %5.1f%% q %5.1f%%", 100 * p[r],
                    100 * q[r]);
        else
            ui_putf(&term->cv, y + r, x + 4 + lw + bw, w - lw - bw - 4, attr, "p %5.1f%%", 100 * p[r]);
    }
}

/* The next token's distribution before its draw. */
static void draw_next(TuiTerm *term, ModelScreen *m, int y, int x, int w, int rows)
{
    const ModelDist *d = m->gen.dist_ready ? &m->gen.dist : NULL;
    if (!d) {
        ui_put(&term->cv, y, x, w, tui_attr(term, C_DIM), m->gen.full ? "the context is full: no next token" : "");
        return;
    }
    ui_putf(&term->cv, y, x, w, tui_attr(term, C_PANE_TITLE), "next token: %d kept %s", d->kept,
            ui_glyph(&term->cv, "●", "*"));
    int n = imin(imin(MODEL_DRAWN_ROWS, rows - 2), d->vocab), ids[MODEL_DRAWN_ROWS];
    double p[MODEL_DRAWN_ROWS], q[MODEL_DRAWN_ROWS];
    model_top_ids(d->p, d->vocab, n, ids);
    for (int r = 0; r < n; r++)
        p[r] = d->p[ids[r]], q[r] = d->q[ids[r]];
    draw_dist_rows(term, y + 1, x, w, n, m, ids, p, q, n, -1);
    /* what the two columns are (the help says it too) */
    ui_putf(&term->cv, y + 1 + n, x, w, tui_attr(term, C_DIM), "q: p renormalised over the kept %s (the draw's "
            "chances); p: softmax(logits / temperature)", ui_glyph(&term->cv, "●", "*"));
}

/* The distribution the last token was drawn from, the drawn one marked. */
static void draw_drawn_from(TuiTerm *term, ModelScreen *m, int y, int x, int w, int rows)
{
    if (m->drawn < 0)
        return;
    ui_putf(&term->cv, y, x, w, tui_attr(term, C_PANE_TITLE), "the last token was drawn from %d kept %s",
            m->drawn_kept, ui_glyph(&term->cv, "▶", ">"));
    draw_dist_rows(term, y + 1, x, w, rows - 1, m, m->drawn_from.ids, m->drawn_from.p, m->drawn_from.q, m->drawn_from.n,
                   m->drawn);
}

/* Where the newest token looked in the chosen head: a bar a key, the
 * largest when they do not all fit. */
static void draw_looked(TuiTerm *term, ModelScreen *m, int y, int x, int w, int rows)
{
    int len = look_gen_len(&m->gen);
    const int *ids = look_gen_all(&m->gen);
    const float *a = look_gen_looked(&m->gen, m->layer, m->head);
    char label[200], t[128];
    model_look_label(&m->look, ids[len - 1], term->utf8, label, sizeof label);
    ui_putf(&term->cv, y, x, w, tui_attr(term, C_PANE_TITLE), "where %s looked %s layer %d head %d", label,
            ui_glyph(&term->cv, "·", "-"), m->layer + 1, m->head + 1);
    if (!a) {
        ui_put(&term->cv, y + 1, x, w, tui_attr(term, C_DIM), "computed with the next token");
        return;
    }
    int room = rows - 1, shown = 0;
    /* the keys by weight, the largest first, as many as fit, in order */
    int *order = malloc((size_t)len * sizeof *order);
    if (!order)
        return;
    for (int j = 0; j < len; j++)
        order[j] = j;
    for (int i = 1; i < len; i++)
        for (int j = i; j > 0 && a[order[j]] > a[order[j - 1]]; j--) {
            int s = order[j];
            order[j] = order[j - 1];
            order[j - 1] = s;
        }
    int keep = imin(room, len);
    float floor_w = keep < len ? a[order[keep - 1]] : -1;
    int lw = imin(16, w / 3), bw = imax(4, w - lw - 8);
    for (int j = 0; j < len && shown < room; j++) {
        if (a[j] < floor_w)
            continue;
        model_look_label(&m->look, ids[j], term->utf8, t, sizeof t);
        snprintf(label, sizeof label, "%d %s", j + 1, t);
        ui_put(&term->cv, y + 1 + shown, x, lw, j == len - 1 ? tui_attr(term, C_SELECTED) : tui_attr(term, C_LABEL),
               label);
        tui_bar(term, y + 1 + shown, x + lw + 1, bw, a[j], tui_attr(term, C_HINT));
        ui_putf(&term->cv, y + 1 + shown, x + lw + 2 + bw, 6, A_NORMAL, "%.2f", a[j]);
        shown++;
    }
    free(order);
}

/* The key/value cache: what each layer holds, and a row a token. */
static void draw_cache(TuiTerm *term, ModelScreen *m, int y, int x, int w, int rows)
{
    const ModelConfig *c = &m->look.md.cfg;
    int len = look_gen_len(&m->gen), held = m->gen.dist_ready || m->gen.full ? len : len - 1;
    long width = (long)c->kv_heads * c->head_dim, per = 2L * c->layers * width * 4;
    const int *ids = look_gen_all(&m->gen);
    char label[128];
    ui_putf(&term->cv, y, x, w, tui_attr(term, C_PANE_TITLE), "KV cache %s %zu bytes", ui_glyph(&term->cv, "·", "-"),
            model_gen_cache_bytes(m->gen.gen));
    ui_putf(&term->cv, y + 1, x, w, tui_attr(term, C_DIM), "each of %d layers: %d keys, %d values of %ld (%d x %d)",
            c->layers, held, held, width, c->kv_heads, c->head_dim);
    ui_putf(&term->cv, y + 2, x, w, tui_attr(term, C_LABEL), "  pos token        added   bytes");
    int room = rows - 3, first = imax(0, held - room);
    for (int i = first, r = 0; i < held && r < room; i++, r++) {
        model_look_label(&m->look, ids[i], term->utf8, label, sizeof label);
        ui_putf(&term->cv, y + 3 + r, x, 8, i >= m->look.n ? tui_attr(term, C_EDITED) : (int)A_NORMAL, "%5d",
                i + 1);
        ui_put(&term->cv, y + 3 + r, x + 6, 12, i >= m->look.n ? tui_attr(term, C_EDITED) : (int)A_NORMAL, label);
        ui_putf(&term->cv, y + 3 + r, x + 19, w - 19, A_NORMAL, "+%-6ld %ld", per, per * (i + 1));
    }
}

/* The tokens a second with the KV cache and without it, each a token's
 * time measured the same way (the mean of its passes after the first, on
 * the same tokens), and below, the text's first pass, apart: it reads
 * every token of the text at once, with the cache or without, and is not
 * a token's. */
static void draw_speed(TuiTerm *term, const ModelScreen *m, int y)
{
    const LookGen *g = &m->gen;
    double cached = look_gen_token_ms(g, 0), plain = look_gen_token_ms(g, 1);
    const char *dot = ui_glyph(&term->cv, "·", "|");
    if (cached > 0 && plain > 0)
        ui_putf(&term->cv, y, 1, term->cols - 2, A_NORMAL, "tokens/s with the KV cache %.0f (%.2f ms each) %s "
                "without %.0f (%.2f ms each)", 1e3 / cached, cached, dot, 1e3 / plain, plain);
    else
        ui_put(&term->cv, y, 1, term->cols - 2, A_NORMAL, "tokens/s with the KV cache and without: timed from the "
               "first token drawn");
    if (g->times.started)
        ui_putf(&term->cv, y + 1, 1, term->cols - 2, tui_attr(term, C_DIM), "the text's first pass (%d tokens): "
                "%.1f ms, apart %s the mean of %d token%s %s without the cache each reads the whole sequence "
                "again", m->look.n, g->times.first_ms, dot, g->times.passes, g->times.passes == 1 ? "" : "s", dot);
}

void model_gen_draw(TuiTerm *term, ModelScreen *m)
{
    const ModelConfig *c = &m->look.md.cfg;
    int w = term->cols;
    ui_fill(&term->cv, 0, 0, w, tui_attr(term, C_TITLE));
    ui_putf(&term->cv, 0, 1, w - 2, tui_attr(term, C_TITLE), "attn: %s %s generating %s %d + %d tokens of %d",
            m->look.name, ui_glyph(&term->cv, "·", "-"), ui_glyph(&term->cv, "·", "-"), m->look.n, m->gen.n,
            c->context);
    draw_knobs(term, m, 1);
    int text_rows = term->rows >= 40 ? 8 : 3;
    draw_text(term, m, 2, text_rows);
    int y = 2 + text_rows;
    char label[128];
    if (m->drawn >= 0) {
        model_look_label(&m->look, m->drawn, term->utf8, label, sizeof label);
        ui_putf(&term->cv, y, 1, w - 2, tui_attr(term, C_HINT), "drew %s %s: q %.3g, the %d%s most probable, of %d "
                "kept", ui_glyph(&term->cv, "▶", ">"), label, m->drawn_q, m->drawn_rank,
                m->drawn_rank % 10 == 1 && m->drawn_rank % 100 != 11   ? "st"
                : m->drawn_rank % 10 == 2 && m->drawn_rank % 100 != 12 ? "nd"
                : m->drawn_rank % 10 == 3 && m->drawn_rank % 100 != 13 ? "rd" : "th", m->drawn_kept);
    } else {
        ui_put(&term->cv, y, 1, w - 2, tui_attr(term, C_HINT),
               "Space draws a token, Enter runs on (any key stops), a keeps the text, Esc goes back");
    }
    draw_speed(term, m, y + 1);
    int top = y + (term->rows >= 40 ? 4 : 3), bottom = term->rows - 1, h = bottom - top;
    if (w >= 150) {
        int cw = (w - 4) / 4;
        draw_next(term, m, top, 1, cw, h);
        draw_drawn_from(term, m, top, 2 + cw, cw, h);
        draw_looked(term, m, top, 3 + 2 * cw, cw, h);
        draw_cache(term, m, top, 4 + 3 * cw, w - 5 - 3 * cw, h);
    } else {
        int upper = imax(5, h * 3 / 5), half = (w - 3) / 2;
        draw_next(term, m, top, 1, half, upper);
        draw_looked(term, m, top, 2 + half, w - 3 - half, upper);
        draw_cache(term, m, top + upper, 1, w - 2, h - upper);
    }
}
