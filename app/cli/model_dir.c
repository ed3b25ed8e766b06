/*
 * model_dir.c - a model directory opened (model_dir.h): its files read the
 * one way attn reads a file a person hands it (regular files only), and
 * each failure said with the file it is about.
 */
#include "model_dir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson.h"
#include "lessonfile.h"

#define CONFIG_MAX_BYTES (1L << 20)

int model_dir_unreadable(const char *file, const char *msg)
{
    char f[1200], m[1200];
    fprintf(stderr, "attn: %s: %s\n", lesson_escape(file, f, sizeof f), lesson_escape(msg, m, sizeof m));
    return 2;
}

int model_dir_read(const char *dir, const char *name, size_t limit, char **text, size_t *len)
{
    char path[4200], why[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (lessonfile_read_text(path, limit, text, len, why, sizeof why) != 0)
        return model_dir_unreadable(path, why);
    char *z = realloc(*text, *len + 1);
    if (!z) {
        free(*text);
        return model_dir_unreadable(path, "out of memory");
    }
    z[*len] = '\0';
    *text = z;
    return 0;
}

int model_dir_has(const char *dir, const char *name)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (f)
        fclose(f);
    return f != NULL;
}

int model_dir_config(const char *dir, ModelDir *md)
{
    memset(md, 0, sizeof *md);
    char *text;
    size_t len;
    if (model_dir_read(dir, "config.json", CONFIG_MAX_BYTES, &text, &len) != 0)
        return 2;
    AttnError err = { 0 };
    attn_status rc = model_config_parse(text, &md->cfg, &err);
    free(text);
    if (rc == ATTN_OK)
        return 0;
    char path[4200];
    snprintf(path, sizeof path, "%s/config.json", dir);
    return model_dir_unreadable(path, err.msg);
}

int model_dir_weights(const char *dir, ModelDir *md)
{
    char path[4200], why[1024];
    snprintf(path, sizeof path, "%s/model.safetensors", dir);
    if (lessonfile_map(path, &md->bytes, &md->size, why, sizeof why) != 0) {
        if (model_dir_has(dir, "model.safetensors.index.json")) {
            snprintf(path, sizeof path, "%s/model.safetensors.index.json", dir);
            return model_dir_unreadable(path, "a checkpoint in shards, which attn does not read yet");
        }
        return model_dir_unreadable(path, why);
    }
    AttnError err = { 0 };
    if (safetensors_parse(md->bytes, md->size, &md->st, &err) != ATTN_OK
        || !(md->model = model_open(&md->cfg, &md->st, &err)))
        return model_dir_unreadable(path, err.msg);
    return 0;
}

void model_dir_close(ModelDir *md)
{
    model_free(md->model);
    safetensors_free(&md->st);
    lessonfile_unmap(md->bytes, md->size);
    memset(md, 0, sizeof *md);
}
