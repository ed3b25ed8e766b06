/*
 * tui_model.h - the real models' screen (app/modelscreen): one screen in
 * three views, each Esc going back to the one before.
 *   - the shelf: the models on disk (app/models/model_shelf.h), or how to
 *     get one;
 *   - the heads (tui_model_heads.c): every layer x head of the model on a
 *     text, each a small heatmap two pixels a cell, labelled with the kind
 *     attn measured;
 *   - one head (tui_model_head.c): its attention with the tokens as labels,
 *     where the token under the cursor looks (bars), the next token after
 *     it at a temperature, Enter explaining a weight.
 * t types a new text, l writes the head as a lesson (app/models/
 * head_lesson.h) for the loop to open (ACT_OPEN_HEAD_LESSON).
 *
 * Ownership: the ModelScreen owns the shelf and the model it looks at
 * (model_screen_free); the main loop owns the ModelScreen.
 */
#ifndef ATTN_TUI_MODEL_H
#define ATTN_TUI_MODEL_H

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
    char lesson[1200];  /* the head written as a lesson, for the loop */
    int direct;         /* opened on one model (attn model PATH): Esc on
                           the heads closes the screen */
} ModelScreen;

ModelScreen *model_screen_new(void);
void model_screen_free(ModelScreen *m);
/* Open model directory dir on text (NULL: a sentence of attn's) and show
 * its heads: 0, or -1 with why. */
int model_screen_open(ModelScreen *m, const char *dir, const char *text, char *why, size_t size);
/* List the shelf again. */
void model_screen_reload(ModelScreen *m);

/* A token's text for a label: spaces as middle dots, a newline as a
 * return arrow, control bytes as '?' (tui_model.c). */
const char *model_token_label(const ModelScreen *m, int id, int utf8, char *buf, size_t size);
/* A head's kind in a few letters ("prev", "sink", "self", "ind", "broad")
 * and its score. */
const char *model_kind_short(const ModelScreen *m, int layer, int head, double *score);

/* The screen object (self: the ModelScreen). */
struct TuiScreen;
extern const struct TuiScreen tui_screen_models;

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
