/*
 * check_model.c - `attn model` on a tiny GPT-2 the test writes itself in
 * the real layout (config.json, model.safetensors, vocab.json), its weights
 * from a formula scripts/make-model-reference shares: every head's
 * attention (--attention-out) and the next-token logits equal PyTorch's
 * (tests/reference/models/tiny-models.json) within 1e-4, for F32 weights
 * under GPT2LMHeadModel's names and BF16 under GPT2Model's; the tokens'
 * text from the byte-level vocabulary; every head's kind; and a model that
 * cannot be read refused with the file and what is wrong.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_read.h"
#include "testutil.h"

#define LAYERS 2
#define HEADS 4
#define D 16
#define VOCAB 256
#define CONTEXT 32

static const char *const tokens = "72,101,108,108,111,44,32,104,101,108,108,111,33";   /* "Hello, hello!" */
#define N_TOKENS 13

typedef struct {
    char name[64];
    int rows, cols;     /* cols 0: a vector */
    float *v;
} W;

static W ws[64];
static int n_ws, seed_base;      /* a tensor's seed: seed_base + its place */

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
static void free_weights(void)
{
    for (int i = 0; i < n_ws; i++)
        free(ws[i].v);
    n_ws = 0;
}

static void make_weights(void)
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

/* The Llama family's variants, as scripts/make-model-reference makes them. */
typedef struct {
    const char *name, *config;
    int heads, kv, bias, tied;
} Variant;

static const Variant variants[] = {
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

static void make_llama_weights(const Variant *v)
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

/* dir/model.safetensors of the weights: F32 or BF16, each name after
 * prefix, and a buffer the forward does not need (GPT-2's attn.bias);
 * skip names a tensor to leave out, shape_off one to give a wrong shape. */
static void write_text(const char *dir, const char *name, const char *text);
static void refused(const char *dir, const char *args, const char *want);

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

static void write_safetensors(const char *dir, int bf16, const char *prefix, const char *skip, const char *wrong)
{
    write_part(dir, "model.safetensors", bf16, prefix, skip, wrong, 0, n_ws, 1);
}

/* The weights in two shards and the index listing them (no
 * model.safetensors); the index names tensor `lie` in the wrong shard
 * when set. */
static void write_shards(const char *dir, const char *lie)
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

static void write_text(const char *dir, const char *name, const char *text)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

static const char *config_json = "{\"model_type\": \"gpt2\", \"n_layer\": 2, \"n_head\": 4, \"n_embd\": 16, "
                                 "\"vocab_size\": 256, \"n_positions\": 32, \"n_inner\": null, "
                                 "\"layer_norm_epsilon\": 1e-05}\n";

/* The 256 byte tokens as a JSON object of token -> id. */
static char *vocab_text(void)
{
    static char text[8192];
    snprintf(text, sizeof text, "{%s}", byte_tokens_json());
    return text;
}

static void write_vocab(const char *dir)
{
    char text[8400];
    snprintf(text, sizeof text, "%s\n", vocab_text());
    write_text(dir, "vocab.json", text);
}

static char *make_dir(void)
{
    static char dir[64];
    snprintf(dir, sizeof dir, "/tmp/attn-model-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    return dir;
}

static void remove_dir(const char *dir)
{
    CmdResult r = cmd_runf("rm -rf %s", dir);
    cmd_free(&r);
}

/* The reference of dtype ("f32", "bf16"): attention and logits. */
static void reference(const char *dtype, double *att, double *logits)
{
    char path[600];
    snprintf(path, sizeof path, "%s/models/tiny-models.json", getenv("ATTN_REF") ? getenv("ATTN_REF") : "tests/reference");
    char *text = slurp(path);
    ck_assert_msg(text != NULL, "no %s", path);
    JVal root;
    char why[200];
    ck_assert_int_eq(json_parse(text, &root, why, sizeof why), 0);
    const JVal *d = json_get(&root, dtype), *a = json_get(d, "attention"), *l = json_get(d, "logits");
    ck_assert(a && l && a->n == LAYERS * HEADS * N_TOKENS * N_TOKENS && l->n == VOCAB);
    for (int i = 0; i < a->n; i++)
        att[i] = a->items[i].num;
    for (int i = 0; i < l->n; i++)
        logits[i] = l->items[i].num;
    json_free(&root);
    free(text);
}

/* Run attn model on dir and compare with the reference of dtype. */
static void matches_reference(const char *dir, const char *dtype, const char *family, int kv_heads)
{
    static double att[LAYERS * HEADS * N_TOKENS * N_TOKENS], logits[VOCAB];
    reference(dtype, att, logits);
    CmdResult r = cmd_runf("%s model %s --tokens %s --json --top 5 --attention-out %s/att.npy", attn_bin(), dir,
                           tokens, dir);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    JVal root;
    char why[200];
    ck_assert_msg(json_parse(r.out, &root, why, sizeof why) == 0, "%s in %s", why, r.out);
    const JVal *model = json_get(&root, "model");
    ck_assert_str_eq(json_get(model, "family")->str, family);
    ck_assert_int_eq((int)json_get(model, "layers")->num, LAYERS);
    ck_assert_int_eq((int)json_get(model, "heads")->num, HEADS);
    ck_assert_int_eq((int)json_get(model, "kv_heads")->num, kv_heads);
    ck_assert_int_eq((int)json_get(model, "d_model")->num, D);
    ck_assert_int_eq((int)json_get(model, "vocab")->num, VOCAB);
    ck_assert_int_eq((int)json_get(model, "context")->num, CONTEXT);
    /* every weight the test wrote, once */
    int params = 0;
    for (int i = 0; i < n_ws; i++)
        params += ws[i].rows * (ws[i].cols ? ws[i].cols : 1);
    ck_assert_int_eq((int)json_get(model, "params")->num, params);
    const JVal *toks = json_get(&root, "tokens");
    ck_assert_int_eq(toks->n, N_TOKENS);
    if (json_get(&toks->items[0], "text")->type == J_STR) {
        ck_assert_str_eq(json_get(&toks->items[0], "text")->str, "H");
        ck_assert_str_eq(json_get(&toks->items[6], "text")->str, " ");    /* Ġ read back as the space it stands for */
    }
    const JVal *heads = json_get(&root, "heads");
    ck_assert_int_eq(heads->n, LAYERS * HEADS);
    ck_assert_int_eq((int)json_get(&heads->items[5], "layer")->num, 2);
    ck_assert_int_eq((int)json_get(&heads->items[5], "head")->num, 2);
    /* the next token: the reference's top 5, highest first */
    const JVal *next = json_get(&root, "next");
    ck_assert_int_eq(next->n, 5);
    double p_sum = 0, mx = logits[0];
    for (int i = 1; i < VOCAB; i++)
        mx = fmax(mx, logits[i]);
    for (int i = 0; i < VOCAB; i++)
        p_sum += exp(logits[i] - mx);
    for (int j = 0; j < 5; j++) {
        int id = (int)json_get(&next->items[j], "id")->num;
        double logit = json_get(&next->items[j], "logit")->num, p = json_get(&next->items[j], "p")->num;
        ck_assert_msg(fabs(logit - logits[id]) <= 1e-4, "%s: logit of %d is %.6f, PyTorch's %.6f", dtype, id, logit,
                      logits[id]);
        ck_assert_msg(fabs(p - exp(logits[id] - mx) / p_sum) <= 1e-4, "%s: p of %d", dtype, id);
        int higher = 0;
        for (int i = 0; i < VOCAB; i++)
            higher += logits[i] > logits[id] + 1e-9;
        ck_assert_msg(higher == j, "%s: next[%d] = %d is not PyTorch's rank %d", dtype, j, id, j);
    }
    json_free(&root);
    cmd_free(&r);
    /* every head's attention, (layers, heads, n, n) float32 */
    char path[600];
    snprintf(path, sizeof path, "%s/att.npy", dir);
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    unsigned char pre[10];
    ck_assert_int_eq(fread(pre, 1, 10, f), 10);
    ck_assert(memcmp(pre, "\x93NUMPY\x01\x00", 8) == 0);
    int hlen = pre[8] | pre[9] << 8;
    char head[256] = "";
    ck_assert(hlen < (int)sizeof head && fread(head, 1, (size_t)hlen, f) == (size_t)hlen);
    ck_assert_msg(strstr(head, "'descr': '<f4'") && strstr(head, "'shape': (2, 4, 13, 13)"), "%s", head);
    ck_assert_int_eq((10 + hlen) % 64, 0);
    static float got[LAYERS * HEADS * N_TOKENS * N_TOKENS];
    ck_assert_int_eq(fread(got, sizeof *got, sizeof got / sizeof *got, f), sizeof got / sizeof *got);
    fclose(f);
    double worst = 0;
    int at = 0;
    for (size_t i = 0; i < sizeof got / sizeof *got; i++)
        if (fabs(got[i] - att[i]) > worst) {
            worst = fabs(got[i] - att[i]);
            at = (int)i;
        }
    ck_assert_msg(worst <= 1e-4, "%s: attention differs from PyTorch's by %.3g at %d", dtype, worst, at);
}

START_TEST(a_tiny_gpt2_equals_pytorch)
{
    make_weights();
    char *dir = make_dir();
    write_text(dir, "config.json", config_json);
    write_vocab(dir);
    write_safetensors(dir, 0, "transformer.", NULL, NULL);
    matches_reference(dir, "f32", "gpt2", HEADS);
    /* the text through the byte-level BPE (no merges: a token a byte) gives
     * the very same document as its tokens */
    write_text(dir, "merges.txt", "#version: 0.2\n");
    CmdResult by_text = cmd_runf("%s model %s --text 'Hello, hello!' --json", attn_bin(), dir);
    CmdResult by_ids = cmd_runf("%s model %s --tokens %s --json", attn_bin(), dir, tokens);
    ck_assert_msg(by_text.status == 0, "%s", by_text.err);
    ck_assert_str_eq(by_text.out, by_ids.out);
    cmd_free(&by_text);
    cmd_free(&by_ids);
    /* BF16, under GPT2Model's names (no prefix) */
    write_safetensors(dir, 1, "", NULL, NULL);
    matches_reference(dir, "bf16", "gpt2", HEADS);
    /* in two shards, as the hub splits a large checkpoint */
    write_shards(dir, NULL);
    matches_reference(dir, "f32", "gpt2", HEADS);
    char want[800];
    write_shards(dir, "h.0.ln_1.weight");
    refused(dir, "--tokens 1", "model.safetensors.index.json: tensor h.0.ln_1.weight is listed in "
                               "model-00002-of-00002.safetensors, which does not hold it");
    write_text(dir, "model.safetensors.index.json", "{\"weight_map\": {\"wte.weight\": \"../model.safetensors\"}}");
    refused(dir, "--tokens 1", "tensor wte.weight: its shard is not a file name in the directory");
    write_text(dir, "model.safetensors.index.json", "{\"weight_map\": {\"wte.weight\": \"gone.safetensors\"}}");
    snprintf(want, sizeof want, "attn: %s/gone.safetensors: cannot open it", dir);
    refused(dir, "--tokens 1", want);
    write_safetensors(dir, 0, "", NULL, NULL);
    /* attn bench --model times its forward pass (the keys, never the speed) */
    CmdResult b = cmd_runf("%s bench --model %s --n 8 --reps 1 --json", attn_bin(), dir);
    ck_assert_msg(b.status == 0, "%s", b.err);
    JVal doc;
    char jerr[200];
    ck_assert_msg(json_parse(b.out, &doc, jerr, sizeof jerr) == 0, "%s: %s", jerr, b.out);
    static const char *const keys[] = { "model", "params", "n", "reps", "threads", "median_ms", "min_ms", "max_ms",
                                        "tokens_per_s", "gflops", "peak_gflops", "peak_share" };
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        ck_assert_msg(json_get(&doc, keys[i]) != NULL, "no %s in %s", keys[i], b.out);
    ck_assert_int_eq((int)json_get(&doc, "n")->num, 8);
    json_free(&doc);
    cmd_free(&b);
    b = cmd_runf("%s bench --model %s --n 33", attn_bin(), dir);
    ck_assert_msg(b.status == 2 && strstr(b.err, "--n is past the model's context"), "%s", b.err);
    cmd_free(&b);
    /* GPT-2 small's shape with random weights: its parameters, no download */
    b = cmd_runf("%s bench --model gpt2-small --n 4 --reps 1 --json", attn_bin());
    ck_assert_msg(b.status == 0 && strstr(b.out, "\"params\": 124439808"), "%s%s", b.out, b.err);
    cmd_free(&b);
    /* the plain report names the kinds */
    CmdResult r = cmd_runf("%s model %s --tokens %s", attn_bin(), dir, tokens);
    ck_assert_msg(r.status == 0 && strstr(r.out, "gpt2: 2 layers x 4 heads, width 16, vocabulary 256, context 32")
                  && strstr(r.out, "layer head  kind"), "%s%s", r.out, r.err);
    cmd_free(&r);
    remove_dir(dir);
}
END_TEST

/* The message of attn model on dir. */
static void refused(const char *dir, const char *args, const char *want)
{
    CmdResult r = cmd_runf("%s model %s %s", attn_bin(), dir, args);
    ck_assert_msg(r.status == 2, "exit %d: %s", r.status, r.out);
    ck_assert_msg(strstr(r.err, want), "wanted %s, got %s", want, r.err);
    cmd_free(&r);
}

/* The Llama family: grouped-query heads and untied output (llama), q/k/v
 * biases with one key/value head and a tied output (qwen2), a sliding
 * window of 4 (mistral), each against transformers' computation in PyTorch. */
START_TEST(tiny_llamas_equal_pytorch)
{
    for (size_t k = 0; k < sizeof variants / sizeof *variants; k++) {
        const Variant *v = &variants[k];
        make_llama_weights(v);
        char *dir = make_dir();
        write_text(dir, "config.json", v->config);
        write_safetensors(dir, 0, "", NULL, NULL);
        matches_reference(dir, v->name, v->name, v->kv);
        if (k == 0) {
            /* tokenizer.json (a byte-level BPE, no merges): --text gives
             * the document --tokens gives, the tokens' text included */
            static char tj[16384];
            char *vocab = vocab_text();
            snprintf(tj, sizeof tj, "{\"version\": \"1.0\", \"added_tokens\": [], \"normalizer\": null, "
                     "\"pre_tokenizer\": {\"type\": \"ByteLevel\", \"add_prefix_space\": false}, \"model\": "
                     "{\"type\": \"BPE\", \"vocab\": %s, \"merges\": []}}", vocab);
            write_text(dir, "tokenizer.json", tj);
            CmdResult by_text = cmd_runf("%s model %s --text 'Hello, hello!' --json", attn_bin(), dir);
            CmdResult by_ids = cmd_runf("%s model %s --tokens %s --json", attn_bin(), dir, tokens);
            ck_assert_msg(by_text.status == 0, "%s", by_text.err);
            ck_assert_str_eq(by_text.out, by_ids.out);
            ck_assert_msg(strstr(by_ids.out, "{\"id\": 72, \"text\": \"H\"}"), "%s", by_ids.out);
            cmd_free(&by_text);
            cmd_free(&by_ids);
        }
        remove_dir(dir);
    }
    free_weights();
}
END_TEST

START_TEST(a_model_that_cannot_be_read_says_why)
{
    make_weights();
    char *dir = make_dir();
    char want[800];
    write_text(dir, "config.json", config_json);
    write_safetensors(dir, 0, "", "h.1.mlp.c_fc.bias", NULL);
    snprintf(want, sizeof want, "attn: %s/model.safetensors: the checkpoint has no tensor h.1.mlp.c_fc.bias\n", dir);
    refused(dir, "--tokens 1,2", want);
    write_safetensors(dir, 0, "", NULL, "h.0.attn.c_proj.weight");
    write_safetensors(dir, 0, "", NULL, "h.0.attn.c_attn.weight");
    snprintf(want, sizeof want, "tensor h.0.attn.c_attn.weight has shape [48, 16]; the config makes it [16, 48]");
    refused(dir, "--tokens 1,2", want);
    write_safetensors(dir, 0, "", NULL, NULL);
    write_text(dir, "config.json", "{\"model_type\": \"gpt2\", \"n_layer\": 2, \"n_head\": 5, \"n_embd\": 16, "
                                   "\"vocab_size\": 256, \"n_positions\": 32}");
    snprintf(want, sizeof want, "attn: %s/config.json: config.json: 5 heads do not divide the width 16\n", dir);
    refused(dir, "--tokens 1,2", want);
    write_text(dir, "config.json", "{\"model_type\": \"gpt2\", \"n_layer\": 2, \"n_head\": 4, \"n_embd\": 16, "
                                   "\"vocab_size\": 256, \"n_positions\": 1e12}");
    refused(dir, "--tokens 1,2", "config.json: n_positions is missing or not a size attn reads");
    write_text(dir, "config.json", "{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"num_attention_heads\": 4, "
                                   "\"num_key_value_heads\": 3, \"hidden_size\": 16, \"intermediate_size\": 24, "
                                   "\"vocab_size\": 256, \"max_position_embeddings\": 32}");
    refused(dir, "--tokens 1,2", "config.json: 3 key/value heads do not divide the 4 heads");
    write_text(dir, "config.json", "{\"model_type\": \"t5\"}");
    refused(dir, "--tokens 1,2", "config.json: model_type \"t5\" is not one attn reads (it reads gpt2, llama, mistral, "
                                 "qwen2)");
    write_text(dir, "config.json", "not json");
    refused(dir, "--tokens 1,2", "config.json is not JSON");
    write_text(dir, "config.json", config_json);
    refused(dir, "--tokens 1,256", "token 2 is 256; the vocabulary has 0 to 255");
    refused(dir, "--tokens 1,,2", "--tokens takes ids separated by commas");
    snprintf(want, sizeof want, "attn: %s has no tokenizer (tokenizer.json, or vocab.json and merges.txt); give the "
             "tokens", dir);
    refused(dir, "--text hello", want);
    refused(dir, "--text hello --tokens 1", "give the text (--text TEXT) or its tokens (--tokens ID,ID,...), one of them");
    /* a file that lies about its header */
    CmdResult w = cmd_runf("printf '\\377\\377\\377\\377\\000\\000\\000\\000{}' > %s/model.safetensors", dir);
    cmd_free(&w);
    refused(dir, "--tokens 1", "model.safetensors: the header says 4294967295 bytes but the file holds 2 after its length");
    /* a checkpoint in shards, and none at all */
    CmdResult r = cmd_runf("rm %s/model.safetensors && echo '{}' > %s/model.safetensors.index.json", dir, dir);
    cmd_free(&r);
    refused(dir, "--tokens 1", "model.safetensors.index.json: no \"weight_map\" of tensor -> shard file");
    refused("/nonexistent/model", "--tokens 1", "attn: /nonexistent/model/config.json: cannot open it");
    remove_dir(dir);
    free_weights();
}
END_TEST

Suite *model_suite(void)
{
    Suite *s = suite_create("model");
    TCase *tc = tcase_create("model");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_tiny_gpt2_equals_pytorch);
    tcase_add_test(tc, tiny_llamas_equal_pytorch);
    tcase_add_test(tc, a_model_that_cannot_be_read_says_why);
    suite_add_tcase(s, tc);
    return s;
}
