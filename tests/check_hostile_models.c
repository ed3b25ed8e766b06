/*
 * check_hostile_models.c - the third hostile review (issue #43), one
 * regression test per finding on the model and training surfaces: forged
 * checkpoints, FIFOs in a model folder, an output that is one of the
 * model's own files, weights cut short under their mapping, planted
 * temporary files, folders attn did not write, a huge data file, head
 * lessons of any text and path, long paths, numbers that wrapped, and
 * escapes. (The tokenizer's and the JSON reader's findings are in
 * check_bpe.c.) Every command runs under `timeout`, so a hang fails
 * instead of hanging the suite.
 */
#include <check.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_write.h"
#include "model_look.h"
#include "model_shelf.h"
#include "testutil.h"
#include "tiny_model.h"
#include "train_state.h"

/* The project's copy of tiny Shakespeare. */
static const char *corpus(void)
{
    static char path[600];
    snprintf(path, sizeof path, "%s/../models/tinyshakespeare.txt", lessons_dir());
    return path;
}

/* The smallest run attn train makes, into out: 2 steps, an evaluation
 * each. */
static CmdResult tiny_run(const char *out, const char *more)
{
    return cmd_runf("timeout 60 %s train --data %s --out '%s' --steps 2 --layers 1 --d 8 --heads 1 --context 8 "
                    "--batch 1 --eval-every 1 --warmup 0 %s", attn_bin(), corpus(), out, more ? more : "");
}

/* ---- forged checkpoints -------------------------------------------------- */

static uint64_t fnv(const unsigned char *b, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* dir/checkpoint.bin's len bytes at offset replaced by value, its checksum
 * made right again (anyone can): what `attn train --resume` then says. */
static CmdResult forge(const char *from, const char *dir, size_t offset, const void *value, size_t len)
{
    char path[700];
    snprintf(path, sizeof path, "%s/checkpoint.bin", from);
    size_t n;
    unsigned char *b = (unsigned char *)slurp_n(path, &n);
    ck_assert_ptr_nonnull(b);
    ck_assert(offset + len + 8 <= n);
    memcpy(b + offset, value, len);
    uint64_t sum = fnv(b, n - 8);
    memcpy(b + n - 8, &sum, 8);
    CmdResult r = cmd_runf("rm -rf '%s'; mkdir -p '%s'", dir, dir);
    cmd_free(&r);
    snprintf(path, sizeof path, "%s/checkpoint.bin", dir);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert(fwrite(b, 1, n, f) == n);
    fclose(f);
    free(b);
    return cmd_runf("timeout 60 %s train --data %s --out '%s' --resume", attn_bin(), corpus(), dir);
}

/* The checkpoint's layout (train_state.c): the magic, a version, the
 * settings, the step, the generator, ... */
#define AT_SETTINGS 12
#define AT_STEP (AT_SETTINGS + sizeof(TrainSettings))
#define AT_RNG (AT_STEP + sizeof(int64_t))
#define AT_WEIGHTS_FROM_END(count) (8 + 3 * (count) * sizeof(float))

START_TEST(a_forged_checkpoint_is_held_to_the_command_lines_ranges)
{
    char *tmp = make_dir(), run[200], forged[200];
    snprintf(run, sizeof run, "%s/run", tmp);
    snprintf(forged, sizeof forged, "%s/forged", tmp);
    CmdResult r = tiny_run(run, NULL);
    ck_assert_msg(r.status == 0, "%s", r.err);
    cmd_free(&r);
    int64_t zero = 0, minus = -5, back = -100;
    int one = 1;
    struct {
        size_t at;
        const void *v;
        size_t len;
        const char *says;
    } forged_fields[] = {
        /* eval_every 0 was a division by zero (SIGFPE) */
        { AT_SETTINGS + offsetof(TrainSettings, eval_every), &zero, 8, "--eval-every is 0, outside 1 to" },
        /* a vocabulary of 1 wrote past the embeddings */
        { AT_SETTINGS + offsetof(TrainSettings, shape) + offsetof(GptShape, vocab), &one, sizeof one,
          "the vocabulary is 1, outside 256 to 256" },
        /* steps -5 trained with negative learning rates */
        { AT_SETTINGS + offsetof(TrainSettings, steps), &minus, 8, "--steps is -5, outside 1 to" },
        { AT_STEP, &back, 8, "its step -100 is outside 0 to 2" },
        /* a width far below zero was multiplied (4 x d, an overflow UBSan
         * names) before the check refused it */
        { AT_SETTINGS + offsetof(TrainSettings, shape) + offsetof(GptShape, d), &(int){ -1707126686 }, sizeof(int),
          "--d is -1.70713e+09, outside 1 to" },
        { AT_RNG + offsetof(Rng, mti), &(int){ 100000 }, sizeof(int), "its batches' generator is not in a state" },
    };
    for (size_t i = 0; i < sizeof forged_fields / sizeof *forged_fields; i++) {
        r = forge(run, forged, forged_fields[i].at, forged_fields[i].v, forged_fields[i].len);
        ck_assert_msg(r.status == 2 && strstr(r.err, "checkpoint.bin: not a checkpoint attn train wrote: ")
                          && strstr(r.err, forged_fields[i].says), "%zu: exit %d: %s", i, r.status, r.err);
        cmd_free(&r);
    }
    /* a weight that is not a number */
    char path[300];
    snprintf(path, sizeof path, "%s/checkpoint.bin", run);
    size_t n;
    free(slurp_n(path, &n));
    float nan_weight = NAN;
    r = forge(run, forged, n - 8 - 4, &nan_weight, 4);      /* the last second moment */
    ck_assert_msg(r.status == 2 && strstr(r.err, "a weight or a moment is not a finite number"), "%s", r.err);
    cmd_free(&r);
    remove_dir(tmp);
}
END_TEST

/* ---- FIFOs, outputs, files changed under the model ----------------------- */

START_TEST(a_fifo_in_a_model_folder_never_hangs_attn)
{
    static const char *const fifos[] = { "model.safetensors", "tokenizer.json", "vocab.json" };
    for (size_t i = 0; i < sizeof fifos / sizeof *fifos; i++) {
        char *dir = make_dir();
        tiny_gpt2_dir(dir);
        free_weights();
        CmdResult r = cmd_runf("cd %s && rm -f %s && mkfifo %s", dir, fifos[i], fifos[i]);
        cmd_free(&r);
        r = cmd_runf("timeout 20 %s model %s --text hi", attn_bin(), dir);
        ck_assert_msg(r.status == 2 && strstr(r.err, fifos[i]) && strstr(r.err, "it is a FIFO, not a regular file"),
                      "%s: exit %d: %s", fifos[i], r.status, r.err);
        cmd_free(&r);
        if (i == 0) {
            r = cmd_runf("timeout 20 %s bench --model %s --n 4 --reps 1", attn_bin(), dir);
            ck_assert_msg(r.status == 2 && strstr(r.err, "it is a FIFO"), "bench: %d: %s", r.status, r.err);
            cmd_free(&r);
            r = cmd_runf("timeout 20 %s train --init %s --out %s/t --steps 1", attn_bin(), dir, dir);
            ck_assert_msg(r.status == 2 && strstr(r.err, "it is a FIFO"), "train: %d: %s", r.status, r.err);
            cmd_free(&r);
        }
        remove_dir(dir);
    }
    /* the shelf (the menu's m) looks at a FIFO named config.json without
     * opening it: it returns, and opening the model says what it is */
    char *shelf = make_dir(), sub[300];
    snprintf(sub, sizeof sub, "%s/fifo-model", shelf);
    CmdResult r = cmd_runf("mkdir %s && mkfifo %s/config.json", sub, sub);
    cmd_free(&r);
    setenv("ATTN_MODELS", shelf, 1);
    ModelShelf s;
    model_shelf_find(&s);
    int found = 0;
    for (int i = 0; i < s.n; i++)
        found |= strcmp(s.path[i], sub) == 0;
    model_shelf_free(&s);
    ck_assert(found);
    r = cmd_runf("timeout 20 %s model %s --tokens 1", attn_bin(), sub);
    ck_assert_msg(r.status == 2 && strstr(r.err, "config.json: it is a FIFO"), "%s", r.err);
    cmd_free(&r);
    remove_dir(shelf);
}
END_TEST

START_TEST(an_output_is_never_a_file_the_model_reads)
{
    char *dir = make_dir();
    tiny_gpt2_dir(dir);
    free_weights();
    struct stat before, after;
    char weights[300];
    snprintf(weights, sizeof weights, "%s/model.safetensors", dir);
    ck_assert_int_eq(stat(weights, &before), 0);
    CmdResult r = cmd_runf("timeout 20 %s model %s --text hi --attention-out %s", attn_bin(), dir, weights);
    ck_assert_msg(r.status == 2 && strstr(r.err, "model.safetensors: it is one of the model's own files"), "%d: %s",
                  r.status, r.err);
    cmd_free(&r);
    ck_assert_int_eq(stat(weights, &after), 0);
    ck_assert_int_eq(after.st_size, before.st_size);
    /* nor a picture: --svg onto config.json replaced it, and the model
     * could not be opened again */
    char config[300];
    snprintf(config, sizeof config, "%s/config.json", dir);
    char *was = slurp_n(config, NULL);
    r = cmd_runf("timeout 20 %s model %s --text hi --svg %s", attn_bin(), dir, config);
    ck_assert_msg(r.status == 2 && strstr(r.err, "config.json: it is one of the model's own files: write the picture "
                                                 "to another"), "%d: %s", r.status, r.err);
    cmd_free(&r);
    char *is = slurp_n(config, NULL);
    ck_assert_str_eq(is, was);
    free(was), free(is);
    remove_dir(dir);
}
END_TEST

/* Weights cut short while the model is open (on the screen, between two
 * texts): the next pass says so instead of a bus error. */
START_TEST(weights_cut_short_under_the_model_are_a_message)
{
    char *dir = make_dir(), keep[64], why[2048];
    snprintf(keep, sizeof keep, "%s", dir);
    tiny_gpt2_dir(keep);
    free_weights();
    ModelLook lk;
    memset(&lk, 0, sizeof lk);
    ck_assert_msg(model_look_open(&lk, keep, why, sizeof why) == 0, "%s", why);
    ck_assert_msg(model_look_text(&lk, "hello", why, sizeof why) == 0, "%s", why);
    CmdResult r = cmd_runf("truncate -s 5000 %s/model.safetensors", keep);
    cmd_free(&r);
    ck_assert_int_eq(model_look_text(&lk, "hello again", why, sizeof why), -1);
    ck_assert_msg(strstr(why, "model.safetensors changed on disk since the model was opened (")
                      && strstr(why, "bytes when opened, 5000 now): open the model again"), "%s", why);
    ck_assert_ptr_null(model_look_logits(&lk, 0, why, sizeof why));
    ck_assert_msg(strstr(why, "changed on disk"), "%s", why);
    model_look_close(&lk);
    remove_dir(keep);
}
END_TEST

/* ---- files attn writes ---------------------------------------------------- */

START_TEST(a_planted_temporary_file_is_never_followed)
{
    char *tmp = make_dir(), dir[64];
    snprintf(dir, sizeof dir, "%s", tmp);
    tiny_gpt2_dir(dir);
    free_weights();
    /* a link where the head lesson's temporary file once went */
    CmdResult r = cmd_runf("cd %s && printf victim > victim && mkdir hl && ln -s %s/victim hl/head.lesson.tmp && "
                           "mkdir run && mkfifo run/checkpoint.bin.tmp", dir, dir);
    cmd_free(&r);
    r = cmd_runf("timeout 30 %s model %s --text hello --head-lesson 1,1 %s/hl", attn_bin(), dir, dir);
    ck_assert_msg(r.status == 0, "%d: %s", r.status, r.err);
    cmd_free(&r);
    char path[200];
    snprintf(path, sizeof path, "%s/victim", dir);
    char *victim = slurp(path);
    ck_assert_str_eq(victim, "victim");
    free(victim);
    /* and a FIFO there: the run goes on (it once hung at its first evaluation) */
    snprintf(path, sizeof path, "%s/run", dir);
    r = tiny_run(path, NULL);
    ck_assert_msg(r.status == 0, "%d: %s", r.status, r.err);
    cmd_free(&r);
    remove_dir(dir);
}
END_TEST

START_TEST(a_folder_attn_did_not_write_is_refused)
{
    char *tmp = make_dir(), dir[64];
    snprintf(dir, sizeof dir, "%s", tmp);
    tiny_gpt2_dir(dir);
    free_weights();
    /* another model, no checkpoint of attn's: train does not replace it */
    CmdResult r = tiny_run(dir, NULL);
    ck_assert_msg(r.status == 2 && strstr(r.err, "/config.json: attn did not write it, and would replace it"),
                  "%d: %s", r.status, r.err);
    cmd_free(&r);
    char cfg[200];
    snprintf(cfg, sizeof cfg, "%s/config.json", dir);
    char *text = slurp(cfg);
    ck_assert_str_eq(text, config_json);
    free(text);
    /* a hand-written head.lesson is not replaced */
    r = cmd_runf("mkdir %s/mine && printf 'lesson Mine\\n' > %s/mine/head.lesson && timeout 30 %s model %s --text hi "
                 "--head-lesson 1,1 %s/mine", dir, dir, attn_bin(), dir, dir);
    ck_assert_msg(r.status == 2 && strstr(r.err, "/mine/head.lesson: attn did not write it"), "%d: %s", r.status, r.err);
    cmd_free(&r);
    snprintf(cfg, sizeof cfg, "%s/mine/head.lesson", dir);
    text = slurp(cfg);
    ck_assert_str_eq(text, "lesson Mine\n");
    free(text);
    /* a folder attn made is its own to write again */
    for (int k = 0; k < 2; k++) {
        r = cmd_runf("timeout 30 %s model %s --text hi --head-lesson 1,1 %s/ours", attn_bin(), dir, dir);
        ck_assert_msg(r.status == 0, "%d: %s", r.status, r.err);
        cmd_free(&r);
        snprintf(cfg, sizeof cfg, "%s/again", dir);
        r = tiny_run(cfg, NULL);
        ck_assert_msg(r.status == 0, "%d: %s", r.status, r.err);
        cmd_free(&r);
    }
    remove_dir(dir);
}
END_TEST

/* A data file's size is checked before it is read: 5 GB of holes under
 * a 1 GB address space is refused by its size, not by running out. */
/* Under AddressSanitizer a process reserves terabytes of shadow at start:
 * it cannot run in 1 GB of address space, so there the limit is left off
 * (the message is still the size's). */
#if defined(__SANITIZE_ADDRESS__)
#define ADDRESS_LIMIT ""
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ADDRESS_LIMIT ""
#endif
#endif
#ifndef ADDRESS_LIMIT
#define ADDRESS_LIMIT "ulimit -v 1000000 && "
#endif

START_TEST(a_huge_data_file_is_refused_by_its_size)
{
    char *dir = make_dir();
    CmdResult r = cmd_runf("truncate -s 5G %s/big.txt && " ADDRESS_LIMIT "timeout 30 %s train --data %s/big.txt "
                           "--out %s/run", dir, attn_bin(), dir, dir);
    ck_assert_msg(r.status == 2 && strstr(r.err, "big.txt: it is larger than 2147483648 bytes"), "%d: %s", r.status,
                  r.err);
    cmd_free(&r);
    remove_dir(dir);
}
END_TEST

/* A head lesson of any text a student types and any folder: the path's
 * newline stays in a comment, half a UTF-8 character of a byte model's
 * token is written as \xNN, and the lesson checks. */
START_TEST(a_head_lesson_takes_any_text_and_path)
{
    char *tmp = make_dir(), dir[300];
    snprintf(dir, sizeof dir, "%s/m\ncheck 1 = 2", tmp);
    CmdResult r = cmd_runf("mkdir '%s'", dir);
    cmd_free(&r);
    tiny_gpt2_dir(dir);
    free_weights();
    r = cmd_runf("timeout 30 %s model '%s' --text 'café au lait' --head-lesson 2,3 %s/out", attn_bin(), dir, tmp);
    ck_assert_msg(r.status == 0, "%d: %s", r.status, r.err);
    cmd_free(&r);
    r = cmd_runf("timeout 30 %s check --strict %s/out/head.lesson", attn_bin(), tmp);
    ck_assert_msg(r.status == 0 && strstr(r.out, " passed, 0 failed"), "%d: %s%s", r.status, r.out, r.err);
    cmd_free(&r);
    char path[400];
    snprintf(path, sizeof path, "%s/out/head.lesson", tmp);
    char *text = slurp(path);
    ck_assert_msg(strstr(text, "/m check 1 = 2: layer 2, head 3") && strstr(text, " c a f \\xc3 \\xa9 _ a u _ l a i t"),
                  "%.600s", text);
    free(text);
    /* what a lesson refuses (a right-to-left override, a C1 control) is
     * written as \xNN, not copied into a lesson that then fails to read */
    r = cmd_runf("timeout 30 %s model '%s' --text \"$(printf 'ab\\342\\200\\256cd\\302\\205e')\" "
                 "--head-lesson 1,1 %s/out2", attn_bin(), dir, tmp);
    ck_assert_msg(r.status == 0, "%d: %s", r.status, r.err);
    cmd_free(&r);
    r = cmd_runf("timeout 30 %s check --strict %s/out2/head.lesson", attn_bin(), tmp);
    ck_assert_msg(r.status == 0 && strstr(r.out, " passed, 0 failed"), "%d: %s%s", r.status, r.out, r.err);
    cmd_free(&r);
    snprintf(path, sizeof path, "%s/out2/head.lesson", tmp);
    text = slurp(path);
    ck_assert_msg(strstr(text, "on \"ab\\xe2\\x80\\xaecd\\xc2\\x85e\"."), "%.600s", text);
    free(text);
    remove_dir(tmp);
}
END_TEST

/* A long path is used whole or refused, never cut. */
START_TEST(a_long_path_is_never_cut)
{
    char *tmp = make_dir(), deep[1400];
    char part[201];
    memset(part, 'd', 200);
    part[200] = '\0';
    snprintf(deep, sizeof deep, "%s/%s/%s/%s/%s/%s/lesson", tmp, part, part, part, part, part);
    ck_assert_int_gt(strlen(deep), 1024);
    char model[200];
    snprintf(model, sizeof model, "%s/model", tmp);
    CmdResult r = cmd_runf("mkdir %s", model);
    cmd_free(&r);
    tiny_gpt2_dir(model);
    free_weights();
    r = cmd_runf("timeout 30 %s model %s --text hi --head-lesson 1,1 %s", attn_bin(), model, deep);
    ck_assert_msg(r.status == 0, "%d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.out, "/lesson/head.lesson"), "%s", r.out);
    cmd_free(&r);
    char path[1500];
    snprintf(path, sizeof path, "%s/head.lesson", deep);
    ck_assert_int_eq(access(path, F_OK), 0);
    snprintf(deep + strlen(deep) - 6, 7, "target");
    r = tiny_run(deep, NULL);
    ck_assert_msg(r.status == 0 && strstr(r.out, "/target (attn model"), "%d: %s %s", r.status, r.out, r.err);
    cmd_free(&r);
    snprintf(path, sizeof path, "%s/checkpoint.bin", deep);
    ck_assert_int_eq(access(path, F_OK), 0);
    remove_dir(tmp);
}
END_TEST

/* ---- numbers and escapes -------------------------------------------------- */

START_TEST(an_option_past_its_range_is_refused_never_wrapped)
{
    char *dir = make_dir();
    tiny_gpt2_dir(dir);
    free_weights();
    struct {
        const char *args, *says;
    } cases[] = {
        { "bench --model gpt2-small --n 4294967304", "--n takes a whole number of tokens from 1 to 131072" },
        { "bench --model gpt2-small --reps 4294967297", "--reps takes a whole number from 1 to 100" },
        { "bench --train --steps 4294967297", "--steps is from 1 to 1000" },
        { "train --steps 4294967297", "--steps does not take '4294967297'" },
        { "train --seed 18446744073709551617", "--seed does not take" },
        { "train --lr nan", "--lr does not take 'nan'" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        CmdResult r = cmd_runf("timeout 20 %s %s", attn_bin(), cases[i].args);
        ck_assert_msg(r.status == 2 && strstr(r.err, cases[i].says), "%s: %d: %s", cases[i].args, r.status, r.err);
        cmd_free(&r);
    }
    CmdResult r = cmd_runf("timeout 20 %s model %s --text hi --top 4294967297", attn_bin(), dir);
    ck_assert_msg(r.status == 2 && strstr(r.err, "--top takes a number from 1 to 1000"), "%s", r.err);
    cmd_free(&r);
    r = cmd_runf("timeout 20 %s model %s --text hi --head-lesson 4294967297,1 %s/hl", attn_bin(), dir, dir);
    ck_assert_msg(r.status == 2 && strstr(r.err, "--head-lesson takes LAYER,HEAD"), "%s", r.err);
    cmd_free(&r);
    r = cmd_runf("timeout 20 %s bench --tokenizer %s --reps 4294967297", attn_bin(), dir);   /* wrapped to 1 */
    ck_assert_msg(r.status == 2 && strstr(r.err, "--reps R (1 to 100)"), "%s", r.err);
    cmd_free(&r);
    remove_dir(dir);
}
END_TEST

/* Every byte of a path or a token reaches the terminal through the one
 * escaping function, and JSON writes bidi controls as escapes. */
START_TEST(paths_and_tokens_reach_the_terminal_escaped)
{
    char *tmp = make_dir(), dir[200];
    snprintf(dir, sizeof dir, "%s/esc\033]52;c;eA==\007", tmp);
    CmdResult r = cmd_runf("mkdir '%s'", dir);
    cmd_free(&r);
    tiny_gpt2_dir(dir);
    free_weights();
    char out[300];
    snprintf(out, sizeof out, "%s/run\033[2J", tmp);
    const char *cmds[] = { "bench --model '%s' --n 4 --reps 1", "model '%s' --text hi --head-lesson 1,1 '%s/hl'" };
    for (int i = 0; i < 2; i++) {
        char args[800];
        snprintf(args, sizeof args, cmds[i], dir, dir);
        r = cmd_runf("timeout 30 %s %s", attn_bin(), args);
        ck_assert_msg(r.status == 0 && !strchr(r.out, '\033') && !strchr(r.out, '\007') && strstr(r.out, "esc\\x1b"),
                      "%s: %d: %s %s", cmds[i], r.status, r.out, r.err);
        cmd_free(&r);
    }
    r = tiny_run(out, NULL);
    ck_assert_msg(r.status == 0 && !strchr(r.out, '\033') && strstr(r.out, "done: the model is in "), "%d: %s", r.status,
                  r.out);
    cmd_free(&r);
    /* a right-to-left override in JSON: \u202e, never the raw bytes */
    StrBuf escaped = { 0 };
    jw_string(&escaped, "a\u202eb\u2066c");
    char *json = strbuf_take(&escaped);
    ck_assert_str_eq(json, "\"a\\u202eb\\u2066c\"");
    free(json);
    remove_dir(tmp);
}
END_TEST

Suite *hostile_models_suite(void)
{
    Suite *s = suite_create("hostile_models");
    TCase *c = tcase_create("core");
    tcase_set_timeout(c, 300);
    tcase_add_test(c, a_forged_checkpoint_is_held_to_the_command_lines_ranges);
    tcase_add_test(c, a_fifo_in_a_model_folder_never_hangs_attn);
    tcase_add_test(c, an_output_is_never_a_file_the_model_reads);
    tcase_add_test(c, weights_cut_short_under_the_model_are_a_message);
    tcase_add_test(c, a_planted_temporary_file_is_never_followed);
    tcase_add_test(c, a_folder_attn_did_not_write_is_refused);
    tcase_add_test(c, a_huge_data_file_is_refused_by_its_size);
    tcase_add_test(c, a_head_lesson_takes_any_text_and_path);
    tcase_add_test(c, a_long_path_is_never_cut);
    tcase_add_test(c, an_option_past_its_range_is_refused_never_wrapped);
    tcase_add_test(c, paths_and_tokens_reach_the_terminal_escaped);
    suite_add_tcase(s, c);
    return s;
}
