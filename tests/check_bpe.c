/*
 * check_bpe.c - GPT-2's byte-level BPE (engine/tokenizer/bpe.c) on a
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
    /* NFC: "e" and a combining acute accent are the one character "é" */
    encodes(b, "cafe\xcc\x81", (int[]){ 99, 97, 102, 195, 169 }, 5);
    encodes(b, "caf\xc3\xa9", (int[]){ 99, 97, 102, 195, 169 }, 5);
    int ids[8];
    ck_assert_int_eq(bpe_encode(b, "caf\xff", 4, ids, 8, &err), -1);
    ck_assert_str_eq(err.msg, "the text is not UTF-8 at byte 4");
    bpe_free(b);
    /* without NFC the accent stays a character of its own */
    b = bpe_open_json(tokenizer_json(merge_pairs, qwen_split, "null", ""), 263, &err);
    encodes(b, "cafe\xcc\x81", (int[]){ 99, 97, 102, 101, 204, 129 }, 6);
    bpe_free(b);
    /* Digits, one by one, then GPT-2's pattern; a space before each piece
     * (ByteLevel's add_prefix_space is the pieces', as the reference,
     * tokenizers 0.23, gives: "2024" is " 2", " 0", " 2", " 4") */
    b = bpe_open_json(tokenizer_json(merge_strings, "{\"type\": \"Sequence\", \"pretokenizers\": [{\"type\": \"Digits\", "
                                     "\"individual_digits\": true}, {\"type\": \"ByteLevel\", \"add_prefix_space\": true}]}",
                                     "null", ""), 263, &err);
    ck_assert_msg(b != NULL, "%s", err.msg);
    encodes(b, "hello", (int[]){ 259, 111 }, 2);                      /* " hello": Ġhell o */
    encodes(b, "2024", (int[]){ 32, 50, 32, 48, 32, 50, 32, 52 }, 8);
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
    json_refused(tokenizer_json(merge_strings, "null", "{\"type\": \"Lowercase\"}", ""),
                 "tokenizer.json: the normalizer Lowercase is not one attn reads (it reads NFC, NFD, NFKC, NFKD, "
                 "Prepend, Replace and a Sequence of them)");
    json_refused(tokenizer_json(merge_strings, "{\"type\": \"WhitespaceSplit\"}", "null", ""),
                 "tokenizer.json: the pre-tokenizer WhitespaceSplit is not one attn reads yet (it reads ByteLevel, "
                 "Split, Digits, Metaspace and a Sequence of them)");
    json_refused(tokenizer_json(merge_strings, "{\"type\": \"Metaspace\", \"replacement\": \"__\"}", "null", ""),
                 "tokenizer.json: Metaspace's replacement is not one character");
    json_refused(tokenizer_json(merge_strings, "{\"type\": \"Metaspace\", \"prepend_scheme\": \"sometimes\"}",
                                "null", ""),
                 "tokenizer.json: Metaspace's prepend_scheme sometimes is not first, always or never");
    json_refused(tokenizer_json(merge_strings, "null", "null", "\"unk_token\": \"<unk>\", "),
                 "tokenizer.json: the unknown token <unk> is not in the vocabulary");
    json_refused(tokenizer_json("[\"l zz\"]", "null", "null", ""),
                 "tokenizer.json: merge 1: \"l zz\" names a token the vocabulary lacks");
    json_refused(tokenizer_json("[7]", "null", "null", ""),
                 "tokenizer.json: merge 1 is neither \"a b\" nor [\"a\", \"b\"]");
}
END_TEST

/* SentencePiece's BPE, as Llama 2 and TinyLlama's tokenizer.json write
 * it: the text's characters (not bytes) merged, each space "▁" and one
 * before the text, a character the vocabulary lacks as its bytes' tokens
 * (byte fallback), <s> before the text by the post-processor's template;
 * worked by hand: "hello é" is ▁hello ▁ <0xC3> <0xA9>. */
static char *sentencepiece_json(const char *norm, const char *pre, const char *post)
{
    static char text[16384];
    int n = snprintf(text, sizeof text, "{\"added_tokens\": [{\"id\": 0, \"content\": \"<unk>\"}, {\"id\": 1, "
                     "\"content\": \"<s>\"}, {\"id\": 2, \"content\": \"</s>\"}], \"normalizer\": %s, "
                     "\"pre_tokenizer\": %s, \"post_processor\": %s, \"model\": {\"type\": \"BPE\", "
                     "\"unk_token\": \"<unk>\", \"fuse_unk\": true, \"byte_fallback\": true, \"vocab\": "
                     "{\"<unk>\": 0, \"<s>\": 1, \"</s>\": 2", norm, pre, post);
    for (int i = 0; i < 256; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, ", \"<0x%02X>\": %d", i, 3 + i);
    snprintf(text + n, sizeof text - (size_t)n, ", \"\xe2\x96\x81\": 259, \"h\": 260, \"e\": 261, \"l\": 262, "
             "\"o\": 263, \"\xe2\x96\x81h\": 264, \"ll\": 265, \"\xe2\x96\x81he\": 266, \"llo\": 267, "
             "\"\xe2\x96\x81hello\": 268}, \"merges\": [\"\xe2\x96\x81 h\", \"l l\", \"\xe2\x96\x81h e\", \"ll o\", "
             "\"\xe2\x96\x81he llo\"]}}");
    return text;
}

static const char *llama_norm = "{\"type\": \"Sequence\", \"normalizers\": [{\"type\": \"Prepend\", \"prepend\": "
                                "\"\xe2\x96\x81\"}, {\"type\": \"Replace\", \"pattern\": {\"String\": \" \"}, "
                                "\"content\": \"\xe2\x96\x81\"}]}";
static const char *bos_template = "{\"type\": \"TemplateProcessing\", \"single\": [{\"SpecialToken\": {\"id\": "
                                  "\"<s>\", \"type_id\": 0}}, {\"Sequence\": {\"id\": \"A\", \"type_id\": 0}}], "
                                  "\"special_tokens\": {\"<s>\": {\"id\": \"<s>\", \"ids\": [1], \"tokens\": [\"<s>\"]}}}";

START_TEST(sentencepiece_bpe_with_byte_fallback)
{
    AttnError err = { 0 };
    /* Llama 2's way: the normalizer prepends and replaces, no pre-tokenizer */
    Bpe *b = bpe_open_json(sentencepiece_json(llama_norm, "null", bos_template), 269, &err);
    ck_assert_msg(b != NULL, "%s", err.msg);
    encodes(b, "hello \xc3\xa9", (int[]){ 1, 268, 259, 3 + 0xc3, 3 + 0xa9 }, 5);
    encodes(b, "hell", (int[]){ 1, 266, 265 }, 3);        /* ▁he ll: "ll o" never meets */
    encodes(b, "hello</s>", (int[]){ 1, 268, 2 }, 3);     /* an added token as written */
    /* a token's text: "▁" a space, a byte's token its byte */
    ck_assert_str_eq(bpe_token_text(b, 268), " hello");
    ck_assert_str_eq(bpe_token_text(b, 3 + 'A'), "A");
    ck_assert_str_eq(bpe_token_text(b, 1), "<s>");
    bpe_free(b);
    /* the newer way: Metaspace, split before each "▁", no template */
    b = bpe_open_json(sentencepiece_json("null", "{\"type\": \"Metaspace\", \"replacement\": \"\xe2\x96\x81\", "
                                         "\"prepend_scheme\": \"first\", \"split\": true}", "null"), 269, &err);
    ck_assert_msg(b != NULL, "%s", err.msg);
    encodes(b, "hello hello", (int[]){ 268, 268 }, 2);
    encodes(b, " hello", (int[]){ 268 }, 1);              /* already "▁hello": nothing prepended */
    bpe_free(b);
    /* without byte fallback, an unknown character is <unk>, a run of them one */
    char *json = sentencepiece_json(llama_norm, "null", "null");
    char *fb = strstr(json, "\"byte_fallback\": true");
    memcpy(fb, "\"byte_fallback\":false", 21);  /* the same length, no NUL */
    b = bpe_open_json(json, 269, &err);
    ck_assert_msg(b != NULL, "%s", err.msg);
    encodes(b, "hello \xc3\xa9\xc3\xa9", (int[]){ 268, 259, 0 }, 3);
    bpe_free(b);
    /* a template's token that no one defines (the fuzzer's find) */
    char *lone = sentencepiece_json(llama_norm, "null", bos_template);
    memcpy(strstr(lone, "\"ids\": [1]"), "\"ids\": [9]", 10);
    memcpy(strstr(lone, "\"<0x06>\": 9"), "\"<0x06>\": 0", 11);     /* the byte 6 is not a token any more */
    ck_assert_ptr_null(bpe_open_json(lone, 269, &err));
    ck_assert_str_eq(err.msg, "tokenizer.json: the template's token 9 is neither in the vocabulary nor an added token");
    ck_assert_ptr_null(bpe_open_json(sentencepiece_json(llama_norm, "null", "{\"type\": \"RobertaProcessing\"}"),
                                     269, &err));
    ck_assert_str_eq(err.msg, "tokenizer.json: the post-processor RobertaProcessing is not one attn reads (it reads "
                              "ByteLevel, TemplateProcessing and a Sequence of them)");
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
    tcase_add_test(tc, sentencepiece_bpe_with_byte_fallback);
    suite_add_tcase(s, tc);
    return s;
}
