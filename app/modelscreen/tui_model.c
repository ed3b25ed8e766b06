/*
 * tui_model.c - the real models' screen (tui_model.h): its life, its keys
 * (the shelf, the heads, one head, generating; typing a new text; the head
 * as a lesson; w, the heads or the head as an SVG; a, the generated text
 * kept), and the shelf drawn.
 */
#include "tui_model.h"
#include "filewrite.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "head_lesson.h"
#include "minmax.h"
#include "model_svg.h"
#include "svg.h"
#include "tui_help.h"
#include "tui_keybar.h"
#include "tui_screen.h"

#define KEY_ESC 27
#define DEFAULT_TEXT "When Mary and John went to the store, John gave a drink to Mary. When Mary and John"

static const double temperatures[] = { 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0 };
#define N_TEMPERATURES ((int)(sizeof temperatures / sizeof *temperatures))

ModelScreen *model_screen_new(void)
{
    ModelScreen *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->temperature = 1.0;
    m->knobs = MODEL_SAMPLING_DEFAULT;
    m->drawn = -1;
    model_shelf_find(&m->shelf);
    return m;
}

void model_screen_free(ModelScreen *m)
{
    if (!m)
        return;
    model_gen_stop(m);
    model_look_close(&m->look);
    model_shelf_free(&m->shelf);
    free(m);
}

void model_screen_reload(ModelScreen *m)
{
    model_shelf_free(&m->shelf);
    model_shelf_find(&m->shelf);
    m->sel = imin(m->sel, imax(0, m->shelf.n - 1));
}

/* The cursor on the token the text ends with, on the key it weighs most. */
static void cursor_to_end(ModelScreen *m)
{
    m->query = m->look.n - 1;
    const float *a = model_look_attention(&m->look, m->layer, m->head);
    m->key = 0;
    for (int j = 1; a && j <= m->query; j++)
        if (a[(size_t)m->query * m->look.n + j] > a[(size_t)m->query * m->look.n + m->key])
            m->key = j;
}

int model_screen_open(ModelScreen *m, const char *dir, const char *text, char *why, size_t size)
{
    ModelLook look;
    if (model_look_open(&look, dir, why, size) != 0)
        return -1;
    /* attn's sentence is cut to a small model's context; a text given is
     * the person's, and refused whole when it does not fit */
    if (model_look_text_cut(&look, text ? text : DEFAULT_TEXT, !text, why, size) != 0) {
        model_look_close(&look);
        return -1;
    }
    model_gen_stop(m);
    model_look_close(&m->look);
    m->look = look;
    m->look_open = 1;
    model_look_joined(&m->look, m->text, sizeof m->text);
    m->layer = m->head = m->top_layer = m->left_head = m->first_query = 0;
    m->patch_mend[0] = '\0';     /* a second text refused on the model before */
    cursor_to_end(m);
    m->view = MODEL_HEADS;
    return 0;
}

/* ---- typing a new text -------------------------------------------------- */

/* A key while a line is typed; Enter on t's text looks at it, on P's
 * patches the head from it (tui_model_effect.c). */
static void typing_key(TuiTerm *term, ModelScreen *m, int ch)
{
    char why[1200];
    Typing what = m->typing;
    if (model_type_key(term, m, ch) == 0) {
        ;
    } else if (what == TYPING_PATCH) {
        model_effect_patch(term, m);
    } else if (!m->typed.text[0]) {
        tui_message(term, 1, "the text is empty: nothing changed");
    } else if (model_look_text(&m->look, m->typed.text, why, sizeof why) != 0) {
        tui_message(term, 1, "%s", why);
    } else {
        snprintf(m->text, sizeof m->text, "%s", m->typed.text);
        model_gen_stop(m);
        if (m->view == MODEL_GEN)
            m->view = m->gen_from;
        m->first_query = 0;
        cursor_to_end(m);
        tui_message(term, 0, "%d tokens", m->look.n);
        model_effect_said(term, m);
    }
}

/* a: the text and what was generated, looked at as the text, so every
 * view (every head, one head, the head as a lesson) reads it. */
static void keep_generated(TuiTerm *term, ModelScreen *m)
{
    if (!m->gen.gen || m->gen.n == 0) {
        tui_message(term, 0, "nothing generated yet: Space draws a token");
        return;
    }
    int len = look_gen_len(&m->gen), added = m->gen.n;
    int *ids = malloc((size_t)len * sizeof *ids);
    char why[1200];
    if (!ids) {
        tui_message(term, 1, "out of memory");
        return;
    }
    memcpy(ids, look_gen_all(&m->gen), (size_t)len * sizeof *ids);
    if (model_look_tokens(&m->look, ids, len, why, sizeof why) != 0) {
        tui_message(term, 1, "%s", why);
    } else {
        model_gen_stop(m);
        model_look_joined(&m->look, m->text, sizeof m->text);
        m->first_query = 0;
        cursor_to_end(m);
        m->view = m->gen_from;
        tui_message(term, 0, "kept: %d tokens, %d of them generated; every view reads them", len, added);
    }
    free(ids);
}

/* ---- keys ----------------------------------------------------------------- */

static void open_chosen(TuiTerm *term, ModelScreen *m)
{
    if (m->sel >= m->shelf.n)
        return;
    char why[2048];
    if (model_screen_open(m, m->shelf.path[m->sel], NULL, why, sizeof why) != 0)
        tui_message(term, 1, "%s", why);
}

static void head_as_lesson(TuiTerm *term, ModelScreen *m)
{
    char why[2048];
    if (head_lesson_write(&m->look, m->layer + 1, m->head + 1, m->text, NULL, m->lesson, sizeof m->lesson, why,
                          sizeof why) != 0) {
        tui_message(term, 1, "the head could not be written as a lesson: %s", why);
        m->lesson[0] = '\0';
    }
}

/* w: every head, or the head shown, as an SVG in the current folder (a
 * new file beside any there), its name said. */
static void write_svg(TuiTerm *term, ModelScreen *m)
{
    char stem[200], name[240], why[300];
    int heads = m->view == MODEL_HEADS, grey = term->color == COLORS_NONE;
    if (heads)
        snprintf(stem, sizeof stem, "%s-heads", m->look.name);
    else
        snprintf(stem, sizeof stem, "%s-L%dH%d", m->look.name, m->layer + 1, m->head + 1);
    char *doc = heads ? model_svg_heads(&m->look, grey) : model_svg_head(&m->look, m->layer, m->head, grey);
    if (!doc || filewrite_new(svg_file_stem(stem, sizeof stem, stem), ".svg", doc, name, sizeof name, why,
                                     sizeof why) != 0)
        tui_message(term, 1, "the SVG was not written: %s", doc ? why : "out of memory");
    else
        tui_message(term, 0, "wrote %s: %s", name, heads ? "every head" : "this head");
    free(doc);
}

static void temperature(ModelScreen *m, int up)
{
    int at = 0;
    for (int i = 0; i < N_TEMPERATURES; i++)
        if (temperatures[i] <= m->temperature + 1e-9)
            at = i;
    at = imax(0, imin(N_TEMPERATURES - 1, at + (up ? 1 : -1)));
    m->temperature = temperatures[at];
}

static TuiAction models_key_of(TuiTerm *term, ModelScreen *m, int ch)
{
    term->message[0] = '\0';
    if (m->typing) {
        typing_key(term, m, ch);
        return ACT_NONE;
    }
    if (m->running && m->view == MODEL_GEN) {
        m->running = 0;         /* any key stops a run */
        tui_message(term, 0, "stopped: Space draws a token, Enter runs on");
        return ACT_NONE;
    }
    TuiAction a = tui_key_action(ch, KEYS_MODEL);
    if (a == ACT_QUIT || a == ACT_HELP)
        return a;
    if (m->view != MODEL_SHELF && term->layout_ok && model_effect_key(term, m, a))
        return ACT_NONE;        /* x, P, L, A and the lens's and attribution's keys */
    if (a == ACT_RELOAD) {
        clearok(curscr, TRUE);
        model_screen_reload(m);
        return ACT_NONE;
    }
    if (a == ACT_BACK) {
        if (m->view == MODEL_GEN)
            m->view = m->gen_from;
        else if (m->view == MODEL_HEAD)
            m->view = MODEL_HEADS;
        else if (m->view == MODEL_HEADS && !m->direct)
            m->view = MODEL_SHELF;
        else
            return ACT_CLOSE;
        return ACT_NONE;
    }
    if (!term->layout_ok)
        return ACT_NONE;
    if (m->view == MODEL_SHELF) {
        if (a == ACT_UP || a == ACT_DOWN)
            m->sel = imax(0, imin(m->shelf.n - 1, m->sel + (a == ACT_UP ? -1 : 1)));
        else if (a == ACT_FIRST || a == ACT_LAST)
            m->sel = a == ACT_FIRST ? 0 : imax(0, m->shelf.n - 1);
        else if (a == ACT_SELECT)
            open_chosen(term, m);
        return ACT_NONE;
    }
    if (a == ACT_GENERATE && m->view != MODEL_GEN) {
        ModelView from = m->view;
        if (model_gen_enter(term, m) == 0) {
            m->gen_from = from;
            m->view = MODEL_GEN;
        }
        return ACT_NONE;
    }
    if (a == ACT_KEEP_TEXT) {
        keep_generated(term, m);
        return ACT_NONE;
    }
    if (m->view == MODEL_GEN && a != ACT_TYPE && a != ACT_WRITE_SVG) {
        model_gen_key(term, m, a);
        return ACT_NONE;
    }
    switch (a) {
    case ACT_TYPE:
        model_type_start(m, TYPING_TEXT, m->text);
        break;
    case ACT_WRITE_SVG:
        write_svg(term, m);
        break;
    case ACT_LINES:
        if (m->view == MODEL_HEAD)
            m->line_view = !m->line_view;
        break;
    case ACT_HEAD_LESSON:
        head_as_lesson(term, m);
        return m->lesson[0] ? ACT_OPEN_LESSON : ACT_NONE;
    case ACT_KNOB_DOWN:
    case ACT_KNOB_UP:
        temperature(m, a == ACT_KNOB_UP);
        if (m->view == MODEL_HEADS)
            tui_message(term, 0, "temperature %g: the next token shows in a head (Enter)", m->temperature);
        break;
    case ACT_UP: case ACT_DOWN: case ACT_LEFT: case ACT_RIGHT: {
        int dy = a == ACT_UP ? -1 : a == ACT_DOWN ? 1 : 0, dx = a == ACT_LEFT ? -1 : a == ACT_RIGHT ? 1 : 0;
        if (m->view == MODEL_HEADS)
            model_heads_move(m, dy, dx);
        else
            model_head_move(m, dy, dx);
        break;
    }
    case ACT_FIRST: case ACT_LAST:
        if (m->view == MODEL_HEADS)
            model_heads_move(m, a == ACT_FIRST ? -m->look.md.cfg.layers : m->look.md.cfg.layers,
                             a == ACT_FIRST ? -m->look.md.cfg.heads : m->look.md.cfg.heads);
        else if (a == ACT_FIRST)
            m->query = m->key = 0;      /* the first token, on itself */
        else
            cursor_to_end(m);
        break;
    case ACT_SELECT:
        if (m->view == MODEL_HEADS) {
            m->view = MODEL_HEAD;
            cursor_to_end(m);
        } else {
            model_head_explain(term, m);
        }
        break;
    default:
        break;
    }
    return ACT_NONE;
}

/* ---- the shelf ------------------------------------------------------------ */

static void shelf_draw(TuiTerm *term, ModelScreen *m)
{
    int w = term->cols;
    ui_fill(&term->cv, 0, 0, w, tui_attr(term, C_TITLE));
    ui_put(&term->cv, 0, 1, w - 2, tui_attr(term, C_TITLE), "attn: real models, every head of a trained transformer");
    if (m->shelf.n == 0) {
        ui_lines(&term->cv, model_shelf_how, (Rect){ 1, 2, w - 2, term->rows - 3 }, A_NORMAL, tui_attr(term, C_DIM),
                 NULL);
        return;
    }
    ui_put(&term->cv, 1, 2, w - 4, tui_attr(term, C_DIM),
           "from $ATTN_MODELS and attn's own; Enter opens one on a sentence, t then types your own");
    int room = term->rows - 4, first = imax(0, imin(m->sel - room / 2, m->shelf.n - room));
    for (int i = first, y = 3; i < m->shelf.n && y < term->rows - 1; i++, y++) {
        int sel = i == m->sel;
        if (sel)
            ui_fill(&term->cv, y, 0, w, tui_attr(term, C_SELECTED));
        ui_putf(&term->cv, y, 1, w - 2, sel ? tui_attr(term, C_SELECTED) : tui_attr(term, C_PANE_TITLE), "%s%s%s",
                sel ? ui_glyph(&term->cv, "▶ ", "> ") : "  ", m->shelf.path[i],
                m->shelf.shipped[i] ? "   (ships with attn)" : "");
    }
}

/* ---- the screen object ---------------------------------------------------- */

static void models_prepare(TuiTerm *term, void *self)
{
    ModelScreen *m = self;
    tui_prepare_min_size(term, self);
    if (!term->layout_ok)
        return;
    if (m->view == MODEL_HEADS)
        model_heads_prepare(term, m);
    else if (m->view == MODEL_HEAD)
        model_head_prepare(term, m);
    else if (m->view != MODEL_SHELF && m->view != MODEL_GEN)
        model_effect_prepare(term, m);
}

static void models_draw(TuiTerm *term, void *self)
{
    ModelScreen *m = self;
    if (m->view == MODEL_SHELF)
        shelf_draw(term, m);
    else if (m->view == MODEL_HEADS)
        model_heads_draw(term, m);
    else if (m->view == MODEL_GEN)
        model_gen_draw(term, m);
    else if (m->view == MODEL_HEAD)
        model_head_draw(term, m);
    else
        model_effect_draw(term, m);
    /* the keys this view offers (tui_keybar.h's bits): move, open, new
     * text, as a lesson, temperature, back, generate, token, run, knob,
     * turn, keep, lines, ablate, lens, attribution */
    unsigned offer = m->view == MODEL_SHELF ? (m->shelf.n ? 0x3u : 0x0u) | 0x20u
                   : m->view == MODEL_HEADS ? 0x6fu | 0xe000u
                   : m->view == MODEL_GEN   ? 0x20u | 0x80u | 0x100u | 0x200u | 0x400u | 0x800u
                   : m->view == MODEL_HEAD  ? 0x7du | 0x1000u | 0xe000u
                                            : 0x23u;
    KeyBarWant want = { .where = KEYS_MODEL, .model_keys = offer };
    if (m->typing)
        model_type_draw(term, m);
    else
        tui_keybar_draw(term, &want);
}

static int models_idle(TuiTerm *term, void *self)
{
    return model_gen_idle(term, self);
}

/* A key; what it leaves to the loop: the help of the models' keys, the
 * head's lesson (written to m->lesson) to open over the model, which Esc on
 * the lesson comes back to, the end, or the screen closed. */
/* The help's notes: what the generating view's two columns are. */
static const char q_note[] = "In g, q: the chance of the draw: p renormalised over the kept set, 0 outside",
                  p_note[] = "In g, p: softmax(logits / temperature); the kept set: top-k, then top-p";

static TuiAsk models_key(TuiTerm *term, void *self, int ch)
{
    ModelScreen *m = self;
    TuiAction a = models_key_of(term, m, ch);
    if (a == ACT_HELP)
        return tui_help_open(&(HelpWant){ .where = KEYS_MODEL, .notes = { q_note, p_note } });
    if (a == ACT_OPEN_LESSON)
        return tui_ask_for(ACT_OPEN_LESSON, m->lesson);
    return tui_ask(a);
}

static void models_close(void *self) { model_screen_free(self); }

const TuiScreen tui_screen_models = { .name = "models", .key = models_key, .prepare = models_prepare,
                                      .draw = models_draw, .idle = models_idle, .close = models_close };
