/*
 * bpe_encode.c - a text into token ids (bpe.h's bpe_encode), the way the
 * Hugging Face tokenizers library does it, step for step:
 *
 *   1. the added tokens cut out of the text as written (leftmost, then
 *      longest), each stretch between them on its own;
 *   2. each stretch normalized (NFC and the others, Prepend, Replace), and
 *      the normalized added tokens cut out of it;
 *   3. the pre-tokenizer's steps, each turning every piece into pieces: a
 *      Split (every match and every gap between matches; the match
 *      Removed, Isolated, MergedWithPrevious, MergedWithNext or
 *      Contiguous, or the gaps instead when inverted), ByteLevel (a space
 *      before each piece, GPT-2's split), Metaspace ("▁" for each space);
 *   4. each piece to the model: whole when the vocabulary holds it and
 *      merges are ignored (Llama 3), else its characters (bytes in GPT-2's
 *      alphabet), the unknown and byte fallback's <0xNN>, merged pair by
 *      pair from a priority queue of pairs, the lowest rank first and the
 *      leftmost of a rank, each merge queueing the two pairs it makes;
 *   5. the post-processor's template around the ids.
 *
 * Linear in the text: its UTF-8 checked once, each pattern then matched
 * with PCRE2_NO_UTF_CHECK, each piece merged in n log n.
 * A pattern PCRE2 gives up on (its match limit) refuses the text, naming
 * the limit, rather than cutting it.
 */
#include "bpe_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unictype.h>
#include <uninorm.h>
#include <unistr.h>

#include "alloc.h"

static int put_id(Work *w, int id)
{
    if (w->n_ids >= w->max)
        return attn_fail(w->err, ATTN_E_TOO_BIG, "the text makes more than %zu tokens", w->max), -1;
    if (bpe_room((void **)&w->ids, &w->ids_room, w->n_ids + 1, sizeof *w->ids) != 0)
        return bpe_nomem(w);
    w->ids[w->n_ids++] = id;
    return 0;
}

/* ---- the model ---- */

/* The queue: a 4-ary min-heap of pairs, each its rank and its left
 * symbol's place in one number (rank << 32 | pos), so the lowest rank
 * comes first and the leftmost of a rank; eight bytes an entry and half
 * the depth of a binary heap, for a piece of 400 KB (Llama 2's whole text)
 * whose queue outgrows the caches. */
static void sift_down(uint64_t *h, size_t n, size_t i)
{
    uint64_t x = h[i];
    for (;;) {
        size_t c = 4 * i + 1, best = c;
        if (c >= n)
            break;
        for (size_t k = c + 1; k < c + 4 && k < n; k++)
            if (h[k] < h[best])
                best = k;
        if (h[best] >= x)
            break;
        h[i] = h[best];
        i = best;
    }
    h[i] = x;
}

static int heap_push(Work *w, uint64_t key)
{
    if (bpe_room((void **)&w->heap, &w->heap_room, w->n_heap + 1, sizeof *w->heap) != 0)
        return bpe_nomem(w);
    size_t i = w->n_heap++;
    while (i > 0 && key < w->heap[(i - 1) / 4]) {
        w->heap[i] = w->heap[(i - 1) / 4];
        i = (i - 1) / 4;
    }
    w->heap[i] = key;
    return 0;
}

static uint64_t heap_pop(Work *w)
{
    uint64_t top = w->heap[0];
    w->heap[0] = w->heap[--w->n_heap];
    if (w->n_heap > 0)
        sift_down(w->heap, w->n_heap, 0);
    return top;
}

/* The merge of the pair at pos and the symbol after it: its rank, or -1. */
static int rank_at(const Work *w, int pos, int *id)
{
    int rank, nx = pos >= 0 ? w->next[pos] : -1;
    if (nx < 0 || !bpe_pair_get(&w->b->merges, w->sym[pos], w->sym[nx], &rank, id))
        return -1;
    return rank;
}

/* That pair into the queue, if it merges. */
static int queue_pair(Work *w, int pos)
{
    int id, rank = rank_at(w, pos, &id);
    return rank < 0 ? 0 : heap_push(w, (uint64_t)rank << 32 | (uint32_t)pos);
}

static int add_sym(Work *w, size_t *m, int id)
{
    if (bpe_room((void **)&w->sym, &w->sym_room, *m + 1, sizeof *w->sym) != 0)
        return bpe_nomem(w);
    w->sym[(*m)++] = id;
    return 0;
}

/* The symbols of s[0..n) (the model's own writing): each character's
 * token, or its bytes' <0xNN> (byte fallback), or the unknown (runs of it
 * one when fused), as the tokenizers' merge_word. 0, or -1 with err. */
static int symbols(Work *w, const char *s, size_t n, size_t *m)
{
    const Bpe *b = w->b;
    int unk_pending = 0;
    *m = 0;
    for (size_t i = 0; i < n;) {
        size_t len = bpe_char_len(s + i, n - i);
        int id = bpe_table_get(&b->vocab, s + i, len);
        if (id >= 0) {
            if (unk_pending && add_sym(w, m, b->unk) != 0)
                return -1;
            unk_pending = 0;
            if (add_sym(w, m, id) != 0)
                return -1;
        } else {
            int all = b->byte_fallback;
            for (size_t j = 0; all && j < len; j++)
                all = b->fallback_id[(unsigned char)s[i + j]] >= 0;
            for (size_t j = 0; all && j < len; j++)
                if (add_sym(w, m, b->fallback_id[(unsigned char)s[i + j]]) != 0)
                    return -1;
            if (!all && b->unk < 0) {
                return attn_fail(w->err, ATTN_E_ARG, "the vocabulary has no token %.*s", (int)len, s + i), -1;
            }
            if (!all) {
                if (unk_pending && !b->fuse_unk && add_sym(w, m, b->unk) != 0)
                    return -1;
                unk_pending = 1;
            }
        }
        i += len;
    }
    return unk_pending ? add_sym(w, m, b->unk) : 0;
}

/* A piece's symbols merged, pair by pair, from the queue. */
static int merge_piece(Work *w, const char *s, size_t n)
{
    size_t m;
    if (symbols(w, s, n, &m) != 0)
        return -1;
    if (bpe_room((void **)&w->prev, &w->prev_room, m, sizeof *w->prev) != 0
        || bpe_room((void **)&w->next, &w->next_room, m, sizeof *w->next) != 0)
        return bpe_nomem(w);
    for (size_t i = 0; i < m; i++) {
        w->prev[i] = (int)i - 1;
        w->next[i] = i + 1 < m ? (int)i + 1 : -1;
    }
    /* every pair that merges, then the queue made a heap at once */
    if (bpe_room((void **)&w->heap, &w->heap_room, m, sizeof *w->heap) != 0)
        return bpe_nomem(w);
    w->n_heap = 0;
    for (size_t i = 0; i + 1 < m; i++) {
        int id, rank = rank_at(w, (int)i, &id);
        if (rank >= 0)
            w->heap[w->n_heap++] = (uint64_t)rank << 32 | (uint32_t)i;
    }
    for (size_t i = w->n_heap / 4 + 1; i-- > 0;)
        if (i < w->n_heap)
            sift_down(w->heap, w->n_heap, i);
    while (w->n_heap > 0) {
        uint64_t top = heap_pop(w);
        int pos = (int)(uint32_t)top, id;
        if (w->sym[pos] < 0 || rank_at(w, pos, &id) != (int)(top >> 32))
            continue;   /* a pair merged away since it was queued (the tokenizers compare the id it makes) */
        int nx = w->next[pos];
        w->sym[pos] = id;
        w->sym[nx] = -1;
        w->next[pos] = w->next[nx];
        if (w->next[nx] >= 0)
            w->prev[w->next[nx]] = pos;
        if (queue_pair(w, w->prev[pos]) != 0 || queue_pair(w, pos) != 0)
            return -1;
    }
    for (int i = m ? 0 : -1; i >= 0; i = w->next[i])
        if (put_id(w, w->sym[i]) != 0)
            return -1;
    return 0;
}

/* One piece (in the model's writing) to ids: whole under ignore_merges,
 * else merged; cut first before each space mark that follows another
 * character where no token of the vocabulary holds one there (Llama 2's:
 * no merge can cross such a place, so the parts merge as the whole would,
 * and a whole text of 400 KB is not one queue). */
static int model_piece(Work *w, const char *s, size_t n)
{
    const Bpe *b = w->b;
    int whole = b->ignore_merges ? bpe_table_get(&b->vocab, s, n) : -1;
    if (whole >= 0)
        return put_id(w, whole);
    size_t sl = strlen(b->space), from = 0;
    int after_space = 1;
    for (size_t i = 0; b->cut_at_space && i < n;) {
        int space = i + sl <= n && memcmp(s + i, b->space, sl) == 0;
        if (space && !after_space) {
            if (merge_piece(w, s + from, i - from) != 0)
                return -1;
            from = i;
        }
        after_space = space;
        i += space ? sl : bpe_char_len(s + i, n - i);
    }
    return merge_piece(w, s + from, n - from);
}

/* A piece to the model: its bytes in GPT-2's alphabet first, for a
 * byte-level tokenizer. */
static int encode_piece(Work *w, const char *s, size_t n)
{
    if (!w->b->byte_level)
        return model_piece(w, s, n);
    if (bpe_room((void **)&w->scratch, &w->scratch_room, 2 * n + 1, 1) != 0)
        return bpe_nomem(w);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (const char *c = w->b->alphabet[(unsigned char)s[i]]; *c; c++)
            w->scratch[k++] = *c;
    return model_piece(w, w->scratch, k);
}

/* ---- the pipeline ---- */

/* The first added token of list (sorted by bytes) in s[0..n): leftmost,
 * then longest. Its index, and where in *at; -1 for none. Each place is
 * looked up by narrowing the sorted list byte by byte. */
static int next_added(const Added *list, int count, const char *s, size_t n, size_t *at)
{
    for (size_t i = 0; count > 0 && i < n; i++) {
        int lo = 0, hi = count, best = -1;
        for (size_t d = 0; lo < hi && i + d <= n; d++) {
            if (list[lo].len == d)
                best = lo++;        /* a token that ends here: the longest so far */
            if (i + d == n)
                break;
            unsigned char c = (unsigned char)s[i + d];
            int a = lo, z = hi;
            while (a < z) {         /* the first with byte d >= c */
                int mid = (a + z) / 2;
                if ((unsigned char)list[mid].text[d] < c)
                    a = mid + 1;
                else
                    z = mid;
            }
            lo = a;
            z = hi;
            while (a < z) {         /* and past the last with byte d == c */
                int mid = (a + z) / 2;
                if ((unsigned char)list[mid].text[d] <= c)
                    a = mid + 1;
                else
                    z = mid;
            }
            hi = a;
        }
        if (best >= 0) {
            *at = i;
            return best;
        }
    }
    return -1;
}

/* The code point of the UTF-8 character at s[0..n), its length in *len. */
static unsigned code_at(const char *s, size_t n, size_t *len)
{
    const uint8_t *u = (const uint8_t *)s;
    ucs4_t c = 0xfffd;
    int k = u8_mbtoucr(&c, u, n);
    *len = k > 0 ? (size_t)k : 1;
    return c;
}

/* Where the character that ends at s[at] begins (at > 0), its code point
 * in *c (U+FFFD for bytes that are not one). */
static size_t char_before(const char *s, size_t at, unsigned *c)
{
    size_t from = at - 1, len;
    while (from > 0 && at - from < 4 && ((unsigned char)s[from] & 0xc0) == 0x80)
        from--;
    *c = code_at(s + from, at - from, &len);
    if (from + len != at) {
        *c = 0xfffd;
        return at - 1;
    }
    return from;
}

/* Rust's char::is_whitespace (Unicode's White_Space) and
 * char::is_alphanumeric (alphabetic or numeric), as the tokenizers' added
 * tokens strip and stand alone by them. */
static int white(unsigned c)
{
    return (c >= 0x9 && c <= 0xd) || c == 0x20 || c == 0x85 || c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a)
           || c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}

static int word(unsigned c) { return uc_is_property_alphabetic(c) || uc_is_general_category(c, UC_CATEGORY_N); }

/* The next added token of list in s[from..n) that stands as its flags say
 * (single_word: no word character beside it), and where it lies once it
 * takes the white space before it (lstrip, not before `from`) and after
 * it (rstrip): its index, or -1. As the tokenizers' find_matches: a match
 * that does not stand is passed over, the search going on after it. */
static int find_added(const Added *list, int count, const char *s, size_t n, size_t from, size_t *start, size_t *stop)
{
    for (size_t at = from; at < n;) {
        size_t where = 0, len;
        int k = next_added(list, count, s + at, n - at, &where);
        if (k < 0)
            return -1;
        size_t st = at + where, en = st + list[k].len, back;
        unsigned c = 0;
        if (list[k].single_word && ((st > 0 && (char_before(s, st, &c), word(c)))
                                    || (en < n && word(code_at(s + en, n - en, &len))))) {
            at = en;
            continue;
        }
        while (list[k].lstrip && st > from && (back = char_before(s, st, &c)) >= from && white(c))
            st = back;
        while (list[k].rstrip && en < n && white(code_at(s + en, n - en, &len)))
            en += len;
        *start = st;
        *stop = en;
        return k;
    }
    return -1;
}

/* s[0..n) cut at the added tokens of list: each stretch between them to
 * plain (first: it begins the text encoded), each token its id. */
static int cut_added(Work *w, const Added *list, int count, const char *s, size_t n, int first,
                     int (*plain)(Work *, const char *, size_t, int))
{
    int rc = 0;
    for (size_t at = 0; rc == 0 && at < n;) {
        size_t start = n, stop = n;
        int k = find_added(list, count, s, n, at, &start, &stop);
        if (start > at)
            rc = plain(w, s + at, start - at, first && at == 0);
        if (rc == 0 && k >= 0)
            rc = put_id(w, list[k].id);
        at = stop;
    }
    return rc;
}

/* One normalizer step on s[0..n): the result, the caller's (NULL with err). */
static char *normalize(Work *w, const Step *st, const char *s, size_t n, size_t *out_n)
{
    if (st->kind <= STEP_NFKD) {
        uninorm_t form = st->kind == STEP_NFC ? UNINORM_NFC : st->kind == STEP_NFD ? UNINORM_NFD
                       : st->kind == STEP_NFKC ? UNINORM_NFKC : UNINORM_NFKD;
        uint8_t *r = u8_normalize(form, (const uint8_t *)s, n, NULL, out_n);
        if (!r)
            attn_fail(w->err, errno == ENOMEM ? ATTN_E_NOMEM : ATTN_E_ARG, "%s",
                      errno == ENOMEM ? "out of memory" : "the text is not UTF-8");
        return (char *)r;
    }
    size_t tl = strlen(st->to), fl = st->from ? strlen(st->from) : 0, count = 0;
    for (size_t i = 0; fl && i + fl <= n; i++)
        if (memcmp(s + i, st->from, fl) == 0)
            count++, i += fl - 1;
    char *r = attn_malloc(n + tl + count * tl + 1);
    if (!r)
        return bpe_nomem(w), NULL;
    size_t k = 0;
    if (st->kind == STEP_PREPEND && n > 0)
        memcpy(r, st->to, tl), k = tl;
    for (size_t i = 0; i < n;) {
        if (st->kind == STEP_REPLACE && fl && i + fl <= n && memcmp(s + i, st->from, fl) == 0) {
            memcpy(r + k, st->to, tl);
            k += tl;
            i += fl;
        } else {
            r[k++] = s[i++];
        }
    }
    r[k] = '\0';
    *out_n = k;
    return r;
}

/* A normalized stretch (no added token of its own) through the
 * pre-tokenizer and the model. */
static int pre_and_model(Work *w, const char *s, size_t n, int first)
{
    Pieces a = { 0 }, z = { 0 };
    int rc = bpe_piece_add(w, &a, s, n, first);
    for (int i = 0; rc == 0 && i < w->b->n_pre; i++) {
        z.len = z.n = 0;
        rc = bpe_pre_step(w, &w->b->pre[i], &a, &z);
        Pieces t = a;
        a = z;
        z = t;
    }
    for (size_t i = 0; rc == 0 && i < a.n; i++)
        rc = encode_piece(w, a.text + a.span[i].at, a.span[i].len);
    bpe_pieces_free(&a);
    bpe_pieces_free(&z);
    return rc;
}

/* A stretch of the text between added tokens: normalized, the normalized
 * added tokens cut out, the rest pre-tokenized and merged. */
static int stretch(Work *w, const char *s, size_t n, int first)
{
    const Bpe *b = w->b;
    char *owned = NULL;
    int rc = 0;
    for (int i = 0; rc == 0 && i < b->n_norm; i++) {
        size_t m;
        char *next = normalize(w, &b->norm[i], s, n, &m);
        if (!next)
            rc = -1;
        else {
            free(owned);
            owned = next, s = next, n = m;
        }
    }
    if (rc == 0)
        rc = cut_added(w, b->normed, b->n_normed, s, n, first, pre_and_model);
    free(owned);
    return rc;
}

static int encode(const Bpe *b, const char *text, size_t len, size_t max, Work *w)
{
    w->b = b;
    w->max = max;
    const uint8_t *bad = u8_check((const uint8_t *)text, len);
    w->checked = bad == NULL;
    for (int i = 0; bad && i < b->n_norm; i++)
        if (b->norm[i].kind <= STEP_NFKD)
            return attn_fail(w->err, ATTN_E_ARG, "the text is not UTF-8 at byte %zu",
                             (size_t)(bad - (const uint8_t *)text) + 1), -1;
    if (!(w->md = pcre2_match_data_create(1, NULL)))
        return bpe_nomem(w);
    int rc = 0;
    for (int i = 0; rc == 0 && i < b->n_before; i++)
        rc = put_id(w, b->before[i]);
    if (rc == 0)
        rc = cut_added(w, b->raw, b->n_raw, text, len, 1, stretch);
    for (int i = 0; rc == 0 && i < b->n_after; i++)
        rc = put_id(w, b->after[i]);
    return rc;
}

static void work_free(Work *w)
{
    pcre2_match_data_free(w->md);
    free(w->cut);
    free(w->sym);
    free(w->prev);
    free(w->next);
    free(w->heap);
    free(w->scratch);
    free(w->ids);
}

int bpe_encode(const Bpe *b, const char *text, size_t len, int *ids, int max, AttnError *err)
{
    Work w = { .err = err };
    int rc = encode(b, text, len, max > 0 ? (size_t)max : 0, &w);
    if (rc == 0 && w.n_ids > 0)
        memcpy(ids, w.ids, w.n_ids * sizeof *ids);
    work_free(&w);
    return rc == 0 ? (int)w.n_ids : -1;
}

long bpe_encode_all(const Bpe *b, const char *text, size_t len, int **ids, AttnError *err)
{
    Work w = { .err = err };
    int rc = encode(b, text, len, (size_t)BPE_MAX_TOKENS, &w);
    *ids = NULL;
    if (rc == 0 && !(*ids = w.n_ids ? w.ids : attn_malloc(sizeof **ids)))
        rc = bpe_nomem(&w);
    if (rc == 0 && w.n_ids)
        w.ids = NULL;       /* now the caller's */
    work_free(&w);
    return rc == 0 ? (long)w.n_ids : -1;
}
