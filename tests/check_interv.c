/*
 * check_interv.c - testing what a head does, on the tiny models of
 * tiny_model.h (GPT-2 and the three Llamas) against PyTorch
 * (tests/reference/models/tiny-interventions.json, scripts/make-intervention-
 * reference): attn model's "loss" and "losses" on a clean pass, with one and
 * two heads zero-ablated, one mean-ablated, one and two heads patched from a
 * second text, each within 1e-4 (the next token's logits 1e-3 relative);
 * the logit lens at every layer and the direct logit attribution's parts
 * and their sum; a grouped-query ablation touching its one query head; a
 * patch from the same text changing nothing; bad requests refused, naming
 * the option.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "testutil.h"
#include "tiny_model.h"

#define TOKENS "72,101,108,108,111,44,32,104,101,108,108,111,33"     /* "Hello, hello!" */
#define N_TOKENS 13
#define SOURCE "'Howdy, yellow'"

/* Each run of the reference and the options that ask attn for it. */
static const struct {
    const char *name, *options;
} runs[] = {
    { "clean", "--lens --attribution" },
    { "ablate_one", "--ablate 2.3" },
    { "ablate_two", "--ablate 1.2,2.4" },
    { "ablate_mean", "--ablate 1.3 --ablate-with mean" },
    { "patch", "--patch 2.1 --from " SOURCE },
    { "patch_two", "--patch 1.4,2.2 --from " SOURCE },
    { "ablate_first", "--ablate 1.1" },
    { "ablate_pair", "--ablate 1.1,1.2" },
};
#define N_RUNS (int)(sizeof runs / sizeof *runs)

static JVal reference_doc;
static char *reference_text;

static const JVal *reference(const char *family)
{
    if (!reference_text) {
        char path[600], why[200];
        snprintf(path, sizeof path, "%s/models/tiny-interventions.json",
                 getenv("ATTN_REF") ? getenv("ATTN_REF") : "tests/reference");
        reference_text = slurp(path);
        ck_assert_msg(reference_text != NULL, "no %s", path);
        ck_assert_int_eq(json_parse(reference_text, &reference_doc, why, sizeof why), 0);
    }
    const JVal *f = json_get(&reference_doc, family);
    ck_assert_msg(f != NULL, "no %s in the reference", family);
    return f;
}

/* attn model on dir with options, parsed into *doc (json_free). */
static void attn_json(const char *dir, const char *options, JVal *doc, CmdResult *r)
{
    char why[200];
    *r = cmd_runf("%s model %s --tokens %s --json --top 5 %s", attn_bin(), dir, TOKENS, options);
    ck_assert_msg(r->status == 0, "%s: exit %d: %s", options, r->status, r->err);
    ck_assert_msg(json_parse(r->out, doc, why, sizeof why) == 0, "%s: %s", options, why);
}

static double num(const JVal *v, const char *key)
{
    const JVal *x = json_get(v, key);
    ck_assert_msg(x && x->type == J_NUM, "no number %s", key);
    return x->num;
}

/* The lens: each layer's top tokens with the reference's probabilities,
 * highest first; the last layer's list is "next" itself. */
static void lens_matches(const char *family, const JVal *doc, const JVal *want)
{
    const JVal *lens = json_get(doc, "lens"), *next = json_get(doc, "next");
    ck_assert_msg(lens && lens->n == LAYERS + 1, "%s: no lens of %d layers", family, LAYERS + 1);
    for (int l = 0; l <= LAYERS; l++) {
        const JVal *row = &lens->items[l], *top = json_get(row, "top"), *p = &want->items[l];
        ck_assert_int_eq((int)num(row, "layer"), l);
        ck_assert_int_eq(top->n, 5);
        for (int j = 0; j < 5; j++) {
            int id = (int)num(&top->items[j], "id");
            double got = num(&top->items[j], "p"), ref = p->items[id].num;
            ck_assert_msg(fabs(got - ref) <= 1e-4, "%s: lens after layer %d, token %d: p %.6f, PyTorch %.6f", family,
                          l, id, got, ref);
            int higher = 0;
            for (int i = 0; i < VOCAB; i++)
                higher += p->items[i].num > ref + 1e-7;
            ck_assert_msg(higher == j, "%s: lens after layer %d: %d is not PyTorch's rank %d", family, l, id, j);
            if (l == LAYERS) {
                ck_assert_int_eq(id, (int)num(&next->items[j], "id"));
                ck_assert_msg(got == num(&next->items[j], "p"), "%s: the last layer's lens is not next", family);
            }
        }
    }
}

/* The attribution: each part within 1e-4 of PyTorch's, and their sum the
 * logit. */
static void attribution_matches(const char *family, const JVal *doc, const JVal *want)
{
    const JVal *a = json_get(doc, "attribution");
    ck_assert_msg(a != NULL, "%s: no attribution", family);
    ck_assert_int_eq((int)num(a, "token"), (int)num(want, "token"));
    double logit = num(a, "logit"), sum = num(a, "rest");
    ck_assert_msg(fabs(logit - num(want, "logit")) <= 1e-3 * fmax(1, fabs(num(want, "logit"))), "%s: logit %.6f",
                  family, logit);
    ck_assert_msg(fabs(num(a, "rest") - num(want, "rest")) <= 1e-4, "%s: rest %.6f, PyTorch %.6f", family,
                  num(a, "rest"), num(want, "rest"));
    const JVal *heads = json_get(a, "heads"), *mlps = json_get(a, "mlps");
    ck_assert_int_eq(heads->n, LAYERS * HEADS);
    ck_assert_int_eq(mlps->n, LAYERS);
    for (int i = 0; i < heads->n; i++) {
        double got = num(&heads->items[i], "logit"), ref = json_get(want, "heads")->items[i].num;
        ck_assert_int_eq((int)num(&heads->items[i], "layer"), i / HEADS + 1);
        ck_assert_int_eq((int)num(&heads->items[i], "head"), i % HEADS + 1);
        ck_assert_msg(fabs(got - ref) <= 1e-4, "%s: head %d.%d gives %.6f, PyTorch %.6f", family, i / HEADS + 1,
                      i % HEADS + 1, got, ref);
        sum += got;
    }
    for (int l = 0; l < LAYERS; l++) {
        double got = num(&mlps->items[l], "logit"), ref = json_get(want, "mlps")->items[l].num;
        ck_assert_int_eq((int)num(&mlps->items[l], "layer"), l + 1);
        ck_assert_msg(fabs(got - ref) <= 1e-4, "%s: MLP %d gives %.6f, PyTorch %.6f", family, l + 1, got, ref);
        sum += got;
    }
    ck_assert_msg(fabs(sum - logit) <= 1e-4, "%s: the parts add up to %.6f, the logit is %.6f", family, sum, logit);
}

/* Every run of the reference on the model in dir. */
static void family_matches(const char *dir, const char *family)
{
    const JVal *want = reference(family);
    for (int k = 0; k < N_RUNS; k++) {
        JVal doc;
        CmdResult r;
        attn_json(dir, runs[k].options, &doc, &r);
        const JVal *w = json_get(want, runs[k].name), *wl = json_get(w, "losses"), *wz = json_get(w, "logits");
        const JVal *losses = json_get(&doc, "losses");
        ck_assert_msg(losses && losses->n == N_TOKENS - 1, "%s %s: no %d losses", family, runs[k].name, N_TOKENS - 1);
        double mean = 0;
        for (int i = 0; i < N_TOKENS - 1; i++) {
            ck_assert_msg(fabs(losses->items[i].num - wl->items[i].num) <= 1e-4, "%s %s: loss at %d is %.6f, "
                          "PyTorch's %.6f", family, runs[k].name, i + 1, losses->items[i].num, wl->items[i].num);
            mean += wl->items[i].num / (N_TOKENS - 1);
        }
        ck_assert_msg(fabs(num(&doc, "loss") - mean) <= 1e-4, "%s %s: loss %.6f, PyTorch's %.6f", family,
                      runs[k].name, num(&doc, "loss"), mean);
        const JVal *next = json_get(&doc, "next");
        for (int j = 0; j < next->n; j++) {
            int id = (int)num(&next->items[j], "id");
            double got = num(&next->items[j], "logit"), ref = wz->items[id].num;
            ck_assert_msg(fabs(got - ref) <= 1e-3 * fmax(1, fabs(ref)), "%s %s: next logit of %d is %.6f, PyTorch's "
                          "%.6f", family, runs[k].name, id, got, ref);
        }
        if (k == 0) {
            lens_matches(family, &doc, json_get(want, "lens"));
            attribution_matches(family, &doc, json_get(want, "attribution"));
        }
        json_free(&doc);
        cmd_free(&r);
    }
}

/* A tiny Llama variant's directory, with a byte-level tokenizer.json. */
static char *llama_dir(const Variant *v)
{
    make_llama_weights(v);
    char *dir = make_dir();
    write_text(dir, "config.json", v->config);
    write_safetensors(dir, 0, "", NULL, NULL);
    write_byte_tokenizer_json(dir);
    return dir;
}

START_TEST(ablating_and_patching_equal_pytorch)
{
    char *dir = make_dir();
    tiny_gpt2_dir(dir);
    family_matches(dir, "gpt2");
    remove_dir(dir);
    for (int k = 0; k < n_variants; k++) {
        dir = llama_dir(&variants[k]);
        family_matches(dir, variants[k].name);
        remove_dir(dir);
    }
    free_weights();
}
END_TEST

/* Query heads 1 and 2 of layer 1 read one key/value head in llama and
 * mistral (two key/value heads for four) and in qwen2 (one for four):
 * ablating head 1 leaves head 2's output, and the attention of every
 * head of layer 1, as they were; it is not ablating both. */
START_TEST(a_grouped_query_ablation_touches_one_query_head)
{
    for (int k = 0; k < n_variants; k++) {
        char *dir = llama_dir(&variants[k]);
        CmdResult clean = cmd_runf("%s model %s --tokens %s --attention-out %s/clean.npy --json", attn_bin(), dir,
                                   TOKENS, dir);
        CmdResult one = cmd_runf("%s model %s --tokens %s --attention-out %s/one.npy --ablate 1.1 --json", attn_bin(),
                                 dir, TOKENS, dir);
        CmdResult pair = cmd_runf("%s model %s --tokens %s --ablate 1.1,1.2 --json", attn_bin(), dir, TOKENS);
        ck_assert_msg(clean.status == 0 && one.status == 0 && pair.status == 0, "%s%s%s", clean.err, one.err,
                      pair.err);
        char a[600], b[600];
        snprintf(a, sizeof a, "%s/clean.npy", dir);
        snprintf(b, sizeof b, "%s/one.npy", dir);
        size_t na, nb;
        char *ca = slurp_n(a, &na), *cb = slurp_n(b, &nb);
        size_t layer = (size_t)HEADS * N_TOKENS * N_TOKENS * sizeof(float), header = na - 2 * layer;
        ck_assert(ca && cb && na == nb);
        ck_assert_msg(memcmp(ca + header, cb + header, layer) == 0, "%s: layer 1's attention moved", variants[k].name);
        ck_assert_msg(memcmp(ca + header + layer, cb + header + layer, layer) != 0, "%s: layer 2 saw nothing",
                      variants[k].name);
        free(ca), free(cb);
        const char *l1 = strstr(one.out, "\"loss\""), *l2 = strstr(pair.out, "\"loss\"");
        ck_assert_msg(l1 && l2 && atof(l1 + 7) != atof(l2 + 7), "%s: one head ablated is both", variants[k].name);
        cmd_free(&clean), cmd_free(&one), cmd_free(&pair);
        remove_dir(dir);
    }
    free_weights();
}
END_TEST

/* The patch of a head from the text itself: the very same document. */
START_TEST(a_patch_from_the_same_text_changes_nothing)
{
    char *dir = make_dir();
    tiny_gpt2_dir(dir);
    CmdResult clean = cmd_runf("%s model %s --text 'Hello, hello!' --json --lens --attribution", attn_bin(), dir);
    CmdResult same = cmd_runf("%s model %s --text 'Hello, hello!' --json --lens --attribution --patch 1.1,2.3 "
                              "--from 'Hello, hello!'", attn_bin(), dir);
    ck_assert_msg(clean.status == 0 && same.status == 0, "%s%s", clean.err, same.err);
    ck_assert_str_eq(clean.out, same.out);
    /* the loss is in every --json, asked for or not */
    CmdResult bare = cmd_runf("%s model %s --tokens 72,101 --json", attn_bin(), dir);
    ck_assert_msg(bare.status == 0 && strstr(bare.out, "\"loss\": ") && strstr(bare.out, "\"losses\": ["), "%s%s",
                  bare.out, bare.err);
    cmd_free(&bare);
    bare = cmd_runf("%s model %s --tokens 72 --json", attn_bin(), dir);
    ck_assert_msg(strstr(bare.out, "\"loss\": null, \"losses\": []"), "%s%s", bare.out, bare.err);
    cmd_free(&bare);
    /* and a plain report says the loss */
    CmdResult plain = cmd_runf("%s model %s --text 'Hello, hello!' --ablate 2.3", attn_bin(), dir);
    ck_assert_msg(plain.status == 0 && strstr(plain.out, "loss: 6.9324 nats a token, the mean over 12 positions"),
                  "%s%s", plain.out, plain.err);
    cmd_free(&clean), cmd_free(&same), cmd_free(&plain);
    remove_dir(dir);
    free_weights();
}
END_TEST

static void refused(const char *dir, const char *args, const char *want)
{
    CmdResult r = cmd_runf("%s model %s %s", attn_bin(), dir, args);
    ck_assert_msg(r.status == 2, "%s: exit %d: %s", args, r.status, r.out);
    ck_assert_msg(strstr(r.err, want), "%s: wanted %s, got %s", args, want, r.err);
    cmd_free(&r);
}

START_TEST(bad_requests_are_refused_naming_the_option)
{
    char *dir = make_dir();
    tiny_gpt2_dir(dir);
    const char *t = "--tokens 1,2,3 --json";
    char args[400];
#define REFUSED(extra, want)                                                                                       \
    do {                                                                                                           \
        snprintf(args, sizeof args, "%s %s", t, extra);                                                            \
        refused(dir, args, want);                                                                                  \
    } while (0)
    REFUSED("--ablate 3.1", "--ablate: the model has no head 3.1 (layers 1 to 2, heads 1 to 4)");
    REFUSED("--ablate 1.5", "--ablate: the model has no head 1.5 (layers 1 to 2, heads 1 to 4)");
    REFUSED("--ablate 0.1", "--ablate takes LAYER.HEAD (from 1), several with commas");
    REFUSED("--ablate 1.1,", "--ablate takes LAYER.HEAD (from 1), several with commas");
    REFUSED("--ablate 1", "--ablate takes LAYER.HEAD (from 1), several with commas");
    REFUSED("--ablate 1.1,,2.1", "--ablate takes LAYER.HEAD (from 1), several with commas");
    REFUSED("--ablate 1.1,1.1", "--ablate: head 1.1 is named twice");
    REFUSED("--ablate ''", "--ablate takes LAYER.HEAD (from 1), several with commas");
    REFUSED("--patch '' --from abc", "--patch takes LAYER.HEAD (from 1), several with commas");
    REFUSED("--ablate 1.2 --patch 1.2 --from abc", "--patch: head 1.2 is named twice (or by --ablate and --patch both)");
    REFUSED("--patch 9.1 --from abc", "--patch: the model has no head 9.1");
    REFUSED("--patch 1.1", "--patch needs --from TEXT2");
    REFUSED("--from abc", "--from gives the text --patch takes the heads from");
    REFUSED("--ablate 1.1 --ablate-with half", "--ablate-with takes zero or mean");
    REFUSED("--ablate-with mean", "--ablate-with says how --ablate replaces a head");
    REFUSED("--patch 1.1 --from abcd", "--patch: the text is 3 tokens and --from's 4; a patch needs as many in both");
    REFUSED("--patch 1.1 --from ''", "attn: --from: the text is empty");
    REFUSED("--ablate 1.1 --head-lesson 1,1 /tmp/x", "--head-lesson writes the model as it is");
    REFUSED("--ablate", "unknown option, or an option without its value");
    /* without a tokenizer, the second text cannot be read */
    CmdResult rm = cmd_runf("rm %s/vocab.json %s/merges.txt", dir, dir);
    cmd_free(&rm);
    REFUSED("--patch 1.1 --from abc", "attn: --from: ");
#undef REFUSED
    remove_dir(dir);
    free_weights();
}
END_TEST

static void free_reference(void)
{
    if (reference_text) {
        json_free(&reference_doc);
        free(reference_text);
        reference_text = NULL;
    }
}

Suite *interv_suite(void)
{
    Suite *s = suite_create("interv");
    TCase *tc = tcase_create("interv");
    tcase_set_timeout(tc, 120);
    tcase_add_unchecked_fixture(tc, NULL, free_reference);
    tcase_add_test(tc, ablating_and_patching_equal_pytorch);
    tcase_add_test(tc, a_grouped_query_ablation_touches_one_query_head);
    tcase_add_test(tc, a_patch_from_the_same_text_changes_nothing);
    tcase_add_test(tc, bad_requests_are_refused_naming_the_option);
    suite_add_tcase(s, tc);
    return s;
}
