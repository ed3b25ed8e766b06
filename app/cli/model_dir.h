/*
 * model_dir.h - a model directory as the Hugging Face hub lays it out,
 * opened the one way `attn model` and `attn bench --model` open it
 * (model_dir.c): config.json read and checked, model.safetensors mapped
 * read-only and checked, the model on its tensors.
 *
 * Ownership: the ModelDir owns the mapping, the tensors' table and the
 * model; model_dir_close releases them (a ModelDir zeroed is fine).
 */
#ifndef ATTN_MODEL_DIR_H
#define ATTN_MODEL_DIR_H

#include <stddef.h>

#include "model.h"
#include "safetensors.h"

typedef struct {
    ModelConfig cfg;
    const unsigned char *bytes;     /* model.safetensors, mapped            */
    size_t size;
    SafeTensors st;
    Model *model;
} ModelDir;

/* dir's config.json into md->cfg: 0, or 2 having said `attn: FILE: why`. */
int model_dir_config(const char *dir, ModelDir *md);
/* Then its model.safetensors and the model on it: 0, or 2 having said why
 * (a checkpoint in shards named as such). */
int model_dir_weights(const char *dir, ModelDir *md);
void model_dir_close(ModelDir *md);

/* "attn: FILE: message" on stderr, both shown safely; 2. */
int model_dir_unreadable(const char *file, const char *msg);
/* dir's file name read whole and NUL-terminated into *text (the caller
 * frees it): 0, or 2 having said why. */
int model_dir_read(const char *dir, const char *name, size_t limit, char **text, size_t *len);
/* Does dir hold the file name? */
int model_dir_has(const char *dir, const char *name);

#endif
