/*
 * bench.h - `attn bench`: the cost of attention on this machine. Times the
 * fused path (engine/attention/attention.h), the naive path that materializes each
 * head's n x n matrix (bench_naive.h) and a same-run sgemm of n x d x d, and
 * prints medians, spreads, GFLOP/s, memory and the largest difference, as
 * text or JSON. `attn bench --sweep` grows n and draws time against n.
 */
#ifndef ATTN_BENCH_H
#define ATTN_BENCH_H

/* argv[0] is "bench". Returns the exit status: 0, or 2 on a usage error
 * (the message on stderr) or when the inputs cannot be allocated. */
int cli_bench(int argc, char **argv);

#endif
