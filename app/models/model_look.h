/*
 * model_look.h - a model looked at on a text (model_look.c): the model
 * directory opened, the text's tokens, one forward pass keeping every
 * head's attention and the next token's logits after every position, and
 * each head's kind. What `attn model` prints and the model screens show
 * come from here, the one way.
 *
 * Ownership: a ModelLook owns its ModelDir, its tokens, its run and its
 * scores; model_look_close releases them (a ModelLook zeroed is fine).
 */
#ifndef ATTN_MODEL_LOOK_H
#define ATTN_MODEL_LOOK_H

#include <stddef.h>

#include "model.h"
#include "model_gen.h"
#include "model_dir.h"

/* The file a model trained here carries beside its weights: how often each
 * token came in its training text ({"counts": [...]}, a number a token),
 * so its heads are probed with the tokens it learnt, as attn train
 * probes them (model_probe_heads). */
#define MODEL_COUNTS_FILE "token_counts.json"
/* The most of a text's first tokens the screen keeps when it cuts a text
 * (model_look_text_cut); a text is tokenized whole, and refused only by the
 * model's own context. */
#define MODEL_LOOK_MAX_TOKENS 4096

/* The side of a head's thumbnail: its attention pooled to at most this
 * many rows and columns, for the screen's every-head view. */
#define MODEL_LOOK_THUMB 48

typedef struct {
    ModelDir md;
    int *ids;           /* the tokens looked at */
    int n;
    ModelRun run;       /* their pass: each layer's queries and keys, every
                           position's logits, what each head does on them
                           (run.scores: previous, first, self)              */
    HeadScores *scores; /* layers x heads: what each head is, on the probe
                           (model_probe_heads), measured once at open       */
    char name[128];     /* the directory's last part, for titles */
    /* one head's attention made again (model_look_attention), and which */
    float *head;
    int head_layer, head_index;
    /* every head pooled (largest weight) to thumb x thumb, made when first
     * asked for */
    float *thumbs;
    int thumb;
    /* the logits after one position, and which (from 1; 0: none) */
    float *logits;
    int logits_pos;
    /* what every pass changes and keeps (model_effect.h): heads replaced
     * (owned; a patched head's numbers are found in the source at each
     * pass), the stream kept for the lens and the attribution */
    ModelHeadEdit *edits;
    int n_edits;
    int keep_stream;
    int patches_dropped; /* the last pass let go of this many patches: its
                            text was not the second text's length       */
    int *source_ids;    /* a patch's second text and its clean pass, every */
    int source_n;       /* head's output kept                              */
    ModelRun source;
    /* made from the run when first asked for (model_effect.h) */
    double *losses, loss;       /* the run's: n - 1 positions            */
    int has_losses;
    double *base_losses, base_loss; /* the same tokens without any edit    */
    float *base_logits;         /* (vocab) after the last token          */
    int has_base;
    int *lens_top;      /* (layers + 1) x n: the lens's top token there and */
    float *lens_p;      /* its probability; -1 until made                   */
    ModelAttribution attr;      /* the top next token's, when has_attr      */
    int has_attr;
    ModelDist next;     /* the next token's distribution (model_look_next):
                           the one sampler's softmax and order            */
    ModelDist top;      /* model_look_top's, made once and kept           */
} ModelLook;

/* Open the model directory dir (config, weights, tokenizer): 0, or -1 with
 * why ("FILE: message"). */
int model_look_open(ModelLook *lk, const char *dir, char *why, size_t size);
void model_look_close(ModelLook *lk);

/* Look at text (through the model's tokenizer) or at the tokens ids[0..n):
 * the pass and the heads' scores. 0, or -1 with why (no tokenizer, too
 * many tokens for the context, named); what was looked at before stays. */
int model_look_text(ModelLook *lk, const char *text, char *why, size_t size);
int model_look_tokens(ModelLook *lk, const int *ids, int n, char *why, size_t size);
/* The same, keeping the text's first tokens that fit the model's context
 * (cut) rather than refusing a longer text. */
int model_look_text_cut(ModelLook *lk, const char *text, int cut, char *why, size_t size);
/* text's tokens (malloc'd) through the model's tokenizer, their count in
 * *n (cut: the first that fit the context); NULL with why (no tokenizer,
 * empty, too many for the context, named). */
int *model_look_encode(const ModelLook *lk, const char *text, int cut, int *n, char *why, size_t size);
/* The tokens looked at, as text (their bytes joined) into buf. */
const char *model_look_joined(const ModelLook *lk, char *buf, size_t size);

/* Token id's text (its bytes, NUL-terminated), or NULL without a
 * tokenizer; and its length (a NUL byte may be one of them). */
const char *model_look_token(const ModelLook *lk, int id);
size_t model_look_token_size(const ModelLook *lk, int id);
/* Head head of layer layer's attention (from 0): n x n, row i the query's,
 * made again from the kept queries and keys when it is not the head made
 * last (the pointer holds until another head is asked for). NULL on no
 * memory. */
const float *model_look_attention(ModelLook *lk, int layer, int head);
/* The same pooled to lk->thumb x lk->thumb: each cell the largest weight of
 * the rows and columns it stands for, NAN above the diagonal; every head's
 * made at the first call for a text. NULL on no memory. */
const float *model_look_thumb(ModelLook *lk, int layer, int head);
/* The k most likely next tokens after position pos (from 0) at
 * temperature t > 0: ids and probabilities (of the softmax of logits / t),
 * highest first, ties to the lower id: the one sampler's softmax and order
 * (model_gen.h); k at most the vocabulary. 0, or -1 with why (no memory;
 * the weights changed on disk). */
int model_look_next(ModelLook *lk, int pos, double t, int k, int *ids, double *p, char *why, size_t size);
/* The k highest of z (lk's vocabulary of logits: a lens's, an edited
 * pass's) at temperature t > 0: ids and probabilities (the softmax of z /
 * t), highest first; zeros without the memory for it. */
void model_look_top(ModelLook *lk, const float *z, double t, int k, int *ids, double *p);
/* A token's text for a label: spaces as middle dots (underscores without
 * UTF-8), a newline as a return arrow, control bytes as '?', a byte that is
 * not UTF-8 as \xNN; "#ID" without a tokenizer. */
const char *model_look_label(const ModelLook *lk, int id, int utf8, char *buf, size_t size);
/* A head's kind in a few letters ("prev", "sink", "self", "ind", "broad")
 * and its score (both from 0). */
const char *model_look_kind_short(const ModelLook *lk, int layer, int head, double *score);
/* The logits after position pos (the pointer holds until another
 * position is asked for); NULL with why (no memory; the weights changed
 * on disk, model_dir_unchanged). */
const float *model_look_logits(ModelLook *lk, int pos, char *why, size_t size);

#endif
