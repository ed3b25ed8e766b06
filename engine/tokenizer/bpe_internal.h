/*
 * bpe_internal.h - how a byte-level BPE is put together (bpe.c), for the
 * readers of its two forms: vocab.json with merges.txt (bpe.c) and
 * tokenizer.json (bpe_json.c).
 */
#ifndef ATTN_BPE_INTERNAL_H
#define ATTN_BPE_INTERNAL_H

#include "bpe.h"
#include "json_read.h"

/* A table of strings to ints (bpe_table.c). */
typedef struct {
    char **keys;
    int *vals;
    size_t cap, n;
} Table;
/* The value of s[0..n), or -1. */
int bpe_table_get(const Table *t, const char *s, size_t n);
/* Put s -> v (a key already there keeps its first value). 0, or -1 on no
 * memory. */
int bpe_table_put(Table *t, const char *s, size_t n, int v);
void bpe_table_free(Table *t);

Bpe *bpe_new(AttnError *err);
/* The vocabulary: token (as the byte alphabet writes it) -> id. */
int bpe_add_token(Bpe *b, const char *s, size_t n, int id, AttnError *err);
/* The object v of token -> id (below vocab_size) into the vocabulary;
 * what names it in messages ("vocab.json"). 0, or -1 with err. */
int bpe_vocab_of(Bpe *b, const JVal *v, const char *what, int vocab_size, AttnError *err);
/* The next merge (its rank the count so far): a then c, both tokens of the
 * vocabulary and their join one too; where names it in messages. */
int bpe_add_merge(Bpe *b, const char *a, size_t na, const char *c, size_t nc, const char *where, AttnError *err);
/* A pre-tokenizer pattern, applied after those added before it. */
int bpe_add_split(Bpe *b, const char *regex, AttnError *err);
/* GPT-2's own pattern (ByteLevel's use_regex). */
int bpe_split_gpt2(Bpe *b, AttnError *err);
/* An added token, matched in the text as written before any splitting. */
int bpe_add_special(Bpe *b, const char *s, int id, AttnError *err);
void bpe_set_prefix_space(Bpe *b, int on);
/* The text normalized to NFC before anything else. */
void bpe_set_nfc(Bpe *b, int on);
/* SentencePiece's BPE: symbols are characters, a space "▁", and a "▁"
 * before the text as prepend says (BPE_PREPEND_NONE keeps the one set). */
enum { BPE_PREPEND_NONE, BPE_PREPEND_FIRST, BPE_PREPEND_ALWAYS, BPE_PREPEND_UNCONDITIONAL };
void bpe_set_metaspace(Bpe *b, int prepend);
/* A character the vocabulary lacks as its bytes' tokens <0xNN> (on), the
 * unknown token's id (-1: none), runs of unknowns as one (fuse_unk). */
void bpe_set_byte_fallback(Bpe *b, int on, int unk, int fuse_unk);
/* A token's id, or -1. */
int bpe_token_id(const Bpe *b, const char *s);
/* The post-processor's template: ids before and after the text's (at most
 * BPE_MAX_TEMPLATE each). 0, or -1. */
#define BPE_MAX_TEMPLATE 4
int bpe_set_template(Bpe *b, const int *before, int n_before, const int *after, int n_after);

#endif
