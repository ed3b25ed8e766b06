/*
 * check_tui_model.c - the real models' screens in tmux, as a student uses
 * them, on the tiny GPT-2 the tests make (tiny_model.h): every head at
 * 80x24 and at 250x70, their labels the kinds `attn model --json` names;
 * one head, its bars and the next token the JSON gives; Enter explaining a
 * weight; the temperature; a new text typed; the head as a lesson and back;
 * the menu's "Real models" from $ATTN_MODELS, and what it says when there
 * is none; a model that does not open.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_read.h"
#include "testutil.h"
#include "tiny_model.h"
#include "tmux.h"

/* The JSON of `attn model DIR --text TEXT`. */
static void model_json(const char *dir, const char *text, JVal *doc)
{
    CmdResult r = cmd_runf("%s model %s --text '%s' --json", attn_bin(), dir, text);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char why[200];
    ck_assert_msg(json_parse(r.out, doc, why, sizeof why) == 0, "%s", why);
    cmd_free(&r);
}

/* The screen's few letters for a kind. */
static const char *short_kind(const char *kind)
{
    return strcmp(kind, "previous-token") == 0 ? "prev" : strcmp(kind, "first-token") == 0 ? "sink"
         : strcmp(kind, "induction") == 0      ? "ind"  : kind;
}

START_TEST(every_head_one_head_and_the_head_as_a_lesson)
{
    if (!have_tmux())
        return;
    char *dir = make_dir(), args[700], want[200];
    tiny_gpt2_dir(dir);
    JVal doc;
    model_json(dir, "Hello, hello!", &doc);
    Tmux t;
    snprintf(args, sizeof args, "model %s --text \"Hello, hello!\"", dir);
    tmux_start(&t, 80, 24, NULL, args);
    WAIT_FOR(&t, "(gpt2) · 2 layers x 4 heads · 13 tokens");
    WAIT_FOR(&t, "H e l l o , · h e l l o !");   /* the tokens, a space as a dot */
    /* each head's label is the kind the JSON names, with its score */
    const JVal *heads = json_get(&doc, "heads");
    ck_assert_int_eq(heads->n, LAYERS * HEADS);
    for (int i = 0; i < heads->n; i++) {
        snprintf(want, sizeof want, "%s %.2f", short_kind(json_get(&heads->items[i], "kind")->str),
                 json_get(&heads->items[i], "score")->num);
        ck_assert_msg(strstr(t.last, want), "head %d's label \"%s\" is not on the screen:\n%s", i + 1, want, t.last);
    }
    ck_assert_msg(strstr(t.last, "L1") && strstr(t.last, "L2") && strstr(t.last, "H4"), "%s", t.last);
    /* the chosen head moves: layer 2, head 3 */
    tmux_keys(&t, "Down Right Right");
    WAIT_FOR(&t, "layer 2 head 3:");
    /* Enter: that head, the cursor on the last token */
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "layer 2, head 3");
    WAIT_FOR(&t, "where 13 ! looks");
    WAIT_FOR(&t, "the model's next token after 13 !, at temperature 1");
    /* the next token: the JSON's first, with its probability */
    const JVal *next = json_get(&doc, "next");
    snprintf(want, sizeof want, "%5.1f%%  (id %d)", 100 * json_get(&next->items[0], "p")->num,
             (int)json_get(&next->items[0], "id")->num);
    ck_assert_msg(strstr(t.last, want), "the next token \"%s\" is not shown:\n%s", want, t.last);
    /* Enter explains the weight under the cursor */
    tmux_type(&t, "\033OH");     /* Home, as xterm sends it (g generates here) */
    WAIT_FOR(&t, "query 1 H puts 1.0000 on key");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "A[1,");
    ck_assert_msg(strstr(t.last, "of query 1 H's attention goes to key"), "%s", t.last);
    /* a key after the query is masked, and said so */
    tmux_keys(&t, "Right Right Enter");
    WAIT_FOR(&t, "comes after query 1 H: masked to -inf, so its weight is 0");
    /* the temperature */
    tmux_keys(&t, "G '>'");
    WAIT_FOR(&t, "at temperature 1.5");
    /* a new text */
    tmux_keys(&t, "t");
    WAIT_FOR(&t, "text: Hello, hello!");
    WAIT_FOR(&t, "13 tokens of 32");
    tmux_keys(&t, "Right");     /* the old text kept, the cursor at its end */
    tmux_type(&t, " Hi");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "16 tokens");
    WAIT_FOR(&t, "where 16 i looks");
    /* the head as a lesson: the lesson screen on its real numbers */
    tmux_keys(&t, "l");
    WAIT_FOR(&t, ": layer 2, head 3");
    WAIT_FOR(&t, "Set-up, then 9 steps");
    WAIT_FOR(&t, "One head of a real model, step by step, on \"Hello, hello! Hi\".");
    tmux_keys(&t, "n n n n n n");
    WAIT_FOR(&t, "step 6/9: Softmax");
    WAIT_FOR(&t, "Exercise 2: How much of token");
    /* Esc: back to the model, on the head */
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "where 16 i looks");
    /* Esc twice: every head, then (opened on one model) the menu */
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "layer 2 head 3:");
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "self-attention, step by step");
    tmux_quit_and_check(&t, "q", "EXITED 0");
    /* the lesson written stays beside the student's progress, and checks */
    CmdResult r = cmd_runf("%s check --strict %s/heads/*-layer2-head3/head.lesson", attn_bin(), t.state);
    ck_assert_msg(r.status == 0 && strstr(r.out, "3 passed, 0 failed"), "%s%s", r.out, r.err);
    cmd_free(&r);
    tmux_stop(&t);
    json_free(&doc);
    free_weights();
    remove_dir(dir);
}
END_TEST

/* The real models' help lists their own keys only: not attn train's p
 * (pause) nor the lesson screen's b (blank), which do nothing here. */
START_TEST(the_models_help_is_their_own)
{
    if (!have_tmux())
        return;
    char *dir = make_dir(), args[700];
    tiny_gpt2_dir(dir);
    Tmux t;
    snprintf(args, sizeof args, "model %s --text \"Hello, hello!\"", dir);
    tmux_start(&t, 120, 50, NULL, args);
    WAIT_FOR(&t, "(gpt2) · 2 layers x 4 heads · 13 tokens");
    tmux_keys(&t, "?");
    WAIT_FOR(&t, "attn: keys of the real models");
    WAIT_FOR(&t, "generate after the text, a token at a time");
    ck_assert_msg(!strstr(t.last, "pause the training") && !strstr(t.last, "blank the screen"),
                  "another screen's keys in the models' help:\n%s", t.last);
    tmux_keys(&t, "x");
    ck_assert_msg(tmux_wait_gone(&t, "attn: keys of the real models"), "the help did not close:\n%s", t.last);
    /* p and b do nothing on the models' screen */
    tmux_keys(&t, "p");
    tmux_keys(&t, "b");
    WAIT_FOR(&t, "(gpt2) · 2 layers x 4 heads · 13 tokens");
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    free_weights();
    remove_dir(dir);
}
END_TEST

/* A projector: every head at once, and without colour the shades. */
START_TEST(a_projector_shows_every_head)
{
    if (!have_tmux())
        return;
    char *dir = make_dir(), args[700];
    tiny_gpt2_dir(dir);
    Tmux t;
    snprintf(args, sizeof args, "model %s --text \"Hello, hello!\"", dir);
    tmux_start(&t, 250, 70, NULL, args);
    WAIT_FOR(&t, "2 layers x 4 heads");
    tmux_capture(&t, 1);
    ck_assert_msg(has_colour_codes(t.last), "no colour on the heads:\n%s", t.last);
    ck_assert_msg(strstr(t.last, "▀"), "the heads are not drawn two pixels a cell:\n%s", t.last);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    tmux_start(&t, 250, 70, "NO_COLOR=1", args);
    WAIT_FOR(&t, "2 layers x 4 heads");
    tmux_capture(&t, 1);
    ck_assert_msg(!has_colour_codes(t.last), "colour with NO_COLOR:\n%s", t.last);
    ck_assert_msg(strstr(t.last, "█") || strstr(t.last, "▓"), "no shades without colour:\n%s", t.last);
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "where 13 ! looks");
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    free_weights();
    remove_dir(dir);
}
END_TEST

/* The menu's real models: from $ATTN_MODELS, and how to get one. */
START_TEST(the_menu_lists_the_models)
{
    if (!have_tmux())
        return;
    char *dir = make_dir(), env[800], model[700];
    snprintf(model, sizeof model, "%s/tiny-gpt2", dir);
    CmdResult mk = cmd_runf("mkdir %s", model);
    cmd_free(&mk);
    tiny_gpt2_dir(model);
    Tmux t;
    CmdResult r;
    snprintf(env, sizeof env, "ATTN_MODELS=/nonexistent:%s", dir);
    tmux_start(&t, 80, 24, env, NULL);
    WAIT_FOR(&t, "m real models");
    tmux_keys(&t, "m");
    WAIT_FOR(&t, "tiny-gpt2");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "attn: tiny-gpt2 (gpt2)");
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "from $ATTN_MODELS");
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "self-attention, step by step");
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    /* the one attn ships is listed as such */
    tmux_start(&t, 100, 24, "ATTN_MODELS=/nonexistent", NULL);
    WAIT_FOR(&t, "m real models");
    tmux_keys(&t, "m");
    WAIT_FOR(&t, "models/shakespeare   (ships with attn)");
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    /* none (a copy of attn with no models beside it): how to get GPT-2 or
     * SmolLM2, never a download */
    char bin[800], *was = strdup(attn_bin());
    snprintf(bin, sizeof bin, "%s/bin/attn", dir);
    r = cmd_runf("mkdir -p %s/bin && cp %s %s", dir, was, bin);
    cmd_free(&r);
    setenv("ATTN_BIN", bin, 1);
    tmux_start(&t, 80, 24, "ATTN_MODELS=/nonexistent", NULL);
    setenv("ATTN_BIN", was, 1);
    free(was);
    WAIT_FOR(&t, "m real models");
    tmux_keys(&t, "m");
    WAIT_FOR(&t, "No model found.");
    WAIT_FOR(&t, "openai-community/gpt2");
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    /* a model that does not open says why before the screen */
    tmux_start(&t, 80, 24, NULL, "model /nonexistent/model");
    WAIT_FOR(&t, "attn: /nonexistent/model/config.json: cannot open it");
    WAIT_FOR(&t, "EXITED 2");
    tmux_stop(&t);
    free_weights();
    remove_dir(dir);
}
END_TEST

/* The step attn train's title shows now (0 when none is). */
static int shown_step(Tmux *t)
{
    tmux_capture(t, 0);
    const char *at = strstr(t->last, "attn train · step ");
    return at ? atoi(at + strlen("attn train · step ")) : 0;
}

/* attn train on a terminal: the curves, every head's induction score and
 * attention, a sample, as it trains; q stops with the checkpoint kept; at
 * 250x70 and without colour too. At 80x24 with 16 heads: the title's parts
 * apart, the heads of the highest scores when not all fit, the steps'
 * loss and rate before the first evaluation, and a resumed run's curves of
 * induction kept. */
START_TEST(training_on_the_screen)
{
    if (!have_tmux())
        return;
    char *dir = make_dir(), args[900];
    snprintf(args, sizeof args, "train --data %s/../models/tinyshakespeare.txt --out %s/run --layers 2 --heads 2 --d 16 "
             "--context 32 --batch 2 --steps 400 --eval-every 20 --warmup 10 --threads 1", lessons_dir(), dir);
    Tmux t;
    tmux_start(&t, 80, 24, NULL, args);
    WAIT_FOR(&t, "attn train · step ");
    WAIT_FOR(&t, "tokens/s · 2 layers x 2 heads x 16");
    WAIT_FOR(&t, "loss  · train  ● validation");
    WAIT_FOR(&t, "induction score, each head");
    WAIT_FOR(&t, "L2H2");
    WAIT_FOR(&t, "it writes: ROMEO:");
    WAIT_FOR(&t, "every head on \"ROMEO: What light");
    WAIT_FOR(&t, "step 400/400");
    /* the run's folder is in no $ATTN_MODELS: how to have m list it */
    WAIT_FOR(&t, "done: m on the menu lists it once $ATTN_MODELS holds its folder's parent");
    WAIT_FOR(&t, "No head reached 0.4.");
    /* the run over, its help has nothing to pause and says what q does */
    tmux_keys(&t, "?");
    WAIT_FOR(&t, "attn: keys of attn train");
    ck_assert_msg(!strstr(t.last, "pause the training") && strstr(t.last, "quit: the run is over, its files are kept"),
                  "the help of a finished run:\n%s", t.last);
    tmux_keys(&t, "x");
    ck_assert_msg(tmux_wait_gone(&t, "attn: keys of attn train"), "the help did not close:\n%s", t.last);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    CmdResult r = cmd_runf("%s model %s/run --text 'ROMEO:' --json", attn_bin(), dir);
    ck_assert_msg(r.status == 0 && strstr(r.out, "\"layers\": 2, \"heads\": 2"), "%s%s", r.out, r.err);
    cmd_free(&r);
    /* a run that ends under its help says so when the help closes (the
     * help's keys clear the message line, and the word came while it was
     * on top) */
    snprintf(args, sizeof args, "train --data %s/../models/tinyshakespeare.txt --out %s/quick --layers 2 --heads 2 --d 16 "
             "--context 32 --batch 2 --steps 2000 --eval-every 1000 --threads 1", lessons_dir(), dir);
    tmux_start(&t, 80, 24, NULL, args);
    WAIT_FOR(&t, "attn train · step ");
    tmux_keys(&t, "?");
    WAIT_FOR(&t, "attn: keys of attn train");
    char saved[1200];
    snprintf(saved, sizeof saved, "%s/quick/config.json", dir);
    for (int tries = 0; tries < 600 && access(saved, F_OK) != 0; tries++)
        usleep(100 * 1000);
    ck_assert_msg(access(saved, F_OK) == 0, "the run under the help never ended");
    usleep(300 * 1000);
    tmux_capture(&t, 0);
    ck_assert_msg(strstr(t.last, "attn: keys of attn train"), "the help went away by itself:\n%s", t.last);
    tmux_keys(&t, "x");
    WAIT_FOR(&t, "done: m on the menu lists it once $ATTN_MODELS holds its folder's parent");
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    /* q before the end: the checkpoint kept, and how to go on said */
    snprintf(args, sizeof args, "train --data %s/../models/tinyshakespeare.txt --out %s/stopped --layers 2 --heads 2 "
             "--d 16 --context 32 --batch 2 --steps 100000 --eval-every 20 --threads 1", lessons_dir(), dir);
    tmux_start(&t, 250, 70, "NO_COLOR=1", args);
    WAIT_FOR(&t, "it writes: ROMEO:");
    tmux_capture(&t, 1);
    ck_assert_msg(!has_colour_codes(t.last), "colour with NO_COLOR:\n%s", t.last);
    /* the help is the training's own keys (it was the lesson menu's), and
     * the run goes on under it: it once stopped there (and before that
     * spun on the no-wait the training left, a core at full use and not a
     * step taken); over a paused run, attn waits for a key */
    /* training between keys (the first steps taken, not only drawn) */
    int step = 0;
    for (int tries = 0; tries < 200 && step < 50; tries++) {
        step = shown_step(&t);
        if (step < 50)
            usleep(50 * 1000);
    }
    ck_assert_msg(step >= 50, "the run never took its first steps:\n%s", t.last);
    sleep(1);
    int second = shown_step(&t);
    tmux_keys(&t, "?");
    WAIT_FOR(&t, "attn: keys of attn train");
    ck_assert_msg(strstr(t.last, "pause the training, or go on") && !strstr(t.last, "first lesson"), "%s", t.last);
    sleep(2);
    tmux_keys(&t, "x");
    ck_assert_msg(tmux_wait_gone(&t, "attn: keys of attn train"), "the help did not close:\n%s", t.last);
    int after = shown_step(&t);
    ck_assert_msg(after - second >= second - step, "steps: %d, a second later %d, after 2 s of help %d", step, second,
                  after);
    tmux_keys(&t, "p");
    WAIT_FOR(&t, "paused (p)");
    tmux_keys(&t, "?");
    WAIT_FOR(&t, "attn: keys of attn train");
    int pid = tmux_attn_pid(&t);
    ck_assert_msg(pid > 0, "cannot find attn's pid");
    double before = proc_cpu_seconds(pid);
    sleep(2);
    double used = proc_cpu_seconds(pid) - before;
    ck_assert_msg(used < 1.0, "attn used %.2f s of CPU in 2 s with its help open over a paused run", used);
    tmux_keys(&t, "x");
    ck_assert_msg(tmux_wait_gone(&t, "attn: keys of attn train"), "the help did not close:\n%s", t.last);
    /* q is a stop asked for, everything kept: exit 0, as the README says */
    tmux_quit_and_check(&t, "q", "EXITED 0");
    ck_assert_msg(strstr(t.last, "attn: stopped after ") && strstr(t.last, "/stopped goes on"), "%s", t.last);
    tmux_stop(&t);
    r = cmd_runf("ls %s/stopped/checkpoint.bin", dir);
    ck_assert_int_eq(r.status, 0);
    cmd_free(&r);
    /* 16 heads at 80x24, the first evaluation far off */
    snprintf(args, sizeof args, "train --data %s/../models/tinyshakespeare.txt --out %s/many --layers 4 --heads 4 --d 64 "
             "--context 64 --batch 8 --steps 100000 --eval-every 100000 --threads 1", lessons_dir(), dir);
    tmux_start(&t, 80, 24, NULL, args);
    WAIT_FOR(&t, "training loss ");
    WAIT_FOR(&t, " so far");
    WAIT_FOR(&t, "the first evaluation at step 100000");
    ck_assert_msg(strstr(t.last, "left · ") && !strstr(t.last, " 0 tokens/s"), "%s", t.last);
    WAIT_FOR(&t, "induction score, top ");
    ck_assert_msg(strstr(t.last, "top 9 of 16 heads"), "%s", t.last);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    /* resumed: the induction scores of the evaluations before are there */
    r = cmd_runf("%s train --data %s/../models/tinyshakespeare.txt --out %s/resumed --layers 2 --heads 2 --d 16 "
                 "--context 32 --batch 2 --steps 60 --eval-every 20 --threads 1 --json", attn_bin(), lessons_dir(), dir);
    ck_assert_msg(r.status == 0, "%s", r.err);
    cmd_free(&r);
    snprintf(args, sizeof args, "train --data %s/../models/tinyshakespeare.txt --out %s/resumed --steps 60 --resume",
             lessons_dir(), dir);
    tmux_start(&t, 80, 24, NULL, args);
    WAIT_FOR(&t, "step 60/60");
    const char *row = strstr(t.last, "L1H1");
    int bars = 0;
    for (const char *c = row; c && *c && *c != '\n'; c++)
        bars += (unsigned char)c[0] == 0xe2 && (unsigned char)c[1] == 0x96 && (unsigned char)c[2] >= 0x81
                && (unsigned char)c[2] <= 0x88;
    ck_assert_msg(bars >= 3, "the sparkline of three evaluations, %d shown:\n%s", bars, t.last);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    remove_dir(dir);
}
END_TEST

Suite *tui_model_suite(void)
{
    Suite *s = suite_create("tui_model");
    TCase *c = tcase_create("core");
    tcase_set_timeout(c, 120);
    tcase_add_test(c, every_head_one_head_and_the_head_as_a_lesson);
    tcase_add_test(c, a_projector_shows_every_head);
    tcase_add_test(c, the_models_help_is_their_own);
    tcase_add_test(c, the_menu_lists_the_models);
    tcase_add_test(c, training_on_the_screen);
    suite_add_tcase(s, c);
    return s;
}
