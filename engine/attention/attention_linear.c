/*
 * attention_linear.c - a model's linear layer on attn's kernels
 * (attention_linear.h), in phases of work items on the pool:
 *   BF16 weights: the activations rounded and packed into tiles of depth
 *   pairs (items of rows), then items of LIN_COLS columns, each packing
 *   its panels of W as it goes (attention_bf16.c): W is read once in all,
 *   and never copied whole.
 *   float32 weights: the same items of columns through attn's float32
 *   kernel, W read in place where it is (in, out) with a whole number of
 *   panels, else each item packing its own columns into its worker's
 *   panels as it goes (W read once in all: a model's output layer of
 *   50257 x 768 for one row was a 154 MB copy when packed whole first). Items of rows
 *   each read the whole of W: at GPT-2's 768 x 2304 (7 MB, past L2) that
 *   was 58 GFLOP/s (51% of a busy moment's peak; (out, in), packed, 39)
 *   where the same product by columns, each column block's slice of W read
 *   from L2 by every band of rows, runs at 175 (76%, both layouts).
 *   One row of float32 (a generated token's step) goes to BLAS, whose
 *   matrix-vector product reads W once in place: the kernel's 12-row tiles
 *   would do twelve rows' work for it (generation ran at half the speed).
 * The workspace (attention.h's) holds the packed activations and each
 * worker's panel, or the packed float32 weights.
 */
#include "attention_linear.h"

#include <string.h>

#include "attention_internal.h"
#include "blas.h"
#include "pool.h"

#define LIN_COLS (4 * KG_NR)    /* columns per BF16 item: 18 items at GPT-2's 2304 */
#define LIN_ROWS 96             /* rows per item of the BF16 packing */

typedef struct {
    const AttnLinear *w;
    const float *x, *bias;
    float *y;
    int ldx, ldy, m;
    AttnIsa isa;
    int add;                    /* y += x @ W + bias (attention_linear_add) */
    uint32_t *pa, *panels;      /* BF16: the packed activations; each worker's panel */
    float *xpack;               /* float32: the packed activations */
    float *wpack;               /* float32: each worker's panels of W, or NULL (read in place) */
} LinearJob;

/* rows [lo, hi) of y's columns [c0, c1) = the bias, or 0 without one; or,
 * adding, += the bias. */
static void fill_bias(const LinearJob *job, int lo, int hi, int c0, int c1)
{
    for (int i = lo; i < hi; i++) {
        float *row = job->y + (size_t)i * job->ldy + c0;
        if (job->add && job->bias)
            for (int j = 0; j < c1 - c0; j++)
                row[j] += job->bias[c0 + j];
        else if (job->add)
            ;
        else if (job->bias)
            memcpy(row, job->bias + c0, (size_t)(c1 - c0) * sizeof *row);
        else
            memset(row, 0, (size_t)(c1 - c0) * sizeof *row);
    }
}

static void bf16_pack_rows(void *ctx, int item, int worker)
{
    (void)worker;
    LinearJob *job = ctx;
    int lo = item * LIN_ROWS, rows = job->m - lo < LIN_ROWS ? job->m - lo : LIN_ROWS;
    attn_bf16_pack_a(job->isa, job->pa + attn_bf16_packed_a_words(lo, job->w->in), job->x + (size_t)lo * job->ldx,
                     job->ldx, rows, job->w->in);
}

static void bf16_columns(void *ctx, int item, int worker)
{
    LinearJob *job = ctx;
    const AttnLinear *w = job->w;
    int c0 = item * LIN_COLS, c1 = c0 + LIN_COLS < w->out ? c0 + LIN_COLS : w->out;
    fill_bias(job, 0, job->m, c0, c1);
    attn_bf16_gemm_panels(job->isa, job->m, w->in, job->pa, w->data, w->ld, w->out_major, c0, c1, 1.0f, job->y,
                          job->ldy, job->panels + (size_t)worker * attn_bf16_panel_words());
}

static void f32_pack_rows(void *ctx, int item, int worker)
{
    (void)worker;
    LinearJob *job = ctx;
    int lo = item * LIN_ROWS, rows = job->m - lo < LIN_ROWS ? job->m - lo : LIN_ROWS;
    kg_pack_a_part(job->isa, job->xpack, job->x, job->ldx, job->m, lo, rows, job->w->in);
}

static void f32_columns(void *ctx, int item, int worker)
{
    LinearJob *job = ctx;
    const AttnLinear *w = job->w;
    int c0 = item * LIN_COLS, c1 = c0 + LIN_COLS < w->out ? c0 + LIN_COLS : w->out;
    fill_bias(job, 0, job->m, c0, c1);
    if (job->wpack) {
        /* this item's columns packed into its worker's panels: W^T's rows
         * c0.. are W's columns */
        float *pan = job->wpack + (size_t)worker * kg_packed_floats(w->in, LIN_COLS);
        const float *b = w->data;
        if (w->out_major)
            kg_pack_b(pan, b + (size_t)c0 * w->ld, w->ld, w->in, c1 - c0, 1);
        else
            kg_pack_b(pan, b + c0, w->ld, w->in, c1 - c0, 0);
        kg_gemm_packed(job->isa, job->m, c1 - c0, w->in, 1.0f, job->xpack, job->m, w->in, pan, w->in, 1.0f,
                       job->y + c0, job->ldy);
    } else
        kg_gemm_packed_raw(job->isa, job->m, c1 - c0, w->in, 1.0f, job->xpack, job->m, w->in,
                           (const float *)w->data + c0, w->ld, 1.0f, job->y + c0, job->ldy);
}

static attn_status check(const float *y, int ldy, const float *x, int ldx, int m, const AttnLinear *w,
                         AttnIsa isa, AttnError *err)
{
    if (!w || !w->data || !x || !y || m < 0 || w->in < 1 || w->out < 1)
        return attn_fail(err, ATTN_E_ARG, "linear layer: no weights or inputs, or m=%d in=%d out=%d", m,
                         w ? w->in : 0, w ? w->out : 0);
    if (ldx < w->in || ldy < w->out || w->ld < (w->out_major ? w->in : w->out))
        return attn_fail(err, ATTN_E_ARG, "linear layer: strides too short (ldx=%d ldy=%d ld=%d for %d x %d)", ldx,
                         ldy, w->ld, w->in, w->out);
    if (w->dtype == ATTN_DTYPE_BF16 && isa == ATTN_ISA_AVX512 && !attention_bf16_supported())
        return attn_fail(err, ATTN_E_ARG, "this CPU has no AVX512_BF16 for attn's BF16 kernel");
    if (w->dtype == ATTN_DTYPE_F32 && !attention_isa_supported(isa))
        return attn_fail(err, ATTN_E_ARG, "this CPU has no %s for attn's kernels", attention_isa_name(isa));
    return ATTN_OK;
}

static attn_status linear(AttnWorkspace *ws, float *y, int ldy, const float *x, int ldx, int m, const AttnLinear *w,
                          const float *bias, AttnIsa isa, int add, AttnError *err)
{
    attn_status st = check(y, ldy, x, ldx, m, w, isa, err);
    if (st != ATTN_OK || m == 0)
        return st;
    LinearJob one = { .w = w, .bias = bias, .y = y, .ldy = ldy, .m = m, .add = add };
    if (m == 1 && w->dtype == ATTN_DTYPE_F32) {
        /* one row: see the purpose comment */
        fill_bias(&one, 0, 1, 0, w->out);
        blas_sgemm(0, w->out_major, 1, w->out, w->in, 1.0f, x, ldx, w->data, w->ld, 1.0f, y, ldy);
        attn_error_clear(err);
        return ATTN_OK;
    }
    int threads = 2.0 * m * w->in * w->out < ATTN_SMALL_FLOPS ? 1 : pool_threads();
    LinearJob job = { .w = w, .x = x, .bias = bias, .y = y, .ldx = ldx, .ldy = ldy, .m = m, .isa = isa, .add = add };
    int bf16 = w->dtype == ATTN_DTYPE_BF16;
    int packed = !bf16 && (w->out_major || w->out % KG_NR != 0);
    size_t a_words = attn_line_up(bf16 ? attn_bf16_packed_a_words(m, w->in) : kg_packed_a_floats(isa, m, w->in));
    size_t words = a_words + (bf16     ? (size_t)threads * attn_bf16_panel_words()
                              : packed ? (size_t)threads * kg_packed_floats(w->in, LIN_COLS) : 0);
    float *at = attn_workspace_take(ws, words * sizeof(float));
    if (!at)
        return attn_fail(err, ATTN_E_NOMEM, "linear layer: no memory for the workspace (%zu bytes)",
                         words * sizeof(float));
    int row_items = (m + LIN_ROWS - 1) / LIN_ROWS, col_items = (w->out + LIN_COLS - 1) / LIN_COLS;
    if (bf16) {
        job.pa = (uint32_t *)at;
        job.panels = job.pa + a_words;
        pool_run(threads, bf16_pack_rows, &job, row_items);
        pool_run(threads, bf16_columns, &job, col_items);
    } else {
        job.xpack = at;
        job.wpack = packed ? at + a_words : NULL;
        pool_run(threads, f32_pack_rows, &job, row_items);
        pool_run(threads, f32_columns, &job, col_items);
    }
    attn_error_clear(err);
    return ATTN_OK;
}

attn_status attention_linear_isa(AttnWorkspace *ws, float *y, int ldy, const float *x, int ldx, int m,
                                 const AttnLinear *w, const float *bias, AttnIsa isa, AttnError *err)
{
    return linear(ws, y, ldy, x, ldx, m, w, bias, isa, 0, err);
}

/* The instruction set w's dtype is computed at: the widest the CPU has. */
static AttnIsa isa_for(const AttnLinear *w)
{
    return w && w->dtype == ATTN_DTYPE_BF16 ? attention_bf16_isa() : attention_isa();
}

attn_status attention_linear(AttnWorkspace *ws, float *y, int ldy, const float *x, int ldx, int m, const AttnLinear *w,
                             const float *bias, AttnError *err)
{
    return linear(ws, y, ldy, x, ldx, m, w, bias, isa_for(w), 0, err);
}

attn_status attention_linear_add(AttnWorkspace *ws, float *y, int ldy, const float *x, int ldx, int m,
                                 const AttnLinear *w, const float *bias, AttnError *err)
{
    return linear(ws, y, ldy, x, ldx, m, w, bias, isa_for(w), 1, err);
}

const char *attention_linear_path(AttnDtype dtype)
{
    if (dtype == ATTN_DTYPE_BF16)
        return attention_bf16_supported() ? "avx512_bf16" : "portable";
    return attention_isa_name(attention_isa());
}
