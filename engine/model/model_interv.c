/*
 * model_interv.c - what a pass may be asked to change and to keep for
 * testing what a head does (model.h: ModelAsk's edits, keep_heads,
 * keep_stream), and what is read back from such a pass: the next-token
 * loss at every position, the logit lens, the direct logit attribution.
 * The family passes (model_gpt2.c, model_llama.c) call the hooks where a
 * layer's heads have formed their outputs and after each layer; a hook
 * asked nothing does nothing, so an edited pass is still one pass.
 */
#include "model_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

attn_status model_edits_check(const ModelConfig *c, const ModelAsk *ask, AttnError *err)
{
    if (ask->n_edits < 0 || (ask->n_edits > 0 && !ask->edits))
        return attn_fail(err, ATTN_E_ARG, "%d edits asked for and none given", ask->n_edits);
    for (int i = 0; i < ask->n_edits; i++) {
        const ModelHeadEdit *e = &ask->edits[i];
        if (e->layer < 0 || e->layer >= c->layers || e->head < 0 || e->head >= c->heads)
            return attn_fail(err, ATTN_E_ARG, "head %d.%d: the model has layers 1 to %d and heads 1 to %d",
                             e->layer + 1, e->head + 1, c->layers, c->heads);
        if (e->how != MODEL_EDIT_ZERO && e->how != MODEL_EDIT_MEAN && e->how != MODEL_EDIT_GIVEN)
            return attn_fail(err, ATTN_E_ARG, "head %d.%d: no such edit (%d)", e->layer + 1, e->head + 1, (int)e->how);
        if (e->how == MODEL_EDIT_GIVEN && (!e->given || e->ld < c->head_dim))
            return attn_fail(err, ATTN_E_ARG, "head %d.%d: a patch without the numbers to put in", e->layer + 1,
                             e->head + 1);
        for (int j = 0; j < i; j++)
            if (ask->edits[j].layer == e->layer && ask->edits[j].head == e->head)
                return attn_fail(err, ATTN_E_ARG, "head %d.%d is edited twice", e->layer + 1, e->head + 1);
    }
    return ATTN_OK;
}

/* One head's slice of out (n rows, ldo apart) replaced as e says. */
static void edit_head(const ModelConfig *c, const ModelHeadEdit *e, float *out, int ldo, int n)
{
    int hd = c->head_dim;
    float *col = out + (size_t)e->head * hd;
    if (e->how == MODEL_EDIT_ZERO) {
        for (int i = 0; i < n; i++)
            memset(col + (size_t)i * ldo, 0, (size_t)hd * sizeof *col);
    } else if (e->how == MODEL_EDIT_GIVEN) {
        for (int i = 0; i < n; i++)
            memcpy(col + (size_t)i * ldo, e->given + (size_t)i * e->ld, (size_t)hd * sizeof *col);
    } else {
        /* its own mean over the positions of this pass, number by number */
        for (int k = 0; k < hd; k++) {
            double sum = 0;
            for (int i = 0; i < n; i++)
                sum += col[(size_t)i * ldo + k];
            float mean = (float)(sum / n);
            for (int i = 0; i < n; i++)
                col[(size_t)i * ldo + k] = mean;
        }
    }
}

void model_heads_formed(const ModelConfig *c, const ModelAsk *ask, ModelRun *run, int l, float *out, int ldo, int n)
{
    int q = c->heads * c->head_dim;
    for (int i = 0; ask && i < ask->n_edits; i++)
        if (ask->edits[i].layer == l)
            edit_head(c, &ask->edits[i], out, ldo, n);
    if (run->heads_out)
        for (int i = 0; i < n; i++)
            memcpy(run->heads_out + ((size_t)l * n + i) * q, out + (size_t)i * ldo, (size_t)q * sizeof *out);
    if (run->last_att)
        memcpy(run->last_att + (size_t)l * q, out + (size_t)(n - 1) * ldo, (size_t)q * sizeof *out);
}

void model_stream_kept(const ModelConfig *c, ModelRun *run, int after, const float *x, int n)
{
    if (run->stream)
        memcpy(run->stream + (size_t)after * n * c->d_model, x, (size_t)n * c->d_model * sizeof *x);
}

void model_mlp_kept(const ModelConfig *c, ModelRun *run, int l, const float *act, int n)
{
    if (run->last_mlp)
        memcpy(run->last_mlp + (size_t)l * c->d_ff, act + (size_t)(n - 1) * c->d_ff, (size_t)c->d_ff * sizeof *act);
}

/* ---- read back ---- */

#define LOSS_ROWS 64    /* the logits of this many positions at a time */

attn_status model_losses(const Model *m, const ModelRun *run, const int *tokens, double *losses, double *mean,
                         AttnError *err)
{
    const ModelConfig *c = &m->cfg;
    int n = run->n, v = c->vocab, d = c->d_model;
    *mean = 0;
    if (!run->final)
        return attn_fail(err, ATTN_E_ARG, "the pass kept no position but the last: no losses");
    if (n < 2)
        return ATTN_OK;
    float *z = attn_malloc((size_t)LOSS_ROWS * v * sizeof *z);
    AttnWorkspace *ws = attention_workspace_new();
    if (!z || !ws) {
        free(z);
        attention_workspace_free(ws);
        return attn_fail(err, ATTN_E_NOMEM, "out of memory for the logits of %d positions", LOSS_ROWS);
    }
    double sum = 0;     /* in order: the same on any number of threads */
    attn_status rc = ATTN_OK;
    for (int i0 = 0; rc == ATTN_OK && i0 < n - 1; i0 += LOSS_ROWS) {
        int rows = n - 1 - i0 < LOSS_ROWS ? n - 1 - i0 : LOSS_ROWS;
        /* the output layer as the pass multiplies it, whatever its dtype */
        if ((rc = model_product(ws, run->final + (size_t)i0 * d, rows, &m->out, NULL, z, 0, err)) != ATTN_OK)
            break;
        model_softmax_rows(z, rows, v, NULL, NULL);
        for (int r = 0; r < rows; r++) {
            losses[i0 + r] = -log(fmax((double)z[(size_t)r * v + tokens[i0 + r + 1]], 1e-30));
            sum += losses[i0 + r];
        }
    }
    free(z);
    attention_workspace_free(ws);
    if (rc == ATTN_OK)
        *mean = sum / (n - 1);
    return rc;
}

attn_status model_lens(const Model *m, const ModelRun *run, int layer, int pos, int rows, float *logits,
                       AttnError *err)
{
    const ModelConfig *c = &m->cfg;
    int n = run->n, d = c->d_model;
    if (!run->stream || layer < 0 || layer > c->layers || pos < 0 || rows < 1 || pos + rows > n)
        return attn_fail(err, ATTN_E_ARG, "no stream kept after layer %d at positions %d to %d", layer, pos + 1,
                         pos + rows);
    float *normed = attn_malloc((size_t)rows * d * sizeof *normed);
    AttnWorkspace *ws = attention_workspace_new();
    attn_status rc = !normed || !ws ? attn_fail(err, ATTN_E_NOMEM, "out of memory") : ATTN_OK;
    /* the pass's own final norm and output product (model_final's): the
     * last layer's lens at the last position is the pass's next logits */
    if (rc == ATTN_OK) {
        model_final_norm(m, run->stream + ((size_t)layer * n + pos) * d, rows, normed);
        rc = model_product(ws, normed, rows, &m->out, NULL, logits, 0, err);
    }
    free(normed);
    attention_workspace_free(ws);
    return rc;
}

/* A part p (d numbers) of the stream through the frozen final norm:
 * ((p - mean(p)) / scale) . w for LayerNorm, (p / scale) . w for RMSNorm;
 * w is gamma * u, sum_w its sum. */
static double through_norm(const double *p, int d, const double *w, double sum_w, double scale, int centred)
{
    double dot = 0, mean = 0;
    for (int j = 0; j < d; j++) {
        dot += p[j] * w[j];
        mean += p[j];
    }
    mean /= d;
    return ((centred ? dot - mean * sum_w : dot)) / scale;
}

void model_attribution_free(ModelAttribution *a)
{
    free(a->heads);
    free(a->mlps);
    memset(a, 0, sizeof *a);
}

attn_status model_attribution(const Model *m, const ModelRun *run, const int *tokens, int token, ModelAttribution *out,
                              AttnError *err)
{
    const ModelConfig *c = &m->cfg;
    int n = run->n, d = c->d_model, f = c->d_ff, L = c->layers, H = c->heads, hd = c->head_dim, q = H * hd;
    int last = n - 1, centred = m->norm_b != NULL;
    memset(out, 0, sizeof *out);
    if (!run->stream || !run->last_att || !run->last_mlp || token < 0 || token >= c->vocab)
        return attn_fail(err, ATTN_E_ARG, "the pass kept no stream to split, or token %d is outside the vocabulary",
                         token);
    out->heads = attn_calloc((size_t)L * H, sizeof *out->heads);
    out->mlps = attn_calloc((size_t)L, sizeof *out->mlps);
    double *w = attn_malloc((size_t)d * sizeof *w), *p = attn_malloc((size_t)d * sizeof *p);
    if (!out->heads || !out->mlps || !w || !p) {
        free(w), free(p);
        model_attribution_free(out);
        return attn_fail(err, ATTN_E_NOMEM, "out of memory");
    }
    /* the final norm's scale, as the pass computed it on the last stream */
    const float *x = run->stream + ((size_t)L * n + last) * d, *u = (const float *)m->out.data + (size_t)token * m->out.ld;
    double mean = 0, var = 0, sum_w = 0;
    for (int j = 0; j < d; j++)
        mean += x[j];
    mean = centred ? mean / d : 0;
    for (int j = 0; j < d; j++)
        var += (x[j] - mean) * (x[j] - mean);
    out->scale = sqrt(var / d + c->ln_eps);
    for (int j = 0; j < d; j++)
        sum_w += (w[j] = (double)m->norm_g[j] * u[j]);
    out->token = token;
    out->logit = run->logits[token];
    for (int l = 0; l < L; l++) {
        const float *z = run->last_att + (size_t)l * q, *a = run->last_mlp + (size_t)l * f;
        for (int h = 0; h < H; h++) {
            /* the head's output through its rows of the projection */
            for (int j = 0; j < d; j++) {
                double s = 0;
                for (int k = 0; k < hd; k++)
                    s += (double)z[h * hd + k]
                       * (centred ? m->gpt2[l].proj_w[(size_t)(h * hd + k) * d + j]
                                  : ((const float *)m->llama[l].o.data)[(size_t)j * m->llama[l].o.ld + h * hd + k]);
                p[j] = s;
            }
            out->heads[l * H + h] = through_norm(p, d, w, sum_w, out->scale, centred);
        }
        for (int j = 0; j < d; j++) {
            double s = 0;
            for (int k = 0; k < f; k++)
                s += (double)a[k] * (centred ? m->gpt2[l].out_w[(size_t)k * d + j] : ((const float *)m->llama[l].down.data)[(size_t)j * m->llama[l].down.ld + k]);
            p[j] = s;
        }
        out->mlps[l] = through_norm(p, d, w, sum_w, out->scale, centred);
    }
    /* the rest: the embeddings and the output projections' biases, and the
     * norm's own bias */
    float *row = malloc((size_t)d * sizeof *row);
    if (row)
        model_embed_row(&m->tok, tokens[last], row);    /* as stored: float32 where attribution runs */
    for (int j = 0; j < d; j++) {
        p[j] = row ? row[j] : 0;
        if (centred) {
            p[j] += m->pos[(size_t)last * d + j];
            for (int l = 0; l < L; l++)
                p[j] += (double)m->gpt2[l].proj_b[j] + m->gpt2[l].out_b[j];
        }
    }
    free(row);
    out->rest = through_norm(p, d, w, sum_w, out->scale, centred);
    for (int j = 0; centred && j < d; j++)
        out->rest += (double)m->norm_b[j] * u[j];
    free(w), free(p);
    return ATTN_OK;
}
