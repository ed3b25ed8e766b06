/*
 * check_cli.c - the plain-text commands as a user runs them: `attn run`
 * (handout), `attn run --json` (parsed back), `attn run --explain`,
 * `attn check` (lines, closing line, exit status), usage errors, and the
 * corpus of broken lessons in tests/broken/, each refused with exactly the
 * error its first line expects.
 */
#include <check.h>
#include <sys/stat.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "lesson.h"
#include "testutil.h"

static const char *small_lesson =
    "# a lesson for the command-line tests\n"
    "lesson Tiny attention\n"
    "about  Two tokens, one head.\n"
    "tokens cat sat\n"
    "let X = [1 0; 0 1]\n"
    "step Scores\n"
    "  text\n"
    "    Each score is a dot product \"quoted\" and scaled.\n"
    "\n"
    "    A second paragraph.\n"
    "  end\n"
    "  let S = X @ X^T / 2 + causal_mask(2)\n"
    "  let A = softmax_rows(S)\n"
    "  show S A\n"
    "  heatmap A\n"
    "  exercise How much does cat attend to sat?\n"
    "    answer A[1,2] = 0\n"
    "    hint The mask hides the future.\n"
    "  end\n"
    "check A = [1 0; 0.377540669 0.622459331]\n"
    "check S[1,1] = 0.5 within 1e-6\n";

/* Write a lesson to a temp file; returns a malloc'd path. */
static char *temp_lesson(const char *text)
{
    const char *p = write_temp(".lesson", text);
    ck_assert_ptr_nonnull(p);
    return strdup(p);
}

/* 1 when text parses as JSON. */
static int json_ok(const char *text)
{
    JVal doc;
    char err[200];
    if (json_parse(text, &doc, err, sizeof err) < 0)
        return 0;
    json_free(&doc);
    return 1;
}

/* The keys of object v, in order, must be exactly keys[0..n). */
static void expect_keys(const JVal *v, const char *what, const char *const *keys, int n)
{
    ck_assert_msg(v && v->type == J_OBJ, "%s is not an object", what);
    ck_assert_msg(v->n == n, "%s has %d keys, expected %d", what, v->n, n);
    for (int i = 0; i < n; i++)
        ck_assert_msg(strcmp(v->keys[i], keys[i]) == 0, "%s: key %d is \"%s\", expected \"%s\"", what, i + 1,
                      v->keys[i], keys[i]);
}

/* An array of strings equal to names[0..n). */
static void expect_names(const JVal *v, const char *what, const char *const *names, int n)
{
    ck_assert_msg(v && v->type == J_ARR && v->n == n, "%s is not an array of %d", what, n);
    for (int i = 0; i < n; i++)
        ck_assert_msg(v->items[i].type == J_STR && strcmp(v->items[i].str, names[i]) == 0,
                      "%s[%d] is not \"%s\"", what, i, names[i]);
}

/* ---- run ---- */

START_TEST(test_run_handout)
{
    char *path = temp_lesson(small_lesson);
    CmdResult r = cmd_runf("%s run %s", attn_bin(), path);
    ck_assert_msg(r.status == 0, "exit %d, stderr: %s", r.status, r.err);
    ck_assert_str_eq(r.err, "");
    const char *expect[] = {
        "Tiny attention\n==============\n",
        "Two tokens, one head.\n",
        "Set-up\n------\n\nX  (2x2)\n            1       2\n  cat  1.0000  0.0000\n  sat  0.0000  1.0000\n",
        "Step 1/1: Scores\n----------------\n",
        "Each score is a dot product \"quoted\" and scaled.\n\nA second paragraph.\n",
        "S  (2x2)\n          cat     sat\n  cat  0.5000    -inf\n  sat  0.0000  0.5000\n",
        /* weights on the fixed 0..1 scale, in the screen's five shades */
        /* A[1,2] is 0 because S[1,2] is -inf: exactly 0, unlike a weight
         * that rounds to 0.0000 */
        "A  (2x2, heatmap)\n          cat     sat\n  cat  1.0000       0   |@ |\n  sat  0.3775  0.6225   |.#|\n"
        "  shades ' .:#@': ' ' is 0.0000, '@' is 1.0000\n"
        "  0 (no decimals): masked, exactly 0 where the score was -inf\n",
        "Exercise 1: How much does cat attend to sat?\n  Hint 1: The mask hides the future.\n"
        "  Answer: A[1,2] = 0.0000\n",
    };
    const char *at = r.out;
    for (size_t i = 0; i < sizeof expect / sizeof *expect; i++) {
        const char *found = strstr(at, expect[i]);
        ck_assert_msg(found != NULL, "the handout lacks (in order):\n%s\n--- handout:\n%s", expect[i], r.out);
        at = found;
    }
    cmd_free(&r);
    free(path);
}
END_TEST

/* A sheet for students: hints stay, answers become a blank to fill in. */
START_TEST(test_run_no_answers)
{
    char *path = temp_lesson(small_lesson);
    CmdResult r = cmd_runf("%s run --no-answers %s", attn_bin(), path);
    ck_assert_msg(r.status == 0, "exit %d, stderr: %s", r.status, r.err);
    ck_assert_msg(strstr(r.out, "Exercise 1: How much does cat attend to sat?\n  Hint 1: The mask hides the future.\n"
                                "  Answer: ____________\n"),
                  "the student's sheet lacks the exercise with a blank answer:\n%s", r.out);
    ck_assert_msg(!strstr(r.out, "A[1,2] = 0.0000"), "the student's sheet gives the answer away:\n%s", r.out);
    cmd_free(&r);
    /* with the JSON it is a student's document (tests/check_handout.c);
     * an explanation is no handout */
    r = cmd_runf("%s run --no-answers --json %s", attn_bin(), path);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(json_ok(r.out), "not valid JSON:\n%s", r.out);
    cmd_free(&r);
    r = cmd_runf("%s run --no-answers --explain 'A[1,1]' %s", attn_bin(), path);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.out, "");
    ck_assert_msg(strstr(r.err, "attn: --no-answers goes with a handout (plain, --json), not --explain\n"),
                  "stderr: %s", r.err);
    cmd_free(&r);
    free(path);
}
END_TEST

/* Lines that softmax found all -inf are named under the matrix, and every
 * weight a mask made 0 is a bare 0 (exact), said so once. */
START_TEST(test_run_marks_masked_lines)
{
    char *path = temp_lesson("lesson M\nlet S = [-inf -inf 0; -inf -inf 1]\nlet A = softmax_rows(S)\n"
                             "let B = softmax_cols(S)\nlet C = softmax_rows(S^T)\n");
    CmdResult r = cmd_runf("%s run %s", attn_bin(), path);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    const char *want[] = {
        "A  (2x3)\n     1  2       3\n  1  0  0  1.0000\n  2  0  0  1.0000\n"
        "  0 (no decimals): masked, exactly 0 where the score was -inf\n\n",
        "B  (2x3)\n     1  2       3\n  1  0  0  0.2689\n  2  0  0  0.7311\n"
        "  0 (no decimals): masked, exactly 0 where the score was -inf\n"
        "  columns 1, 2 fully masked: every score -inf, weights 0\n\n",
        "C  (3x2)\n          1       2\n  1       0       0\n  2       0       0\n  3  0.2689  0.7311\n"
        "  0 (no decimals): masked, exactly 0 where the score was -inf\n"
        "  rows 1, 2 fully masked: every score -inf, weights 0\n\n",
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        ck_assert_msg(strstr(r.out, want[i]), "the handout lacks\n%s\n--- handout:\n%s", want[i], r.out);
    cmd_free(&r);
    free(path);
}
END_TEST

START_TEST(test_run_wraps_text)
{
    char *path = temp_lesson("lesson W\nstep Long\n  text\n"
                             "    aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo pppp qqqq\n"
                             "  end\n");
    CmdResult r = cmd_runf("%s run %s", attn_bin(), path);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "\naaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo\npppp qqqq\n"),
                  "not wrapped at 78 columns:\n%s", r.out);
    cmd_free(&r);
    free(path);

    /* a word longer than a line (a URL, say) is split at the width, as the
     * screen splits it: one wrapper for paper and screen */
    char text[1200], word[1001];
    memset(word, 'w', 1000);
    word[1000] = '\0';
    snprintf(text, sizeof text, "lesson W\nstep Long\n  text\n    see %s now\n  end\n", word);
    path = temp_lesson(text);
    r = cmd_runf("%s run %s", attn_bin(), path);
    ck_assert_int_eq(r.status, 0);
    snprintf(text, sizeof text, "\nsee\n%.78s\n%.78s\n", word, word);
    ck_assert_msg(strstr(r.out, text), "the long word is not split at 78 columns:\n%s", r.out);
    ck_assert_msg(strstr(r.out, "wwwwwwwwww now\n"), "the long word's end does not share a line with 'now':\n%s",
                  r.out);
    cmd_free(&r);
    free(path);

    /* a line indented deeper than its paragraph (a formula) keeps its own
     * line and its indentation, on paper as on screen */
    path = temp_lesson("lesson W\nstep F\n  text\n    The scores are\n        S = Q K^T / sqrt(d_k)\n"
                       "    for every pair.\n  end\n");
    r = cmd_runf("%s run %s", attn_bin(), path);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "\nThe scores are\n    S = Q K^T / sqrt(d_k)\nfor every pair.\n"),
                  "the formula line was joined into the paragraph:\n%s", r.out);
    cmd_free(&r);
    free(path);
}
END_TEST

START_TEST(test_run_json)
{
    char *path = temp_lesson(small_lesson);
    CmdResult r = cmd_runf("%s run --json %s", attn_bin(), path);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(json_ok(r.out), "not valid JSON:\n%s", r.out);
    const char *want[] = {
        "{\"lesson\": \"Tiny attention\", \"layout\": \"rows\",",
        "\"steps\": [\n  {\"title\": \"Scores\", \"show\": [\"S\", \"A\"], \"heatmap\": [\"A\"],",
        "\"X\": {\"rows\": 2, \"cols\": 2, \"data\": [[1, 0], [0, 1]]}",
        "\"S\": {\"rows\": 2, \"cols\": 2, \"data\": [[0.5, \"-inf\"], [0, 0.5]]}",
        /* each number in the fewest digits that read back as the same double */
        "\"A\": {\"rows\": 2, \"cols\": 2, \"data\": [[1, 0], [0.3775406777858734, 0.622459352016449]]}",
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        ck_assert_msg(strstr(r.out, want[i]) != NULL, "the JSON lacks %s:\n%s", want[i], r.out);
    cmd_free(&r);
    free(path);

    /* titles are escaped */
    path = temp_lesson("lesson A \"quoted\" \\ title\nlet v = [1e-7 123456789]\n");
    r = cmd_runf("%s run --json %s", attn_bin(), path);
    ck_assert_msg(json_ok(r.out), "not valid JSON:\n%s", r.out);
    ck_assert_msg(strstr(r.out, "\"lesson\": \"A \\\"quoted\\\" \\\\ title\""), "escaping: %s", r.out);
    ck_assert_msg(strstr(r.out, "[[1.0000000116860974e-7, 123456792]]"), "the same doubles read back: %s", r.out);
    ck_assert_msg(strstr(r.out, "\"steps\": []"), "no steps: %s", r.out);
    cmd_free(&r);
    free(path);
}
END_TEST

/* The whole document, parsed: the keys of the contract in its order, the
 * steps with their panes (a step's own lets by default), every defined name
 * in definition order with set-up included, and every number read back
 * equal to the float the engine computed (so %.9g suffices), non-finite
 * values as the strings "inf" and "-inf". */
START_TEST(test_run_json_shape)
{
    const char *text =
        "lesson J\nlayout columns\ntokens a b\nlet X = [1 2; 3 4]\nlet c = 1 / 3\n"
        "step One\n  let Y = X @ X\n"
        "  let N = hcat(-inf, inf, [1e-7 123456789 -0.1])\n"
        "step Two\n  let Z = softmax_cols(Y * 3.7)\n  show Z X\n  heatmap Z\n";
    char *path = temp_lesson(text);
    CmdResult r = cmd_runf("%s run --json %s", attn_bin(), path);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_str_eq(r.err, "");
    JVal doc;
    char jerr[200];
    ck_assert_msg(json_parse(r.out, &doc, jerr, sizeof jerr) == 0, "%s in\n%s", jerr, r.out);
    /* the contract's keys first, in its order; then what the full document
     * adds (tests/check_handout.c reads those) */
    static const char *const top[] = { "lesson", "layout", "steps",   "matrices", "about",
                                       "tokens", "knobs",  "answers", "setup" };
    expect_keys(&doc, "the document", top, 9);
    const JVal *knobs = json_get(&doc, "knobs");
    ck_assert_msg(knobs->type == J_ARR && knobs->n == 0, "a lesson without knobs has knobs: []");
    ck_assert_str_eq(json_get(&doc, "lesson")->str, "J");
    ck_assert_str_eq(json_get(&doc, "layout")->str, "columns");

    const JVal *steps = json_get(&doc, "steps");
    ck_assert_msg(steps->type == J_ARR && steps->n == 2, "steps: %d", steps->n);
    static const char *const step_keys[] = { "title", "show", "heatmap", "text", "panes", "exercises" };
    static const char *const show1[] = { "Y", "N" }, *const show2[] = { "Z", "X" }, *const heat2[] = { "Z" };
    expect_keys(&steps->items[0], "steps[0]", step_keys, 6);
    expect_keys(&steps->items[1], "steps[1]", step_keys, 6);
    ck_assert_str_eq(json_get(&steps->items[0], "title")->str, "One");
    ck_assert_str_eq(json_get(&steps->items[1], "title")->str, "Two");
    expect_names(json_get(&steps->items[0], "show"), "steps[0].show", show1, 2);
    expect_names(json_get(&steps->items[0], "heatmap"), "steps[0].heatmap", NULL, 0);
    expect_names(json_get(&steps->items[1], "show"), "steps[1].show", show2, 2);
    expect_names(json_get(&steps->items[1], "heatmap"), "steps[1].heatmap", heat2, 1);

    /* the same lesson evaluated here, through the library */
    LessonError err;
    Lesson *l = lesson_parse(text, strlen(text), "j.lesson", &err);
    ck_assert_ptr_nonnull(l);
    LessonState *st = lesson_eval(l, NULL, 0, &err);
    ck_assert_ptr_nonnull(st);
    static const char *const names[] = { "X", "c", "Y", "N", "Z" };
    const JVal *mats = json_get(&doc, "matrices");
    expect_keys(mats, "matrices", names, 5);
    ck_assert_int_eq(lesson_state_count(st), 5);
    static const char *const mat_keys[] = { "rows", "cols", "data" };
    for (int k = 0; k < 5; k++) {
        const Mat *m = lesson_state_get(st, names[k]);
        const JVal *jm = &mats->items[k];
        expect_keys(jm, names[k], mat_keys, 3);
        const JVal *data = json_get(jm, "data");
        ck_assert_msg(json_get(jm, "rows")->type == J_NUM && json_get(jm, "rows")->num == m->rows &&
                      json_get(jm, "cols")->type == J_NUM && json_get(jm, "cols")->num == m->cols,
                      "%s: rows and cols are not %dx%d", names[k], m->rows, m->cols);
        ck_assert_msg(data->type == J_ARR && data->n == m->rows, "%s: %d rows of data", names[k], data->n);
        for (int i = 0; i < m->rows; i++) {
            ck_assert_msg(data->items[i].type == J_ARR && data->items[i].n == m->cols, "%s: row %d", names[k], i);
            for (int j = 0; j < m->cols; j++) {
                const JVal *v = &data->items[i].items[j];
                float want = mat_get(m, i, j);
                double got;
                ck_assert_msg(json_number(v, &got) == 0, "%s[%d,%d] is not a number", names[k], i + 1, j + 1);
                ck_assert_msg(isfinite(want) ? v->type == J_NUM : v->type == J_STR,
                              "%s[%d,%d] = %g is written as the wrong JSON type", names[k], i + 1, j + 1, want);
                ck_assert_msg(isnan(want) ? isnan(got) : got == (double)want,
                              "%s[%d,%d]: JSON reads back %.9g, the engine has %.9g", names[k], i + 1, j + 1, got,
                              (double)want);
            }
        }
    }
    /* (a NaN no longer comes out of a lesson: honest arithmetic refuses it) */
    ck_assert_msg(strstr(r.out, "[[\"-inf\", \"inf\", 1.0000000116860974e-7, 123456792, -0.10000000149011612]]"),
                  "non-finite values, and numbers that read back as the same double: %s", r.out);
    lesson_state_free(st);
    lesson_free(l);
    json_free(&doc);
    cmd_free(&r);
    free(path);
}
END_TEST

START_TEST(test_run_explain)
{
    char *path = temp_lesson(small_lesson);
    CmdResult r = cmd_runf("%s run --explain 'S[2,1]' %s", attn_bin(), path);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(strncmp(r.out, "S[2,1] = ", 9) == 0, "explanation: %s", r.out);
    ck_assert_msg(strstr(r.out, "\n= 0.0000\n"), "the value of S[2,1]: %s", r.out);
    cmd_free(&r);
    r = cmd_runf("%s run --explain=A[2,2] %s", attn_bin(), path);
    ck_assert_msg(r.status == 0 && strstr(r.out, "0.6225"), "exit %d, explanation: %s", r.status, r.out);
    cmd_free(&r);

    struct { const char *cell, *msg; } bad[] = {
        { "A[3,1]", "attn: A[3,1] is outside A, which is 2x2 (indices start at 1)\n" },
        { "A[0,1]", "attn: A[0,1] is outside A, which is 2x2 (indices start at 1)\n" },
        { "Z[1,1]", "attn: the lesson defines no matrix 'Z'\n" },
        { "a[1,1]", "attn: the lesson defines no matrix 'a'; did you mean 'A'?\n" },
        { "SS[1,1]", "attn: the lesson defines no matrix 'SS'; did you mean 'S'?\n" },
        { "A[1]", "attn: bad cell 'A[1]': write NAME[ROW,COL] with 1-based indices, e.g. 'A[2,1]'\n" },
        { "A[1,1]x", "attn: bad cell 'A[1,1]x': write NAME[ROW,COL] with 1-based indices, e.g. 'A[2,1]'\n" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        r = cmd_runf("%s run --explain '%s' %s", attn_bin(), bad[i].cell, path);
        ck_assert_msg(r.status == 2, "%s: exit %d", bad[i].cell, r.status);
        ck_assert_str_eq(r.out, "");
        ck_assert_str_eq(r.err, bad[i].msg);
        cmd_free(&r);
    }
    free(path);
}
END_TEST

START_TEST(test_check_passes_and_fails)
{
    char *good = temp_lesson(small_lesson);
    CmdResult r = cmd_runf("%s check %s", attn_bin(), good);
    ck_assert_msg(r.status == 0, "exit %d\n%s%s", r.status, r.out, r.err);
    char line[512];
    snprintf(line, sizeof line,
             "ok   %s:16  exercise How much does cat attend to sat?\n"
             "ok   %s:20  check A = [1 0; 0.377540669 0.622459331]\n"
             "ok   %s:21  check S[1,1] = 0.5 within 1e-6\n"
             "3 passed, 0 failed\n", good, good, good);
    ck_assert_str_eq(r.out, line);
    cmd_free(&r);

    char *bad = temp_lesson("lesson Bad\nlet A = [1 2; 3 4]\ncheck A = [1 2; 3 4.5]\ncheck A[1,1] = 1\n");
    r = cmd_runf("%s check %s %s", attn_bin(), good, bad);
    ck_assert_msg(r.status == 1, "exit %d\n%s", r.status, r.out);
    snprintf(line, sizeof line,
             "FAIL %s:3  check A = [1 2; 3 4.5] -- max difference 0.5 at [2,2]: got 4, expected 4.5 (within 0.0001)\n",
             bad);
    ck_assert_msg(strstr(r.out, line), "lacks\n%s\nin\n%s", line, r.out);
    const char *last = r.out + strlen(r.out) - strlen("4 passed, 1 failed\n");
    ck_assert_str_eq(last, "4 passed, 1 failed\n");
    cmd_free(&r);

    /* a file that cannot be read or parsed: exit 2, the error on stderr */
    char *broken = temp_lesson("lesson B\nlet A = Q\n");
    r = cmd_runf("%s check %s /nonexistent/x.lesson %s", attn_bin(), good, broken);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, ":2:9: error: unknown name 'Q'"), "stderr: %s", r.err);
    ck_assert_msg(strstr(r.err, "/nonexistent/x.lesson: error: cannot open the lesson"), "stderr: %s", r.err);
    last = r.out + strlen(r.out) - strlen("3 passed, 2 failed\n");
    ck_assert_str_eq(last, "3 passed, 2 failed\n");
    cmd_free(&r);
    free(good);
    free(bad);
    free(broken);
}
END_TEST

START_TEST(test_usage_errors)
{
    const char *cmds[] = { "run", "run --bogus x.lesson", "run a.lesson b.lesson", "run --explain", "check",
                           "check --bogus", "run /nonexistent/x.lesson", "run --json --explain 'A[1,1]' x" };
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        CmdResult r = cmd_runf("%s %s", attn_bin(), cmds[i]);
        ck_assert_msg(r.status == 2, "attn %s: exit %d", cmds[i], r.status);
        ck_assert_msg(r.out[0] == '\0', "attn %s printed to stdout: %s", cmds[i], r.out);
        ck_assert_msg(strncmp(r.err, "attn: ", 6) == 0 || strstr(r.err, "error:"), "attn %s: stderr %s", cmds[i],
                      r.err);
        cmd_free(&r);
    }
}
END_TEST

/* ---- the broken corpus ---- */

/* Line n (1-based) of text, malloc'd, without its line end. */
static char *nth_line(const char *text, int n)
{
    const char *p = text;
    for (int i = 1; i < n && p; i++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p)
        return strdup("");
    size_t len = strcspn(p, "\n");
    if (len > 0 && p[len - 1] == '\r')
        len--;
    return strndup(p, len);
}

static int printable_ascii(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
            return 0;
    return 1;
}

/* The quoted line got (stderr's second line) and its caret line are line
 * src of the file with the caret under column col: the whole line, or for a
 * long line a window of it ("..." where cut) aligned so the caret still
 * sits under the character at col. */
static void check_quote(const char *path, const char *src, int col, const char *got, const char *caret)
{
    size_t shown = strlen(got), k = strlen(caret) - 1;
    ck_assert_msg(strlen(caret) >= 1 && caret[k] == '^' && strspn(caret, " ") == k,
                  "%s: caret line '%s' is not blanks and a caret", path, caret);
    if (strcmp(got, src) == 0) {
        ck_assert_msg(k == (size_t)col - 1, "%s: caret under column %zu, not %d", path, k + 1, col);
        return;
    }
    size_t pre = strncmp(got, "...", 3) == 0 ? 3 : 0;
    size_t post = shown >= pre + 3 && strcmp(got + shown - 3, "...") == 0 ? 3 : 0;
    ck_assert_msg(pre || post, "%s: the quoted line\n %s\nis not line\n %s", path, got, src);
    size_t body = shown - pre - post;
    long at = (long)col - 1 - ((long)k - (long)pre); /* where the window starts in src */
    ck_assert_msg(at >= 0 && (size_t)at + body <= strlen(src) && strncmp(src + at, got + pre, body) == 0,
                  "%s: the window\n %s\nwith its caret at %zu is not column %d of\n %s", path, got, k + 1, col, src);
    ck_assert_msg((pre == 0) == (at == 0) && (post == 0) == ((size_t)at + body == strlen(src)),
                  "%s: '...' marks no cut in\n %s", path, got);
    ck_assert_msg(body >= 100, "%s: a window of only %zu characters", path, body);
}

/* A broken lesson is refused the same way by every command: exit 2, the
 * error (FILE:LINE:COL: error: MESSAGE, the line, the caret) on stderr,
 * nothing on stdout, but for `check`'s own FAIL line and closing line. */
static int check_broken_file(const char *path)
{
    char *text = slurp(path);
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(strncmp(text, "# expect: ", 10) == 0, "%s has no '# expect: LINE:COL: MESSAGE' first line", path);
    char *expect = nth_line(text, 1);
    int line = 0, col = 0, used = 0;
    ck_assert_msg(sscanf(expect + 10, "%d:%d: %n", &line, &col, &used) == 2 && used > 0, "%s: bad expect line",
                  path);
    const char *msg = expect + 10 + used;
    char want[1200];
    snprintf(want, sizeof want, "%s:%d:%d: error: %s", path, line, col, msg);

    CmdResult r = cmd_runf("%s run %s", attn_bin(), path);
    ck_assert_msg(r.status == 2, "%s: exit %d, expected 2", path, r.status);
    ck_assert_msg(r.out[0] == '\0', "%s: printed to stdout: %.200s", path, r.out);
    char *got1 = nth_line(r.err, 1), *got2 = nth_line(r.err, 2), *got3 = nth_line(r.err, 3);
    ck_assert_msg(strcmp(got1, want) == 0, "%s:\n got  %s\n want %s", path, got1, want);
    char *src = nth_line(text, line);
    if (printable_ascii(src))
        check_quote(path, src, col, got2, got3);
    else
        ck_assert_msg(strlen(got3) >= 1 && got3[strlen(got3) - 1] == '^', "%s: no caret: '%s'", path, got3);

    const char *other[] = { "run --json", "run --explain 'A[1,1]'" };
    for (size_t i = 0; i < sizeof other / sizeof *other; i++) {
        CmdResult o = cmd_runf("%s %s %s", attn_bin(), other[i], path);
        ck_assert_msg(o.status == 2, "%s: attn %s: exit %d, expected 2", path, other[i], o.status);
        ck_assert_msg(o.out[0] == '\0', "%s: attn %s printed to stdout: %.200s", path, other[i], o.out);
        ck_assert_msg(strcmp(o.err, r.err) == 0, "%s: attn %s said\n%s\nnot\n%s", path, other[i], o.err, r.err);
        cmd_free(&o);
    }
    CmdResult c = cmd_runf("%s check %s", attn_bin(), path);
    ck_assert_msg(c.status == 2, "%s: attn check: exit %d, expected 2", path, c.status);
    ck_assert_msg(strcmp(c.err, r.err) == 0, "%s: attn check said\n%s\nnot\n%s", path, c.err, r.err);
    char lines[1400];
    snprintf(lines, sizeof lines, "FAIL %s  refused: %s\n0 passed, 1 failed\n", path, msg);
    ck_assert_msg(strcmp(c.out, lines) == 0, "%s: attn check printed\n%s\nnot\n%s", path, c.out, lines);
    cmd_free(&c);

    free(src);
    free(got1);
    free(got2);
    free(got3);
    free(expect);
    cmd_free(&r);
    free(text);
    return 1;
}

START_TEST(test_broken_corpus)
{
    DIR *d = opendir("tests/broken");
    ck_assert_msg(d != NULL, "tests/broken is missing (run from the repository root)");
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 8 || strcmp(e->d_name + len - 7, ".lesson") != 0)
            continue;
        char path[512];
        snprintf(path, sizeof path, "tests/broken/%s", e->d_name);
        n += check_broken_file(path);
    }
    closedir(d);
    ck_assert_msg(n >= 30, "only %d broken lessons found in tests/broken", n);
}
END_TEST

/* A file over the size limit is refused by every command, before parsing. */
START_TEST(test_file_too_large)
{
    char *path = temp_lesson("");
    CmdResult w = cmd_runf("{ echo 'lesson Big'; yes '# a comment line'; } | head -c 1048577 > %s", path);
    ck_assert_int_eq(w.status, 0);
    cmd_free(&w);
    char want[1200];
    snprintf(want, sizeof want, "%s: error: the lesson is larger than the limit of 1048576 bytes\n", path);
    const char *cmds[] = { "run", "run --json", "check" };
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        CmdResult r = cmd_runf("%s %s %s", attn_bin(), cmds[i], path);
        ck_assert_msg(r.status == 2, "attn %s: exit %d", cmds[i], r.status);
        ck_assert_str_eq(r.err, want);
        if (i < 2)
            ck_assert_msg(r.out[0] == '\0', "attn %s printed: %.200s", cmds[i], r.out);
        else
            ck_assert_msg(strstr(r.out, "refused: the lesson is larger") && strstr(r.out, "\n0 passed, 1 failed\n"),
                          "attn check printed: %s", r.out);
        cmd_free(&r);
    }
    free(path);
}
END_TEST

/* Output that cannot be written (a full disk) is an error, not a success. */
START_TEST(test_write_failure)
{
    char *path = temp_lesson(small_lesson);
    const char *cmds[] = { "run", "run --json", "run --explain 'A[2,1]'", "check" };
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
        CmdResult r = cmd_runf("%s %s %s > /dev/full", attn_bin(), cmds[i], path);
        ck_assert_msg(r.status == 2, "attn %s > /dev/full: exit %d", cmds[i], r.status);
        ck_assert_str_eq(r.err, "attn: could not write the output\n");
        cmd_free(&r);
    }
    free(path);
    /* a document larger than stdio's buffer goes out in one write that
     * fails at once, leaving nothing for the last flush to find: it once
     * exited 0, and attn run --json said nothing */
    char big[4][1400];
    snprintf(big[0], sizeof big[0], "run --json %s/01-key-query.lesson", lessons_dir());
    snprintf(big[1], sizeof big[1], "model %s/../models/shakespeare --tokenize %s/../README.md --json", lessons_dir(),
             lessons_dir());
    snprintf(big[2], sizeof big[2], "model %s/../models/shakespeare --text 'ROMEO: But soft' --json", lessons_dir());
    snprintf(big[3], sizeof big[3], "run --json --no-answers %s/06-encoder.lesson", lessons_dir());
    for (int i = 0; i < 4; i++) {
        CmdResult r = cmd_runf("%s %s > /dev/full", attn_bin(), big[i]);
        ck_assert_msg(r.status == 2 && strcmp(r.err, "attn: could not write the output\n") == 0,
                      "attn %s > /dev/full: exit %d, %s", big[i], r.status, r.err);
        cmd_free(&r);
    }
}
END_TEST

/* The sweep's slopes say the sizes they were fitted over, and when those
 * stop short of n = 2d (where the scores' n^2 d overtakes the projections'
 * n d^2), that the n^2 regime has not begun. */
START_TEST(test_sweep_slope_states_its_range)
{
    CmdResult r = cmd_runf("%s bench --sweep --max-n 256 --d 64 --heads 2 --reps 1", attn_bin());
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.out, "slope of log time against log n: fused ") != NULL, "%s", r.out);
    ck_assert_msg(strstr(r.out, " (n = 128..256), naive ") != NULL, "no fitted range: %s", r.out);
    ck_assert_msg(strstr(r.out, "below n = ") == NULL, "%s", r.out);
    cmd_free(&r);
    r = cmd_runf("%s bench --sweep --max-n 128 --d 128 --heads 2 --reps 1", attn_bin());
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.out, "(n = 64..128)") != NULL, "no fitted range: %s", r.out);
    ck_assert_msg(strstr(r.out, "below n = 256 the n d^2 of the projections still outweighs") != NULL, "%s", r.out);
    cmd_free(&r);
    /* a largest n below the first size measures nothing: said, not a blank table */
    r = cmd_runf("%s bench --sweep --max-n 1", attn_bin());
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--max-n 1 is below the sweep's first size, 64: nothing would be measured"), "%s",
                  r.err);
    cmd_free(&r);
}
END_TEST

/* Every file attn writes where a person names it is made the one way
 * (filewrite_create): bench --dump once overwrote a lesson and hung on a
 * FIFO; it and the markdown handout and the JUnit report refuse both. */
START_TEST(outputs_never_overwrite_a_lesson_or_wait_on_a_fifo)
{
    char lesson[600], copy[600], fifo[620];
    snprintf(lesson, sizeof lesson, "%s/02-sky-is-blue.lesson", lessons_dir());
    const char *text = write_temp(".lesson", "lesson Kept\nlet X = [ 1 ]\nstep S\n  show X\n");
    ck_assert_ptr_nonnull(text);
    snprintf(copy, sizeof copy, "%s", text);
    CmdResult r = cmd_runf("%s bench --n 64 --d 32 --heads 2 --reps 1 --dump %s", attn_bin(), copy);
    ck_assert_msg(r.status == 2 && strstr(r.err, "it would overwrite a lesson"), "%s", r.err);
    cmd_free(&r);
    r = cmd_runf("cat %s", copy);
    ck_assert_msg(strstr(r.out, "lesson Kept"), "the lesson was overwritten: %s", r.out);
    cmd_free(&r);
    snprintf(fifo, sizeof fifo, "%s.fifo", copy);
    remove(fifo);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    static const char *const how[] = { "bench --n 64 --d 32 --heads 2 --reps 1 --dump %s", "run --markdown %s %s",
                                       "check --junit %s %s" };
    for (int k = 0; k < 3; k++) {
        char cmd[2000];
        snprintf(cmd, sizeof cmd, how[k], fifo, lesson);
        r = cmd_runf("timeout 20 %s %s", attn_bin(), cmd);
        ck_assert_msg(r.status == 2 && strstr(r.err, "it is a FIFO, not a regular file"), "%s: %d %s", cmd, r.status,
                      r.err);
        cmd_free(&r);
    }
    remove(fifo);
}
END_TEST

Suite *cli_suite(void)
{
    Suite *s = suite_create("cli");
    TCase *core = tcase_create("core");
    tcase_add_test(core, outputs_never_overwrite_a_lesson_or_wait_on_a_fifo);
    tcase_set_timeout(core, 60);

    tcase_add_test(core, test_run_handout);
    tcase_add_test(core, test_sweep_slope_states_its_range);
    tcase_add_test(core, test_run_no_answers);
    tcase_add_test(core, test_run_wraps_text);
    tcase_add_test(core, test_run_marks_masked_lines);
    tcase_add_test(core, test_run_json);
    tcase_add_test(core, test_run_json_shape);
    tcase_add_test(core, test_run_explain);
    tcase_add_test(core, test_check_passes_and_fails);
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_set_timeout(limits, 120);
    tcase_add_test(limits, test_usage_errors);
    tcase_add_test(limits, test_broken_corpus);
    tcase_add_test(limits, test_file_too_large);
    tcase_add_test(limits, test_write_failure);
    suite_add_tcase(s, limits);
    return s;
}
