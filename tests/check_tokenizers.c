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
#include "tiny_model.h"

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
 * every other Split behaviour, added tokens that take the white space
 * around them or stand alone (lstrip, rstrip, single_word). */
static const char *const layouts[][2] = {
    { "gpt2", "gpt2" },           { "gpt2-files", "gpt2" }, { "llama2", "llama2" },
    { "llama3", "llama3" },       { "qwen3", "qwen3" },     { "deepseek_v3", "deepseek_v3" },
    { "gemma3", "gemma3" },       { "gpt4o", "gpt4o" },     { "metaspace", "metaspace" },
    { "splits", "splits" },       { "stripped", "stripped" },
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
    const char *negated = BYTES_AFTER("{\"type\": \"Split\", \"pattern\": {\"Regex\": \"[\\\\S]\"}, "
                                      "\"behavior\": \"Isolated\"}");
    ck_assert_ptr_null(bpe_open_json(bytes_json(negated, "null"), 256, &err));
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
        { "{\"type\": \"TemplateProcessing\", \"single\": {}}",
          "tokenizer.json: the template's single is an object, not a list" },
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
        { "{\"type\": \"Sequence\", \"pretokenizers\": [3]}",
          "tokenizer.json: the pre-tokenizer is a number, not an object" },
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
    ck_assert_ptr_null(bpe_open_json("{\"model\": {\"type\": \"BPE\", \"vocab\": {}, \"merges\": [], "
                                     "\"ignore_merges\": 1}}", 256, &err));
    ck_assert_str_eq(err.msg, "tokenizer.json: the model's ignore_merges is a number, not true or false");
    ck_assert_ptr_null(bpe_open_json("{\"model\": {\"type\": \"BPE\", \"vocab\": {}, \"merges\": [], "
                                     "\"dropout\": 0.1}}", 256, &err));
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
            n += (size_t)snprintf(json + n, cap - n, "%s\"%.*s %c\"", id > 256 ? ", " : "", len - 1, word,
                                  word[len - 1]);
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
        ck_assert_msg(kb * 1024 <= 8 * (long)n, "a tokenizer.json of %zu bytes raised the peak by %ld KB (%.1f "
                      "times it)", n, kb, kb * 1024.0 / (double)n);
    free(json);
}
END_TEST

/* Line `line` (from 1) of LAYOUT.ids. A new string. */
static char *reference_line(const char *layout, int line)
{
    char path[256];
    snprintf(path, sizeof path, "tests/reference/tokenizers/%s.ids", layout);
    char *all = slurp(path), *p = all;
    ck_assert_ptr_nonnull(all);
    for (int i = 1; i < line; i++)
        p = strchr(p, '\n') + 1;
    char *end = strchr(p, '\n'), *out = strndup(p, (size_t)(end - p));
    free(all);
    return out;
}

/* `attn model PATH --tokenize FILE` prints the reference's ids of a file,
 * one line of them, or --json's count and ids; a whole file, past the
 * 4,096 tokens a text once stopped at; only config.json and the tokenizer
 * read (the fixtures' folders have no weights). */
START_TEST(tokenize_prints_the_ids_of_a_whole_file)
{
    char *corpus_text = slurp(DATA "corpus.json");
    JVal corpus;
    char why[160];
    ck_assert_msg(json_parse(corpus_text, &corpus, why, sizeof why) == 0, "%s", why);
    static const int texts[] = { 6, 60, 150, 200, 300, 410 };
    for (size_t k = 0; k < sizeof texts / sizeof *texts; k++) {
        const char *file = write_temp(".txt", corpus.items[texts[k] - 1].str);
        char *want = reference_line("gemma3", texts[k]);
        CmdResult r = cmd_runf("%s model " DATA "gemma3 --tokenize %s", attn_bin(), file);
        ck_assert_msg(r.status == 0, "%s", r.err);
        ck_assert_msg(strlen(r.out) == strlen(want) + 1 && strncmp(r.out, want, strlen(want)) == 0,
                      "text %d: %s, the reference's %s", texts[k], r.out, want);
        cmd_free(&r);
        free(want);
    }
    /* --tokenize again: each file's line in turn, the tokenizer read once */
    char first[64], *want1 = reference_line("llama3", 20), *want2 = reference_line("llama3", 21);
    snprintf(first, sizeof first, "%s", write_temp(".txt", corpus.items[19].str));
    CmdResult two = cmd_runf("%s model " DATA "llama3 --tokenize %s --tokenize %s", attn_bin(), first,
                             write_temp(".txt", corpus.items[20].str));
    char both[8192];
    snprintf(both, sizeof both, "%s\n%s\n", want1, want2);
    ck_assert_msg(two.status == 0, "%s", two.err);
    ck_assert_str_eq(two.out, both);
    cmd_free(&two);
    free(want1);
    free(want2);
    json_free(&corpus);
    free(corpus_text);
    /* 100 KB of Shakespeare: every token, as JSON */
    char *shakespeare = slurp("models/tinyshakespeare.txt");
    ck_assert_ptr_nonnull(shakespeare);
    shakespeare[100000] = '\0';
    const char *file = write_temp(".txt", shakespeare);
    free(shakespeare);
    CmdResult r = cmd_runf("%s model " DATA "qwen3 --tokenize %s --json", attn_bin(), file);
    ck_assert_msg(r.status == 0, "%s", r.err);
    JVal doc;
    ck_assert_msg(json_parse(r.out, &doc, why, sizeof why) == 0, "%s", why);
    const JVal *count = json_get(&doc, "count"), *ids = json_get(&doc, "ids");
    ck_assert_msg(count && ids && ids->type == J_ARR && (int)count->num == ids->n && ids->n > 4096, "%.200s", r.out);
    json_free(&doc);
    cmd_free(&r);
    r = cmd_runf("%s model " DATA "qwen3 --tokenize /nonexistent/text", attn_bin());
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err, "attn: /nonexistent/text: cannot open it: No such file or directory\n");
    cmd_free(&r);
    r = cmd_runf("%s model " DATA "qwen3 --tokenize %s --text hi", attn_bin(), file);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "attn: --tokenize FILE goes with --json alone\n"), "%s", r.err);
    cmd_free(&r);
}
END_TEST

/* --text is tokenized whole: 5,000 tokens on a model whose context holds
 * them (they once stopped at 4,096), and a text longer than the context is
 * refused by the context. */
START_TEST(a_text_is_refused_by_the_context_alone)
{
    char *dir = make_dir();
    make_llama_weights(&variants[0]);
    char config[1024], *tj = malloc(16384), *text = malloc(5001);
    static const char small[] = "\"max_position_embeddings\": 32";
    const char *ctx = strstr(variants[0].config, small);
    ck_assert_ptr_nonnull(ctx);
    snprintf(config, sizeof config, "%.*s\"max_position_embeddings\": 8192%s", (int)(ctx - variants[0].config),
             variants[0].config, ctx + strlen(small));
    write_text(dir, "config.json", config);
    write_safetensors(dir, 0, "", NULL, NULL);
    snprintf(tj, 16384, "{\"added_tokens\": [], \"normalizer\": null, \"pre_tokenizer\": {\"type\": \"ByteLevel\", "
             "\"add_prefix_space\": false}, \"model\": {\"type\": \"BPE\", \"vocab\": %s, \"merges\": []}}",
             vocab_text());
    write_text(dir, "tokenizer.json", tj);
    for (int i = 0; i < 5000; i++)
        text[i] = (char)('a' + i % 7);
    text[5000] = '\0';
    CmdResult r = cmd_runf("%s model %s --text %s --json", attn_bin(), dir, text);
    ck_assert_msg(r.status == 0, "%s", r.err);
    JVal doc;
    char why[160];
    ck_assert_msg(json_parse(r.out, &doc, why, sizeof why) == 0, "%s", why);
    const JVal *tokens = json_get(&doc, "tokens");
    ck_assert_msg(tokens && tokens->n == 5000, "%d tokens", tokens ? tokens->n : -1);
    json_free(&doc);
    cmd_free(&r);
    /* the same text on a context of 32 */
    write_text(dir, "config.json", variants[0].config);
    r = cmd_runf("%s model %s --text %s", attn_bin(), dir, text);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "attn: the text makes 5000 tokens, past the model's context of 32\n"), "%s", r.err);
    cmd_free(&r);
    free(text);
    free(tj);
    free_weights();
    remove_dir(dir);
}
END_TEST

/* attn bench --tokenizer reports a load and two encodings (the numbers
 * are measured, not asserted; what is asserted is what they are of). */
START_TEST(bench_tokenizer_reports_load_memory_and_encoding)
{
    CmdResult r = cmd_runf("%s bench --tokenizer " DATA "qwen3 --reps 1 --json", attn_bin());
    ck_assert_msg(r.status == 0, "%s", r.err);
    JVal doc;
    char why[160];
    ck_assert_msg(json_parse(r.out, &doc, why, sizeof why) == 0, "%s", why);
    size_t size;
    char *file = slurp_n(DATA "qwen3/tokenizer.json", &size);
    free(file);
    const JVal *bytes = json_get(&doc, "file_bytes"), *enc = json_get(&doc, "encode");
    ck_assert_msg(bytes && (size_t)bytes->num == size, "%s", r.out);
    ck_assert_msg(enc && enc->n == 2, "%s", r.out);
    ck_assert_int_eq((int)json_get(&enc->items[0], "bytes")->num, 100 * 1024);
    ck_assert_int_eq((int)json_get(&enc->items[1], "bytes")->num, 400 * 1024);
    ck_assert_int_gt((int)json_get(&enc->items[1], "tokens")->num, (int)json_get(&enc->items[0], "tokens")->num);
    for (const char *const *k = (const char *const[]){ "load_ms", "load_cpu_ms", "peak_kb", "ratio", NULL }; *k; k++)
        ck_assert_msg(json_get(&doc, *k) && json_get(&doc, *k)->type == J_NUM, "no %s: %s", *k, r.out);
    json_free(&doc);
    cmd_free(&r);
    r = cmd_runf("%s bench --tokenizer /nonexistent", attn_bin());
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err, "attn: /nonexistent: cannot open it: No such file or directory\n");
    cmd_free(&r);
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
    TCase *cmd = tcase_create("commands");
    tcase_set_timeout(cmd, 120);
    tcase_add_test(cmd, tokenize_prints_the_ids_of_a_whole_file);
    tcase_add_test(cmd, a_text_is_refused_by_the_context_alone);
    tcase_add_test(cmd, bench_tokenizer_reports_load_memory_and_encoding);
    suite_add_tcase(s, cmd);
    return s;
}
