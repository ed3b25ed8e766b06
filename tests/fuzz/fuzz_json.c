/*
 * fuzz_json.c - libFuzzer target for the JSON reader's memory
 * (engine/io/json_read.c): any bytes end in a tree or a refusal, and the
 * most the reader holds at once while it reads them (every block it asks
 * for, counted by the sanitizer's allocation hooks, a realloc's old and new
 * block both) is at most 64 times the input and 64 KB: a small constant
 * times the document, where each string was once given the whole rest of
 * it (401 MB for an 800 KB header). Built and run by `make fuzz`; seeds in
 * tests/fuzz/json.
 */
#include <sanitizer/allocator_interface.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"

static int counting;
static size_t live, peak;

static void on_malloc(const volatile void *p, size_t size)
{
    (void)p;
    if (counting && (live += size) > peak)
        peak = live;
}

static void on_free(const volatile void *p)
{
    if (counting && p) {
        size_t size = __sanitizer_get_allocated_size((const void *)p);
        live = size < live ? live - size : 0;
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    JVal root;
    char why[160];
    live = peak = 0;
    counting = 1;
    int rc = json_parse(text, &root, why, sizeof why);
    counting = 0;
    if (peak > 64 * size + 65536)
        abort();    /* more memory than the document warrants */
    if (rc != 0 && !why[0])
        abort();
    if (rc == 0)
        json_free(&root);
    free(text);
    return 0;
}
