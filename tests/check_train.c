/*
 * check_train.c - the training engine (engine/train: the engine's one
 * Model with its gradients, moments and activations) against PyTorch's
 * autograd and torch.optim.AdamW (tests/reference/train/one-step.json,
 * made by scripts/make-train-reference): the tiny GPT-2 of the model tests
 * on tests/data/train-33.txt, its loss, the gradient of every weight (so
 * the backward pass of every layer: the embeddings, LayerNorm, the
 * products, the causal attention, GELU, the tied output and the
 * cross-entropy), and every weight after one AdamW step.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_train.h"
#include "json_read.h"
#include "testutil.h"
#include "tiny_model.h"

static JVal reference;
static int tokens[CONTEXT + 1];

static void load_reference(void)
{
    char path[600];
    snprintf(path, sizeof path, "%s/train/one-step.json", getenv("ATTN_REF") ? getenv("ATTN_REF") : "tests/reference");
    char *text = slurp(path);
    ck_assert_msg(text != NULL, "no %s", path);
    char why[200];
    ck_assert_msg(json_parse(text, &reference, why, sizeof why) == 0, "%s", why);
    free(text);
    snprintf(path, sizeof path, "%s/../data/train-33.txt", getenv("ATTN_REF") ? getenv("ATTN_REF") : "tests/reference");
    text = slurp(path);
    ck_assert_msg(text && strlen(text) == CONTEXT + 1, "%s is not %d bytes", path, CONTEXT + 1);
    for (int i = 0; i <= CONTEXT; i++)
        tokens[i] = (unsigned char)text[i];
    free(text);
}

/* The tiny GPT-2 with the model tests' weights, by name, and its training. */
static Model *tiny_model;

static ModelTrain *tiny(void)
{
    GptShape s = { LAYERS, HEADS, D, CONTEXT, VOCAB };
    ModelConfig cfg = gpt_config(&s);
    AttnError err = { 0 };
    tiny_model = model_block_new(&cfg, &err);
    ck_assert_msg(tiny_model != NULL, "%s", err.msg);
    ModelTrain *g = model_train_new(tiny_model, 1, &err);
    ck_assert_msg(g != NULL, "%s", err.msg);
    make_weights();
    int n;
    size_t count;
    const ModelTensor *t = model_tensors(tiny_model, &n);
    float *w = model_block(tiny_model, &count);
    ck_assert_int_eq(n, n_ws);
    for (int i = 0; i < n; i++) {
        ck_assert_str_eq(t[i].name, ws[i].name);
        ck_assert_int_eq((int)t[i].count, ws[i].rows * (ws[i].cols ? ws[i].cols : 1));
        memcpy(w + t[i].offset, ws[i].v, t[i].count * sizeof *w);
    }
    free_weights();
    return g;
}

static void tiny_free(ModelTrain *g)
{
    model_train_free(g);
    model_free(tiny_model);
    tiny_model = NULL;
}

/* Every tensor of block (laid out as g's) against the reference's object
 * key, within tol of max(|want|, floor) relative. After a step, a weight
 * whose true gradient is zero (the key bias: a softmax does not see a
 * constant added to a query's every score) moves by Adam's step in the
 * direction of rounding noise, on either side: it is held to within two
 * steps (lr) instead. */
static void same_as(const float *block, const char *key, double tol, double floor)
{
    const JVal *grads = json_get(&reference, "grads");
    double lr = json_get(&reference, "lr")->num;
    int n;
    const ModelTensor *t = model_tensors(tiny_model, &n);
    const JVal *ref = json_get(&reference, key);
    double worst = 0;
    const char *where = "";
    for (int i = 0; i < n; i++) {
        const JVal *want = json_get(ref, t[i].name);
        ck_assert_msg(want && want->n == (int)t[i].count, "%s: no %s of %zu in the reference", key, t[i].name,
                      t[i].count);
        const JVal *grad = json_get(grads, t[i].name);
        for (size_t k = 0; k < t[i].count; k++) {
            double w = want->items[k].num, got = block[t[i].offset + k];
            double err = fabs(got - w) / fmax(fabs(w), floor);
            if (strcmp(key, "after") == 0 && fabs(grad->items[k].num) < 1e-6) {
                ck_assert_msg(fabs(got - w) <= 2 * lr, "%s[%zu], of no gradient, moved %.9g from PyTorch's", t[i].name,
                              k, got - w);
                continue;
            }
            if (err > worst)
                worst = err, where = t[i].name;
            ck_assert_msg(err <= tol, "%s of %s[%zu]: %.9g, PyTorch %.9g", key, t[i].name, k, got, w);
        }
    }
    (void)where;
}

START_TEST(one_step_equals_pytorch)
{
    load_reference();
    ModelTrain *g = tiny();
    double loss = model_train_forward(g, tokens, tokens + 1, 1, CONTEXT);
    double want = json_get(&reference, "loss")->num;
    ck_assert_msg(fabs(loss - want) <= 1e-5 * want, "loss %.9g, PyTorch %.9g", loss, want);
    model_train_backward(g);
    same_as(model_train_grads(g), "grads", 1e-3, 1e-3);
    GptAdamW a = { 1e-3f, 0.9f, 0.95f, 1e-8f, 0.1f };
    model_train_adamw(g, &a, 1);
    size_t count;
    same_as(model_block(tiny_model, &count), "after", 1e-5, 1e-2);
    tiny_free(g);
    json_free(&reference);
}
END_TEST

/* A second pass over the same batch keeps no state from the first: the
 * loss and the gradients are the same again. */
START_TEST(passes_are_repeatable)
{
    ModelTrain *g = tiny();
    load_reference();
    double first = model_train_forward(g, tokens, tokens + 1, 1, CONTEXT);
    model_train_backward(g);
    size_t count;
    model_block(tiny_model, &count);
    float *grads = malloc(count * sizeof *grads);
    memcpy(grads, model_train_grads(g), count * sizeof *grads);
    ck_assert(first == model_train_forward(g, tokens, tokens + 1, 1, CONTEXT));
    model_train_backward(g);
    ck_assert(memcmp(grads, model_train_grads(g), count * sizeof *grads) == 0);
    free(grads);
    tiny_free(g);
    json_free(&reference);
    /* a shape that does not divide is refused with what is wrong */
    AttnError err = { 0 };
    GptShape bad = { 2, 3, 16, 32, 256 };
    ModelConfig cfg = gpt_config(&bad);
    ck_assert_ptr_null(model_block_new(&cfg, &err));
    ck_assert_str_eq(err.msg, "a model of 2 layers, 3 heads, width 16, context 32, vocabulary 256: each at least 1, "
                              "at most 64 layers, and the heads dividing the width");
}
END_TEST

/* The model trained is the model looked at: the training forward's loss
 * is the looking forward's, position by position (one pass, two asks). */
START_TEST(the_trained_model_is_the_looked_at_model)
{
    ModelTrain *g = tiny();
    load_reference();
    double loss = model_train_forward(g, tokens, tokens + 1, 1, CONTEXT);
    ModelRun run;
    AttnError err = { 0 };
    ModelAsk ask = { .every_position = 1 };
    ck_assert_msg(model_forward_asked(tiny_model, tokens, CONTEXT, &ask, &run, &err) == ATTN_OK, "%s", err.msg);
    float *z = malloc(VOCAB * sizeof *z);
    double sum = 0;
    for (int i = 0; i < CONTEXT; i++) {
        ck_assert(model_logits_at(tiny_model, &run, i, z, &err) == ATTN_OK);
        double mx = z[0], s = 0;
        for (int v = 1; v < VOCAB; v++)
            mx = fmax(mx, z[v]);
        for (int v = 0; v < VOCAB; v++)
            s += exp(z[v] - mx);
        sum += log(s) + mx - z[tokens[i + 1]];
    }
    ck_assert_msg(fabs(sum / CONTEXT - loss) < 1e-5, "looked at %.9g, trained %.9g", sum / CONTEXT, loss);
    free(z);
    model_run_free(&run);
    tiny_free(g);
    json_free(&reference);
}
END_TEST

/* The table found by what a tensor is: each layer's parts and the model's
 * own tensors are the entries of their names, and together every entry
 * once (the backward reads the weights through these). */
START_TEST(the_table_by_part)
{
    ModelTrain *g = tiny();
    static const char *const parts[GPT2_LAYER_PARTS] = {
        [GPT2_LN1_W] = "ln_1.weight", [GPT2_LN1_B] = "ln_1.bias", [GPT2_QKV_W] = "attn.c_attn.weight",
        [GPT2_QKV_B] = "attn.c_attn.bias", [GPT2_PROJ_W] = "attn.c_proj.weight", [GPT2_PROJ_B] = "attn.c_proj.bias",
        [GPT2_LN2_W] = "ln_2.weight", [GPT2_LN2_B] = "ln_2.bias", [GPT2_FC_W] = "mlp.c_fc.weight",
        [GPT2_FC_B] = "mlp.c_fc.bias", [GPT2_OUT_W] = "mlp.c_proj.weight", [GPT2_OUT_B] = "mlp.c_proj.bias",
    };
    static const char *const wholes[GPT2_WHOLES] = {
        [GPT2_WTE] = "wte.weight", [GPT2_WPE] = "wpe.weight", [GPT2_LNF_W] = "ln_f.weight", [GPT2_LNF_B] = "ln_f.bias",
    };
    int n;
    const ModelTensor *table = model_tensors(tiny_model, &n);
    ck_assert_int_eq(n, GPT2_WHOLES + LAYERS * GPT2_LAYER_PARTS);
    char *seen = calloc((size_t)n, 1);
    for (int w = 0; w < GPT2_WHOLES; w++) {
        const ModelTensor *t = model_gpt2_whole(tiny_model, (Gpt2Whole)w);
        ck_assert_str_eq(t->name, wholes[w]);
        seen[t - table]++;
    }
    for (int l = 0; l < LAYERS; l++)
        for (int p = 0; p < GPT2_LAYER_PARTS; p++) {
            const ModelTensor *t = model_gpt2_part(tiny_model, l, (Gpt2Part)p);
            char want[80];
            snprintf(want, sizeof want, "h.%d.%s", l, parts[p]);
            ck_assert_str_eq(t->name, want);
            seen[t - table]++;
        }
    for (int i = 0; i < n; i++)
        ck_assert_msg(seen[i] == 1, "%s found %d times", table[i].name, seen[i]);
    ck_assert_ptr_null(model_gpt2_part(tiny_model, LAYERS, GPT2_LN1_W));
    ck_assert_ptr_null(model_gpt2_part(tiny_model, -1, GPT2_LN1_W));
    free(seen);
    tiny_free(g);
}
END_TEST

Suite *train_suite(void)
{
    Suite *s = suite_create("train");
    TCase *tc = tcase_create("train");
    tcase_add_test(tc, one_step_equals_pytorch);
    tcase_add_test(tc, passes_are_repeatable);
    tcase_add_test(tc, the_trained_model_is_the_looked_at_model);
    tcase_add_test(tc, the_table_by_part);
    suite_add_tcase(s, tc);
    return s;
}
