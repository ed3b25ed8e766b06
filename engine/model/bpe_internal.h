/*
 * bpe_internal.h - how a byte-level BPE is put together (bpe.c), for the
 * readers of its two forms: vocab.json with merges.txt (bpe.c) and
 * tokenizer.json (bpe_json.c).
 */
#ifndef ATTN_BPE_INTERNAL_H
#define ATTN_BPE_INTERNAL_H

#include "bpe.h"
#include "json_read.h"

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
void bpe_set_ascii_only(Bpe *b, int on);

#endif
