/*
 * bpe_json.c - a byte-level BPE from Hugging Face's tokenizer.json
 * (bpe.h's bpe_open_json): "model" (type BPE: its vocab and its merges,
 * written "a b" or ["a", "b"]), "added_tokens", "normalizer" (none, or NFC
 * for ASCII text) and "pre_tokenizer" read from the file, not assumed:
 * ByteLevel (GPT-2's pattern when use_regex, a space before the text when
 * add_prefix_space), Split by the file's own regex (behaviour Isolated),
 * Digits (each digit, or runs of them), and a Sequence of these. Byte
 * fallback, Metaspace and the other models are refused by name.
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
                                      "ByteLevel, Split, Digits and a Sequence of them)", type_of(p)), -1;
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
    if (ok && flag(model, "byte_fallback", 0)) {
        attn_fail(err, ATTN_E_ARG, "tokenizer.json: a BPE with byte fallback (SentencePiece's) is not read yet");
        ok = 0;
    }
    if (ok && norm && norm->type != J_NULL) {
        if (is_type(norm, "NFC")) {
            bpe_set_ascii_only(b, 1);
        } else {
            attn_fail(err, ATTN_E_ARG, "tokenizer.json: the normalizer %.40s is not one attn reads yet",
                      type_of(norm));
            ok = 0;
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
    if (ok && pre && pre->type != J_NULL) {
        if (is_type(pre, "Sequence")) {
            const JVal *list = json_get(pre, "pretokenizers");
            for (int i = 0; ok && list && list->type == J_ARR && i < list->n; i++)
                ok = pre_one(b, &list->items[i], err) == 0;
        } else {
            ok = pre_one(b, pre, err) == 0;
        }
    }
    json_free(&root);
    if (!ok) {
        bpe_free(b);
        return NULL;
    }
    return b;
}
