/*
 * bpe.c - GPT-2's byte-level BPE (bpe.h): the vocabulary and the merges'
 * ranks in hash tables of their own, the pre-tokenizer's pattern compiled
 * once by PCRE2, and each piece merged by rank.
 */
#include "bpe_internal.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <uninorm.h>
#include <unistr.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "json_read.h"

/* GPT-2's pre-tokenizer (its encoder.py), as the tokenizer.json of its
 * checkpoints writes it too. */
static const char pattern[] = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

/* ---- the tokenizer ---- */

#define BPE_MAX_SPLITS 4
#define BPE_MAX_ADDED 4096

/* An added token (tokenizer.json's added_tokens): matched in the text as
 * it is written, before any splitting. */
typedef struct {
    char *text;
    size_t len;
    int id;
} Added;

struct Bpe {
    Table vocab, ranks;
    /* the pre-tokenizer: patterns applied in turn, each piece of one split
     * by the next, every match and every gap between matches a piece */
    pcre2_code *split[BPE_MAX_SPLITS];
    int n_split;
    int prefix_space;           /* ByteLevel's add_prefix_space              */
    int nfc;                    /* the text normalized to NFC first (libunistring) */
    /* SentencePiece's BPE (Llama's, TinyLlama's): the symbols are the
     * text's characters, not bytes; a space is written "▁" */
    int metaspace;
    int prepend;                /* a "▁" before each plain stretch of text: BPE_PREPEND_* */
    int byte_fallback;          /* a character the vocabulary lacks: its bytes, <0xNN> */
    int unk, fuse_unk;          /* the unknown token (-1: none); runs of it as one */
    /* the post-processor's template: tokens before and after the text */
    int before[BPE_MAX_TEMPLATE], n_before, after[BPE_MAX_TEMPLATE], n_after;
    Added *added;
    int n_added;
    char alphabet[256][4];      /* each byte's character, as UTF-8 */
    short byte_of[512];         /* and back: a character's byte + 1 (0: none) */
    /* each id's bytes (the alphabet undone; an added token as written),
     * NUL-terminated: what a screen shows of a token; NULL where the
     * files name no token */
    char **text;
    size_t *text_len;           /* its bytes (a token may hold a NUL byte) */
    int n_text;
};

unsigned bpe_byte_char(int b)
{
#define SELF(c) (((c) >= 33 && (c) <= 126) || ((c) >= 161 && (c) <= 172) || ((c) >= 174 && (c) <= 255))
    if (SELF(b))
        return (unsigned)b;
    unsigned k = 0;
    for (int c = 0; c < b; c++)
        k += !SELF(c);
    return 256u + k;
#undef SELF
}

const char *bpe_byte_utf8(int b, char out[3])
{
    unsigned cp = bpe_byte_char(b);     /* below 0x144: one or two bytes */
    if (cp < 0x80) {
        out[0] = (char)cp, out[1] = '\0';
    } else {
        out[0] = (char)(0xc0 | cp >> 6), out[1] = (char)(0x80 | (cp & 0x3f)), out[2] = '\0';
    }
    return out;
}

void bpe_free(Bpe *b)
{
    if (!b)
        return;
    bpe_table_free(&b->vocab);
    bpe_table_free(&b->ranks);
    for (int i = 0; i < b->n_split; i++)
        pcre2_code_free(b->split[i]);
    for (int i = 0; i < b->n_added; i++)
        free(b->added[i].text);
    free(b->added);
    for (int i = 0; i < b->n_text; i++)
        free(b->text[i]);
    free(b->text);
    free(b->text_len);
    free(b);
}

Bpe *bpe_new(AttnError *err)
{
    Bpe *b = attn_calloc(1, sizeof *b);
    if (!b) {
        attn_fail(err, ATTN_E_NOMEM, "out of memory");
        return NULL;
    }
    b->unk = -1;
    for (int c = 0; c < 256; c++) {
        b->byte_of[bpe_byte_char(c)] = (short)(c + 1);
        bpe_byte_utf8(c, b->alphabet[c]);
    }
    return b;
}

/* id's text as s[0..n): its bytes, the byte alphabet undone when
 * alphabet is set (an added token is its own bytes). */
static int set_text(Bpe *b, const char *s, size_t n, int id, int alphabet)
{
    if (id >= b->n_text) {
        int want = id + 1 > 2 * b->n_text ? id + 1 : 2 * b->n_text;
        char **more = attn_realloc(b->text, (size_t)want * sizeof *more);
        if (more)
            b->text = more;
        size_t *lens = more ? attn_realloc(b->text_len, (size_t)want * sizeof *lens) : NULL;
        if (!lens)
            return -1;
        b->text_len = lens;
        memset(more + b->n_text, 0, (size_t)(want - b->n_text) * sizeof *more);
        memset(lens + b->n_text, 0, (size_t)(want - b->n_text) * sizeof *lens);
        b->n_text = want;
    }
    char *out = attn_malloc(n + 1);
    if (!out)
        return -1;
    size_t k = 0;
    unsigned byte_token;
    char tail;
    if (b->metaspace && alphabet && n == 6 && sscanf(s, "<0x%2X>%c", &byte_token, &tail) == 1) {
        /* byte fallback's token: the byte it stands for */
        out[k++] = (char)byte_token;
        n = 0;
    }
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
        unsigned cp = len == 1 ? c : c & (0x7fu >> len);
        for (size_t j = 1; j < len && i + j < n; j++)
            cp = cp << 6 | ((unsigned char)s[i + j] & 0x3f);
        int byte = alphabet && !b->metaspace && cp < 512 ? b->byte_of[cp] - 1 : -1;
        if (b->metaspace && alphabet && cp == 0x2581)
            out[k++] = ' ';     /* "▁" is a space */
        else if (byte >= 0)
            out[k++] = (char)byte;
        else
            for (size_t j = 0; j < len && i + j < n; j++)
                out[k++] = s[i + j];
        i += len;
    }
    out[k] = '\0';
    free(b->text[id]);
    b->text[id] = out;
    b->text_len[id] = k;
    return 0;
}

int bpe_add_token(Bpe *b, const char *s, size_t n, int id, AttnError *err)
{
    if (bpe_table_put(&b->vocab, s, n, id) != 0 || set_text(b, s, n, id, 1) != 0)
        return attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1;
    return 0;
}

const char *bpe_token_text(const Bpe *b, int id)
{
    return b && id >= 0 && id < b->n_text ? b->text[id] : NULL;
}

size_t bpe_token_size(const Bpe *b, int id)
{
    return b && id >= 0 && id < b->n_text && b->text[id] ? b->text_len[id] : 0;
}

int bpe_add_merge(Bpe *b, const char *a, size_t na, const char *c, size_t nc, const char *where, AttnError *err)
{
    char joined[512];
    if (na + nc + 1 >= sizeof joined || bpe_table_get(&b->vocab, a, na) < 0 || bpe_table_get(&b->vocab, c, nc) < 0)
        return attn_fail(err, ATTN_E_ARG, "%s: \"%.*s %.*s\" names a token the vocabulary lacks", where,
                         (int)(na < 40 ? na : 40), a, (int)(nc < 40 ? nc : 40), c), -1;
    memcpy(joined, a, na);
    memcpy(joined + na, c, nc);
    if (bpe_table_get(&b->vocab, joined, na + nc) < 0)
        return attn_fail(err, ATTN_E_ARG, "%s: \"%.*s %.*s\" makes a token the vocabulary lacks", where,
                         (int)(na < 40 ? na : 40), a, (int)(nc < 40 ? nc : 40), c), -1;
    joined[na] = ' ';
    memcpy(joined + na + 1, c, nc);
    if (bpe_table_put(&b->ranks, joined, na + nc + 1, (int)b->ranks.n) != 0)
        return attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1;
    return 0;
}

int bpe_add_split(Bpe *b, const char *regex, AttnError *err)
{
    if (b->n_split == BPE_MAX_SPLITS)
        return attn_fail(err, ATTN_E_ARG, "more than %d pre-tokenizers", BPE_MAX_SPLITS), -1;
    int code;
    PCRE2_SIZE off;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)regex, PCRE2_ZERO_TERMINATED,
                                   PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF, &code, &off, NULL);
    if (!re) {
        PCRE2_UCHAR msg[120];
        pcre2_get_error_message(code, msg, sizeof msg);
        return attn_fail(err, ATTN_E_ARG, "the pre-tokenizer's pattern does not compile at %zu: %s", (size_t)off,
                         (const char *)msg), -1;
    }
    b->split[b->n_split++] = re;
    return 0;
}

int bpe_split_gpt2(Bpe *b, AttnError *err) { return bpe_add_split(b, pattern, err); }

int bpe_add_special(Bpe *b, const char *s, int id, AttnError *err)
{
    size_t n = strlen(s);
    if (n == 0)
        return 0;
    Added *more = b->n_added < BPE_MAX_ADDED ? attn_realloc(b->added, (size_t)(b->n_added + 1) * sizeof *more) : NULL;
    char *copy = more ? strdup(s) : NULL;
    if (more)
        b->added = more;
    if (!copy)
        return attn_fail(err, ATTN_E_NOMEM, "out of memory (or more than %d added tokens)", BPE_MAX_ADDED), -1;
    b->added[b->n_added++] = (Added){ copy, n, id };
    if (set_text(b, s, n, id, 0) != 0)
        return attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1;
    return 0;
}

void bpe_set_prefix_space(Bpe *b, int on) { b->prefix_space = on; }
void bpe_set_nfc(Bpe *b, int on) { b->nfc = on; }
void bpe_set_metaspace(Bpe *b, int prepend)
{
    b->metaspace = 1;
    if (prepend != BPE_PREPEND_NONE)
        b->prepend = prepend;
}
void bpe_set_byte_fallback(Bpe *b, int on, int unk, int fuse_unk)
{
    b->byte_fallback = on;
    b->unk = unk;
    b->fuse_unk = fuse_unk;
}
int bpe_token_id(const Bpe *b, const char *s) { return bpe_table_get(&b->vocab, s, strlen(s)); }
int bpe_set_template(Bpe *b, const int *before, int n_before, const int *after, int n_after)
{
    if (n_before > BPE_MAX_TEMPLATE || n_after > BPE_MAX_TEMPLATE)
        return -1;
    memcpy(b->before, before, (size_t)n_before * sizeof *before);
    memcpy(b->after, after, (size_t)n_after * sizeof *after);
    b->n_before = n_before;
    b->n_after = n_after;
    return 0;
}

Bpe *bpe_open(const char *vocab, const char *merges, size_t len, int vocab_size, AttnError *err)
{
    Bpe *b = bpe_new(err);
    if (!b)
        return NULL;
    JVal root;
    char why[160];
    if (json_parse(vocab, &root, why, sizeof why) != 0) {
        attn_fail(err, ATTN_E_ARG, "vocab.json is not JSON: %s", why);
        bpe_free(b);
        return NULL;
    }
    int ok = bpe_vocab_of(b, &root, "vocab.json", vocab_size, err) == 0;
    json_free(&root);
    /* merges.txt: one "a b" a line, rank by line */
    size_t at = 0;
    int line = 0;
    while (ok && at < len) {
        size_t end = at;
        while (end < len && merges[end] != '\n')
            end++;
        line++;
        size_t n = end - at;
        if (n > 0 && merges[at + n - 1] == '\r')
            n--;
        const char *s = merges + at;
        at = end + 1;
        if (n == 0 || (line == 1 && n >= 8 && memcmp(s, "#version", 8) == 0))
            continue;
        const char *sp = memchr(s, ' ', n);
        if (!sp || sp == s || sp == s + n - 1 || memchr(sp + 1, ' ', (size_t)(s + n - sp - 1))) {
            attn_fail(err, ATTN_E_ARG, "merges.txt line %d is not two tokens separated by one space", line);
            ok = 0;
            break;
        }
        char where[40];
        snprintf(where, sizeof where, "merges.txt line %d", line);
        ok = bpe_add_merge(b, s, (size_t)(sp - s), sp + 1, n - (size_t)(sp - s) - 1, where, err) == 0;
    }
    ok = ok && bpe_split_gpt2(b, err) == 0;
    if (!ok) {
        bpe_free(b);
        return NULL;
    }
    return b;
}

int bpe_vocab_of(Bpe *b, const JVal *v, const char *what, int vocab_size, AttnError *err)
{
    if (v->type != J_OBJ)
        return attn_fail(err, ATTN_E_ARG, "%s is not an object of token -> id", what), -1;
    for (int i = 0; i < v->n; i++) {
        const JVal *id = &v->items[i];
        if (id->type != J_NUM || id->num < 0 || id->num >= vocab_size || id->num != (double)(int)id->num)
            return attn_fail(err, ATTN_E_ARG, "%s: the id of token %.60s is not one of 0 to %d", what, v->keys[i],
                             vocab_size - 1), -1;
        if (bpe_add_token(b, v->keys[i], strlen(v->keys[i]), (int)id->num, err) != 0)
            return -1;
    }
    return 0;
}

/* One piece's bytes, merged by rank, appended as ids. */
static int encode_piece(const Bpe *b, const unsigned char *p, size_t n, int *ids, int *count, int max,
                        AttnError *err)
{
    char **sym = attn_calloc(n, sizeof *sym);
    if (!sym)
        return (attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1);
    size_t m = n;
    int rc = 0;
    if (b->metaspace) {
        /* SentencePiece's: a symbol a character; one the vocabulary lacks
         * as its bytes (byte fallback), or as itself, unknown */
        m = 0;
        for (size_t i = 0; i < n && rc == 0;) {
            size_t len = p[i] < 0x80 ? 1 : (p[i] >> 5) == 6 ? 2 : (p[i] >> 4) == 14 ? 3 : 4;
            len = len > n - i ? n - i : len;
            if (bpe_table_get(&b->vocab, (const char *)p + i, len) >= 0 || !b->byte_fallback) {
                if (!(sym[m] = attn_malloc(len + 1)))
                    rc = (attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1);
                else
                    memcpy(sym[m], p + i, len), sym[m][len] = '\0', m++;
            } else {
                for (size_t j = 0; j < len && rc == 0; j++) {
                    char hex[8];
                    snprintf(hex, sizeof hex, "<0x%02X>", p[i + j]);
                    if (!(sym[m++] = strdup(hex)))
                        rc = (attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1);
                }
            }
            i += len;
        }
    }
    for (size_t i = 0; !b->metaspace && i < n && rc == 0; i++)
        if (!(sym[i] = strdup(b->alphabet[p[i]])))
            rc = (attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1);
    while (rc == 0 && m > 1) {
        /* the adjacent pair of lowest rank */
        int best = -1;
        size_t at = 0;
        for (size_t i = 0; i + 1 < m; i++) {
            char key[512];
            size_t la = strlen(sym[i]), lb = strlen(sym[i + 1]);
            if (la + lb + 1 >= sizeof key)
                continue;
            memcpy(key, sym[i], la);
            key[la] = ' ';
            memcpy(key + la + 1, sym[i + 1], lb);
            int r = bpe_table_get(&b->ranks, key, la + lb + 1);
            if (r >= 0 && (best < 0 || r < best)) {
                best = r;
                at = i;
            }
        }
        if (best < 0)
            break;
        /* every occurrence of that pair, left to right */
        char *a = strdup(sym[at]), *c = strdup(sym[at + 1]);
        if (!a || !c) {
            free(a);
            free(c);
            rc = (attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1);
            break;
        }
        size_t w = 0;
        for (size_t i = 0; i < m;) {
            if (i + 1 < m && strcmp(sym[i], a) == 0 && strcmp(sym[i + 1], c) == 0) {
                size_t la = strlen(sym[i]), lb = strlen(sym[i + 1]);
                char *j = attn_realloc(sym[i], la + lb + 1);
                if (!j) {
                    rc = (attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1);
                    break;
                }
                memcpy(j + la, sym[i + 1], lb + 1);
                free(sym[i + 1]);
                sym[w++] = j;
                i += 2;
            } else {
                sym[w++] = sym[i++];
            }
        }
        free(a);
        free(c);
        if (rc == 0)
            m = w;
    }
    for (size_t i = 0; i < m && rc == 0; i++) {
        int id = bpe_table_get(&b->vocab, sym[i], strlen(sym[i]));
        if (id < 0 && b->unk >= 0 && b->fuse_unk && *count > 0 && ids[*count - 1] == b->unk)
            continue;   /* a run of unknowns is one */
        if (id < 0 && b->unk >= 0)
            id = b->unk;
        if (id < 0)
            rc = (attn_fail(err, ATTN_E_ARG, "the vocabulary has no token %.60s", sym[i]), -1);
        else if (*count >= max)
            rc = (attn_fail(err, ATTN_E_TOO_BIG, "the text makes more than %d tokens", max), -1);
        else
            ids[(*count)++] = id;
    }
    for (size_t i = 0; i < m; i++)
        free(sym[i]);
    free(sym);
    return rc;
}

/* text[0..len) split by pattern `level` and on (each match and each gap a
 * piece), and each piece of the last encoded. 0, or -1 with err. */
static int split_piece(const Bpe *b, int level, pcre2_match_data **md, const char *text, size_t len, int *ids,
                       int *count, int max, AttnError *err)
{
    if (len == 0)
        return 0;
    if (level == b->n_split)
        return encode_piece(b, (const unsigned char *)text, len, ids, count, max, err);
    size_t at = 0;
    while (at < len) {
        int r = pcre2_match(b->split[level], (PCRE2_SPTR)text, len, at, 0, md[level], NULL);
        size_t from = len, to = len;
        if (r > 0) {
            PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md[level]);
            from = ov[0];
            to = ov[1] > ov[0] ? ov[1] : ov[0] + 1;
            if (to > len)
                to = len;
        }
        /* a gap (bytes no alternative takes, or between matches): a piece too */
        if (from > at && split_piece(b, level + 1, md, text + at, from - at, ids, count, max, err) != 0)
            return -1;
        if (to > from && split_piece(b, level + 1, md, text + from, to - from, ids, count, max, err) != 0)
            return -1;
        at = to;
    }
    return 0;
}

/* The first added token in text[0..len) (leftmost, then longest): its
 * index and where, or -1. */
static int next_added(const Bpe *b, const char *text, size_t len, size_t *where)
{
    int best = -1;
    for (int i = 0; i < b->n_added; i++) {
        const Added *a = &b->added[i];
        for (size_t at = 0; a->len <= len && at + a->len <= len && (best < 0 || at <= *where); at++)
            if (memcmp(text + at, a->text, a->len) == 0) {
                if (best < 0 || at < *where || a->len > b->added[best].len) {
                    best = i;
                    *where = at;
                }
                break;
            }
    }
    return best;
}

/* A plain stretch of text as SentencePiece writes it: each space "▁",
 * and a "▁" before it as the tokenizer says (first: the text's first
 * stretch). NUL-terminated, the caller's; NULL on no memory. */
static char *metaspace_text(const Bpe *b, const char *text, size_t len, int first, size_t *out_len)
{
    static const char bar[] = "\xe2\x96\x81";   /* U+2581 */
    char *out = attn_malloc(3 * len + 4);
    if (!out)
        return NULL;
    size_t k = 0;
    int starts = len > 0 && (text[0] == ' ' || (len >= 3 && memcmp(text, bar, 3) == 0));
    if (len > 0 && (b->prepend == BPE_PREPEND_UNCONDITIONAL || (b->prepend == BPE_PREPEND_ALWAYS && !starts)
                    || (b->prepend == BPE_PREPEND_FIRST && first && !starts))) {
        memcpy(out, bar, 3);
        k = 3;
    }
    for (size_t i = 0; i < len; i++) {
        if (text[i] == ' ') {
            memcpy(out + k, bar, 3);
            k += 3;
        } else {
            out[k++] = text[i];
        }
    }
    out[k] = '\0';
    *out_len = k;
    return out;
}

/* ids[*count..) += the n ids of list, within max. */
static int put_ids(const int *list, int n, int *ids, int *count, int max, AttnError *err)
{
    for (int i = 0; i < n; i++) {
        if (*count >= max)
            return (attn_fail(err, ATTN_E_TOO_BIG, "the text makes more than %d tokens", max), -1);
        ids[(*count)++] = list[i];
    }
    return 0;
}

int bpe_encode(const Bpe *b, const char *text, size_t len, int *ids, int max, AttnError *err)
{
    uint8_t *normal = NULL;
    if (b->nfc) {
        /* the tokenizer's NFC normalizer, by libunistring */
        size_t normal_len = 0;
        const uint8_t *bad = u8_check((const uint8_t *)text, len);
        if (bad)
            return (attn_fail(err, ATTN_E_ARG, "the text is not UTF-8 at byte %zu", (size_t)(bad - (const uint8_t *)text) + 1),
                    -1);
        if (!(normal = u8_normalize(UNINORM_NFC, (const uint8_t *)text, len, NULL, &normal_len)))
            return (attn_fail(err, errno == ENOMEM ? ATTN_E_NOMEM : ATTN_E_ARG, "%s",
                              errno == ENOMEM ? "out of memory" : "the text is not UTF-8"), -1);
        text = (const char *)normal;
        len = normal_len;
    }
    pcre2_match_data *md[BPE_MAX_SPLITS] = { 0 };
    for (int i = 0; i < b->n_split; i++)
        if (!(md[i] = pcre2_match_data_create_from_pattern(b->split[i], NULL))) {
            for (int k = 0; k < i; k++)
                pcre2_match_data_free(md[k]);
            free(normal);
            return (attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1);
        }
    int count = 0, rc = put_ids(b->before, b->n_before, ids, &count, max, err);
    char *spaced = NULL;
    if (rc == 0 && b->prefix_space && len > 0 && text[0] != ' ') {
        /* ByteLevel's add_prefix_space: the text as if a word came before */
        if (!(spaced = attn_malloc(len + 1)))
            rc = (attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1);
        else {
            spaced[0] = ' ';
            memcpy(spaced + 1, text, len);
            text = spaced;
            len++;
        }
    }
    size_t at = 0;
    while (rc == 0 && at < len) {
        size_t where = 0;
        int k = next_added(b, text + at, len - at, &where);
        size_t plain = k < 0 ? len - at : where;
        if (b->metaspace && plain > 0) {
            size_t n_meta;
            char *meta = metaspace_text(b, text + at, plain, at == 0, &n_meta);
            rc = meta ? split_piece(b, 0, md, meta, n_meta, ids, &count, max, err)
                      : (attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1);
            free(meta);
        } else {
            rc = split_piece(b, 0, md, text + at, plain, ids, &count, max, err);
        }
        at += plain;
        if (rc == 0 && k >= 0) {
            rc = put_ids(&b->added[k].id, 1, ids, &count, max, err);
            at += b->added[k].len;
        }
    }
    if (rc == 0)
        rc = put_ids(b->after, b->n_after, ids, &count, max, err);
    free(spaced);
    free(normal);
    for (int i = 0; i < b->n_split; i++)
        pcre2_match_data_free(md[i]);
    return rc == 0 ? count : -1;
}
