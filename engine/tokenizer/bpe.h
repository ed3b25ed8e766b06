/*
 * bpe.h - the BPE tokenizers of the checkpoints attn reads. GPT-2's
 * byte-level BPE from the text of vocab.json and merges.txt: the text
 * split by GPT-2's pre-tokenizer pattern (contractions, letters, digits,
 * other symbols, runs of spaces; Unicode classes from PCRE2), each piece's
 * bytes written in the 256-character byte alphabet, then merged pair by
 * pair, the pair of lowest rank first, and the pieces looked up in the
 * vocabulary.
 *
 * The same from a tokenizer.json (bpe_json.c). No files: the app reads
 * them and hands over their text. Refused at once,
 * with where: a vocabulary that is not a JSON object of token -> id (or an
 * id out of range), a merge line that is not two tokens, a merge naming a
 * token the vocabulary lacks or making one it lacks.
 *
 * Ownership: bpe_open's Bpe is the caller's (bpe_free).
 */
#ifndef ATTN_BPE_H
#define ATTN_BPE_H

#include <stddef.h>

#include "status.h"

typedef struct Bpe Bpe;

/* The tokenizer of vocab (vocab.json's text, NUL-terminated) and merges
 * (merges.txt, len bytes; a first line "#version..." is skipped), for ids
 * below vocab_size. NULL with err. */
Bpe *bpe_open(const char *vocab, const char *merges, size_t len, int vocab_size, AttnError *err);
void bpe_free(Bpe *b);

/* The tokenizer of a tokenizer.json (its text, NUL-terminated) whose
 * model is a BPE, from what the file says (bpe_json.c): the vocabulary and
 * merges (as "a b" strings or as pairs), the added tokens; GPT-2's
 * byte-level BPE (ByteLevel, with or without its regex and prefix space;
 * Split by the file's own regex; Digits) or SentencePiece's (the text's
 * characters merged, a space written "▁" by Metaspace or by the Prepend
 * and Replace normalizers, byte fallback, the unknown token); an NFC
 * normalizer (libunistring); the post-processor's template of special
 * tokens around the text. Anything else is refused by name. NULL with
 * err. */
Bpe *bpe_open_json(const char *json, int vocab_size, AttnError *err);

/* text[0..len) as token ids into ids (at most max): how many, or -1 with
 * err (more than max tokens, a piece the vocabulary lacks, no memory). */
int bpe_encode(const Bpe *b, const char *text, size_t len, int *ids, int max, AttnError *err);

/* Token id's text: the bytes it stands for (the byte alphabet undone; an
 * added token as written), NUL-terminated, owned by b; NULL where the
 * vocabulary names no token id. */
const char *bpe_token_text(const Bpe *b, int id);
/* Its length in bytes (GPT-2's token for the byte 0 holds a NUL). */
size_t bpe_token_size(const Bpe *b, int id);

/* The code point GPT-2's byte alphabet writes byte b (0..255) as. */
unsigned bpe_byte_char(int b);
/* That character as UTF-8 into out (NUL-terminated, at most 2 bytes and
 * the NUL): what vocab.json writes for the token of byte b. */
const char *bpe_byte_utf8(int b, char out[3]);

#endif
