/*
 * bpe_json.c - a BPE from Hugging Face's tokenizer.json (bpe.h's
 * bpe_open_json), read from the file, not assumed: "model" (type BPE: its
 * vocab and its merges, written "a b" or ["a", "b"], byte_fallback,
 * unk_token, fuse_unk, ignore_merges), "added_tokens" (normalized or as
 * written, lstrip, rstrip, single_word), "normalizer" (NFC,
 * NFD, NFKC, NFKD, Prepend, Replace of a string, a Sequence of these),
 * "pre_tokenizer" (ByteLevel, Split by a regex or a string with any of the
 * five behaviours and invert, Digits, Metaspace, a Sequence of these) and
 * "post_processor" (ByteLevel, TemplateProcessing's special tokens around
 * the text, a Sequence of these). Every value is checked for its type
 * before it is used (a template's id that was a number was a crash), and
 * anything attn does not read is refused by name. The decoder, padding and
 * truncation do not change the ids of one text and are not read.
 */
#include "bpe_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kind_of(const JVal *v)
{
    static const char *const names[] = { "null", "true or false", "a number", "a string", "a list", "an object" };
    return names[v->type];
}

/* *out = v's member key when it is of type want; NULL when v lacks it or
 * it is null (refused if required). 0, or -1 with err naming where. */
static int member(const JVal *v, const char *key, JType want, int required, const char *where, const JVal **out,
                  AttnError *err)
{
    static const JVal of[] = { { .type = J_NULL }, { .type = J_BOOL }, { .type = J_NUM },
                               { .type = J_STR },  { .type = J_ARR },  { .type = J_OBJ } };
    const JVal *m = json_get(v, key);
    *out = NULL;
    if (!m || m->type == J_NULL)
        return required ? (attn_fail(err, ATTN_E_ARG, "tokenizer.json: %s has no %s", where, key), -1) : 0;
    if (m->type != want)
        return attn_fail(err, ATTN_E_ARG, "tokenizer.json: %s's %s is %s, not %s", where, key, kind_of(m),
                         kind_of(&of[want])), -1;
    *out = m;
    return 0;
}

/* v's true-or-false key into *on (fallback when it lacks it). 0, or -1. */
static int flag(const JVal *v, const char *key, int fallback, const char *where, int *on, AttnError *err)
{
    const JVal *f;
    if (member(v, key, J_BOOL, 0, where, &f, err) != 0)
        return -1;
    *on = f ? (int)f->num : fallback;
    return 0;
}

/* v's "type", a string (v itself an object). NULL with err. */
static const char *type_of(const JVal *v, const char *where, AttnError *err)
{
    const JVal *t;
    if (v->type != J_OBJ)
        return attn_fail(err, ATTN_E_ARG, "tokenizer.json: %s is %s, not an object", where, kind_of(v)), NULL;
    return member(v, "type", J_STR, 1, where, &t, err) == 0 ? t->str : NULL;
}

/* A whole number of 0 to below `below` in v. */
static int is_id(const JVal *v, int below)
{
    return v && v->type == J_NUM && v->num >= 0 && v->num < below && v->num == (double)(int)v->num;
}

/* A Sequence's list (key) of parts, each read by one. */
static int each(Bpe *b, const JVal *v, const char *key, const char *where,
                int (*one)(Bpe *, const JVal *, int, AttnError *), int n, AttnError *err)
{
    const JVal *list;
    if (member(v, key, J_ARR, 1, where, &list, err) != 0)
        return -1;
    for (int i = 0; i < list->n; i++)
        if (one(b, &list->items[i], n, err) != 0)
            return -1;
    return 0;
}

static int pre_tokenizer(Bpe *b, const JVal *p, int unused, AttnError *err)
{
    (void)unused;
    static const char w[] = "the pre-tokenizer";
    const char *type = type_of(p, w, err);
    if (!type)
        return -1;
    if (b->n_pre > 0 && b->pre[b->n_pre - 1].kind == STEP_BYTE_LEVEL)
        return attn_fail(err, ATTN_E_ARG, "tokenizer.json: a pre-tokenizer after ByteLevel is not read"), -1;
    if (strcmp(type, "Sequence") == 0)
        return each(b, p, "pretokenizers", w, pre_tokenizer, 0, err);
    Step st = { .kind = STEP_SPLIT };
    if (strcmp(type, "ByteLevel") == 0) {
        st.kind = STEP_BYTE_LEVEL;
        if (flag(p, "add_prefix_space", 0, "ByteLevel", &st.prefix, err) != 0
            || flag(p, "use_regex", 1, "ByteLevel", &st.split, err) != 0)
            return -1;
        return bpe_add_step(b, st, st.split ? bpe_gpt2_pattern : NULL, err);
    }
    if (strcmp(type, "Digits") == 0) {
        int one;
        if (flag(p, "individual_digits", 0, "Digits", &one, err) != 0)
            return -1;
        st.how = one ? SPLIT_ISOLATED : SPLIT_CONTIGUOUS;
        return bpe_add_step(b, st, "\\p{N}", err);
    }
    if (strcmp(type, "Metaspace") == 0) {
        /* "▁" (or its replacement) for each space, one before the piece as
         * the scheme says (older files: add_prefix_space), split before each */
        const JVal *rep, *scheme;
        int legacy;
        if (member(p, "replacement", J_STR, 0, "Metaspace", &rep, err) != 0
            || member(p, "prepend_scheme", J_STR, 0, "Metaspace", &scheme, err) != 0
            || flag(p, "add_prefix_space", 1, "Metaspace", &legacy, err) != 0
            || flag(p, "split", 1, "Metaspace", &st.split, err) != 0)
            return -1;
        const char *to = rep ? rep->str : "\xe2\x96\x81";
        if (!*to || bpe_char_len(to, strlen(to)) != strlen(to))
            return attn_fail(err, ATTN_E_ARG, "tokenizer.json: Metaspace's replacement is not one character"), -1;
        st.kind = STEP_METASPACE;
        st.to = (char *)to;
        st.prefix = legacy ? BPE_PREPEND_ALWAYS : BPE_PREPEND_NEVER;
        if (scheme)
            st.prefix = strcmp(scheme->str, "first") == 0    ? BPE_PREPEND_FIRST
                      : strcmp(scheme->str, "always") == 0   ? BPE_PREPEND_ALWAYS
                      : strcmp(scheme->str, "never") == 0    ? BPE_PREPEND_NEVER
                                                             : -1;
        if (st.prefix < 0)
            return attn_fail(err, ATTN_E_ARG, "tokenizer.json: Metaspace's prepend_scheme %.20s is not first, always "
                                              "or never", scheme->str), -1;
        char quoted[16];
        bpe_regex_quote(to, quoted);
        return bpe_add_step(b, st, st.split ? quoted : NULL, err);
    }
    if (strcmp(type, "Split") == 0) {
        static const char *const hows[] = { "Removed", "Isolated", "MergedWithPrevious", "MergedWithNext",
                                            "Contiguous" };
        const JVal *pat, *re, *str, *beh;
        if (member(p, "pattern", J_OBJ, 1, "Split", &pat, err) != 0
            || member(pat, "Regex", J_STR, 0, "Split's pattern", &re, err) != 0
            || member(pat, "String", J_STR, 0, "Split's pattern", &str, err) != 0
            || member(p, "behavior", J_STR, 1, "Split", &beh, err) != 0
            || flag(p, "invert", 0, "Split", &st.invert, err) != 0)
            return -1;
        st.how = (SplitHow)-1;
        for (int i = 0; i < 5; i++)
            if (strcmp(beh->str, hows[i]) == 0)
                st.how = (SplitHow)i;
        if ((int)st.how < 0)
            return attn_fail(err, ATTN_E_ARG, "tokenizer.json: Split's behavior %.30s is not Removed, Isolated, "
                                              "MergedWithPrevious, MergedWithNext or Contiguous", beh->str), -1;
        if (!re && !str)
            return attn_fail(err, ATTN_E_ARG, "tokenizer.json: Split's pattern is neither a Regex nor a String"), -1;
        if (re)
            return bpe_add_step(b, st, re->str, err);
        char *quoted = malloc(2 * strlen(str->str) + 1);
        if (!quoted)
            return attn_fail(err, ATTN_E_NOMEM, "out of memory"), -1;
        bpe_regex_quote(str->str, quoted);
        int rc = bpe_add_step(b, st, quoted, err);
        free(quoted);
        return rc;
    }
    return attn_fail(err, ATTN_E_ARG, "tokenizer.json: the pre-tokenizer %.40s is not one attn reads yet (it reads "
                                      "ByteLevel, Split, Digits, Metaspace and a Sequence of them)", type), -1;
}

static int normalizer(Bpe *b, const JVal *n, int unused, AttnError *err)
{
    (void)unused;
    static const char *const forms[] = { "NFC", "NFD", "NFKC", "NFKD" };
    const char *type = type_of(n, "the normalizer", err);
    if (!type)
        return -1;
    if (strcmp(type, "Sequence") == 0)
        return each(b, n, "normalizers", "the normalizer", normalizer, 0, err);
    for (int i = 0; i < 4; i++)
        if (strcmp(type, forms[i]) == 0)
            return bpe_add_step(b, (Step){ .kind = (StepKind)(STEP_NFC + i) }, NULL, err);
    const JVal *pre, *pat, *from, *re, *to;
    if (strcmp(type, "Prepend") == 0)
        return member(n, "prepend", J_STR, 1, "Prepend", &pre, err) != 0
                   ? -1 : bpe_add_step(b, (Step){ .kind = STEP_PREPEND, .to = pre->str }, NULL, err);
    if (strcmp(type, "Replace") == 0) {
        if (member(n, "pattern", J_OBJ, 1, "Replace", &pat, err) != 0
            || member(pat, "String", J_STR, 0, "Replace's pattern", &from, err) != 0
            || member(pat, "Regex", J_STR, 0, "Replace's pattern", &re, err) != 0
            || member(n, "content", J_STR, 1, "Replace", &to, err) != 0)
            return -1;
        if (!from || !*from->str)
            return attn_fail(err, ATTN_E_ARG, "tokenizer.json: a Replace of a %s is not read (attn reads a Replace "
                                              "of a string)", re ? "regex" : "nothing"), -1;
        return bpe_add_step(b, (Step){ .kind = STEP_REPLACE, .from = from->str, .to = to->str }, NULL, err);
    }
    return attn_fail(err, ATTN_E_ARG, "tokenizer.json: the normalizer %.40s is not one attn reads (it reads NFC, NFD, "
                                      "NFKC, NFKD, Prepend, Replace and a Sequence of them)", type), -1;
}

/* The post-processor's template for a single text: the ids of the special
 * tokens before and after "A". ByteLevel's changes no id. 0, or -1. */
static int post_processor(Bpe *b, const JVal *p, int vocab_size, AttnError *err)
{
    static const char w[] = "the post-processor";
    const char *type = type_of(p, w, err);
    if (!type)
        return -1;
    if (strcmp(type, "ByteLevel") == 0)
        return 0;
    if (strcmp(type, "Sequence") == 0)
        return each(b, p, "processors", w, post_processor, vocab_size, err);
    if (strcmp(type, "TemplateProcessing") != 0)
        return attn_fail(err, ATTN_E_ARG, "tokenizer.json: the post-processor %.40s is not one attn reads (it reads "
                                          "ByteLevel, TemplateProcessing and a Sequence of them)", type), -1;
    const JVal *single, *specials;
    if (member(p, "single", J_ARR, 1, "the template", &single, err) != 0
        || member(p, "special_tokens", J_OBJ, 0, "the template", &specials, err) != 0)
        return -1;
    int before[BPE_MAX_TEMPLATE], after[BPE_MAX_TEMPLATE], nb = 0, na = 0, seen_a = 0;
    for (int i = 0; i < single->n; i++) {
        const JVal *item = &single->items[i], *tok, *seq, *name, *spec, *ids;
        if (member(item, "SpecialToken", J_OBJ, 0, "the template's piece", &tok, err) != 0
            || member(item, "Sequence", J_OBJ, 0, "the template's piece", &seq, err) != 0)
            return -1;
        if (seq) {
            seen_a = 1;
            continue;
        }
        if (!tok)
            return attn_fail(err, ATTN_E_ARG, "tokenizer.json: the template's piece %d is neither a SpecialToken nor "
                                              "a Sequence", i + 1), -1;
        if (member(tok, "id", J_STR, 1, "the template's SpecialToken", &name, err) != 0)
            return -1;
        spec = json_get(specials, name->str);
        if (!spec)
            return attn_fail(err, ATTN_E_ARG, "tokenizer.json: the template names a special token it does not "
                                              "define, %.40s", name->str), -1;
        if (member(spec, "ids", J_ARR, 1, "the template's special token", &ids, err) != 0)
            return -1;
        for (int k = 0; k < ids->n; k++) {
            const JVal *id = &ids->items[k];
            if (!is_id(id, vocab_size) || (seen_a ? na : nb) == BPE_MAX_TEMPLATE)
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
    for (int i = 0; i < merges->n; i++) {
        const JVal *m = &merges->items[i];
        if (m->type == J_STR) {
            const char *sp = strchr(m->str, ' ');
            if (!sp || sp == m->str || !sp[1] || strchr(sp + 1, ' '))
                return attn_fail(err, ATTN_E_ARG, "tokenizer.json: merge %d is not two tokens separated by one space",
                                 i + 1), -1;
            if (bpe_add_merge(b, m->str, (size_t)(sp - m->str), sp + 1, strlen(sp + 1), "tokenizer.json: merge",
                              i + 1, err) != 0)
                return -1;
        } else if (m->type == J_ARR && m->n == 2 && m->items[0].type == J_STR && m->items[1].type == J_STR) {
            if (bpe_add_merge(b, m->items[0].str, strlen(m->items[0].str), m->items[1].str, strlen(m->items[1].str),
                              "tokenizer.json: merge", i + 1, err) != 0)
                return -1;
        } else {
            return attn_fail(err, ATTN_E_ARG, "tokenizer.json: merge %d is neither \"a b\" nor [\"a\", \"b\"]",
                             i + 1), -1;
        }
    }
    return 0;
}

/* The model's settings beside its vocabulary and merges. */
static int model_settings(Bpe *b, const JVal *model, AttnError *err)
{
    static const char w[] = "the model";
    const JVal *unk, *drop, *prefix, *suffix;
    if (member(model, "unk_token", J_STR, 0, w, &unk, err) != 0
        || member(model, "dropout", J_NUM, 0, w, &drop, err) != 0
        || member(model, "continuing_subword_prefix", J_STR, 0, w, &prefix, err) != 0
        || member(model, "end_of_word_suffix", J_STR, 0, w, &suffix, err) != 0
        || flag(model, "byte_fallback", 0, w, &b->byte_fallback, err) != 0
        || flag(model, "fuse_unk", 0, w, &b->fuse_unk, err) != 0
        || flag(model, "ignore_merges", 0, w, &b->ignore_merges, err) != 0)
        return -1;
    if (drop && drop->num != 0)
        return attn_fail(err, ATTN_E_ARG, "tokenizer.json: the model's dropout is not read (it makes the ids "
                                          "random)"), -1;
    if ((prefix && *prefix->str) || (suffix && *suffix->str))
        return attn_fail(err, ATTN_E_ARG, "tokenizer.json: a continuing_subword_prefix or end_of_word_suffix is "
                                          "not read yet"), -1;
    b->unk = unk ? bpe_token_id(b, unk->str) : -1;
    if (unk && b->unk < 0)
        return attn_fail(err, ATTN_E_ARG, "tokenizer.json: the unknown token %.40s is not in the vocabulary",
                         unk->str), -1;
    return 0;
}

static int added_tokens(Bpe *b, const JVal *added, int vocab_size, AttnError *err)
{
    for (int i = 0; i < added->n; i++) {
        const JVal *a = &added->items[i], *id, *content;
        char where[40];
        snprintf(where, sizeof where, "added token %d", i + 1);
        int normalized, lstrip, rstrip, single;
        if (a->type != J_OBJ)
            return attn_fail(err, ATTN_E_ARG, "tokenizer.json: %s is %s, not an object", where, kind_of(a)), -1;
        if (member(a, "id", J_NUM, 1, where, &id, err) != 0 || member(a, "content", J_STR, 1, where, &content, err) != 0
            || flag(a, "normalized", 0, where, &normalized, err) != 0 || flag(a, "lstrip", 0, where, &lstrip, err) != 0
            || flag(a, "rstrip", 0, where, &rstrip, err) != 0 || flag(a, "single_word", 0, where, &single, err) != 0)
            return -1;
        if (!is_id(id, vocab_size))
            return attn_fail(err, ATTN_E_ARG, "tokenizer.json: %s has no id of 0 to %d", where, vocab_size - 1), -1;
        int flags = (normalized ? ADDED_NORMALIZED : 0) | (lstrip ? ADDED_LSTRIP : 0) | (rstrip ? ADDED_RSTRIP : 0)
                    | (single ? ADDED_SINGLE_WORD : 0);
        if (bpe_add_special(b, content->str, strlen(content->str), (int)id->num, flags, err) != 0)
            return -1;
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
    const JVal *model = NULL, *norm = NULL, *pre = NULL, *added = NULL, *post = NULL, *vocab = NULL, *merges = NULL;
    const char *type = NULL;
    int ok = b != NULL && root.type == J_OBJ;
    if (b && !ok)
        attn_fail(err, ATTN_E_ARG, "tokenizer.json is %s, not an object", kind_of(&root));
    ok = ok && member(&root, "model", J_OBJ, 1, "the file", &model, err) == 0
         && (type = type_of(model, "the model", err)) != NULL;
    if (ok && strcmp(type, "BPE") != 0) {
        attn_fail(err, ATTN_E_ARG, "tokenizer.json: the model %.40s is not a BPE attn reads", type);
        ok = 0;
    }
    ok = ok && member(&root, "normalizer", J_OBJ, 0, "the file", &norm, err) == 0
         && member(&root, "pre_tokenizer", J_OBJ, 0, "the file", &pre, err) == 0
         && member(&root, "post_processor", J_OBJ, 0, "the file", &post, err) == 0
         && member(&root, "added_tokens", J_ARR, 0, "the file", &added, err) == 0
         && member(model, "vocab", J_OBJ, 1, "the model", &vocab, err) == 0
         && member(model, "merges", J_ARR, 1, "the model", &merges, err) == 0;
    /* what says how the text is cut comes first: the tokens are then read
     * as it writes them */
    ok = ok && (!norm || normalizer(b, norm, 0, err) == 0) && (!pre || pre_tokenizer(b, pre, 0, err) == 0);
    /* the two big parts of the tree let go as soon as they are tables:
     * their room serves the next */
    ok = ok && bpe_vocab_of(b, vocab, "tokenizer.json's vocab", vocab_size, err) == 0;
    if (vocab)
        json_free((JVal *)vocab);
    ok = ok && read_merges(b, merges, err) == 0;
    if (merges)
        json_free((JVal *)merges);
    ok = ok && (!added || added_tokens(b, added, vocab_size, err) == 0);
    ok = ok && model_settings(b, model, err) == 0;
    ok = ok && (!post || post_processor(b, post, vocab_size, err) == 0);
    ok = ok && bpe_finish(b, err) == 0;
    json_free(&root);
    if (!ok) {
        bpe_free(b);
        return NULL;
    }
    return b;
}
