/*
 * alloc.h - the engine's allocator: malloc, calloc and realloc behind one
 * door, so a test can make allocation fail and prove that every failure in
 * the engine and the lesson language comes back as ATTN_E_NOMEM (or a
 * refusal naming it), never a crash, an abort or a leak.
 *
 * Memory from these functions is released with free(), as usual.
 */
#ifndef ATTN_ALLOC_H
#define ATTN_ALLOC_H

#include <stddef.h>

/* As malloc / calloc / realloc, but failing (NULL; realloc leaves p as it
 * was) once the test hook below says so. */
void *attn_malloc(size_t size);
void *attn_calloc(size_t n, size_t size);
void *attn_realloc(void *p, size_t size);

/* Test hook: let n more allocations succeed, then fail every one until the
 * hook is called again; n < 0 (the default) never fails. Not thread-safe:
 * for single-threaded tests only. */
void attn_alloc_fail_after(long n);

/* How many allocations the hook has refused since it was last set. */
long attn_alloc_refused(void);

/* Test hook: call fn(size, ctx) for every allocation that succeeds (calloc
 * reports n * size), so a test can see how large the engine's buffers are;
 * fn NULL stops it. Not thread-safe, like the hook above. */
typedef void (*AttnAllocObserver)(size_t size, void *ctx);
void attn_alloc_observe(AttnAllocObserver fn, void *ctx);

#endif
