/*
 * model_write.c - a trained model saved in the real-models layout
 * (model_write.h).
 */
#include "model_write.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpe.h"
#include "filewrite.h"
#include "json_write.h"
#include "model_look.h"
#include "strbuf.h"

/* dir/name whole from bytes (NULL: they could not be made): 0, or -1 with
 * why. */
static int put(const char *dir, const char *name, const void *bytes, size_t len, char *why, size_t size)
{
    char path[PATH_MAX], msg[600];
    if (filewrite_join(path, sizeof path, dir, name) != 0) {
        snprintf(why, size, "%s: the path is too long", dir);
        return -1;
    }
    if (!bytes) {
        snprintf(why, size, "%s: out of memory", path);
        return -1;
    }
    if (filewrite_replace(path, bytes, len, msg, sizeof msg) != 0) {
        snprintf(why, size, "%s: %s", path, msg);
        return -1;
    }
    return 0;
}

/* dir/name whole from the document w wrote. */
static int put_json(const char *dir, const char *name, const JsonWriter *w, char *why, size_t size)
{
    return put(dir, name, w->out.failed ? NULL : w->out.s, w->out.len, why, size);
}

/* The weights as safetensors: the header (8-byte length, JSON padded with
 * spaces to a multiple of 8) and the F32 bytes in the table's order. */
static unsigned char *safetensors_of(Model *m, size_t *len)
{
    int n;
    size_t count;
    const ModelTensor *t = model_tensors(m, &n);
    const float *w = model_block(m, &count);
    JsonWriter j;
    jw_begin(&j);
    jw_object(&j, "__metadata__");
    jw_str(&j, "format", "pt");
    jw_close(&j, '}');
    for (int i = 0; i < n; i++) {
        jw_object(&j, t[i].name);
        jw_str(&j, "dtype", "F32");
        jw_inline(&j, "shape");
        jw_int(&j, NULL, t[i].rows);
        if (t[i].cols)
            jw_int(&j, NULL, t[i].cols);
        jw_close(&j, ']');
        jw_inline(&j, "data_offsets");
        jw_int(&j, NULL, (long long)(t[i].offset * 4));
        jw_int(&j, NULL, (long long)((t[i].offset + t[i].count) * 4));
        jw_close(&j, ']');
        jw_close(&j, '}');
    }
    jw_close(&j, '}');         /* one line, no newline: the padding follows */
    StrBuf *h = &j.out;
    while (!h->failed && h->len % 8)
        strbuf_put(h, " ", 1);
    if (h->failed || !w) {
        strbuf_free(h);
        return NULL;
    }
    *len = 8 + h->len + count * 4;
    unsigned char *out = malloc(*len);
    if (out) {
        for (int i = 0; i < 8; i++)
            out[i] = (unsigned char)((uint64_t)h->len >> (8 * i));
        memcpy(out + 8, h->s, h->len);
        memcpy(out + 8 + h->len, w, count * 4);     /* little-endian, as x86 holds them */
    }
    strbuf_free(h);
    return out;
}

int model_write_gpt2(const char *dir, Model *m, const double *counts, char *why, size_t size)
{
    if (filewrite_dirs(dir) != 0) {
        snprintf(why, size, "%s: cannot make the folder: %s", dir, strerror(errno));
        return -1;
    }
    const ModelConfig *s = model_config(m);
    JsonWriter cfg, vocab, freq = { 0 };
    jw_begin(&cfg);
    jw_str(&cfg, "model_type", "gpt2");
    jw_inline(&cfg, "architectures");
    jw_str(&cfg, NULL, "GPT2LMHeadModel");
    jw_close(&cfg, ']');
    jw_int(&cfg, "n_layer", s->layers);
    jw_int(&cfg, "n_head", s->heads);
    jw_int(&cfg, "n_embd", s->d_model);
    jw_int(&cfg, "n_positions", s->context);
    jw_int(&cfg, "n_ctx", s->context);
    jw_int(&cfg, "vocab_size", s->vocab);
    jw_null(&cfg, "n_inner");
    jw_str(&cfg, "activation_function", "gelu_new");
    jw_literal(&cfg, "layer_norm_epsilon", "1e-05");
    jw_bool(&cfg, "tie_word_embeddings", 1);
    jw_int(&cfg, "bos_token_id", 10);
    jw_int(&cfg, "eos_token_id", 10);
    jw_end(&cfg);
    /* the 256 bytes in GPT-2's byte alphabet, no merges: a token a byte */
    jw_begin(&vocab);
    for (int b = 0; b < 256; b++) {
        char ch[3];
        jw_int(&vocab, bpe_byte_utf8(b, ch), b);
    }
    jw_end(&vocab);
    if (counts) {
        jw_begin(&freq);
        jw_str(&freq, "about", "how often each token came in the text attn train trained this model on: the tokens its "
                               "heads are probed with");
        jw_newline(&freq);
        jw_inline(&freq, "counts");
        for (int i = 0; i < s->vocab; i++)
            jw_num(&freq, NULL, counts[i], 0);
        jw_close(&freq, ']');
        jw_end(&freq);
    }
    size_t st_len = 0;
    unsigned char *st = safetensors_of(m, &st_len);
    static const char merges[] = "#version: 0.2\n";
    int rc = put_json(dir, "config.json", &cfg, why, size) != 0 || put_json(dir, "vocab.json", &vocab, why, size) != 0
             || put(dir, "merges.txt", merges, sizeof merges - 1, why, size) != 0
             || (counts && put_json(dir, MODEL_COUNTS_FILE, &freq, why, size) != 0)
             || put(dir, "model.safetensors", st, st_len, why, size) != 0;
    strbuf_free(&cfg.out);
    strbuf_free(&vocab.out);
    strbuf_free(&freq.out);
    free(st);
    return rc ? -1 : 0;
}
