/*
 * bench_sweep.c - `attn bench --sweep`: not written yet.
 */
#include <stdio.h>

#include "bench_internal.h"

int bench_sweep(const BenchOpts *o)
{
    (void)o;
    fputs("attn bench: --sweep is not available yet\n", stderr);
    return 2;
}
