/*
 * model_shelf.h - the models a person has on disk, for the menu's "Real
 * models" (model_shelf.c): each directory of $ATTN_MODELS (colon-separated)
 * that is a model directory (it holds config.json), or whose subfolders
 * are; and the models attn ships (models/ beside the lessons). Nothing is
 * opened: a model is opened when it is chosen.
 *
 * Ownership: a ModelShelf owns its paths (model_shelf_free).
 */
#ifndef ATTN_MODEL_SHELF_H
#define ATTN_MODEL_SHELF_H

#define MODEL_SHELF_MAX 256

typedef struct {
    char *path[MODEL_SHELF_MAX];
    int shipped[MODEL_SHELF_MAX];   /* 1: one attn ships */
    int n;
} ModelShelf;

/* Find them (models from $ATTN_MODELS first, then the shipped ones, each
 * folder's in name order). */
void model_shelf_find(ModelShelf *s);
void model_shelf_free(ModelShelf *s);

/* Where to get a model from the hub, for a shelf that is empty. */
extern const char model_shelf_how[];

#endif
