/*
 * model_svg.h - a model looked at on a text (model_look.h), as pictures
 * for slides and papers, drawn by the one SVG writer (svg.h): every layer
 * x head at once, and one head. `attn model --svg` and `w` on the model
 * screens write them.
 */
#ifndef ATTN_MODEL_SVG_H
#define ATTN_MODEL_SVG_H

#include "model_look.h"

/* Every head of lk's text: the layers as rows, the heads as columns, each
 * head's attention a small heatmap (its thumbnail, model_look_thumb) under
 * its kind and score, the tokens along the grid's edges, one colour bar.
 * grey: NO_COLOR. The document, the caller's to free; NULL on no memory. */
char *model_svg_heads(ModelLook *lk, int grey);

/* One head (layer and head from 0): its attention with the tokens on both
 * axes, each weight at 2 decimals where the numbers fit, a key after its
 * query left blank, a colour bar. The document, or NULL. */
char *model_svg_head(ModelLook *lk, int layer, int head, int grey);

#endif
