/*
 * check_golden.c - the engine reproduces every number of every reference
 * file (the .ref files of tests/reference), recomputed from the same inputs with the
 * engine's own calls: drawn through the generator where the notebook draws
 * them, otherwise read from the file's input matrices.
 *
 * Each test walks one file. Every entry of the file must be visited, either
 * as an input or as a computed result compared to within GOLDEN_TOL, so an
 * entry added to a file without a computation here fails its test.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops.h"
#include "refdata.h"
#include "rng.h"

#define GOLDEN_TOL 1e-5
#define GOLDEN_MAX_MATS 256

/* One reference file under test: its entries, which were visited, and the
 * matrices made along the way (freed by golden_close). */
typedef struct {
    RefFile rf;
    unsigned char *visited;
    Mat *made[GOLDEN_MAX_MATS];
    int n_made;
    AttnError err;
    Rng rng;
} Golden;

static void golden_open(Golden *g, const char *file)
{
    char msg[512];
    memset(g, 0, sizeof *g);
    ck_assert_msg(ref_load(&g->rf, file, msg, sizeof msg) == 0, "%s", msg);
    ck_assert_msg(g->rf.n > 0, "%s has no entries", g->rf.path);
    g->visited = calloc((size_t)g->rf.n, 1);
    ck_assert_ptr_nonnull(g->visited);
}

/* The name of the first entry not yet visited, or NULL when all were. */
static const char *golden_unvisited(const Golden *g)
{
    for (int i = 0; i < g->rf.n; i++)
        if (!g->visited[i])
            return g->rf.entries[i].name;
    return NULL;
}

/* Every entry must have been visited; then free everything. */
static void golden_close(Golden *g)
{
    const char *missed = golden_unvisited(g);
    ck_assert_msg(missed == NULL, "%s: entry '%s' is neither an input nor checked", g->rf.path, missed);
    for (int i = 0; i < g->n_made; i++)
        mat_free(g->made[i]);
    free(g->visited);
    ref_free(&g->rf);
}

static const RefEntry *golden_entry(Golden *g, const char *name)
{
    const RefEntry *e = ref_find(&g->rf, name, -1);
    ck_assert_msg(e != NULL, "%s: no entry '%s'", g->rf.path, name);
    g->visited[e - g->rf.entries] = 1;
    return e;
}

/* Keep a result the engine returned (or fail with its error). */
/* The result is read through pm after the call that made it, so
 * keep(g, op(&o, ...), &o, ...) sees o as the operation left it. */
static Mat *keep(Golden *g, attn_status st, Mat *const *pm, const char *what)
{
    Mat *m = *pm;
    ck_assert_msg(st == ATTN_OK && m != NULL, "%s failed: %s (%s)", what, attn_status_str(st), g->err.msg);
    ck_assert_msg(g->n_made < GOLDEN_MAX_MATS, "too many matrices");
    g->made[g->n_made++] = m;
    return m;
}

/* Compare a computed matrix with the file's entry of that name. */
static void check(Golden *g, const char *name, const Mat *m)
{
    char msg[512];
    const RefEntry *e = golden_entry(g, name);
    int ok = ref_compare(m, e, GOLDEN_TOL, msg, sizeof msg);
    ck_assert_msg(ok, "%s: %s", g->rf.path, msg);
}

/* An input matrix taken from the file, named as in the file. */
static Mat *input(Golden *g, const char *name)
{
    const RefEntry *e = golden_entry(g, name);
    long n = (long)e->rows * e->cols;
    float *v = malloc((size_t)n * sizeof *v);
    ck_assert_ptr_nonnull(v);
    for (long i = 0; i < n; i++)
        v[i] = (float)e->data[i];
    Mat *m = mat_from(e->rows, e->cols, v, &g->err);
    free(v);
    keep(g, m ? ATTN_OK : g->err.code, &m, name);
    mat_set_name(m, name);
    return m;
}

/* A matrix drawn from the generator, checked against the file and named. */
static Mat *drawn(Golden *g, const char *name, int r, int c)
{
    Mat *m = rng_randn(&g->rng, r, c, &g->err);
    keep(g, m ? ATTN_OK : g->err.code, &m, name);
    mat_set_name(m, name);
    check(g, name, m);
    return m;
}

static Mat *scalar(Golden *g, float v)
{
    Mat *m = mat_from(1, 1, &v, &g->err);
    return keep(g, m ? ATTN_OK : g->err.code, &m, "scalar");
}

static Mat *matmul(Golden *g, const Mat *a, int ta, const Mat *b, int tb)
{
    Mat *o = NULL;
    return keep(g, op_matmul(&o, a, ta, b, tb, &g->err), &o, "op_matmul");
}

typedef attn_status (*BinaryOp)(Mat **, const Mat *, const Mat *, AttnError *);
typedef attn_status (*UnaryOp)(Mat **, const Mat *, AttnError *);

static Mat *binary(Golden *g, BinaryOp fn, const Mat *a, const Mat *b, const char *what)
{
    Mat *o = NULL;
    return keep(g, fn(&o, a, b, &g->err), &o, what);
}

static Mat *unary(Golden *g, UnaryOp fn, const Mat *a, const char *what)
{
    Mat *o = NULL;
    return keep(g, fn(&o, a, &g->err), &o, what);
}

#define ADD(g, a, b) binary((g), op_add, (a), (b), "op_add")
#define MUL(g, a, b) binary((g), op_mul, (a), (b), "op_mul")
#define DIV(g, a, b) binary((g), op_div, (a), (b), "op_div")
#define COSINE(g, a, b) binary((g), op_cosine, (a), (b), "op_cosine")

static Mat *rows(Golden *g, const Mat *a, int lo, int hi)
{
    Mat *o = NULL;
    return keep(g, op_rows(&o, a, lo, hi, &g->err), &o, "op_rows");
}

static Mat *cols(Golden *g, const Mat *a, int lo, int hi)
{
    Mat *o = NULL;
    return keep(g, op_cols(&o, a, lo, hi, &g->err), &o, "op_cols");
}

/* sqrt(d) as a 1x1, through the engine's sqrt. */
static Mat *sqrt_of(Golden *g, float d)
{
    return unary(g, op_sqrt, scalar(g, d), "op_sqrt");
}

/* y = W x + b (columns convention) */
static Mat *affine_cols(Golden *g, const Mat *w, const Mat *x, const Mat *b)
{
    return ADD(g, matmul(g, w, 0, x, 0), b);
}

/* y = x W + b (rows convention) */
static Mat *affine_rows(Golden *g, const Mat *x, const Mat *w, const Mat *b)
{
    return ADD(g, matmul(g, x, 0, w, 0), b);
}

/* One head, columns convention: A = softmax down columns of K^T Q / sqrt(d),
 * Z = V A. Checks each intermediate under the names given (NULL: skip). */
typedef struct {
    const char *q, *k, *v, *s, *a, *z;
} HeadNames;

static Mat *head_cols(Golden *g, const Mat *x, Mat *const w[3], Mat *const b[3], const HeadNames *n)
{
    Mat *q = affine_cols(g, w[0], x, b[0]);
    Mat *k = affine_cols(g, w[1], x, b[1]);
    Mat *v = affine_cols(g, w[2], x, b[2]);
    Mat *s = DIV(g, matmul(g, k, 1, q, 0), sqrt_of(g, (float)q->rows));
    Mat *a = unary(g, op_softmax_cols, s, "op_softmax_cols");
    Mat *z = matmul(g, v, 0, a, 0);
    check(g, n->q, q);
    check(g, n->k, k);
    check(g, n->v, v);
    check(g, n->s, s);
    check(g, n->a, a);
    return z;
}

/* Notebook 000, exercises 1-7. */
START_TEST(test_000_self_attention)
{
    Golden g;
    golden_open(&g, "000-self-attention-exercises.ref");
    rng_seed(&g.rng, 3);
    Mat *x[3];
    for (int n = 0; n < 3; n++) {
        x[n] = rng_randn(&g.rng, 4, 1, &g.err);
        keep(&g, x[n] ? ATTN_OK : g.err.code, &x[n], "randn");
    }
    Mat *X = NULL;
    keep(&g, op_hcat(&X, x, 3, &g.err), &X, "op_hcat");
    check(&g, "X", X);

    rng_seed(&g.rng, 0);
    Mat *w[3] = { drawn(&g, "W_q", 4, 4), drawn(&g, "W_k", 4, 4), drawn(&g, "W_v", 4, 4) };
    Mat *b[3] = { drawn(&g, "b_q", 4, 1), drawn(&g, "b_k", 4, 1), drawn(&g, "b_v", 4, 1) };
    HeadNames names = { "Q", "K", "V", "S", "A", "X_prime" };
    Mat *z = head_cols(&g, X, w, b, &names);
    check(&g, "X_prime", z);
    golden_close(&g);
}
END_TEST

/* Notebook 000, exercise 8: two heads, stacked, mixed by W_c. */
START_TEST(test_000_multihead)
{
    Golden g;
    golden_open(&g, "000-multihead.ref");
    rng_seed(&g.rng, 3);
    Mat *X = drawn(&g, "X", 8, 6);

    rng_seed(&g.rng, 0);
    static const char *const wn[2][3] = { { "W_q1", "W_k1", "W_v1" }, { "W_q2", "W_k2", "W_v2" } };
    static const char *const bn[2][3] = { { "b_q1", "b_k1", "b_v1" }, { "b_q2", "b_k2", "b_v2" } };
    static const HeadNames hn[2] = { { "Q1", "K1", "V1", "S1", "A1", "Z1" }, { "Q2", "K2", "V2", "S2", "A2", "Z2" } };
    Mat *w[2][3], *b[2][3];
    for (int h = 0; h < 2; h++) {
        for (int i = 0; i < 3; i++)
            w[h][i] = drawn(&g, wn[h][i], 4, 8);
        for (int i = 0; i < 3; i++)
            b[h][i] = drawn(&g, bn[h][i], 4, 1);
    }
    Mat *wc = drawn(&g, "W_c", 8, 8);
    Mat *z[2];
    for (int h = 0; h < 2; h++) {
        z[h] = head_cols(&g, X, w[h], b[h], &hn[h]);
        check(&g, hn[h].z, z[h]);
    }
    Mat *concat = NULL;
    keep(&g, op_vcat(&concat, z, 2, &g.err), &concat, "op_vcat");
    check(&g, "concat", concat);
    check(&g, "X_prime", matmul(&g, wc, 0, concat, 0));
    golden_close(&g);
}
END_TEST

/* Row softmax of scores / scale, the rows convention's attention weights. */
static Mat *softmax_scaled(Golden *g, const Mat *scores, float scale)
{
    return unary(g, op_softmax_rows, DIV(g, scores, scalar(g, scale)), "op_softmax_rows");
}

/* Notebook 001: 'sky is blue', rows convention. */
START_TEST(test_001_sky_is_blue)
{
    Golden g;
    golden_open(&g, "001-sky-is-blue.ref");
    Mat *E = input(&g, "E");
    Mat *Q = matmul(&g, E, 0, input(&g, "WQ"), 0);
    Mat *K = matmul(&g, E, 0, input(&g, "WK"), 0);
    Mat *V = matmul(&g, E, 0, input(&g, "WV"), 0);
    Mat *logits = matmul(&g, Q, 0, K, 1);
    Mat *scaled = DIV(&g, logits, sqrt_of(&g, 2));
    Mat *A = unary(&g, op_softmax_rows, scaled, "op_softmax_rows");
    check(&g, "Q", Q);
    check(&g, "K", K);
    check(&g, "V", V);
    check(&g, "logits", logits);
    check(&g, "scaled", scaled);
    check(&g, "A", A);
    check(&g, "O", matmul(&g, A, 0, V, 0));
    golden_close(&g);
}
END_TEST

/* Notebook 002: the attention layer with biases, two batch elements. */
START_TEST(test_002_attention_layer)
{
    Golden g;
    golden_open(&g, "002-attention-layer.ref");
    Mat *wq = input(&g, "Wq"), *bq = input(&g, "bq");
    Mat *wk = input(&g, "Wk"), *bk = input(&g, "bk");
    Mat *wv = input(&g, "Wv"), *bv = input(&g, "bv");
    Mat *wc = input(&g, "Wc"), *bc = input(&g, "bc");
    static const char *const xs[2] = { "x_1", "x_2" };
    static const char *const as[2] = { "A_1", "A_2" };
    static const char *const outs[2] = { "out_1", "out_2" };
    for (int i = 0; i < 2; i++) {
        Mat *x = input(&g, xs[i]);
        Mat *q = affine_rows(&g, x, wq, bq);
        Mat *k = affine_rows(&g, x, wk, bk);
        Mat *v = affine_rows(&g, x, wv, bv);
        Mat *a = softmax_scaled(&g, matmul(&g, q, 0, k, 1), sqrtf((float)wq->cols));
        check(&g, as[i], a);
        check(&g, outs[i], affine_rows(&g, matmul(&g, a, 0, v, 0), wc, bc));
    }
    golden_close(&g);
}
END_TEST

/* Notebook 003: attention with the notebook's scale 1, then sqrt(3);
 * positional encodings; Add & Norm; the feed-forward layer; the mask. */
START_TEST(test_003_transformer_encoder)
{
    Golden g;
    golden_open(&g, "003-transformer-encoder.ref");
    Mat *x = input(&g, "x");
    Mat *Q = matmul(&g, x, 0, input(&g, "w_query"), 0);
    Mat *K = matmul(&g, x, 0, input(&g, "w_key"), 0);
    Mat *V = matmul(&g, x, 0, input(&g, "w_value"), 0);
    check(&g, "Q", Q);
    check(&g, "K", K);
    check(&g, "V", V);
    Mat *scores = matmul(&g, Q, 0, K, 1);
    check(&g, "scores", scores);
    Mat *A = unary(&g, op_softmax_rows, scores, "op_softmax_rows");
    check(&g, "A", A);
    /* row j = A[0][j] * V[j]: V scaled by row 0 of A stood up as a column */
    Mat *a0 = unary(&g, op_transpose, rows(&g, A, 0, 1), "op_transpose");
    check(&g, "weighted_0", MUL(&g, V, a0));
    Mat *Z = matmul(&g, A, 0, V, 0);
    check(&g, "Z", Z);
    Mat *A3 = unary(&g, op_softmax_rows, DIV(&g, scores, sqrt_of(&g, 3)), "op_softmax_rows");
    check(&g, "A_sqrt3", A3);
    check(&g, "Z_sqrt3", matmul(&g, A3, 0, V, 0));

    /* positional encodings: d = 512, positions 0..10 */
    Mat *pe = NULL;
    keep(&g, op_posenc_book(&pe, 11, 512, &g.err), &pe, "op_posenc_book");
    check(&g, "pe_book_2_first8", cols(&g, rows(&g, pe, 2, 3), 0, 8));
    check(&g, "cos_pe_book_2_10", COSINE(&g, rows(&g, pe, 2, 3), rows(&g, pe, 10, 11)));
    Mat *pp = NULL;
    keep(&g, op_posenc(&pp, 11, 512, &g.err), &pp, "op_posenc");
    check(&g, "pe_paper_2_first8", cols(&g, rows(&g, pp, 2, 3), 0, 8));
    check(&g, "cos_pe_paper_2_10", COSINE(&g, rows(&g, pp, 2, 3), rows(&g, pp, 10, 11)));

    /* Add & Norm, then the feed-forward layer on the normalised rows */
    Mat *residual = ADD(&g, x, matmul(&g, Z, 0, input(&g, "W0"), 0));
    check(&g, "residual", residual);
    Mat *ln = unary(&g, op_layernorm_rows, residual, "op_layernorm_rows");
    check(&g, "layernorm", ln);
    Mat *hidden = unary(&g, op_relu, affine_rows(&g, ln, input(&g, "W1"), input(&g, "b1")), "op_relu");
    check(&g, "ffn_hidden", hidden);
    check(&g, "ffn_out", affine_rows(&g, hidden, input(&g, "W2"), input(&g, "b2")));

    /* the decoder's look-ahead mask */
    Mat *mask = NULL;
    keep(&g, op_causal_mask(&mask, 3, &g.err), &mask, "op_causal_mask");
    check(&g, "mask", mask);
    Mat *Ac = unary(&g, op_softmax_rows, ADD(&g, scores, mask), "op_softmax_rows");
    check(&g, "A_causal", Ac);
    check(&g, "Z_causal", matmul(&g, Ac, 0, V, 0));
    golden_close(&g);
}
END_TEST

/* Notebook 004: keys and queries on a one-hot sequence. */
START_TEST(test_004_key_query)
{
    Golden g;
    golden_open(&g, "004-key-query.ref");
    Mat *E = input(&g, "E");
    Mat *q = input(&g, "q");
    Mat *s = matmul(&g, q, 0, E, 1);
    check(&g, "s", s);
    Mat *alpha = unary(&g, op_softmax_rows, s, "op_softmax_rows");
    check(&g, "alpha", alpha);
    check(&g, "out", matmul(&g, alpha, 0, E, 0));

    /* e approximated by 3: 3^s / sum 3^s, the sum as a product with ones */
    Mat *p3 = unary(&g, op_exp, MUL(&g, s, unary(&g, op_log, scalar(&g, 3), "op_log")), "op_exp");
    Mat *ones = NULL;
    keep(&g, op_ones(&ones, s->cols, 1, &g.err), &ones, "op_ones");
    Mat *alpha3 = DIV(&g, p3, matmul(&g, p3, 0, ones, 0));
    check(&g, "alpha_e3", alpha3);
    check(&g, "out_e3", matmul(&g, alpha3, 0, E, 0));
    Mat *avg = DIV(&g, matmul(&g, ones, 1, E, 0), scalar(&g, (float)E->rows));
    check(&g, "average", avg);

    /* the booster: keys W_k e_i with W_k = 10 I */
    Mat *Wq = input(&g, "Wq"), *Wk = input(&g, "Wk");
    Mat *K = matmul(&g, E, 0, Wk, 0);
    Mat *sb = matmul(&g, q, 0, K, 1);
    check(&g, "s_boost", sb);
    Mat *ab = unary(&g, op_softmax_rows, sb, "op_softmax_rows");
    check(&g, "alpha_boost", ab);
    check(&g, "out_boost", matmul(&g, ab, 0, E, 0));

    /* full self-attention without the scale */
    Mat *Q = matmul(&g, E, 0, Wq, 0);
    check(&g, "Q", Q);
    check(&g, "K", K);
    Mat *S = matmul(&g, Q, 0, K, 1);
    check(&g, "S", S);
    Mat *A = unary(&g, op_softmax_rows, S, "op_softmax_rows");
    check(&g, "A", A);
    check(&g, "out_self", matmul(&g, A, 0, E, 0));
    golden_close(&g);
}
END_TEST

/* The checker itself: a wrong number fails with the max difference and
 * where; an unvisited entry is noticed. */
START_TEST(test_compare_reports_where)
{
    RefFile rf;
    char msg[512];
    ck_assert_msg(ref_load(&rf, "001-sky-is-blue.ref", msg, sizeof msg) == 0, "%s", msg);
    const RefEntry *e = ref_find(&rf, "A", -1);
    ck_assert_ptr_nonnull(e);
    float v[9];
    for (int i = 0; i < 9; i++)
        v[i] = (float)e->data[i];
    v[5] += 0.01f;
    Mat *m = mat_from(3, 3, v, NULL);
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(ref_compare(m, e, GOLDEN_TOL, msg, sizeof msg), 0);
    ck_assert_msg(strstr(msg, "[2,3]") != NULL, "message does not say where: %s", msg);
    mat_free(m);
    Mat *wrong_shape = mat_from(1, 9, v, NULL);
    ck_assert_int_eq(ref_compare(wrong_shape, e, GOLDEN_TOL, msg, sizeof msg), 0);
    ck_assert_msg(strstr(msg, "shape") != NULL, "%s", msg);
    mat_free(wrong_shape);
    ref_free(&rf);
}
END_TEST

START_TEST(test_missing_entry_is_noticed)
{
    Golden g;
    golden_open(&g, "001-sky-is-blue.ref");
    ck_assert_str_eq(golden_unvisited(&g), "E");
    input(&g, "E");
    ck_assert_str_eq(golden_unvisited(&g), "WQ");
    input(&g, "WQ");
    ck_assert_str_eq(golden_unvisited(&g), "WK");
    /* golden_close would fail here; mark the rest to close cleanly */
    memset(g.visited, 1, (size_t)g.rf.n);
    golden_close(&g);
}
END_TEST

Suite *golden_suite(void)
{
    Suite *s = suite_create("golden");
    TCase *core = tcase_create("core");
    tcase_add_test(core, test_000_self_attention);
    tcase_add_test(core, test_000_multihead);
    tcase_add_test(core, test_001_sky_is_blue);
    tcase_add_test(core, test_002_attention_layer);
    tcase_add_test(core, test_003_transformer_encoder);
    tcase_add_test(core, test_004_key_query);
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_add_test(limits, test_compare_reports_where);
    tcase_add_test(limits, test_missing_entry_is_noticed);
    suite_add_tcase(s, limits);
    return s;
}
