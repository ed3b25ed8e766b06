/*
 * tui_model.h - the real models' screen (app/modelscreen): one screen in
 * views, each Esc going back to the one before.
 *   - the shelf: the models on disk (app/models/model_shelf.h), or how to
 *     get one;
 *   - the heads (tui_model_heads.c): every layer x head of the model on a
 *     text, each a small heatmap two pixels a cell, labelled with the kind
 *     attn measured;
 *   - one head (tui_model_head.c): its attention with the tokens as labels,
 *     where the token under the cursor looks (bars), the next token after
 *     it at a temperature, Enter explaining a weight.
 *   - generating (g, tui_model_gen.c): tokens after the text, the sampling
 *     knobs, the key/value cache; a keeps the text;
 *   - the lens (L) and the attribution (A) (tui_model_effect.c).
 * t types a new text (tui_model_type.c), x takes a head out and P patches
 * it from a second text (the loss before and after on a strip), v draws a
 * head as lines, w writes an SVG, l writes the head as a lesson
 * (app/models/head_lesson.h) and asks the loop to open it over the model
 * (ACT_OPEN_LESSON), so Esc on the lesson comes back here.
 *
 * Ownership: the ModelScreen owns the shelf and the model it looks at
 * (model_screen_free); the main loop's stack owns the ModelScreen
 * (tui_screen_models' close).
 */
#ifndef ATTN_TUI_MODEL_H
#define ATTN_TUI_MODEL_H

#include <stddef.h>

#include "tui_model_view.h"

ModelScreen *model_screen_new(void);
void model_screen_free(ModelScreen *m);
/* Open model directory dir on text (NULL: a sentence of attn's) and show
 * its heads: 0, or -1 with why. */
int model_screen_open(ModelScreen *m, const char *dir, const char *text, char *why, size_t size);
/* List the shelf again. */
void model_screen_reload(ModelScreen *m);

/* The screen object (self: a ModelScreen of model_screen_new). */
struct TuiScreen;
extern const struct TuiScreen tui_screen_models;

#endif
