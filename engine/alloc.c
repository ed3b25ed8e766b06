/*
 * alloc.c - the engine's allocator (alloc.h): the C library's, with a
 * counter that a test can set to make allocations fail from a given one on.
 */
#include "alloc.h"

#include <stdlib.h>

static long allowed = -1;   /* allocations left before failing; < 0: never fail */
static long refused;

/* 1 when this allocation may go ahead (and counts it). */
static int may_allocate(void)
{
    if (allowed < 0)
        return 1;
    if (allowed == 0) {
        refused++;
        return 0;
    }
    allowed--;
    return 1;
}

void *attn_malloc(size_t size)
{
    return may_allocate() ? malloc(size) : NULL;
}

void *attn_calloc(size_t n, size_t size)
{
    return may_allocate() ? calloc(n, size) : NULL;
}

void *attn_realloc(void *p, size_t size)
{
    return may_allocate() ? realloc(p, size) : NULL;
}

void attn_alloc_fail_after(long n)
{
    allowed = n;
    refused = 0;
}

long attn_alloc_refused(void)
{
    return refused;
}
