/*
 * check_tui_generate.c - g on the real models' screen, in tmux, on the
 * tiny GPT-2 (tiny_model.h): the generation view at 80x24 and 250x70, in
 * colour and with NO_COLOR; Space draws the token `attn model --generate`
 * draws for the same seed; the knobs (K picks, > turns) change the kept
 * set; the KV cache table grows a row a token with the bytes stated;
 * Enter runs on and any key stops; a keeps the text, which every view
 * then reads.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "testutil.h"
#include "tiny_model.h"
#include "tmux.h"

/* The first token `attn model DIR --text TEXT --generate 1` draws (seed 1,
 * temperature 1), and its text. */
static int first_token(const char *dir, char *text, size_t size)
{
    CmdResult r = cmd_runf("%s model %s --text 'Hello, hello!' --generate 1 --json", attn_bin(), dir);
    ck_assert_msg(r.status == 0, "%s", r.err);
    JVal doc;
    char why[200];
    ck_assert_int_eq(json_parse(r.out, &doc, why, sizeof why), 0);
    const JVal *g = &json_get(&doc, "generated")->items[0];
    int id = (int)json_get(g, "id")->num;
    snprintf(text, size, "%s", json_get(g, "text")->str);
    json_free(&doc);
    cmd_free(&r);
    return id;
}

START_TEST(generating_on_the_screen)
{
    if (!have_tmux())
        return;
    char *dir = make_dir(), args[700], want[200], tok[64];
    tiny_gpt2_dir(dir);
    int id = first_token(dir, tok, sizeof tok);
    Tmux t;
    snprintf(args, sizeof args, "model %s --text \"Hello, hello!\"", dir);
    tmux_start(&t, 80, 24, NULL, args);
    WAIT_FOR(&t, "2 layers x 4 heads · 13 tokens");
    tmux_keys(&t, "g");
    WAIT_FOR(&t, "generating · 13 + 0 tokens of 32");
    WAIT_FOR(&t, "▸temperature 1   top-k off   top-p off");
    WAIT_FOR(&t, "next token: 256 kept");
    /* the cache: 2 layers, keys and values of 16 floats a position */
    WAIT_FOR(&t, "KV cache · 3328 bytes");
    WAIT_FOR(&t, "each of 2 layers: 13 keys, 13 values of 16 (4 x 4)");
    WAIT_FOR(&t, "with the KV cache");
    WAIT_FOR(&t, "tokens/s");
    /* Space: the token the command draws for seed 1, and a row more */
    tmux_keys(&t, "Space");
    WAIT_FOR(&t, "13 + 1 tokens of 32");
    snprintf(want, sizeof want, "Hello, hello!%s", tok);
    ck_assert_msg(strstr(t.last, want), "the screen's first token is not %d (\"%s\"):\n%s", id, tok, t.last);
    WAIT_FOR(&t, "drew ▶");
    WAIT_FOR(&t, "KV cache · 3584 bytes");
    WAIT_FOR(&t, "   14 ");
    WAIT_FOR(&t, "+256    3584");
    WAIT_FOR(&t, "where ");
    WAIT_FOR(&t, "looked · layer 1 head 1");
    /* the knobs: top-k picked and turned to 1, then the only one kept */
    tmux_keys(&t, "K");
    WAIT_FOR(&t, "▸top-k off");
    tmux_keys(&t, "'>'");
    WAIT_FOR(&t, "▸top-k 1 ");
    WAIT_FOR(&t, "next token: 1 kept");
    tmux_keys(&t, "Space");
    WAIT_FOR(&t, "q 1, the 1st most probable, of 1 kept");
    /* greedy */
    tmux_keys(&t, "K K '<' '<' '<' '<' '<' '<' '<' '<' '<' '<' '<' '<' '<'");
    WAIT_FOR(&t, "▸temperature 0 (greedy)");
    /* Enter runs on, any key stops */
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "13 + 6 tokens");
    tmux_keys(&t, "x");
    WAIT_FOR(&t, "stopped: Space draws a token, Enter runs on");
    /* a: kept as the text: every head reads it */
    tmux_capture(&t, 0);
    int n;
    const char *at = strstr(t.last, "13 + ");
    ck_assert(at && sscanf(at, "13 + %d", &n) == 1 && n >= 6);
    tmux_keys(&t, "a");
    snprintf(want, sizeof want, "kept: %d tokens, %d of them generated; every view reads them", 13 + n, n);
    WAIT_FOR(&t, want);
    snprintf(want, sizeof want, "2 layers x 4 heads · %d tokens", 13 + n);
    WAIT_FOR(&t, want);
    /* g again starts after the kept text */
    tmux_keys(&t, "g");
    snprintf(want, sizeof want, "generating · %d + 0 tokens of 32", 13 + n);
    WAIT_FOR(&t, want);
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "2 layers x 4 heads");
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    /* a projector, without colour: both distributions side by side */
    tmux_start(&t, 250, 70, "NO_COLOR=1", args);
    WAIT_FOR(&t, "2 layers x 4 heads · 13 tokens");
    tmux_keys(&t, "g");
    WAIT_FOR(&t, "next token: 256 kept");
    tmux_keys(&t, "Space");
    WAIT_FOR(&t, "the last token was drawn from 256 kept");
    WAIT_FOR(&t, "KV cache · 3584 bytes");
    tmux_capture(&t, 1);
    ck_assert_msg(!has_colour_codes(t.last), "colour with NO_COLOR:\n%s", t.last);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    free_weights();
    remove_dir(dir);
}
END_TEST

Suite *tui_generate_suite(void)
{
    Suite *s = suite_create("tui_generate");
    TCase *c = tcase_create("core");
    tcase_set_timeout(c, 120);
    tcase_add_test(c, generating_on_the_screen);
    suite_add_tcase(s, c);
    return s;
}
