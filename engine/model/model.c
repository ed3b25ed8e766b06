/*
 * model.c - GPT-2's forward pass on a checkpoint's tensors (model.h): the
 * config read and checked, the weights found by name and shape (read where
 * they lie when they are float32, converted once when F16 or BF16), and
 * one pass over the tokens keeping every head's attention and the last
 * position's logits. The products go through BLAS (blas.h), one head at a
 * time.
 */
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "blas.h"
#include "json_read.h"
#include "rng.h"

/* The most attention probabilities a run keeps (layers x heads x n x n). */
#define MODEL_MAX_ATTENTION (1L << 27)

typedef struct {
    const float *ln1_g, *ln1_b, *qkv_w, *qkv_b, *proj_w, *proj_b, *ln2_g, *ln2_b, *fc_w, *fc_b, *out_w, *out_b;
} Layer;

struct Model {
    ModelConfig cfg;
    const float *wte, *wpe, *lnf_g, *lnf_b;
    Layer *layer;
    float **owned;          /* the weights converted from F16/BF16        */
    int n_owned;
    int64_t params;
};

/* ---- config.json ---- */

static int size_of(const JVal *root, const char *key, int lo, int hi, int *out)
{
    const JVal *v = json_get(root, key);
    if (!v || v->type != J_NUM || v->num < lo || v->num > hi || v->num != floor(v->num))
        return -1;
    *out = (int)v->num;
    return 0;
}

attn_status model_config_parse(const char *json, ModelConfig *cfg, AttnError *err)
{
    memset(cfg, 0, sizeof *cfg);
    JVal root;
    char why[160];
    if (json_parse(json, &root, why, sizeof why) != 0)
        return attn_fail(err, ATTN_E_ARG, "config.json is not JSON: %s", why);
    attn_status rc = ATTN_OK;
    const JVal *type = json_get(&root, "model_type");
    if (root.type != J_OBJ || !type || type->type != J_STR) {
        rc = attn_fail(err, ATTN_E_ARG, "config.json names no model_type");
    } else if (strcmp(type->str, "gpt2") != 0) {
        rc = attn_fail(err, ATTN_E_ARG, "config.json: model_type \"%.40s\" is not one attn reads yet (it reads gpt2)",
                       type->str);
    } else {
        snprintf(cfg->family, sizeof cfg->family, "gpt2");
        const char *bad = size_of(&root, "n_layer", 1, MODEL_MAX_LAYERS, &cfg->layers) ? "n_layer"
                          : size_of(&root, "n_head", 1, MODEL_MAX_WIDTH, &cfg->heads) ? "n_head"
                          : size_of(&root, "n_embd", 1, MODEL_MAX_WIDTH, &cfg->d_model) ? "n_embd"
                          : size_of(&root, "vocab_size", 1, MODEL_MAX_VOCAB, &cfg->vocab) ? "vocab_size"
                          : size_of(&root, "n_positions", 1, MODEL_MAX_CONTEXT, &cfg->context) ? "n_positions"
                                                                                              : NULL;
        const JVal *inner = json_get(&root, "n_inner");
        cfg->d_ff = 4 * cfg->d_model;
        if (!bad && inner && inner->type != J_NULL && size_of(&root, "n_inner", 1, 4 * MODEL_MAX_WIDTH, &cfg->d_ff))
            bad = "n_inner";
        const JVal *eps = json_get(&root, "layer_norm_epsilon");
        cfg->ln_eps = eps && eps->type == J_NUM && eps->num > 0 && eps->num < 1 ? eps->num : 1e-5;
        cfg->kv_heads = cfg->heads;
        if (bad)
            rc = attn_fail(err, ATTN_E_ARG, "config.json: %s is missing or not a size attn reads", bad);
        else if (cfg->d_model % cfg->heads != 0)
            rc = attn_fail(err, ATTN_E_ARG, "config.json: %d heads do not divide the width %d", cfg->heads,
                           cfg->d_model);
    }
    json_free(&root);
    return rc;
}

/* ---- the weights ---- */

static const StTensor *find(const SafeTensors *st, const char *name)
{
    char prefixed[160];
    snprintf(prefixed, sizeof prefixed, "transformer.%s", name);
    const StTensor *t = safetensors_find(st, prefixed);
    return t ? t : safetensors_find(st, name);
}

/* The tensor name of shape rows x cols (cols 0: a vector of rows) as float32,
 * read where it lies or converted into a buffer m owns. NULL with err. */
static const float *weight(Model *m, const SafeTensors *st, const char *name, int64_t rows, int64_t cols,
                           AttnError *err)
{
    const StTensor *t = find(st, name);
    if (!t) {
        attn_fail(err, ATTN_E_ARG, "the checkpoint has no tensor %s", name);
        return NULL;
    }
    int ok = cols ? t->ndim == 2 && t->shape[0] == rows && t->shape[1] == cols : t->ndim == 1 && t->shape[0] == rows;
    if (!ok) {
        char shape[80] = "";
        for (int i = 0; i < t->ndim; i++)
            snprintf(shape + strlen(shape), sizeof shape - strlen(shape), "%s%lld", i ? ", " : "",
                     (long long)t->shape[i]);
        if (cols)
            attn_fail(err, ATTN_E_SHAPE, "tensor %s has shape [%s]; the config makes it [%lld, %lld]", name, shape,
                      (long long)rows, (long long)cols);
        else
            attn_fail(err, ATTN_E_SHAPE, "tensor %s has shape [%s]; the config makes it [%lld]", name, shape,
                      (long long)rows);
        return NULL;
    }
    m->params += t->count;
    const float *in_place = safetensors_f32_in_place(t);
    if (in_place)
        return in_place;
    float **grown = attn_realloc(m->owned, (size_t)(m->n_owned + 1) * sizeof *grown);
    float *buf = grown ? attn_malloc((size_t)t->count * sizeof *buf) : NULL;
    if (grown)
        m->owned = grown;
    if (!buf) {
        attn_fail(err, ATTN_E_NOMEM, "out of memory converting %s to float32", name);
        return NULL;
    }
    safetensors_to_f32(t, 0, t->count, buf);
    m->owned[m->n_owned++] = buf;
    return buf;
}

Model *model_open(const ModelConfig *cfg, const SafeTensors *st, AttnError *err)
{
    Model *m = attn_calloc(1, sizeof *m);
    if (!m || !(m->layer = attn_calloc((size_t)cfg->layers, sizeof *m->layer))) {
        free(m);
        attn_fail(err, ATTN_E_NOMEM, "out of memory");
        return NULL;
    }
    m->cfg = *cfg;
    int64_t d = cfg->d_model, f = cfg->d_ff;
    int ok = (m->wte = weight(m, st, "wte.weight", cfg->vocab, d, err)) && (m->wpe = weight(m, st, "wpe.weight",
                                                                                            cfg->context, d, err));
    for (int l = 0; ok && l < cfg->layers; l++) {
        Layer *y = &m->layer[l];
        char n[12][80];
        static const char *const part[12] = { "ln_1.weight",      "ln_1.bias",      "attn.c_attn.weight",
                                              "attn.c_attn.bias", "attn.c_proj.weight", "attn.c_proj.bias",
                                              "ln_2.weight",      "ln_2.bias",      "mlp.c_fc.weight",
                                              "mlp.c_fc.bias",    "mlp.c_proj.weight", "mlp.c_proj.bias" };
        for (int k = 0; k < 12; k++)
            snprintf(n[k], sizeof n[k], "h.%d.%s", l, part[k]);
        ok = (y->ln1_g = weight(m, st, n[0], d, 0, err)) && (y->ln1_b = weight(m, st, n[1], d, 0, err))
             && (y->qkv_w = weight(m, st, n[2], d, 3 * d, err)) && (y->qkv_b = weight(m, st, n[3], 3 * d, 0, err))
             && (y->proj_w = weight(m, st, n[4], d, d, err)) && (y->proj_b = weight(m, st, n[5], d, 0, err))
             && (y->ln2_g = weight(m, st, n[6], d, 0, err)) && (y->ln2_b = weight(m, st, n[7], d, 0, err))
             && (y->fc_w = weight(m, st, n[8], d, f, err)) && (y->fc_b = weight(m, st, n[9], f, 0, err))
             && (y->out_w = weight(m, st, n[10], f, d, err)) && (y->out_b = weight(m, st, n[11], d, 0, err));
    }
    ok = ok && (m->lnf_g = weight(m, st, "ln_f.weight", d, 0, err)) && (m->lnf_b = weight(m, st, "ln_f.bias", d, 0, err));
    if (!ok) {
        model_free(m);
        return NULL;
    }
    return m;
}

void model_free(Model *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->n_owned; i++)
        free(m->owned[i]);
    free(m->owned);
    free(m->layer);
    free(m);
}

const ModelConfig *model_config(const Model *m) { return &m->cfg; }

int64_t model_params(const Model *m) { return m->params; }

/* ---- the forward pass ---- */

/* out (n x d) = LayerNorm of x's rows, with gain g and bias b. */
static void layer_norm(const float *x, float *out, int n, int d, const float *g, const float *b, double eps)
{
    for (int i = 0; i < n; i++) {
        const float *r = x + (size_t)i * d;
        double mean = 0, var = 0;
        for (int j = 0; j < d; j++)
            mean += r[j];
        mean /= d;
        for (int j = 0; j < d; j++)
            var += (r[j] - mean) * (r[j] - mean);
        double inv = 1.0 / sqrt(var / d + eps);
        for (int j = 0; j < d; j++)
            out[(size_t)i * d + j] = (float)((r[j] - mean) * inv * g[j] + b[j]);
    }
}

/* y (n x cols) = x (n x inner) @ w (inner x cols) + bias, or y += that. */
static void affine(const float *x, int n, int inner, const float *w, const float *bias, int cols, float *y,
                   int accumulate)
{
    if (!accumulate)
        for (int i = 0; i < n; i++)
            memcpy(y + (size_t)i * cols, bias, (size_t)cols * sizeof *y);
    else
        for (int i = 0; i < n; i++)
            for (int j = 0; j < cols; j++)
                y[(size_t)i * cols + j] += bias[j];
    blas_sgemm(0, 0, n, cols, inner, 1.0f, x, inner, w, cols, 1.0f, y, cols);
}

static float gelu_tanh(float x)
{
    return (float)(0.5 * x * (1.0 + tanh(0.7978845608028654 * (x + 0.044715 * (double)x * x * x))));
}

/* Row i of a (n x n): softmax of the scores of keys 0..i, zeros after. */
static void causal_softmax(float *a, int n)
{
    for (int i = 0; i < n; i++) {
        float *r = a + (size_t)i * n, mx = r[0];
        for (int j = 1; j <= i; j++)
            mx = fmaxf(mx, r[j]);
        double sum = 0;
        for (int j = 0; j <= i; j++)
            sum += (r[j] = expf(r[j] - mx));
        for (int j = 0; j <= i; j++)
            r[j] = (float)(r[j] / sum);
        for (int j = i + 1; j < n; j++)
            r[j] = 0;
    }
}

attn_status model_forward(const Model *m, const int *tokens, int n, ModelRun *run, AttnError *err)
{
    memset(run, 0, sizeof *run);
    const ModelConfig *c = &m->cfg;
    if (n < 1 || n > c->context)
        return attn_fail(err, ATTN_E_ARG, "%d tokens; the model reads 1 to %d", n, c->context);
    for (int i = 0; i < n; i++)
        if (tokens[i] < 0 || tokens[i] >= c->vocab)
            return attn_fail(err, ATTN_E_ARG, "token %d is %d; the vocabulary has 0 to %d", i + 1, tokens[i],
                             c->vocab - 1);
    if ((double)c->layers * c->heads * n * n > (double)MODEL_MAX_ATTENTION)
        return attn_fail(err, ATTN_E_TOO_BIG, "%d tokens make %.0f attention weights to keep, over the %ld attn keeps",
                         n, (double)c->layers * c->heads * n * n, MODEL_MAX_ATTENTION);
    int d = c->d_model, f = c->d_ff, H = c->heads, hd = d / H;
    float *h = attn_malloc((size_t)n * d * sizeof *h), *a = attn_malloc((size_t)n * d * sizeof *a);
    float *qkv = attn_malloc((size_t)n * 3 * d * sizeof *qkv), *o = attn_malloc((size_t)n * d * sizeof *o);
    float *ff = attn_malloc((size_t)n * f * sizeof *ff);
    run->attention = attn_malloc((size_t)c->layers * H * n * n * sizeof *run->attention);
    run->logits = attn_malloc((size_t)c->vocab * sizeof *run->logits);
    if (!h || !a || !qkv || !o || !ff || !run->attention || !run->logits) {
        free(h), free(a), free(qkv), free(o), free(ff);
        model_run_free(run);
        return attn_fail(err, ATTN_E_NOMEM, "out of memory for a forward pass of %d tokens", n);
    }
    run->n = n;
    run->layers = c->layers;
    run->heads = H;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < d; j++)
            h[(size_t)i * d + j] = m->wte[(size_t)tokens[i] * d + j] + m->wpe[(size_t)i * d + j];
    float scale = 1.0f / sqrtf((float)hd);
    for (int l = 0; l < c->layers; l++) {
        const Layer *y = &m->layer[l];
        layer_norm(h, a, n, d, y->ln1_g, y->ln1_b, c->ln_eps);
        affine(a, n, d, y->qkv_w, y->qkv_b, 3 * d, qkv, 0);
        for (int k = 0; k < H; k++) {
            float *A = run->attention + ((size_t)l * H + k) * n * n;
            blas_sgemm(0, 1, n, n, hd, scale, qkv + k * hd, 3 * d, qkv + d + k * hd, 3 * d, 0.0f, A, n);
            causal_softmax(A, n);
            blas_sgemm(0, 0, n, hd, n, 1.0f, A, n, qkv + 2 * d + k * hd, 3 * d, 0.0f, o + k * hd, d);
        }
        affine(o, n, d, y->proj_w, y->proj_b, d, h, 1);
        layer_norm(h, a, n, d, y->ln2_g, y->ln2_b, c->ln_eps);
        affine(a, n, d, y->fc_w, y->fc_b, f, ff, 0);
        for (size_t i = 0; i < (size_t)n * f; i++)
            ff[i] = gelu_tanh(ff[i]);
        affine(ff, n, f, y->out_w, y->out_b, d, h, 1);
    }
    /* the next token: the last position through the final norm, against
     * the input embedding (tied) */
    layer_norm(h + (size_t)(n - 1) * d, a, 1, d, m->lnf_g, m->lnf_b, c->ln_eps);
    blas_sgemm(0, 1, 1, c->vocab, d, 1.0f, a, d, m->wte, d, 0.0f, run->logits, c->vocab);
    free(h), free(a), free(qkv), free(o), free(ff);
    return ATTN_OK;
}

void model_run_free(ModelRun *run)
{
    free(run->attention);
    free(run->logits);
    memset(run, 0, sizeof *run);
}

/* ---- what each head does ---- */

const char *model_head_kind(const HeadScores *s, double *score)
{
    static const char *const names[4] = { "previous-token", "first-token", "self", "induction" };
    double v[4] = { s->previous, s->first, s->self, s->induction };
    int best = 0;
    for (int k = 1; k < 4; k++)
        if (v[k] > v[best])
            best = k;
    if (v[best] >= 0.4) {
        *score = v[best];
        return names[best];
    }
    *score = 1 - v[best];
    return "broad";
}

attn_status model_head_scores(const Model *m, const ModelRun *run, int rep, unsigned seed, HeadScores *scores,
                              AttnError *err)
{
    const ModelConfig *c = &m->cfg;
    int n = run->n, H = run->heads;
    for (int l = 0; l < run->layers; l++)
        for (int k = 0; k < H; k++) {
            const float *A = run->attention + ((size_t)l * H + k) * n * n;
            HeadScores *s = &scores[l * H + k];
            memset(s, 0, sizeof *s);
            for (int i = 1; i < n; i++) {
                s->previous += A[(size_t)i * n + i - 1];
                s->first += A[(size_t)i * n];
                s->self += A[(size_t)i * n + i];
            }
            if (n > 1) {
                s->previous /= n - 1;
                s->first /= n - 1;
                s->self /= n - 1;
            }
        }
    /* induction: a random sequence shown twice; from each token of the
     * repeat, the weight on the token after its first showing */
    if (rep < 2 || 2 * rep > c->context)
        rep = c->context / 2 < 2 ? 0 : (c->context / 2 < rep ? c->context / 2 : rep);
    if (rep < 2)
        return ATTN_OK;
    int *seq = attn_malloc((size_t)2 * rep * sizeof *seq);
    if (!seq)
        return attn_fail(err, ATTN_E_NOMEM, "out of memory");
    Rng g;
    rng_seed(&g, seed);
    for (int i = 0; i < rep; i++)
        seq[i] = seq[i + rep] = (int)(rng_u32(&g) % (uint32_t)c->vocab);
    ModelRun twice;
    attn_status rc = model_forward(m, seq, 2 * rep, &twice, err);
    free(seq);
    if (rc != ATTN_OK)
        return rc;
    int t = 2 * rep;
    for (int l = 0; l < twice.layers; l++)
        for (int k = 0; k < H; k++) {
            const float *A = twice.attention + ((size_t)l * H + k) * t * t;
            double sum = 0;
            for (int i = rep; i < t - 1; i++)
                sum += A[(size_t)i * t + (i - rep + 1)];
            scores[l * H + k].induction = sum / (rep - 1);
        }
    model_run_free(&twice);
    return ATTN_OK;
}
