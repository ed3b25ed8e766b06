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

/* vocab.json: each byte b as GPT-2's alphabet writes it -> b, and the merged
 * tokens 256.. */
static char *vocab_json(void)
{
    static char text[8192];
    int n = snprintf(text, sizeof text, "{");
    for (int b = 0; b < 256; b++) {
        unsigned cp = bpe_byte_char(b);
        char t[8];
        if (cp == '"' || cp == '\\')
            snprintf(t, sizeof t, "\\%c", (char)cp);
        else if (cp < 0x80)
            snprintf(t, sizeof t, "%c", (char)cp);
        else
            snprintf(t, sizeof t, "%c%c", (char)(0xc0 | cp >> 6), (char)(0x80 | (cp & 0x3f)));
        n += snprintf(text + n, sizeof text - (size_t)n, "%s\"%s\": %d", b ? ", " : "", t, b);
    }
    snprintf(text + n, sizeof text - (size_t)n,
             ", \"ll\": 256, \"he\": 257, \"hell\": 258, \"\xc4\xa0hell\": 259, \"'t\": 260}");
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

Suite *bpe_suite(void)
{
    Suite *s = suite_create("bpe");
    TCase *tc = tcase_create("bpe");
    tcase_add_test(tc, gpt2_pieces_and_merges);
    tcase_add_test(tc, a_tokenizer_that_lies_is_refused);
    suite_add_tcase(s, tc);
    return s;
}
