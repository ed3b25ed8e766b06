/*
 * tiny_model.h - tiny transformers in the real layouts, made by the tests
 * themselves, so no test downloads a model (tiny_model.c): a GPT-2 of 2
 * layers x 4 heads, width 16, the 256 byte tokens and 32 positions, and
 * the Llama family's variants (llama, qwen2, mistral), their weights from
 * the formula scripts/make-model-reference shares (so PyTorch's reference
 * is of the same numbers), written as safetensors (F32 or BF16, whole or
 * in shards) with config.json and a byte-level vocabulary.
 */
#ifndef ATTN_TEST_TINY_MODEL_H
#define ATTN_TEST_TINY_MODEL_H

#define LAYERS 2
#define HEADS 4
#define D 16
#define VOCAB 256
#define CONTEXT 32

typedef struct {
    char name[64];
    int rows, cols;     /* cols 0: a vector */
    float *v;
} W;

/* The weights made last (make_weights, make_llama_weights). */
extern W ws[64];
extern int n_ws;

/* The Llama family's variants, as scripts/make-model-reference makes them. */
typedef struct {
    const char *name, *config;
    int heads, kv, bias, tied;
} Variant;
extern const Variant variants[];
extern const int n_variants;

/* The tiny GPT-2's config.json. */
extern const char *const config_json;

void make_weights(void);
void make_llama_weights(const Variant *v);
void free_weights(void);

void write_safetensors(const char *dir, int bf16, const char *prefix, const char *skip, const char *wrong);
void write_shards(const char *dir, const char *lie);
void write_text(const char *dir, const char *name, const char *text);
/* The 256 byte tokens as a JSON object of token -> id, and as vocab.json. */
char *vocab_text(void);
void write_vocab(const char *dir);
/* dir/tokenizer.json: the 256 byte tokens as a byte-level BPE, no merges. */
void write_byte_tokenizer_json(const char *dir);
/* A fresh folder under /tmp (a static buffer), and its removal. */
char *make_dir(void);
void remove_dir(const char *dir);

/* A whole tiny GPT-2 directory: config.json, model.safetensors (F32, with
 * the "transformer." prefix), vocab.json and merges.txt (no merges: a
 * token a byte). */
void tiny_gpt2_dir(const char *dir);
/* The tiny model of family k in dir: GPT-2's (k < 0, tiny_gpt2_dir), else
 * variants[k]'s config.json and model.safetensors (F32, no prefix). */
void tiny_family_dir(const char *dir, int k);

#endif
