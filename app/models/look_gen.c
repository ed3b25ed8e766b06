/*
 * look_gen.c - text generated after a looked-at model's tokens
 * (look_gen.h).
 */
#include "look_gen.h"
#include "clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PLAIN_SLOW_MS 250.0
#define PLAIN_EVERY 8

/* The one clock (engine/base/clock.h), in seconds. */
static double seconds_now(void) { return clock_seconds(); }

int look_gen_start(LookGen *g, ModelLook *lk, const ModelSampling *s, uint64_t seed, int cached, int compare,
                   char *why, size_t size)
{
    memset(g, 0, sizeof *g);
    const char *bad = model_sampling_bad(s);
    if (bad) {
        snprintf(why, size, "%s", bad);
        return -1;
    }
    const ModelConfig *c = &lk->md.cfg;
    AttnError err = { 0 };
    g->lk = lk;
    g->s = *s;
    rng_seed(&g->rng, seed);
    g->ids = malloc((size_t)c->context * sizeof *g->ids);
    g->p = malloc((size_t)c->context * sizeof *g->p);
    if (!g->ids || !g->p || model_dist_init(&g->dist, c->vocab, &err) != ATTN_OK
        || !(g->gen = model_gen_new(lk->md.model, lk->ids, lk->n, cached, &err))
        || (compare && !(g->plain = model_gen_new(lk->md.model, lk->ids, lk->n, 0, &err)))) {
        snprintf(why, size, "%s", err.msg[0] ? err.msg : "out of memory");
        look_gen_end(g);
        return -1;
    }
    g->full = lk->n >= c->context;
    return 0;
}

void look_gen_end(LookGen *g)
{
    model_gen_free(g->gen);
    model_gen_free(g->plain);
    model_dist_free(&g->dist);
    free(g->ids), free(g->p);
    memset(g, 0, sizeof *g);
}

/* gen's logits for the sequence as it is, the pass timed into *t (its
 * first apart). NULL with why. */
static const float *logits_of(LookGen *g, ModelGen *gen, LookGenTimes *t, char *why, size_t size)
{
    AttnError err = { 0 };
    if (model_dir_unchanged(&g->lk->md, why, size) != 0)
        return NULL;    /* the weights are read where they are mapped */
    double t0 = seconds_now();
    const float *z = model_gen_logits(gen, &err);
    double dt = seconds_now() - t0;
    if (!z) {
        snprintf(why, size, "%s", err.msg);
        return NULL;
    }
    t->last_ms = dt * 1e3;
    if (!t->started) {
        t->started = 1;
        t->first_ms = dt * 1e3;
    } else {
        t->seconds += dt;
        t->passes++;
    }
    return z;
}

const ModelDist *look_gen_dist(LookGen *g, char *why, size_t size)
{
    if (g->dist_ready)
        return &g->dist;
    if (g->full) {
        snprintf(why, size, "the model's context of %d tokens is full", g->lk->md.cfg.context);
        return NULL;
    }
    const float *z = logits_of(g, g->gen, &g->times, why, size);
    if (!z)
        return NULL;
    /* the comparison, timed every token while a pass without the cache is
     * quick, every PLAIN_EVERY-th once it is slow (the screen waits on it) */
    if (g->plain && (g->plain_times.last_ms < PLAIN_SLOW_MS || g->times.passes % PLAIN_EVERY == 0)
        && !logits_of(g, g->plain, &g->plain_times, why, size))
        return NULL;
    model_dist_make(&g->dist, z, &g->s);
    g->dist_ready = 1;
    return &g->dist;
}

void look_gen_knobs(LookGen *g, const ModelSampling *s)
{
    g->s = *s;
    if (g->dist_ready) {
        AttnError err = { 0 };
        const float *z = model_gen_logits(g->gen, &err);    /* made already: no pass */
        if (z)
            model_dist_make(&g->dist, z, &g->s);
        else
            g->dist_ready = 0;
    }
}

int look_gen_next(LookGen *g, char *why, size_t size)
{
    if (g->full)
        return 0;
    if (!look_gen_dist(g, why, size))
        return -1;
    AttnError err = { 0 };
    int id = model_dist_draw(&g->dist, &g->s, &g->rng);
    if (model_gen_push(g->gen, id, &err) != ATTN_OK || (g->plain && model_gen_push(g->plain, id, &err) != ATTN_OK)) {
        snprintf(why, size, "%s", err.msg);
        return -1;
    }
    g->ids[g->n] = id;
    g->p[g->n++] = model_dist_chosen_p(&g->dist, &g->s, id);
    g->dist_ready = 0;
    g->full = model_gen_len(g->gen) >= g->lk->md.cfg.context;
    return 1;
}

double look_gen_rate(const LookGen *g)
{
    const LookGenTimes *t = &g->times;
    double seconds = t->seconds + t->first_ms / 1e3;
    return seconds > 0 ? (t->passes + t->started) / seconds : 0;
}

double look_gen_token_ms(const LookGen *g, int plain)
{
    const LookGenTimes *t = plain ? &g->plain_times : &g->times;
    return t->passes > 0 ? t->seconds * 1e3 / t->passes : 0;
}

int look_gen_len(const LookGen *g) { return model_gen_len(g->gen); }

const int *look_gen_all(const LookGen *g) { return model_gen_ids(g->gen); }

const float *look_gen_looked(const LookGen *g, int layer, int head)
{
    const float *all = model_gen_looked(g->gen);
    const ModelConfig *c = &g->lk->md.cfg;
    int len = model_gen_len(g->gen);
    return all ? all + ((size_t)layer * c->heads + head) * len : NULL;
}
