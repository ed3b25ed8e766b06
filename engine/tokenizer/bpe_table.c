/*
 * bpe_table.c - the tokenizer's hash tables (bpe_internal.h): strings to
 * ints, the keys' bytes in one block of the table's own, and pairs of ids
 * to their merge; open addressing, the one hash (hash.h), each doubled at three quarters
 * full. A 150,000-token vocabulary is two allocations, not 150,000.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "bpe_internal.h"
#include "hash.h"

static uint32_t hash_of(const char *s, size_t n)
{
    uint64_t wide = hash_fnv1a(HASH_START, s, n);
    uint32_t h = (uint32_t)(wide ^ (wide >> 32));
    /* mixed, so the low bits that pick the slot depend on every byte */
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    return h;
}

/* The slot of s (its key, or the empty one where it would go). */
static struct StrSlot *find(const Table *t, const char *s, size_t n, uint32_t h)
{
    for (size_t i = h & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
        struct StrSlot *sl = &t->slot[i];
        if (sl->val < 0 || (sl->hash == h && sl->len == n && memcmp(t->bytes + sl->off, s, n) == 0))
            return sl;
    }
}

int bpe_table_get(const Table *t, const char *s, size_t n)
{
    return t->cap ? find(t, s, n, hash_of(s, n))->val : -1;
}

/* Twice the slots, every key moved to its new place. 0, or -1. */
static int grow(Table *t)
{
    size_t cap = t->cap ? t->cap * 2 : 1024;
    struct StrSlot *slot = attn_malloc(cap * sizeof *slot);
    if (!slot)
        return -1;
    for (size_t i = 0; i < cap; i++)
        slot[i].val = -1;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slot[i].val >= 0) {
            size_t j = t->slot[i].hash & (cap - 1);
            while (slot[j].val >= 0)
                j = (j + 1) & (cap - 1);
            slot[j] = t->slot[i];
        }
    free(t->slot);
    t->slot = slot;
    t->cap = cap;
    return 0;
}

int bpe_table_put(Table *t, const char *s, size_t n, int v)
{
    if (v < 0 || n > UINT32_MAX || ((t->n + 1) * 4 > t->cap * 3 && grow(t) != 0))
        return -1;
    uint32_t h = hash_of(s, n);
    struct StrSlot *sl = find(t, s, n, h);
    if (sl->val >= 0) {
        sl->val = v;
        return 0;
    }
    if (!t->bytes || t->used + n > t->room) {
        size_t room = t->room ? t->room : 4096;
        while (t->used + n > room)
            room *= 2;
        char *bytes = room <= UINT32_MAX ? attn_realloc(t->bytes, room) : NULL;
        if (!bytes)
            return -1;
        t->bytes = bytes;
        t->room = room;
    }
    memcpy(t->bytes + t->used, s, n);
    *sl = (struct StrSlot){ (uint32_t)t->used, (uint32_t)n, h, v };
    t->used += n;
    t->n++;
    return 0;
}

void bpe_table_free(Table *t)
{
    free(t->slot);
    free(t->bytes);
    memset(t, 0, sizeof *t);
}

/* ---- pairs ---- */

static size_t pair_hash(uint64_t key)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return (size_t)key;
}

static struct PairSlot *pair_find(const PairTable *t, uint64_t key)
{
    for (size_t i = pair_hash(key) & (t->cap - 1);; i = (i + 1) & (t->cap - 1))
        if (t->slot[i].rank < 0 || t->slot[i].key == key)
            return &t->slot[i];
}

static uint64_t pair_key(int a, int b) { return (uint64_t)(uint32_t)a << 32 | (uint32_t)b; }

int bpe_pair_get(const PairTable *t, int a, int b, int *rank, int *id)
{
    const struct PairSlot *sl = t->cap ? pair_find(t, pair_key(a, b)) : NULL;
    *rank = sl ? sl->rank : -1;
    *id = sl ? sl->id : -1;
    return *rank >= 0;
}

int bpe_pair_put(PairTable *t, int a, int b, int rank, int id)
{
    if ((t->n + 1) * 4 > t->cap * 3) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        struct PairSlot *slot = attn_malloc(cap * sizeof *slot);
        if (!slot)
            return -1;
        for (size_t i = 0; i < cap; i++)
            slot[i].rank = -1;
        PairTable g = { slot, cap, 0 };
        for (size_t i = 0; i < t->cap; i++)
            if (t->slot[i].rank >= 0)
                *pair_find(&g, t->slot[i].key) = t->slot[i];
        free(t->slot);
        t->slot = slot;
        t->cap = cap;
    }
    struct PairSlot *sl = pair_find(t, pair_key(a, b));
    if (sl->rank < 0)
        t->n++;
    *sl = (struct PairSlot){ pair_key(a, b), rank, id };
    return 0;
}

void bpe_pair_free(PairTable *t)
{
    free(t->slot);
    memset(t, 0, sizeof *t);
}
