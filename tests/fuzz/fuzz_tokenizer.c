/*
 * fuzz_tokenizer.c - libFuzzer target for the tokenizer (engine/tokenizer/:
 * its readers, its patterns, its encoder): any tokenizer.json, or any vocab.json
 * and merges.txt (split at the first NUL byte), ends in a tokenizer or a
 * refusal that says why, never a crash, a leak or undefined behaviour
 * (ASan + UBSan); a tokenizer made encodes texts (ASCII, accents, digits,
 * spaces, a byte that is not UTF-8) to ids within the vocabulary, or says
 * why not. Built and run by `make fuzz`; seeds in tests/fuzz/tokenizer.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bpe.h"

#define VOCAB 400

static void encode_all(const Bpe *b)
{
    static const char *const texts[] = { "Hello, world! 2024", "caf\xc3\xa9 na\xc3\xafve", "  a\n\tb  ", "x\xffy",
                                         "\xe2\x96\x81hello", "<s>hi</s>", "" };
    for (size_t t = 0; t < sizeof texts / sizeof *texts; t++) {
        int ids[64];
        AttnError err = { 0 };
        int n = bpe_encode(b, texts[t], strlen(texts[t]), ids, 64, &err);
        if (n < 0 && !err.msg[0])
            abort();
        for (int i = 0; i < n; i++)
            if (ids[i] < 0 || ids[i] >= VOCAB || !bpe_token_text(b, ids[i]))
                abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    AttnError err = { 0 };
    /* a NUL byte parts vocab.json from merges.txt; none: a tokenizer.json */
    const uint8_t *nul = memchr(data, 0, size);
    size_t cut = nul ? (size_t)(nul - data) : size;
    Bpe *b = nul ? bpe_open(text, text + cut + 1, size - cut - 1, VOCAB, &err) : bpe_open_json(text, VOCAB, &err);
    if (!b && !err.msg[0])
        abort();
    if (b)
        encode_all(b);
    bpe_free(b);
    free(text);
    return 0;
}
