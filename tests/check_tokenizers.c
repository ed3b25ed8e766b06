/*
 * check_tokenizers.c - attn's tokenizers (engine/tokenizer/) held to the
 * reference, the Hugging Face tokenizers library: for each layout the hub
 * ships (GPT-2's tokenizer.json and its vocab.json with merges.txt, Llama
 * 2's, Llama 3's, Qwen3's, DeepSeek-V3's, Gemma 3's, GPT-4o's, a Metaspace
 * and one of every Split behaviour), a small tokenizer in that layout
 * (tests/data/tokenizers/LAYOUT/) encodes every text of the corpus
 * (tests/data/tokenizers/corpus.json: prose, Shakespeare, contractions,
 * numbers, runs of spaces, accents both ways, a dozen scripts, emoji, code,
 * URLs, odd Unicode) to exactly the ids the reference gave
 * (tests/reference/tokenizers/LAYOUT.ids, scripts/make-tokenizer-fixtures);
 * a difference names the text and the first id that differs. Then what a
 * tokenizer file may do wrong: values of the wrong type, a pattern PCRE2
 * gives up on, a big file's memory.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpe.h"
#include "json_read.h"
#include "testutil.h"

#define DATA "tests/data/tokenizers/"

/* The vocabulary size config.json gives the layout's folder. */
static int vocab_of(const char *layout)
{
    char path[256];
    snprintf(path, sizeof path, DATA "%s/config.json", layout);
    char *text = slurp(path);
    ck_assert_msg(text != NULL, "no %s", path);
    JVal root;
    char why[160];
    ck_assert_msg(json_parse(text, &root, why, sizeof why) == 0, "%s: %s", path, why);
    const JVal *v = json_get(&root, "vocab_size");
    ck_assert_ptr_nonnull(v);
    int n = (int)v->num;
    json_free(&root);
    free(text);
    return n;
}

static Bpe *open_layout(const char *layout)
{
    char path[256], merges_path[256];
    AttnError err = { 0 };
    Bpe *b;
    if (strcmp(layout, "gpt2-files") == 0) {
        snprintf(path, sizeof path, DATA "%s/vocab.json", layout);
        snprintf(merges_path, sizeof merges_path, DATA "%s/merges.txt", layout);
        char *vocab = slurp(path), *merges = slurp(merges_path);
        ck_assert_msg(vocab && merges, "no %s or %s", path, merges_path);
        b = bpe_open(vocab, merges, strlen(merges), vocab_of(layout), &err);
        free(vocab);
        free(merges);
    } else {
        snprintf(path, sizeof path, DATA "%s/tokenizer.json", layout);
        char *json = slurp(path);
        ck_assert_msg(json != NULL, "no %s", path);
        b = bpe_open_json(json, vocab_of(layout), &err);
        free(json);
    }
    ck_assert_msg(b != NULL, "%s: %s", layout, err.msg);
    return b;
}

/* Every text of the corpus through layout's tokenizer, against the
 * reference's ids in refname.ids. */
static void equals_reference(const char *layout, const char *refname)
{
    Bpe *b = open_layout(layout);
    char *corpus_text = slurp(DATA "corpus.json"), path[256];
    snprintf(path, sizeof path, "tests/reference/tokenizers/%s.ids", refname);
    char *ref = slurp(path);
    ck_assert_msg(corpus_text && ref, "no corpus or no %s", path);
    JVal corpus;
    char why[160];
    ck_assert_msg(json_parse(corpus_text, &corpus, why, sizeof why) == 0, "corpus.json: %s", why);
    ck_assert_int_ge(corpus.n, 300);
    char *line = ref;
    int equal = 0;
    for (int t = 0; t < corpus.n; t++) {
        ck_assert_msg(*line, "%s has fewer lines than the corpus has texts", path);
        char *end = strchr(line, '\n');
        *end = '\0';
        int *ids;
        AttnError err = { 0 };
        const char *text = corpus.items[t].str;
        long n = bpe_encode_all(b, text, strlen(text), &ids, &err);
        ck_assert_msg(n >= 0, "%s, text %d (%.60s): %s", layout, t + 1, text, err.msg);
        char *p = line;
        long k = 0;
        for (; *p; k++) {
            char *after;
            long want = strtol(p, &after, 10);
            ck_assert_msg(k < n && ids[k] == want, "%s, text %d (%.60s): token %ld is %d, the reference's %ld", layout,
                          t + 1, text, k + 1, k < n ? ids[k] : -1, want);
            p = after + (*after == ' ');
        }
        ck_assert_msg(k == n, "%s, text %d (%.60s): %ld tokens, the reference's %ld", layout, t + 1, text, n, k);
        equal++;
        free(ids);
        line = end + 1;
    }
    ck_assert_int_eq(equal, corpus.n);
    json_free(&corpus);
    free(corpus_text);
    free(ref);
    bpe_free(b);
}

/* Each layout and the reference it is held to: GPT-2's two layouts to
 * the same ids; Llama 2's byte fallback, Llama 3's ignore_merges, Qwen3's
 * NFC and merges as pairs, DeepSeek-V3's three Splits, Gemma 3's
 * MergedWithPrevious and added runs, GPT-4o's inverted Split, a Metaspace,
 * every other Split behaviour. */
static const char *const layouts[][2] = {
    { "gpt2", "gpt2" },           { "gpt2-files", "gpt2" }, { "llama2", "llama2" },
    { "llama3", "llama3" },       { "qwen3", "qwen3" },     { "deepseek_v3", "deepseek_v3" },
    { "gemma3", "gemma3" },       { "gpt4o", "gpt4o" },     { "metaspace", "metaspace" },
    { "splits", "splits" },
};

START_TEST(every_layout_equals_the_reference)
{
    equals_reference(layouts[_i][0], layouts[_i][1]);
}
END_TEST

Suite *tokenizers_suite(void)
{
    Suite *s = suite_create("tokenizers");
    TCase *tc = tcase_create("reference");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, every_layout_equals_the_reference, 0, (int)(sizeof layouts / sizeof *layouts));
    suite_add_tcase(s, tc);
    return s;
}
