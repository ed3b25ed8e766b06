/*
 * model.c - a checkpoint's model (model.h): config.json read and checked
 * for its family, the weights found by name and shape (read where they lie
 * when float32, converted once from F16, and from BF16 unless kept as BF16
 * for attn's BF16 products), the forward pass handed to the family's
 * module (model_gpt2.c, model_llama.c), the run's logits and attention
 * read back.
 */
#include "model_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "blas.h"
#include "json_read.h"
#include "pool.h"
#include "rng.h"

/* ---- config.json ---- */

/* key's whole number in [lo, hi] into *out: 0; absent: -1 with *out left;
 * present and not such a number: -2. */
static int size_of(const JVal *root, const char *key, int lo, int hi, int *out)
{
    const JVal *v = json_get(root, key);
    if (!v || v->type == J_NULL)
        return -1;
    if (v->type != J_NUM || v->num < lo || v->num > hi || v->num != floor(v->num))
        return -2;
    *out = (int)v->num;
    return 0;
}

static double number_of(const JVal *root, const char *key, double lo, double hi, double fallback)
{
    const JVal *v = json_get(root, key);
    return v && v->type == J_NUM && v->num > lo && v->num < hi ? v->num : fallback;
}

/* The sizes of GPT-2's config; the name of the first that is wrong, or NULL. */
static const char *gpt2_sizes(const JVal *root, ModelConfig *c)
{
    if (size_of(root, "n_layer", 1, MODEL_MAX_LAYERS, &c->layers))
        return "n_layer";
    if (size_of(root, "n_head", 1, MODEL_MAX_WIDTH, &c->heads))
        return "n_head";
    if (size_of(root, "n_embd", 1, MODEL_MAX_WIDTH, &c->d_model))
        return "n_embd";
    if (size_of(root, "vocab_size", 1, MODEL_MAX_VOCAB, &c->vocab))
        return "vocab_size";
    if (size_of(root, "n_positions", 1, MODEL_MAX_CONTEXT, &c->context))
        return "n_positions";
    c->d_ff = 4 * c->d_model;
    if (size_of(root, "n_inner", 1, 4 * MODEL_MAX_WIDTH, &c->d_ff) == -2)
        return "n_inner";
    c->kv_heads = c->heads;
    c->ln_eps = number_of(root, "layer_norm_epsilon", 0, 1, 1e-5);
    c->tied = 1;
    return NULL;
}

/* The sizes of a Llama-family config; the name of the first that is wrong. */
static const char *llama_sizes(const JVal *root, ModelConfig *c)
{
    if (size_of(root, "num_hidden_layers", 1, MODEL_MAX_LAYERS, &c->layers))
        return "num_hidden_layers";
    if (size_of(root, "num_attention_heads", 1, MODEL_MAX_WIDTH, &c->heads))
        return "num_attention_heads";
    if (size_of(root, "hidden_size", 1, MODEL_MAX_WIDTH, &c->d_model))
        return "hidden_size";
    if (size_of(root, "intermediate_size", 1, 8 * MODEL_MAX_WIDTH, &c->d_ff))
        return "intermediate_size";
    if (size_of(root, "vocab_size", 1, MODEL_MAX_VOCAB, &c->vocab))
        return "vocab_size";
    if (size_of(root, "max_position_embeddings", 1, MODEL_MAX_CONTEXT, &c->context))
        return "max_position_embeddings";
    c->kv_heads = c->heads;
    if (size_of(root, "num_key_value_heads", 1, MODEL_MAX_WIDTH, &c->kv_heads) == -2)
        return "num_key_value_heads";
    if (size_of(root, "head_dim", 1, MODEL_MAX_WIDTH, &c->head_dim) == -2)
        return "head_dim";
    if (size_of(root, "sliding_window", 1, MODEL_MAX_CONTEXT, &c->sliding_window) == -2)
        return "sliding_window";
    const JVal *use = json_get(root, "use_sliding_window");
    if (use && use->type == J_BOOL && !use->num)
        c->sliding_window = 0;      /* Qwen2 names a window it does not use */
    c->ln_eps = number_of(root, "rms_norm_eps", 0, 1, 1e-6);
    c->rope_theta = number_of(root, "rope_theta", 0, 1e12, 10000.0);
    const JVal *tie = json_get(root, "tie_word_embeddings");
    c->tied = tie && tie->type == J_BOOL ? (int)tie->num : 0;
    return NULL;
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
    const char *bad = NULL;
    if (root.type != J_OBJ || !type || type->type != J_STR) {
        rc = attn_fail(err, ATTN_E_ARG, "config.json names no model_type");
    } else if (strcmp(type->str, "gpt2") == 0) {
        cfg->kind = FAMILY_GPT2;
        bad = gpt2_sizes(&root, cfg);
    } else if (strcmp(type->str, "llama") == 0 || strcmp(type->str, "mistral") == 0
               || strcmp(type->str, "qwen2") == 0) {
        cfg->kind = FAMILY_LLAMA;
        bad = llama_sizes(&root, cfg);
    } else {
        rc = attn_fail(err, ATTN_E_ARG,
                       "config.json: model_type \"%.40s\" is not one attn reads (it reads gpt2, llama, mistral, qwen2)",
                       type->str);
    }
    if (rc == ATTN_OK) {
        snprintf(cfg->family, sizeof cfg->family, "%s", type->str);
        if (bad)
            rc = attn_fail(err, ATTN_E_ARG, "config.json: %s is missing or not a size attn reads", bad);
        else if (cfg->d_model % cfg->heads != 0 && !cfg->head_dim)
            rc = attn_fail(err, ATTN_E_ARG, "config.json: %d heads do not divide the width %d", cfg->heads,
                           cfg->d_model);
        else if (cfg->heads % cfg->kv_heads != 0)
            rc = attn_fail(err, ATTN_E_ARG, "config.json: %d key/value heads do not divide the %d heads",
                           cfg->kv_heads, cfg->heads);
        if (!cfg->head_dim && cfg->heads)
            cfg->head_dim = cfg->d_model / cfg->heads;
        if (rc == ATTN_OK && cfg->kind == FAMILY_LLAMA && cfg->head_dim % 2)
            rc = attn_fail(err, ATTN_E_ARG, "config.json: a head of %d numbers cannot be turned in pairs",
                           cfg->head_dim);
    }
    json_free(&root);
    return rc;
}

/* ---- the weights ---- */

/* A buffer of count floats m owns (a weight converted or drawn), or NULL
 * with err naming the weight. */
static float *owned_buffer(Model *m, int64_t count, const char *name, AttnError *err)
{
    float **grown = attn_realloc(m->owned, (size_t)(m->n_owned + 1) * sizeof *grown);
    float *buf = grown ? attn_malloc((size_t)count * sizeof *buf) : NULL;
    if (grown)
        m->owned = grown;
    if (!buf) {
        attn_fail(err, ATTN_E_NOMEM, "out of memory for %s as float32", name);
        return NULL;
    }
    m->owned[m->n_owned++] = buf;
    return buf;
}

/* The tensor prefix+name (or name alone) of shape rows x cols (cols 0: a
 * vector of rows). NULL with err (missing, named; of another shape, both
 * named), or NULL without an error when optional and absent. */
static const StTensor *find_tensor(const SafeTensors *st, const char *prefix, const char *name, int64_t rows,
                                   int64_t cols, int optional, AttnError *err)
{
    char prefixed[200];
    snprintf(prefixed, sizeof prefixed, "%s%s", prefix, name);
    const StTensor *t = safetensors_find(st, prefixed);
    if (!t)
        t = safetensors_find(st, name);
    if (!t) {
        if (!optional)
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
    return t;
}

const float *model_weight(Model *m, const SafeTensors *st, const char *prefix, const char *name, int64_t rows,
                          int64_t cols, int optional, AttnError *err)
{
    if (m->draw) {
        /* a random model: every weight drawn, whatever it is for */
        int64_t count = rows * (cols ? cols : 1);
        float *buf = owned_buffer(m, count, name, err);
        if (!buf)
            return NULL;
        rng_randn_fill(m->draw, buf, (long)count);
        for (int64_t i = 0; i < count; i++)
            buf[i] *= 0.02f;
        m->params += count;
        return buf;
    }
    const StTensor *t = find_tensor(st, prefix, name, rows, cols, optional, err);
    if (!t)
        return NULL;
    m->params += t->count;
    const float *in_place = safetensors_f32_in_place(t);
    if (in_place)
        return in_place;
    float *buf = owned_buffer(m, t->count, name, err);
    if (buf)
        safetensors_to_f32(t, 0, t->count, buf);
    return buf;
}

int model_linear(Model *m, const SafeTensors *st, const char *prefix, const char *name, int64_t out, int64_t in,
                 AttnLinear *w, AttnError *err)
{
    const StTensor *t = m->draw || !m->keep_bf16 ? NULL : find_tensor(st, prefix, name, out, in, 0, err);
    if (t && t->dtype == ST_BF16 && (uintptr_t)t->data % 2 == 0) {
        /* computed as BF16 where it lies (attention_linear) */
        m->params += t->count;
        m->n_bf16++;
        *w = (AttnLinear){ .data = t->data, .dtype = ATTN_DTYPE_BF16, .in = (int)in, .out = (int)out, .ld = (int)in,
                           .out_major = 1 };
        return 0;
    }
    if (!t && !m->draw && m->keep_bf16)
        return -1;      /* missing or misshapen, err says which */
    const float *f = model_weight(m, st, prefix, name, out, in, 0, err);
    if (!f)
        return -1;
    *w = model_linear_f32(f, (int)out, (int)in, 1);
    if (m->draw && m->keep_bf16) {
        /* drawn, then rounded to BF16 in a buffer of half the size, which
         * takes the float32 one's place among those m owns */
        size_t count = (size_t)out * (size_t)in;
        uint16_t *h = attn_malloc(count * sizeof *h);
        if (!h)
            return attn_fail(err, ATTN_E_NOMEM, "out of memory for %s as BF16", name), -1;
        for (size_t i = 0; i < count; i++)
            h[i] = attention_bf16_of(f[i]);
        free(m->owned[m->n_owned - 1]);
        m->owned[m->n_owned - 1] = (float *)(void *)h;
        w->data = h;
        w->dtype = ATTN_DTYPE_BF16;
        m->n_bf16++;
    }
    return 0;
}

int model_bf16_weights(const Model *m) { return m->n_bf16; }

Model *model_open_as(const ModelConfig *cfg, const SafeTensors *st, ModelWeights how, AttnError *err)
{
    Model *m = attn_calloc(1, sizeof *m);
    if (!m) {
        attn_fail(err, ATTN_E_NOMEM, "out of memory");
        return NULL;
    }
    m->cfg = *cfg;
    m->keep_bf16 = how == MODEL_WEIGHTS_STORED && attention_bf16_supported();
    if ((cfg->kind == FAMILY_GPT2 ? model_open_gpt2 : model_open_llama)(m, st, err) != 0) {
        model_free(m);
        return NULL;
    }
    return m;
}

Model *model_open(const ModelConfig *cfg, const SafeTensors *st, AttnError *err)
{
    return model_open_as(cfg, st, MODEL_WEIGHTS_F32, err);
}

Model *model_random(const ModelConfig *cfg, unsigned seed, AttnError *err)
{
    return model_random_as(cfg, seed, MODEL_WEIGHTS_F32, err);
}

Model *model_random_as(const ModelConfig *cfg, unsigned seed, ModelWeights how, AttnError *err)
{
    Rng g;
    rng_seed(&g, seed);
    Model *m = attn_calloc(1, sizeof *m);
    if (!m) {
        attn_fail(err, ATTN_E_NOMEM, "out of memory");
        return NULL;
    }
    m->cfg = *cfg;
    m->draw = &g;
    m->keep_bf16 = how == MODEL_WEIGHTS_STORED && attention_bf16_supported();
    SafeTensors none = { 0 };
    if ((cfg->kind == FAMILY_GPT2 ? model_open_gpt2 : model_open_llama)(m, &none, err) != 0) {
        model_free(m);
        return NULL;
    }
    m->draw = NULL;
    return m;
}

void model_free(Model *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->n_owned; i++)
        free(m->owned[i]);
    free(m->owned);
    free(m->gpt2);
    free(m->llama);
    free(m->block);
    free(m->table);
    free(m);
}

const ModelConfig *model_config(const Model *m) { return &m->cfg; }

int64_t model_params(const Model *m) { return m->params; }

/* ---- the forward pass ---- */

/* The pass over tokens, keeping every layer's queries and keys or none,
 * and what ask asks for. */
static attn_status forward(const Model *m, const int *tokens, int n, int keep, const ModelAsk *ask, ModelRun *run,
                           AttnError *err)
{
    memset(run, 0, sizeof *run);
    const ModelConfig *c = &m->cfg;
    if (n < 1 || n > c->context)
        return attn_fail(err, ATTN_E_ARG, "%d tokens; the model reads 1 to %d", n, c->context);
    for (int i = 0; i < n; i++)
        if (tokens[i] < 0 || tokens[i] >= c->vocab)
            return attn_fail(err, ATTN_E_ARG, "token %d is %d; the vocabulary has 0 to %d", i + 1, tokens[i],
                             c->vocab - 1);
    double q = (double)c->heads * c->head_dim;
    double kept = (keep ? (double)c->layers * n * (q + (double)c->kv_heads * c->head_dim) : 0)
                + (ask->keep_heads ? (double)c->layers * n * q : 0)
                + (ask->keep_stream ? (double)(c->layers + 1) * n * c->d_model : 0);
    if (kept > (double)MODEL_MAX_KEPT)
        return attn_fail(err, ATTN_E_TOO_BIG, "%d tokens make %.0f numbers to keep (queries, keys and what was asked), "
                         "over the %ld attn keeps", n, kept, MODEL_MAX_KEPT);
    if (ask->input_layer < 0 || ask->input_layer > c->layers)
        return attn_fail(err, ATTN_E_ARG, "layer %d; the model has 1 to %d", ask->input_layer, c->layers);
    attn_status bad = model_edits_check(c, ask, err);
    if (bad != ATTN_OK)
        return bad;
    run->logits = attn_malloc((size_t)c->vocab * sizeof *run->logits);
    if (ask->every_position)
        run->final = attn_malloc((size_t)n * c->d_model * sizeof *run->final);
    run->scores = attn_calloc((size_t)c->layers * c->heads, sizeof *run->scores);
    if (keep) {
        run->q = attn_malloc((size_t)c->layers * n * c->heads * c->head_dim * sizeof *run->q);
        run->k = attn_malloc((size_t)c->layers * n * c->kv_heads * c->head_dim * sizeof *run->k);
    }
    run->input_layer = ask->input_layer;
    if (run->input_layer)
        run->layer_input = attn_malloc((size_t)n * c->d_model * sizeof *run->layer_input);
    if (ask->keep_heads)
        run->heads_out = attn_malloc((size_t)c->layers * n * c->heads * c->head_dim * sizeof *run->heads_out);
    if (ask->keep_stream) {
        run->stream = attn_malloc((size_t)(c->layers + 1) * n * c->d_model * sizeof *run->stream);
        run->last_att = attn_malloc((size_t)c->layers * c->heads * c->head_dim * sizeof *run->last_att);
        run->last_mlp = attn_malloc((size_t)c->layers * c->d_ff * sizeof *run->last_mlp);
    }
    if (!run->logits || !run->scores || (keep && (!run->q || !run->k)) || (run->input_layer && !run->layer_input)
        || (ask->every_position && !run->final) || (ask->keep_heads && !run->heads_out)
        || (ask->keep_stream && (!run->stream || !run->last_att || !run->last_mlp))) {
        model_run_free(run);
        return attn_fail(err, ATTN_E_NOMEM, "out of memory for a forward pass of %d tokens", n);
    }
    run->n = n;
    run->layers = c->layers;
    run->heads = c->heads;
    run->vocab = c->vocab;
    attn_status rc = (c->kind == FAMILY_GPT2 ? model_forward_gpt2 : model_forward_llama)(m, tokens, n, ask, run, err);
    if (rc != ATTN_OK)
        model_run_free(run);
    return rc;
}

void model_head_softmax_at(const ModelConfig *c, const float *Q, int ldq, const float *K, int ldk, int rows, int past,
                           int head, float *A)
{
    int hd = c->head_dim, g = head / (c->heads / c->kv_heads), cols = past + rows;
    blas_sgemm(0, 1, rows, cols, hd, 1.0f / sqrtf((float)hd), Q + (size_t)head * hd, ldq, K + (size_t)g * hd, ldk,
               0.0f, A, cols);
    model_causal_softmax_at(A, rows, cols, past, c->sliding_window);
}

void model_head_softmax(const ModelConfig *c, const float *Q, int ldq, const float *K, int ldk, int n, int head,
                        float *A)
{
    model_head_softmax_at(c, Q, ldq, K, ldk, n, 0, head, A);
}

void model_keep_qk(const ModelConfig *c, ModelRun *run, int l, const float *Q, int ldq, const float *K, int ldk)
{
    if (!run->q)
        return;
    int n = run->n, qd = c->heads * c->head_dim, kd = c->kv_heads * c->head_dim;
    for (int i = 0; i < n; i++) {
        memcpy(run->q + ((size_t)l * n + i) * qd, Q + (size_t)i * ldq, (size_t)qd * sizeof *Q);
        memcpy(run->k + ((size_t)l * n + i) * kd, K + (size_t)i * ldk, (size_t)kd * sizeof *K);
    }
}

attn_status model_logits_at(const Model *m, const ModelRun *run, int pos, float *out, AttnError *err)
{
    const ModelConfig *c = &m->cfg;
    if (!run->final || pos < 0 || pos >= run->n)
        return attn_fail(err, ATTN_E_ARG, "no position %d kept", pos + 1);
    AttnWorkspace *ws = attention_workspace_new();
    attn_status rc = ws ? model_product(ws, run->final + (size_t)pos * c->d_model, 1, &m->out, NULL, out, 0, err)
                        : attn_fail(err, ATTN_E_NOMEM, "out of memory");
    attention_workspace_free(ws);
    return rc;
}

attn_status model_attention(const Model *m, const ModelRun *run, int layer, int head, float *out, AttnError *err)
{
    const ModelConfig *c = &m->cfg;
    if (!run->q || layer < 0 || layer >= c->layers || head < 0 || head >= c->heads)
        return attn_fail(err, ATTN_E_ARG, "no such head kept: layer %d, head %d", layer + 1, head + 1);
    int n = run->n, qd = c->heads * c->head_dim, kd = c->kv_heads * c->head_dim;
    model_head_softmax(c, run->q + (size_t)layer * n * qd, qd, run->k + (size_t)layer * n * kd, kd, n, head, out);
    return ATTN_OK;
}

static const ModelAsk ask_nothing;

attn_status model_forward(const Model *m, const int *tokens, int n, ModelRun *run, AttnError *err)
{
    return forward(m, tokens, n, 1, &ask_nothing, run, err);
}

attn_status model_forward_asked(const Model *m, const int *tokens, int n, const ModelAsk *ask, ModelRun *run,
                                AttnError *err)
{
    return forward(m, tokens, n, 1, ask, run, err);
}

attn_status model_forward_timed(const Model *m, const int *tokens, int n, const ModelWatch *watch, ModelRun *run,
                                AttnError *err)
{
    ModelAsk ask = { .watch = watch ? *watch : (ModelWatch){ 0 } };
    return forward(m, tokens, n, 0, &ask, run, err);
}

#define MODEL_PHASE_NAME(id, name) name,
static const char *const phase_names[MODEL_PHASES] = { MODEL_PHASE_LIST(MODEL_PHASE_NAME) };

const char *model_phase_name(ModelPhase phase)
{
    return phase >= 0 && phase < MODEL_PHASES ? phase_names[phase] : "?";
}

double model_phase_flops(const ModelConfig *c, int n, ModelPhase phase)
{
    double d = c->d_model, q = (double)c->heads * c->head_dim, kv = (double)c->kv_heads * c->head_dim, f = c->d_ff;
    double L = c->layers;
    switch (phase) {
    case MODEL_PHASE_QKV:
        return L * 2.0 * n * d * (q + 2 * kv);
    case MODEL_PHASE_OUT:
        return L * 2.0 * n * q * d;
    case MODEL_PHASE_MLP:
        return L * (c->kind == FAMILY_GPT2 ? 2 : 3) * 2.0 * n * d * f;
    case MODEL_PHASE_ATTENTION: {
        /* each query's scores and weighted sum over the keys it sees */
        double keys = 0;
        for (int i = 0; i < n; i++)
            keys += c->sliding_window > 0 && c->sliding_window < i + 1 ? c->sliding_window : i + 1;
        return L * 2 * 2.0 * keys * q;
    }
    case MODEL_PHASE_LOGITS:
        return 2.0 * d * c->vocab;      /* the last position's */
    default:
        return 0.0;
    }
}

double model_forward_flops(const ModelConfig *c, int n)
{
    double total = 0;
    for (int p = 0; p < MODEL_PHASES; p++)
        total += model_phase_flops(c, n, (ModelPhase)p);
    return total;
}

void model_run_free(ModelRun *run)
{
    free(run->q);
    free(run->k);
    free(run->scores);
    free(run->logits);
    free(run->final);
    free(run->layer_input);
    free(run->heads_out);
    free(run->stream);
    free(run->last_att);
    free(run->last_mlp);
    memset(run, 0, sizeof *run);
}
