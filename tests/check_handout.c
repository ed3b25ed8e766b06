/*
 * check_handout.c - the handouts of `attn run` as a course uses them: the
 * student's sheet (--no-answers) writes "?" for every cell an exercise of
 * the step hides, in the plain text, the markdown and the JSON handouts;
 * the full JSON document (text, panes with labels, exercises) parsed back;
 * the markdown handout of a shipped lesson byte for byte against
 * tests/expected/.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "json_write.h"
#include "testutil.h"

/* Two exercises on one step: one hides its answer's cell (the default), the
 * other names the cells it hides; step Two shows the same matrix again. */
static const char *hiding_lesson =
    "lesson Hidden cells\n"
    "tokens a b\n"
    "let X = [1 2; 3 4]\n"
    "step One\n"
    "  let S = X @ X^T\n"
    "  show X S\n"
    "  heatmap S\n"
    "  exercise What is S[2,1]?\n"
    "    answer S[2,1] = 11\n"
    "  end\n"
    "  exercise Which is X[1,2]?\n"
    "    answer X[1,2] * 1\n"
    "    hide X[1,2] S[1,1]\n"
    "  end\n"
    "step Two\n"
    "  show S\n";

static char *temp_lesson(const char *text)
{
    const char *p = write_temp(".lesson", text);
    ck_assert_ptr_nonnull(p);
    return strdup(p);
}

/* Each of want[0..n) is found in text, in this order. */
static void expect_in_order(const char *text, const char *const *want, size_t n)
{
    const char *at = text;
    for (size_t i = 0; i < n; i++) {
        const char *found = strstr(at, want[i]);
        ck_assert_msg(found != NULL, "lacks (in order):\n%s\n--- output:\n%s", want[i], text);
        at = found + strlen(want[i]);
    }
}

/* ---- the student's sheet: hidden cells are "?" ---- */

START_TEST(test_plain_hides_cells)
{
    char *path = temp_lesson(hiding_lesson);
    CmdResult r = cmd_runf("%s run --no-answers %s", attn_bin(), path);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    static const char *const want[] = {
        /* the set-up screen, before every step, keeps the exercises' cells */
        "X  (2x2)\n          1       2\n  a  1.0000       ?\n  b  3.0000  4.0000\n",
        "Step 1/2: One\n",
        /* "?" right-aligned like a number; a hidden cell's shade is '?' */
        "X  (2x2)\n          1       2\n  a  1.0000       ?\n  b  3.0000  4.0000\n",
        "S  (2x2, heatmap)\n           a        b\n  a        ?  11.0000   |?:|\n  b        ?  25.0000   |?@|\n",
        "Exercise 1: What is S[2,1]?\n  Answer: ____________\n",
        "Exercise 2: Which is X[1,2]?\n  Answer: ____________\n",
        /* another step shows the matrix whole */
        "Step 2/2: Two\n",
        "S  (2x2)\n           a        b\n  a   5.0000  11.0000\n  b  11.0000  25.0000\n",
    };
    expect_in_order(r.out, want, sizeof want / sizeof *want);
    cmd_free(&r);

    /* with the answers, nothing is hidden */
    r = cmd_runf("%s run %s", attn_bin(), path);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(!strstr(r.out, "?  ") && !strstr(r.out, "|?"), "a cell is hidden with the answers:\n%s", r.out);
    static const char *const answers[] = {
        "  a   5.0000  11.0000   |.:|\n  b  11.0000  25.0000   |:@|\n",
        "  Answer: S[2,1] = 11.0000\n",
        "  Answer: X[1,2] * 1 = 2.0000\n",
    };
    expect_in_order(r.out, answers, sizeof answers / sizeof *answers);
    cmd_free(&r);
    free(path);
}
END_TEST

/* ---- the full JSON ---- */

/* Parse `attn run --json [opts] path` into *doc; asserts it exits 0. */
static void run_json(JVal *doc, const char *opts, const char *path)
{
    CmdResult r = cmd_runf("%s run --json %s %s", attn_bin(), opts, path);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    char err[200];
    ck_assert_msg(json_parse(r.out, doc, err, sizeof err) == 0, "%s in\n%s", err, r.out);
    cmd_free(&r);
}

static const JVal *item(const JVal *arr, int i)
{
    ck_assert_msg(arr && arr->type == J_ARR && i < arr->n, "no item %d", i);
    return &arr->items[i];
}

static const char *str_of(const JVal *obj, const char *key)
{
    const JVal *v = json_get(obj, key);
    ck_assert_msg(v && v->type == J_STR, "\"%s\" is not a string", key);
    return v->str;
}

static double num_of(const JVal *v)
{
    double d;
    ck_assert_msg(json_number(v, &d) == 0, "not a number");
    return d;
}

static void expect_strings(const JVal *v, const char *what, const char *const *want, int n)
{
    ck_assert_msg(v && v->type == J_ARR && v->n == n, "%s is not an array of %d strings", what, n);
    for (int i = 0; i < n; i++)
        ck_assert_msg(v->items[i].type == J_STR && strcmp(v->items[i].str, want[i]) == 0, "%s[%d] is not \"%s\"",
                      what, i, want[i]);
}

static void expect_keys(const JVal *v, const char *what, const char *const *keys, int n)
{
    ck_assert_msg(v && v->type == J_OBJ && v->n == n, "%s has not %d keys", what, n);
    for (int i = 0; i < n; i++)
        ck_assert_msg(strcmp(v->keys[i], keys[i]) == 0, "%s: key %d is \"%s\", not \"%s\"", what, i + 1,
                      v->keys[i], keys[i]);
}

static const char *const pane_keys[] = { "name", "heatmap", "rows", "cols", "row_labels", "col_labels", "data" };
static const char *const exercise_keys[] = { "number", "line", "question", "hints", "hides", "answer", "expected",
                                             "within" };

/* A shipped lesson: step 3 of 02-sky-is-blue, its text, its panes with the
 * tokens as labels and the numbers of the document's matrices, and its
 * exercise with hint, answer and value. */
START_TEST(test_json_shipped_lesson)
{
    char path[512];
    snprintf(path, sizeof path, "%s/02-sky-is-blue.lesson", lessons_dir());
    JVal doc;
    run_json(&doc, "", path);
    ck_assert_str_eq(str_of(&doc, "about"), "Three words in 2-d: Q, K, V, logits, scaling, row softmax, output.");
    static const char *const tokens[] = { "sky", "is", "blue" };
    expect_strings(json_get(&doc, "tokens"), "tokens", tokens, 3);
    ck_assert_int_eq(json_get(&doc, "answers")->type, J_BOOL);
    ck_assert_msg(json_get(&doc, "answers")->num == 1, "answers is not true");
    const JVal *setup = json_get(&doc, "setup");
    ck_assert_msg(setup && setup->type == J_ARR && setup->n == 0, "02 has no set-up");

    const JVal *steps = json_get(&doc, "steps");
    ck_assert_int_eq(steps->n, 7);     /* six steps and the temperature knob's */
    const JVal *st = item(steps, 2);
    ck_assert_str_eq(str_of(st, "title"), "Logits: every query against every key");
    const char *text = str_of(st, "text");
    ck_assert_msg(strncmp(text, "The logits are Q K^T. Entry [i,j] is the dot product of query i with key j: a measure",
                          85) == 0, "text: %s", text);
    ck_assert_msg(strstr(text, "all three words.\n\nThe matrix is 3 x 3"), "paragraphs: %s", text);

    const JVal *panes = json_get(st, "panes");
    ck_assert_int_eq(panes->n, 3);
    static const char *const names[] = { "Q", "K", "logits" };
    for (int i = 0; i < 3; i++) {
        const JVal *p = item(panes, i);
        expect_keys(p, names[i], pane_keys, 7);
        ck_assert_str_eq(str_of(p, "name"), names[i]);
        ck_assert_msg(json_get(p, "heatmap")->num == (i == 2), "%s: heatmap", names[i]);
        expect_strings(json_get(p, "row_labels"), "row_labels", tokens, 3);
        /* the pane's matrix is the document's matrix of that name */
        const JVal *data = json_get(p, "data"), *mdata = json_get(json_get(json_get(&doc, "matrices"), names[i]), "data");
        ck_assert_int_eq((int)json_get(p, "rows")->num, 3);
        ck_assert_int_eq((int)json_get(p, "cols")->num, i == 2 ? 3 : 2);
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < (i == 2 ? 3 : 2); c++)
                ck_assert_msg(num_of(item(item(data, r), c)) == num_of(item(item(mdata, r), c)), "%s[%d,%d]",
                              names[i], r + 1, c + 1);
    }
    /* logits = Q K^T: tokens on both axes; Q's features are numbered, so null */
    expect_strings(json_get(item(panes, 2), "col_labels"), "logits col_labels", tokens, 3);
    ck_assert_int_eq(json_get(item(panes, 0), "col_labels")->type, J_NULL);
    ck_assert_double_eq_tol(num_of(item(item(json_get(item(panes, 2), "data"), 0), 1)), 0.0604, 5e-5);

    const JVal *exs = json_get(st, "exercises");
    ck_assert_int_eq(exs->n, 1);
    const JVal *ex = item(exs, 0);
    expect_keys(ex, "the exercise", exercise_keys, 8);
    ck_assert_str_eq(str_of(ex, "question"), "How strongly does 'sky' (query 1) match 'is' (key 2)?");
    static const char *const hints[] = { "Row 1 of Q dotted with row 2 of K." };
    expect_strings(json_get(ex, "hints"), "hints", hints, 1);
    static const char *const hides[] = { "logits[1,2]" };
    expect_strings(json_get(ex, "hides"), "hides", hides, 1);
    ck_assert_str_eq(str_of(ex, "answer"), "logits[1,2]");
    ck_assert_double_eq_tol(num_of(json_get(ex, "expected")), 0.0604, 5e-5);
    ck_assert_double_eq_tol(num_of(json_get(ex, "within")), 1e-3, 1e-12);
    ck_assert_int_eq((int)json_get(ex, "line")->num, 75);
    json_free(&doc);
}
END_TEST

/* A small lesson: set-up panes, labels of both layouts' axes, and strings
 * with quotes, backslashes and non-ASCII text, read back exactly. */
START_TEST(test_json_small_lesson)
{
    char *path = temp_lesson("lesson \"Quotes\" and \\ back\\slash\n"
                             "about  Ünïcode → stays UTF-8.\n"
                             "layout columns\n"
                             "tokens x y\n"
                             "let X = [1 2; 3 4]\n"
                             "step Σ \"one\"\n"
                             "  text\n"
                             "    A \"quoted\" word, a back\\slash, and é.\n"
                             "\n"
                             "    Second paragraph.\n"
                             "  end\n"
                             "  let Y = X^T @ X\n"
                             "  show Y\n"
                             "  heatmap Y\n"
                             "  exercise Is \"Y[1,1]\" 10?\n"
                             "    answer Y[1,1] = 10\n"
                             "    hint   Row \\ column.\n"
                             "    hint   1*1 + 3*3.\n"
                             "  end\n");
    JVal doc;
    run_json(&doc, "", path);
    ck_assert_str_eq(str_of(&doc, "lesson"), "\"Quotes\" and \\ back\\slash");
    ck_assert_str_eq(str_of(&doc, "about"), "Ünïcode → stays UTF-8.");
    ck_assert_str_eq(str_of(&doc, "layout"), "columns");
    const JVal *setup = json_get(&doc, "setup");
    ck_assert_int_eq(setup->n, 1);
    expect_keys(item(setup, 0), "the set-up pane", pane_keys, 7);
    ck_assert_str_eq(str_of(item(setup, 0), "name"), "X");
    static const char *const tokens[] = { "x", "y" };
    /* tokens as columns: X's columns are the tokens, its rows numbered */
    expect_strings(json_get(item(setup, 0), "col_labels"), "X col_labels", tokens, 2);
    ck_assert_int_eq(json_get(item(setup, 0), "row_labels")->type, J_NULL);

    const JVal *st = item(json_get(&doc, "steps"), 0);
    ck_assert_str_eq(str_of(st, "title"), "Σ \"one\"");
    ck_assert_str_eq(str_of(st, "text"), "A \"quoted\" word, a back\\slash, and é.\n\nSecond paragraph.");
    const JVal *y = item(json_get(st, "panes"), 0);
    ck_assert_msg(json_get(y, "heatmap")->type == J_BOOL && json_get(y, "heatmap")->num == 1, "Y is a heatmap");
    expect_strings(json_get(y, "row_labels"), "Y row_labels", tokens, 2);
    expect_strings(json_get(y, "col_labels"), "Y col_labels", tokens, 2);
    static const double want[2][2] = { { 10, 14 }, { 14, 20 } };
    for (int r = 0; r < 2; r++)
        for (int c = 0; c < 2; c++)
            ck_assert_double_eq(num_of(item(item(json_get(y, "data"), r), c)), want[r][c]);
    const JVal *ex = item(json_get(st, "exercises"), 0);
    ck_assert_str_eq(str_of(ex, "question"), "Is \"Y[1,1]\" 10?");
    static const char *const hints[] = { "Row \\ column.", "1*1 + 3*3." };
    expect_strings(json_get(ex, "hints"), "hints", hints, 2);
    ck_assert_double_eq(num_of(json_get(ex, "expected")), 10);
    json_free(&doc);
    free(path);
}
END_TEST

/* The student's JSON: no answer, no value, hidden cells "?" in the step's
 * panes, in the document's matrices and in the set-up (as on paper). */
START_TEST(test_json_no_answers)
{
    char *path = temp_lesson(hiding_lesson);
    CmdResult r = cmd_runf("%s run --json --no-answers %s", attn_bin(), path);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(!strstr(r.out, "\"answer\"") && !strstr(r.out, "\"expected\"") && !strstr(r.out, "X[1,2] * 1"),
                  "the student's JSON gives an answer away:\n%s", r.out);
    JVal doc;
    char err[200];
    ck_assert_msg(json_parse(r.out, &doc, err, sizeof err) == 0, "%s in\n%s", err, r.out);
    ck_assert_msg(json_get(&doc, "answers")->num == 0, "answers is not false");
    const JVal *st = item(json_get(&doc, "steps"), 0);
    static const char *const keys[] = { "number", "line", "question", "hints", "hides" };
    expect_keys(item(json_get(st, "exercises"), 0), "exercise 1", keys, 5);
    static const char *const hides[] = { "X[1,2]", "S[1,1]" };
    expect_strings(json_get(item(json_get(st, "exercises"), 1), "hides"), "hides", hides, 2);
    const JVal *s_data = json_get(item(json_get(st, "panes"), 1), "data");
    ck_assert_str_eq(item(item(s_data, 0), 0)->str, "?");
    ck_assert_str_eq(item(item(s_data, 1), 0)->str, "?");
    ck_assert_double_eq(num_of(item(item(s_data, 0), 1)), 11);
    ck_assert_double_eq(num_of(item(item(s_data, 1), 1)), 25);
    ck_assert_str_eq(item(item(json_get(item(json_get(st, "panes"), 0), "data"), 0), 1)->str, "?");
    /* step Two shows S whole; the document's S hides what any exercise hides */
    const JVal *two = json_get(item(json_get(item(json_get(&doc, "steps"), 1), "panes"), 0), "data");
    ck_assert_double_eq(num_of(item(item(two, 0), 0)), 5);
    const JVal *m = json_get(json_get(json_get(&doc, "matrices"), "S"), "data");
    ck_assert_str_eq(item(item(m, 0), 0)->str, "?");
    ck_assert_str_eq(item(item(json_get(item(json_get(&doc, "setup"), 0), "data"), 0), 1)->str, "?");
    ck_assert_double_eq(num_of(item(item(json_get(item(json_get(&doc, "setup"), 0), "data"), 0), 0)), 1);
    json_free(&doc);
    cmd_free(&r);
    free(path);
}
END_TEST

/* Every string is escaped: no control byte, C0 or C1, ever reaches the
 * output raw; other UTF-8 passes through; malformed bytes become U+FFFD. */
START_TEST(test_json_string_escapes)
{
    StrBuf out = { 0 };
    jw_string(&out, "a\"b\\c\n\r\t\x01\x1f\x7f" "\xc2\x85" "é→\xe2\x80\xa8" "\xff" "\xc0\xaf" "\xed\xa0\x80" "\xe2\x82");
    strbuf_put(&out, " ", 1);
    jw_string(&out, NULL);
    char *buf = strbuf_take(&out);
    ck_assert_ptr_nonnull(buf);
    ck_assert_str_eq(buf, "\"a\\\"b\\\\c\\n\\r\\t\\u0001\\u001f\\u007f\\u0085é→\\u2028"
                          "\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\\ufffd\" null");
    JVal v;
    char err[200];
    ck_assert_msg(json_parse(buf, &v, err, sizeof err) == -1, "two values parsed as one");
    buf[strlen(buf) - 5] = '\0';
    ck_assert_msg(json_parse(buf, &v, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(v.str, "a\"b\\c\n\r\t\x01\x1f\x7f\xc2\x85" "é→\xe2\x80\xa8"
                            "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
                            "\xef\xbf\xbd");
    json_free(&v);
    free(buf);
}
END_TEST

/* ---- the markdown handout ---- */

/* The handout of a shipped lesson, written to a file and to stdout, is
 * byte for byte tests/expected/02-sky-is-blue.md. After a deliberate change,
 * regenerate it with
 *   ./attn run --markdown tests/expected/02-sky-is-blue.md lessons/02-sky-is-blue.lesson
 * and read the diff. */
START_TEST(test_markdown_expected)
{
    char *want = slurp("tests/expected/02-sky-is-blue.md");
    ck_assert_msg(want != NULL, "tests/expected/02-sky-is-blue.md is missing (run from the repository root)");
    char lesson[512];
    snprintf(lesson, sizeof lesson, "%s/02-sky-is-blue.lesson", lessons_dir());
    char *out = strdup(write_temp(".md", ""));
    CmdResult r = cmd_runf("%s run --markdown %s %s", attn_bin(), out, lesson);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_str_eq(r.out, "");
    ck_assert_str_eq(r.err, "");
    char *got = slurp(out);
    ck_assert_ptr_nonnull(got);
    /* the first line that differs, for a readable failure */
    int line = 1;
    size_t k = 0;
    for (; got[k] && got[k] == want[k]; k++)
        line += got[k] == '\n';
    ck_assert_msg(strcmp(got, want) == 0, "the handout differs from tests/expected/02-sky-is-blue.md at line %d:\n"
                  "got:  %.120s\nwant: %.120s", line, got + k, want + k);
    cmd_free(&r);
    r = cmd_runf("%s run --markdown - %s", attn_bin(), lesson);
    ck_assert_msg(r.status == 0 && strcmp(r.out, want) == 0, "--markdown - differs from the file (exit %d)", r.status);
    cmd_free(&r);
    free(got);
    free(out);
    free(want);
}
END_TEST

/* The student's markdown: every answer a blank, no answer expression and no
 * value, the cells the step's exercises hide as "?". */
START_TEST(test_markdown_no_answers)
{
    char lesson[512];
    snprintf(lesson, sizeof lesson, "%s/02-sky-is-blue.lesson", lessons_dir());
    CmdResult r = cmd_runf("%s run --no-answers --markdown - %s", attn_bin(), lesson);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    int blanks = 0;
    for (const char *p = r.out; (p = strstr(p, "**Answer:**")); p++) {
        ck_assert_msg(strncmp(p, "**Answer:** ____________\n", 25) == 0, "an answer is given: %.80s", p);
        blanks++;
    }
    ck_assert_int_eq(blanks, 9);
    ck_assert_msg(!strstr(r.out, "E[3,1] + E[3,2]") && !strstr(r.out, "E[2,:] @ E[3,:]^T") && !strstr(r.out, "= 0.2294") &&
                  !strstr(r.out, "= -0.5371"), "an answer's expression or value is in the sheet:\n%s", r.out);
    /* step 2 hides Q[1,1]; step 3 shows Q whole */
    static const char *const want[] = {
        "## Step 2/7: Three views of each word: Q, K and V\n",
        "| **sky**  |      ? | 0.7422 |\n",
        "## Step 3/7: Logits: every query against every key\n",
        "| **sky**  | 0.2261 | 0.7422 |\n",
        /* the heatmap's hidden cell has no shade either */
        "## Step 5/7: Softmax along each row\n",
        "| **sky**  | 0.2801 ░ |        ? |        ? |\n",
    };
    expect_in_order(r.out, want, sizeof want / sizeof *want);
    cmd_free(&r);

    char *path = temp_lesson(hiding_lesson);
    r = cmd_runf("%s run --no-answers --markdown - %s", attn_bin(), path);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    static const char *const small[] = {
        /* the set-up, before every step, keeps what they ask too */
        "## Set-up\n",
        "|       |      1 |      2 |\n|:------|-------:|-------:|\n| **a** | 1.0000 |      ? |\n",
        "## Step 1/2: One\n",
        "|       |      1 |      2 |\n|:------|-------:|-------:|\n| **a** | 1.0000 |      ? |\n",
        "|       |   a |         b |\n|:------|----:|----------:|\n"
        "| **a** |   ? | 11.0000 ▒ |\n| **b** |   ? | 25.0000 █ |\n",
        "**Exercise 1:** What is S\\[2,1\\]?\n\n**Answer:** ____________\n",
        "**Exercise 2:** Which is X\\[1,2\\]?\n\n**Answer:** ____________\n",
        "## Step 2/2: Two\n",
        "| **a** |  5.0000 | 11.0000 |\n| **b** | 11.0000 | 25.0000 |\n",
    };
    expect_in_order(r.out, small, sizeof small / sizeof *small);
    ck_assert_msg(!strstr(r.out, "X[1,2] * 1"), "the answer's expression is in the sheet:\n%s", r.out);
    cmd_free(&r);
    free(path);
}
END_TEST

/* Lesson text is data on the page: markdown's characters are escaped in
 * titles, prose, labels, questions and hints; a formula line becomes a code
 * block; a list or heading cannot start a line of prose. */
START_TEST(test_markdown_escapes)
{
    char *path = temp_lesson("lesson Marks | *bold* _it_ #1 <b> & $x$\n"
                             "tokens a|b c*d\n"
                             "step 1. Scores `x`\n"
                             "  text\n"
                             "    The scores are\n"
                             "        S = Q K^T / sqrt(d_k)\n"
                             "    for every [pair](x).\n"
                             "\n"
                             "    - not a list\n"
                             "\n"
                             "    12. not a list either\n"
                             "  end\n"
                             "  let S = [1 2; 3 4]\n"
                             "  show S\n"
                             "  exercise Is [it] *this*?\n"
                             "    answer S[2,1]\n"
                             "    hint   Use | pipes | and \\ backslash.\n"
                             "  end\n");
    CmdResult r = cmd_runf("%s run --markdown - %s", attn_bin(), path);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    static const char *const want[] = {
        "# Marks \\| \\*bold\\* \\_it\\_ \\#1 \\<b\\> \\& \\$x\\$\n",
        "\nTokens (one per row): a\\|b c\\*d\n",
        "\n## Step 1/1: 1. Scores \\`x\\`\n",
        "\nThe scores are\n\n```\n    S = Q K^T / sqrt(d_k)\n```\n\nfor every \\[pair\\](x).\n",
        "\n\\- not a list\n\n12\\. not a list either\n",
        "\n**S** (2x2)\n\n|          |      1 |      2 |\n|:---------|-------:|-------:|\n"
        "| **a\\|b** | 1.0000 | 2.0000 |\n| **c\\*d** | 3.0000 | 4.0000 |\n",
        "\n**Exercise 1:** Is \\[it\\] \\*this\\*?\n\n- Hint 1: Use \\| pipes \\| and \\\\ backslash.\n",
        "\n**Answer:** `S[2,1]` = 3.0000\n",
    };
    expect_in_order(r.out, want, sizeof want / sizeof *want);
    cmd_free(&r);
    free(path);
}
END_TEST

/* --markdown takes a file (or -), goes with --no-answers, not with --json or
 * --explain; a file that cannot be written is exit 2 with the reason. */
START_TEST(test_markdown_usage)
{
    char *path = temp_lesson(hiding_lesson);
    const char *bad[] = { "--markdown", "--markdown - --json", "--json --markdown -", "--markdown - --explain 'S[1,1]'" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CmdResult r = cmd_runf("%s run %s %s", attn_bin(), bad[i], i == 0 ? "" : path);
        ck_assert_msg(r.status == 2, "attn run %s: exit %d", bad[i], r.status);
        ck_assert_str_eq(r.out, "");
        ck_assert_msg(strncmp(r.err, "attn: ", 6) == 0 && strstr(r.err, "usage: attn run"), "attn run %s: %s", bad[i],
                      r.err);
        cmd_free(&r);
    }
    CmdResult r = cmd_runf("%s run --markdown /nonexistent/dir/x.md %s", attn_bin(), path);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err, "attn: cannot write the markdown handout /nonexistent/dir/x.md: No such file or directory\n");
    cmd_free(&r);
    r = cmd_runf("%s run --markdown /dev/full %s", attn_bin(), path);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err, "attn: cannot write the markdown handout /dev/full: it is a device, not a regular file\n");
    cmd_free(&r);
    r = cmd_runf("%s run --markdown - %s > /dev/full", attn_bin(), path);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err, "attn: could not write the output\n");
    cmd_free(&r);
    /* a refused lesson writes no file */
    char *out = strdup(write_temp(".md", ""));
    remove(out);
    char *broken = temp_lesson("lesson B\nlet A = Q\n");
    r = cmd_runf("%s run --markdown %s %s", attn_bin(), out, broken);
    ck_assert_msg(r.status == 2 && strstr(r.err, "unknown name 'Q'"), "exit %d: %s", r.status, r.err);
    cmd_free(&r);
    r = cmd_runf("test ! -e %s", out);
    ck_assert_msg(r.status == 0, "a refused lesson left %s behind", out);
    cmd_free(&r);
    free(broken);
    free(out);
    free(path);
}
END_TEST

/* An answer is printed with the digits its tolerance checks. */
START_TEST(test_run_answer_digits)
{
    char *path = temp_lesson("lesson D\nlet x = [ 0.000006144 ]\nstep Tiny\n  exercise How big is x?\n"
                             "    answer x[1,1] within 1e-7\n  end\n");
    CmdResult r = cmd_runf("%s run %s", attn_bin(), path);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.out, "  Answer: x[1,1] = 0.0000061\n"), "the answer's digits:\n%s", r.out);
    cmd_free(&r);
    free(path);
}
END_TEST

Suite *handout_suite(void)
{
    Suite *s = suite_create("handout");
    TCase *core = tcase_create("core");
    tcase_set_timeout(core, 60);
    tcase_add_test(core, test_plain_hides_cells);
    tcase_add_test(core, test_json_shipped_lesson);
    tcase_add_test(core, test_json_small_lesson);
    tcase_add_test(core, test_json_no_answers);
    tcase_add_test(core, test_json_string_escapes);
    tcase_add_test(core, test_markdown_expected);
    tcase_add_test(core, test_markdown_no_answers);
    tcase_add_test(core, test_markdown_escapes);
    tcase_add_test(core, test_markdown_usage);
    tcase_add_test(core, test_run_answer_digits);
    suite_add_tcase(s, core);
    return s;
}
