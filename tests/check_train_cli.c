/*
 * check_train_cli.c - `attn train` as a script uses it: one AdamW step from
 * --init on a file of context + 1 bytes gives PyTorch's weights (the
 * reference of check_train.c); its --json lines; what it saves `attn model`
 * opens; a run killed with SIGKILL at any moment and resumed ends with the
 * very weights and curve of one never stopped (one thread and two: bit
 * for bit);
 * SIGINT keeps everything and says how to go on; what it refuses.
 */
#include <check.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "json_read.h"
#include "safetensors.h"
#include "testutil.h"
#include "tiny_model.h"

static const char *ref_dir(void) { return getenv("ATTN_REF") ? getenv("ATTN_REF") : "tests/reference"; }

/* The project's copy of tiny Shakespeare. */
static const char *corpus(void)
{
    static char path[600];
    snprintf(path, sizeof path, "%s/../models/tinyshakespeare.txt", lessons_dir());
    return path;
}

START_TEST(one_step_from_init_is_pytorchs)
{
    char *dir = make_dir(), out[700], data[600];
    tiny_gpt2_dir(dir);
    free_weights();
    snprintf(out, sizeof out, "%s/trained", dir);
    snprintf(data, sizeof data, "%s/../data/train-33.txt", ref_dir());
    CmdResult r = cmd_runf("%s train --init %s --data %s --steps 1 --batch 1 --warmup 0 --schedule constant --out %s "
                           "--json --threads 1", attn_bin(), dir, data, out);
    ck_assert_msg(r.status == 0, "exit %d: %s%s", r.status, r.out, r.err);
    /* the lines: the one evaluation (its training loss PyTorch's), then done */
    char *ref_text = NULL, path[800];
    snprintf(path, sizeof path, "%s/train/one-step.json", ref_dir());
    ck_assert_ptr_nonnull(ref_text = slurp(path));
    JVal ref, line;
    char why[200];
    ck_assert_int_eq(json_parse(ref_text, &ref, why, sizeof why), 0);
    char *nl = strchr(r.out, '\n');
    ck_assert_ptr_nonnull(nl);
    *nl = '\0';
    ck_assert_msg(json_parse(r.out, &line, why, sizeof why) == 0, "%s: %s", why, r.out);
    static const char *const keys[] = { "step", "train_loss", "val_loss", "lr", "tokens_per_s", "induction" };
    ck_assert_int_eq(line.n, 6);
    for (int i = 0; i < 6; i++)
        ck_assert_str_eq(line.keys[i], keys[i]);
    ck_assert_int_eq((int)json_get(&line, "step")->num, 1);
    ck_assert_msg(fabs(json_get(&line, "train_loss")->num - json_get(&ref, "loss")->num) < 1e-5, "%s", r.out);
    ck_assert_msg(fabs(json_get(&line, "lr")->num - 1e-3) < 1e-12, "%s", r.out);
    json_free(&line);
    char want[800];
    snprintf(want, sizeof want, "{\"done\": true, \"out\": \"%s\"}\n", out);
    ck_assert_str_eq(nl + 1, want);
    cmd_free(&r);
    /* the weights saved: PyTorch's after its one step */
    snprintf(path, sizeof path, "%s/model.safetensors", out);
    size_t len;
    unsigned char *bytes = (unsigned char *)slurp_n(path, &len);
    SafeTensors st;
    AttnError err = { 0 };
    ck_assert_msg(safetensors_parse(bytes, len, &st, &err) == ATTN_OK, "%s", err.msg);
    const JVal *after = json_get(&ref, "after"), *grads = json_get(&ref, "grads");
    ck_assert_int_eq(st.n, after->n);
    for (int i = 0; i < after->n; i++) {
        const StTensor *t = safetensors_find(&st, after->keys[i]);
        ck_assert_msg(t && t->count == after->items[i].n, "no %s", after->keys[i]);
        float *v = malloc((size_t)t->count * sizeof *v);
        safetensors_to_f32(t, 0, t->count, v);
        const JVal *g = json_get(grads, after->keys[i]);
        for (int k = 0; k < t->count; k++) {
            double w = after->items[i].items[k].num, d = fabs(v[k] - w);
            /* a weight of no gradient (the key bias) moves by Adam's step
             * in the direction of rounding noise: within two steps */
            double tol = fabs(g->items[k].num) < 1e-6 ? 2e-3 : 1e-5 * fmax(fabs(w), 1e-2);
            ck_assert_msg(d <= tol, "%s[%d]: %.9g, PyTorch %.9g", after->keys[i], k, v[k], w);
        }
        free(v);
    }
    safetensors_free(&st);
    free(bytes);
    /* attn model opens what attn train saved */
    r = cmd_runf("%s model %s --text 'First' --json", attn_bin(), out);
    ck_assert_msg(r.status == 0 && strstr(r.out, "\"family\": \"gpt2\", \"layers\": 2, \"heads\": 4"), "%s%s", r.out,
                  r.err);
    cmd_free(&r);
    /* and so do other tools: config.json byte for byte as Hugging Face
     * spells one (1e-05 as Python writes it), the byte vocabulary with
     * its quote and backslash escaped */
    snprintf(path, sizeof path, "%s/config.json", out);
    char *config = slurp_n(path, &len);
    ck_assert_str_eq(config, "{\"model_type\": \"gpt2\", \"architectures\": [\"GPT2LMHeadModel\"], \"n_layer\": 2, "
                             "\"n_head\": 4, \"n_embd\": 16, \"n_positions\": 32, \"n_ctx\": 32, \"vocab_size\": 256, "
                             "\"n_inner\": null, \"activation_function\": \"gelu_new\", \"layer_norm_epsilon\": 1e-05, "
                             "\"tie_word_embeddings\": true, \"bos_token_id\": 10, \"eos_token_id\": 10}\n");
    free(config);
    snprintf(path, sizeof path, "%s/vocab.json", out);
    char *vocab = slurp_n(path, &len);
    static const char first[] = "{\"\u0100\": 0, ", last[] = ", \"\u00ff\": 255}\n";
    ck_assert_msg(len > sizeof first + sizeof last && strncmp(vocab, first, sizeof first - 1) == 0
                  && strcmp(vocab + len - (sizeof last - 1), last) == 0 && strstr(vocab, ", \"\\\"\": 34, ")
                  && strstr(vocab, ", \"\\\\\": 92, "), "%s", vocab);
    free(vocab);
    json_free(&ref);
    free(ref_text);
    remove_dir(dir);
}
END_TEST

/* The --json lines of a run, the rate left out (it is the clock's). */
static char *curve_of(const char *out)
{
    static char buf[65536];
    size_t k = 0;
    for (const char *p = out; *p && k + 200 < sizeof buf;) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        const char *rate = strstr(p, ", \"tokens_per_s\"");
        size_t keep = rate && rate < p + n ? (size_t)(rate - p) : n;
        memcpy(buf + k, p, keep);
        k += keep;
        buf[k++] = '\n';
        p += n + (end ? 1 : 0);
    }
    buf[k] = '\0';
    return buf;
}

#define SMALL "--layers 2 --heads 2 --d 16 --context 16 --batch 2 --steps 1500 --eval-every 50 --warmup 20"

/* On one thread (_i = 0) and two (_i = 1), every run and resume alike:
 * the issue asks two threads for 1e-6; attn's pool splits the work so
 * that each number is made by one thread in one order, so both must be
 * the very bytes. */
START_TEST(killed_and_resumed_is_as_never_stopped)
{
    char *dir = make_dir(), cmd[2000];
    int threads = 1 + _i;
    /* never stopped */
    CmdResult whole = cmd_runf("%s train --data %s --out %s/whole " SMALL " --threads %d --json", attn_bin(), corpus(),
                               dir, threads);
    ck_assert_msg(whole.status == 0, "%s", whole.err);
    /* killed outright part of the way, at a moment of the clock's choosing,
     * then resumed (as often as it takes) */
    int kills = 0;
    for (int tries = 0; tries < 8; tries++) {
        snprintf(cmd, sizeof cmd, "%s train --data %s --out %s/killed " SMALL " --threads %d --json >> %s/killed.out "
                 "2>&1 & pid=$!; sleep 0.%d; kill -9 $pid 2>/dev/null && echo killed; wait $pid; true", attn_bin(),
                 corpus(), dir, threads, dir, 2 + tries);
        char ckpt[700];
        snprintf(ckpt, sizeof ckpt, "%s/killed/checkpoint.bin", dir);
        if (tries > 0 && access(ckpt, F_OK) == 0) {
            /* resumed with the run's own settings: it takes them back from
             * the checkpoint (a run killed before its first one, on a busy
             * machine, starts again as it was started) */
            snprintf(cmd, sizeof cmd, "%s train --data %s --out %s/killed --threads %d --json --resume >> "
                     "%s/killed.out 2>&1 & pid=$!; sleep 0.%d; kill -9 $pid 2>/dev/null && echo killed; wait $pid; "
                     "true", attn_bin(), corpus(), dir, threads, dir, 2 + tries);
        }
        CmdResult k = cmd_run(cmd);
        kills += strstr(k.out, "killed") != NULL;
        int done = strstr(k.out, "killed") == NULL;
        cmd_free(&k);
        if (done)
            break;
    }
    ck_assert_msg(kills > 0, "the run finished before it could be killed");
    CmdResult last = cmd_runf("%s train --data %s --out %s/killed --threads %d --json --resume", attn_bin(), corpus(),
                              dir, threads);
    /* it may have finished in the loop already: then resuming is refused? no: the
     * run is at its last step and only saves again */
    ck_assert_msg(last.status == 0, "%s", last.err);
    CmdResult same = cmd_runf("cmp %s/whole/model.safetensors %s/killed/model.safetensors", dir, dir);
    ck_assert_msg(same.status == 0, "%d thread(s): the resumed run's weights differ: %s", threads, same.out);
    cmd_free(&same);
    /* every evaluation the resumed runs printed is the uninterrupted run's */
    CmdResult all = cmd_runf("cat %s/killed.out; echo; cat /dev/null", dir);
    char *want = strdup(curve_of(whole.out));
    char *got = curve_of(all.out);
    for (char *line = strtok(got, "\n"); line; line = strtok(NULL, "\n"))
        if (strncmp(line, "{\"step\"", 7) == 0)
            ck_assert_msg(strstr(want, line), "a resumed run printed %s, which the whole run did not:\n%s", line, want);
    free(want);
    cmd_free(&all);
    cmd_free(&last);
    cmd_free(&whole);
    remove_dir(dir);
}
END_TEST

START_TEST(interrupted_and_refused)
{
    char *dir = make_dir();
    /* SIGINT: everything kept, and how to go on said */
    CmdResult r = cmd_runf("%s train --data %s --out %s/run " SMALL " & pid=$!; sleep 0.3; kill -INT $pid; wait $pid; "
                           "echo status $?", attn_bin(), corpus(), dir);
    ck_assert_msg(strstr(r.out, "status 130") && strstr(r.err, "attn: stopped after ")
                  && strstr(r.err, "; attn train --resume --out "), "%s%s", r.out, r.err);
    cmd_free(&r);
    /* the same command with --resume added, as people type it: taken */
    r = cmd_runf("%s train --data %s --out %s/run " SMALL " --resume", attn_bin(), corpus(), dir);
    ck_assert_msg(r.status == 0 && strstr(r.out, "step 1500/1500"), "%s%s", r.out, r.err);
    cmd_free(&r);
    /* its lines kept in the run's folder, and the word on induction at the end */
    r = cmd_runf("cat %s/run/train.log", dir);
    ck_assert_msg(strstr(r.out, "step 50/1500  train ") && strstr(r.out, "step 1500/1500  train ")
                  && strstr(r.out, "no head reached the induction mark (0.4)")
                  && strstr(r.out, "--data models/tinyshakespeare-twice.txt"), "%s", r.out);
    cmd_free(&r);
    /* --help is help */
    r = cmd_runf("%s train --help", attn_bin());
    ck_assert_msg(r.status == 0 && strstr(r.out, "usage: attn train [--data FILE]") && !r.err[0], "%s%s", r.out, r.err);
    cmd_free(&r);
    /* a context shorter than --init's model: honoured */
    r = cmd_runf("%s train --data %s --init %s/run --out %s/short --context 8 --steps 1 --batch 1 --json", attn_bin(),
                 corpus(), dir, dir);
    ck_assert_msg(r.status == 0, "%s", r.err);
    cmd_free(&r);
    r = cmd_runf("%s train --data %s --out %s/short --context 8 --steps 1 --batch 1 --resume", attn_bin(), corpus(), dir);
    ck_assert_msg(r.status == 0, "the run's own context 8 is taken: %s", r.err);
    cmd_free(&r);
    r = cmd_runf("%s train --data %s --out %s/run --resume --layers 3", attn_bin(), corpus(), dir);
    ck_assert_msg(r.status == 2 && strstr(r.err, "--layers 3, but the run in ") && strstr(r.err, "has 2: --resume goes "
                  "on with the run's own settings"), "%s", r.err);
    cmd_free(&r);
    r = cmd_runf("%s train --data %s --out %s/short --context 16 --resume", attn_bin(), corpus(), dir);
    ck_assert_msg(r.status == 2 && strstr(r.err, "--context 16, but the run in ") && strstr(r.err, "has 8"), "%s", r.err);
    cmd_free(&r);
    /* what is refused, with why */
    static const struct {
        const char *args, *err;
    } refused[] = {
        { "--heads 3 --d 16", "3 heads, width 16" },
        { "--lr x", "--lr does not take 'x'" },
        { "--schedule linear", "--schedule does not take 'linear'" },
        { "--bogus 1", "an unknown option" },
        { "--steps", "an option without its value, or unknown" },
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        r = cmd_runf("%s train --data %s --out %s/x %s", attn_bin(), corpus(), dir, refused[i].args);
        ck_assert_msg(r.status == 2 && strstr(r.err, refused[i].err), "%s: %s", refused[i].args, r.err);
        cmd_free(&r);
    }
    r = cmd_runf("%s train --out %s/none --resume", attn_bin(), dir);
    ck_assert_msg(r.status == 2 && strstr(r.err, "/none/checkpoint.bin: cannot open it"), "%s", r.err);
    cmd_free(&r);
    r = cmd_runf("%s train --data %s/../data/train-33.txt --out %s/run --resume", attn_bin(), ref_dir(), dir);
    ck_assert_msg(r.status == 2 && strstr(r.err, "not the text the run in"), "%s", r.err);
    cmd_free(&r);
    r = cmd_runf("printf 'damaged' > %s/bad.bin; mkdir %s/bad; cp %s/run/checkpoint.bin %s/bad/; "
                 "printf x | dd of=%s/bad/checkpoint.bin bs=1 seek=100 conv=notrunc 2>/dev/null; "
                 "%s train --data %s --out %s/bad --resume", dir, dir, dir, dir, dir, attn_bin(), corpus(), dir);
    ck_assert_msg(r.status == 2 && strstr(r.err, "checkpoint.bin: damaged: its checksum does not match"), "%s", r.err);
    cmd_free(&r);
    r = cmd_runf("%s train --data %s/../data/train-33.txt --out %s/y --context 64", attn_bin(), ref_dir(), dir);
    ck_assert_msg(r.status == 2 && strstr(r.err, "train-33.txt: 33 bytes, fewer than a sequence of 64"), "%s", r.err);
    cmd_free(&r);
    r = cmd_runf("touch %s/file; %s train --data %s --out %s/file --steps 2 --layers 1 --d 8 --heads 1 --context 8 "
                 "--batch 1 --eval-every 1", dir, attn_bin(), corpus(), dir);
    /* refused at once, before a step: it once trained to the first
     * evaluation, then said "the last checkpoint written is kept" of none */
    ck_assert_msg(r.status == 2 && strstr(r.err, "/file: cannot make the folder: a file, not a folder, is in the way")
                  && !strstr(r.err, "kept"), "%s", r.err);
    cmd_free(&r);
    remove_dir(dir);
}
END_TEST

/* attn bench --train: the keys a script reads (never the speed) */
START_TEST(bench_train_gives_its_keys)
{
    CmdResult r = cmd_runf("%s bench --train --steps 1 --json", attn_bin());
    ck_assert_msg(r.status == 0, "%s", r.err);
    JVal doc;
    char why[200];
    ck_assert_msg(json_parse(r.out, &doc, why, sizeof why) == 0, "%s: %s", why, r.out);
    static const char *const keys[] = { "model", "steps", "threads", "median_ms", "tokens_per_s", "gflops",
                                        "peak_gflops", "peak_share" };
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        ck_assert_msg(json_get(&doc, keys[i]) != NULL, "no %s in %s", keys[i], r.out);
    ck_assert_msg(json_get(&doc, "tokens_per_s")->num > 0, "%s", r.out);
    json_free(&doc);
    cmd_free(&r);
    r = cmd_runf("%s bench --train --steps 0", attn_bin());
    ck_assert_msg(r.status == 2 && strstr(r.err, "--steps is from 1 to 1000"), "%s", r.err);
    cmd_free(&r);
    /* --threads sets attn's pool for the measurement (scripts/bench-train-vs-torch sets the two sides alike) */
    r = cmd_runf("%s bench --train --steps 1 --threads 1", attn_bin());
    ck_assert_msg(r.status == 0 && strstr(r.out, "(batch 16 x 128 bytes), 1 thread: median"), "%s%s", r.out, r.err);
    cmd_free(&r);
    r = cmd_runf("%s bench --train --threads 0", attn_bin());
    ck_assert_msg(r.status == 2 && strstr(r.err, "bench --train takes"), "%s", r.err);
    cmd_free(&r);
}
END_TEST

/* The models attn ships (models/shakespeare and models/shakespeare-twice,
 * trained by the commands the README gives): each opens, and its loss on
 * its validation text is the one models/README.md states for it ("NAME/:
 * ... validation loss X"). */
START_TEST(the_shipped_models_are_as_said)
{
    static const char *const shipped[2][2] = { { "shakespeare", "tinyshakespeare.txt" },
                                                { "shakespeare-twice", "tinyshakespeare-twice.txt" } };
    const char *name = shipped[_i][0], *data = shipped[_i][1];
    char models[600], path[700], heading[100];
    snprintf(models, sizeof models, "%s/../models", lessons_dir());
    snprintf(path, sizeof path, "%s/README.md", models);
    char *readme = slurp(path);
    ck_assert_ptr_nonnull(readme);
    snprintf(heading, sizeof heading, "`%s/`:", name);
    const char *entry = strstr(readme, heading);
    ck_assert_msg(entry, "%s has no entry %s", path, heading);
    const char *said = strstr(entry, "validation loss ");
    ck_assert_msg(said, "%s states no validation loss for %s", path, name);
    double want = atof(said + strlen("validation loss "));
    CmdResult r = cmd_runf("%s train --init %s/%s --data %s/%s --validate --json", attn_bin(), models, name, models, data);
    ck_assert_msg(r.status == 0, "%s", r.err);
    const char *got = strstr(r.out, "\"val_loss\": ");
    ck_assert_ptr_nonnull(got);
    ck_assert_msg(fabs(atof(got + strlen("\"val_loss\": ")) - want) < 5e-4, "%s: measured %s, the README says %.4f",
                  name, r.out, want);
    cmd_free(&r);
    r = cmd_runf("%s model %s/%s --text 'ROMEO:' --json", attn_bin(), models, name);
    ck_assert_msg(r.status == 0 && strstr(r.out, "\"family\": \"gpt2\", \"layers\": 4, \"heads\": 4"), "%s%s", r.out,
                  r.err);
    cmd_free(&r);
    free(readme);
}
END_TEST

/* The model screen's kinds agree with what attn train's log says of the
 * shipped models: head 2 of layer 3 of the twice model is an induction head
 * (its random sequence drawn from the text shown, a model of bytes; drawn
 * evenly from printable ASCII it had scored 0.02 and been called broad), and
 * no head of the plain model is one. */
static const JVal *head_entry(const JVal *heads, int layer, int head)
{
    for (int i = 0; i < heads->n; i++)
        if (json_get(&heads->items[i], "layer")->num == layer && json_get(&heads->items[i], "head")->num == head)
            return &heads->items[i];
    return NULL;
}

/* One model, one probe: the induction score attn train reports for a
 * head at its last evaluation is the one attn model gives the saved model,
 * and a head's kind and scores do not move with the text looked at. */
START_TEST(train_and_model_give_one_induction_score)
{
    char *dir = make_dir(), out[200];
    snprintf(out, sizeof out, "%s/run", dir);
    CmdResult r = cmd_runf("%s train --data %s --out %s --steps 3 --layers 2 --d 16 --heads 2 --context 32 --batch 2 "
                           "--eval-every 3 --warmup 0 --json", attn_bin(), corpus(), out);
    ck_assert_msg(r.status == 0, "%s", r.err);
    JVal line;
    char why[200];
    char *nl = strchr(r.out, '\n');
    *nl = '\0';
    ck_assert_msg(json_parse(r.out, &line, why, sizeof why) == 0, "%s: %s", why, r.out);
    const JVal *ind = json_get(&line, "induction");
    ck_assert_msg(ind && ind->n == 2 && ind->items[0].n == 2, "%s", r.out);
    const char *texts[2] = { "the queen is ill.", "ROMEO: what light" };
    char kinds[2][4][40];
    for (int k = 0; k < 2; k++) {
        CmdResult m = cmd_runf("%s model %s --text '%s' --json", attn_bin(), out, texts[k]);
        ck_assert_msg(m.status == 0, "%s", m.err);
        JVal doc;
        ck_assert_msg(json_parse(m.out, &doc, why, sizeof why) == 0, "%s", why);
        const JVal *heads = json_get(&doc, "heads");
        ck_assert_int_eq(heads->n, 4);
        for (int h = 0; h < 4; h++) {
            const JVal *e = &heads->items[h];
            int layer = (int)json_get(e, "layer")->num - 1, head = (int)json_get(e, "head")->num - 1;
            double trained = ind->items[layer].items[head].num;
            double looked = json_get(json_get(e, "scores"), "induction")->num;
            ck_assert_msg(fabs(trained - looked) <= 1e-4, "L%dH%d: attn train %.4f, attn model %.4f", layer + 1,
                          head + 1, trained, looked);
            snprintf(kinds[k][h], sizeof kinds[k][h], "%s %.4f", json_get(e, "kind")->str, json_get(e, "score")->num);
            if (k == 1)
                ck_assert_str_eq(kinds[1][h], kinds[0][h]);
        }
        json_free(&doc);
        cmd_free(&m);
    }
    json_free(&line);
    cmd_free(&r);
    remove_dir(dir);
}
END_TEST

START_TEST(the_model_screen_finds_the_twice_models_induction_head)
{
    char models[600];
    snprintf(models, sizeof models, "%s/../models", lessons_dir());
    const char *names[2] = { "shakespeare-twice", "shakespeare" };
    for (int m = 0; m < 2; m++) {
        CmdResult r = cmd_runf("%s model %s/%s --text 'the queen is ill.\nthe queen is ill.\n' --json", attn_bin(),
                               models, names[m]);
        ck_assert_msg(r.status == 0, "%s", r.err);
        JVal doc;
        char why[200];
        ck_assert_msg(json_parse(r.out, &doc, why, sizeof why) == 0, "%s", why);
        const JVal *heads = json_get(&doc, "heads");
        ck_assert_int_eq(heads->n, 16);
        int inductions = 0;
        for (int i = 0; i < heads->n; i++)
            inductions += strcmp(json_get(&heads->items[i], "kind")->str, "induction") == 0;
        if (m == 0) {
            const JVal *h = head_entry(heads, 3, 2);
            ck_assert_ptr_nonnull(h);
            ck_assert_msg(strcmp(json_get(h, "kind")->str, "induction") == 0 && json_get(h, "score")->num > 0.4,
                          "%s", r.out);
            ck_assert_msg(inductions == 1, "%s", r.out);
        } else {
            ck_assert_msg(inductions == 0, "%s", r.out);
        }
        json_free(&doc);
        cmd_free(&r);
    }
}
END_TEST

/* models/tinyshakespeare-twice.txt is the plays with every line said twice:
 * each line of tinyshakespeare.txt, then the same line again, nothing else
 * (so the copy cannot drift from the text it is made from). */
START_TEST(the_twice_text_is_each_line_twice)
{
    char path[700];
    size_t len, len2;
    snprintf(path, sizeof path, "%s/../models/tinyshakespeare.txt", lessons_dir());
    char *once = slurp_n(path, &len);
    snprintf(path, sizeof path, "%s/../models/tinyshakespeare-twice.txt", lessons_dir());
    char *twice = slurp_n(path, &len2);
    ck_assert_ptr_nonnull(once);
    ck_assert_ptr_nonnull(twice);
    ck_assert_msg(once[len - 1] == '\n' && len2 == 2 * len, "%zu bytes, not twice %zu", len2, len);
    size_t at = 0, lines = 0;
    for (size_t start = 0; start < len; lines++) {
        size_t end = start;
        while (once[end] != '\n')
            end++;
        size_t n = end - start + 1;
        ck_assert_msg(memcmp(twice + at, once + start, n) == 0 && memcmp(twice + at + n, once + start, n) == 0,
                      "line %zu is not said twice", lines + 1);
        at += 2 * n;
        start = end + 1;
    }
    ck_assert_uint_eq(at, len2);
    free(once);
    free(twice);
}
END_TEST

Suite *train_cli_suite(void)
{
    Suite *s = suite_create("train_cli");
    TCase *tc = tcase_create("train_cli");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, one_step_from_init_is_pytorchs);
    tcase_add_loop_test(tc, killed_and_resumed_is_as_never_stopped, 0, 2);
    tcase_add_test(tc, interrupted_and_refused);
    tcase_add_test(tc, bench_train_gives_its_keys);
    tcase_add_loop_test(tc, the_shipped_models_are_as_said, 0, 2);
    tcase_add_test(tc, the_twice_text_is_each_line_twice);
    tcase_add_test(tc, the_model_screen_finds_the_twice_models_induction_head);
    tcase_add_test(tc, train_and_model_give_one_induction_score);
    suite_add_tcase(s, tc);
    return s;
}
