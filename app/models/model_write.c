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
#include "model_look.h"
#include "strbuf.h"

/* dir/name whole from b (a StrBuf's text or bytes): 0, or -1 with why. */
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

/* The weights as safetensors: the header (8-byte length, JSON padded with
 * spaces to a multiple of 8) and the F32 bytes in the table's order. */
static unsigned char *safetensors_of(Model *m, size_t *len)
{
    int n;
    size_t count;
    const ModelTensor *t = model_tensors(m, &n);
    const float *w = model_block(m, &count);
    StrBuf h = { 0 };
    strbuf_add(&h, "{\"__metadata__\": {\"format\": \"pt\"}");
    for (int i = 0; i < n; i++) {
        if (t[i].cols)
            strbuf_add(&h, ", \"%s\": {\"dtype\": \"F32\", \"shape\": [%d, %d], \"data_offsets\": [%zu, %zu]}",
                       t[i].name, t[i].rows, t[i].cols, t[i].offset * 4, (t[i].offset + t[i].count) * 4);
        else
            strbuf_add(&h, ", \"%s\": {\"dtype\": \"F32\", \"shape\": [%d], \"data_offsets\": [%zu, %zu]}", t[i].name,
                       t[i].rows, t[i].offset * 4, (t[i].offset + t[i].count) * 4);
    }
    strbuf_add(&h, "}");
    while (!h.failed && h.len % 8)
        strbuf_add(&h, " ");
    if (h.failed || !w) {
        strbuf_free(&h);
        return NULL;
    }
    *len = 8 + h.len + count * 4;
    unsigned char *out = malloc(*len);
    if (out) {
        for (int i = 0; i < 8; i++)
            out[i] = (unsigned char)((uint64_t)h.len >> (8 * i));
        memcpy(out + 8, h.s, h.len);
        memcpy(out + 8 + h.len, w, count * 4);     /* little-endian, as x86 holds them */
    }
    strbuf_free(&h);
    return out;
}

int model_write_gpt2(const char *dir, Model *m, const double *counts, char *why, size_t size)
{
    if (filewrite_dirs(dir) != 0) {
        snprintf(why, size, "%s: cannot make the folder: %s", dir, strerror(errno));
        return -1;
    }
    const ModelConfig *s = model_config(m);
    StrBuf cfg = { 0 }, vocab = { 0 }, freq = { 0 };
    strbuf_add(&cfg, "{\"model_type\": \"gpt2\", \"architectures\": [\"GPT2LMHeadModel\"], \"n_layer\": %d, "
                     "\"n_head\": %d, \"n_embd\": %d, \"n_positions\": %d, \"n_ctx\": %d, \"vocab_size\": %d, "
                     "\"n_inner\": null, \"activation_function\": \"gelu_new\", \"layer_norm_epsilon\": 1e-05, "
                     "\"tie_word_embeddings\": true, \"bos_token_id\": 10, \"eos_token_id\": 10}\n",
               s->layers, s->heads, s->d_model, s->context, s->context, s->vocab);
    /* the 256 bytes in GPT-2's byte alphabet, no merges: a token a byte */
    strbuf_add(&vocab, "{");
    for (int b = 0; b < 256; b++) {
        unsigned cp = bpe_byte_char(b);
        char ch[3];
        strbuf_add(&vocab, "%s\"%s%s\": %d", b ? ", " : "", cp == '"' || cp == '\\' ? "\\" : "", bpe_byte_utf8(b, ch), b);
    }
    strbuf_add(&vocab, "}\n");
    if (counts) {
        strbuf_add(&freq, "{\"about\": \"how often each token came in the text attn train trained this model on: the "
                          "tokens its heads are probed with\",\n \"counts\": [");
        for (int i = 0; i < s->vocab; i++)
            strbuf_add(&freq, "%s%.0f", i ? ", " : "", counts[i]);
        strbuf_add(&freq, "]}\n");
    }
    size_t st_len = 0;
    unsigned char *st = safetensors_of(m, &st_len);
    static const char merges[] = "#version: 0.2\n";
    int rc = put(dir, "config.json", cfg.failed ? NULL : cfg.s, cfg.len, why, size) != 0
             || put(dir, "vocab.json", vocab.failed ? NULL : vocab.s, vocab.len, why, size) != 0
             || put(dir, "merges.txt", merges, sizeof merges - 1, why, size) != 0
             || (counts && put(dir, MODEL_COUNTS_FILE, freq.failed ? NULL : freq.s, freq.len, why, size) != 0)
             || put(dir, "model.safetensors", st, st_len, why, size) != 0;
    strbuf_free(&cfg);
    strbuf_free(&vocab);
    strbuf_free(&freq);
    free(st);
    return rc ? -1 : 0;
}
