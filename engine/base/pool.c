/*
 * pool.c - attn's worker threads (pool.h).
 *
 * A job is published by bumping a generation number; every started helper
 * acknowledges every job (those past the job's thread count take no items),
 * so no helper can miss one, and the caller waits until all have. Helpers
 * spin a little after a job, then sleep on a condition variable; the caller
 * likewise spins, then sleeps, for the last helper to finish. Helpers block
 * every signal: SIGINT and SIGWINCH reach the thread that handles them.
 */
#define _GNU_SOURCE         /* sched_getaffinity, CPU_COUNT */
#include "pool.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <unistd.h>

#define POOL_MAX 64
/* Polling before a thread sleeps, about 100 microseconds on the Zen 4 it
 * was timed on: long enough for the next phase of a pass to arrive, short
 * enough that an idle pool takes no core from anyone. */
#define SPIN_ROUNDS 4000

static pthread_mutex_t run_lock = PTHREAD_MUTEX_INITIALIZER;   /* one job at a time */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER, done = PTHREAD_COND_INITIALIZER;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

static int started;                 /* helpers running: workers 1 .. started   */
static atomic_ulong generation;     /* bumped to publish a job                 */
static atomic_int pending;          /* helpers yet to acknowledge the job      */
static atomic_int next_item;
static PoolFn job_fn;
static void *job_ctx;
static int job_items, job_threads;
static int set_threads;             /* pool_set_threads; 0: the cores          */
static unsigned long born_at[POOL_MAX];    /* the generation a helper starts after */
static _Thread_local int inside;

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void take_items(int worker)
{
    int item;
    while ((item = atomic_fetch_add(&next_item, 1)) < job_items)
        job_fn(job_ctx, item, worker);
}

static void *helper(void *arg)
{
    int worker = (int)(long)arg;
    unsigned long seen = born_at[worker];
    inside = 1;
    for (;;) {
        for (int r = 0; r < SPIN_ROUNDS && atomic_load(&generation) == seen; r++)
            cpu_relax();
        if (atomic_load(&generation) == seen) {
            pthread_mutex_lock(&lock);
            while (atomic_load(&generation) == seen)
                pthread_cond_wait(&wake, &lock);
            pthread_mutex_unlock(&lock);
        }
        seen = atomic_load(&generation);
        if (worker < job_threads)
            take_items(worker);
        if (atomic_fetch_sub(&pending, 1) == 1) {
            pthread_mutex_lock(&lock);
            pthread_cond_signal(&done);
            pthread_mutex_unlock(&lock);
        }
    }
    return NULL;
}

/* A forked child has none of its parent's helpers (and its locks may have
 * been held by one): it starts afresh. */
static void after_fork_child(void)
{
    started = 0;
    pthread_mutex_init(&run_lock, NULL);
    pthread_mutex_init(&lock, NULL);
    pthread_cond_init(&wake, NULL);
    pthread_cond_init(&done, NULL);
}

static void register_fork(void)
{
    pthread_atfork(NULL, NULL, after_fork_child);
}

/* Helpers up to `want` (run_lock held); returns how many there are. */
static int start_helpers(int want)
{
    if (started >= want)    /* every job but the first: nothing to start */
        return started;
    pthread_once(&fork_once, register_fork);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    while (started < want) {
        pthread_t tid;
        /* the job being published is the first a new helper takes */
        born_at[started + 1] = atomic_load(&generation);
        if (pthread_create(&tid, NULL, helper, (void *)(long)(started + 1)) != 0)
            break;          /* fewer workers: the items still all get done */
        pthread_detach(tid);
        started++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return started;
}

void pool_run(int threads, PoolFn fn, void *ctx, int items)
{
    if (threads <= 0)
        threads = pool_threads();
    if (threads > POOL_MAX)
        threads = POOL_MAX;
    if (items <= 0)
        return;
    if (threads == 1 || items == 1 || inside || pthread_mutex_trylock(&run_lock) != 0) {
        int was = inside;
        inside = 1;         /* one thread was asked for: its products stay whole */
        for (int i = 0; i < items; i++)
            fn(ctx, i, 0);
        inside = was;
        return;
    }
    int helpers = start_helpers(threads - 1);
    job_fn = fn;
    job_ctx = ctx;
    job_items = items;
    job_threads = threads < helpers + 1 ? threads : helpers + 1;
    atomic_store(&next_item, 0);
    atomic_store(&pending, helpers);
    pthread_mutex_lock(&lock);
    atomic_fetch_add(&generation, 1);
    pthread_cond_broadcast(&wake);
    pthread_mutex_unlock(&lock);
    inside = 1;
    take_items(0);
    inside = 0;
    for (int r = 0; r < SPIN_ROUNDS && atomic_load(&pending) > 0; r++)
        cpu_relax();
    if (atomic_load(&pending) > 0) {
        pthread_mutex_lock(&lock);
        while (atomic_load(&pending) > 0)
            pthread_cond_wait(&done, &lock);
        pthread_mutex_unlock(&lock);
    }
    pthread_mutex_unlock(&run_lock);
}

typedef struct {
    PoolRangeFn fn;
    void *ctx;
    size_t count, band;
} Bands;

static void one_band(void *ctx, int item, int worker)
{
    (void)worker;
    const Bands *b = ctx;
    size_t lo = (size_t)item * b->band, hi = b->count - lo < b->band ? b->count : lo + b->band;
    b->fn(b->ctx, lo, hi);
}

void pool_for(size_t count, size_t band, PoolRangeFn fn, void *ctx)
{
    if (count == 0)
        return;
    if (band < 1)
        band = 1;
    Bands b = { fn, ctx, count, band };
    pool_run(0, one_band, &b, (int)((count + band - 1) / band));
}

/* The cores this process may run on, asked once: every product asks for
 * the pool's threads, and a system call each time was not needed. */
static int n_cores;
static pthread_once_t cores_once = PTHREAD_ONCE_INIT;

static void count_cores(void)
{
    cpu_set_t set;
    long n = sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0 ? CPU_COUNT(&set)
                                                                               : sysconf(_SC_NPROCESSORS_ONLN);
    n_cores = n < 1 ? 1 : n > POOL_MAX ? POOL_MAX : (int)n;
}

int pool_threads(void)
{
    if (set_threads > 0)
        return set_threads;
    pthread_once(&cores_once, count_cores);
    return n_cores;
}

void pool_set_threads(int n)
{
    set_threads = n < 0 ? 0 : n > POOL_MAX ? POOL_MAX : n;
}

int pool_inside(void)
{
    return inside;
}
