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

/* What one generator's passes took: its first, over the text (the
 * prompt's prefill, done once), apart from the rest, one a token drawn, so
 * a token's time is a token's and not the prompt's. */
typedef struct {
    int started;        /* the first pass was made                         */
    double first_ms;    /* its time                                        */
    double seconds;     /* the passes after it, each a token's             */
    int passes;         /* how many of those were timed                    */
    double last_ms;     /* the last pass's                                 */
} LookGenTimes;

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
    LookGenTimes times; /* gen's passes                                    */
    LookGenTimes plain_times; /* plain's, on the same tokens               */
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
/* Tokens a second with gen over all its passes, the first over the text
 * included (attn model --generate's "tokens_per_s"; 0 before any). */
double look_gen_rate(const LookGen *g);
/* A token's time, in ms: the mean of the passes after the first (the
 * first, over the text, is times.first_ms), with gen or (plain) without
 * the cache on the same tokens, measured the same way; 0 before any was
 * timed. */
double look_gen_token_ms(const LookGen *g, int plain);
/* The whole sequence so far (the text's tokens and the generated). */
int look_gen_len(const LookGen *g);
const int *look_gen_all(const LookGen *g);
/* Where the last token looked in layer, head (from 0): its weights over
 * the look_gen_len tokens, or NULL (no cache, not computed yet). */
const float *look_gen_looked(const LookGen *g, int layer, int head);

#endif
