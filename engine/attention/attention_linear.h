/*
 * attention_linear.h - a model's linear layer on attn's kernels: y = x @ W
 * + b over the pool, W as a checkpoint holds it (float32 or BF16, (in, out)
 * as GPT-2's Conv1D or (out, in) as torch's nn.Linear), read where it is.
 *
 * BF16 weights are computed as BF16: the activations rounded to BF16 (to
 * nearest even), two products a lane in each instruction (vdpbf16ps) where
 * the CPU has AVX512_BF16, the sums in float32; elsewhere the portable
 * reference, the same numbers but for denormals. Float32 weights go
 * through attn's float32 kernels (attention_gemm.c). Nothing here prints.
 */
#ifndef ATTN_ATTENTION_LINEAR_H
#define ATTN_ATTENTION_LINEAR_H

#include <stdint.h>

#include "attention.h"

typedef enum { ATTN_DTYPE_F32, ATTN_DTYPE_BF16 } AttnDtype;

/* A weight matrix where the caller keeps it (a mapped checkpoint: never
 * copied, never freed here). */
typedef struct {
    const void *data;   /* float, or BF16 as uint16_t                         */
    AttnDtype dtype;
    int in, out;        /* y (m, out) = x (m, in) @ W                          */
    int ld;             /* elements from one stored row to the next            */
    int out_major;      /* stored (out, in): W^T, as torch's nn.Linear keeps it */
} AttnLinear;

/* y (m, w->out) at ldy = x (m, w->in) at ldx @ W + bias (w->out floats;
 * NULL: none), on the pool; y must not overlap x. ws holds the packed
 * activations and each worker's panel, grown as attention_forward_in
 * grows it. ATTN_E_ARG for a bad shape, ATTN_E_NOMEM without the
 * workspace. */
attn_status attention_linear(AttnWorkspace *ws, float *y, int ldy, const float *x, int ldx, int m, const AttnLinear *w,
                             const float *bias, AttnError *err);

/* The same adding: y += x @ W + bias (a residual stream's update), y
 * read as it is. */
attn_status attention_linear_add(AttnWorkspace *ws, float *y, int ldy, const float *x, int ldx, int m,
                                 const AttnLinear *w, const float *bias, AttnError *err);

/* The same at a chosen instruction set, for tests and benchmarks:
 * ATTN_ISA_AVX512 (for BF16: vdpbf16ps, refused unless
 * attention_bf16_supported), ATTN_ISA_AVX2, ATTN_ISA_SCALAR (portable). */
attn_status attention_linear_isa(AttnWorkspace *ws, float *y, int ldy, const float *x, int ldx, int m,
                                 const AttnLinear *w, const float *bias, AttnIsa isa, AttnError *err);

/* A float rounded to BF16, to nearest, ties to even (a NaN stays a NaN,
 * a float past BF16's largest becomes infinity), and a BF16 as the float
 * it is exactly. */
uint16_t attention_bf16_of(float x);
float attention_f32_of_bf16(uint16_t h);

/* Does the CPU have AVX512_BF16 (with AVX-512 F and BW)? The instruction
 * set attention_linear takes for BF16 weights (AVX512 or SCALAR), and
 * its name ("avx512_bf16", "portable"), for `attn bench` to print. */
int attention_bf16_supported(void);
AttnIsa attention_bf16_isa(void);
const char *attention_linear_path(AttnDtype dtype);

#endif
