/*
 * model_report.c - the loss, the lens and the attribution of a pass, for
 * `attn model` (model_report.h).
 */
#include "model_report.h"

#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "lesson.h"

int model_report_make(ModelLook *lk, int lens, int attribution, int k, ModelReport *r, char *why, size_t size)
{
    const ModelConfig *c = &lk->md.cfg;
    memset(r, 0, sizeof *r);
    r->lens = lens;
    r->attribution = attribution;
    r->k = k < c->vocab ? k : c->vocab;
    if (lens) {
        r->lens_ids = malloc((size_t)(c->layers + 1) * r->k * sizeof *r->lens_ids);
        r->lens_p = malloc((size_t)(c->layers + 1) * r->k * sizeof *r->lens_p);
        if (!r->lens_ids || !r->lens_p) {
            snprintf(why, size, "out of memory");
            return -1;
        }
        for (int l = 0; l <= c->layers; l++)
            if (model_effect_lens(lk, l, lk->n - 1, r->k, r->lens_ids + (size_t)l * r->k, r->lens_p + (size_t)l * r->k,
                                  why, size) != 0)
                return -1;
    }
    if (attribution && !(r->attr = model_effect_attribution(lk, why, size)))
        return -1;
    /* last: the lens may have made the pass again to keep the stream */
    r->losses = model_effect_losses(lk, &r->loss, why, size);
    return r->losses ? 0 : -1;
}

void model_report_free(ModelReport *r)
{
    free(r->lens_ids);
    free(r->lens_p);
    memset(r, 0, sizeof *r);
}

static void token_text(JsonWriter *w, const ModelLook *lk, int id)
{
    if (model_look_token(lk, id))
        jw_str_n(w, "text", model_look_token(lk, id), model_look_token_size(lk, id));
    else
        jw_null(w, "text");
}

void model_report_json(JsonWriter *w, const ModelLook *lk, const ModelReport *r)
{
    const ModelConfig *c = &lk->md.cfg;
    jw_newline(w);
    if (lk->n > 1)
        jw_num(w, "loss", r->loss, -1);
    else
        jw_null(w, "loss");     /* no position to predict from */
    jw_inline(w, "losses");
    for (int i = 0; i < lk->n - 1; i++)
        jw_num(w, NULL, r->losses[i], -1);
    jw_close(w, ']');
    if (r->lens) {
        jw_newline(w);
        jw_array(w, "lens");
        for (int l = 0; l <= c->layers; l++) {
            jw_object(w, NULL);
            jw_int(w, "layer", l);
            jw_inline(w, "top");
            for (int j = 0; j < r->k; j++) {
                int id = r->lens_ids[(size_t)l * r->k + j];
                jw_object(w, NULL);
                jw_int(w, "id", id);
                token_text(w, lk, id);
                jw_num(w, "p", r->lens_p[(size_t)l * r->k + j], -1);
                jw_close(w, '}');
            }
            jw_close(w, ']');
            jw_close(w, '}');
        }
        jw_close(w, ']');
    }
    if (r->attribution) {
        const ModelAttribution *a = r->attr;
        jw_newline(w);
        jw_object_lines(w, "attribution");
        jw_int(w, "token", a->token);
        jw_num(w, "logit", a->logit, -1);
        jw_inline(w, "heads");
        for (int l = 0; l < c->layers; l++)
            for (int h = 0; h < c->heads; h++) {
                jw_object(w, NULL);
                jw_int(w, "layer", l + 1);
                jw_int(w, "head", h + 1);
                jw_num(w, "logit", a->heads[l * c->heads + h], -1);
                jw_close(w, '}');
            }
        jw_close(w, ']');
        jw_inline(w, "mlps");
        for (int l = 0; l < c->layers; l++) {
            jw_object(w, NULL);
            jw_int(w, "layer", l + 1);
            jw_num(w, "logit", a->mlps[l], -1);
            jw_close(w, '}');
        }
        jw_close(w, ']');
        jw_num(w, "rest", a->rest, -1);
        jw_close(w, '}');
    }
}

/* id="text" (escaped), or the id alone without a tokenizer. */
static void say_token(FILE *f, const ModelLook *lk, int id)
{
    char shown[400];
    const char *t = model_look_token(lk, id);
    if (t)
        fprintf(f, "%d=\"%s\"", id, term_escape(t, shown, sizeof shown));
    else
        fprintf(f, "%d", id);
}

void model_report_text(FILE *f, const ModelLook *lk, const ModelReport *r)
{
    const ModelConfig *c = &lk->md.cfg;
    if (lk->n > 1)
        fprintf(f, "\nloss: %.4f nats a token, the mean over %d positions\n", r->loss, lk->n - 1);
    if (r->lens)
        fprintf(f, "\nlens: the last position's top tokens after each layer (0: the embeddings)\n");
    for (int l = 0; r->lens && l <= c->layers; l++) {
        fprintf(f, "  layer %2d:", l);
        for (int j = 0; j < r->k; j++) {
            fputc(' ', f);
            say_token(f, lk, r->lens_ids[(size_t)l * r->k + j]);
            fprintf(f, " %.4f", r->lens_p[(size_t)l * r->k + j]);
        }
        fputc('\n', f);
    }
    if (r->attribution) {
        const ModelAttribution *a = r->attr;
        fprintf(f, "\nattribution of ");
        say_token(f, lk, a->token);
        fprintf(f, "'s logit %.4f at the last position:\n", a->logit);
        for (int l = 0; l < c->layers; l++) {
            fprintf(f, "  layer %d heads", l + 1);
            for (int h = 0; h < c->heads; h++)
                fprintf(f, " %+.4f", a->heads[l * c->heads + h]);
            fprintf(f, "  mlp %+.4f\n", a->mlps[l]);
        }
        fprintf(f, "  rest (embeddings, biases) %+.4f\n", a->rest);
    }
}
