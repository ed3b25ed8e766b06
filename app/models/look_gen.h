/*
 * look_gen.h - text generated after a looked-at model's tokens
 * (look_gen.c): the engine's generator (model_gen.h: the key/value cache,
 * the one sampler) on a ModelLook's model and tokens, with what a person is
 * shown of it: each token drawn and the probability it was drawn with,
 * the distribution before each draw, the time it took, and the same
 * tokens timed again without the cache for the comparison. `attn model
 * --generate` and the model screen's generation view (g) both run it.
 *
 * Ownership: a LookGen owns its generators, its distribution and its
 * tokens (look_gen_end; a LookGen zeroed is fine); it borrows the
 * ModelLook, which must outlive it and not be looked again meanwhile.
 */
#ifndef ATTN_LOOK_GEN_H
#define ATTN_LOOK_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "model_gen.h"
#include "model_look.h"

typedef struct {
    ModelLook *lk;
    ModelGen *gen;      /* the one that draws: cached, or not (--no-cache) */
    ModelGen *plain;    /* the same tokens without a cache, only timed (the
                           screen's comparison: every token while a pass
                           takes under 250 ms, then every 8th); NULL when
                           not asked                                       */
    ModelSampling s;    /* the knobs, changed at will between tokens       */
    ModelDist dist;     /* the next token's, before its draw                */
    int dist_ready;     /* dist is made for the sequence and the knobs     */
    Rng rng;
    int *ids;           /* the tokens generated, and each one's p          */
    double *p;
    int n;
    double seconds;     /* spent computing with gen: the first pass over
                           the text and every token's                     */
    int passes;         /* the passes timed: one a token                   */
    double plain_seconds; /* the same tokens' with plain                   */
    int plain_passes;
    double last_ms, last_plain_ms; /* the last token's, with and without   */
    int full;           /* the model's context is reached                  */
} LookGen;

/* Start generating after lk's tokens under s (checked: model_sampling_bad),
 * seeded by seed; cached or not; compare: time every token without the
 * cache too. 0, or -1 with why. */
int look_gen_start(LookGen *g, ModelLook *lk, const ModelSampling *s, uint64_t seed, int cached, int compare,
                   char *why, size_t size);
void look_gen_end(LookGen *g);
/* The next token's distribution under the knobs as they are now (computed
 * once a token; the knobs change it without a pass). NULL with why. */
const ModelDist *look_gen_dist(LookGen *g, char *why, size_t size);
/* One token drawn from it and appended: 1; 0 when the model's context is
 * full (g->full, nothing drawn); -1 with why. */
int look_gen_next(LookGen *g, char *why, size_t size);
/* The knobs changed: the distribution is made again from the same logits. */
void look_gen_knobs(LookGen *g, const ModelSampling *s);
/* Tokens a second: with gen (including the first pass over the text), and
 * without the cache (plain; 0 before it timed any). */
double look_gen_rate(const LookGen *g);
double look_gen_plain_rate(const LookGen *g);
/* The whole sequence so far (the text's tokens and the generated). */
int look_gen_len(const LookGen *g);
const int *look_gen_all(const LookGen *g);
/* Where the last token looked in layer, head (from 0): its weights over
 * the look_gen_len tokens, or NULL (no cache, not computed yet). */
const float *look_gen_looked(const LookGen *g, int layer, int head);

#endif
