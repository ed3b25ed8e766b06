/*
 * bpe.c - GPT-2's byte-level BPE (bpe.h): the vocabulary and the merges'
 * ranks in hash tables of their own, the pre-tokenizer's pattern compiled
 * once by PCRE2, and each piece merged by rank.
 */
#include "bpe.h"

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

struct Bpe {
    Table vocab, ranks;
    pcre2_code *re;
    char alphabet[256][4];      /* each byte's character, as UTF-8 */
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
    pcre2_code_free(b->re);
    free(b);
}

Bpe *bpe_open(const char *vocab, const char *merges, size_t len, int vocab_size, AttnError *err)
{
    Bpe *b = attn_calloc(1, sizeof *b);
    if (!b) {
        attn_fail(err, ATTN_E_NOMEM, "out of memory");
        return NULL;
    }
    for (int c = 0; c < 256; c++) {
        unsigned cp = bpe_byte_char(c);
        if (cp < 0x80)
            b->alphabet[c][0] = (char)cp;
        else {
            b->alphabet[c][0] = (char)(0xc0 | cp >> 6);
            b->alphabet[c][1] = (char)(0x80 | (cp & 0x3f));
        }
    }
    JVal root;
    char why[160];
    if (json_parse(vocab, &root, why, sizeof why) != 0) {
        attn_fail(err, ATTN_E_ARG, "vocab.json is not JSON: %s", why);
        bpe_free(b);
        return NULL;
    }
    int ok = root.type == J_OBJ;
    if (!ok)
        attn_fail(err, ATTN_E_ARG, "vocab.json is not an object of token -> id");
    for (int i = 0; ok && i < root.n; i++) {
        const JVal *id = &root.items[i];
        if (id->type != J_NUM || id->num < 0 || id->num >= vocab_size || id->num != (double)(int)id->num) {
            attn_fail(err, ATTN_E_ARG, "vocab.json: the id of token %.60s is not one of 0 to %d", root.keys[i],
                      vocab_size - 1);
            ok = 0;
        } else if (table_put(&b->vocab, root.keys[i], strlen(root.keys[i]), (int)id->num) != 0) {
            attn_fail(err, ATTN_E_NOMEM, "out of memory");
            ok = 0;
        }
    }
    json_free(&root);
    /* merges.txt: one "a b" a line, rank by line */
    size_t at = 0;
    int line = 0, rank = 0;
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
        size_t na = (size_t)(sp - s), nb = n - na - 1;
        char joined[512];
        if (na + nb >= sizeof joined || table_get(&b->vocab, s, na) < 0 || table_get(&b->vocab, sp + 1, nb) < 0) {
            attn_fail(err, ATTN_E_ARG, "merges.txt line %d: \"%.*s\" names a token the vocabulary lacks", line,
                      (int)(n < 80 ? n : 80), s);
            ok = 0;
            break;
        }
        memcpy(joined, s, na);
        memcpy(joined + na, sp + 1, nb);
        if (table_get(&b->vocab, joined, na + nb) < 0) {
            attn_fail(err, ATTN_E_ARG, "merges.txt line %d: \"%.*s\" makes a token the vocabulary lacks", line,
                      (int)(n < 80 ? n : 80), s);
            ok = 0;
        } else if (table_put(&b->ranks, s, n, rank++) != 0) {
            attn_fail(err, ATTN_E_NOMEM, "out of memory");
            ok = 0;
        }
    }
    if (ok) {
        int code;
        PCRE2_SIZE off;
        b->re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF,
                              &code, &off, NULL);
        if (!b->re) {
            attn_fail(err, ATTN_E_ARG, "the pre-tokenizer's pattern does not compile (PCRE2 error %d)", code);
            ok = 0;
        }
    }
    if (!ok) {
        bpe_free(b);
        return NULL;
    }
    return b;
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

int bpe_encode(const Bpe *b, const char *text, size_t len, int *ids, int max, AttnError *err)
{
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(b->re, NULL);
    if (!md)
        return (attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1);
    int count = 0;
    size_t at = 0;
    while (at < len) {
        int r = pcre2_match(b->re, (PCRE2_SPTR)text, len, at, 0, md, NULL);
        size_t from = len, to = len;
        if (r > 0) {
            PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
            from = ov[0];
            to = ov[1] > ov[0] ? ov[1] : ov[0] + 1;
        }
        /* bytes no alternative takes (not UTF-8): a piece of their own */
        if (from > at && encode_piece(b, (const unsigned char *)text + at, from - at, ids, &count, max, err) != 0)
            break;
        if (to > from && from < len
            && encode_piece(b, (const unsigned char *)text + from, (to < len ? to : len) - from, ids, &count, max,
                            err) != 0)
            break;
        at = to;
    }
    pcre2_match_data_free(md);
    return at >= len ? count : -1;
}
