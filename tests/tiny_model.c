/*
 * tiny_model.c - tiny transformers in the real layouts (tiny_model.h).
 */
#include "tiny_model.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

W ws[64];
int n_ws;
static int seed_base;      /* a tensor's seed: seed_base + its place */

/* The formula scripts/make-model-reference shares. */
static void add(const char *name, int rows, int cols, double scale, double offset)
{
    W *w = &ws[n_ws++];
    snprintf(w->name, sizeof w->name, "%s", name);
    w->rows = rows;
    w->cols = cols;
    int count = rows * (cols ? cols : 1), seed = seed_base + n_ws;
    w->v = malloc((size_t)count * sizeof *w->v);
    for (int k = 0; k < count; k++) {
        uint64_t h = ((uint64_t)k * 2654435761u + (uint64_t)seed * 40503u) & 0xffffffffu;
        w->v[k] = (float)(offset + scale * ((double)h / 4294967296.0 - 0.5));
    }
}

/* Let go of the weights made before. */
void free_weights(void)
{
    for (int i = 0; i < n_ws; i++)
        free(ws[i].v);
    n_ws = 0;
}

void make_weights(void)
{
    free_weights();
    n_ws = seed_base = 0;
    add("wte.weight", VOCAB, D, 1.0, 0);
    add("wpe.weight", CONTEXT, D, 0.5, 0);
    for (int l = 0; l < LAYERS; l++) {
        char p[64];
#define ADD(part, r, c, s, o)                                                                                      \
    snprintf(p, sizeof p, "h.%d.%s", l, part);                                                                     \
    add(p, r, c, s, o)
        ADD("ln_1.weight", D, 0, 0.4, 1.0);
        ADD("ln_1.bias", D, 0, 0.2, 0);
        ADD("attn.c_attn.weight", D, 3 * D, 1.2, 0);
        ADD("attn.c_attn.bias", 3 * D, 0, 0.2, 0);
        ADD("attn.c_proj.weight", D, D, 0.6, 0);
        ADD("attn.c_proj.bias", D, 0, 0.2, 0);
        ADD("ln_2.weight", D, 0, 0.4, 1.0);
        ADD("ln_2.bias", D, 0, 0.2, 0);
        ADD("mlp.c_fc.weight", D, 4 * D, 0.6, 0);
        ADD("mlp.c_fc.bias", 4 * D, 0, 0.2, 0);
        ADD("mlp.c_proj.weight", 4 * D, D, 0.3, 0);
        ADD("mlp.c_proj.bias", D, 0, 0.2, 0);
#undef ADD
    }
    add("ln_f.weight", D, 0, 0.4, 1.0);
    add("ln_f.bias", D, 0, 0.2, 0);
}

const Variant variants[] = {
    { "llama", "{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"num_attention_heads\": 4, "
               "\"num_key_value_heads\": 2, \"hidden_size\": 16, \"intermediate_size\": 24, \"vocab_size\": 256, "
               "\"max_position_embeddings\": 32, \"rms_norm_eps\": 1e-06, \"rope_theta\": 10000.0, "
               "\"tie_word_embeddings\": false}", 4, 2, 0, 0 },
    { "qwen2", "{\"model_type\": \"qwen2\", \"num_hidden_layers\": 2, \"num_attention_heads\": 4, "
               "\"num_key_value_heads\": 1, \"hidden_size\": 16, \"intermediate_size\": 24, \"vocab_size\": 256, "
               "\"max_position_embeddings\": 32, \"rms_norm_eps\": 1e-06, \"rope_theta\": 10000.0, "
               "\"tie_word_embeddings\": true, \"use_sliding_window\": false, \"sliding_window\": 4096}", 4, 1, 1, 1 },
    { "mistral", "{\"model_type\": \"mistral\", \"num_hidden_layers\": 2, \"num_attention_heads\": 4, "
                 "\"num_key_value_heads\": 2, \"hidden_size\": 16, \"intermediate_size\": 24, \"vocab_size\": 256, "
                 "\"max_position_embeddings\": 32, \"rms_norm_eps\": 1e-06, \"rope_theta\": 10000.0, "
                 "\"tie_word_embeddings\": false, \"sliding_window\": 4}", 4, 2, 0, 0 },
};

void make_llama_weights(const Variant *v)
{
    free_weights();
    seed_base = 100;
    int q = v->heads * 4, kv = v->kv * 4;
    add("model.embed_tokens.weight", VOCAB, 16, 1.0, 0);
    for (int l = 0; l < LAYERS; l++) {
        char p[96];
#define ADD(part, r, c, s, o)                                                                                      \
    snprintf(p, sizeof p, "model.layers.%d.%s", l, part);                                                          \
    add(p, r, c, s, o)
        ADD("input_layernorm.weight", 16, 0, 0.4, 1.0);
        ADD("self_attn.q_proj.weight", q, 16, 1.2, 0);
        if (v->bias) {
            ADD("self_attn.q_proj.bias", q, 0, 0.2, 0);
        }
        ADD("self_attn.k_proj.weight", kv, 16, 1.2, 0);
        if (v->bias) {
            ADD("self_attn.k_proj.bias", kv, 0, 0.2, 0);
        }
        ADD("self_attn.v_proj.weight", kv, 16, 1.2, 0);
        if (v->bias) {
            ADD("self_attn.v_proj.bias", kv, 0, 0.2, 0);
        }
        ADD("self_attn.o_proj.weight", 16, q, 0.6, 0);
        ADD("post_attention_layernorm.weight", 16, 0, 0.4, 1.0);
        ADD("mlp.gate_proj.weight", 24, 16, 0.6, 0);
        ADD("mlp.up_proj.weight", 24, 16, 0.6, 0);
        ADD("mlp.down_proj.weight", 16, 24, 0.3, 0);
#undef ADD
    }
    add("model.norm.weight", 16, 0, 0.4, 1.0);
    if (!v->tied)
        add("lm_head.weight", VOCAB, 16, 1.0, 0);
}

static uint16_t bf16_of(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return (uint16_t)((b + 0x7fff + ((b >> 16) & 1)) >> 16);
}

/* The tensors ws[from, to) as the file dir/file (with GPT-2's mask buffer
 * when mask is set). */
static void write_part(const char *dir, const char *file, int bf16, const char *prefix, const char *skip,
                       const char *wrong, int from, int to, int mask)
{
    size_t size = bf16 ? 2 : 4, at = 0;
    static char header[65536];
    int n = snprintf(header, sizeof header, "{\"__metadata__\": {\"format\": \"pt\"}");
    for (int i = from; i < to; i++) {
        const W *w = &ws[i];
        if (skip && strcmp(w->name, skip) == 0)
            continue;
        size_t count = (size_t)w->rows * (w->cols ? w->cols : 1);
        int rows = wrong && strcmp(w->name, wrong) == 0 ? w->cols : w->rows;
        int cols = wrong && strcmp(w->name, wrong) == 0 ? w->rows : w->cols;
        if (cols)
            n += snprintf(header + n, sizeof header - (size_t)n, ", \"%s%s\": {\"dtype\": \"%s\", \"shape\": [%d, %d], "
                          "\"data_offsets\": [%zu, %zu]}", prefix, w->name, bf16 ? "BF16" : "F32", rows, cols, at,
                          at + count * size);
        else
            n += snprintf(header + n, sizeof header - (size_t)n, ", \"%s%s\": {\"dtype\": \"%s\", \"shape\": [%d], "
                          "\"data_offsets\": [%zu, %zu]}", prefix, w->name, bf16 ? "BF16" : "F32", rows, at,
                          at + count * size);
        at += count * size;
    }
    size_t mask_at = at;
    if (mask)
        n += snprintf(header + n, sizeof header - (size_t)n, ", \"%sh.0.attn.bias\": {\"dtype\": \"F32\", \"shape\": "
                      "[1, 1, 2, 2], \"data_offsets\": [%zu, %zu]}", prefix, mask_at, mask_at + 16);
    header[n++] = '}';
    while (n % 8)
        header[n++] = ' ';      /* as the format's writer pads it */
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    uint64_t len = (uint64_t)n;
    unsigned char le[8];
    for (int i = 0; i < 8; i++)
        le[i] = (unsigned char)(len >> (8 * i));
    fwrite(le, 1, 8, f);
    fwrite(header, 1, (size_t)n, f);
    for (int i = from; i < to; i++) {
        const W *w = &ws[i];
        if (skip && strcmp(w->name, skip) == 0)
            continue;
        size_t count = (size_t)w->rows * (w->cols ? w->cols : 1);
        for (size_t k = 0; k < count; k++) {
            if (bf16) {
                uint16_t h = bf16_of(w->v[k]);
                fwrite(&h, 2, 1, f);
            } else {
                fwrite(&w->v[k], 4, 1, f);
            }
        }
    }
    float tril[4] = { 1, 0, 1, 1 };
    if (mask)
        fwrite(tril, 4, 4, f);
    ck_assert_int_eq(fclose(f), 0);
}

/* dir/model.safetensors of the weights: F32 or BF16, each name after
 * prefix, and a buffer the forward does not need (GPT-2's attn.bias);
 * skip names a tensor to leave out, wrong one to give a wrong shape. */
void write_safetensors(const char *dir, int bf16, const char *prefix, const char *skip, const char *wrong)
{
    write_part(dir, "model.safetensors", bf16, prefix, skip, wrong, 0, n_ws, 1);
}

/* The weights in two shards and the index listing them (no
 * model.safetensors); the index names tensor `lie` in the wrong shard
 * when set. */
void write_shards(const char *dir, const char *lie)
{
    int half = n_ws / 2;
    write_part(dir, "model-00001-of-00002.safetensors", 0, "", NULL, NULL, 0, half, 0);
    write_part(dir, "model-00002-of-00002.safetensors", 0, "", NULL, NULL, half, n_ws, 0);
    static char index[65536];
    int n = snprintf(index, sizeof index, "{\"metadata\": {\"total_size\": 0}, \"weight_map\": {");
    for (int i = 0; i < n_ws; i++) {
        int second = (i >= half) != (lie && strcmp(ws[i].name, lie) == 0);
        n += snprintf(index + n, sizeof index - (size_t)n, "%s\"%s\": \"model-0000%d-of-00002.safetensors\"",
                      i ? ", " : "", ws[i].name, second ? 2 : 1);
    }
    snprintf(index + n, sizeof index - (size_t)n, "}}");
    char path[600];
    snprintf(path, sizeof path, "%s/model.safetensors", dir);
    unlink(path);
    write_text(dir, "model.safetensors.index.json", index);
}

void write_text(const char *dir, const char *name, const char *text)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

const char *const config_json = "{\"model_type\": \"gpt2\", \"n_layer\": 2, \"n_head\": 4, \"n_embd\": 16, "
                                 "\"vocab_size\": 256, \"n_positions\": 32, \"n_inner\": null, "
                                 "\"layer_norm_epsilon\": 1e-05}\n";

/* The 256 byte tokens as a JSON object of token -> id. */
char *vocab_text(void)
{
    static char text[8192];
    snprintf(text, sizeof text, "{%s}", byte_tokens_json());
    return text;
}

void write_vocab(const char *dir)
{
    char text[8400];
    snprintf(text, sizeof text, "%s\n", vocab_text());
    write_text(dir, "vocab.json", text);
}

void write_byte_tokenizer_json(const char *dir)
{
    static char tj[16384];
    snprintf(tj, sizeof tj, "{\"version\": \"1.0\", \"added_tokens\": [], \"normalizer\": null, "
             "\"pre_tokenizer\": {\"type\": \"ByteLevel\", \"add_prefix_space\": false}, \"model\": "
             "{\"type\": \"BPE\", \"vocab\": %s, \"merges\": []}}", vocab_text());
    write_text(dir, "tokenizer.json", tj);
}

char *make_dir(void)
{
    static char dir[64];
    snprintf(dir, sizeof dir, "/tmp/attn-model-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    return dir;
}

void remove_dir(const char *dir)
{
    CmdResult r = cmd_runf("rm -rf %s", dir);
    cmd_free(&r);
}


const int n_variants = (int)(sizeof variants / sizeof *variants);

void tiny_gpt2_dir(const char *dir)
{
    make_weights();
    write_text(dir, "config.json", config_json);
    write_vocab(dir);
    write_text(dir, "merges.txt", "#version: 0.2\n");
    write_safetensors(dir, 0, "transformer.", NULL, NULL);
}

void tiny_family_dir(const char *dir, int k)
{
    if (k < 0) {
        tiny_gpt2_dir(dir);
        return;
    }
    make_llama_weights(&variants[k]);
    write_text(dir, "config.json", variants[k].config);
    write_safetensors(dir, 0, "", NULL, NULL);
}
