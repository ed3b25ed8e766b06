/*
 * model_cmd.c - `attn model PATH (--text TEXT | --tokens ID,...) [--json]
 * [--top K] [--attention-out FILE.npy] [--svg FILE [--head L.H]]`, and
 * `attn model PATH --tokenize FILE [--json]` (a whole file's ids, for
 * scripts, tokenize_cli.h): a checkpoint as the Hugging Face hub lays it out
 * (PATH/config.json, PATH/model.safetensors; for the text's
 * tokens and their text the byte-level BPE of PATH/tokenizer.json, or of
 * vocab.json and merges.txt), one forward pass over the tokens
 * (engine/model), and what
 * it shows: the model's sizes, the tokens, every head's kind and score, and
 * the next token's top K; every head's attention as one float32 .npy of
 * shape (layers, heads, n, n); every head, or one, as a picture
 * (model_svg.h). The weights are mapped read-only, never
 * copied whole. Anything unreadable: `FILE: message`, exit 2.
 *
 * `--generate N [--temperature X] [--top-k K] [--top-p P] [--seed S]
 * [--no-cache]`: N tokens after the text, one at a time, by the one
 * generator (look_gen.h: the key/value cache, the one sampler); with
 * --json the usual object and "generated", "generation"; else the text and
 * what was generated, plainly.
 */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "filewrite.h"
#include "json_read.h"
#include "json_write.h"
#include "text.h"
#include "lesson.h"
#include "bpe.h"
#include "model.h"
#include "head_lesson.h"
#include "gen_cli.h"
#include "tokenize_cli.h"
#include "look_gen.h"
#include "model_effect.h"
#include "model_look.h"
#include "model_report.h"
#include "model_svg.h"
#include "npy.h"
#include "safetensors.h"
#include "numfmt.h"

#define TOKENS_MAX MODEL_LOOK_MAX_TOKENS

/* "attn: FILE: message" on stderr, both shown safely; 2. */
static int model_dir_unreadable(const char *file, const char *msg)
{
    char f[1200], m[1200];
    fprintf(stderr, "attn: %s: %s\n", term_escape(file, f, sizeof f), term_escape(msg, m, sizeof m));
    return 2;
}

static int model_usage(const char *why)
{
    char shown[1024];
    fprintf(stderr, "attn: %s\nusage: attn model PATH (--text TEXT | --tokens ID,...) [--json] [--top K] "
                    "[--attention-out FILE.npy] [--head-lesson LAYER,HEAD DIR] [--svg FILE [--head L.H]] "
                    "[--generate N [--temperature X] [--top-k K] [--top-p P] [--seed S] [--no-cache]]\n"
                    "         [--ablate L.H[,L.H...]] [--ablate-with zero|mean] [--patch L.H[,L.H...] --from TEXT2] "
                    "[--lens] [--attribution]\n"
                    "       attn model PATH --tokenize FILE [--json]\n",
            term_escape(why, shown, sizeof shown));
    return 2;
}

/* "ID,ID,..." into ids; how many, or -1. */
static int parse_tokens(const char *text, int *ids, int max)
{
    int n = 0;
    const char *p = text;
    while (*p) {
        char *end;
        errno = 0;
        long v = strtol(p, &end, 10);
        if (end == p || errno || v < 0 || v > INT32_MAX || n == max || (*end && *end != ','))
            return -1;
        ids[n++] = (int)v;
        p = *end ? end + 1 : end;
        if (*end && !*p)
            return -1;
    }
    return n;
}

/* "L,H" (or "L.H", sep the character between) each from 1, within what
 * any model may have, into *layer, *head: 0, or -1. */
static int layer_head(const char *s, char sep, int *layer, int *head)
{
    char l[32];
    const char *comma = strchr(s, sep);
    long a, b;
    if (!comma || (size_t)(comma - s) >= sizeof l)
        return -1;
    memcpy(l, s, (size_t)(comma - s));
    l[comma - s] = '\0';
    if (num_parse_whole(l, 1, MODEL_MAX_LAYERS, &a) != 0 || num_parse_whole(comma + 1, 1, MODEL_MAX_WIDTH, &b) != 0)
        return -1;
    *layer = (int)a;
    *head = (int)b;
    return 0;
}

/* path made for an output of attn model: never one of the files the
 * model is read from (written over, a mapped checkpoint would change
 * under the pass). The file, or NULL with why. */
static FILE *create_output(const char *path, const ModelLook *lk, const char *what, char *why, size_t size)
{
    if (model_dir_reads(&lk->md, path)) {
        snprintf(why, size, "it is one of the model's own files: write the %s to another", what);
        return NULL;
    }
    return filewrite_create(path, why, size);
}

/* Every head's attention as float32, shape (layers, heads, n, n), each
 * head made again from the queries and keys the pass kept. */
static int write_attention(const char *path, ModelLook *lk, char *why, size_t size)
{
    FILE *f = create_output(path, lk, "attention", why, size);
    if (!f)
        return -1;
    const ModelRun *run = &lk->run;
    char head[128];
    int64_t shape[4] = { run->layers, run->heads, run->n, run->n };
    size_t hlen = npy_header_f32(head, sizeof head, shape, 4), count = (size_t)run->n * run->n;
    int ok = hlen > 0 && fwrite(head, 1, hlen, f) == hlen;
    for (int l = 0; ok && l < run->layers; l++)
        for (int h = 0; ok && h < run->heads; h++) {
            const float *a = model_look_attention(lk, l, h);
            ok = a && fwrite(a, sizeof *a, count, f) == count;
        }
    if (fclose(f) != 0 || !ok) {
        snprintf(why, size, "could not be written: %s", strerror(errno ? errno : EIO));
        return -1;
    }
    return 0;
}

/* Every head (layer < 0), or one, as a picture into path. */
static int write_svg(const char *path, ModelLook *lk, int layer, int head, char *why, size_t size)
{
    int grey = text_no_color();
    char *doc = layer < 0 ? model_svg_heads(lk, grey) : model_svg_head(lk, layer, head, grey);
    FILE *f = doc ? create_output(path, lk, "picture", why, size) : NULL;
    int ok = f != NULL;
    errno = 0;
    if (f) {
        ok = fputs(doc, f) != EOF;
        ok &= fclose(f) == 0;
    }
    if (!doc)
        snprintf(why, size, "out of memory");
    else if (f && !ok)
        snprintf(why, size, "could not be written: %s", strerror(errno ? errno : EIO));
    free(doc);
    return ok ? 0 : -1;
}

/* The next token after the last: the top k and their probabilities, the
 * logits they come from. */
typedef struct {
    int k;
    int *ids;
    double *p;
    const float *logits;    /* lk's (model_look_logits) */
} NextTokens;

/* nx for lk's text: 0, or -1 with why. */
static int next_tokens(ModelLook *lk, int k, NextTokens *nx, char *why, size_t size)
{
    nx->k = k;
    nx->ids = malloc((size_t)k * sizeof *nx->ids);
    nx->p = malloc((size_t)k * sizeof *nx->p);
    if (!nx->ids || !nx->p) {
        snprintf(why, size, "out of memory");
        return -1;
    }
    if (model_look_next(lk, lk->n - 1, 1.0, k, nx->ids, nx->p, why, size) != 0)
        return -1;
    nx->logits = model_look_logits(lk, lk->n - 1, why, size);
    return nx->logits ? 0 : -1;
}

/* ---- testing what a head does: --ablate, --patch, --lens, --attribution ---- */

typedef struct {
    const char *ablate, *with, *patch, *from;   /* as given, or NULL */
    int lens, attribution;
} EffectArgs;

/* Take argv[*i] when it is one of the block's options: 1 (taken), 0 (not
 * one of them). */
static int effect_option(EffectArgs *e, int argc, char **argv, int *i)
{
    const char *o = argv[*i];
    const char **slot = strcmp(o, "--ablate") == 0 ? &e->ablate : strcmp(o, "--ablate-with") == 0 ? &e->with
                      : strcmp(o, "--patch") == 0  ? &e->patch  : strcmp(o, "--from") == 0        ? &e->from : NULL;
    if (slot && *i + 1 < argc) {
        *slot = argv[++*i];
        return 1;
    }
    if (strcmp(o, "--lens") == 0 || strcmp(o, "--attribution") == 0) {
        *(o[2] == 'l' ? &e->lens : &e->attribution) = 1;
        return 1;
    }
    return 0;
}

/* What the block's options say alone, before a model is read: NULL, or
 * the usage message. */
static const char *effect_usage(const EffectArgs *e)
{
    if (e->with && strcmp(e->with, "zero") != 0 && strcmp(e->with, "mean") != 0)
        return "--ablate-with takes zero or mean";
    if (e->with && !e->ablate)
        return "--ablate-with says how --ablate replaces a head: --ablate L.H --ablate-with mean";
    if (e->patch && !e->from)
        return "--patch needs --from TEXT2, the text whose head outputs are put in";
    if (e->from && !e->patch)
        return "--from gives the text --patch takes the heads from: --patch L.H --from TEXT2";
    return NULL;
}

/* The heads of list ("L.H,L.H", from 1) appended to ed as how, each within
 * c and named once in all of ed: 0, or 2 with the usage message. */
static int effect_heads(const char *opt, const char *list, ModelEditHow how, const ModelConfig *c, ModelHeadEdit *ed,
                        int *n, int max)
{
    char item[64], msg[200];
    if (!*list) {
        snprintf(msg, sizeof msg, "%s takes LAYER.HEAD (from 1), several with commas: %s 3.2,1.4", opt, opt);
        return model_usage(msg);
    }
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        int layer, head;
        snprintf(item, sizeof item, "%.*s", (int)(len < sizeof item ? len : sizeof item - 1), p);
        if (len >= sizeof item || layer_head(item, '.', &layer, &head) != 0 || (p[len] == ',' && !p[len + 1])) {
            snprintf(msg, sizeof msg, "%s takes LAYER.HEAD (from 1), several with commas: %s 3.2,1.4", opt, opt);
            return model_usage(msg);
        }
        if (layer > c->layers || head > c->heads) {
            snprintf(msg, sizeof msg, "%s: the model has no head %d.%d (layers 1 to %d, heads 1 to %d)", opt, layer,
                     head, c->layers, c->heads);
            return model_usage(msg);
        }
        for (int k = 0; k < *n; k++)
            if (ed[k].layer == layer - 1 && ed[k].head == head - 1) {
                snprintf(msg, sizeof msg, "%s: head %d.%d is named twice (or by --ablate and --patch both)", opt,
                         layer, head);
                return model_usage(msg);
            }
        if (*n == max)
            return model_usage("too many heads to change");
        ed[(*n)++] = (ModelHeadEdit){ .layer = layer - 1, .head = head - 1, .how = how };
        p += len + (p[len] == ',');
    }
    return 0;
}

/* The block's options put to lk, before it looks at the text's n tokens:
 * the heads to replace, the second text passed (as many tokens), the
 * stream kept for the lens and the attribution. 0, or 2 with the message
 * said. */
static int effect_prepare(ModelLook *lk, const EffectArgs *e, int n)
{
    static ModelHeadEdit ed[4 * MODEL_MAX_LAYERS];
    const ModelConfig *c = &lk->md.cfg;
    int count = 0, status = 0, n2 = 0, *ids2 = NULL;
    char why[2048], shown[2100];
    ModelEditHow how = e->with && strcmp(e->with, "mean") == 0 ? MODEL_EDIT_MEAN : MODEL_EDIT_ZERO;
    if ((e->ablate && (status = effect_heads("--ablate", e->ablate, how, c, ed, &count, 4 * MODEL_MAX_LAYERS)))
        || (e->patch && (status = effect_heads("--patch", e->patch, MODEL_EDIT_GIVEN, c, ed, &count,
                                               4 * MODEL_MAX_LAYERS))))
        return status;
    lk->keep_stream = e->lens || e->attribution;
    if (e->from && !(ids2 = model_look_encode(lk, e->from, 0, &n2, why, sizeof why))) {
        fprintf(stderr, "attn: --from: %s\n", term_escape(why, shown, sizeof shown));
        return 2;
    }
    if (e->from && n2 != n) {
        snprintf(why, sizeof why, "--patch: the text is %d tokens and --from's %d; a patch needs as many in both", n,
                 n2);
        free(ids2);
        return model_usage(why);
    }
    if ((ids2 && model_effect_source(lk, ids2, n2, why, sizeof why) != 0)
        || model_effect_edit(lk, ed, count, why, sizeof why) != 0) {
        fprintf(stderr, "attn: %s\n", term_escape(why, shown, sizeof shown));
        status = 2;
    }
    free(ids2);
    return status;
}

static int print_json(ModelLook *lk, const NextTokens *nx, const LookGen *gen, const ModelReport *rep)
{
    const ModelConfig *c = &lk->md.cfg;
    const int *ids = lk->ids, n = lk->n;
    JsonWriter w;
    jw_begin(&w);
    jw_object(&w, "model");
    jw_str(&w, "family", c->family);
    jw_int(&w, "layers", c->layers);
    jw_int(&w, "heads", c->heads);
    jw_int(&w, "kv_heads", c->kv_heads);
    jw_int(&w, "d_model", c->d_model);
    jw_int(&w, "vocab", c->vocab);
    jw_int(&w, "context", c->context);
    jw_int(&w, "params", model_params(lk->md.model));
    jw_close(&w, '}');
    jw_newline(&w);
    jw_inline(&w, "tokens");
    for (int i = 0; i < n; i++) {
        jw_object(&w, NULL);
        jw_int(&w, "id", ids[i]);
        if (model_look_token(lk, ids[i]))
            jw_str_n(&w, "text", model_look_token(lk, ids[i]), model_look_token_size(lk, ids[i]));
        else
            jw_null(&w, "text");
        jw_close(&w, '}');
    }
    jw_close(&w, ']');
    jw_newline(&w);
    jw_array(&w, "heads");
    for (int l = 0; l < c->layers; l++)
        for (int h = 0; h < c->heads; h++) {
            double score;
            const char *kind = model_head_kind(&lk->scores[l * c->heads + h], &score);
            jw_object(&w, NULL);
            jw_int(&w, "layer", l + 1);
            jw_int(&w, "head", h + 1);
            jw_str(&w, "kind", kind);
            jw_num(&w, "score", score, 4);
            /* what it is, on the probe (its four scores, which name the
             * kind), and what it does on this text */
            const HeadScores *p = &lk->scores[l * c->heads + h], *t = &lk->run.scores[l * c->heads + h];
            jw_object(&w, "scores");
            jw_num(&w, "previous", p->previous, 4);
            jw_num(&w, "first", p->first, 4);
            jw_num(&w, "self", p->self, 4);
            jw_num(&w, "induction", p->induction, 4);
            jw_close(&w, '}');
            jw_object(&w, "on_text");
            jw_num(&w, "previous", t->previous, 6);
            jw_num(&w, "first", t->first, 6);
            jw_num(&w, "self", t->self, 6);
            jw_close(&w, '}');
            jw_close(&w, '}');
        }
    jw_close(&w, ']');
    /* the next token after the last: softmax of the logits, the top k */
    jw_newline(&w);
    jw_array(&w, "next");
    for (int j = 0; j < nx->k; j++) {
        jw_object(&w, NULL);
        jw_int(&w, "id", nx->ids[j]);
        if (model_look_token(lk, nx->ids[j]))
            jw_str_n(&w, "text", model_look_token(lk, nx->ids[j]), model_look_token_size(lk, nx->ids[j]));
        else
            jw_null(&w, "text");
        jw_num(&w, "logit", nx->logits[nx->ids[j]], -1);
        jw_num(&w, "p", nx->p[j], -1);
        jw_close(&w, '}');
    }
    jw_close(&w, ']');
    if (gen)
        gen_json(&w, lk, gen);
    model_report_json(&w, lk, rep);
    jw_end(&w);
    return jw_print(&w, stdout);
}

static void print_plain(ModelLook *lk, const NextTokens *nx, const ModelReport *rep)
{
    const ModelConfig *c = &lk->md.cfg;
    const int *ids = lk->ids, n = lk->n;
    char shown[400];
    printf("%s: %d layers x %d heads, width %d, vocabulary %d, context %d, %lld parameters\n", c->family, c->layers,
           c->heads, c->d_model, c->vocab, c->context, (long long)model_params(lk->md.model));
    printf("%d tokens:", n);
    for (int i = 0; i < n; i++)
        printf(" %d%s%s%s", ids[i], model_look_token(lk, ids[i]) ? "=\"" : "",
               model_look_token(lk, ids[i]) ? term_escape(model_look_token(lk, ids[i]), shown, sizeof shown) : "",
               model_look_token(lk, ids[i]) ? "\"" : "");
    printf("\n\nlayer head  kind            score\n");
    for (int l = 0; l < c->layers; l++)
        for (int h = 0; h < c->heads; h++) {
            double score;
            const char *kind = model_head_kind(&lk->scores[l * c->heads + h], &score);
            printf("%5d %4d  %-15s %.4f\n", l + 1, h + 1, kind, score);
        }
    printf("\nnext token:");
    for (int j = 0; j < nx->k; j++) {
        int id = nx->ids[j];
        printf(" %d%s%s%s (logit %.4f)", id, model_look_token(lk, id) ? "=\"" : "",
               model_look_token(lk, id) ? term_escape(model_look_token(lk, id), shown, sizeof shown) : "",
               model_look_token(lk, id) ? "\"" : "", nx->logits[id]);
    }
    printf("\n");
    model_report_text(stdout, lk, rep);
}

int cli_model(int argc, char **argv)
{
    const char *dir = NULL, *tokens = NULL, *words = NULL, *att_out = NULL, *lesson_dir = NULL, *svg = NULL;
    static const char *tokenize[TOKENIZE_MAX_FILES];
    int n_tokenize = 0;
    char why_knob[160];
    int json = 0, k = 5, lesson_layer = 0, lesson_head = 0, svg_layer = 0, svg_head = 0;
    GenOptions gen = { .s = MODEL_SAMPLING_DEFAULT, .seed = 1 };
    EffectArgs fx = { 0 };
    for (int i = 1; i < argc; i++) {
        const char *bad = NULL;
        int is_gen = gen_option(argc, argv, &i, &gen, &bad);
        if (is_gen < 0)
            return model_usage(bad);
        if (is_gen || effect_option(&fx, argc, argv, &i))
            continue;
        if (strcmp(argv[i], "--json") == 0)
            json = 1;
        else if (strcmp(argv[i], "--tokens") == 0 && i + 1 < argc)
            tokens = argv[++i];
        else if (strcmp(argv[i], "--text") == 0 && i + 1 < argc)
            words = argv[++i];
        else if (strcmp(argv[i], "--tokenize") == 0 && i + 1 < argc) {
            if (n_tokenize == TOKENIZE_MAX_FILES)
                return model_usage("--tokenize takes at most 1024 files");
            tokenize[n_tokenize++] = argv[++i];
        }
        else if (strcmp(argv[i], "--top") == 0 && i + 1 < argc) {
            long v;
            if (num_parse_whole(argv[++i], 1, 1000, &v) != 0)
                return model_usage("--top takes a number from 1 to 1000");
            k = (int)v;
        } else if (strcmp(argv[i], "--head-lesson") == 0 && i + 2 < argc) {
            if (layer_head(argv[++i], ',', &lesson_layer, &lesson_head) != 0)
                return model_usage("--head-lesson takes LAYER,HEAD (from 1) and a folder: --head-lesson 5,1 DIR");
            lesson_dir = argv[++i];
        } else if (strcmp(argv[i], "--head") == 0 && i + 1 < argc) {
            if (layer_head(argv[++i], '.', &svg_layer, &svg_head) != 0)
                return model_usage("--head takes LAYER.HEAD (from 1): --head 5.1");
        } else if (strcmp(argv[i], "--svg") == 0 && i + 1 < argc)
            svg = argv[++i];
        else if (strcmp(argv[i], "--attention-out") == 0 && i + 1 < argc)
            att_out = argv[++i];
        else if (argv[i][0] == '-')
            return model_usage("unknown option, or an option without its value");
        else if (dir)
            return model_usage("one model directory only");
        else
            dir = argv[i];
    }
    if (!dir)
        return model_usage("which model? give its directory (config.json, model.safetensors)");
    if (n_tokenize && (tokens || words || att_out || lesson_dir || svg))
        return model_usage("--tokenize FILE goes with --json alone");
    if (n_tokenize)
        return tokenize_cli(dir, tokenize, n_tokenize, json);
    if (!tokens == !words)
        return model_usage("give the text (--text TEXT) or its tokens (--tokens ID,ID,...), one of them");
    if (svg_layer && !svg)
        return model_usage("--head L.H picks the head of a picture: --svg FILE --head 5.1");
    if (gen.knob && !gen.n) {
        snprintf(why_knob, sizeof why_knob, "%s is a knob of --generate N: give that too", gen.knob);
        return model_usage(why_knob);
    }
    if (gen.n && (att_out || lesson_dir || svg))
        return model_usage("--generate writes text: not with --attention-out, --head-lesson or --svg");
    if (effect_usage(&fx))
        return model_usage(effect_usage(&fx));
    if (lesson_dir && (fx.ablate || fx.patch))
        return model_usage("--head-lesson writes the model as it is: not with --ablate or --patch");
    static int ids[TOKENS_MAX];
    int n = tokens ? parse_tokens(tokens, ids, TOKENS_MAX) : 0;
    if (tokens && n < 1)
        return model_usage("--tokens takes ids separated by commas: --tokens 464,3290,318");
    char why[2048], shown[4 * PATH_MAX + 64], path[PATH_MAX];
    ModelLook lk;
    int status = 0;
    if (model_look_open(&lk, dir, why, sizeof why) != 0) {
        fprintf(stderr, "attn: %s\n", term_escape(why, shown, sizeof shown));
        return 2;
    }
    const ModelConfig *c = &lk.md.cfg;
    int *text_ids = NULL;
    if (words && !lk.md.bpe) {
        fprintf(stderr, "attn: %s\n", term_escape(lk.md.tokenizer_why, shown, sizeof shown));
        status = 2;
    } else if (words && !(text_ids = model_look_encode(&lk, words, 0, &n, why, sizeof why)))
        status = model_usage(why);
    else if ((status = effect_prepare(&lk, &fx, n)) != 0)
        ;
    else if (model_look_tokens(&lk, text_ids ? text_ids : ids, n, why, sizeof why) != 0)
        status = model_usage(why);
    else if (att_out && write_attention(att_out, &lk, why, sizeof why) != 0)
        status = model_dir_unreadable(att_out, why);
    else if (gen.n > c->context) {
        snprintf(why, sizeof why, "--generate %d is past the model's context of %d tokens", gen.n, c->context);
        status = model_usage(why);
    } else if (lesson_dir && (lesson_layer > c->layers || lesson_head > c->heads))
        status = model_usage("--head-lesson: the model has no such layer or head");
    else if (svg && (svg_layer > c->layers || svg_head > c->heads))
        status = model_usage("--head: the model has no such layer or head");
    else if (svg && write_svg(svg, &lk, svg_layer - 1, svg_head - 1, why, sizeof why) != 0)
        status = model_dir_unreadable(svg, why);
    else if (lesson_dir && head_lesson_write(&lk, lesson_layer, lesson_head, words, lesson_dir, path, sizeof path, why,
                                             sizeof why) != 0) {
        fprintf(stderr, "attn: %s\n", term_escape(why, shown, sizeof shown));
        status = 2;
    } else if (lesson_dir && !json)
        printf("%s\n", term_escape(path, shown, sizeof shown));
    else if (svg && !json)
        printf("%s\n", term_escape(svg, shown, sizeof shown));
    else if (!lesson_dir || json) {
        NextTokens nx = { 0 };
        LookGen g = { 0 };
        ModelReport rep = { 0 };
        if (model_report_make(&lk, fx.lens, fx.attribution, k, &rep, why, sizeof why) != 0
            || next_tokens(&lk, k < c->vocab ? k : c->vocab, &nx, why, sizeof why) != 0) {
            fprintf(stderr, "attn: %s\n", term_escape(why, shown, sizeof shown));
            status = 2;
        } else if (gen.n && (status = gen_run(&lk, &gen, &g)) != 0) {
            ;
        } else if (json) {
            status = print_json(&lk, &nx, gen.n ? &g : NULL, &rep) == 0 ? 0 : 2;
        } else if (gen.n) {
            status = gen_print(&lk, &g);
        } else {
            print_plain(&lk, &nx, &rep);
        }
        look_gen_end(&g);
        model_report_free(&rep);
        free(nx.ids);
        free(nx.p);
    }
    free(text_ids);
    model_look_close(&lk);
    if (status == 0 && fflush(stdout) != 0)
        status = 2;
    return status;
}
