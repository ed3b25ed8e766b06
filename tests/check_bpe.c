/*
 * check_bpe.c - GPT-2's byte-level BPE (engine/model/bpe.c) on a
 * vocabulary of the 256 bytes and five merges, every expectation worked by
 * hand from GPT-2's algorithm: the pre-tokenizer's pieces (a capital that
 * does not merge, contractions, digits with their space, runs of spaces,
 * newlines, accents as two bytes, a byte that is not UTF-8), the merges
 * applied lowest rank first; and a tokenizer that lies refused with where.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpe.h"
#include "testutil.h"

/* vocab.json: each byte b as GPT-2's alphabet writes it -> b, and the merged
 * tokens 256.. */
static char *vocab_json(void)
{
    static char text[8192];
    snprintf(text, sizeof text, "{%s, \"ll\": 256, \"he\": 257, \"hell\": 258, \"\xc4\xa0hell\": 259, \"'t\": 260}",
             byte_tokens_json());
    return text;
}

static const char *merges = "#version: 0.2\nl l\nh e\nhe ll\n\xc4\xa0 hell\n' t\n";

static void encodes(const Bpe *b, const char *text, const int *want, int n_want)
{
    int ids[64];
    AttnError err = { 0 };
    int n = bpe_encode(b, text, strlen(text), ids, 64, &err);
    ck_assert_msg(n == n_want, "\"%s\": %d tokens (%s), want %d", text, n, err.msg, n_want);
    for (int i = 0; i < n; i++)
        ck_assert_msg(ids[i] == want[i], "\"%s\": token %d is %d, want %d", text, i + 1, ids[i], want[i]);
}

START_TEST(gpt2_pieces_and_merges)
{
    AttnError err = { 0 };
    Bpe *b = bpe_open(vocab_json(), merges, strlen(merges), 261, &err);
    ck_assert_msg(b != NULL, "%s", err.msg);
    /* "Hello" keeps its capital (h e does not merge H e); " hello" merges
     * all the way to "Ġhell" */
    encodes(b, "Hello, hello!", (int[]){ 72, 101, 256, 111, 44, 259, 111, 33 }, 8);
    encodes(b, "don't", (int[]){ 100, 111, 110, 260 }, 4);
    encodes(b, " 2024", (int[]){ 32, 50, 48, 50, 52 }, 5);
    encodes(b, "a  b", (int[]){ 97, 32, 32, 98 }, 4);        /* "a", " ", " b" */
    encodes(b, "x\n\ny", (int[]){ 120, 10, 10, 121 }, 4);     /* "x", "\n", "\n", "y" */
    encodes(b, "\xc3\xa9", (int[]){ 195, 169 }, 2);         /* é: its two bytes */
    encodes(b, "a\xff", (int[]){ 97, 255 }, 2);             /* not UTF-8: the byte itself */
    /* more tokens than room */
    int ids[3];
    ck_assert_int_eq(bpe_encode(b, "abcdef", 6, ids, 3, &err), -1);
    ck_assert_str_eq(err.msg, "the text makes more than 3 tokens");
    bpe_free(b);
}
END_TEST

static void refused(const char *vocab, const char *m, int size, const char *want)
{
    AttnError err = { 0 };
    Bpe *b = bpe_open(vocab, m, strlen(m), size, &err);
    ck_assert_msg(b == NULL, "accepted");
    ck_assert_str_eq(err.msg, want);
}

START_TEST(a_tokenizer_that_lies_is_refused)
{
    refused("not json", merges, 261, "vocab.json is not JSON: JSON: expected a value at offset 0");
    refused("[1]", merges, 261, "vocab.json is not an object of token -> id");
    refused("{\"a\": 7}", "", 5, "vocab.json: the id of token a is not one of 0 to 4");
    refused(vocab_json(), "#version: 0.2\nl l\nq\n", 261, "merges.txt line 3 is not two tokens separated by one space");
    refused(vocab_json(), "l zz\n", 261, "merges.txt line 1: \"l zz\" names a token the vocabulary lacks");
    refused(vocab_json(), "a b\n", 261, "merges.txt line 1: \"a b\" makes a token the vocabulary lacks");
}
END_TEST

/* tokenizer.json around the same vocabulary (with "20" and an added
 * token), its merges and pre-tokenizer as given. A new string. */
static char *tokenizer_json(const char *merges_json, const char *pre, const char *norm, const char *model_extra)
{
    static char text[16384];
    const char *v = vocab_json();
    snprintf(text, sizeof text,
             "{\"version\": \"1.0\", \"added_tokens\": [{\"id\": 262, \"content\": \"<|endoftext|>\", \"special\": true}], "
             "\"normalizer\": %s, \"pre_tokenizer\": %s, "
             "\"model\": {\"type\": \"BPE\", %s\"vocab\": %.*s, \"20\": 261}, \"merges\": %s}}",
             norm, pre, model_extra, (int)strlen(v) - 1, v, merges_json);
    return text;
}

static const char *merge_strings = "[\"l l\", \"h e\", \"he ll\", \"\xc4\xa0 hell\", \"' t\", \"2 0\"]";
static const char *merge_pairs = "[[\"l\", \"l\"], [\"h\", \"e\"], [\"he\", \"ll\"], [\"\xc4\xa0\", \"hell\"], "
                                 "[\"'\", \"t\"], [\"2\", \"0\"]]";
/* Qwen2's pattern, as its tokenizer.json writes it */
static const char *qwen_split = "{\"type\": \"Sequence\", \"pretokenizers\": [{\"type\": \"Split\", \"pattern\": {\"Regex\": "
    "\"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\\\r\\\\n\\\\p{L}\\\\p{N}]?\\\\p{L}+|\\\\p{N}| ?[^\\\\s\\\\p{L}\\\\p{N}]+[\\\\r\\\\n]*|"
    "\\\\s*[\\\\r\\\\n]+|\\\\s+(?!\\\\S)|\\\\s+\"}, \"behavior\": \"Isolated\", \"invert\": false}, "
    "{\"type\": \"ByteLevel\", \"add_prefix_space\": false, \"trim_offsets\": false, \"use_regex\": false}]}";

START_TEST(tokenizer_json_as_the_file_says)
{
    AttnError err = { 0 };
    /* ByteLevel (GPT-2's pattern), merges as strings: as vocab.json + merges.txt */
    Bpe *b = bpe_open_json(tokenizer_json(merge_strings, "{\"type\": \"ByteLevel\", \"add_prefix_space\": false}",
                                          "null", ""), 263, &err);
    ck_assert_msg(b != NULL, "%s", err.msg);
    encodes(b, "Hello, hello!", (int[]){ 72, 101, 256, 111, 44, 259, 111, 33 }, 8);
    encodes(b, " 2024", (int[]){ 32, 261, 50, 52 }, 4);            /* one piece: "2 0" merges */
    encodes(b, "hi<|endoftext|>hi", (int[]){ 104, 105, 262, 104, 105 }, 5);
    bpe_free(b);
    /* Qwen2's Split then ByteLevel without its own pattern, merges as pairs:
     * digits are pieces of their own, so "2 0" never meets */
    b = bpe_open_json(tokenizer_json(merge_pairs, qwen_split, "{\"type\": \"NFC\"}", ""), 263, &err);
    ck_assert_msg(b != NULL, "%s", err.msg);
    encodes(b, " 2024", (int[]){ 32, 50, 48, 50, 52 }, 5);
    encodes(b, "Hello, hello!", (int[]){ 72, 101, 256, 111, 44, 259, 111, 33 }, 8);
    int ids[8];
    ck_assert_int_eq(bpe_encode(b, "caf\xc3\xa9", 5, ids, 8, &err), -1);   /* NFC: ASCII only */
    ck_assert_str_eq(err.msg, "the tokenizer normalizes the text to NFC, which attn does only for ASCII text: byte 4 "
                              "is not ASCII");
    bpe_free(b);
    /* Digits, one by one, then GPT-2's pattern; a space before the text */
    b = bpe_open_json(tokenizer_json(merge_strings, "{\"type\": \"Sequence\", \"pretokenizers\": [{\"type\": \"Digits\", "
                                     "\"individual_digits\": true}, {\"type\": \"ByteLevel\", \"add_prefix_space\": true}]}",
                                     "null", ""), 263, &err);
    ck_assert_msg(b != NULL, "%s", err.msg);
    encodes(b, "hello", (int[]){ 259, 111 }, 2);                      /* " hello": Ġhell o */
    encodes(b, "2024", (int[]){ 32, 50, 48, 50, 52 }, 5);
    bpe_free(b);
}
END_TEST

static void json_refused(const char *json, const char *want)
{
    AttnError err = { 0 };
    Bpe *b = bpe_open_json(json, 263, &err);
    ck_assert_msg(b == NULL, "accepted");
    ck_assert_str_eq(err.msg, want);
}

START_TEST(tokenizer_json_that_attn_cannot_read_says_what)
{
    json_refused("{\"model\": {\"type\": \"WordPiece\"}}", "tokenizer.json: the model WordPiece is not a BPE attn reads");
    json_refused(tokenizer_json(merge_strings, "null", "null", "\"byte_fallback\": true, "),
                 "tokenizer.json: a BPE with byte fallback (SentencePiece's) is not read yet");
    json_refused(tokenizer_json(merge_strings, "null", "{\"type\": \"Lowercase\"}", ""),
                 "tokenizer.json: the normalizer Lowercase is not one attn reads yet");
    json_refused(tokenizer_json(merge_strings, "{\"type\": \"Metaspace\"}", "null", ""),
                 "tokenizer.json: the pre-tokenizer Metaspace is not one attn reads yet (it reads ByteLevel, Split, "
                 "Digits and a Sequence of them)");
    json_refused(tokenizer_json("[\"l zz\"]", "null", "null", ""),
                 "tokenizer.json: merge 1: \"l zz\" names a token the vocabulary lacks");
    json_refused(tokenizer_json("[7]", "null", "null", ""),
                 "tokenizer.json: merge 1 is neither \"a b\" nor [\"a\", \"b\"]");
}
END_TEST

Suite *bpe_suite(void)
{
    Suite *s = suite_create("bpe");
    TCase *tc = tcase_create("bpe");
    tcase_add_test(tc, gpt2_pieces_and_merges);
    tcase_add_test(tc, a_tokenizer_that_lies_is_refused);
    tcase_add_test(tc, tokenizer_json_as_the_file_says);
    tcase_add_test(tc, tokenizer_json_that_attn_cannot_read_says_what);
    suite_add_tcase(s, tc);
    return s;
}
