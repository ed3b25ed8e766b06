/*
 * model_dir.h - a model directory as the Hugging Face hub lays it out,
 * opened the one way every part of attn opens it (model_dir.c): `attn
 * model`, `attn bench --model` and the model screens. config.json read and
 * checked; the weights mapped read-only and checked, from model.safetensors
 * or from the shards model.safetensors.index.json lists; the model on
 * them; the tokenizer from tokenizer.json, or vocab.json and merges.txt.
 *
 * Every failure is said in why as "FILE: message" (the caller shows it:
 * stderr for a command, the message line for a screen).
 *
 * Ownership: the ModelDir owns the mappings, the tensors' table, the model
 * and the tokenizer; model_dir_close releases them (a ModelDir zeroed is
 * fine).
 */
#ifndef ATTN_MODEL_DIR_H
#define ATTN_MODEL_DIR_H

#include <stddef.h>

#include "bpe.h"
#include "model.h"
#include "safetensors.h"

/* The most shards a checkpoint may come in. */
#define MODEL_DIR_MAX_SHARDS 64

typedef struct {
    char name[256];
    const unsigned char *bytes;
    size_t size;
    int first, count;   /* its tensors in the ModelDir's table */
    /* the file as it was mapped: a file cut shorter under its mapping is a
     * bus error at the first touch, so it is compared before each use */
    unsigned long long dev, ino;
    long long mtime_ns;
} ModelShard;

typedef struct {
    char dir[4096];     /* PATH_MAX */
    ModelConfig cfg;
    ModelShard shard[MODEL_DIR_MAX_SHARDS];     /* each mapped file */
    int n_shards;
    SafeTensors st;     /* every shard's tensors in one table */
    Model *model;
    Bpe *bpe;           /* NULL: the directory has no tokenizer, or one that
                           could not be read (tokenizer_why says why)      */
    char tokenizer_why[1200];
} ModelDir;

/* dir's config.json into md->cfg: 0, or -1 with why. */
int model_dir_config(const char *dir, ModelDir *md, char *why, size_t size);
/* Then its weights and the model on them: 0, or -1 with why. */
int model_dir_weights(ModelDir *md, char *why, size_t size);
/* The same, its BF16 weights as how says (model_open_as); model_dir_weights
 * converts them to float32. */
int model_dir_weights_as(ModelDir *md, ModelWeights how, char *why, size_t size);
/* Then its tokenizer, when it has one (md->bpe stays NULL when it has
 * none): 0, or -1 with why. */
int model_dir_tokenizer(ModelDir *md, char *why, size_t size);
/* All three; a tokenizer that cannot be read does not stop the model
 * (tokens given as ids need none): it is left NULL, and tokenizer_why
 * says why. */
int model_dir_open(const char *dir, ModelDir *md, char *why, size_t size);
void model_dir_close(ModelDir *md);

/* Does dir hold something named name (stat, never open: a FIFO is never
 * waited on; what it is, the reader says)? */
int model_dir_has(const char *dir, const char *name);

/* Are the mapped weights still the files they were when mapped (the same
 * file, size and time)? 0, or -1 with why ("DIR/NAME changed on disk since
 * the model was opened: ..."). Checked before every pass and every read of
 * the weights, so a file cut short under the model is a message, not a
 * bus error. */
int model_dir_unchanged(const ModelDir *md, char *why, size_t size);
/* Is path one of the files md reads (config, weights, index, tokenizer)?
 * An output is never one of them (--attention-out model.safetensors once
 * truncated the weights it had mapped). */
int model_dir_reads(const ModelDir *md, const char *path);

#endif
