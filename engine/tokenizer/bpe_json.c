/*
 * bpe_json.c - a BPE from Hugging Face's tokenizer.json (bpe.h's
 * bpe_open_json): "model" (type BPE: its vocab and its merges, written
 * "a b" or ["a", "b"], byte_fallback, unk_token, fuse_unk),
 * "added_tokens", "normalizer" (none, NFC, SentencePiece's Prepend and
 * Replace of "▁", a Sequence of these), "pre_tokenizer" (ByteLevel: GPT-2's
 * pattern when use_regex, a space before the text when add_prefix_space;
 * Split by the file's own regex, behaviour Isolated; Digits; Metaspace;
 * a Sequence of these) and "post_processor" (ByteLevel, or
 * TemplateProcessing's special tokens around the text), read from the
 * file, not assumed. Anything else is refused by name.
 */
#include "bpe_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_type(const JVal *v, const char *type)
{
    const JVal *t = json_get(v, "type");
    return t && t->type == J_STR && strcmp(t->str, type) == 0;
}

static const char *type_of(const JVal *v)
{
    const JVal *t = json_get(v, "type");
    return t && t->type == J_STR ? t->str : "(no type)";
}

static int flag(const JVal *v, const char *key, int fallback)
{
    const JVal *f = json_get(v, key);
    return f && f->type == J_BOOL ? (int)f->num : fallback;
}

/* One pre-tokenizer (not a Sequence) onto b. 0, or -1 with err. */
static int pre_one(Bpe *b, const JVal *p, AttnError *err)
{
    if (is_type(p, "ByteLevel")) {
        bpe_set_prefix_space(b, flag(p, "add_prefix_space", 0));
        return flag(p, "use_regex", 1) ? bpe_split_gpt2(b, err) : 0;
    }
    if (is_type(p, "Metaspace")) {
        /* SentencePiece's spaces: "▁", one before the text as the scheme
         * says (older files: add_prefix_space), pieces split before each
         * "▁" when split */
        const JVal *rep = json_get(p, "replacement"), *scheme = json_get(p, "prepend_scheme");
        if (rep && (rep->type != J_STR || strcmp(rep->str, "\xe2\x96\x81") != 0))
            return attn_fail(err, ATTN_E_ARG, "tokenizer.json: a Metaspace replacing spaces with other than \"▁\" is "
                                              "not read yet"), -1;
        int prepend = flag(p, "add_prefix_space", 1) ? BPE_PREPEND_ALWAYS : BPE_PREPEND_NONE;
        if (scheme && scheme->type == J_STR)
            prepend = strcmp(scheme->str, "first") == 0    ? BPE_PREPEND_FIRST
                    : strcmp(scheme->str, "always") == 0   ? BPE_PREPEND_ALWAYS
                    : strcmp(scheme->str, "never") == 0    ? BPE_PREPEND_NONE
                                                           : -1;
        if (prepend < 0)
            return attn_fail(err, ATTN_E_ARG, "tokenizer.json: Metaspace's prepend_scheme %.20s is not first, always "
                                              "or never", scheme->str), -1;
        bpe_set_metaspace(b, prepend);
        return flag(p, "split", 1) ? bpe_add_split(b, "\xe2\x96\x81?[^\xe2\x96\x81]+|\xe2\x96\x81", err) : 0;
    }
    if (is_type(p, "Digits"))
        return bpe_add_split(b, flag(p, "individual_digits", 0) ? "\\p{N}" : "\\p{N}+", err);
    if (is_type(p, "Split")) {
        const JVal *pat = json_get(p, "pattern"), *re = json_get(pat, "Regex"), *str = json_get(pat, "String");
        const JVal *beh = json_get(p, "behavior");
        if (flag(p, "invert", 0) || !beh || beh->type != J_STR || strcmp(beh->str, "Isolated") != 0)
            return attn_fail(err, ATTN_E_ARG, "tokenizer.json: a Split that is not Isolated, or inverted, is not read "
                                              "yet"), -1;
        if (re && re->type == J_STR)
            return bpe_add_split(b, re->str, err);
        if (str && str->type == J_STR) {
            /* a literal: quoted for the pattern */
            char quoted[600];
            snprintf(quoted, sizeof quoted, "\\Q%.500s\\E", str->str);
            return bpe_add_split(b, quoted, err);
        }
        return attn_fail(err, ATTN_E_ARG, "tokenizer.json: a Split without its pattern"), -1;
    }
    return attn_fail(err, ATTN_E_ARG, "tokenizer.json: the pre-tokenizer %.40s is not one attn reads yet (it reads "
                                      "ByteLevel, Split, Digits, Metaspace and a Sequence of them)", type_of(p)), -1;
}

/* One normalizer (not a Sequence) onto b: NFC; SentencePiece's Prepend of
 * "▁" and Replace of " " by "▁". 0, or -1 with err. */
static int normalizer_one(Bpe *b, const JVal *n, AttnError *err)
{
    static const char bar[] = "\xe2\x96\x81";
    if (is_type(n, "NFC")) {
        bpe_set_nfc(b, 1);
        return 0;
    }
    const JVal *pre = json_get(n, "prepend"), *from = json_get(json_get(n, "pattern"), "String");
    const JVal *to = json_get(n, "content");
    if (is_type(n, "Prepend") && pre && pre->type == J_STR && strcmp(pre->str, bar) == 0) {
        bpe_set_metaspace(b, BPE_PREPEND_UNCONDITIONAL);
        return 0;
    }
    if (is_type(n, "Replace") && from && from->type == J_STR && strcmp(from->str, " ") == 0 && to
        && to->type == J_STR && strcmp(to->str, bar) == 0) {
        bpe_set_metaspace(b, BPE_PREPEND_NONE);
        return 0;
    }
    return attn_fail(err, ATTN_E_ARG, "tokenizer.json: the normalizer %.40s is not one attn reads (it reads NFC, and "
                                      "SentencePiece's Prepend and Replace of \"▁\")", type_of(n)), -1;
}

/* The post-processor's template for a single text: the ids of the special
 * tokens before and after "A". ByteLevel's changes no id. 0, or -1. */
static int post_processor(Bpe *b, const JVal *p, int vocab_size, AttnError *err)
{
    if (!p || p->type == J_NULL || is_type(p, "ByteLevel"))
        return 0;
    if (!is_type(p, "TemplateProcessing"))
        return attn_fail(err, ATTN_E_ARG, "tokenizer.json: the post-processor %.40s is not one attn reads (it reads "
                                          "ByteLevel and TemplateProcessing)", type_of(p)), -1;
    const JVal *single = json_get(p, "single"), *specials = json_get(p, "special_tokens");
    int before[BPE_MAX_TEMPLATE], after[BPE_MAX_TEMPLATE], nb = 0, na = 0, seen_a = 0;
    for (int i = 0; single && single->type == J_ARR && i < single->n; i++) {
        const JVal *tok = json_get(&single->items[i], "SpecialToken");
        if (json_get(&single->items[i], "Sequence")) {
            seen_a = 1;
            continue;
        }
        const JVal *name = json_get(tok, "id"), *ids = json_get(json_get(specials, name ? name->str : ""), "ids");
        if (!name || name->type != J_STR || !ids || ids->type != J_ARR)
            return attn_fail(err, ATTN_E_ARG, "tokenizer.json: the template names a special token it does not "
                                              "define"), -1;
        for (int k = 0; k < ids->n; k++) {
            const JVal *id = &ids->items[k];
            if (id->type != J_NUM || id->num < 0 || id->num >= vocab_size || id->num != (double)(int)id->num
                || (seen_a ? na : nb) == BPE_MAX_TEMPLATE)
                return attn_fail(err, ATTN_E_ARG, "tokenizer.json: the template's special tokens are not ids of 0 to "
                                                  "%d, or more than %d", vocab_size - 1, BPE_MAX_TEMPLATE), -1;
            if (!bpe_token_text(b, (int)id->num))
                return attn_fail(err, ATTN_E_ARG, "tokenizer.json: the template's token %d is neither in the "
                                                  "vocabulary nor an added token", (int)id->num), -1;
            if (seen_a)
                after[na++] = (int)id->num;
            else
                before[nb++] = (int)id->num;
        }
    }
    return bpe_set_template(b, before, nb, after, na);
}

static int read_merges(Bpe *b, const JVal *merges, AttnError *err)
{
    if (!merges || merges->type != J_ARR)
        return attn_fail(err, ATTN_E_ARG, "tokenizer.json: the model has no list of merges"), -1;
    for (int i = 0; i < merges->n; i++) {
        const JVal *m = &merges->items[i];
        char where[60];
        snprintf(where, sizeof where, "tokenizer.json: merge %d", i + 1);
        if (m->type == J_STR) {
            const char *sp = strchr(m->str, ' ');
            if (!sp || sp == m->str || !sp[1] || strchr(sp + 1, ' '))
                return attn_fail(err, ATTN_E_ARG, "%s is not two tokens separated by one space", where), -1;
            if (bpe_add_merge(b, m->str, (size_t)(sp - m->str), sp + 1, strlen(sp + 1), where, err) != 0)
                return -1;
        } else if (m->type == J_ARR && m->n == 2 && m->items[0].type == J_STR && m->items[1].type == J_STR) {
            if (bpe_add_merge(b, m->items[0].str, strlen(m->items[0].str), m->items[1].str, strlen(m->items[1].str),
                              where, err) != 0)
                return -1;
        } else {
            return attn_fail(err, ATTN_E_ARG, "%s is neither \"a b\" nor [\"a\", \"b\"]", where), -1;
        }
    }
    return 0;
}

Bpe *bpe_open_json(const char *json, int vocab_size, AttnError *err)
{
    JVal root;
    char why[160];
    if (json_parse(json, &root, why, sizeof why) != 0) {
        attn_fail(err, ATTN_E_ARG, "tokenizer.json is not JSON: %s", why);
        return NULL;
    }
    Bpe *b = bpe_new(err);
    const JVal *model = json_get(&root, "model"), *norm = json_get(&root, "normalizer");
    const JVal *pre = json_get(&root, "pre_tokenizer"), *added = json_get(&root, "added_tokens");
    int ok = b != NULL;
    if (ok && (!model || !is_type(model, "BPE"))) {
        attn_fail(err, ATTN_E_ARG, "tokenizer.json: the model %.40s is not a BPE attn reads",
                  model ? type_of(model) : "(none)");
        ok = 0;
    }
    /* what says how the text is cut comes first: a SentencePiece
     * tokenizer's tokens are read as it writes them */
    if (ok && norm && norm->type != J_NULL) {
        if (is_type(norm, "Sequence")) {
            const JVal *list = json_get(norm, "normalizers");
            for (int i = 0; ok && list && list->type == J_ARR && i < list->n; i++)
                ok = normalizer_one(b, &list->items[i], err) == 0;
        } else {
            ok = normalizer_one(b, norm, err) == 0;
        }
    }
    if (ok && pre && pre->type != J_NULL) {
        if (is_type(pre, "Sequence")) {
            const JVal *list = json_get(pre, "pretokenizers");
            for (int i = 0; ok && list && list->type == J_ARR && i < list->n; i++)
                ok = pre_one(b, &list->items[i], err) == 0;
        } else {
            ok = pre_one(b, pre, err) == 0;
        }
    }
    ok = ok && bpe_vocab_of(b, json_get(model, "vocab") ? json_get(model, "vocab") : &root, "tokenizer.json's vocab",
                            vocab_size, err) == 0;
    ok = ok && read_merges(b, json_get(model, "merges"), err) == 0;
    for (int i = 0; ok && added && added->type == J_ARR && i < added->n; i++) {
        const JVal *id = json_get(&added->items[i], "id"), *content = json_get(&added->items[i], "content");
        if (!id || id->type != J_NUM || id->num < 0 || id->num >= vocab_size || !content || content->type != J_STR) {
            attn_fail(err, ATTN_E_ARG, "tokenizer.json: added token %d has no content or no id of 0 to %d", i + 1,
                      vocab_size - 1);
            ok = 0;
        } else {
            ok = bpe_add_special(b, content->str, (int)id->num, err) == 0;
        }
    }
    if (ok) {
        const JVal *unk = json_get(model, "unk_token");
        int unk_id = unk && unk->type == J_STR ? bpe_token_id(b, unk->str) : -1;
        if (unk && unk->type == J_STR && unk_id < 0) {
            attn_fail(err, ATTN_E_ARG, "tokenizer.json: the unknown token %.40s is not in the vocabulary", unk->str);
            ok = 0;
        }
        bpe_set_byte_fallback(b, flag(model, "byte_fallback", 0), unk_id, flag(model, "fuse_unk", 0));
    }
    ok = ok && post_processor(b, json_get(&root, "post_processor"), vocab_size, err) == 0;
    json_free(&root);
    if (!ok) {
        bpe_free(b);
        return NULL;
    }
    return b;
}
