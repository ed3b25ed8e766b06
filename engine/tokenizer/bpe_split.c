/*
 * bpe_split.c - the pre-tokenizer's steps (bpe_internal.h's bpe_pre_step),
 * each turning every piece of a text into pieces as the Hugging Face
 * tokenizers do: a pattern's matches and the gaps between them found as
 * Oniguruma's find_iter finds them (an empty match right where the last
 * one ended is passed over by a character), then joined as the split's
 * behaviour says (Removed, Isolated, MergedWithPrevious, MergedWithNext,
 * Contiguous; the gaps instead when inverted); ByteLevel's space before a
 * piece and GPT-2's split, Metaspace's "▁" for each space and its split
 * before each.
 */
#include "bpe_internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistr.h>

#include "alloc.h"

int bpe_nomem(Work *w) { return attn_fail(w->err, ATTN_E_NOMEM, "out of memory"), -1; }

/* *p to room for at least `want` items of `size` bytes. 0, or -1. */
int bpe_room(void **p, size_t *room, size_t want, size_t size)
{
    if (want <= *room)
        return 0;
    size_t r = *room ? *room : 64;
    while (r < want)
        r *= 2;
    void *more = attn_realloc(*p, r * size);
    if (!more)
        return -1;
    *p = more;
    *room = r;
    return 0;
}

/* ---- pieces ---- */

int bpe_piece_add(Work *w, Pieces *p, const char *s, size_t n, int first)
{
    if (bpe_room((void **)&p->text, &p->room, p->len + n + 1, 1) != 0
        || bpe_room((void **)&p->span, &p->n_room, p->n + 1, sizeof *p->span) != 0)
        return bpe_nomem(w);
    memcpy(p->text + p->len, s, n);
    p->span[p->n++] = (Span){ p->len, n, first };
    p->len += n;
    return 0;
}

void bpe_pieces_free(Pieces *p)
{
    free(p->text);
    free(p->span);
    memset(p, 0, sizeof *p);
}

/* The bytes of the UTF-8 character at s[0..n) (1 for a byte that begins none). */
size_t bpe_char_len(const char *s, size_t n)
{
    unsigned char c = (unsigned char)s[0];
    size_t len = c < 0xc0 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    return len > n ? n : len;
}

static int add_cut(Work *w, size_t from, size_t to, int hit)
{
    if (bpe_room((void **)&w->cut, &w->cut_room, w->n_cut + 1, sizeof *w->cut) != 0)
        return bpe_nomem(w);
    w->cut[w->n_cut++] = (Cut){ from, to, hit };
    return 0;
}

/* The matches of re in the valid UTF-8 s[a..b), each after the gap before
 * it (from *prev), as onig's find_iter finds them: an empty match right
 * where the last one ended is passed over by a character. */
static int matches_in(Work *w, const pcre2_code *re, const char *s, size_t a, size_t b, size_t *prev)
{
    size_t n = b - a, last_end = 0, last_match = (size_t)-1;
    while (last_end <= n) {
        int r = pcre2_match(re, (PCRE2_SPTR)s + a, n, last_end, PCRE2_NO_UTF_CHECK, w->md, NULL);
        if (r == PCRE2_ERROR_NOMATCH)
            break;
        if (r < 0) {
            PCRE2_UCHAR msg[120];
            uint32_t limit = 0;
            pcre2_get_error_message(r, msg, sizeof msg);
            pcre2_config(PCRE2_CONFIG_MATCHLIMIT, &limit);
            return attn_fail(w->err, ATTN_E_ARG, "the pre-tokenizer's pattern gave up on the text %zu bytes into a "
                             "piece of %zu (PCRE2: %s; its match limit is %u steps): the text is refused rather "
                             "than cut", a + last_end, b, (const char *)msg, limit), -1;
        }
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(w->md);
        size_t from = ov[0], to = ov[1] > ov[0] ? ov[1] : ov[0];
        if (to == from && last_match == to) {
            last_end += last_end < n ? bpe_char_len(s + a + last_end, n - last_end) : 1;
            continue;
        }
        last_end = last_match = to;
        if (*prev != a + from && add_cut(w, *prev, a + from, 0) != 0)
            return -1;
        if (add_cut(w, a + from, a + to, 1) != 0)
            return -1;
        *prev = a + to;
    }
    return 0;
}

/* Every match of re in s[0..n) and every gap between, as the Rust
 * tokenizers' find_matches has them. A text that is not UTF-8 (which a
 * byte-level tokenizer takes) is matched in its valid stretches, each as a
 * subject of its own, the bytes between them in the gaps: what PCRE2's
 * MATCH_INVALID_UTF does, without its scan of the rest of the subject at
 * every match, which made encoding quadratic. 0, or -1 with err. */
static int find_cuts(Work *w, const pcre2_code *re, const char *s, size_t n)
{
    w->n_cut = 0;
    if (n == 0)
        return add_cut(w, 0, 0, 0);
    size_t prev = 0;
    for (size_t a = 0; a < n;) {
        const uint8_t *bad = w->checked ? NULL : u8_check((const uint8_t *)s + a, n - a);
        size_t b = bad ? (size_t)((const char *)bad - s) : n;
        if (b > a && matches_in(w, re, s, a, b, &prev) != 0)
            return -1;
        a = b + (b < n);    /* past a byte that begins no character */
    }
    return prev != n ? add_cut(w, prev, n, 0) : 0;
}

/* The cuts as the behaviour joins them (the tokenizers' split): in place,
 * each then kept (hit 0) or removed (hit 1). */
static void join_cuts(Work *w, SplitHow how, int invert)
{
    Cut *c = w->cut;
    size_t n = w->n_cut, k = 0;
    for (size_t i = 0; i < n; i++)
        c[i].hit ^= invert;
    if (how == SPLIT_REMOVED)
        return;
    if (how == SPLIT_ISOLATED) {
        for (size_t i = 0; i < n; i++)
            c[i].hit = 0;
        return;
    }
    if (how == SPLIT_MERGED_NEXT) {
        /* from the end: a match joins the piece after it */
        int before = 0;
        size_t top = n;     /* the joined cuts grow down from the end */
        for (size_t i = n; i-- > 0;) {
            Cut x = c[i];
            if (x.hit && !before && top < n)
                c[top].from = x.from;
            else
                c[--top] = (Cut){ x.from, x.to, 0 };
            before = x.hit;
        }
        memmove(c, c + top, (n - top) * sizeof *c);
        w->n_cut = n - top;
        return;
    }
    int before = 0;
    for (size_t i = 0; i < n; i++) {
        Cut x = c[i];
        int join = how == SPLIT_CONTIGUOUS ? x.hit == before : x.hit && !before;
        if (join && k > 0)
            c[k - 1].to = x.to;
        else
            c[k++] = (Cut){ x.from, x.to, 0 };
        before = x.hit;
    }
    w->n_cut = k;
}

/* Each piece of in cut by re as how says, onto out. */
static int split_pieces(Work *w, const Pieces *in, Pieces *out, const pcre2_code *re, SplitHow how, int invert)
{
    for (size_t i = 0; i < in->n; i++) {
        const Span *sp = &in->span[i];
        const char *s = in->text + sp->at;
        if (find_cuts(w, re, s, sp->len) != 0)
            return -1;
        join_cuts(w, how, invert);
        for (size_t k = 0; k < w->n_cut; k++)
            if (!w->cut[k].hit && w->cut[k].to > w->cut[k].from
                && bpe_piece_add(w, out, s + w->cut[k].from, w->cut[k].to - w->cut[k].from,
                             sp->first && w->cut[k].from == 0) != 0)
                return -1;
    }
    return 0;
}

/* One pre-tokenizer step: in's pieces into out's. */
int bpe_pre_step(Work *w, const Step *st, const Pieces *in, Pieces *out)
{
    if (st->kind == STEP_SPLIT)
        return split_pieces(w, in, out, st->re, st->how, st->invert);
    /* ByteLevel and Metaspace first rewrite each piece, then split it */
    Pieces mid = { 0 };
    int rc = 0;
    size_t tl = st->to ? strlen(st->to) : 0;
    for (size_t i = 0; rc == 0 && i < in->n; i++) {
        const Span *sp = &in->span[i];
        const char *s = in->text + sp->at;
        size_t start = mid.len;
        if (bpe_room((void **)&mid.text, &mid.room, mid.len + tl + 1 + sp->len * (tl > 1 ? tl : 1), 1) != 0
            || bpe_room((void **)&mid.span, &mid.n_room, mid.n + 1, sizeof *mid.span) != 0) {
            rc = bpe_nomem(w);
            break;
        }
        char *o = mid.text + mid.len;
        size_t k = 0;
        if (st->kind == STEP_BYTE_LEVEL) {
            if (st->prefix && (sp->len == 0 || s[0] != ' '))
                o[k++] = ' ';
            memcpy(o + k, s, sp->len);
            k += sp->len;
        } else {
            int starts = sp->len > 0 && (s[0] == ' ' || (sp->len >= tl && memcmp(s, st->to, tl) == 0));
            if (!starts && (st->prefix == BPE_PREPEND_ALWAYS || (st->prefix == BPE_PREPEND_FIRST && sp->first)))
                memcpy(o, st->to, tl), k = tl;
            for (size_t j = 0; j < sp->len; j++)
                if (s[j] == ' ')
                    memcpy(o + k, st->to, tl), k += tl;
                else
                    o[k++] = s[j];
        }
        mid.span[mid.n++] = (Span){ start, k, sp->first };
        mid.len += k;
    }
    if (rc == 0)
        rc = st->split ? split_pieces(w, &mid, out, st->re, st->kind == STEP_BYTE_LEVEL ? SPLIT_ISOLATED
                                                                                        : SPLIT_MERGED_NEXT, 0)
                       : (out->len = 0, out->n = 0, 0);
    if (rc == 0 && !st->split) {
        Pieces t = *out;
        *out = mid;
        mid = t;
    }
    bpe_pieces_free(&mid);
    return rc;
}
