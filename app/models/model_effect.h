/*
 * model_effect.h - what a head does, tested on a model looked at (a
 * ModelLook; model_effect.c): heads ablated (their output replaced by
 * zeros or by its mean over the text) or patched from a second text of as
 * many tokens, in every pass from then on; the next-token loss at each
 * position, of the run and of the same tokens without any edit (before and
 * after); the logit lens; the direct logit attribution of the top next
 * token. An ablated look costs one forward pass; a patch adds the second
 * text's, once. What `attn model --ablate/--patch/--lens/--attribution`
 * prints and the model screen's x, P, L and A show come from here.
 *
 * Ownership: what is made lives in the ModelLook (model_look.h) until its
 * tokens or edits change; model_look_close frees it.
 */
#ifndef ATTN_MODEL_EFFECT_H
#define ATTN_MODEL_EFFECT_H

#include <stddef.h>

#include "model_look.h"

/* The heads replaced in every pass from now on (copied; n 0: none), and
 * the look's tokens looked at again with them. A GIVEN edit's numbers
 * come from the patch's source (model_effect_source; its given and ld are
 * filled at each pass). 0, or -1 with why (a head out of range, a patch
 * with no second text or one of another length, named), the edits before
 * kept. */
int model_effect_edit(ModelLook *lk, const ModelHeadEdit *edits, int n, char *why, size_t size);
/* The patch's second text: its tokens passed once, without any edit,
 * every head's output kept. 0, or -1 with why. */
int model_effect_source(ModelLook *lk, const int *ids, int n, char *why, size_t size);
/* How head (layer, head) (from 0) is edited: -1 not, else its
 * ModelEditHow. */
int model_effect_of(const ModelLook *lk, int layer, int head);

/* The run's next-token loss at each of its n - 1 positions (position i
 * predicts token i + 1), their mean in *mean; NULL with why. */
const double *model_effect_losses(ModelLook *lk, double *mean, char *why, size_t size);
/* The same tokens without any edit into lk's base_losses, base_loss and
 * base_logits (a second pass only when the run has edits). 0, or -1. */
int model_effect_base(ModelLook *lk, char *why, size_t size);

/* The logit lens after layer `layer` (0: the embeddings) at position pos
 * (from 0): the top k tokens and their probabilities. The stream is kept
 * from then on (one more pass the first time). 0, or -1 with why. */
int model_effect_lens(ModelLook *lk, int layer, int pos, int k, int *ids, double *p, char *why, size_t size);
/* The lens's top token there (its probability into *p), made once a pass
 * (a band of positions at a time, one product each); -1 with why. */
int model_effect_lens_top(ModelLook *lk, int layer, int pos, float *p, char *why, size_t size);
/* The direct logit attribution of the top next token after the last
 * (model_attribution), made once for the run (the look's: it holds until
 * the look passes again); NULL with why. */
const ModelAttribution *model_effect_attribution(ModelLook *lk, char *why, size_t size);


#endif
