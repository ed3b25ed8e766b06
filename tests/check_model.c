/*
 * check_model.c - `attn model` on a tiny GPT-2 the test writes itself in
 * the real layout (config.json, model.safetensors, vocab.json), its weights
 * from a formula scripts/make-model-reference shares: every head's
 * attention (--attention-out) and the next-token logits equal PyTorch's
 * (tests/reference/models/tiny-models.json) within 1e-4, for F32 weights
 * under GPT2LMHeadModel's names and BF16 under GPT2Model's; the tokens'
 * text from the byte-level vocabulary; every head's kind; and a model that
 * cannot be read refused with the file and what is wrong.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attention_linear.h"
#include "model.h"
#include "json_read.h"
#include "safetensors.h"
#include "testutil.h"
#include "tiny_model.h"

static const char *const tokens = "72,101,108,108,111,44,32,104,101,108,108,111,33";   /* "Hello, hello!" */
#define N_TOKENS 13

static void refused(const char *dir, const char *args, const char *want);

/* The reference of dtype ("f32", "bf16"): attention and logits. */
static void reference(const char *dtype, double *att, double *logits)
{
    char path[600];
    snprintf(path, sizeof path, "%s/models/tiny-models.json", getenv("ATTN_REF") ? getenv("ATTN_REF") : "tests/reference");
    char *text = slurp(path);
    ck_assert_msg(text != NULL, "no %s", path);
    JVal root;
    char why[200];
    ck_assert_int_eq(json_parse(text, &root, why, sizeof why), 0);
    const JVal *d = json_get(&root, dtype), *a = json_get(d, "attention"), *l = json_get(d, "logits");
    ck_assert(a && l && a->n == LAYERS * HEADS * N_TOKENS * N_TOKENS && l->n == VOCAB);
    for (int i = 0; i < a->n; i++)
        att[i] = a->items[i].num;
    for (int i = 0; i < l->n; i++)
        logits[i] = l->items[i].num;
    json_free(&root);
    free(text);
}

/* Run attn model on dir and compare with the reference of dtype. */
static void matches_reference(const char *dir, const char *dtype, const char *family, int kv_heads)
{
    static double att[LAYERS * HEADS * N_TOKENS * N_TOKENS], logits[VOCAB];
    reference(dtype, att, logits);
    CmdResult r = cmd_runf("%s model %s --tokens %s --json --top 5 --attention-out %s/att.npy", attn_bin(), dir,
                           tokens, dir);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    JVal root;
    char why[200];
    ck_assert_msg(json_parse(r.out, &root, why, sizeof why) == 0, "%s in %s", why, r.out);
    const JVal *model = json_get(&root, "model");
    ck_assert_str_eq(json_get(model, "family")->str, family);
    ck_assert_int_eq((int)json_get(model, "layers")->num, LAYERS);
    ck_assert_int_eq((int)json_get(model, "heads")->num, HEADS);
    ck_assert_int_eq((int)json_get(model, "kv_heads")->num, kv_heads);
    ck_assert_int_eq((int)json_get(model, "d_model")->num, D);
    ck_assert_int_eq((int)json_get(model, "vocab")->num, VOCAB);
    ck_assert_int_eq((int)json_get(model, "context")->num, CONTEXT);
    /* every weight the test wrote, once */
    int params = 0;
    for (int i = 0; i < n_ws; i++)
        params += ws[i].rows * (ws[i].cols ? ws[i].cols : 1);
    ck_assert_int_eq((int)json_get(model, "params")->num, params);
    const JVal *toks = json_get(&root, "tokens");
    ck_assert_int_eq(toks->n, N_TOKENS);
    if (json_get(&toks->items[0], "text")->type == J_STR) {
        ck_assert_str_eq(json_get(&toks->items[0], "text")->str, "H");
        ck_assert_str_eq(json_get(&toks->items[6], "text")->str, " ");    /* Ġ read back as the space it stands for */
    }
    const JVal *heads = json_get(&root, "heads");
    ck_assert_int_eq(heads->n, LAYERS * HEADS);
    /* what each head does on the text (its shares on the token before,
     * the first, itself), kept past the document for below; and its kind,
     * the probe's, named by the highest of its four scores */
    double on_text[LAYERS * HEADS][3];
    for (int h = 0; h < LAYERS * HEADS; h++) {
        const JVal *t = json_get(&heads->items[h], "on_text"), *sc = json_get(&heads->items[h], "scores");
        ck_assert_msg(t && sc, "head %d has no on_text or scores", h);
        on_text[h][0] = json_get(t, "previous")->num;
        on_text[h][1] = json_get(t, "first")->num;
        on_text[h][2] = json_get(t, "self")->num;
        HeadScores hs = { json_get(sc, "previous")->num, json_get(sc, "first")->num, json_get(sc, "self")->num,
                          json_get(sc, "induction")->num };
        double score;
        ck_assert_str_eq(json_get(&heads->items[h], "kind")->str, model_head_kind(&hs, &score));
        ck_assert_msg(fabs(json_get(&heads->items[h], "score")->num - score) < 1e-4, "head %d", h);
    }
    ck_assert_int_eq((int)json_get(&heads->items[5], "layer")->num, 2);
    ck_assert_int_eq((int)json_get(&heads->items[5], "head")->num, 2);
    /* the next token: the reference's top 5, highest first */
    const JVal *next = json_get(&root, "next");
    ck_assert_int_eq(next->n, 5);
    double p_sum = 0, mx = logits[0];
    for (int i = 1; i < VOCAB; i++)
        mx = fmax(mx, logits[i]);
    for (int i = 0; i < VOCAB; i++)
        p_sum += exp(logits[i] - mx);
    for (int j = 0; j < 5; j++) {
        int id = (int)json_get(&next->items[j], "id")->num;
        double logit = json_get(&next->items[j], "logit")->num, p = json_get(&next->items[j], "p")->num;
        ck_assert_msg(fabs(logit - logits[id]) <= 1e-4, "%s: logit of %d is %.6f, PyTorch's %.6f", dtype, id, logit,
                      logits[id]);
        ck_assert_msg(fabs(p - exp(logits[id] - mx) / p_sum) <= 1e-4, "%s: p of %d", dtype, id);
        int higher = 0;
        for (int i = 0; i < VOCAB; i++)
            higher += logits[i] > logits[id] + 1e-9;
        ck_assert_msg(higher == j, "%s: next[%d] = %d is not PyTorch's rank %d", dtype, j, id, j);
    }
    json_free(&root);
    cmd_free(&r);
    /* every head's attention, (layers, heads, n, n) float32 */
    char path[600];
    snprintf(path, sizeof path, "%s/att.npy", dir);
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    unsigned char pre[10];
    ck_assert_int_eq(fread(pre, 1, 10, f), 10);
    ck_assert(memcmp(pre, "\x93NUMPY\x01\x00", 8) == 0);
    int hlen = pre[8] | pre[9] << 8;
    char head[256] = "";
    ck_assert(hlen < (int)sizeof head && fread(head, 1, (size_t)hlen, f) == (size_t)hlen);
    ck_assert_msg(strstr(head, "'descr': '<f4'") && strstr(head, "'shape': (2, 4, 13, 13)"), "%s", head);
    ck_assert_int_eq((10 + hlen) % 64, 0);
    static float got[LAYERS * HEADS * N_TOKENS * N_TOKENS];
    ck_assert_int_eq(fread(got, sizeof *got, sizeof got / sizeof *got, f), sizeof got / sizeof *got);
    fclose(f);
    double worst = 0;
    int at = 0;
    for (size_t i = 0; i < sizeof got / sizeof *got; i++)
        if (fabs(got[i] - att[i]) > worst) {
            worst = fabs(got[i] - att[i]);
            at = (int)i;
        }
    ck_assert_msg(worst <= 1e-4, "%s: attention differs from PyTorch's by %.3g at %d", dtype, worst, at);
    /* what each head does on the text (the pass runs on the fused kernels
     * and measures from each query's log-sum-exp) against the shares
     * PyTorch's weights give: on the token before, the first, itself */
    for (int h = 0; h < LAYERS * HEADS; h++) {
        const double *A = att + (size_t)h * N_TOKENS * N_TOKENS;
        double share[3] = { 0, 0, 0 };
        for (int i = 1; i < N_TOKENS; i++) {
            share[0] += A[i * N_TOKENS + i - 1] / (N_TOKENS - 1);
            share[1] += A[i * N_TOKENS] / (N_TOKENS - 1);
            share[2] += A[i * N_TOKENS + i] / (N_TOKENS - 1);
        }
        for (int k = 0; k < 3; k++)
            ck_assert_msg(fabs(on_text[h][k] - share[k]) <= 1e-4, "%s head %d: share %d %.5f, PyTorch's %.5f", dtype, h,
                          k, on_text[h][k], share[k]);
    }
}

START_TEST(a_tiny_gpt2_equals_pytorch)
{
    make_weights();
    char *dir = make_dir();
    write_text(dir, "config.json", config_json);
    write_vocab(dir);
    write_safetensors(dir, 0, "transformer.", NULL, NULL);
    matches_reference(dir, "f32", "gpt2", HEADS);
    /* the text through the byte-level BPE (no merges: a token a byte) gives
     * the very same document as its tokens */
    write_text(dir, "merges.txt", "#version: 0.2\n");
    CmdResult by_text = cmd_runf("%s model %s --text 'Hello, hello!' --json", attn_bin(), dir);
    CmdResult by_ids = cmd_runf("%s model %s --tokens %s --json", attn_bin(), dir, tokens);
    ck_assert_msg(by_text.status == 0, "%s", by_text.err);
    ck_assert_str_eq(by_text.out, by_ids.out);
    cmd_free(&by_text);
    cmd_free(&by_ids);
    /* BF16, under GPT2Model's names (no prefix) */
    write_safetensors(dir, 1, "", NULL, NULL);
    matches_reference(dir, "bf16", "gpt2", HEADS);
    /* a token's bytes as UTF-8: the byte 0 is U+0000, a byte alone is not
     * UTF-8 and reads U+FFFD */
    CmdResult bytes = cmd_runf("%s model %s --tokens 0,200,65 --json", attn_bin(), dir);
    ck_assert_msg(strstr(bytes.out, "\"tokens\": [{\"id\": 0, \"text\": \"\\u0000\"}, {\"id\": 200, \"text\": "
                                    "\"\\ufffd\"}, {\"id\": 65, \"text\": \"A\"}]"), "%s%s", bytes.out, bytes.err);
    cmd_free(&bytes);
    /* in two shards, as the hub splits a large checkpoint */
    write_shards(dir, NULL);
    matches_reference(dir, "f32", "gpt2", HEADS);
    char want[800];
    write_shards(dir, "h.0.ln_1.weight");
    refused(dir, "--tokens 1", "model.safetensors.index.json: tensor h.0.ln_1.weight is listed in "
                               "model-00002-of-00002.safetensors, which does not hold it");
    write_text(dir, "model.safetensors.index.json", "{\"weight_map\": {\"wte.weight\": \"../model.safetensors\"}}");
    refused(dir, "--tokens 1", "tensor wte.weight: its shard is not a file name in the directory");
    write_text(dir, "model.safetensors.index.json", "{\"weight_map\": {\"wte.weight\": \"gone.safetensors\"}}");
    snprintf(want, sizeof want, "attn: %s/gone.safetensors: cannot open it", dir);
    refused(dir, "--tokens 1", want);
    write_safetensors(dir, 0, "", NULL, NULL);
    /* attn bench --model times its forward pass (the keys, never the speed) */
    CmdResult b = cmd_runf("%s bench --model %s --n 8 --reps 1 --json", attn_bin(), dir);
    ck_assert_msg(b.status == 0, "%s", b.err);
    JVal doc;
    char jerr[200];
    ck_assert_msg(json_parse(b.out, &doc, jerr, sizeof jerr) == 0, "%s: %s", jerr, b.out);
    static const char *const keys[] = { "model", "params", "n", "reps", "threads", "median_ms", "min_ms", "max_ms",
                                        "tokens_per_s", "gflops", "peak_gflops", "peak_share", "products",
                                        "peak_rss_kb" };
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        ck_assert_msg(json_get(&doc, keys[i]) != NULL, "no %s in %s", keys[i], b.out);
    ck_assert_int_eq((int)json_get(&doc, "n")->num, 8);
    json_free(&doc);
    cmd_free(&b);
    /* --phases: each phase of the forward timed inside it, in the pass's
     * order, the products' with their rate, the others without */
    b = cmd_runf("%s bench --model %s --n 8 --reps 2 --phases --json", attn_bin(), dir);
    ck_assert_msg(b.status == 0, "%s", b.err);
    ck_assert_msg(json_parse(b.out, &doc, jerr, sizeof jerr) == 0, "%s: %s", jerr, b.out);
    const JVal *phases = json_get(&doc, "phases");
    static const char *const names[] = { "embeddings", "norms", "Q, K and V", "attention", "W_O", "MLP",
                                         "output layer" };
    ck_assert_msg(phases && phases->n == 7, "%s", b.out);
    for (int i = 0; i < 7; i++) {
        const JVal *ph = &phases->items[i];
        ck_assert_str_eq(json_get(ph, "phase")->str, names[i]);
        ck_assert_msg(json_get(ph, "ms")->num >= 0, "%s", b.out);
        ck_assert_msg((json_get(ph, "gflops")->num > 0) == (i >= 2), "%s: %s", names[i], b.out);
    }
    json_free(&doc);
    cmd_free(&b);
    b = cmd_runf("%s bench --model %s --n 8 --reps 1 --phases", attn_bin(), dir);
    ck_assert_msg(b.status == 0 && strstr(b.out, "phases, each timed inside every pass") && strstr(b.out, "    MLP "),
                  "%s%s", b.out, b.err);
    cmd_free(&b);
    b = cmd_runf("%s bench --model %s --n 33", attn_bin(), dir);
    ck_assert_msg(b.status == 2 && strstr(b.err, "--n is past the model's context"), "%s", b.err);
    cmd_free(&b);
    /* GPT-2 small's shape with random weights: its parameters, no download */
    b = cmd_runf("%s bench --model gpt2-small --n 4 --reps 1 --json", attn_bin());
    ck_assert_msg(b.status == 0 && strstr(b.out, "\"params\": 124439808"), "%s%s", b.out, b.err);
    cmd_free(&b);
    /* a Llama's: 12 layers, width 768, 4 key/value heads, SwiGLU of 2048, 32000 tokens, its products' path */
    b = cmd_runf("%s bench --model llama-small --n 4 --reps 1 --dtype bf16", attn_bin());
    ck_assert_msg(b.status == 0 && strstr(b.out, "llama-small (random weights), 124684032 parameters, 4 tokens")
                  && strstr(b.out, attention_bf16_supported() ? "products bf16 (avx512_bf16)" : "products float32"),
                  "%s%s", b.out, b.err);
    cmd_free(&b);
    /* the plain report names the kinds */
    CmdResult r = cmd_runf("%s model %s --tokens %s", attn_bin(), dir, tokens);
    ck_assert_msg(r.status == 0 && strstr(r.out, "gpt2: 2 layers x 4 heads, width 16, vocabulary 256, context 32")
                  && strstr(r.out, "layer head  kind"), "%s%s", r.out, r.err);
    cmd_free(&r);
    remove_dir(dir);
}
END_TEST

/* The message of attn model on dir. */
static void refused(const char *dir, const char *args, const char *want)
{
    CmdResult r = cmd_runf("%s model %s %s", attn_bin(), dir, args);
    ck_assert_msg(r.status == 2, "exit %d: %s", r.status, r.out);
    ck_assert_msg(strstr(r.err, want), "wanted %s, got %s", want, r.err);
    cmd_free(&r);
}

/* The Llama family: grouped-query heads and untied output (llama), q/k/v
 * biases with one key/value head and a tied output (qwen2), a sliding
 * window of 4 (mistral), each against transformers' computation in PyTorch. */
START_TEST(tiny_llamas_equal_pytorch)
{
    for (int k = 0; k < n_variants; k++) {
        const Variant *v = &variants[k];
        make_llama_weights(v);
        char *dir = make_dir();
        write_text(dir, "config.json", v->config);
        write_safetensors(dir, 0, "", NULL, NULL);
        matches_reference(dir, v->name, v->name, v->kv);
        if (k == 0) {
            /* tokenizer.json (a byte-level BPE, no merges): --text gives
             * the document --tokens gives, the tokens' text included */
            write_byte_tokenizer_json(dir);
            CmdResult by_text = cmd_runf("%s model %s --text 'Hello, hello!' --json", attn_bin(), dir);
            CmdResult by_ids = cmd_runf("%s model %s --tokens %s --json", attn_bin(), dir, tokens);
            ck_assert_msg(by_text.status == 0, "%s", by_text.err);
            ck_assert_str_eq(by_text.out, by_ids.out);
            ck_assert_msg(strstr(by_ids.out, "{\"id\": 72, \"text\": \"H\"}"), "%s", by_ids.out);
            cmd_free(&by_text);
            cmd_free(&by_ids);
        }
        remove_dir(dir);
    }
    free_weights();
}
END_TEST

/* A BF16 checkpoint computed as BF16 (model_open_as, MODEL_WEIGHTS_STORED:
 * where the CPU has AVX512_BF16 every product's weight and the embeddings
 * stay where they lie, and run on vdpbf16ps): its next-token logits within
 * the distance PyTorch's own BF16 forward lands from the exact logits of
 * those weights (scripts/make-model-reference measures it: 0.023 for
 * llama, 0.017 for qwen2, logits of about +-2.5); opened as float32, the
 * same file gives the exact logits to 1e-4. */
START_TEST(a_bf16_llama_computed_as_bf16)
{
    for (int k = 0; k < 2; k++) {
        const Variant *v = &variants[k];
        make_llama_weights(v);
        char *dir = make_dir(), path[600], name[32], why[200];
        write_safetensors(dir, 1, "", NULL, NULL);
        snprintf(path, sizeof path, "%s/model.safetensors", dir);
        size_t len = 0;
        unsigned char *bytes = (unsigned char *)slurp_n(path, &len);
        SafeTensors st;
        ModelConfig cfg;
        AttnError err = { 0 };
        ck_assert_msg(safetensors_parse(bytes, len, &st, &err) == ATTN_OK, "%s", err.msg);
        ck_assert_msg(model_config_parse(v->config, &cfg, &err) == ATTN_OK, "%s", err.msg);
        snprintf(path, sizeof path, "%s/models/tiny-models.json", getenv("ATTN_REF") ? getenv("ATTN_REF")
                                                                                       : "tests/reference");
        char *text = slurp(path);
        JVal root;
        ck_assert(text && json_parse(text, &root, why, sizeof why) == 0);
        snprintf(name, sizeof name, "%s-bf16", v->name);
        const JVal *ref = json_get(&root, name), *exact = json_get(ref, "logits");
        double tol = json_get(ref, "tolerance")->num;
        ck_assert(exact && exact->n == VOCAB && tol > 0.01 && tol < 0.05);
        int toks[N_TOKENS] = { 72, 101, 108, 108, 111, 44, 32, 104, 101, 108, 108, 111, 33 };
        for (int as = 0; as < 2; as++) {
            Model *m = model_open_as(&cfg, &st, as ? MODEL_WEIGHTS_STORED : MODEL_WEIGHTS_F32, &err);
            ck_assert_msg(m != NULL, "%s", err.msg);
            /* the embedding, each layer's seven products, lm_head unless tied */
            int bf16 = as && attention_bf16_supported() ? 1 + 7 * LAYERS + !v->tied : 0;
            ck_assert_int_eq(model_bf16_weights(m), bf16);
            ModelRun run;
            ck_assert_msg(model_forward(m, toks, N_TOKENS, &run, &err) == ATTN_OK, "%s", err.msg);
            double worst = 0;
            for (int i = 0; i < VOCAB; i++)
                worst = fmax(worst, fabs(run.logits[i] - exact->items[i].num));
            ck_assert_msg(worst <= (as ? tol : 1e-4), "%s %s: logits %.4g from the exact, PyTorch's BF16 forward %.4g",
                          v->name, as ? "as BF16" : "as float32", worst, tol);
            model_run_free(&run);
            model_free(m);
        }
        json_free(&root);
        free(text);
        safetensors_free(&st);
        free(bytes);
        remove_dir(dir);
    }
    free_weights();
}
END_TEST

START_TEST(a_model_that_cannot_be_read_says_why)
{
    make_weights();
    char *dir = make_dir();
    char want[800];
    write_text(dir, "config.json", config_json);
    write_safetensors(dir, 0, "", "h.1.mlp.c_fc.bias", NULL);
    snprintf(want, sizeof want, "attn: %s/model.safetensors: the checkpoint has no tensor h.1.mlp.c_fc.bias\n", dir);
    refused(dir, "--tokens 1,2", want);
    write_safetensors(dir, 0, "", NULL, "h.0.attn.c_proj.weight");
    write_safetensors(dir, 0, "", NULL, "h.0.attn.c_attn.weight");
    snprintf(want, sizeof want, "tensor h.0.attn.c_attn.weight has shape [48, 16]; the config makes it [16, 48]");
    refused(dir, "--tokens 1,2", want);
    write_safetensors(dir, 0, "", NULL, NULL);
    write_text(dir, "config.json", "{\"model_type\": \"gpt2\", \"n_layer\": 2, \"n_head\": 5, \"n_embd\": 16, "
                                   "\"vocab_size\": 256, \"n_positions\": 32}");
    snprintf(want, sizeof want, "attn: %s/config.json: config.json: 5 heads do not divide the width 16\n", dir);
    refused(dir, "--tokens 1,2", want);
    write_text(dir, "config.json", "{\"model_type\": \"gpt2\", \"n_layer\": 2, \"n_head\": 4, \"n_embd\": 16, "
                                   "\"vocab_size\": 256, \"n_positions\": 1e12}");
    refused(dir, "--tokens 1,2", "config.json: n_positions is missing or not a size attn reads");
    write_text(dir, "config.json", "{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"num_attention_heads\": 4, "
                                   "\"num_key_value_heads\": 3, \"hidden_size\": 16, \"intermediate_size\": 24, "
                                   "\"vocab_size\": 256, \"max_position_embeddings\": 32}");
    refused(dir, "--tokens 1,2", "config.json: 3 key/value heads do not divide the 4 heads");
    write_text(dir, "config.json", "{\"model_type\": \"t5\"}");
    refused(dir, "--tokens 1,2", "config.json: model_type \"t5\" is not one attn reads (it reads gpt2, llama, mistral, "
                                 "qwen2)");
    write_text(dir, "config.json", "not json");
    refused(dir, "--tokens 1,2", "config.json is not JSON");
    write_text(dir, "config.json", config_json);
    refused(dir, "--tokens 1,256", "token 2 is 256; the vocabulary has 0 to 255");
    refused(dir, "--tokens 1,,2", "--tokens takes ids separated by commas");
    snprintf(want, sizeof want, "attn: %s has no tokenizer (tokenizer.json, or vocab.json and merges.txt); give the "
             "tokens", dir);
    refused(dir, "--text hello", want);
    refused(dir, "--text hello --tokens 1", "give the text (--text TEXT) or its tokens (--tokens ID,ID,...), one of them");
    /* a file that lies about its header */
    CmdResult w = cmd_runf("printf '\\377\\377\\377\\377\\000\\000\\000\\000{}' > %s/model.safetensors", dir);
    cmd_free(&w);
    refused(dir, "--tokens 1", "model.safetensors: the header says 4294967295 bytes but the file holds 2 after its length");
    /* a checkpoint in shards, and none at all */
    CmdResult r = cmd_runf("rm %s/model.safetensors && echo '{}' > %s/model.safetensors.index.json", dir, dir);
    cmd_free(&r);
    refused(dir, "--tokens 1", "model.safetensors.index.json: no \"weight_map\" of tensor -> shard file");
    refused("/nonexistent/model", "--tokens 1", "attn: /nonexistent/model/config.json: cannot open it");
    remove_dir(dir);
    free_weights();
}
END_TEST

/* A head written as a lesson, for GPT-2 and each of the Llama family:
 * `attn check --strict` passes it (its exercises state their answers, its
 * check holds the lesson's softmax to the model's own forward pass), and
 * the weights it shows are the reference's. */
START_TEST(a_head_as_a_lesson_checks_against_the_forward)
{
    char *dir = make_dir(), out[600], cmd_out[700];
    snprintf(out, sizeof out, "%s/lesson", dir);
    for (int k = -1; k < n_variants; k++) {
        tiny_family_dir(dir, k);
        const char *family = k < 0 ? "gpt2" : variants[k].name;
        CmdResult r = cmd_runf("%s model %s --tokens %s --head-lesson 2,3 %s", attn_bin(), dir, tokens, out);
        snprintf(cmd_out, sizeof cmd_out, "%s/head.lesson\n", out);
        ck_assert_msg(r.status == 0 && strcmp(r.out, cmd_out) == 0, "%s: exit %d: %s%s", family, r.status, r.out,
                      r.err);
        cmd_free(&r);
        r = cmd_runf("%s check --strict %s/head.lesson", attn_bin(), out);
        ck_assert_msg(r.status == 0 && strstr(r.out, "3 passed, 0 failed"), "%s: %s%s", family, r.out, r.err);
        ck_assert_msg(strstr(r.out, "check A = A_model within 1e-4"), "%s: %s", family, r.out);
        cmd_free(&r);
        CmdResult lesson = cmd_runf("cat %s/head.lesson", out);
        /* the Llama family turns queries and keys by position; mistral's
         * window of 4 masks more than the causal mask */
        ck_assert_msg(!strstr(lesson.out, "rope_half(Q, 10000)") == (k < 0), "%s:\n%s", family, lesson.out);
        ck_assert_msg(!strstr(lesson.out, "window_mask(13, 4)") == (k < 0 || strcmp(family, "mistral") != 0),
                      "%s:\n%s", family, lesson.out);
        cmd_free(&lesson);
        free_weights();
    }
    /* the GPT-2 lesson's weights are PyTorch's, head 3 of layer 2 */
    tiny_gpt2_dir(dir);
    CmdResult r = cmd_runf("%s model %s --tokens %s --head-lesson 2,3 %s >/dev/null && %s run --json %s/head.lesson",
                           attn_bin(), dir, tokens, out, attn_bin(), out);
    ck_assert_msg(r.status == 0, "%s", r.err);
    JVal doc;
    char why[200];
    ck_assert_msg(json_parse(r.out, &doc, why, sizeof why) == 0, "%s", why);
    const JVal *a = json_get(json_get(json_get(&doc, "matrices"), "A"), "data");
    static double att[LAYERS * HEADS * N_TOKENS * N_TOKENS], logits[VOCAB];
    reference("f32", att, logits);
    ck_assert_msg(a && a->n == N_TOKENS, "no A of %d rows", N_TOKENS);
    for (int i = 0; i < N_TOKENS; i++)
        for (int j = 0; j < N_TOKENS; j++) {
            double want = att[((1 * HEADS + 2) * N_TOKENS + i) * N_TOKENS + j], got;
            ck_assert_int_eq(json_number(&a->items[i].items[j], &got), 0);
            ck_assert_msg(fabs(got - want) <= 1e-4, "A[%d,%d] = %g, PyTorch %g", i + 1, j + 1, got, want);
        }
    json_free(&doc);
    cmd_free(&r);
    refused(dir, "--tokens 1,2 --head-lesson 3,1 /tmp", "--head-lesson: the model has no such layer or head");
    refused(dir, "--tokens 1,2 --head-lesson 0,1 /tmp", "--head-lesson takes LAYER,HEAD (from 1) and a folder");
    free_weights();
    remove_dir(dir);
}
END_TEST

/* A GPT-2 built by hand to hold one induction head: no MLP (its weights
 * zero), one head a layer, and a residual stream of three one-hot parts,
 * the token (dims 0..vocab-1), the position (the next context) and the
 * token before (the last vocab, written by layer 1). Layer 1's head looks
 * one position back (its query is the position, its key the position after)
 * and writes the token it finds into the token-before part; layer 2's head
 * looks for the key whose token-before is the query's own token: on a
 * sequence shown twice, the token after the same token's first showing (its
 * weights 4, against the scores' division by sqrt of the width). Written to
 * a new folder, returned (the caller removes it). */
static float *hand_tensor(const char *name, int rows, int cols)
{
    W *w = &ws[n_ws++];
    snprintf(w->name, sizeof w->name, "%s", name);
    w->rows = rows;
    w->cols = cols;
    w->v = calloc((size_t)rows * (cols ? cols : 1), sizeof *w->v);
    return w->v;
}

static char *hand_induction_model(int vocab, int context)
{
    free_weights();
    int d = 2 * vocab + context, P = vocab, TB = vocab + context;   /* where the position and the token before begin */
    float *wte = hand_tensor("wte.weight", vocab, d), *wpe = hand_tensor("wpe.weight", context, d);
    for (int t = 0; t < vocab; t++)
        wte[t * d + t] = 1;
    for (int p = 0; p < context; p++)
        wpe[p * d + P + p] = 1;
    for (int l = 0; l < 2; l++) {
        char n[64];
#define T(part, r, c) (snprintf(n, sizeof n, "h.%d.%s", l, part), hand_tensor(n, r, c))
        float *ln1 = T("ln_1.weight", d, 0);
        T("ln_1.bias", d, 0);
        float *qkv = T("attn.c_attn.weight", d, 3 * d);
        T("attn.c_attn.bias", 3 * d, 0);
        float *proj = T("attn.c_proj.weight", d, d);
        T("attn.c_proj.bias", d, 0);
        float *ln2 = T("ln_2.weight", d, 0);
        T("ln_2.bias", d, 0);
        T("mlp.c_fc.weight", d, 4 * d);
        T("mlp.c_fc.bias", 4 * d, 0);
        T("mlp.c_proj.weight", 4 * d, d);
        T("mlp.c_proj.bias", d, 0);
#undef T
        for (int i = 0; i < d; i++)
            ln1[i] = ln2[i] = 1;
        if (l == 0) {
            for (int p = 0; p < context; p++) {
                qkv[(size_t)(P + p) * 3 * d + P + p] = 1;                     /* query: my position */
                if (p + 1 < context)
                    qkv[(size_t)(P + p) * 3 * d + d + P + p + 1] = 1;         /* key: the position after mine */
            }
            for (int t = 0; t < vocab; t++) {
                qkv[(size_t)t * 3 * d + 2 * d + TB + t] = 1;                  /* value: my token, as a token before */
                proj[(size_t)(TB + t) * d + TB + t] = 1;
            }
        } else {
            for (int t = 0; t < vocab; t++) {
                qkv[(size_t)t * 3 * d + t] = 4;                               /* query: my token */
                qkv[(size_t)(TB + t) * 3 * d + d + t] = 4;                    /* key: the token before me */
            }
        }
    }
    float *lnf = hand_tensor("ln_f.weight", d, 0);
    hand_tensor("ln_f.bias", d, 0);
    for (int i = 0; i < d; i++)
        lnf[i] = 1;
    char *dir = make_dir(), config[400];
    snprintf(config, sizeof config, "{\"model_type\": \"gpt2\", \"n_layer\": 2, \"n_head\": 1, \"n_embd\": %d, "
             "\"vocab_size\": %d, \"n_positions\": %d}", d, vocab, context);
    write_text(dir, "config.json", config);
    write_safetensors(dir, 0, "", NULL, NULL);
    return dir;
}

/* attn must name layer 1 of the hand-built model previous-token and layer 2
 * induction. */
START_TEST(an_induction_head_built_by_hand)
{
    char *dir = hand_induction_model(64, 32);
    CmdResult r = cmd_runf("%s model %s --tokens 1,2,3,4,5,6,1,2,3 --json", attn_bin(), dir);
    ck_assert_msg(r.status == 0, "%s", r.err);
    JVal doc;
    char why[200];
    ck_assert_msg(json_parse(r.out, &doc, why, sizeof why) == 0, "%s", why);
    const JVal *heads = json_get(&doc, "heads");
    ck_assert_int_eq(heads->n, 2);
    ck_assert_str_eq(json_get(&heads->items[0], "kind")->str, "previous-token");
    ck_assert_msg(json_get(&heads->items[0], "score")->num > 0.95, "%s", r.out);
    ck_assert_msg(strcmp(json_get(&heads->items[1], "kind")->str, "induction") == 0, "%s", r.out);
    ck_assert_msg(json_get(&heads->items[1], "score")->num > 0.6, "%s", r.out);
    json_free(&doc);
    cmd_free(&r);
    free_weights();
    remove_dir(dir);
}
END_TEST

/* The head as a lesson says what the head does, by the kind measured: the
 * hand-built induction head's lesson finds the earlier showing of the last
 * repeated token and the token after it, and asks for that weight; the
 * previous-token head's points at the diagonal below the main one; both
 * pass `attn check --strict`, and the induction head's answer is most of
 * its row. */
START_TEST(a_head_as_a_lesson_says_what_its_kind_does)
{
    char *dir = hand_induction_model(64, 32), out[600];
    snprintf(out, sizeof out, "%s/lesson", dir);
    static const struct {
        const char *head, *step, *says, *exercise;
    } kinds[] = {
        { "2,1", "step What this head does: induction",
          "Here token 9 (t9) was said before, as token 3 (t3); the token after\n    that is token 4 (t4).",
          "exercise How much of token 9's attention goes to token 4, the token after the earlier t9?" },
        { "1,1", "step What this head does: the token before", "the diagonal below the main one: A[2,1], A[3,2],",
          "exercise How much of token 9's attention goes to token 8, on the diagonal below the main one?" },
    };
    for (int k = 0; k < 2; k++) {
        CmdResult r = cmd_runf("%s model %s --tokens 1,2,3,4,5,6,1,2,3 --head-lesson %s %s", attn_bin(), dir,
                               kinds[k].head, out);
        ck_assert_msg(r.status == 0, "%s", r.err);
        cmd_free(&r);
        char path[700];
        snprintf(path, sizeof path, "%s/head.lesson", out);
        char *lesson = slurp(path);
        ck_assert_ptr_nonnull(lesson);
        ck_assert_msg(strstr(lesson, kinds[k].step) && strstr(lesson, kinds[k].says)
                      && strstr(lesson, kinds[k].exercise), "%s", lesson);
        if (k == 0) {
            const char *answer = strstr(lesson, "answer A[9,4] = ");
            ck_assert_msg(answer && atof(answer + strlen("answer A[9,4] = ")) > 0.5, "%s", lesson);
        }
        free(lesson);
        /* its exercise holds under --strict (the hand-built model's equal
         * scores may give the scale's exercise away: not this step's) */
        r = cmd_runf("%s check --strict %s", attn_bin(), path);
        const char *line = strstr(r.out, kinds[k].exercise);
        ck_assert_msg(line, "%s: %s%s", kinds[k].head, r.out, r.err);
        while (line > r.out && line[-1] != '\n')
            line--;
        ck_assert_msg(strncmp(line, "ok ", 3) == 0, "%s: %s", kinds[k].head, r.out);
        cmd_free(&r);
    }
    /* with no token said twice the induction head's step says so */
    CmdResult r = cmd_runf("%s model %s --tokens 1,2,3,4,5,6 --head-lesson 2,1 %s && cat %s/head.lesson", attn_bin(),
                           dir, out, out);
    ck_assert_msg(r.status == 0 && strstr(r.out, "No token of this text comes\n    again"), "%s%s", r.out, r.err);
    cmd_free(&r);
    free_weights();
    remove_dir(dir);
}
END_TEST

/* A head's lesson passes `attn check --strict` on a real model too: a cell
 * of an input or a weight that reads as an exercise's answer at the
 * screen's four decimals, by chance among thousands, is hidden with the
 * exercise (the shipped model on this text once had two such on head 2,3:
 * X[21,86] gave the scale's exercise away, V[7,30] the softmax's). */
START_TEST(a_head_lesson_hides_what_reads_as_its_answer_by_chance)
{
    char model[600], dir[] = "/tmp/attn-chance-XXXXXX";
    snprintf(model, sizeof model, "%s/../models/shakespeare-twice", lessons_dir());
    ck_assert_ptr_nonnull(mkdtemp(dir));
    static const char *const heads[] = { "1,1", "2,3", "3,2", "4,1" };
    for (int k = 0; k < 4; k++) {
        CmdResult r = cmd_runf("%s model %s --text 'to be or not to be, that is the question' --head-lesson %s %s/h%d "
                               "&& %s check --strict %s/h%d/head.lesson",
                               attn_bin(), model, heads[k], dir, k, attn_bin(), dir, k);
        ck_assert_msg(r.status == 0 && strstr(r.out, " passed, 0 failed"), "head %s: %s%s", heads[k], r.out, r.err);
        cmd_free(&r);
    }
    remove_dir(dir);
}
END_TEST

/* A forward's flops are its phases' flops; the attention's count each
 * query's keys as the causal pass computes them (n(n+1)/2 of them, not
 * n^2), and a sliding window's band (Mistral's) fewer still. */
START_TEST(a_forwards_flops_are_its_phases)
{
    ModelConfig c;
    AttnError err;
    ck_assert_int_eq(model_config_parse("{\"model_type\": \"gpt2\", \"n_layer\": 2, \"n_head\": 2, \"n_embd\": 8, "
                                        "\"vocab_size\": 10, \"n_positions\": 16}", &c, &err), ATTN_OK);
    double sum = 0;
    for (int p = 0; p < MODEL_PHASES; p++)
        sum += model_phase_flops(&c, 5, (ModelPhase)p);
    ck_assert_double_eq_tol(model_forward_flops(&c, 5), sum, 1e-9);
    /* 2 layers x (scores and sums: 2 x 2 flops) x 15 key-query pairs x 8 */
    ck_assert_double_eq_tol(model_phase_flops(&c, 5, MODEL_PHASE_ATTENTION), 2 * 4.0 * 15 * 8, 1e-9);
    ck_assert_double_eq_tol(model_phase_flops(&c, 5, MODEL_PHASE_QKV), 2 * 2.0 * 5 * 8 * 24, 1e-9);
    ck_assert_double_eq(model_phase_flops(&c, 5, MODEL_PHASE_NORM), 0);
    ck_assert_str_eq(model_phase_name(MODEL_PHASE_OUT), "W_O");
    c.sliding_window = 2;       /* keys 1, 2, 2, 2, 2 */
    ck_assert_double_eq_tol(model_phase_flops(&c, 5, MODEL_PHASE_ATTENTION), 2 * 4.0 * 9 * 8, 1e-9);
}
END_TEST

/* A lesson's progress is kept under its title, so a head's lesson on
 * another text (other numbers, other answers) has a title of its own: the
 * text's opening words and a mark of its tokens. It once had only the
 * model, layer and head, and the answers given on one text showed as
 * right on the next. The same text asked for again keeps its title. */
START_TEST(a_head_lesson_on_another_text_starts_afresh)
{
    char model[600], dir[] = "/tmp/attn-retext-XXXXXX", titles[3][300];
    snprintf(model, sizeof model, "%s/../models/shakespeare", lessons_dir());
    ck_assert_ptr_nonnull(mkdtemp(dir));
    static const char *const texts[] = { "abc abc abc", "abc abc abc", "xyz xyz xyz" };
    for (int k = 0; k < 3; k++) {
        CmdResult r = cmd_runf("%s model %s --text '%s' --head-lesson 1,1 %s/h%d >/dev/null && "
                               "grep '^lesson ' %s/h%d/head.lesson", attn_bin(), model, texts[k], dir, k, dir, k);
        ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
        snprintf(titles[k], sizeof titles[k], "%s", r.out);
        cmd_free(&r);
    }
    ck_assert_msg(strstr(titles[0], "lesson shakespeare: layer 1, head 1 on \"abc abc abc\" #"), "%s", titles[0]);
    ck_assert_str_eq(titles[0], titles[1]);
    ck_assert_msg(strcmp(titles[0], titles[2]) != 0, "two texts, one title: %s", titles[0]);
    remove_dir(dir);
}
END_TEST

/* attn train's induction score, the one its screen and its log draw over the
 * steps, on the same hand-built model as a GPT-2 of the 256 bytes: a step
 * at a rate too small to move a weight, then the log's line names layer 2's
 * head (its probe: bytes drawn as often as the text uses them, shown twice;
 * a byte drawn twice in one showing splits the head's weight between the
 * bytes after each, so 0.64 here, where an even spread would give 0.03). */
START_TEST(the_trainers_induction_score_finds_the_hand_built_head)
{
    char *dir = hand_induction_model(256, 64), data[700], line[600];
    snprintf(data, sizeof data, "%s/text.txt", dir);
    FILE *f = fopen(data, "w");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < 8; i++)
        fputs("Sphinx of black quartz, judge my vow; five boxing wizards jump.\n", f);
    fclose(f);
    CmdResult r = cmd_runf("%s train --init %s --data %s --out %s/run --steps 1 --batch 1 --lr 1e-9 --warmup 0 "
                           "--schedule constant --eval-every 1", attn_bin(), dir, data, dir);
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    const char *said = strstr(r.out, "induction L");
    ck_assert_msg(said && sscanf(said, "induction %599s", line) == 1, "%s", r.out);
    ck_assert_msg(strcmp(line, "L2H1") == 0 && atof(said + strlen("induction L2H1 ")) > 0.5, "%s", r.out);
    cmd_free(&r);
    free_weights();
    remove_dir(dir);
}
END_TEST

Suite *model_suite(void)
{
    Suite *s = suite_create("model");
    TCase *tc = tcase_create("model");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, a_tiny_gpt2_equals_pytorch);
    tcase_add_test(tc, tiny_llamas_equal_pytorch);
    tcase_add_test(tc, a_bf16_llama_computed_as_bf16);
    tcase_add_test(tc, a_model_that_cannot_be_read_says_why);
    tcase_add_test(tc, a_head_as_a_lesson_checks_against_the_forward);
    tcase_add_test(tc, an_induction_head_built_by_hand);
    tcase_add_test(tc, a_head_as_a_lesson_says_what_its_kind_does);
    tcase_add_test(tc, a_head_lesson_hides_what_reads_as_its_answer_by_chance);
    tcase_add_test(tc, a_head_lesson_on_another_text_starts_afresh);
    tcase_add_test(tc, a_forwards_flops_are_its_phases);
    tcase_add_test(tc, the_trainers_induction_score_finds_the_hand_built_head);
    suite_add_tcase(s, tc);
    return s;
}
