/*
 * bpe.h - the BPE tokenizers of the checkpoints attn reads, as the Hugging
 * Face hub ships them: GPT-2's vocab.json and merges.txt, and a
 * tokenizer.json of any of the hub's BPE layouts (GPT-2's, Llama 2's and
 * Gemma 3's SentencePiece-style with byte fallback, Llama 3's with
 * ignore_merges, Qwen's and DeepSeek's with NFC and their own patterns,
 * GPT-4o's inverted split), each encoding a text to the ids the tokenizers
 * library gives (bpe_encode.c says how, step by step).
 *
 * No files: the app reads them and hands over their text. Refused at once,
 * with where: a vocabulary that is not a JSON object of token -> id (or an
 * id out of range), a merge that is not two tokens, a merge naming a token
 * the vocabulary lacks or making one it lacks, any value of a
 * tokenizer.json of the wrong type, and any part of one attn does not
 * read, by name.
 *
 * Ownership: bpe_open's and bpe_open_json's Bpe is the caller's
 * (bpe_free).
 */
#ifndef ATTN_BPE_H
#define ATTN_BPE_H

#include <stddef.h>

#include "status.h"

typedef struct Bpe Bpe;

/* The most tokens bpe_encode_all makes of one text. */
#define BPE_MAX_TOKENS (1L << 28)

/* The tokenizer of vocab (vocab.json's text, NUL-terminated) and merges
 * (merges.txt, len bytes; a first line "#version..." is skipped), for ids
 * below vocab_size. NULL with err. */
Bpe *bpe_open(const char *vocab, const char *merges, size_t len, int vocab_size, AttnError *err);
void bpe_free(Bpe *b);

/* The tokenizer of a tokenizer.json (its text, NUL-terminated) whose
 * model is a BPE, from what the file says (bpe_json.c): the vocabulary and
 * merges (as "a b" strings or as pairs), byte_fallback, unk_token,
 * fuse_unk, ignore_merges; the added tokens; the normalizers (NFC, NFD,
 * NFKC, NFKD, Prepend, Replace of a string, a Sequence); the
 * pre-tokenizers (ByteLevel, Split by a pattern or a string with any
 * behaviour and invert, Digits, Metaspace, a Sequence); the
 * post-processor's template of special tokens around the text. Anything
 * else is refused by name. NULL with err. */
Bpe *bpe_open_json(const char *json, int vocab_size, AttnError *err);

/* text[0..len) as token ids into ids (at most max): how many, or -1 with
 * err (more than max tokens, a piece the vocabulary lacks, a pattern PCRE2
 * gives up on, no memory). */
int bpe_encode(const Bpe *b, const char *text, size_t len, int *ids, int max, AttnError *err);
/* The same, however many: *ids (the caller frees it) holds them, and
 * their count is returned; -1 with err (*ids NULL). */
long bpe_encode_all(const Bpe *b, const char *text, size_t len, int **ids, AttnError *err);

/* Token id's text: the bytes it stands for (the byte alphabet undone; "▁"
 * a space and <0xNN> its byte for SentencePiece's; an added token as
 * written), NUL-terminated, owned by b; NULL where the files name no token
 * id. */
const char *bpe_token_text(const Bpe *b, int id);
/* Its length in bytes (GPT-2's token for the byte 0 holds a NUL). */
size_t bpe_token_size(const Bpe *b, int id);

/* The code point GPT-2's byte alphabet writes byte b (0..255) as. */
unsigned bpe_byte_char(int b);
/* That character as UTF-8 into out (NUL-terminated, at most 2 bytes and
 * the NUL): what vocab.json writes for the token of byte b. */
const char *bpe_byte_utf8(int b, char out[3]);

#endif
