/*
 * check_tui_generate.c - g on the real models' screen, in tmux, on the
 * tiny GPT-2 (tiny_model.h): the generation view at 80x24 and 250x70, in
 * colour and with NO_COLOR; Space draws the token `attn model --generate`
 * draws for the same seed; the knobs (K picks, > turns) change the kept
 * set; the KV cache table grows a row a token with the bytes stated;
 * the speed line times a token with the cache and without it the same way,
 * the text's first pass apart; p and q said what they are;
 * Enter runs on and any key stops; a keeps the text, which every view
 * then reads. And the rest of the screen that explains itself: typing a
 * text as people expect, the legend, a head's four scores, its tokens on
 * both axes, BertViz's lines, the grid filling a large terminal.
 */
#include <check.h>
#include <math.h>
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

/* attn model on a new tiny GPT-2 and "Hello, hello!" in t at cols x rows
 * (env before it, or NULL), its first frame shown; the folder. */
static char *open_tiny(Tmux *t, int cols, int rows, const char *env)
{
    static char args[700];
    char *dir = make_dir();
    tiny_gpt2_dir(dir);
    snprintf(args, sizeof args, "model %s --text \"Hello, hello!\"", dir);
    tmux_start(t, cols, rows, env, args);
    WAIT_FOR(t, "2 layers x 4 heads · 13 tokens");
    return dir;
}

START_TEST(generating_on_the_screen)
{
    if (!have_tmux())
        return;
    char want[200], tok[64];
    Tmux t;
    char *dir = open_tiny(&t, 80, 24, NULL);
    int id = first_token(dir, tok, sizeof tok);
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
    remove_dir(dir);
    dir = open_tiny(&t, 250, 70, "NO_COLOR=1");
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

/* The speed line: a token's time with the KV cache and without it,
 * measured the same way (the mean of each path's passes after its first,
 * on the same tokens), each line's tokens/s and ms one number; the text's
 * first pass (every token of the text at once) said apart, never as a
 * token's: before any token is drawn no rate is shown. Which is faster is
 * a benchmark's to say (attn bench --model --generate), never a test's. */
static int speed_read(Tmux *t, double *cached_rate, double *cached_ms, double *plain_rate, double *plain_ms)
{
    tmux_capture(t, 0);
    const char *at = strstr(t->last, "tokens/s with the KV cache ");
    return at && sscanf(at, "tokens/s with the KV cache %lf (%lf ms each) · without %lf (%lf ms each)", cached_rate,
                        cached_ms, plain_rate, plain_ms) == 4;
}

/* rate tokens/s (rounded to a whole) and ms a token (to 2 decimals) are
 * one number. */
static int one_number(double rate, double ms)
{
    return rate > 0 && fabs(1e3 / rate - ms) <= 0.005 + 1e3 * 0.5 / (rate * rate - 0.25) + 1e-9;
}

START_TEST(the_cache_is_timed_as_without_it)
{
    if (!have_tmux())
        return;
    Tmux t;
    char args[700];
    snprintf(args, sizeof args, "model %s/../models/shakespeare", lessons_dir());
    tmux_start(&t, 80, 24, NULL, args);
    WAIT_FOR(&t, "83 tokens");
    tmux_keys(&t, "g");
    WAIT_FOR(&t, "generating · 83 + 0 tokens of 128");
    /* no token drawn: nothing to compare yet, the first pass apart */
    WAIT_FOR(&t, "the text's first pass (83 tokens): ");
    double cr, cm, pr, pm;
    ck_assert_msg(!speed_read(&t, &cr, &cm, &pr, &pm) && strstr(t.last, "timed from the first token drawn"),
                  "a rate before any token was drawn:\n%s", t.last);
    for (int k = 1; k <= 3; k++) {
        char want[64];
        tmux_keys(&t, "Space");
        snprintf(want, sizeof want, "83 + %d tokens of 128", k);
        WAIT_FOR(&t, want);
        ck_assert_msg(speed_read(&t, &cr, &cm, &pr, &pm), "no speed line after %d tokens:\n%s", k, t.last);
        ck_assert_msg(one_number(cr, cm) && one_number(pr, pm), "tokens/s and ms a token disagree: %g/s is not "
                      "%g ms, or %g/s not %g ms:\n%s", cr, cm, pr, pm, t.last);
        snprintf(want, sizeof want, "apart · the mean of %d token%s", k, k == 1 ? "" : "s");
        ck_assert_msg(strstr(t.last, want), "no \"%s\":\n%s", want, t.last);
    }
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
}
END_TEST

/* The distribution's two columns say what they are: p and q labelled on
 * each row, q explained under the rows (p renormalised over the kept set,
 * the draw's chances), and both in the help's notes. */
START_TEST(p_and_q_are_explained)
{
    if (!have_tmux())
        return;
    Tmux t;
    char *dir = open_tiny(&t, 80, 24, NULL);
    tmux_keys(&t, "g");
    WAIT_FOR(&t, "next token: 256 kept");
    WAIT_FOR(&t, "q: p renormalised over the kept ●");
    ck_assert_msg(strstr(t.last, "% q ") && strstr(t.last, " p "), "the rows do not name p and q:\n%s", t.last);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    remove_dir(dir);
    dir = open_tiny(&t, 250, 70, NULL);
    tmux_keys(&t, "g");
    WAIT_FOR(&t, "q: p renormalised over the kept ● (the draw's chances);");
    tmux_keys(&t, "?");
    WAIT_FOR(&t, "In g, q: the chance of the draw: p renormalised over the kept set, 0 outside");
    WAIT_FOR(&t, "In g, p: softmax(logits / temperature)");
    tmux_quit_and_check(&t, "Escape q", "EXITED 0");
    tmux_stop(&t);
    free_weights();
    remove_dir(dir);
}
END_TEST

/* t: the old text selected, so typing replaces it; Ctrl-U clears, Ctrl-W
 * takes a word, the arrows move, Alt-Enter and \n make a new line; the
 * tokens counted against the context as it is typed. */
START_TEST(typing_a_text_as_people_expect)
{
    if (!have_tmux())
        return;
    Tmux t;
    char *dir = open_tiny(&t, 80, 24, NULL);
    tmux_keys(&t, "t");
    WAIT_FOR(&t, "text: Hello, hello!");
    WAIT_FOR(&t, "13 tokens of 32 · ^U clears · ^W a word");
    /* typing replaces the selected text */
    tmux_type(&t, "abc def");
    WAIT_FOR(&t, "text: abc def");
    WAIT_FOR(&t, "7 tokens of 32");
    ck_assert_msg(!strstr(t.last, "text: Hello"), "%s", t.last);
    /* Ctrl-W: the word before the cursor */
    tmux_keys(&t, "C-w");
    WAIT_FOR(&t, "4 tokens of 32");
    /* the arrows move: a letter typed in the middle */
    tmux_keys(&t, "Left Left");
    tmux_type(&t, "X");
    WAIT_FOR(&t, "text: abXc");
    /* Ctrl-U: all before the cursor */
    tmux_keys(&t, "C-e C-u");
    WAIT_FOR(&t, "0 tokens of 32");
    /* a new line with Alt-Enter, and typed as \n */
    tmux_type(&t, "one");
    tmux_keys(&t, "M-Enter");
    tmux_type(&t, "two\\nthree");
    WAIT_FOR(&t, "text: one↵two\\nthree");
    /* past the context: said as it is typed */
    tmux_type(&t, "0123456789012345678901234567890123456789");
    WAIT_FOR(&t, "more tokens than the 32 the model reads");
    tmux_keys(&t, "C-u");
    tmux_type(&t, "one");
    tmux_keys(&t, "M-Enter");
    tmux_type(&t, "two\\nthree");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "2 layers x 4 heads · 13 tokens");
    WAIT_FOR(&t, "o n e ↵ t w o ↵ t h r e e");
    /* Esc leaves the text as it was */
    tmux_keys(&t, "t");
    tmux_type(&t, "zzz");
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "o n e ↵ t w o ↵ t h r e e");
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    free_weights();
    remove_dir(dir);
}
END_TEST

/* The model screen explains itself: a legend of the kinds; in one head its
 * four scores on the probe (the JSON's) and its shares on the text; the
 * tokens along both axes of a head too long for its cells; BertViz's lines
 * for one query (v); and at 250x70 the grid grows to fill the width. */
START_TEST(the_model_screen_explains_itself)
{
    if (!have_tmux())
        return;
    Tmux t;
    char *dir = open_tiny(&t, 80, 24, NULL), want[300];
    WAIT_FOR(&t, "prev: token before; sink: first; self; ind: after earlier copy; broad: 1 - max");
    CmdResult r = cmd_runf("%s model %s --text 'Hello, hello!' --json", attn_bin(), dir);
    JVal doc;
    char why[200];
    ck_assert_int_eq(json_parse(r.out, &doc, why, sizeof why), 0);
    const JVal *h = &json_get(&doc, "heads")->items[0], *sc = json_get(h, "scores"), *on = json_get(h, "on_text");
    tmux_keys(&t, "Enter");
    snprintf(want, sizeof want, "on the probe: previous %.2f, first %.2f, self %.2f, induction %.2f", 
             json_get(sc, "previous")->num, json_get(sc, "first")->num, json_get(sc, "self")->num,
             json_get(sc, "induction")->num);
    WAIT_FOR(&t, want);
    snprintf(want, sizeof want, "on this text: previous %.2f, first %.2f, self %.2f", json_get(on, "previous")->num,
             json_get(on, "first")->num, json_get(on, "self")->num);
    WAIT_FOR(&t, want);
    json_free(&doc);
    cmd_free(&r);
    /* 13 tokens in 10 rows: pooled, two queries a row of pixels, so 7
     * rows, each naming its first query; the keys' tokens along the top,
     * the cursor's (the last, !) always */
    WAIT_FOR(&t, "13 x 13, pooled (max)");
    int labelled = 0;
    char line[400];
    for (int k = 6; k < 16; k++)
        labelled += line_at(t.last, k, line, sizeof line) && line[0] >= '1' && line[0] <= '9';
    ck_assert_msg(labelled == 7, "%d rows name their query:\n%s", labelled, t.last);
    int col;
    ck_assert_msg(line_with(t.last, 6, "13 !", &col) >= 6 && col == 0, "%s", t.last);
    int top = line_with(t.last, 0, "13 x 13, pooled", &col) + 1;
    line_at(t.last, top, line, sizeof line);
    ck_assert_msg(strstr(line, "H") && strstr(line, "!"), "the keys' tokens are not along the top:\n%s", t.last);
    /* v: the lines from the query to its keys, each key's weight beside it */
    tmux_keys(&t, "v");
    WAIT_FOR(&t, "lines from 13 ! to its keys (v: matrix)");
    WAIT_FOR(&t, "13 ! 0.66");     /* beside each key on the right, its weight */
    tmux_keys(&t, "v");
    WAIT_FOR(&t, "13 x 13, pooled (max)");
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    remove_dir(dir);
    /* 250x70: the legend says it whole, the tiles take the width */
    dir = open_tiny(&t, 250, 70, NULL);
    WAIT_FOR(&t, "broad: none reaches 0.4 (1 - the highest)");
    int c1, c4, at = line_with(t.last, 0, "H1 ", &c1);
    ck_assert_msg(at >= 0 && line_with(t.last, at, "H4", &c4) == at, "%s", t.last);
    ck_assert_msg(c4 - c1 >= 3 * 55, "the heads sit %d columns apart at 250 columns:\n%s", (c4 - c1) / 3, t.last);
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
    tcase_add_test(c, the_cache_is_timed_as_without_it);
    tcase_add_test(c, p_and_q_are_explained);
    tcase_add_test(c, typing_a_text_as_people_expect);
    tcase_add_test(c, the_model_screen_explains_itself);
    suite_add_tcase(s, c);
    return s;
}
