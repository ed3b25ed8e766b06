/*
 * tui_model_view.h - the real models' screen's state (ModelScreen) and its
 * two views of a model, drawn by their own files: every head
 * (tui_model_heads.c) and one head (tui_model_head.c). tui_model.c, the
 * screen object, takes the keys and hands each view its frame.
 */
#ifndef ATTN_TUI_MODEL_VIEW_H
#define ATTN_TUI_MODEL_VIEW_H

#include <stddef.h>

#include "model_look.h"
#include "model_shelf.h"

#define MODEL_TEXT_MAX 2048

typedef enum { MODEL_SHELF, MODEL_HEADS, MODEL_HEAD } ModelView;

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
    char lesson[4096];  /* the head written as a lesson, for the loop (PATH_MAX) */
    int direct;         /* opened on one model (attn model PATH): Esc on
                           the heads closes the screen */
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

#endif
