/*
 * model_look.c - a model looked at on a text (model_look.h).
 */
#include "model_look.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileread.h"
#include "json_read.h"

static int make_thumbs(ModelLook *lk);

/* How often each token came in the text the model was trained on, from
 * dir/MODEL_COUNTS_FILE (attn train writes it): a vocabulary of weights
 * (malloc'd), or NULL when the model has none or it does not read. */
static double *trained_counts(const ModelDir *md)
{
    char path[4200], *text = NULL, msg[300];
    size_t len;
    if (snprintf(path, sizeof path, "%s/%s", md->dir, MODEL_COUNTS_FILE) >= (int)sizeof path
        || !model_dir_has(md->dir, MODEL_COUNTS_FILE)
        || fileread_text(path, 16L << 20, &text, &len, msg, sizeof msg) != 0)
        return NULL;
    char *z = realloc(text, len + 1);
    if (!z) {
        free(text);
        return NULL;
    }
    z[len] = '\0';
    JVal root;
    double *w = NULL;
    if (json_parse(z, &root, msg, sizeof msg) == 0) {
        const JVal *counts = json_get(&root, "counts");
        if (counts && counts->type == J_ARR && counts->n == md->cfg.vocab && (w = malloc((size_t)counts->n * sizeof *w)))
            for (int i = 0; i < counts->n; i++)
                w[i] = counts->items[i].type == J_NUM && counts->items[i].num > 0 ? counts->items[i].num : 0;
        json_free(&root);
    }
    free(z);
    return w;
}

/* The tokens the model knows, to probe its heads with: as often as its
 * training text used them (trained_counts), else a BPE vocabulary's tokens
 * written in printable ASCII alone (each merged token exists because its
 * text used it often), else every token alike (NULL). */
static double *probe_weights(ModelLook *lk)
{
    double *w = trained_counts(&lk->md);
    if (w || !lk->md.bpe)
        return w;
    int vocab = lk->md.cfg.vocab, any = 0;
    if (!(w = calloc((size_t)vocab, sizeof *w)))
        return NULL;
    for (int id = 0; id < vocab; id++) {
        const char *t = model_look_token(lk, id);
        int printable = t && *t && model_look_token_size(lk, id) == strlen(t);
        for (const char *p = t; printable && *p; p++)
            printable = (unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f;
        w[id] = printable;
        any |= printable;
    }
    if (!any) {
        free(w);
        w = NULL;
    }
    return w;
}

int model_look_open(ModelLook *lk, const char *dir, char *why, size_t size)
{
    memset(lk, 0, sizeof *lk);
    if (model_dir_open(dir, &lk->md, why, size) != 0)
        return -1;
    /* what each head is: measured once, on the probe, whatever text is
     * looked at later (a head's kind never changes with the text typed) */
    const ModelConfig *c = &lk->md.cfg;
    double *w = probe_weights(lk);
    AttnError err = { 0 };
    lk->scores = calloc((size_t)c->layers * c->heads, sizeof *lk->scores);
    if (!lk->scores || model_probe_heads(lk->md.model, w, lk->scores, &err) != ATTN_OK) {
        snprintf(why, size, "%s: %s", dir, lk->scores ? err.msg : "out of memory");
        free(w);
        model_look_close(lk);
        return -1;
    }
    free(w);
    /* the name: the directory's last part that is not empty */
    size_t end = strlen(dir);
    while (end > 1 && dir[end - 1] == '/')
        end--;
    size_t start = end;
    while (start > 0 && dir[start - 1] != '/')
        start--;
    snprintf(lk->name, sizeof lk->name, "%.*s", (int)(end - start), dir + start);
    return 0;
}

/* What was made from the run (the effect's losses, lens and attribution,
 * model_effect.h) let go; tokens: the pass without edits too, the tokens
 * changed. */
static void forget_made(ModelLook *lk, int tokens)
{
    free(lk->losses);
    lk->losses = NULL;
    lk->has_losses = 0;
    free(lk->lens_top);
    free(lk->lens_p);
    lk->lens_top = NULL;
    lk->lens_p = NULL;
    model_attribution_free(&lk->attr);
    lk->has_attr = 0;
    if (tokens || lk->n_edits == 0) {
        /* a pass without edits on new tokens: before is made again */
        free(lk->base_losses);
        free(lk->base_logits);
        lk->base_losses = NULL;
        lk->base_logits = NULL;
        lk->has_base = 0;
    }
}

/* Each patch's numbers filled from the source for a pass over n tokens,
 * the patches let go when the source has another length (how many in
 * lk->patches_dropped: a new text was typed); 0, or -1 with why (a patch
 * with no source). */
static int bind_patches(ModelLook *lk, int n, char *why, size_t size)
{
    const ModelConfig *c = &lk->md.cfg;
    int q = c->heads * c->head_dim, kept = 0;
    lk->patches_dropped = 0;
    for (int i = 0; i < lk->n_edits; i++) {
        ModelHeadEdit *e = &lk->edits[i];
        if (e->how == MODEL_EDIT_GIVEN && !lk->source.heads_out) {
            snprintf(why, size, "head %d.%d is patched, but from no second text", e->layer + 1, e->head + 1);
            return -1;
        }
        if (e->how == MODEL_EDIT_GIVEN && lk->source_n != n) {
            lk->patches_dropped++;      /* a text of another length: the head as it was */
            continue;
        }
        if (e->how == MODEL_EDIT_GIVEN) {
            e->given = lk->source.heads_out + (size_t)e->layer * n * q + (size_t)e->head * c->head_dim;
            e->ld = q;
        }
        lk->edits[kept++] = *e;
    }
    lk->n_edits = kept;
    (void)why;
    return 0;
}

void model_look_close(ModelLook *lk)
{
    free(lk->ids);
    free(lk->scores);
    free(lk->head);
    free(lk->thumbs);
    free(lk->logits);
    model_dist_free(&lk->next);
    model_dist_free(&lk->top);
    model_run_free(&lk->run);
    forget_made(lk, 1);
    free(lk->edits);
    free(lk->source_ids);
    model_run_free(&lk->source);
    model_dir_close(&lk->md);
    memset(lk, 0, sizeof *lk);
}

int model_look_tokens(ModelLook *lk, const int *ids, int n, char *why, size_t size)
{
    const ModelConfig *c = &lk->md.cfg;
    AttnError err = { 0 };
    ModelRun run;
    ModelAsk ask = { .every_position = 1, .edits = lk->edits, .n_edits = lk->n_edits,
                     .keep_stream = lk->keep_stream };
    int *copy = malloc((size_t)(n > 0 ? n : 1) * sizeof *copy);
    if (!copy) {
        snprintf(why, size, "out of memory");
        return -1;
    }
    if (n > c->context) {
        snprintf(why, size, "%d tokens, past the model's context of %d", n, c->context);
    } else if (bind_patches(lk, n, why, size) != 0) {
        ;
    } else if (model_dir_unchanged(&lk->md, why, size) != 0) {
        ;
    } else if (model_forward_asked(lk->md.model, ids, n, &ask, &run, &err) != ATTN_OK) {
        snprintf(why, size, "%s", err.msg);
    } else {
        int same = lk->ids && lk->n == n && memcmp(lk->ids, ids, (size_t)n * sizeof *ids) == 0;
        memcpy(copy, ids, (size_t)n * sizeof *copy);
        free(lk->ids), free(lk->head);
        model_run_free(&lk->run);
        lk->ids = copy, lk->n = n, lk->run = run, lk->head = NULL, lk->logits_pos = 0;
        free(lk->thumbs);
        lk->thumbs = NULL;      /* made when first asked for */
        forget_made(lk, !same);
        return 0;
    }
    free(copy);
    return -1;
}

int model_look_text(ModelLook *lk, const char *text, char *why, size_t size)
{
    return model_look_text_cut(lk, text, 0, why, size);
}

int *model_look_encode(const ModelLook *lk, const char *text, int cut, int *n_out, char *why, size_t size)
{
    const ModelConfig *c = &lk->md.cfg;
    if (!lk->md.bpe) {
        snprintf(why, size, "%s", lk->md.tokenizer_why);
        return NULL;
    }
    /* the whole text tokenized: the model's context refuses a longer one
     * (model_look_tokens), or keeps its first tokens when cut */
    int *ids;
    AttnError err = { 0 };
    long n = bpe_encode_all(lk->md.bpe, text, strlen(text), &ids, &err);
    int max = c->context < MODEL_LOOK_MAX_TOKENS ? c->context : MODEL_LOOK_MAX_TOKENS;
    if (cut && n > max)
        n = max;
    if (n < 0)
        snprintf(why, size, "%s", err.msg);
    else if (!ids)
        snprintf(why, size, "out of memory");
    else if (n == 0)
        snprintf(why, size, "the text is empty");
    else if (n > c->context)
        snprintf(why, size, "the text makes %ld tokens, past the model's context of %d", n, c->context);
    else {
        *n_out = (int)n;
        return ids;
    }
    free(ids);
    return NULL;
}

int model_look_text_cut(ModelLook *lk, const char *text, int cut, char *why, size_t size)
{
    int n, *ids = model_look_encode(lk, text, cut, &n, why, size);
    int rc = ids ? model_look_tokens(lk, ids, n, why, size) : -1;
    free(ids);
    return rc;
}

const char *model_look_token(const ModelLook *lk, int id) { return bpe_token_text(lk->md.bpe, id); }
size_t model_look_token_size(const ModelLook *lk, int id) { return bpe_token_size(lk->md.bpe, id); }

const float *model_look_attention(ModelLook *lk, int layer, int head)
{
    if (lk->head && lk->head_layer == layer && lk->head_index == head)
        return lk->head;
    AttnError err = { 0 };
    if (!lk->head && !(lk->head = malloc((size_t)lk->n * lk->n * sizeof *lk->head)))
        return NULL;
    if (model_attention(lk->md.model, &lk->run, layer, head, lk->head, &err) != ATTN_OK) {
        free(lk->head);
        lk->head = NULL;
        return NULL;
    }
    lk->head_layer = layer;
    lk->head_index = head;
    return lk->head;
}

const float *model_look_thumb(ModelLook *lk, int layer, int head)
{
    if (!lk->thumbs && make_thumbs(lk) != 0) {
        free(lk->thumbs);
        lk->thumbs = NULL;
        return NULL;
    }
    return lk->thumbs + ((size_t)layer * lk->run.heads + head) * lk->thumb * lk->thumb;
}

/* Every head made once and pooled to its thumbnail. */
static int make_thumbs(ModelLook *lk)
{
    int n = lk->n, t = n < MODEL_LOOK_THUMB ? n : MODEL_LOOK_THUMB, L = lk->run.layers, H = lk->run.heads;
    free(lk->thumbs);
    lk->thumb = t;
    if (!(lk->thumbs = malloc((size_t)L * H * t * t * sizeof *lk->thumbs)))
        return -1;
    for (int l = 0; l < L; l++)
        for (int h = 0; h < H; h++) {
            const float *a = model_look_attention(lk, l, h);
            float *out = lk->thumbs + ((size_t)l * H + h) * t * t;
            if (!a)
                return -1;
            for (int r = 0; r < t; r++)
                for (int c = 0; c < t; c++) {
                    float best = NAN;
                    for (int i = r * n / t; i < (r + 1) * n / t; i++)
                        for (int j = c * n / t; j < (c + 1) * n / t && j <= i; j++)
                            if (isnan(best) || a[(size_t)i * n + j] > best)
                                best = a[(size_t)i * n + j];
                    out[r * t + c] = best;
                }
        }
    return 0;
}

const float *model_look_logits(ModelLook *lk, int pos, char *why, size_t size)
{
    AttnError err = { 0 };
    if (lk->logits_pos == pos + 1)
        return lk->logits;
    if (!lk->logits && !(lk->logits = malloc((size_t)lk->run.vocab * sizeof *lk->logits))) {
        snprintf(why, size, "out of memory");
        return NULL;
    }
    if (model_dir_unchanged(&lk->md, why, size) != 0)
        return NULL;    /* the output embedding is read where it is mapped */
    if (model_logits_at(lk->md.model, &lk->run, pos, lk->logits, &err) != ATTN_OK) {
        snprintf(why, size, "%s", err.msg);
        return NULL;
    }
    lk->logits_pos = pos + 1;
    return lk->logits;
}

/* The k highest of z at temperature t by the one sampler's softmax and
 * order (model_gen.h), in d (made the first time, vocab wide): 0, or -1
 * with err (no memory). */
static int top_of(ModelDist *d, int vocab, const float *z, double t, int k, int *ids, double *p, AttnError *err)
{
    if (!d->p && model_dist_init(d, vocab, err) != ATTN_OK)
        return -1;
    model_dist_make(d, z, &(ModelSampling){ t, 0, 1.0 });
    model_top_ids(d->p, d->vocab, k, ids);
    for (int j = 0; j < k; j++)
        p[j] = d->p[ids[j]];
    return 0;
}

int model_look_next(ModelLook *lk, int pos, double t, int k, int *ids, double *p, char *why, size_t size)
{
    const float *z = model_look_logits(lk, pos, why, size);
    if (!z)
        return -1;
    AttnError err = { 0 };
    if (top_of(&lk->next, lk->run.vocab, z, t, k, ids, p, &err) != 0) {
        snprintf(why, size, "%s", err.msg);
        return -1;
    }
    return 0;
}

void model_look_top(ModelLook *lk, const float *z, double t, int k, int *ids, double *p)
{
    AttnError err = { 0 };
    if (top_of(&lk->top, lk->md.cfg.vocab, z, t, k, ids, p, &err) != 0)
        for (int j = 0; j < k; j++)
            ids[j] = j, p[j] = 0;
}

const char *model_look_joined(const ModelLook *lk, char *buf, size_t size)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < lk->n; i++) {
        const char *t = model_look_token(lk, lk->ids[i]);
        size_t len = t ? strlen(t) : 0;
        if (k + len + 1 > size)
            break;
        memcpy(buf + k, t ? t : "", len);
        k += len;
        buf[k] = '\0';
    }
    return buf;
}

const char *model_look_label(const ModelLook *lk, int id, int utf8, char *buf, size_t size)
{
    const char *t = model_look_token(lk, id);
    if (!t) {
        snprintf(buf, size, "#%d", id);
        return buf;
    }
    size_t k = 0;
    for (size_t i = 0; t[i] && k + 4 < size; i++) {
        unsigned char c = (unsigned char)t[i];
        const char *with = c == ' ' ? (utf8 ? "·" : "_") : c == '\n' ? (utf8 ? "↵" : "/") : NULL;
        if (with) {
            memcpy(buf + k, with, strlen(with));
            k += strlen(with);
        } else if (c >= 0x80) {
            /* a whole UTF-8 character as it is (on a UTF-8 terminal), a
             * byte that is not one as \xNN */
            size_t len = (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0, ok = len > 0;
            for (size_t j = 1; ok && j < len; j++)
                ok = ((unsigned char)t[i + j] & 0xc0) == 0x80;
            if (ok && utf8 && k + len + 1 < size) {
                memcpy(buf + k, t + i, len);
                k += len;
                i += len - 1;
            } else if (k + 5 < size) {
                k += (size_t)snprintf(buf + k, size - k, "\\x%02x", c);
            }
        } else {
            buf[k++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
        }
    }
    buf[k] = '\0';
    return buf;
}

const char *model_look_kind_short(const ModelLook *lk, int layer, int head, double *score)
{
    const char *kind = model_head_kind(&lk->scores[layer * lk->md.cfg.heads + head], score);
    return strcmp(kind, "previous-token") == 0 ? "prev" : strcmp(kind, "first-token") == 0 ? "sink"
         : strcmp(kind, "induction") == 0      ? "ind"  : kind;
}
