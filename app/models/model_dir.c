/*
 * model_dir.c - a model directory opened (model_dir.h): its files read the
 * one way attn reads a file a person hands it (regular files only, a size
 * limit), the weights mapped where they lie, and each failure said with
 * the file it is about.
 */
#include "model_dir.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fileread.h"
#include "filewrite.h"
#include "json_read.h"

#define CONFIG_MAX_BYTES (1L << 20)
#define INDEX_MAX_BYTES (16L << 20)
#define TOKENIZER_MAX_BYTES (64L << 20)

/* "DIR/NAME: message" into why; -1. */
static int fail(char *why, size_t size, const char *dir, const char *name, const char *msg)
{
    snprintf(why, size, "%s/%s: %s", dir, name, msg);
    return -1;
}

/* dir's file name, whole and NUL-terminated, into *text (the caller frees
 * it): 0, or -1 with why. */
static int read_file(const char *dir, const char *name, size_t limit, char **text, char *why, size_t size)
{
    char path[PATH_MAX], msg[1024];
    size_t len;
    if (filewrite_join(path, sizeof path, dir, name) != 0)
        return fail(why, size, dir, name, "the path is too long");
    if (fileread_text(path, limit, text, &len, msg, sizeof msg) != 0)
        return fail(why, size, dir, name, msg);
    char *z = realloc(*text, len + 1);
    if (!z) {
        free(*text);
        return fail(why, size, dir, name, "out of memory");
    }
    z[len] = '\0';
    *text = z;
    return 0;
}

int model_dir_has(const char *dir, const char *name)
{
    /* stat, never open: opening a FIFO named config.json waited for ever
     * (the menu's m froze); what it is, a reader then says */
    char path[PATH_MAX];
    struct stat st;
    return filewrite_join(path, sizeof path, dir, name) == 0 && stat(path, &st) == 0;
}

int model_dir_config(const char *dir, ModelDir *md, char *why, size_t size)
{
    memset(md, 0, sizeof *md);
    if (strlen(dir) >= sizeof md->dir)
        return fail(why, size, dir, "", "the path is too long");
    snprintf(md->dir, sizeof md->dir, "%s", dir);
    char *text;
    if (read_file(dir, "config.json", CONFIG_MAX_BYTES, &text, why, size) != 0)
        return -1;
    AttnError err = { 0 };
    attn_status rc = model_config_parse(text, &md->cfg, &err);
    free(text);
    return rc == ATTN_OK ? 0 : fail(why, size, dir, "config.json", err.msg);
}

/* Map and check the shard file name, its tensors moved into md->st. */
static int add_shard(ModelDir *md, const char *name, char *why, size_t size)
{
    char path[PATH_MAX], msg[1024];
    if (filewrite_join(path, sizeof path, md->dir, name) != 0)
        return fail(why, size, md->dir, name, "the path is too long");
    ModelShard *s = &md->shard[md->n_shards];
    snprintf(s->name, sizeof s->name, "%s", name);
    s->first = md->st.n;
    if (fileread_map(path, &s->bytes, &s->size, msg, sizeof msg) != 0)
        return fail(why, size, md->dir, name, msg);
    md->n_shards++;
    struct stat st;
    if (stat(path, &st) == 0) {
        s->dev = (unsigned long long)st.st_dev;
        s->ino = (unsigned long long)st.st_ino;
        s->mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    }
    SafeTensors one;
    AttnError err = { 0 };
    if (safetensors_parse(s->bytes, s->size, &one, &err) != ATTN_OK)
        return fail(why, size, md->dir, name, err.msg);
    StTensor *all = realloc(md->st.tensors, (size_t)(md->st.n + one.n) * sizeof *all);
    if (!all) {
        safetensors_free(&one);
        return fail(why, size, md->dir, name, "out of memory");
    }
    md->st.tensors = all;
    for (int i = 0; i < one.n; i++) {
        if (safetensors_find(&md->st, one.tensors[i].name)) {
            snprintf(msg, sizeof msg, "tensor %.200s is in another shard too", one.tensors[i].name);
            for (int j = i; j < one.n; j++)
                free(one.tensors[j].name);
            free(one.tensors);
            return fail(why, size, md->dir, name, msg);
        }
        md->st.tensors[md->st.n++] = one.tensors[i];
        s->count++;
    }
    free(one.tensors);      /* the names now belong to md->st */
    return 0;
}

/* The shards model.safetensors.index.json lists ("weight_map": tensor ->
 * file), each a plain file name in the directory, every tensor in the
 * shard the index names. */
static int open_shards(ModelDir *md, char *why, size_t size)
{
    static const char index_name[] = "model.safetensors.index.json";
    char *text;
    if (read_file(md->dir, index_name, INDEX_MAX_BYTES, &text, why, size) != 0)
        return -1;
    JVal root;
    char jerr[160];
    int rc = json_parse(text, &root, jerr, sizeof jerr);
    free(text);
    if (rc != 0)
        return fail(why, size, md->dir, index_name, jerr);
    const JVal *map = json_get(&root, "weight_map");
    int status = 0;
    if (!map || map->type != J_OBJ || map->n == 0)
        status = fail(why, size, md->dir, index_name, "no \"weight_map\" of tensor -> shard file");
    for (int i = 0; status == 0 && i < map->n; i++) {
        const JVal *file = &map->items[i];
        char msg[600];
        if (file->type != J_STR || !file->str[0] || strchr(file->str, '/') || strcmp(file->str, "..") == 0
            || strcmp(file->str, ".") == 0) {
            snprintf(msg, sizeof msg, "tensor %.200s: its shard is not a file name in the directory", map->keys[i]);
            status = fail(why, size, md->dir, index_name, msg);
            break;
        }
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = strcmp(map->items[j].str, file->str) == 0;
        if (seen)
            continue;
        if (md->n_shards == MODEL_DIR_MAX_SHARDS) {
            snprintf(msg, sizeof msg, "more than %d shards", MODEL_DIR_MAX_SHARDS);
            status = fail(why, size, md->dir, index_name, msg);
        } else {
            status = add_shard(md, file->str, why, size);
        }
    }
    /* each tensor where the index says it is (a shard's own table names
     * what it holds; a tensor listed but absent is named) */
    for (int i = 0; status == 0 && i < map->n; i++) {
        const StTensor *t = safetensors_find(&md->st, map->keys[i]);
        int at = t ? (int)(t - md->st.tensors) : -1, in = -1;
        for (int k = 0; t && k < md->n_shards; k++)
            if (at >= md->shard[k].first && at < md->shard[k].first + md->shard[k].count)
                in = k;
        if (in < 0 || strcmp(md->shard[in].name, map->items[i].str) != 0) {
            char msg[600];
            snprintf(msg, sizeof msg, "tensor %.200s is listed in %.200s, which does not hold it", map->keys[i],
                     map->items[i].str);
            status = fail(why, size, md->dir, index_name, msg);
        }
    }
    json_free(&root);
    return status;
}

int model_dir_weights(ModelDir *md, char *why, size_t size)
{
    return model_dir_weights_as(md, MODEL_WEIGHTS_F32, why, size);
}

int model_dir_weights_as(ModelDir *md, ModelWeights how, char *why, size_t size)
{
    int sharded = !model_dir_has(md->dir, "model.safetensors") && model_dir_has(md->dir, "model.safetensors.index.json");
    if (sharded ? open_shards(md, why, size) != 0 : add_shard(md, "model.safetensors", why, size) != 0)
        return -1;
    AttnError err = { 0 };
    if (!(md->model = model_open_as(&md->cfg, &md->st, how, &err)))
        return fail(why, size, md->dir, sharded ? "model.safetensors.index.json" : "model.safetensors", err.msg);
    return 0;
}

int model_dir_tokenizer(ModelDir *md, char *why, size_t size)
{
    int json = model_dir_has(md->dir, "tokenizer.json");
    if (!json && !model_dir_has(md->dir, "vocab.json"))
        return 0;
    char *first = NULL, *merges = NULL;
    if (read_file(md->dir, json ? "tokenizer.json" : "vocab.json", TOKENIZER_MAX_BYTES, &first, why, size) != 0
        || (!json && read_file(md->dir, "merges.txt", TOKENIZER_MAX_BYTES, &merges, why, size) != 0)) {
        free(first);
        return -1;
    }
    AttnError err = { 0 };
    md->bpe = json ? bpe_open_json(first, md->cfg.vocab, &err)
                   : bpe_open(first, merges, strlen(merges), md->cfg.vocab, &err);
    free(first);
    free(merges);
    if (!md->bpe)
        return fail(why, size, md->dir,
                    json ? "tokenizer.json" : strstr(err.msg, "merges.txt") ? "merges.txt" : "vocab.json", err.msg);
    return 0;
}

int model_dir_open(const char *dir, ModelDir *md, char *why, size_t size)
{
    if (model_dir_config(dir, md, why, size) != 0 || model_dir_weights(md, why, size) != 0) {
        model_dir_close(md);
        return -1;
    }
    if (model_dir_tokenizer(md, md->tokenizer_why, sizeof md->tokenizer_why) != 0)
        md->bpe = NULL;
    else if (!md->bpe)
        snprintf(md->tokenizer_why, sizeof md->tokenizer_why,
                 "%s has no tokenizer (tokenizer.json, or vocab.json and merges.txt); give the tokens", dir);
    return 0;
}

int model_dir_unchanged(const ModelDir *md, char *why, size_t size)
{
    for (int i = 0; i < md->n_shards; i++) {
        const ModelShard *s = &md->shard[i];
        char path[PATH_MAX], msg[200];
        struct stat st;
        if (filewrite_join(path, sizeof path, md->dir, s->name) != 0)
            continue;
        if (stat(path, &st) != 0)
            snprintf(msg, sizeof msg, "it is gone (%s)", strerror(errno));
        else if ((unsigned long long)st.st_dev != s->dev || (unsigned long long)st.st_ino != s->ino)
            snprintf(msg, sizeof msg, "another file has taken its place");
        else if ((size_t)st.st_size != s->size)
            snprintf(msg, sizeof msg, "%zu bytes when opened, %lld now", s->size, (long long)st.st_size);
        else if ((long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec != s->mtime_ns)
            snprintf(msg, sizeof msg, "it was written to");
        else
            continue;
        snprintf(why, size, "%s/%s changed on disk since the model was opened (%s): open the model again", md->dir,
                 s->name, msg);
        return -1;
    }
    return 0;
}

int model_dir_reads(const ModelDir *md, const char *path)
{
    struct stat out;
    if (stat(path, &out) != 0)
        return 0;       /* a new file is none of them */
    static const char *const names[] = { "config.json", "model.safetensors", "model.safetensors.index.json",
                                         "tokenizer.json", "vocab.json", "merges.txt" };
    int n = (int)(sizeof names / sizeof names[0]);
    for (int i = 0; i < n + md->n_shards; i++) {
        char p[PATH_MAX];
        struct stat st;
        if (filewrite_join(p, sizeof p, md->dir, i < n ? names[i] : md->shard[i - n].name) == 0 && stat(p, &st) == 0
            && st.st_dev == out.st_dev && st.st_ino == out.st_ino)
            return 1;
    }
    return 0;
}

void model_dir_close(ModelDir *md)
{
    model_free(md->model);
    bpe_free(md->bpe);
    safetensors_free(&md->st);
    for (int i = 0; i < md->n_shards; i++)
        fileread_unmap(md->shard[i].bytes, md->shard[i].size);
    memset(md, 0, sizeof *md);
}
