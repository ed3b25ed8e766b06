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

/* A tokenizer.json on the 256 byte tokens (id = the byte) with no
 * merges: the pre-tokenizer and post-processor given. A new string. */
static char *bytes_json(const char *pre, const char *post)
{
    static char text[16384];
    snprintf(text, sizeof text, "{\"added_tokens\": [], \"normalizer\": null, \"pre_tokenizer\": %s, "
             "\"post_processor\": %s, \"model\": {\"type\": \"BPE\", \"vocab\": {%s}, \"merges\": []}}", pre, post,
             byte_tokens_json());
    return text;
}

static void gives(const Bpe *b, const char *text, const int *want, int n_want)
{
    int *ids;
    AttnError err = { 0 };
    long n = bpe_encode_all(b, text, strlen(text), &ids, &err);
    ck_assert_msg(n == n_want, "\"%s\": %ld tokens (%s), want %d", text, n, err.msg, n_want);
    for (long i = 0; i < n; i++)
        ck_assert_msg(ids[i] == want[i], "\"%s\": token %ld is %d, want %d", text, i + 1, ids[i], want[i]);
    free(ids);
}

#define BYTES_AFTER(split) "{\"type\": \"Sequence\", \"pretokenizers\": [" split ", {\"type\": \"ByteLevel\", " \
                           "\"add_prefix_space\": false, \"use_regex\": false}]}"

/* A file's \s, \h and \v mean what they mean to Oniguruma, the Rust
 * tokenizers' engine (the ids are the reference's): U+180E is not white
 * space (PCRE2's \s took it, so `\s+(?!\S)` swallowed " \u180e"), NEL
 * and the em space are; \h is a hex digit, \v the vertical tab alone. */
START_TEST(a_pattern_means_what_oniguruma_means)
{
    AttnError err = { 0 };
    Bpe *b = bpe_open_json(bytes_json(BYTES_AFTER("{\"type\": \"Split\", \"pattern\": {\"Regex\": \"\\\\s\"}, "
                                                  "\"behavior\": \"Removed\"}"), "null"), 256, &err);
    ck_assert_msg(b != NULL, "%s", err.msg);
    gives(b, "a\xe1\xa0\x8e" "b", (int[]){ 97, 225, 160, 142, 98 }, 5);     /* U+180E kept */
    gives(b, "a\xe2\x80\x83" "b", (int[]){ 97, 98 }, 2);                    /* U+2003 removed */
    gives(b, "a\xc2\x85" "b", (int[]){ 97, 98 }, 2);                         /* NEL removed */
    gives(b, "a\xe2\x80\x8b" "b", (int[]){ 97, 226, 128, 139, 98 }, 5);     /* U+200B kept */
    bpe_free(b);
    b = bpe_open_json(bytes_json(BYTES_AFTER("{\"type\": \"Split\", \"pattern\": {\"Regex\": \"\\\\h|\\\\v\"}, "
                                             "\"behavior\": \"Removed\"}"), "null"), 256, &err);
    ck_assert_msg(b != NULL, "%s", err.msg);
    gives(b, "a1f-z", (int[]){ 45, 122 }, 2);
    gives(b, "x\vy\nz", (int[]){ 120, 121, 10, 122 }, 4);
    bpe_free(b);
    ck_assert_ptr_null(bpe_open_json(bytes_json(BYTES_AFTER("{\"type\": \"Split\", \"pattern\": {\"Regex\": "
                                                            "\"[\\\\S]\"}, \"behavior\": \"Isolated\"}"), "null"), 256, &err));
    ck_assert_str_eq(err.msg, "the pre-tokenizer's pattern: \\S inside a class (at byte 2) has no PCRE2 spelling");
}
END_TEST

/* A pattern PCRE2 gives up on (its match limit) refuses the text, naming
 * the limit, where it was once taken for no match and the text cut unlike
 * the reference's. */
START_TEST(a_pattern_that_gives_up_refuses_the_text)
{
    AttnError err = { 0 };
    Bpe *b = bpe_open_json(bytes_json(BYTES_AFTER("{\"type\": \"Split\", \"pattern\": {\"Regex\": \"(a+)+$\"}, "
                                                  "\"behavior\": \"Isolated\"}"), "null"), 256, &err);
    ck_assert_msg(b != NULL, "%s", err.msg);
    gives(b, "aab", (int[]){ 97, 97, 98 }, 3);
    int *ids;
    const char *text = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!";
    ck_assert_int_eq(bpe_encode_all(b, text, strlen(text), &ids, &err), -1);
    ck_assert_ptr_null(ids);
    ck_assert_str_eq(err.msg, "the pre-tokenizer's pattern gave up on the text 0 bytes into a piece of 41 (PCRE2: "
                              "match limit exceeded; its match limit is 10000000 steps): the text is refused rather "
                              "than cut");
    bpe_free(b);
}
END_TEST

/* Every value of a tokenizer file is checked for its type before it is
 * used: a template's special token whose id was a number, or a list, was
 * a SIGSEGV (issue 43), and so was any value where another kind was read. */
START_TEST(values_of_the_wrong_type_are_refused)
{
    static const char *const cases[][2] = {
        { "{\"type\": \"TemplateProcessing\", \"single\": [{\"SpecialToken\": {\"id\": 5}}], \"special_tokens\": {}}",
          "tokenizer.json: the template's SpecialToken's id is a number, not a string" },
        { "{\"type\": \"TemplateProcessing\", \"single\": [{\"SpecialToken\": {\"id\": [1]}}], \"special_tokens\": {}}",
          "tokenizer.json: the template's SpecialToken's id is a list, not a string" },
        { "{\"type\": \"TemplateProcessing\", \"single\": [{\"SpecialToken\": {\"id\": \"a\"}}], "
          "\"special_tokens\": {\"a\": {\"ids\": 5}}}",
          "tokenizer.json: the template's special token's ids is a number, not a list" },
        { "{\"type\": \"TemplateProcessing\", \"single\": {}}", "tokenizer.json: the template's single is an object, not a list" },
        { "{\"type\": 7}", "tokenizer.json: the post-processor's type is a number, not a string" },
        { "[1]", "tokenizer.json: the file's post_processor is a list, not an object" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        AttnError err = { 0 };
        ck_assert_ptr_null(bpe_open_json(bytes_json("null", cases[i][0]), 256, &err));
        ck_assert_str_eq(err.msg, cases[i][1]);
    }
    static const char *const pres[][2] = {
        { "{\"type\": \"Split\", \"pattern\": \"x\", \"behavior\": \"Isolated\"}",
          "tokenizer.json: Split's pattern is a string, not an object" },
        { "{\"type\": \"Split\", \"pattern\": {\"Regex\": 1}, \"behavior\": \"Isolated\"}",
          "tokenizer.json: Split's pattern's Regex is a number, not a string" },
        { "{\"type\": \"Split\", \"pattern\": {\"String\": \"x\"}, \"behavior\": true}",
          "tokenizer.json: Split's behavior is true or false, not a string" },
        { "{\"type\": \"Split\", \"pattern\": {\"String\": \"x\"}, \"behavior\": \"Sideways\"}",
          "tokenizer.json: Split's behavior Sideways is not Removed, Isolated, MergedWithPrevious, MergedWithNext or "
          "Contiguous" },
        { "{\"type\": \"ByteLevel\", \"add_prefix_space\": \"yes\"}",
          "tokenizer.json: ByteLevel's add_prefix_space is a string, not true or false" },
        { "{\"type\": \"Sequence\", \"pretokenizers\": {}}",
          "tokenizer.json: the pre-tokenizer's pretokenizers is an object, not a list" },
        { "{\"type\": \"Sequence\", \"pretokenizers\": [3]}", "tokenizer.json: the pre-tokenizer is a number, not an object" },
    };
    for (size_t i = 0; i < sizeof pres / sizeof *pres; i++) {
        AttnError err = { 0 };
        ck_assert_ptr_null(bpe_open_json(bytes_json(pres[i][0], "null"), 256, &err));
        ck_assert_str_eq(err.msg, pres[i][1]);
    }
    AttnError err = { 0 };
    ck_assert_ptr_null(bpe_open_json("{\"model\": {\"type\": \"BPE\", \"vocab\": [], \"merges\": []}}", 256, &err));
    ck_assert_str_eq(err.msg, "tokenizer.json: the model's vocab is a list, not an object");
    ck_assert_ptr_null(bpe_open_json("{\"added_tokens\": [{\"id\": \"1\", \"content\": \"x\"}], \"model\": {\"type\": "
                                     "\"BPE\", \"vocab\": {}, \"merges\": []}}", 256, &err));
    ck_assert_str_eq(err.msg, "tokenizer.json: added token 1's id is a string, not a number");
    ck_assert_ptr_null(bpe_open_json("{\"model\": {\"type\": \"BPE\", \"vocab\": {}, \"merges\": [], \"ignore_merges\": 1}}",
                                     256, &err));
    ck_assert_str_eq(err.msg, "tokenizer.json: the model's ignore_merges is a number, not true or false");
    ck_assert_ptr_null(bpe_open_json("{\"model\": {\"type\": \"BPE\", \"vocab\": {}, \"merges\": [], \"dropout\": 0.1}}",
                                     256, &err));
    ck_assert_str_eq(err.msg, "tokenizer.json: the model's dropout is not read (it makes the ids random)");
}
END_TEST

/* A tokenizer.json of 150,000 tokens (the byte tokens, every word of two,
 * three and some of four letters, each made by a merge): read in memory a
 * small constant times the file, where each string once took 4 KB. */
static void open_it(void *json)
{
    AttnError err = { 0 };
    bpe_free(bpe_open_json(json, 150000, &err));
}

START_TEST(a_big_tokenizer_takes_memory_in_proportion)
{
    size_t cap = 8u << 20, n = 0;
    char *json = malloc(cap);
    ck_assert_ptr_nonnull(json);
    n += (size_t)snprintf(json + n, cap - n, "{\"model\": {\"type\": \"BPE\", \"vocab\": {%s", byte_tokens_json());
    int id = 256;
    char word[8];
    for (int len = 2; len <= 4; len++)
        for (int k = 0; id < 150000 && k < (len == 2 ? 676 : len == 3 ? 17576 : 456976); k++) {
            for (int c = len - 1, x = k; c >= 0; c--, x /= 26)
                word[c] = (char)('a' + x % 26);
            n += (size_t)snprintf(json + n, cap - n, ", \"%.*s\": %d", len, word, id++);
        }
    n += (size_t)snprintf(json + n, cap - n, "}, \"merges\": [");
    id = 256;
    for (int len = 2; len <= 4; len++)
        for (int k = 0; id < 150000 && k < (len == 2 ? 676 : len == 3 ? 17576 : 456976); k++, id++) {
            for (int c = len - 1, x = k; c >= 0; c--, x /= 26)
                word[c] = (char)('a' + x % 26);
            n += (size_t)snprintf(json + n, cap - n, "%s\"%.*s %c\"", id > 256 ? ", " : "", len - 1, word, word[len - 1]);
        }
    snprintf(json + n, cap - n, "]}}");
    AttnError err = { 0 };
    Bpe *b = bpe_open_json(json, 150000, &err);
    ck_assert_msg(b != NULL, "%s", err.msg);
    gives(b, "abc", (int[]){ 256 + 676 + 1 * 26 + 2 }, 1);  /* a b, then ab c */
    gives(b, "zz", (int[]){ 256 + 25 * 26 + 25 }, 1);
    bpe_free(b);
    long kb = peak_growth_kb(open_it, json);
    if (kb >= 0)
        ck_assert_msg(kb * 1024 <= 8 * (long)n, "a tokenizer.json of %zu bytes raised the peak by %ld KB (%.1f times it)",
                      n, kb, kb * 1024.0 / (double)n);
    free(json);
}
END_TEST

Suite *tokenizers_suite(void)
{
    Suite *s = suite_create("tokenizers");
    TCase *tc = tcase_create("reference");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, every_layout_equals_the_reference, 0, (int)(sizeof layouts / sizeof *layouts));
    suite_add_tcase(s, tc);
    TCase *limits = tcase_create("limits");
    tcase_set_timeout(limits, 60);
    tcase_add_test(limits, a_pattern_means_what_oniguruma_means);
    tcase_add_test(limits, a_pattern_that_gives_up_refuses_the_text);
    tcase_add_test(limits, values_of_the_wrong_type_are_refused);
    tcase_add_test(limits, a_big_tokenizer_takes_memory_in_proportion);
    suite_add_tcase(s, limits);
    return s;
}
