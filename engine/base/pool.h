/*
 * pool.h - attn's one set of worker threads: the process's threading model.
 *
 * attn's threads own the cores. Every parallel piece of work (the fused
 * attention's phases, a large matrix product, a training step's products)
 * is a list of items that the pool's workers and the caller take from one
 * counter; BLAS runs single-threaded inside them and never starts threads
 * of its own, so no second set of threads spins for the cores beside attn's
 * (measured: OpenBLAS's idle threads, spinning after a product, halved the
 * fused path's rate at n = 512).
 *
 * Workers are started once, on first use, and sleep between jobs (a short
 * spin first, so the phases of one pass follow each other without a
 * wake-up). One job runs at a time: a pool_run called while another runs,
 * or from inside an item, runs its items on the caller alone. A fork()ed
 * child starts with no workers and makes its own.
 */
#ifndef ATTN_POOL_H
#define ATTN_POOL_H

#include <stddef.h>

/* One item of a job: fn(ctx, item, worker), worker in [0, threads). */
typedef void (*PoolFn)(void *ctx, int item, int worker);

/* Run items 0 .. items - 1 of fn on `threads` workers (the caller is
 * worker 0; threads <= 0: pool_threads()); returns once all are done. */
void pool_run(int threads, PoolFn fn, void *ctx, int items);

/* fn(ctx, lo, hi) over [0, count) in bands of `band` (the last shorter),
 * each band an item: an element-wise loop on the pool. */
typedef void (*PoolRangeFn)(void *ctx, size_t lo, size_t hi);
void pool_for(size_t count, size_t band, PoolRangeFn fn, void *ctx);

/* The threads parallel work uses unless told otherwise: the cores this
 * process may run on (one under taskset -c 0), or what pool_set_threads
 * set (n >= 1; 0 goes back to the cores). The cores are asked once. */
int pool_threads(void);
void pool_set_threads(int n);

/* Is this thread running an item of a job (so work it starts should not
 * be split again)? */
int pool_inside(void);

#endif
