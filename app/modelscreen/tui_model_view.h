/*
 * tui_model_view.h - the real models' screen's state (ModelScreen) and its
 * views of a model, drawn by their own files: every head
 * (tui_model_heads.c), one head (tui_model_head.c), the text generated
 * after the text (tui_model_gen.c), the lens and the attribution
 * (tui_model_effect.c), the strip of an edit's loss (tui_model_strip.c),
 * and a line of text being typed, t's new text or P's second text
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

/* Which line of text is being typed: none, t's new text, P's second text
 * (a patch's, of as many tokens as the text). */
typedef enum { TYPING_NONE, TYPING_TEXT, TYPING_PATCH } Typing;

/* A line of text as it is typed, edited the one way both fields are
 * (tui_model_type.c). */
typedef struct {
    char text[MODEL_TEXT_MAX];
    size_t at;          /* the cursor, a byte offset                       */
    int all;            /* the old text is selected: typing replaces it    */
    int tokens;         /* the tokens Enter would take (-1: more than fit,
                           or no tokenizer)                                */
} LineEdit;

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
    Typing typing;      /* t or P: which line is being typed, into typed */
    LineEdit typed;
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
    char patch_mend[MODEL_TEXT_MAX];    /* a second text refused, which P
                                           brings back to mend ("": none) */
    char patch_mend_for[MODEL_TEXT_MAX]; /* the text it was refused for:
                                           for another, P starts afresh  */
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
/* Enter on a weight: what it is, in the message line. */
void model_head_explain(TuiTerm *term, ModelScreen *m);
/* t and P: a line of text typed (tui_model_type.c), one way for both:
 * begun on text, selected; a key: 1 when Enter takes the text
 * (m->typed.text, its \n made newlines), else 0 (m->typing TYPING_NONE
 * once Enter or Esc left it); the input and its tokens, counted as it is
 * typed against what the field needs (the model's context for t, the
 * text's count for P), drawn over the last two rows. */
void model_type_start(ModelScreen *m, Typing what, const char *text);
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
 * while a head is changed (tui_model_strip.c): its rows (0: none changed)
 * and its drawing from row y; the heads changed, as "L3H2 zeros, L1H4
 * patched" into buf. */
int model_effect_rows(const TuiTerm *term, const ModelScreen *m);
void model_effect_strip(TuiTerm *term, ModelScreen *m, int y);
const char *model_edits_said(const ModelLook *lk, char *buf, size_t size);
/* After a new text: a patch it let go of, said. */
void model_effect_said(TuiTerm *term, ModelScreen *m);
/* A key for x, P, L, A or for the lens and attribution views: 1 when
 * taken. */
int model_effect_key(TuiTerm *term, ModelScreen *m, int action);
/* Enter on P's second text (m->typed.text): the chosen head patched from
 * it, or refused (said), the text then kept for P to bring back. */
void model_effect_patch(TuiTerm *term, ModelScreen *m);
/* The lens and the attribution views. */
void model_effect_prepare(TuiTerm *term, ModelScreen *m);
void model_effect_draw(TuiTerm *term, ModelScreen *m);
/* What the strip adds to Enter on a head's weight: the loss of the token
 * after query i before and after the change, into buf ("" when none). */
const char *model_effect_at(ModelScreen *m, int i, char *buf, size_t size);

#endif
