/*
 * check_cli.c - the plain-text commands as a user runs them: `attn run`
 * (handout), `attn run --json` (parsed back), `attn run --explain`,
 * `attn check` (lines, closing line, exit status), usage errors, and the
 * corpus of broken lessons in tests/broken/, each refused with exactly the
 * error its first line expects.
 */
#include <check.h>
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- a tiny JSON validator: 1 when s[*i..] is one valid value ---- */

static void ws(const char *s, size_t *i)
{
    while (s[*i] == ' ' || s[*i] == '\n' || s[*i] == '\t' || s[*i] == '\r')
        (*i)++;
}

static int json_value(const char *s, size_t *i, int depth);

static int json_str(const char *s, size_t *i)
{
    if (s[*i] != '"')
        return 0;
    for ((*i)++; s[*i] && s[*i] != '"'; (*i)++) {
        if ((unsigned char)s[*i] < 0x20)
            return 0;
        if (s[*i] == '\\') {
            (*i)++;
            if (s[*i] == 'u') {
                for (int k = 1; k <= 4; k++)
                    if (!isxdigit((unsigned char)s[*i + k]))
                        return 0;
                *i += 4;
            } else if (!strchr("\"\\/bfnrt", s[*i]) || !s[*i]) {
                return 0;
            }
        }
    }
    if (s[*i] != '"')
        return 0;
    (*i)++;
    return 1;
}

static int json_num(const char *s, size_t *i)
{
    size_t start = *i;
    if (s[*i] == '-')
        (*i)++;
    if (!isdigit((unsigned char)s[*i]))
        return 0;
    if (s[*i] == '0' && isdigit((unsigned char)s[*i + 1]))
        return 0;
    while (isdigit((unsigned char)s[*i]))
        (*i)++;
    if (s[*i] == '.') {
        (*i)++;
        if (!isdigit((unsigned char)s[*i]))
            return 0;
        while (isdigit((unsigned char)s[*i]))
            (*i)++;
    }
    if (s[*i] == 'e' || s[*i] == 'E') {
        (*i)++;
        if (s[*i] == '+' || s[*i] == '-')
            (*i)++;
        if (!isdigit((unsigned char)s[*i]))
            return 0;
        while (isdigit((unsigned char)s[*i]))
            (*i)++;
    }
    return *i > start;
}

static int json_value(const char *s, size_t *i, int depth)
{
    if (depth > 64)
        return 0;
    ws(s, i);
    char c = s[*i];
    int ok;
    if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        (*i)++;
        ws(s, i);
        if (s[*i] == close) {
            (*i)++;
            return 1;
        }
        for (;;) {
            ws(s, i);
            if (c == '{') {
                if (!json_str(s, i))
                    return 0;
                ws(s, i);
                if (s[*i] != ':')
                    return 0;
                (*i)++;
            }
            if (!json_value(s, i, depth + 1))
                return 0;
            ws(s, i);
            if (s[*i] == ',') {
                (*i)++;
                continue;
            }
            if (s[*i] != close)
                return 0;
            (*i)++;
            return 1;
        }
    }
    if (c == '"')
        ok = json_str(s, i);
    else if (strncmp(s + *i, "true", 4) == 0 || strncmp(s + *i, "null", 4) == 0)
        ok = (*i += 4, 1);
    else if (strncmp(s + *i, "false", 5) == 0)
        ok = (*i += 5, 1);
    else
        ok = json_num(s, i);
    ws(s, i);
    return ok;
}

static int json_valid(const char *s)
{
    size_t i = 0;
    if (!json_value(s, &i, 0))
        return 0;
    ws(s, &i);
    return s[i] == '\0';
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
        "A  (2x2, heatmap)\n          cat     sat\n  cat  1.0000  0.0000   |@ |\n  sat  0.3775  0.6225   |-*|\n",
        "Exercise: How much does cat attend to sat?\n  Hint 1: The mask hides the future.\n"
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
}
END_TEST

START_TEST(test_run_json)
{
    char *path = temp_lesson(small_lesson);
    CmdResult r = cmd_runf("%s run --json %s", attn_bin(), path);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(json_valid(r.out), "not valid JSON:\n%s", r.out);
    const char *want[] = {
        "{\"lesson\": \"Tiny attention\", \"layout\": \"rows\",",
        "\"steps\": [\n  {\"title\": \"Scores\", \"show\": [\"S\", \"A\"], \"heatmap\": [\"A\"]}]",
        "\"X\": {\"rows\": 2, \"cols\": 2, \"data\": [[1, 0], [0, 1]]}",
        "\"S\": {\"rows\": 2, \"cols\": 2, \"data\": [[0.5, \"-inf\"], [0, 0.5]]}",
        "\"A\": {\"rows\": 2, \"cols\": 2, \"data\": [[1, 0], [0.377540678, 0.622459352]]}",
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        ck_assert_msg(strstr(r.out, want[i]) != NULL, "the JSON lacks %s:\n%s", want[i], r.out);
    cmd_free(&r);
    free(path);

    /* titles are escaped */
    path = temp_lesson("lesson A \"quoted\" \\ title\nlet v = [1e-7 123456789]\n");
    r = cmd_runf("%s run --json %s", attn_bin(), path);
    ck_assert_msg(json_valid(r.out), "not valid JSON:\n%s", r.out);
    ck_assert_msg(strstr(r.out, "\"lesson\": \"A \\\"quoted\\\" \\\\ title\""), "escaping: %s", r.out);
    ck_assert_msg(strstr(r.out, "[[1.00000001e-07, 123456792]]"), "9 significant digits: %s", r.out);
    ck_assert_msg(strstr(r.out, "\"steps\": []"), "no steps: %s", r.out);
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

static int check_broken_file(const char *path)
{
    char *text = slurp(path);
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(strncmp(text, "# expect: ", 10) == 0, "%s has no '# expect: LINE:COL: MESSAGE' first line", path);
    char *expect = nth_line(text, 1);
    int line = 0, col = 0, used = 0;
    ck_assert_msg(sscanf(expect + 10, "%d:%d: %n", &line, &col, &used) == 2 && used > 0, "%s: bad expect line",
                  path);
    char want[1200];
    snprintf(want, sizeof want, "%s:%d:%d: error: %s", path, line, col, expect + 10 + used);

    CmdResult r = cmd_runf("%s run %s", attn_bin(), path);
    ck_assert_msg(r.status == 2, "%s: exit %d, expected 2", path, r.status);
    ck_assert_msg(r.out[0] == '\0', "%s: printed to stdout: %.200s", path, r.out);
    char *got1 = nth_line(r.err, 1), *got2 = nth_line(r.err, 2), *got3 = nth_line(r.err, 3);
    ck_assert_msg(strcmp(got1, want) == 0, "%s:\n got  %s\n want %s", path, got1, want);
    char *src = nth_line(text, line);
    size_t shown = strlen(got2);
    if (printable_ascii(src)) {
        ck_assert_msg(strncmp(src, got2, shown) == 0 && (shown == strlen(src) || shown >= 200),
                      "%s: the quoted line\n %s\nis not line %d\n %s", path, got2, line, src);
        /* the caret sits under the column (or at the cut of a shortened line) */
        size_t spaces = (size_t)col - 1 <= shown ? (size_t)col - 1 : shown;
        ck_assert_msg(strlen(got3) == spaces + 1 && got3[spaces] == '^' && strspn(got3, " ") == spaces,
                      "%s: caret line '%s' is not under column %d", path, got3, col);
    } else {
        ck_assert_msg(strlen(got3) >= 1 && got3[strlen(got3) - 1] == '^', "%s: no caret: '%s'", path, got3);
    }
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

Suite *cli_suite(void)
{
    Suite *s = suite_create("cli");
    TCase *core = tcase_create("core");
    tcase_set_timeout(core, 60);
    tcase_add_test(core, test_run_handout);
    tcase_add_test(core, test_run_wraps_text);
    tcase_add_test(core, test_run_json);
    tcase_add_test(core, test_run_explain);
    tcase_add_test(core, test_check_passes_and_fails);
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_set_timeout(limits, 120);
    tcase_add_test(limits, test_usage_errors);
    tcase_add_test(limits, test_broken_corpus);
    suite_add_tcase(s, limits);
    return s;
}
