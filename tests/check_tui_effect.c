/*
 * check_tui_effect.c - testing what a head does on the model screen, in
 * tmux, on the tiny GPT-2 (tiny_model.h) whose numbers PyTorch holds
 * (tests/reference/models/tiny-interventions.json): x takes a head out and
 * puts it back, the grid marks it, the strip shows the loss before and
 * after and the next token before and after; Enter on a weight says what
 * the change did to the next token's loss there; P patches a head from a
 * second text (typed as t types a text, its tokens counted against the
 * text's) and refuses one of another length, brings it back to mend while
 * the text is the same, and lets the patch go for a new text of another
 * length; the strip fits the width, a long text's end in view; L, the lens, its cells
 * and Enter; A, the attribution, its bars and Enter; at 80x24 and at
 * 250x70, with colour and without.
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

/* attn model's JSON on the tiny model's text, with options. */
static void model_json(const char *dir, const char *options, JVal *doc)
{
    CmdResult r = cmd_runf("%s model %s --text 'Hello, hello!' --json %s", attn_bin(), dir, options);
    ck_assert_msg(r.status == 0, "%s", r.err);
    char why[200];
    ck_assert_msg(json_parse(r.out, doc, why, sizeof why) == 0, "%s", why);
    cmd_free(&r);
}

static double num(const JVal *v, const char *key)
{
    const JVal *x = json_get(v, key);
    ck_assert_msg(x && x->type == J_NUM, "no number %s", key);
    return x->num;
}

START_TEST(a_head_taken_out_and_put_back)
{
    if (!have_tmux())
        return;
    char *dir = make_dir(), args[700], want[300];
    tiny_gpt2_dir(dir);
    JVal clean, ablated;
    model_json(dir, "", &clean);
    model_json(dir, "--ablate 2.3", &ablated);
    double before = num(&clean, "loss"), after = num(&ablated, "loss");
    Tmux t;
    snprintf(args, sizeof args, "model %s --text \"Hello, hello!\"", dir);
    tmux_start(&t, 80, 24, NULL, args);
    WAIT_FOR(&t, "2 layers x 4 heads");
    tmux_keys(&t, "Down Right Right x");
    /* what the loss did, the numbers attn model --ablate 2.3 prints */
    snprintf(want, sizeof want, "L2H3 taken out (zeros): loss %.4f -> %.4f (%+.4f); x puts it back", before, after,
             after - before);
    WAIT_FOR(&t, want);
    snprintf(want, sizeof want, "L2H3 zeros: loss %.4f → %.4f (%+.4f), the mean", before, after, after - before);
    WAIT_FOR(&t, want);
    ck_assert_msg(strstr(t.last, "ablated "), "the grid does not mark the head:\n%s", t.last);
    /* the next token before and after: each run's first */
    const JVal *nb = &json_get(&clean, "next")->items[0], *na = &json_get(&ablated, "next")->items[0];
    snprintf(want, sizeof want, "next token: before %s %.0f%%", json_get(nb, "text")->str, 100 * num(nb, "p"));
    ck_assert_msg(strstr(t.last, want), "no \"%s\":\n%s", want, t.last);
    snprintf(want, sizeof want, "after %s %.0f%%", json_get(na, "text")->str, 100 * num(na, "p"));
    ck_assert_msg(strstr(t.last, want), "no \"%s\":\n%s", want, t.last);
    /* again: back as it was */
    tmux_keys(&t, "x");
    snprintf(want, sizeof want, "L2H3 is back: loss %.4f (the model as it is)", before);
    WAIT_FOR(&t, want);
    ck_assert_msg(!strstr(t.last, "ablated ") && !strstr(t.last, "zeros:"), "%s", t.last);
    /* in the head: taken out there, and Enter on a weight says what it did
     * to the loss of the token after the query */
    tmux_keys(&t, "Enter x");
    WAIT_FOR(&t, "L2H3 taken out (zeros): loss");
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    tmux_start(&t, 250, 70, NULL, args);
    WAIT_FOR(&t, "2 layers x 4 heads");
    tmux_keys(&t, "Down Right Right Enter x Up Enter");
    const JVal *lc = json_get(&clean, "losses"), *la = json_get(&ablated, "losses");
    snprintf(want, sizeof want, "with L2H3 zeros, the next token's loss went %.4f -> %.4f", lc->items[11].num,
             la->items[11].num);
    WAIT_FOR(&t, want);     /* the query is the 12th token, foretelling the 13th */
    tmux_capture(&t, 1);
    ck_assert_msg(has_colour_codes(t.last), "no colour:\n%s", t.last);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    /* without colour, the strip's cells are shades */
    tmux_start(&t, 250, 70, "NO_COLOR=1", args);
    WAIT_FOR(&t, "2 layers x 4 heads");
    tmux_keys(&t, "Down Right Right x");
    WAIT_FOR(&t, "L2H3 zeros: loss");
    tmux_capture(&t, 1);
    ck_assert_msg(!has_colour_codes(t.last), "colour with NO_COLOR:\n%s", t.last);
    ck_assert_msg(strstr(t.last, "█") || strstr(t.last, "▓") || strstr(t.last, "▒"), "no shades:\n%s", t.last);
    /* a head as a lesson is of the model as it is: with a head taken out,
     * its check would fail, so l says so and writes nothing */
    tmux_keys(&t, "l");
    WAIT_FOR(&t, "could not be written as a lesson: a lesson is of the model as it is: put the changed heads back");
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    json_free(&clean);
    json_free(&ablated);
    free_weights();
    remove_dir(dir);
}
END_TEST

START_TEST(a_head_patched_from_a_second_text)
{
    if (!have_tmux())
        return;
    char *dir = make_dir(), args[700], want[300];
    tiny_gpt2_dir(dir);
    JVal clean, patched;
    model_json(dir, "", &clean);
    model_json(dir, "--patch 2.1 --from 'Howdy, yellow'", &patched);
    Tmux t;
    snprintf(args, sizeof args, "model %s --text \"Hello, hello!\"", dir);
    tmux_start(&t, 80, 24, NULL, args);
    WAIT_FOR(&t, "2 layers x 4 heads");
    tmux_keys(&t, "Down P");
    WAIT_FOR(&t, "patch L2H1 from: Hello, hello!");
    WAIT_FOR(&t, "13 tokens of the 13 a patch needs");
    /* a text of another length is refused, and P brings it back */
    tmux_keys(&t, "C-e BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace");    /* Ctrl-E keeps it, at its end */
    WAIT_FOR(&t, "5 tokens of the 13 a patch needs");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "the second text is 5 tokens and the text 13: a patch needs as many");
    tmux_keys(&t, "P");
    WAIT_FOR(&t, "patch L2H1 from: Hello");
    WAIT_FOR(&t, "5 tokens of the 13 a patch needs");
    tmux_type(&t, "Howdy, yellow");     /* it comes selected: typing replaces it */
    WAIT_FOR(&t, "13 tokens of the 13 a patch needs");
    tmux_keys(&t, "Enter");
    snprintf(want, sizeof want, "L2H1 patched from the second text: loss %.4f -> %.4f", num(&clean, "loss"),
             num(&patched, "loss"));
    WAIT_FOR(&t, want);
    WAIT_FOR(&t, "patched ");
    snprintf(want, sizeof want, "L2H1 patched: loss %.4f", num(&clean, "loss"));
    WAIT_FOR(&t, want);
    /* a new text of another length: the patch is let go, and said */
    tmux_keys(&t, "t C-e BSpace");     /* the old text comes selected: Ctrl-E keeps it, at its end */
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "12 tokens; the patched heads are as they were again: the second text has 13");
    ck_assert_msg(!strstr(t.last, "L2  patched") && !strstr(t.last, "L2H1 patched:"), "%s", t.last);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    json_free(&clean);
    json_free(&patched);
    free_weights();
    remove_dir(dir);
}
END_TEST

/* P's second text is typed as t types a text (one editor for both): it
 * starts as the text shown, selected, so typing replaces it; Ctrl-W and
 * Ctrl-U; a new line shown as one; its tokens counted live against the
 * text's; a text refused comes back to mend only while the text is the
 * same: after a new text, or the model opened again, P starts afresh. */
START_TEST(the_patch_text_is_typed_as_t_types)
{
    if (!have_tmux())
        return;
    char *dir = make_dir(), args[900], env[800], model[700];
    snprintf(model, sizeof model, "%s/tiny-gpt2", dir);
    CmdResult mk = cmd_runf("mkdir %s", model);
    cmd_free(&mk);
    tiny_gpt2_dir(model);
    Tmux t;
    snprintf(args, sizeof args, "model %s --text \"Hello, hello!\"", model);
    tmux_start(&t, 80, 24, NULL, args);
    WAIT_FOR(&t, "2 layers x 4 heads");
    tmux_keys(&t, "Down P");
    WAIT_FOR(&t, "patch L2H1 from: Hello, hello!");
    WAIT_FOR(&t, "13 tokens of the 13 a patch needs · ^U clears · ^W a word");
    tmux_type(&t, "abc def");
    WAIT_FOR(&t, "patch L2H1 from: abc def");
    WAIT_FOR(&t, "7 tokens of the 13 a patch needs");
    ck_assert_msg(!strstr(t.last, "Hello, hello!abc"), "typed after the old text:\n%s", t.last);
    tmux_keys(&t, "C-w");
    WAIT_FOR(&t, "4 tokens of the 13 a patch needs");
    tmux_keys(&t, "C-u");
    WAIT_FOR(&t, "0 tokens of the 13 a patch needs");
    tmux_type(&t, "one");
    tmux_keys(&t, "M-Enter");
    tmux_type(&t, "two");
    WAIT_FOR(&t, "patch L2H1 from: one↵two");
    WAIT_FOR(&t, "7 tokens of the 13 a patch needs");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "the second text is 7 tokens and the text 13: a patch needs as many");
    tmux_keys(&t, "P");
    WAIT_FOR(&t, "patch L2H1 from: one↵two");     /* back to mend */
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "2 layers x 4 heads");
    /* a new text: P starts from it, not from the text refused before */
    tmux_keys(&t, "t");
    tmux_type(&t, "Goodbye, you!");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "o d b y e");
    tmux_keys(&t, "P");
    WAIT_FOR(&t, "patch L2H1 from: Goodbye, you!");
    tmux_quit_and_check(&t, "Escape q", "EXITED 0");
    tmux_stop(&t);
    /* the model left and opened again from the shelf: afresh too */
    snprintf(env, sizeof env, "ATTN_MODELS=%s", dir);
    tmux_start(&t, 80, 24, env, NULL);
    WAIT_FOR(&t, "m real models");
    tmux_keys(&t, "m");
    WAIT_FOR(&t, "tiny-gpt2");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "2 layers x 4 heads");
    tmux_keys(&t, "P");
    WAIT_FOR(&t, "patch L1H1 from: When Mary");
    tmux_type(&t, "xyz");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "the second text is 3 tokens");
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "from $ATTN_MODELS");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "2 layers x 4 heads");
    tmux_keys(&t, "P");
    WAIT_FOR(&t, "patch L1H1 from: When Mary");
    tmux_quit_and_check(&t, "Escape q", "EXITED 0");
    tmux_stop(&t);
    free_weights();
    remove_dir(dir);
}
END_TEST

static int ends_with(const char *s, const char *end)
{
    size_t n = strlen(s), k = strlen(end);
    return n >= k && strcmp(s + n - k, end) == 0;
}

/* The strip under a change fits the width: at 250x70 a text of the
 * shipped model's whole context (128 tokens) wraps onto a second line, its
 * end shown; at 80x24, where one line holds a part, the part with the end
 * (the copy an induction head acts on), the cut marked and the tokens
 * shown said; in one head, the part with the query. */
START_TEST(the_strip_shows_the_end_of_a_long_text)
{
    if (!have_tmux())
        return;
    const char *said = "First Citizen: before we proceed any further, hear me speak. ";
    char args[1200], line[600];
    snprintf(args, sizeof args, "model %s/../models/shakespeare-twice --text \"%s%sAll: s\"", lessons_dir(), said, said);
    Tmux t;
    int col;
    tmux_start(&t, 250, 70, NULL, args);
    WAIT_FOR(&t, "4 layers x 4 heads · 128 tokens");
    tmux_keys(&t, "Down Down Right x");
    WAIT_FOR(&t, "L3H2 zeros: loss");
    int title = line_with(t.last, 0, "L3H2 zeros: loss", &col);
    int first = line_with(t.last, title, "F i r s t · C i t i z e n", &col);
    int end = line_with(t.last, title, "l : · s", &col);
    line_at(t.last, end, line, sizeof line);
    ck_assert_msg(first == title + 1 && end > first && end <= title + 5 && ends_with(line, "l : · s"),
                  "the strip does not hold the text to its end (lines %d, %d, %d): \"%s\"", title, first, end, line);
    ck_assert_msg(line_with(t.last, end, "next token: before", &col) == end + 2, "no next token under the strip");
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    tmux_start(&t, 80, 24, NULL, args);
    WAIT_FOR(&t, "128 tokens");
    tmux_keys(&t, "Down Down Right x");
    WAIT_FOR(&t, "L3H2 zeros: loss");
    title = line_with(t.last, 0, "L3H2 zeros: loss", &col);
    line_at(t.last, title + 1, line, sizeof line);
    ck_assert_msg(ends_with(line, "A l l : · s") && strncmp(line, " …", strlen(" …")) == 0, "the strip does not "
                  "show the end, its cut marked: \"%s\"", line);
    /* in one head, the query's part: the first token's, 127 tokens up */
    char ups[1200] = "Enter";
    for (int k = 0; k < 127; k++)
        strcat(ups, " Up");
    tmux_keys(&t, ups);
    WAIT_FOR(&t, "  …\n");    /* the right end's mark: more tokens after */
    title = line_with(t.last, 0, "L3H2 zeros: loss", &col);
    line_at(t.last, title + 1, line, sizeof line);
    ck_assert_msg(strstr(line, "F i r s t") && ends_with(line, "…") && !strstr(line, "A l l"), "\"%s\"", line);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
}
END_TEST

START_TEST(the_lens_and_the_attribution)
{
    if (!have_tmux())
        return;
    char *dir = make_dir(), args[700], want[300];
    tiny_gpt2_dir(dir);
    JVal doc;
    model_json(dir, "--lens --attribution", &doc);
    const JVal *lens = json_get(&doc, "lens"), *a = json_get(&doc, "attribution");
    Tmux t;
    snprintf(args, sizeof args, "model %s --text \"Hello, hello!\"", dir);
    for (int big = 0; big < 2; big++) {
        tmux_start(&t, big ? 250 : 80, big ? 70 : 24, NULL, args);
        WAIT_FOR(&t, "2 layers x 4 heads");
        tmux_keys(&t, "L");
        WAIT_FOR(&t, "the logit lens: what each layer would say comes");
        WAIT_FOR(&t, "after layer 2, at token 13 !:");
        /* the cursor's cell below: the last layer's top tokens, as --lens */
        const JVal *top = json_get(&lens->items[2], "top");
        snprintf(want, sizeof want, "%.4f  (id %d)", num(&top->items[0], "p"), (int)num(&top->items[0], "id"));
        ck_assert_msg(strstr(t.last, want), "no \"%s\":\n%s", want, t.last);
        /* up to the embeddings' row: Enter says what it is */
        tmux_keys(&t, "Up Up Enter");
        top = json_get(&lens->items[0], "top");
        snprintf(want, sizeof want, "%s %.4f, ", json_get(&top->items[0], "text")->str, num(&top->items[0], "p"));
        WAIT_FOR(&t, want);
        ck_assert_msg(strstr(t.last, "the stream after the embeddings at token 13 !"), "%s", t.last);
        /* A: the bars, the largest first, and Enter on one */
        tmux_keys(&t, "Escape A");
        snprintf(want, sizeof want, "comes next (logit %.4f), part by part", num(a, "logit"));
        WAIT_FOR(&t, want);
        double best = fabs(num(a, "rest")), v;
        char name[32] = "rest";
        const JVal *heads = json_get(a, "heads"), *mlps = json_get(a, "mlps");
        for (int i = 0; i < heads->n; i++)
            if ((v = fabs(num(&heads->items[i], "logit"))) > best) {
                best = v;
                snprintf(name, sizeof name, "L%dH%d", (int)num(&heads->items[i], "layer"),
                         (int)num(&heads->items[i], "head"));
            }
        for (int i = 0; i < mlps->n; i++)
            if ((v = fabs(num(&mlps->items[i], "logit"))) > best) {
                best = v;
                snprintf(name, sizeof name, "MLP %d", (int)num(&mlps->items[i], "layer"));
            }
        snprintf(want, sizeof want, "the largest: %s ", name);
        ck_assert_msg(strstr(t.last, want), "no \"%s\":\n%s", want, t.last);
        snprintf(want, sizeof want, "%s gives ", name);
        WAIT_FOR(&t, want);         /* the chosen row explained below the bars */
        tmux_keys(&t, "Enter");
        WAIT_FOR(&t, ": the logit.");
        const char *end = t.last + strlen(t.last);
        while (end > t.last && (end[-1] == '\n' || end[-1] == ' '))
            end--;
        const char *bottom = end;
        while (bottom > t.last && bottom[-1] != '\n')
            bottom--;
        ck_assert_msg(strncmp(bottom + 1, want, strlen(want)) == 0, "Enter did not say \"%s\":\n%s", want, t.last);
        tmux_keys(&t, "Escape");
        WAIT_FOR(&t, "layer 1 head 1:");
        tmux_quit_and_check(&t, "q", "EXITED 0");
        tmux_stop(&t);
    }
    json_free(&doc);
    free_weights();
    remove_dir(dir);
}
END_TEST

Suite *tui_effect_suite(void)
{
    Suite *s = suite_create("tui_effect");
    TCase *c = tcase_create("core");
    tcase_set_timeout(c, 120);
    tcase_add_test(c, a_head_taken_out_and_put_back);
    tcase_add_test(c, a_head_patched_from_a_second_text);
    tcase_add_test(c, the_patch_text_is_typed_as_t_types);
    tcase_add_test(c, the_strip_shows_the_end_of_a_long_text);
    tcase_add_test(c, the_lens_and_the_attribution);
    suite_add_tcase(s, c);
    return s;
}
