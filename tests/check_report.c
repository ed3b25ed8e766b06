/*
 * check_report.c - the reports of `attn check` as CI reads them: TAP 14
 * (parsed here: the plan against the ok / not ok lines, the YAML block of
 * each failure), JUnit XML (the tests' XML reader, xml_fixtures.h, and
 * `xmllint --noout` when it is installed), --quiet, the option errors, and
 * a hostile file name that must reach no output unescaped.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson.h"
#include "testutil.h"
#include "xml_fixtures.h"

static const char *good_lesson =
    "lesson Good\n"
    "let A = [1 2; 3 4]\n"
    "step One\n"
    "  exercise What is A[2,1]?\n"
    "    answer A[2,1] = 3\n"
    "  end\n"
    "check A[1,2] = 2\n"
    "check A = [1 2; 3 4] within 1e-6\n";

static const char *bad_lesson =
    "lesson Bad\n"
    "let A = [1 2; 3 4]\n"
    "check A = [1 2; 3 4.5]\n"
    "check A[1,1] = 1\n"
    "step S\n"
    "  exercise Is 1 < 2 & \"so\" # on?\n"
    "    answer A[1,1] = 2\n"
    "  end\n";

static char *temp_copy(const char *suffix, const char *text)
{
    const char *p = write_temp(suffix, text);
    ck_assert_ptr_nonnull(p);
    return strdup(p);
}

/* ---- TAP ---- */

/* Count the TAP lines of out; the plan must come second and match. */
static void tap_counts(const char *out, int *ok, int *not_ok)
{
    ck_assert_msg(strncmp(out, "TAP version 14\n1..", 18) == 0, "no TAP header and plan:\n%s", out);
    int plan = atoi(out + 18), n = 0;
    *ok = *not_ok = 0;
    for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        int num;
        if (sscanf(p, "ok %d - ", &num) == 1) {
            ck_assert_int_eq(num, ++n);
            (*ok)++;
        } else if (sscanf(p, "not ok %d - ", &num) == 1) {
            ck_assert_int_eq(num, ++n);
            (*not_ok)++;
        }
    }
    ck_assert_msg(plan == n, "plan 1..%d but %d test lines", plan, n);
}

START_TEST(test_tap_passing)
{
    char *path = temp_copy(".lesson", good_lesson);
    CmdResult r = cmd_runf("%s check --tap %s", attn_bin(), path);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    char want[2048];
    snprintf(want, sizeof want,
             "TAP version 14\n"
             "1..3\n"
             "ok 1 - %s:4 exercise What is A[2,1]?\n"
             "ok 2 - %s:7 check A[1,2] = 2\n"
             "ok 3 - %s:8 check A = [1 2; 3 4] within 1e-6\n"
             "# 3 passed, 0 failed\n", path, path, path);
    ck_assert_str_eq(r.out, want);
    int ok, not_ok;
    tap_counts(r.out, &ok, &not_ok);
    ck_assert_int_eq(ok, 3);
    ck_assert_int_eq(not_ok, 0);
    cmd_free(&r);
    free(path);
}
END_TEST

START_TEST(test_tap_failing)
{
    char *good = temp_copy(".lesson", good_lesson);
    char *bad = temp_copy(".lesson", bad_lesson);
    char *broken = temp_copy(".lesson", "lesson B\nlet A = Q\n");
    CmdResult r = cmd_runf("%s check --tap %s %s %s", attn_bin(), bad, good, broken);
    ck_assert_msg(r.status == 2, "exit %d", r.status);
    int ok, not_ok;
    tap_counts(r.out, &ok, &not_ok);
    ck_assert_int_eq(ok, 4);
    ck_assert_int_eq(not_ok, 3);
    char want[1024];
    snprintf(want, sizeof want,
             "\nnot ok 1 - %s:3 check A = [1 2; 3 4.5]\n"
             "  ---\n"
             "  message: \"max difference 0.5 at [2,2]: got 4, expected 4.5 (within 0.0001)\"\n"
             "  severity: fail\n"
             "  file: \"%s\"\n"
             "  line: 3\n"
             "  expected: \"4.5\"\n"
             "  got: \"4\"\n"
             "  ...\n"
             "ok 2 - %s:4 check A[1,1] = 1\n", bad, bad, bad);
    ck_assert_msg(strstr(r.out, want), "lacks\n%s\nin\n%s", want, r.out);
    /* '#' in a description is escaped, or TAP would read a directive */
    snprintf(want, sizeof want,
             "\nnot ok 3 - %s:6 exercise Is 1 < 2 & \"so\" \\# on?\n"
             "  ---\n"
             "  message: \"the answer is 1, but the exercise states 2 (within 0.001)\"\n"
             "  severity: fail\n"
             "  file: \"%s\"\n"
             "  line: 6\n"
             "  expected: \"2\"\n"
             "  got: \"1\"\n"
             "  ...\n", bad, bad);
    ck_assert_msg(strstr(r.out, want), "lacks\n%s\nin\n%s", want, r.out);
    snprintf(want, sizeof want,
             "\nnot ok 7 - %s:2 refused\n"
             "  ---\n"
             "  message: \"unknown name 'Q'\"\n"
             "  severity: fail\n"
             "  file: \"%s\"\n"
             "  line: 2\n"
             "  column: 9\n"
             "  expected: \"a lesson that reads and evaluates\"\n"
             "  got: \"unknown name 'Q'\"\n"
             "  ...\n"
             "# 4 passed, 3 failed\n", broken, broken);
    ck_assert_msg(strstr(r.out, want), "lacks\n%s\nin\n%s", want, r.out);
    const char *tail = r.out + strlen(r.out) - strlen(want);
    ck_assert_str_eq(tail, want);
    ck_assert_msg(strstr(r.err, ":2:9: error: unknown name 'Q'"), "stderr: %s", r.err);
    cmd_free(&r);
    free(good);
    free(bad);
    free(broken);
}
END_TEST

/* ---- JUnit ---- */

/* The report parses, by the tests' reader and by xmllint when present,
 * after the declaration a report starts with. */
static void expect_wellformed(const char *path, const char *text, Xml *x)
{
    const char *decl = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    ck_assert_msg(strncmp(text, decl, strlen(decl)) == 0, "%s: no XML declaration\n%s", path, text);
    xml_expect_file(path, x);
}

START_TEST(test_junit)
{
    char *good = temp_copy(".lesson", good_lesson);
    char *bad = temp_copy(".lesson", bad_lesson);
    char *broken = temp_copy(".lesson", "lesson B\nlet A = Q\n");
    char *xml = temp_copy(".xml", "");
    CmdResult r = cmd_runf("%s check --junit %s %s", attn_bin(), xml, good);
    ck_assert_msg(r.status == 0, "exit %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.out, "3 passed, 0 failed\n"), "the plain report stays on stdout: %s", r.out);
    cmd_free(&r);
    char *text = slurp(xml);
    Xml x;
    expect_wellformed(xml, text, &x);
    ck_assert_int_eq(xml_count(&x, "testsuite"), 1);
    ck_assert_int_eq(xml_count(&x, "testcase"), 3);
    ck_assert_int_eq(xml_count(&x, "failure") + xml_count(&x, "error"), 0);
    xml_free(&x);
    char want[2048];
    snprintf(want, sizeof want,
             "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
             "<testsuites name=\"attn check\" tests=\"3\" failures=\"0\" errors=\"0\">\n"
             "  <testsuite name=\"%s\" tests=\"3\" failures=\"0\" errors=\"0\">\n"
             "    <testcase classname=\"%s\" name=\"line 4: exercise What is A[2,1]?\" file=\"%s\" line=\"4\"/>\n"
             "    <testcase classname=\"%s\" name=\"line 7: check A[1,2] = 2\" file=\"%s\" line=\"7\"/>\n"
             "    <testcase classname=\"%s\" name=\"line 8: check A = [1 2; 3 4] within 1e-6\" file=\"%s\" "
             "line=\"8\"/>\n"
             "  </testsuite>\n"
             "</testsuites>\n", good, good, good, good, good, good, good);
    ck_assert_str_eq(text, want);
    free(text);

    r = cmd_runf("%s check --junit=%s %s %s %s", attn_bin(), xml, bad, good, broken);
    ck_assert_int_eq(r.status, 2);
    cmd_free(&r);
    text = slurp(xml);
    expect_wellformed(xml, text, &x);
    ck_assert_int_eq(xml_count(&x, "testsuite"), 3);
    ck_assert_int_eq(xml_count(&x, "testcase"), 7);
    ck_assert_int_eq(xml_count(&x, "failure"), 2);
    ck_assert_int_eq(xml_count(&x, "error"), 1);
    xml_free(&x);
    ck_assert_msg(strstr(text, "<testsuites name=\"attn check\" tests=\"7\" failures=\"2\" errors=\"1\">\n"),
                  "totals: %s", text);
    snprintf(want, sizeof want,
             "    <testcase classname=\"%s\" name=\"line 6: exercise Is 1 &lt; 2 &amp; &quot;so&quot; # on?\" "
             "file=\"%s\" line=\"6\">\n"
             "      <failure message=\"the answer is 1, but the exercise states 2 (within 0.001)\" type=\"exercise\">"
             "%s:6: the answer is 1, but the exercise states 2 (within 0.001)</failure>\n"
             "    </testcase>\n", bad, bad, bad);
    ck_assert_msg(strstr(text, want), "lacks\n%s\nin\n%s", want, text);
    snprintf(want, sizeof want,
             "  <testsuite name=\"%s\" tests=\"1\" failures=\"0\" errors=\"1\">\n"
             "    <testcase classname=\"%s\" name=\"refused\" file=\"%s\" line=\"2\">\n"
             "      <error message=\"unknown name &apos;Q&apos;\" type=\"refused\">%s:2:9: unknown name "
             "&apos;Q&apos;</error>\n"
             "    </testcase>\n"
             "  </testsuite>\n", broken, broken, broken, broken);
    ck_assert_msg(strstr(text, want), "lacks\n%s\nin\n%s", want, text);
    free(text);
    free(good);
    free(bad);
    free(broken);
    free(xml);
}
END_TEST

/* ---- quiet, options ---- */

START_TEST(test_quiet)
{
    char *good = temp_copy(".lesson", good_lesson);
    char *bad = temp_copy(".lesson", bad_lesson);
    CmdResult r = cmd_runf("%s check --quiet %s", attn_bin(), good);
    ck_assert_int_eq(r.status, 0);
    ck_assert_str_eq(r.out, "3 passed, 0 failed\n");
    cmd_free(&r);
    r = cmd_runf("%s check %s -q %s", attn_bin(), good, bad);
    ck_assert_int_eq(r.status, 1);
    char want[1024];
    snprintf(want, sizeof want,
             "FAIL %s:3  check A = [1 2; 3 4.5] -- max difference 0.5 at [2,2]: got 4, expected 4.5 (within 0.0001)\n"
             "FAIL %s:6  exercise Is 1 < 2 & \"so\" # on? -- the answer is 1, but the exercise states 2 (within 0.001)\n"
             "4 passed, 2 failed\n", bad, bad);
    ck_assert_str_eq(r.out, want);
    cmd_free(&r);
    free(good);
    free(bad);
}
END_TEST

/* A file with several mistakes: every one on stderr in one run, each with
 * FILE:LINE:COL, its line and a caret, as `attn run` shows the first; on
 * stdout one refusal counted as one failure; more than LESSON_MAX_ERRORS
 * are cut with a word. */
START_TEST(test_every_error_of_a_file)
{
    char *path = temp_copy(".lesson", "lesson Three mistakes\n"
                                      "let B = [1.2.3 5]\n"
                                      "step One\n"
                                      "  shwo B\n"
                                      "  exercise Q\n"
                                      "    answer B[1,1] = 1e-3 within -1\n"
                                      "  end\n");
    CmdResult r = cmd_runf("%s check %s", attn_bin(), path);
    ck_assert_int_eq(r.status, 2);
    char want[2048];
    snprintf(want, sizeof want,
             "%s:2:10: error: bad number '1.2.3'\n"
             "let B = [1.2.3 5]\n"
             "         ^\n"
             "%s:4:3: error: unknown directive 'shwo'; did you mean 'show'?\n"
             "  shwo B\n"
             "  ^\n"
             "%s:6:33: error: a tolerance is a number of 0 or more\n"
             "    answer B[1,1] = 1e-3 within -1\n"
             "                                ^\n", path, path, path);
    ck_assert_str_eq(r.err, want);
    snprintf(want, sizeof want,
             "FAIL %s  refused: bad number '1.2.3' (and 2 more errors, on standard error)\n0 passed, 1 failed\n", path);
    ck_assert_str_eq(r.out, want);
    cmd_free(&r);
    /* attn run stops at the first, as before */
    r = cmd_runf("%s run %s", attn_bin(), path);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, ":2:10: error: bad number") && !strstr(r.err, "shwo"), "%s", r.err);
    cmd_free(&r);
    free(path);
    char many[4096] = "lesson Many\n";
    for (int i = 0; i < 25; i++)
        snprintf(many + strlen(many), sizeof many - strlen(many), "zzz%d A\n", i);
    path = temp_copy(".lesson", many);
    r = cmd_runf("%s check --quiet %s", attn_bin(), path);
    ck_assert_int_eq(r.status, 2);
    int n = 0;
    for (const char *p = r.err; (p = strstr(p, ": error: ")); p++)
        n++;
    ck_assert_int_eq(n, LESSON_MAX_ERRORS);
    snprintf(want, sizeof want, "attn: %s: more errors after these %d; fix them and check again\n", path,
             LESSON_MAX_ERRORS);
    ck_assert_msg(strlen(r.err) > strlen(want) && strcmp(r.err + strlen(r.err) - strlen(want), want) == 0, "%s", r.err);
    snprintf(want, sizeof want, "FAIL %s  refused: unknown directive 'zzz0' (and over %d more errors, on standard "
             "error)\n0 passed, 1 failed\n", path, LESSON_MAX_ERRORS - 1);
    ck_assert_str_eq(r.out, want);
    cmd_free(&r);
    free(path);
}
END_TEST

START_TEST(test_option_errors)
{
    struct { const char *args, *msg; } bad[] = {
        { "--tap --quiet x.lesson", "attn: --tap and --quiet do not go together (TAP lists every result)\n" },
        { "x.lesson --junit", "attn: --junit needs a file to write, e.g. --junit report.xml\n" },
        { "--junit= x.lesson", "attn: --junit needs a file to write, e.g. --junit report.xml\n" },
        { "--tapp x.lesson", "attn: unknown option '--tapp'\n" },
        { "--tap", "attn: check needs at least one lesson file\n" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        CmdResult r = cmd_runf("%s check %s", attn_bin(), bad[i].args);
        ck_assert_msg(r.status == 2, "check %s: exit %d", bad[i].args, r.status);
        ck_assert_str_eq(r.out, "");
        ck_assert_msg(strncmp(r.err, bad[i].msg, strlen(bad[i].msg)) == 0, "check %s said\n%s", bad[i].args, r.err);
        cmd_free(&r);
    }
    /* a report that cannot be written is an error after the results */
    char *good = temp_copy(".lesson", good_lesson);
    CmdResult r = cmd_runf("%s check --junit /nonexistent/dir/r.xml %s", attn_bin(), good);
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.err, "attn: cannot write the JUnit report /nonexistent/dir/r.xml: No such file or directory\n");
    ck_assert_msg(strstr(r.out, "3 passed, 0 failed\n"), "stdout: %s", r.out);
    cmd_free(&r);
    /* `--` ends the options: a file may start with '-' */
    r = cmd_runf("%s check --quiet -- -no-such.lesson", attn_bin());
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strncmp(r.out, "FAIL -no-such.lesson  refused: cannot open the lesson", 52) == 0 &&
                  strstr(r.out, "\n0 passed, 1 failed\n"), "stdout: %s", r.out);
    cmd_free(&r);
    free(good);
}
END_TEST

/* The bidirectional marks (U+061C, U+200E, U+200F) in a file name: a
 * terminal shows them as nothing and reorders the text around them, so
 * every report writes them escaped, as JSON does (they once went through). */
START_TEST(test_file_name_with_bidi_marks)
{
    const char *name = "/tmp/attn-test-\xd8\x9c" "a\xe2\x80\x8e" "b\xe2\x80\x8f" "c.lesson";
    const char *shown = "/tmp/attn-test-\\xd8\\x9ca\\xe2\\x80\\x8eb\\xe2\\x80\\x8fc.lesson";
    FILE *f = fopen(name, "w");
    ck_assert_ptr_nonnull(f);
    fputs("lesson H\nlet A = Q\n", f);
    fclose(f);
    CmdResult r = cmd_runf("%s check '%s'", attn_bin(), name);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.out, shown) && !strstr(r.out, "\xe2\x80\x8f") && !strstr(r.out, "\xd8\x9c"),
                  "check printed %s", r.out);
    ck_assert_msg(strncmp(r.err, shown, strlen(shown)) == 0 && !strstr(r.err, "\xe2\x80\x8e"), "stderr %s", r.err);
    cmd_free(&r);
    remove(name);
}
END_TEST

/* A file name with terminal controls in it (ESC, the 8-bit CSI U+009B, a
 * right-to-left override) is written escaped by every report. */
START_TEST(test_hostile_file_name)
{
    const char *name = "/tmp/attn-test-\x1b[31m\xc2\x9b" "2J\xe2\x80\xae.lesson";
    const char *shown = "/tmp/attn-test-\\x1b[31m\\xc2\\x9b2J\\xe2\\x80\\xae.lesson";
    /* TAP and YAML escape the backslashes once more */
    const char *shown_tap = "/tmp/attn-test-\\\\x1b[31m\\\\xc2\\\\x9b2J\\\\xe2\\\\x80\\\\xae.lesson";
    FILE *f = fopen(name, "w");
    ck_assert_ptr_nonnull(f);
    fputs("lesson H\nlet A = Q\n", f);
    fclose(f);
    const char *modes[] = { "", "--tap", "--quiet" };
    for (size_t i = 0; i < sizeof modes / sizeof *modes; i++) {
        CmdResult r = cmd_runf("%s check %s '%s'", attn_bin(), modes[i], name);
        ck_assert_int_eq(r.status, 2);
        ck_assert_msg(strstr(r.out, i == 1 ? shown_tap : shown) && !strchr(r.out, '\x1b') && !strstr(r.out, "\xc2\x9b"),
                      "check %s printed %s", modes[i], r.out);
        ck_assert_msg(strncmp(r.err, shown, strlen(shown)) == 0 && !strchr(r.err, '\x1b'),
                      "check %s: stderr %s", modes[i], r.err);
        cmd_free(&r);
    }
    CmdResult r = cmd_runf("%s run '%s'", attn_bin(), name);
    ck_assert_int_eq(r.status, 2);
    char want[256];
    snprintf(want, sizeof want, "%s:2:9: error: unknown name 'Q'\n", shown);
    ck_assert_msg(strncmp(r.err, want, strlen(want)) == 0, "run: stderr %s", r.err);
    cmd_free(&r);
    r = cmd_runf("%s run '%s.missing'", attn_bin(), name);
    snprintf(want, sizeof want, "%s.missing: error: cannot open the lesson", shown);
    ck_assert_msg(r.status == 2 && strncmp(r.err, want, strlen(want)) == 0, "run: stderr %s", r.err);
    cmd_free(&r);
    remove(name);
}
END_TEST

/* 1 when s holds a byte sequence a terminal would act on: ESC, CSI in
 * 8 bits or as UTF-8 (U+009B), any C1 control, a bidi override/isolate. */
static int has_terminal_controls(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
            return 1;
        if (p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F)
            return 1;
        if (p[0] == 0xE2 && p[1] == 0x80 && p[2] >= 0xAA && p[2] <= 0xAE)
            return 1;
        if (p[0] == 0xE2 && p[1] == 0x81 && p[2] >= 0xA6 && p[2] <= 0xA9)
            return 1;
    }
    return 0;
}

/* No command passes on a hostile character of a lesson: every one of them
 * refuses the file, and neither its output nor its error holds the bytes. */
START_TEST(test_hostile_lesson_text)
{
    const char *texts[] = {
        "lesson Sneaky \xc2\x9b" "1m title\nlet A = [1]\n",
        "lesson T\nabout \xe2\x80\xae" "evil\nlet A = [1]\n",
        "lesson T\nstep S\n  text\n    a \xe2\x81\xa6" "b\n  end\n  let A = [1]\n",
        "lesson T\nlet A = [1] # \xc2\x85\n",
        "lesson T\x1b[2J\nlet A = [1]\n",
        "lesson T\nlet A = [1]\nstep S\n  exercise Q \xe2\x80\xab?\n    answer A[1,1]\n  end\n",
    };
    const char *cmds[] = { "run", "run --no-answers", "run --json", "run --explain 'A[1,1]'", "check",
                           "check --tap", "check --quiet" };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        char *path = temp_copy(".lesson", texts[i]);
        for (size_t k = 0; k < sizeof cmds / sizeof *cmds; k++) {
            CmdResult r = cmd_runf("%s %s %s", attn_bin(), cmds[k], path);
            ck_assert_msg(r.status == 2, "lesson %zu, attn %s: exit %d", i, cmds[k], r.status);
            ck_assert_msg(!has_terminal_controls(r.out) && !has_terminal_controls(r.err),
                          "lesson %zu, attn %s passed on a control:\n%s%s", i, cmds[k], r.out, r.err);
            ck_assert_msg(strstr(r.err, "is not allowed in a lesson"), "lesson %zu, attn %s: %s", i, cmds[k], r.err);
            cmd_free(&r);
        }
        free(path);
    }
    /* nor does a usage error echo a hostile argument */
    CmdResult r = cmd_runf("%s check --x$(printf '\\033')[2J a.lesson", attn_bin());
    ck_assert_int_eq(r.status, 2);
    const char *want = "attn: unknown option '--x\\x1b[2J'\n";
    ck_assert_msg(strncmp(r.err, want, strlen(want)) == 0, "stderr: %s", r.err);
    cmd_free(&r);
}
END_TEST

Suite *report_suite(void)
{
    Suite *s = suite_create("report");
    TCase *core = tcase_create("core");
    tcase_set_timeout(core, 60);
    tcase_add_test(core, test_tap_passing);
    tcase_add_test(core, test_tap_failing);
    tcase_add_test(core, test_junit);
    tcase_add_test(core, test_quiet);
    tcase_add_test(core, test_every_error_of_a_file);
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_set_timeout(limits, 60);     /* dozens of runs of attn on a shared machine */
    tcase_add_test(limits, test_option_errors);
    tcase_add_test(limits, test_hostile_file_name);
    tcase_add_test(limits, test_file_name_with_bidi_marks);
    tcase_add_test(limits, test_hostile_lesson_text);
    suite_add_tcase(s, limits);
    return s;
}
