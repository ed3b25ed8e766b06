/*
 * model_sample.c - the one sampler (model_gen.h): the softmax of the
 * logits at a temperature (in double, from the row's true max), the k most
 * probable kept, then the smallest set of the most probable whose
 * probabilities (renormalised after top-k) reach p, renormalised; greedy
 * the argmax, ties to the lowest id; one draw from attn's generator. The
 * order of ids "most probable first" is one total order (probability, then
 * the lower id), so the kept set is the same on every machine; the k best
 * are found with a heap of k (a whole sort when k is the vocabulary).
 */
#include "model_gen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

attn_status model_dist_init(ModelDist *d, int vocab, AttnError *err)
{
    memset(d, 0, sizeof *d);
    d->vocab = vocab;
    d->p = attn_malloc((size_t)vocab * sizeof *d->p);
    d->q = attn_malloc((size_t)vocab * sizeof *d->q);
    d->order = attn_malloc((size_t)vocab * sizeof *d->order);
    if (!d->p || !d->q || !d->order) {
        model_dist_free(d);
        return attn_fail(err, ATTN_E_NOMEM, "out of memory for a distribution of %d tokens", vocab);
    }
    return ATTN_OK;
}

void model_dist_free(ModelDist *d)
{
    free(d->p), free(d->q), free(d->order);
    memset(d, 0, sizeof *d);
}

/* Does id a come before id b, most probable first (ties: the lower id)? */
static int before(const double *p, int a, int b)
{
    return p[a] > p[b] || (p[a] == p[b] && a < b);
}

/* heap[i]'s subtree made a heap of n with the one that comes last on top. */
static void sift(int *heap, int n, int i, const double *p)
{
    for (;;) {
        int l = 2 * i + 1, r = l + 1, last = i;
        if (l < n && before(p, heap[last], heap[l]))
            last = l;
        if (r < n && before(p, heap[last], heap[r]))
            last = r;
        if (last == i)
            return;
        int t = heap[i];
        heap[i] = heap[last];
        heap[last] = t;
        i = last;
    }
}

void model_top_ids(const double *p, int vocab, int k, int *ids)
{
    if (k > vocab)
        k = vocab;
    if (k < 1)
        return;
    /* the k best so far in a heap, the one that comes last on top */
    for (int i = 0; i < k; i++)
        ids[i] = i;
    for (int i = k / 2 - 1; i >= 0; i--)
        sift(ids, k, i, p);
    for (int id = k; id < vocab; id++)
        if (before(p, id, ids[0])) {
            ids[0] = id;
            sift(ids, k, 0, p);
        }
    /* taken off the top, last first: highest first */
    for (int n = k - 1; n > 0; n--) {
        int t = ids[0];
        ids[0] = ids[n];
        ids[n] = t;
        sift(ids, n, 0, p);
    }
}

void model_dist_make(ModelDist *d, const float *z, const ModelSampling *s)
{
    int V = d->vocab, best = 0;
    for (int i = 1; i < V; i++)
        if (z[i] > z[best])
            best = i;
    double t = s->temperature > 0 ? s->temperature : 1.0, mx = z[best], sum = 0;
    for (int i = 0; i < V; i++)
        sum += d->p[i] = exp(((double)z[i] - mx) / t);
    for (int i = 0; i < V; i++)
        d->p[i] /= sum;
    d->best = best;
    memset(d->q, 0, (size_t)V * sizeof *d->q);
    if (!(s->temperature > 0)) {
        d->q[best] = 1;
        d->kept = 1;
        return;
    }
    int cut_k = s->top_k > 0 && s->top_k < V, cut_p = s->top_p < 1;
    if (!cut_k && !cut_p) {
        memcpy(d->q, d->p, (size_t)V * sizeof *d->q);
        d->kept = V;
        return;
    }
    int kept = cut_k ? s->top_k : V;
    model_top_ids(d->p, V, kept, d->order);
    if (cut_p) {
        double total = 0, run = 0;
        for (int j = 0; j < kept; j++)
            total += d->p[d->order[j]];
        for (int j = 0; j < kept; j++) {
            run += d->p[d->order[j]] / total;
            if (run >= s->top_p) {
                kept = j + 1;
                break;
            }
        }
    }
    double total = 0;
    for (int j = 0; j < kept; j++)
        total += d->p[d->order[j]];
    for (int j = 0; j < kept; j++)
        d->q[d->order[j]] = d->p[d->order[j]] / total;
    d->kept = kept;
}

int model_dist_draw(const ModelDist *d, const ModelSampling *s, Rng *g)
{
    if (!(s->temperature > 0))
        return d->best;
    uint32_t a = rng_u32(g) >> 5, b = rng_u32(g) >> 6;
    double u = (a * 67108864.0 + b) / 9007199254740992.0, total = 0, run = 0;
    for (int i = 0; i < d->vocab; i++)
        total += d->q[i];
    int last = d->best;
    for (int i = 0; i < d->vocab; i++) {
        if (d->q[i] <= 0)
            continue;
        run += d->q[i];
        last = i;
        if (u * total < run)
            return i;
    }
    return last;
}

double model_dist_chosen_p(const ModelDist *d, const ModelSampling *s, int id)
{
    return s->temperature > 0 ? d->q[id] : d->p[id];
}

const char *model_sampling_bad(const ModelSampling *s)
{
    if (!isfinite(s->temperature) || s->temperature < 0)
        return "--temperature takes a number 0 or more (0: the most probable token, greedy)";
    if (s->top_k < 0)
        return "--top-k takes a whole number 0 or more (0: off)";
    if (!isfinite(s->top_p) || s->top_p <= 0 || s->top_p > 1)
        return "--top-p takes a number above 0 and at most 1 (1: off)";
    return NULL;
}
