/*
 * alloc.c - the engine's allocator (alloc.h): the C library's, with a
 * counter that a test can set to make allocations fail from a given one on,
 * and an observer that a test can set to see the size of each allocation.
 */
#include "alloc.h"

#include <stdlib.h>

static long allowed = -1;   /* allocations left before failing; < 0: never fail */
static long refused;
static AttnAllocObserver observer;
static void *observer_ctx;

/* Tell the observer about a successful allocation; returns p. */
static void *seen(void *p, size_t size)
{
    if (p && observer)
        observer(size, observer_ctx);
    return p;
}

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
    return may_allocate() ? seen(malloc(size), size) : NULL;
}

void *attn_calloc(size_t n, size_t size)
{
    return may_allocate() ? seen(calloc(n, size), n * size) : NULL;
}

void *attn_realloc(void *p, size_t size)
{
    return may_allocate() ? seen(realloc(p, size), size) : NULL;
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

void attn_alloc_observe(AttnAllocObserver fn, void *ctx)
{
    observer = fn;
    observer_ctx = ctx;
}
