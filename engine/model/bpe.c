/*
 * bpe.c - GPT-2's byte-level BPE (bpe.h): the vocabulary and the merges'
 * ranks in hash tables of their own, the pre-tokenizer's pattern compiled
 * once by PCRE2, and each piece merged by rank.
 */
#include "bpe_internal.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "json_read.h"

/* GPT-2's pre-tokenizer (its encoder.py), as the tokenizer.json of its
 * checkpoints writes it too. */
static const char pattern[] = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

/* ---- a table of strings ---- */

typedef struct {
    char **keys;
    int *vals;
    size_t cap, n;
} Table;

static uint64_t hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static int table_get(const Table *t, const char *s, size_t n)
{
    if (!t->cap)
        return -1;
    for (size_t i = hash(s, n) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        if (!t->keys[i])
            return -1;
        if (strlen(t->keys[i]) == n && memcmp(t->keys[i], s, n) == 0)
            return t->vals[i];
    }
}

/* Put s -> v (a key already there keeps its first value). 0, or -1 on no memory. */
static int table_put(Table *t, const char *s, size_t n, int v)
{
    if ((t->n + 1) * 2 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        Table g = { attn_calloc(cap, sizeof *g.keys), attn_calloc(cap, sizeof *g.vals), cap, 0 };
        if (!g.keys || !g.vals) {
            free(g.keys);
            free(g.vals);
            return -1;
        }
        for (size_t i = 0; i < t->cap; i++)
            if (t->keys[i]) {
                size_t j = hash(t->keys[i], strlen(t->keys[i])) & (cap - 1);
                while (g.keys[j])
                    j = (j + 1) & (cap - 1);
                g.keys[j] = t->keys[i];
                g.vals[j] = t->vals[i];
                g.n++;
            }
        free(t->keys);
        free(t->vals);
        *t = g;
    }
    size_t i = hash(s, n) & (t->cap - 1);
    while (t->keys[i]) {
        if (strlen(t->keys[i]) == n && memcmp(t->keys[i], s, n) == 0)
            return 0;
        i = (i + 1) & (t->cap - 1);
    }
    char *k = attn_malloc(n + 1);
    if (!k)
        return -1;
    memcpy(k, s, n);
    k[n] = '\0';
    t->keys[i] = k;
    t->vals[i] = v;
    t->n++;
    return 0;
}

static void table_free(Table *t)
{
    for (size_t i = 0; i < t->cap; i++)
        free(t->keys[i]);
    free(t->keys);
    free(t->vals);
    memset(t, 0, sizeof *t);
}

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
    int ascii_only;             /* an NFC normalizer: attn reads ASCII text   */
    Added *added;
    int n_added;
    char alphabet[256][4];      /* each byte's character, as UTF-8 */
    short byte_of[512];         /* and back: a character's byte + 1 (0: none) */
    /* each id's bytes (the alphabet undone; an added token as written),
     * NUL-terminated: what a screen shows of a token; NULL where the
     * files name no token */
    char **text;
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

void bpe_free(Bpe *b)
{
    if (!b)
        return;
    table_free(&b->vocab);
    table_free(&b->ranks);
    for (int i = 0; i < b->n_split; i++)
        pcre2_code_free(b->split[i]);
    for (int i = 0; i < b->n_added; i++)
        free(b->added[i].text);
    free(b->added);
    for (int i = 0; i < b->n_text; i++)
        free(b->text[i]);
    free(b->text);
    free(b);
}

Bpe *bpe_new(AttnError *err)
{
    Bpe *b = attn_calloc(1, sizeof *b);
    if (!b) {
        attn_fail(err, ATTN_E_NOMEM, "out of memory");
        return NULL;
    }
    for (int c = 0; c < 256; c++) {
        unsigned cp = bpe_byte_char(c);
        b->byte_of[cp] = (short)(c + 1);
        if (cp < 0x80)
            b->alphabet[c][0] = (char)cp;
        else {
            b->alphabet[c][0] = (char)(0xc0 | cp >> 6);
            b->alphabet[c][1] = (char)(0x80 | (cp & 0x3f));
        }
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
        if (!more)
            return -1;
        memset(more + b->n_text, 0, (size_t)(want - b->n_text) * sizeof *more);
        b->text = more;
        b->n_text = want;
    }
    char *out = attn_malloc(n + 1);
    if (!out)
        return -1;
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
        unsigned cp = len == 1 ? c : c & (0x7fu >> len);
        for (size_t j = 1; j < len && i + j < n; j++)
            cp = cp << 6 | ((unsigned char)s[i + j] & 0x3f);
        int byte = alphabet && cp < 512 ? b->byte_of[cp] - 1 : -1;
        if (byte >= 0)
            out[k++] = (char)byte;
        else
            for (size_t j = 0; j < len && i + j < n; j++)
                out[k++] = s[i + j];
        i += len;
    }
    out[k] = '\0';
    free(b->text[id]);
    b->text[id] = out;
    return 0;
}

int bpe_add_token(Bpe *b, const char *s, size_t n, int id, AttnError *err)
{
    if (table_put(&b->vocab, s, n, id) != 0 || set_text(b, s, n, id, 1) != 0)
        return attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1;
    return 0;
}

const char *bpe_token_text(const Bpe *b, int id)
{
    return b && id >= 0 && id < b->n_text ? b->text[id] : NULL;
}

int bpe_add_merge(Bpe *b, const char *a, size_t na, const char *c, size_t nc, const char *where, AttnError *err)
{
    char joined[512];
    if (na + nc + 1 >= sizeof joined || table_get(&b->vocab, a, na) < 0 || table_get(&b->vocab, c, nc) < 0)
        return attn_fail(err, ATTN_E_ARG, "%s: \"%.*s %.*s\" names a token the vocabulary lacks", where,
                         (int)(na < 40 ? na : 40), a, (int)(nc < 40 ? nc : 40), c), -1;
    memcpy(joined, a, na);
    memcpy(joined + na, c, nc);
    if (table_get(&b->vocab, joined, na + nc) < 0)
        return attn_fail(err, ATTN_E_ARG, "%s: \"%.*s %.*s\" makes a token the vocabulary lacks", where,
                         (int)(na < 40 ? na : 40), a, (int)(nc < 40 ? nc : 40), c), -1;
    joined[na] = ' ';
    memcpy(joined + na + 1, c, nc);
    if (table_put(&b->ranks, joined, na + nc + 1, (int)b->ranks.n) != 0)
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
void bpe_set_ascii_only(Bpe *b, int on) { b->ascii_only = on; }

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
    for (size_t i = 0; i < n && rc == 0; i++)
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
            int r = table_get(&b->ranks, key, la + lb + 1);
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
        int id = table_get(&b->vocab, sym[i], strlen(sym[i]));
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

int bpe_encode(const Bpe *b, const char *text, size_t len, int *ids, int max, AttnError *err)
{
    for (size_t i = 0; b->ascii_only && i < len; i++)
        if ((unsigned char)text[i] >= 0x80)
            return (attn_fail(err, ATTN_E_ARG, "the tokenizer normalizes the text to NFC, which attn does only "
                                               "for ASCII text: byte %zu is not ASCII", i + 1), -1);
    pcre2_match_data *md[BPE_MAX_SPLITS] = { 0 };
    for (int i = 0; i < b->n_split; i++)
        if (!(md[i] = pcre2_match_data_create_from_pattern(b->split[i], NULL))) {
            for (int k = 0; k < i; k++)
                pcre2_match_data_free(md[k]);
            return (attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1);
        }
    int count = 0, rc = 0;
    char *spaced = NULL;
    if (b->prefix_space && len > 0 && text[0] != ' ') {
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
        rc = split_piece(b, 0, md, text + at, plain, ids, &count, max, err);
        at += plain;
        if (rc == 0 && k >= 0) {
            if (count >= max)
                rc = (attn_fail(err, ATTN_E_TOO_BIG, "the text makes more than %d tokens", max), -1);
            else
                ids[count++] = b->added[k].id;
            at += b->added[k].len;
        }
    }
    free(spaced);
    for (int i = 0; i < b->n_split; i++)
        pcre2_match_data_free(md[i]);
    return rc == 0 ? count : -1;
}
