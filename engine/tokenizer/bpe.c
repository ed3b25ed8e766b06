/*
 * bpe.c - a BPE tokenizer put together (bpe.h, bpe_internal.h): the
 * vocabulary and the merges in the tables of bpe_table.c (a merge is a
 * pair of ids, its rank and the id it makes, as the tokenizers library
 * keeps it), the normalizer's and pre-tokenizer's steps, the added tokens
 * sorted for the encoder's one pass, each id's text in one block; and
 * GPT-2's vocab.json with merges.txt read into it. Encoding is
 * bpe_encode.c's.
 */
#include "bpe_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "json_read.h"

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

static void step_free(Step *s)
{
    pcre2_code_free(s->re);
    free(s->from);
    free(s->to);
}

static void added_free(Added *a, int n)
{
    for (int i = 0; i < n; i++)
        free(a[i].text);
    free(a);
}

void bpe_free(Bpe *b)
{
    if (!b)
        return;
    bpe_table_free(&b->vocab);
    bpe_pair_free(&b->merges);
    for (int i = 0; i < b->n_norm; i++)
        step_free(&b->norm[i]);
    for (int i = 0; i < b->n_pre; i++)
        step_free(&b->pre[i]);
    added_free(b->raw, b->n_raw);
    added_free(b->normed, b->n_normed);
    free(b->text_at);
    free(b->text_len);
    free(b->texts);
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
        b->fallback_id[c] = -1;
    }
    return b;
}

/* Room for n more bytes of text and for id: 0, or -1. */
static int text_room(Bpe *b, int id, size_t n)
{
    if (id >= b->n_text) {
        int want = id + 1 > 2 * b->n_text ? id + 1 : 2 * b->n_text;
        uint32_t *at = attn_realloc(b->text_at, (size_t)want * sizeof *at);
        if (at)
            b->text_at = at;
        uint32_t *len = at ? attn_realloc(b->text_len, (size_t)want * sizeof *len) : NULL;
        if (!len)
            return -1;
        b->text_len = len;
        for (int i = b->n_text; i < want; i++)
            at[i] = UINT32_MAX, len[i] = 0;
        b->n_text = want;
    }
    if (b->texts_used + n + 1 > b->texts_room) {
        size_t room = b->texts_room ? b->texts_room : 1 << 16;
        while (b->texts_used + n + 1 > room)
            room *= 2;
        char *texts = room <= UINT32_MAX ? attn_realloc(b->texts, room) : NULL;
        if (!texts)
            return -1;
        b->texts = texts;
        b->texts_room = room;
    }
    return 0;
}

/* id's text from s[0..n): the bytes it stands for, as shown (the byte
 * alphabet undone, or "▁" a space and <0xNN> its byte) when `shown`, else
 * as written (an added token). 0, or -1 on no memory. */
static int set_text(Bpe *b, const char *s, size_t n, int id, int shown)
{
    if (text_room(b, id, n) != 0)
        return -1;
    char *out = b->texts + b->texts_used;
    size_t k = 0;
    unsigned byte_token;
    char tail;
    if (shown && b->shows_metaspace && n == 6 && sscanf(s, "<0x%2X>%c", &byte_token, &tail) == 1) {
        out[k++] = (char)byte_token;    /* byte fallback's token: the byte it stands for */
        n = 0;
    }
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
        unsigned cp = len == 1 ? c : c & (0x7fu >> len);
        for (size_t j = 1; j < len && i + j < n; j++)
            cp = cp << 6 | ((unsigned char)s[i + j] & 0x3f);
        int byte = shown && b->shows_bytes && cp < 512 ? b->byte_of[cp] - 1 : -1;
        if (shown && b->shows_metaspace && cp == 0x2581)
            out[k++] = ' ';
        else if (byte >= 0)
            out[k++] = (char)byte;
        else
            for (size_t j = 0; j < len && i + j < n; j++)
                out[k++] = s[i + j];
        i += len;
    }
    out[k] = '\0';
    b->text_at[id] = (uint32_t)b->texts_used;
    b->text_len[id] = (uint32_t)k;
    b->texts_used += k + 1;
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
    return b && id >= 0 && id < b->n_text && b->text_at[id] != UINT32_MAX ? b->texts + b->text_at[id] : NULL;
}

size_t bpe_token_size(const Bpe *b, int id)
{
    return bpe_token_text(b, id) ? b->text_len[id] : 0;
}

int bpe_add_merge(Bpe *b, const char *a, size_t na, const char *c, size_t nc, const char *where, int at,
                  AttnError *err)
{
    int ia = bpe_table_get(&b->vocab, a, na), ic = bpe_table_get(&b->vocab, c, nc);
    if (ia < 0 || ic < 0)
        return attn_fail(err, ATTN_E_ARG, "%s %d: \"%.*s %.*s\" names a token the vocabulary lacks", where, at,
                         (int)(na < 40 ? na : 40), a, (int)(nc < 40 ? nc : 40), c), -1;
    char small[512], *joined = na + nc <= sizeof small ? small : attn_malloc(na + nc);
    if (!joined)
        return attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1;
    memcpy(joined, a, na);
    memcpy(joined + na, c, nc);
    int made = bpe_table_get(&b->vocab, joined, na + nc);
    if (joined != small)
        free(joined);
    if (made < 0)
        return attn_fail(err, ATTN_E_ARG, "%s %d: \"%.*s %.*s\" makes a token the vocabulary lacks", where, at,
                         (int)(na < 40 ? na : 40), a, (int)(nc < 40 ? nc : 40), c), -1;
    if (bpe_pair_put(&b->merges, ia, ic, b->n_merges++, made) != 0)
        return attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1;
    return 0;
}

int bpe_add_step(Bpe *b, Step step, const char *pattern, AttnError *err)
{
    int norm = step.kind <= STEP_REPLACE;
    if ((norm ? b->n_norm : b->n_pre) == BPE_MAX_STEPS)
        return attn_fail(err, ATTN_E_ARG, "more than %d %s", BPE_MAX_STEPS, norm ? "normalizers" : "pre-tokenizers"),
               -1;
    Step s = step;
    s.from = step.from ? strdup(step.from) : NULL;
    s.to = step.to ? strdup(step.to) : NULL;
    s.re = NULL;
    if ((step.from && !s.from) || (step.to && !s.to)) {
        step_free(&s);
        return attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1;
    }
    if (pattern && !(s.re = bpe_regex_compile(pattern, err))) {
        step_free(&s);
        return -1;
    }
    if (norm)
        b->norm[b->n_norm++] = s;
    else
        b->pre[b->n_pre++] = s;
    if (s.kind == STEP_BYTE_LEVEL)
        b->byte_level = b->shows_bytes = 1;
    if (s.kind == STEP_METASPACE || (s.kind == STEP_REPLACE && strcmp(s.to, "\xe2\x96\x81") == 0))
        b->shows_metaspace = 1;
    if ((s.kind == STEP_METASPACE || (s.kind == STEP_REPLACE && strcmp(s.from, " ") == 0))
        && strlen(s.to) < sizeof b->space)
        snprintf(b->space, sizeof b->space, "%s", s.to);
    return 0;
}

int bpe_add_special(Bpe *b, const char *s, size_t n, int id, int flags, AttnError *err)
{
    if (n == 0)
        return 0;
    Added **list = flags & ADDED_NORMALIZED ? &b->normed : &b->raw;
    int *count = flags & ADDED_NORMALIZED ? &b->n_normed : &b->n_raw;
    Added *more = attn_realloc(*list, (size_t)(*count + 1) * sizeof *more);
    char *copy = more ? attn_malloc(n + 1) : NULL;
    if (more)
        *list = more;
    if (!copy)
        return attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1;
    memcpy(copy, s, n);
    copy[n] = '\0';
    more[(*count)++] = (Added){ copy, n, id, !!(flags & ADDED_LSTRIP), !!(flags & ADDED_RSTRIP),
                                !!(flags & ADDED_SINGLE_WORD) };
    if (set_text(b, s, n, id, 0) != 0)
        return attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1;
    return 0;
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

/* Added tokens by their bytes; a prefix before what it begins. */
static int by_bytes(const void *x, const void *y)
{
    const Added *a = x, *c = y;
    int d = memcmp(a->text, c->text, a->len < c->len ? a->len : c->len);
    return d ? d : (a->len > c->len) - (a->len < c->len);
}

int bpe_finish(Bpe *b, AttnError *err)
{
    (void)err;
    for (int c = 0; c < 256; c++) {
        char hex[8];
        snprintf(hex, sizeof hex, "<0x%02X>", c);
        b->fallback_id[c] = bpe_table_get(&b->vocab, hex, 6);
    }
    /* may a piece be cut before each space that follows another character?
     * Only where no token holds one there: then no merge joins across */
    size_t sl = strlen(b->space);
    b->cut_at_space = sl > 0 && !b->byte_level && bpe_table_get(&b->vocab, b->space, sl) >= 0;
    for (size_t i = 0; b->cut_at_space && i < b->vocab.cap; i++) {
        const struct StrSlot *k = &b->vocab.slot[i];
        const char *t = b->vocab.bytes + k->off;
        for (size_t at = 1; k->val >= 0 && at + sl <= k->len && b->cut_at_space; at++)
            if (memcmp(t + at, b->space, sl) == 0 && (at < sl || memcmp(t + at - sl, b->space, sl) != 0))
                b->cut_at_space = 0;
    }
    if (b->n_raw > 0)
        qsort(b->raw, (size_t)b->n_raw, sizeof *b->raw, by_bytes);
    if (b->n_normed > 0)
        qsort(b->normed, (size_t)b->n_normed, sizeof *b->normed, by_bytes);
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
    int ok = bpe_add_step(b, (Step){ .kind = STEP_BYTE_LEVEL, .split = 1 }, bpe_gpt2_pattern, err) == 0;
    ok = ok && bpe_vocab_of(b, &root, "vocab.json", vocab_size, err) == 0;
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
        ok = bpe_add_merge(b, s, (size_t)(sp - s), sp + 1, n - (size_t)(sp - s) - 1, "merges.txt line", line, err) == 0;
    }
    /* GPT-2's one special token, an added token as its tokenizer.json has it */
    int eot = bpe_token_id(b, "<|endoftext|>");
    ok = ok && (eot < 0 || bpe_add_special(b, "<|endoftext|>", 13, eot, 0, err) == 0);
    ok = ok && bpe_finish(b, err) == 0;
    if (!ok) {
        bpe_free(b);
        return NULL;
    }
    return b;
}

int bpe_vocab_of(Bpe *b, const JVal *v, const char *what, int vocab_size, AttnError *err)
{
    if (!v || v->type != J_OBJ)
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
