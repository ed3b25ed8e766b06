/*
 * bpe_internal.h - how a BPE tokenizer is put together, for the files of
 * its room: the tables (bpe_table.c), the tokenizer and its two readers
 * (bpe.c: vocab.json with merges.txt; bpe_json.c: tokenizer.json), the
 * pattern's translation from Oniguruma's meaning to PCRE2's
 * (bpe_regex.c), and the encoder (bpe_encode.c, the pipeline of the
 * Hugging Face tokenizers: added tokens, normalizers, pre-tokenizers, the
 * model, the post-processor).
 *
 * Ownership: a Bpe owns its tables, its compiled patterns, its added
 * tokens and its texts; bpe_free releases them.
 */
#ifndef ATTN_BPE_INTERNAL_H
#define ATTN_BPE_INTERNAL_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdint.h>

#include "bpe.h"
#include "json_read.h"

/* ---- tables (bpe_table.c) ---- */

/* Strings to ints, open addressing; the keys' bytes in one block of the
 * table's own (no allocation a key). */
typedef struct {
    struct StrSlot { uint32_t off, len, hash; int32_t val; } *slot;
    size_t cap, n;              /* cap a power of two, or 0 */
    char *bytes;                /* every key, back to back */
    size_t used, room;
} Table;
/* The value of s[0..n), or -1. */
int bpe_table_get(const Table *t, const char *s, size_t n);
/* Put s -> v; a key already there takes the new value (as a hub file's
 * later entry wins). 0, or -1 on no memory. */
int bpe_table_put(Table *t, const char *s, size_t n, int v);
void bpe_table_free(Table *t);

/* Pairs of token ids to the merge that joins them: its rank and the id it
 * makes. */
typedef struct {
    struct PairSlot { uint64_t key; int32_t rank, id; } *slot;
    size_t cap, n;
} PairTable;
/* The merge of (a, b), or 0 with *rank -1. */
int bpe_pair_get(const PairTable *t, int a, int b, int *rank, int *id);
/* 0, or -1 on no memory; a pair already there takes the new merge. */
int bpe_pair_put(PairTable *t, int a, int b, int rank, int id);
void bpe_pair_free(PairTable *t);

/* ---- the tokenizer's parts ---- */

/* A split's behaviour: what becomes of each match of its pattern
 * (the tokenizers' SplitDelimiterBehavior). */
typedef enum { SPLIT_REMOVED, SPLIT_ISOLATED, SPLIT_MERGED_PREVIOUS, SPLIT_MERGED_NEXT, SPLIT_CONTIGUOUS } SplitHow;

/* One step of the normalizer or the pre-tokenizer, in the file's order. */
typedef enum {
    STEP_NFC, STEP_NFD, STEP_NFKC, STEP_NFKD,   /* normalizers (libunistring)        */
    STEP_PREPEND,               /* a text before each stretch that is not empty      */
    STEP_REPLACE,               /* every `from` written `to`                         */
    STEP_SPLIT,                 /* a pattern, a behaviour, perhaps inverted          */
    STEP_BYTE_LEVEL,            /* a space before each piece (prefix), GPT-2's split */
    STEP_METASPACE              /* spaces written `to`, one before, split before each */
} StepKind;

typedef struct {
    StepKind kind;
    SplitHow how;
    int invert;
    int prefix;                 /* BYTE_LEVEL: add_prefix_space; METASPACE: BPE_PREPEND_* */
    int split;                  /* BYTE_LEVEL: use_regex; METASPACE: split           */
    pcre2_code *re;             /* SPLIT, and BYTE_LEVEL's and METASPACE's own       */
    char *from, *to;            /* REPLACE; PREPEND's and METASPACE's text in `to`   */
} Step;

enum { BPE_PREPEND_NEVER, BPE_PREPEND_FIRST, BPE_PREPEND_ALWAYS };

/* An added token: matched in the text as written (or, normalized, in the
 * normalized text) before anything else. */
typedef struct {
    char *text;
    size_t len;
    int id;
    int lstrip, rstrip;         /* it takes the white space before, after */
    int single_word;            /* only where no word character is beside it */
} Added;
/* An added token's flags, for bpe_add_special. */
enum { ADDED_NORMALIZED = 1, ADDED_LSTRIP = 2, ADDED_RSTRIP = 4, ADDED_SINGLE_WORD = 8 };

#define BPE_MAX_STEPS 16
#define BPE_MAX_TEMPLATE 4

struct Bpe {
    Table vocab;                /* token (as the model writes it) -> id  */
    PairTable merges;           /* (id, id) -> rank and the id made      */
    int n_merges;
    Step norm[BPE_MAX_STEPS], pre[BPE_MAX_STEPS];
    int n_norm, n_pre;
    int byte_level;             /* the pieces' bytes written in GPT-2's alphabet */
    int fallback_id[256];       /* <0xNN>'s (byte fallback; -1: none)    */
    int byte_fallback, unk, fuse_unk;
    int ignore_merges;          /* a piece the vocabulary holds whole is one token */
    char space[8];              /* what a space is written as ("▁"), or ""  */
    int cut_at_space;           /* no token holds it after another character,
                                   and it is a token: a piece may be cut
                                   before it (bpe_finish)                  */
    /* the post-processor's template: tokens before and after the text */
    int before[BPE_MAX_TEMPLATE], n_before, after[BPE_MAX_TEMPLATE], n_after;
    /* added tokens sorted by their bytes, matched as written (raw) or in
     * the normalized text */
    Added *raw, *normed;
    int n_raw, n_normed;
    /* each id's text (the alphabet undone, "▁" a space, <0xNN> its byte;
     * an added token as written), NUL-terminated, in one block */
    uint32_t *text_at, *text_len;
    int n_text;
    char *texts;
    size_t texts_used, texts_room;
    char alphabet[256][3];      /* each byte's character, as UTF-8       */
    short byte_of[512];         /* and back: a character's byte + 1      */
    /* how a token's text is shown: the byte alphabet undone (GPT-2's), or
     * "▁" a space and <0xNN> a byte (SentencePiece's) */
    int shows_bytes, shows_metaspace;
};

Bpe *bpe_new(AttnError *err);
/* The vocabulary: token -> id. */
int bpe_add_token(Bpe *b, const char *s, size_t n, int id, AttnError *err);
/* The object v of token -> id (below vocab_size) into the vocabulary;
 * what names it in messages ("vocab.json"). 0, or -1 with err. */
int bpe_vocab_of(Bpe *b, const JVal *v, const char *what, int vocab_size, AttnError *err);
/* The next merge (its rank the count so far): a then c, both tokens of the
 * vocabulary and their join one too; where and at name it in messages
 * ("merges.txt line", 3). */
int bpe_add_merge(Bpe *b, const char *a, size_t na, const char *c, size_t nc, const char *where, int at,
                  AttnError *err);
/* An added token, its flags ADDED_* (normalized: matched in the
 * normalized text). */
int bpe_add_special(Bpe *b, const char *s, size_t n, int id, int flags, AttnError *err);
/* A step of the normalizer (STEP_NFC .. STEP_REPLACE) or of the
 * pre-tokenizer, its strings copied; `pattern` (Oniguruma's syntax, as the
 * file writes it) compiled for a split. 0, or -1 with err. */
int bpe_add_step(Bpe *b, Step step, const char *pattern, AttnError *err);
/* A literal as a pattern that matches it (its metacharacters escaped),
 * into out (at least 2 * strlen(s) + 1 bytes). */
void bpe_regex_quote(const char *s, char *out);
/* GPT-2's own pattern (ByteLevel's use_regex). */
extern const char bpe_gpt2_pattern[];
/* When the vocabulary is whole: byte fallback's tokens, the added tokens
 * in order. 0, or -1 with err. */
int bpe_finish(Bpe *b, AttnError *err);
/* A token's id, or -1. */
int bpe_token_id(const Bpe *b, const char *s);
/* The post-processor's template. 0, or -1 (more than BPE_MAX_TEMPLATE). */
int bpe_set_template(Bpe *b, const int *before, int n_before, const int *after, int n_after);

/* The pattern of a tokenizer file (Oniguruma's syntax and classes, as the
 * tokenizers library compiles it) compiled by PCRE2 to mean the same:
 * \s is Oniguruma's white space (U+180E is not), \h a hex digit, \v the
 * vertical tab, \w letters, marks, decimal digits and connectors; ^ and $
 * at every line. NULL with err (what attn cannot translate, named). */
pcre2_code *bpe_regex_compile(const char *pattern, AttnError *err);

/* ---- encoding (bpe_encode.c, bpe_split.c) ---- */

/* A piece: where it lies in its text, and whether it begins the text
 * encoded (Metaspace's "first"). */
typedef struct {
    size_t at, len;
    int first;
} Span;

/* A text and its pieces. */
typedef struct {
    char *text;
    size_t len, room;
    Span *span;
    size_t n, n_room;
} Pieces;

/* One match or gap of a pattern in a piece (the tokenizers' (offsets, is_match)). */
typedef struct {
    size_t from, to;
    int hit;
} Cut;

/* Everything an encoding needs, grown as it goes and freed at the end. */
typedef struct {
    const Bpe *b;
    int checked;                /* the text is valid UTF-8: PCRE2_NO_UTF_CHECK */
    pcre2_match_data *md;
    Cut *cut;
    size_t n_cut, cut_room;
    int *sym, *prev, *next;    /* the symbols of a piece, linked */
    size_t sym_room, prev_room, next_room;
    uint64_t *heap;             /* the pairs that may merge (bpe_encode.c) */
    size_t n_heap, heap_room;
    char *scratch;
    size_t scratch_room;
    int *ids;                   /* the output */
    size_t n_ids, ids_room, max;
    AttnError *err;
} Work;

/* "out of memory" into w's err: -1. */
int bpe_nomem(Work *w);
/* *p to room for at least `want` items of `size` bytes (doubling). 0, or -1. */
int bpe_room(void **p, size_t *room, size_t want, size_t size);
/* s[0..n) as one more piece of p. 0, or -1 with w's err. */
int bpe_piece_add(Work *w, Pieces *p, const char *s, size_t n, int first);
void bpe_pieces_free(Pieces *p);
/* The bytes of the UTF-8 character at s[0..n) (1 for a byte that begins none). */
size_t bpe_char_len(const char *s, size_t n);
/* One pre-tokenizer step: in's pieces onto out (empty). 0, or -1 with err. */
int bpe_pre_step(Work *w, const Step *st, const Pieces *in, Pieces *out);

#endif
