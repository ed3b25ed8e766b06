/*
 * tokenize_cli.c - `attn model PATH --tokenize FILE [--json]` for scripts
 * (tokenize_cli.h): the whole of each file in ids by the folder's
 * tokenizer, a line of them or {"count": N, "ids": [...]}.
 */
#include "tokenize_cli.h"

#include <stdio.h>
#include <stdlib.h>

#include "bpe.h"
#include "escape.h"
#include "fileread.h"
#include "json_write.h"
#include "lesson.h"
#include "model_dir.h"

/* The most a file given to --tokenize may hold. */
#define TOKENIZE_MAX_BYTES (256L << 20)

/* One file's ids: a line of them, or {"count": N, "ids": [...]}. 0, or -1
 * with why. */
static int tokenize_one(const Bpe *bpe, const char *file, int json, char *why, size_t size)
{
    char msg[1024];
    char *text = NULL;
    size_t len = 0;
    int *ids = NULL;
    long n = -1;
    AttnError err = { 0 };
    if (fileread_text(file, TOKENIZE_MAX_BYTES, &text, &len, msg, sizeof msg) != 0)
        snprintf(why, size, "%.900s: %s", file, msg);
    else if ((n = bpe_encode_all(bpe, text, len, &ids, &err)) < 0)
        snprintf(why, size, "%.900s: %s", file, err.msg);
    if (n >= 0 && json) {
        JsonWriter w;
        jw_begin(&w);
        jw_int(&w, "count", n);
        jw_newline(&w);
        jw_inline(&w, "ids");
        for (long i = 0; i < n; i++)
            jw_int(&w, NULL, ids[i]);
        jw_close(&w, ']');
        jw_end(&w);
        jw_print(&w, stdout);
    } else if (n >= 0) {
        for (long i = 0; i < n; i++)
            printf("%s%d", i ? " " : "", ids[i]);
        printf("\n");
    }
    free(ids);
    free(text);
    return n >= 0 ? 0 : -1;
}

/* `attn model PATH --tokenize FILE [--json]`: the ids of the whole file by
 * the folder's tokenizer, for scripts (its config.json and tokenizer only;
 * no weights read); --tokenize given again, each file's in turn, the
 * tokenizer read once. */
int tokenize_cli(const char *dir, const char *const *files, int n_files, int json)
{
    char why[2048], shown[4200];
    ModelDir md;
    int rc = -1;
    if (model_dir_config(dir, &md, why, sizeof why) != 0 || model_dir_tokenizer(&md, why, sizeof why) != 0)
        ;
    else if (!md.bpe)
        snprintf(why, sizeof why, "%s has no tokenizer (tokenizer.json, or vocab.json and merges.txt)", dir);
    else
        for (int i = 0; i < n_files && (rc = tokenize_one(md.bpe, files[i], json, why, sizeof why)) == 0; i++)
            ;
    if (rc != 0)
        fprintf(stderr, "attn: %s\n", term_escape(why, shown, sizeof shown));
    model_dir_close(&md);
    return rc == 0 && fflush(stdout) == 0 ? 0 : 2;
}
