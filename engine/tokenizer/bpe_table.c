/*
 * bpe_table.c - the tokenizer's tables of strings (a vocabulary, the
 * merges' ranks): open addressing, FNV-1a, the keys owned.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "bpe_internal.h"

static uint64_t hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

int bpe_table_get(const Table *t, const char *s, size_t n)
{
    if (!t->cap)
        return -1;
    for (size_t i = hash(s, n) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        if (!t->keys[i])
            return -1;
        if (strlen(t->keys[i]) == n && memcmp(t->keys[i], s, n) == 0)
            return t->vals[i];
    }
}

/* Put s -> v (a key already there keeps its first value). 0, or -1 on no memory. */
int bpe_table_put(Table *t, const char *s, size_t n, int v)
{
    if ((t->n + 1) * 2 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        Table g = { attn_calloc(cap, sizeof *g.keys), attn_calloc(cap, sizeof *g.vals), cap, 0 };
        if (!g.keys || !g.vals) {
            free(g.keys);
            free(g.vals);
            return -1;
        }
        for (size_t i = 0; i < t->cap; i++)
            if (t->keys[i]) {
                size_t j = hash(t->keys[i], strlen(t->keys[i])) & (cap - 1);
                while (g.keys[j])
                    j = (j + 1) & (cap - 1);
                g.keys[j] = t->keys[i];
                g.vals[j] = t->vals[i];
                g.n++;
            }
        free(t->keys);
        free(t->vals);
        *t = g;
    }
    size_t i = hash(s, n) & (t->cap - 1);
    while (t->keys[i]) {
        if (strlen(t->keys[i]) == n && memcmp(t->keys[i], s, n) == 0)
            return 0;
        i = (i + 1) & (t->cap - 1);
    }
    char *k = attn_malloc(n + 1);
    if (!k)
        return -1;
    memcpy(k, s, n);
    k[n] = '\0';
    t->keys[i] = k;
    t->vals[i] = v;
    t->n++;
    return 0;
}

void bpe_table_free(Table *t)
{
    for (size_t i = 0; i < t->cap; i++)
        free(t->keys[i]);
    free(t->keys);
    free(t->vals);
    memset(t, 0, sizeof *t);
}

