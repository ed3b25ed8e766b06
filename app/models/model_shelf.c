/*
 * model_shelf.c - the models on disk (model_shelf.h).
 */
#include "model_shelf.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lessonfile.h"
#include "model_dir.h"

const char model_shelf_how[] =
    "No model found. attn opens a model directory as the Hugging Face hub lays it out (config.json, "
    "model.safetensors, tokenizer.json or vocab.json + merges.txt), from your disk; it never downloads. "
    "To get GPT-2 small or SmolLM2-135M:\n"
    "  pip install -U huggingface_hub\n"
    "  huggingface-cli download openai-community/gpt2 --local-dir ~/models/gpt2\n"
    "  huggingface-cli download HuggingFaceTB/SmolLM2-135M --local-dir ~/models/SmolLM2-135M\n"
    "then: export ATTN_MODELS=~/models   (folders separated by ':'), or: attn model ~/models/gpt2";

static void add(ModelShelf *s, const char *path, int shipped)
{
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->path[i], path) == 0)
            return;
    if (s->n < MODEL_SHELF_MAX && (s->path[s->n] = strdup(path)) != NULL)
        s->shipped[s->n++] = shipped;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* dir itself when it is a model directory, else its subfolders that are. */
static void scan(ModelShelf *s, const char *dir, int shipped)
{
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return;
    if (model_dir_has(dir, "config.json")) {
        add(s, dir, shipped);
        return;
    }
    DIR *d = opendir(dir);
    if (!d)
        return;
    char *found[MODEL_SHELF_MAX];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < MODEL_SHELF_MAX) {
        if (e->d_name[0] == '.')
            continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode) && model_dir_has(path, "config.json"))
            found[n++] = strdup(path);
    }
    closedir(d);
    qsort(found, (size_t)n, sizeof *found, by_name);
    for (int i = 0; i < n; i++) {
        if (found[i])
            add(s, found[i], shipped);
        free(found[i]);
    }
}

void model_shelf_find(ModelShelf *s)
{
    memset(s, 0, sizeof *s);
    const char *env = getenv("ATTN_MODELS");
    if (env) {
        char *copy = strdup(env), *save = NULL;
        for (char *p = copy ? strtok_r(copy, ":", &save) : NULL; p; p = strtok_r(NULL, ":", &save))
            scan(s, p, 0);
        free(copy);
    }
    const char *shipped = lessonfile_shipped_models();
    if (shipped)
        scan(s, shipped, 1);
}

void model_shelf_free(ModelShelf *s)
{
    for (int i = 0; i < s->n; i++)
        free(s->path[i]);
    memset(s, 0, sizeof *s);
}
