/*
 * model_effect.c - what a head does, tested on a model looked at
 * (model_effect.h).
 */
#include "model_effect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int model_effect_edit(ModelLook *lk, const ModelHeadEdit *edits, int n, char *why, size_t size)
{
    ModelHeadEdit *copy = malloc((size_t)(n > 0 ? n : 1) * sizeof *copy), *old = lk->edits;
    int old_n = lk->n_edits;
    if (!copy) {
        snprintf(why, size, "out of memory");
        return -1;
    }
    if (n > 0)
        memcpy(copy, edits, (size_t)n * sizeof *copy);
    lk->edits = copy;
    lk->n_edits = n;
    if (lk->ids && model_look_tokens(lk, lk->ids, lk->n, why, size) != 0) {
        free(copy);
        lk->edits = old;
        lk->n_edits = old_n;
        return -1;
    }
    free(old);
    return 0;
}

int model_effect_source(ModelLook *lk, const int *ids, int n, char *why, size_t size)
{
    const ModelConfig *c = &lk->md.cfg;
    AttnError err = { 0 };
    ModelAsk ask = { .keep_heads = 1 };
    ModelRun run;
    int *copy = malloc((size_t)(n > 0 ? n : 1) * sizeof *copy);
    if (!copy) {
        snprintf(why, size, "out of memory");
        return -1;
    }
    if (n > c->context)
        snprintf(why, size, "the second text is %d tokens, past the model's context of %d", n, c->context);
    else if (model_dir_unchanged(&lk->md, why, size) != 0)
        ;
    else if (model_forward_asked(lk->md.model, ids, n, &ask, &run, &err) != ATTN_OK)
        snprintf(why, size, "%s", err.msg);
    else {
        memcpy(copy, ids, (size_t)n * sizeof *copy);
        free(lk->source_ids);
        model_run_free(&lk->source);
        lk->source_ids = copy;
        lk->source_n = n;
        lk->source = run;
        return 0;
    }
    free(copy);
    return -1;
}

int model_effect_of(const ModelLook *lk, int layer, int head)
{
    for (int i = 0; i < lk->n_edits; i++)
        if (lk->edits[i].layer == layer && lk->edits[i].head == head)
            return (int)lk->edits[i].how;
    return -1;
}

const double *model_effect_losses(ModelLook *lk, double *mean, char *why, size_t size)
{
    if (!lk->has_losses) {
        AttnError err = { 0 };
        free(lk->losses);
        lk->losses = malloc((size_t)(lk->n > 1 ? lk->n - 1 : 1) * sizeof *lk->losses);
        if (!lk->losses) {
            snprintf(why, size, "out of memory");
            return NULL;
        }
        if (model_dir_unchanged(&lk->md, why, size) != 0)
            return NULL;    /* the unembedding is read where it is mapped */
        if (model_losses(lk->md.model, &lk->run, lk->ids, lk->losses, &lk->loss, &err) != ATTN_OK) {
            snprintf(why, size, "%s", err.msg);
            return NULL;
        }
        lk->has_losses = 1;
    }
    *mean = lk->loss;
    return lk->losses;
}

int model_effect_base(ModelLook *lk, char *why, size_t size)
{
    if (lk->has_base)
        return 0;
    int vocab = lk->md.cfg.vocab, n = lk->n;
    free(lk->base_losses);
    free(lk->base_logits);
    lk->base_losses = malloc((size_t)(n > 1 ? n - 1 : 1) * sizeof *lk->base_losses);
    lk->base_logits = malloc((size_t)vocab * sizeof *lk->base_logits);
    if (!lk->base_losses || !lk->base_logits) {
        snprintf(why, size, "out of memory");
        return -1;
    }
    if (lk->n_edits == 0) {
        /* the run is the pass without edits */
        double mean;
        const double *l = model_effect_losses(lk, &mean, why, size);
        if (!l)
            return -1;
        memcpy(lk->base_losses, l, (size_t)(n > 1 ? n - 1 : 0) * sizeof *l);
        memcpy(lk->base_logits, lk->run.logits, (size_t)vocab * sizeof *lk->base_logits);
        lk->base_loss = mean;
        lk->has_base = 1;
        return 0;
    }
    AttnError err = { 0 };
    ModelAsk ask = { .every_position = 1 };
    ModelRun run;
    if (model_dir_unchanged(&lk->md, why, size) != 0)
        return -1;
    if (model_forward_asked(lk->md.model, lk->ids, n, &ask, &run, &err) != ATTN_OK
        || model_losses(lk->md.model, &run, lk->ids, lk->base_losses, &lk->base_loss, &err) != ATTN_OK) {
        snprintf(why, size, "%s", err.msg);
        model_run_free(&run);
        return -1;
    }
    memcpy(lk->base_logits, run.logits, (size_t)vocab * sizeof *lk->base_logits);
    model_run_free(&run);
    lk->has_base = 1;
    return 0;
}

/* The stream kept by the run: 0, or -1 with why (one more pass when it was
 * not). */
static int want_stream(ModelLook *lk, char *why, size_t size)
{
    if (lk->run.stream)
        return 0;
    lk->keep_stream = 1;
    return model_look_tokens(lk, lk->ids, lk->n, why, size);
}

int model_effect_lens(ModelLook *lk, int layer, int pos, int k, int *ids, double *p, char *why, size_t size)
{
    AttnError err = { 0 };
    int vocab = lk->md.cfg.vocab;
    if (want_stream(lk, why, size) != 0 || model_dir_unchanged(&lk->md, why, size) != 0)
        return -1;
    float *z = malloc((size_t)vocab * sizeof *z);
    if (!z) {
        snprintf(why, size, "out of memory");
        return -1;
    }
    if (model_lens(lk->md.model, &lk->run, layer, pos, 1, z, &err) != ATTN_OK) {
        snprintf(why, size, "%s", err.msg);
        free(z);
        return -1;
    }
    model_look_top(lk, z, 1.0, k < vocab ? k : vocab, ids, p);
    free(z);
    return 0;
}

/* The lens's top token at positions [lo, hi) of layer into the cache: one
 * product for them all. 0, or -1 with why. */
static int lens_band(ModelLook *lk, int layer, int lo, int hi, char *why, size_t size)
{
    AttnError err = { 0 };
    int vocab = lk->md.cfg.vocab;
    float *z = malloc((size_t)(hi - lo) * vocab * sizeof *z);
    if (!z) {
        snprintf(why, size, "out of memory");
        return -1;
    }
    if (model_dir_unchanged(&lk->md, why, size) != 0
        || model_lens(lk->md.model, &lk->run, layer, lo, hi - lo, z, &err) != ATTN_OK) {
        if (err.msg[0])
            snprintf(why, size, "%s", err.msg);
        free(z);
        return -1;
    }
    for (int i = lo; i < hi; i++) {
        int id;
        double p;
        model_look_top(lk, z + (size_t)(i - lo) * vocab, 1.0, 1, &id, &p);
        lk->lens_top[(size_t)layer * lk->n + i] = id;
        lk->lens_p[(size_t)layer * lk->n + i] = (float)p;
    }
    free(z);
    return 0;
}

#define LENS_BAND 32    /* positions made at once for the screen's lens */

int model_effect_lens_top(ModelLook *lk, int layer, int pos, float *p, char *why, size_t size)
{
    if (want_stream(lk, why, size) != 0)
        return -1;
    size_t cells = (size_t)(lk->md.cfg.layers + 1) * lk->n, at = (size_t)layer * lk->n + pos;
    if (!lk->lens_top) {
        lk->lens_top = malloc(cells * sizeof *lk->lens_top);
        lk->lens_p = malloc(cells * sizeof *lk->lens_p);
        if (!lk->lens_top || !lk->lens_p) {
            free(lk->lens_top);
            free(lk->lens_p);
            lk->lens_top = NULL;
            lk->lens_p = NULL;
            snprintf(why, size, "out of memory");
            return -1;
        }
        for (size_t i = 0; i < cells; i++)
            lk->lens_top[i] = -1;
    }
    int lo = pos / LENS_BAND * LENS_BAND, hi = lo + LENS_BAND < lk->n ? lo + LENS_BAND : lk->n;
    if (lk->lens_top[at] < 0 && lens_band(lk, layer, lo, hi, why, size) != 0)
        return -1;
    *p = lk->lens_p[at];
    return lk->lens_top[at];
}

const ModelAttribution *model_effect_attribution(ModelLook *lk, char *why, size_t size)
{
    AttnError err = { 0 };
    if (lk->has_attr)
        return &lk->attr;
    if (want_stream(lk, why, size) != 0 || model_dir_unchanged(&lk->md, why, size) != 0)
        return NULL;
    int id;
    double p;
    model_look_top(lk, lk->run.logits, 1.0, 1, &id, &p);
    if (model_attribution(lk->md.model, &lk->run, lk->ids, id, &lk->attr, &err) != ATTN_OK) {
        snprintf(why, size, "%s", err.msg);
        return NULL;
    }
    lk->has_attr = 1;
    return &lk->attr;
}
