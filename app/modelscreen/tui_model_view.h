/*
 * tui_model_view.h - the real models' screen's state (ModelScreen) and its
 * views of a model, drawn by their own files: every head
 * (tui_model_heads.c), one head (tui_model_head.c), the text generated
 * after the text (tui_model_gen.c), the lens, the attribution and the
 * strip of an edit's loss (tui_model_effect.c), and the text being typed
 * (tui_model_type.c). tui_model.c, the screen object, takes the keys and
 * hands each view its frame.
 */
#ifndef ATTN_TUI_MODEL_VIEW_H
#define ATTN_TUI_MODEL_VIEW_H

#include <stddef.h>

#include "look_gen.h"
#include "model_look.h"
#include "model_shelf.h"

#define MODEL_TEXT_MAX 2048
#define MODEL_DRAWN_ROWS 20

typedef enum { MODEL_SHELF, MODEL_HEADS, MODEL_HEAD, MODEL_GEN, MODEL_LENS, MODEL_ATTRIBUTION } ModelView;

/* The knobs of generation, in the order K picks them. */
enum { KNOB_TEMPERATURE, KNOB_TOP_K, KNOB_TOP_P, N_KNOBS };

typedef struct {
    ModelView view;
    ModelShelf shelf;
    int sel;            /* the shelf's selected model */
    ModelLook look;     /* the model open (look_open), on its text */
    int look_open;
    char text[MODEL_TEXT_MAX];  /* the text looked at ("" for tokens given) */
    int layer, head;    /* the head selected, from 0 */
    int top_layer, left_head;   /* the first shown when the heads scroll */
    int query, key;     /* the head's cursor: a query row, a key column */
    int first_query;    /* the first row shown when the head scrolls */
    double temperature; /* the next token's */
    int typing;         /* t: a new text is being typed */
    char typed[MODEL_TEXT_MAX];
    size_t typed_at;    /* the cursor in it, a byte offset                 */
    int typed_all;      /* the old text is selected: typing replaces it    */
    int typed_tokens;   /* its tokens as typed (-1: more than fit)         */
    int line_view;      /* v: one head as BertViz's lines for the query */
    /* g: text generated after the text (tui_model_gen.c); gen.gen NULL
     * while none is under way */
    LookGen gen;
    ModelSampling knobs;
    int knob;           /* the knob < and > change (KNOB_*)                */
    int running;        /* Enter: a token each tick, until any key         */
    int drawn;          /* the last token drawn (-1: none yet), its q, its
                           rank in the distribution, of how many kept      */
    double drawn_q;
    int drawn_rank, drawn_kept;
    struct {            /* the distribution it was drawn from, its top rows */
        int ids[MODEL_DRAWN_ROWS];
        double p[MODEL_DRAWN_ROWS], q[MODEL_DRAWN_ROWS];
        int n;
    } drawn_from;
    ModelView gen_from; /* the view g was pressed on (Esc goes back to it) */
    char lesson[4096];  /* the head written as a lesson, for the loop (PATH_MAX) */
    int direct;         /* opened on one model (attn model PATH): Esc on
                           the heads closes the screen */
    /* testing what a head does (tui_model_effect.c) */
    ModelView from;     /* the view L or A was opened from, for Esc      */
    int patching;       /* P: the second text is being typed             */
    char patch_text[MODEL_TEXT_MAX];    /* the patch's second text       */
    int lens_layer, lens_pos, lens_left; /* the lens's cursor, its first
                                           position shown              */
    int attr_row, attr_top; /* the attribution's cursor and first row    */
} ModelScreen;

/* The views' parts (tui_model_heads.c, tui_model_head.c). */
typedef struct TuiTerm TuiTerm;
void model_heads_prepare(TuiTerm *term, ModelScreen *m);
void model_heads_draw(TuiTerm *term, ModelScreen *m);
void model_heads_move(ModelScreen *m, int dlayer, int dhead);
void model_head_prepare(TuiTerm *term, ModelScreen *m);
void model_head_draw(TuiTerm *term, ModelScreen *m);
void model_head_move(ModelScreen *m, int dquery, int dkey);
/* A key typed into a line of text (buf, size bytes): a character added, or
 * the last whole one taken away (Backspace); other keys do nothing
 * (tui_model_type.c, for the text and the patch's second text). */
void model_text_key(char *buf, size_t size, int ch);
/* Enter on a weight: what it is, in the message line. */
void model_head_explain(TuiTerm *term, ModelScreen *m);
/* t: a new text typed (tui_model_type.c): begun on the old text,
 * selected; a key: 1 when Enter asks for the text to be looked at
 * (m->typed, its \n made newlines), else 0 (m->typing 0 when left); the
 * input and its token count drawn over the last two rows. */
void model_type_start(ModelScreen *m);
int model_type_key(TuiTerm *term, ModelScreen *m, int ch);
void model_type_draw(TuiTerm *term, ModelScreen *m);
/* g: generation (tui_model_gen.c). Enter it (started on the text, or
 * resumed): 0, or -1 with the reason in the message line. */
int model_gen_enter(TuiTerm *term, ModelScreen *m);
/* Its keys (after the screen's shared ones): 1 when taken. */
int model_gen_key(TuiTerm *term, ModelScreen *m, int action);
void model_gen_draw(TuiTerm *term, ModelScreen *m);
/* A token while running: 1 when the screen changed. */
int model_gen_idle(TuiTerm *term, ModelScreen *m);
/* Let what was generated go (a new text, a new model, the screen closing). */
void model_gen_stop(ModelScreen *m);

/* Testing what a head does (tui_model_effect.c): x takes the chosen head
 * out or puts it back, P patches it from a second text typed, L and A open
 * the lens and the attribution. The strip the heads and the head show
 * while a head is changed: its rows (0: none changed) and its drawing from
 * row y. */
int model_effect_rows(const TuiTerm *term, const ModelScreen *m);
void model_effect_strip(TuiTerm *term, ModelScreen *m, int y);
/* After a new text: a patch it let go of, said. */
void model_effect_said(TuiTerm *term, ModelScreen *m);
/* A key for x, P, L, A or for the lens and attribution views: 1 when
 * taken. */
int model_effect_key(TuiTerm *term, ModelScreen *m, int action);
/* A key while the patch's second text is typed; the prompt's label and
 * the end of the text typed that fits beside it. */
void model_effect_typing(TuiTerm *term, ModelScreen *m, int ch);
const char *model_effect_prompt(const TuiTerm *term, const ModelScreen *m, const char **input);
/* The lens and the attribution views. */
void model_effect_prepare(TuiTerm *term, ModelScreen *m);
void model_effect_draw(TuiTerm *term, ModelScreen *m);
/* What the strip adds to Enter on a head's weight: the loss of the token
 * after query i before and after the change, into buf ("" when none). */
const char *model_effect_at(ModelScreen *m, int i, char *buf, size_t size);

#endif
