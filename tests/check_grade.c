/*
 * check_grade.c - `attn grade LESSON SHEET...` (app/cli/grade.c): the text
 * a teacher reads, line for line; the JSON and TAP programs read; the exit
 * status; sheets that cannot be read, with FILE:LINE:COL; a class of 30
 * generated sheets and its summary; and that grading writes no progress.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json_read.h"
#include "testutil.h"

static const char *graded_lesson =
    "lesson Graded\n"
    "let S = [ 0 0 1.4142136 0 ; 0.5 -0.2 0.9 0.1 ]\n"
    "step Weights\n"
    "  let A = softmax_rows(S / sqrt(2))\n"
    "  show S A\n"
    "  exercise How much does row 2 put on column 3?\n"
    "    answer A[2,3] = 0.3596 within 1e-3\n"
    "  end\n"
    "  exercise And row 1 on column 3?\n"
    "    answer A[1,3] within 1e-3\n"
    "  end\n"
    "  exercise What does row 1 add up to?\n"
    "    answer A[1,1] + A[1,2] + A[1,3] + A[1,4] = 1 within 1e-5\n"
    "  end\n";

/* The lesson and a sheet in the same temporary directory. */
static char lesson_path[512];

static void write_lesson(void)
{
    const char *p = write_temp(".lesson", graded_lesson);
    ck_assert_ptr_nonnull(p);
    snprintf(lesson_path, sizeof lesson_path, "%s", p);
}

static CmdResult grade(const char *opts, const char *sheet_text)
{
    const char *sheet = write_temp(".txt", sheet_text);
    ck_assert_ptr_nonnull(sheet);
    return cmd_runf("ATTN_STATE_DIR=/nonexistent/attn-grade '%s' grade %s '%s' '%s'", attn_bin(), opts,
                    lesson_path, sheet);
}

START_TEST(text_for_the_teacher)
{
    write_lesson();
    CmdResult r = grade("", "# Ada's sheet\n1: 0.3596\n\n2: 0.9\n");
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.out, "1 ✓ 0.3596: right\n"
                            "2 ✗ 0.9: not yet: off by more than 0.001\n"
                            "3 - unanswered\n"
                            "1 right, 1 wrong, 1 unanswered\n");
    cmd_free(&r);
    /* the sum as the screen's rounded numbers give it is right, and says so */
    r = grade("", "3: 0.1749 + 0.1749 + 0.4754 + 0.1749\n");
    ck_assert_msg(strstr(r.out, "3 ✓ 0.1749 + 0.1749 + 0.4754 + 0.1749: right (from the rounded numbers on screen; "
                                "exact 1)\n"), "%s", r.out);
    cmd_free(&r);
    /* a named mistake */
    r = grade("", "1: 0.4077\n");
    ck_assert_msg(strstr(r.out, "1 ✗ 0.4077: the division by sqrt(2) was left out (in A = softmax_rows(S / "
                                "sqrt(2)))\n"), "%s", r.out);
    cmd_free(&r);
}
END_TEST

START_TEST(every_exercise_right_exits_0)
{
    write_lesson();
    CmdResult r = grade("", "1: 0.3596\n2: 0.4754\n3: 1\n");
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    ck_assert_msg(strstr(r.out, "3 right, 0 wrong, 0 unanswered\n"), "%s", r.out);
    cmd_free(&r);
}
END_TEST

START_TEST(json_for_programs)
{
    write_lesson();
    CmdResult r = grade("--json", "1: 0.4077\n2: x\n");
    ck_assert_int_eq(r.status, 1);
    JVal root;
    char why[200];
    ck_assert_msg(json_parse(r.out, &root, why, sizeof why) == 0, "%s: %s", why, r.out);
    static const char *const top[] = { "lesson", "exercises", "right", "wrong", "unanswered" };
    ck_assert_int_eq(root.n, 5);
    for (int i = 0; i < 5; i++)
        ck_assert_str_eq(root.keys[i], top[i]);
    ck_assert_str_eq(json_get(&root, "lesson")->str, "Graded");
    const JVal *ex = json_get(&root, "exercises");
    ck_assert_int_eq(ex->n, 3);
    static const char *const keys[] = { "number", "question", "answer", "verdict", "diagnosis", "message" };
    for (int i = 0; i < 6; i++)
        ck_assert_str_eq(ex->items[0].keys[i], keys[i]);
    ck_assert_str_eq(json_get(&ex->items[0], "verdict")->str, "wrong");
    ck_assert_str_eq(json_get(&ex->items[0], "diagnosis")->str, "unscaled");
    ck_assert_str_eq(json_get(&ex->items[1], "verdict")->str, "invalid");
    ck_assert_int_eq(json_get(&ex->items[1], "diagnosis")->type, J_NULL);
    ck_assert_msg(strstr(json_get(&ex->items[1], "message")->str, "'x' is a name"), "%s",
                  json_get(&ex->items[1], "message")->str);
    ck_assert_str_eq(json_get(&ex->items[2], "verdict")->str, "unanswered");
    ck_assert_int_eq(json_get(&ex->items[2], "answer")->type, J_NULL);
    double n;
    json_number(json_get(&root, "wrong"), &n);
    ck_assert_double_eq(n, 2);
    json_free(&root);
    cmd_free(&r);
}
END_TEST

START_TEST(tap_as_check_writes_it)
{
    write_lesson();
    CmdResult r = grade("--tap", "1: 0.3596\n2: 0.6\n");
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strncmp(r.out, "TAP version 14\n1..3\nok 1 - ", 26) == 0, "%s", r.out);
    ck_assert_msg(strstr(r.out, "not ok 2 - "), "%s", r.out);
    ck_assert_msg(strstr(r.out, "2: And row 1 on column 3?"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "not ok 3 - "), "%s", r.out);
    ck_assert_msg(strstr(r.out, "message: \"unanswered\""), "%s", r.out);
    ck_assert_msg(strstr(r.out, "# 1 passed, 2 failed\n"), "%s", r.out);
    /* an unanswered exercise has no line on the sheet: none is said */
    const char *unanswered = strstr(r.out, "not ok 3 - ");
    ck_assert_msg(unanswered && !strstr(unanswered, "line: 0"), "%s", r.out);
    cmd_free(&r);
}
END_TEST

/* One depth limit for every recursive reader: an answer 50,000 functions
 * deep (a 250 KB sheet) is refused by name, where it overflowed the stack;
 * signs and parentheses too. */
START_TEST(a_deep_answer_is_refused)
{
    write_lesson();
    size_t n = 50000, len = 3 + 4 * n + 1 + n + 2;
    char *sheet = malloc(len);
    ck_assert_ptr_nonnull(sheet);
    char *w = sheet;
    w += sprintf(w, "1: ");
    for (size_t i = 0; i < n; i++)
        w += sprintf(w, "exp(");
    *w++ = '0';
    for (size_t i = 0; i < n; i++)
        *w++ = ')';
    strcpy(w, "\n");
    CmdResult r = grade("", sheet);
    ck_assert_msg(r.status == 1, "exit %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.out, "the answer nests deeper than the limit of 200"), "%.300s", r.out);
    cmd_free(&r);
    memset(sheet, 0, len);
    w = sheet + sprintf(sheet, "1: ");
    for (size_t i = 0; i < n; i++)
        *w++ = i % 2 ? '-' : '(';
    strcpy(w, "1\n");
    r = grade("", sheet);
    ck_assert_msg(r.status == 1 && strstr(r.out, "the answer nests deeper than the limit of 200"), "%.300s", r.out);
    cmd_free(&r);
    free(sheet);
}
END_TEST

/* One escaping function for every byte that reaches a terminal: the rest
 * of a typed answer is quoted escaped, never raw (an OSC title and a
 * screen clear once reached the terminal). */
START_TEST(a_typed_escape_never_reaches_the_terminal)
{
    write_lesson();
    CmdResult r = grade("", "1: 1\x1b]0;PWNED\x07\x1b[2J\n");
    ck_assert_msg(!strchr(r.out, '\x1b') && !strchr(r.out, '\x07'), "raw control bytes: %s", r.out);
    ck_assert_msg(strstr(r.out, "\\x1b]0;PWNED\\x07\\x1b[2J"), "%s", r.out);
    cmd_free(&r);
}
END_TEST

/* One malformed sheet among many: the others are graded, that one is named
 * with its line and column, and the exit status says it was not read. */
START_TEST(one_bad_sheet_does_not_void_the_run)
{
    write_lesson();
    char good[600], bad[600];
    snprintf(good, sizeof good, "%s", write_temp(".txt", "1: 0.3596\n"));
    snprintf(bad, sizeof bad, "%s", write_temp(".txt", "1: 0.5\nthree: 0.2\n"));
    CmdResult r = cmd_runf("ATTN_STATE_DIR=/nonexistent/attn-grade '%s' grade '%s' '%s' '%s'", attn_bin(),
                           lesson_path, good, bad);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.out, "1 ✓ 0.3596: right"), "%s", r.out);
    ck_assert_msg(strstr(r.err, ".txt:2:1: error: expected 'N: ANSWER'"), "%s", r.err);
    ck_assert_msg(strstr(r.err, "attn: 1 sheet of 2 could not be read and was not graded (the others were)"), "%s",
                  r.err);
    cmd_free(&r);
}
END_TEST

START_TEST(sheets_that_cannot_be_read)
{
    write_lesson();
    CmdResult r = grade("", "1: 0.5\nthree: 0.2\n");
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.out, "");
    ck_assert_msg(strstr(r.err, ".txt:2:1: error: expected 'N: ANSWER', N the exercise's number\n  three: 0.2\n  ^\n"),
                  "%s", r.err);
    cmd_free(&r);
    r = grade("", "7: 1\n");
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, ":1:1: error: the lesson has exercises 1 to 3; there is no exercise 7"), "%s", r.err);
    cmd_free(&r);
    r = grade("", "1: 1\n1: 2\n");
    ck_assert_msg(strstr(r.err, ":2:1: error: exercise 1 is answered twice (first on line 1)"), "%s", r.err);
    cmd_free(&r);
    /* a sheet that is a FIFO is refused at once, never waited on */
    char fifo[600];
    snprintf(fifo, sizeof fifo, "%s.fifo", lesson_path);
    remove(fifo);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    r = cmd_runf("timeout 10 '%s' grade '%s' '%s'", attn_bin(), lesson_path, fifo);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "cannot read the answer sheet") && strstr(r.err, "it is a FIFO, not a regular file"),
                  "%s", r.err);
    cmd_free(&r);
    remove(fifo);
    /* usage */
    r = cmd_runf("'%s' grade '%s'", attn_bin(), lesson_path);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "no answer sheet given"), "%s", r.err);
    cmd_free(&r);
}
END_TEST

/* A class of 30: each sheet judged, a table per student, and the summary
 * counts each diagnosis where it was made. */
START_TEST(a_class_of_thirty)
{
    write_lesson();
    static const char *const answers[] = { "0.3596", "0.4077", "0.2042", "0.9", "abc" };
    char cmd[32768];
    snprintf(cmd, sizeof cmd, "ATTN_STATE_DIR=/nonexistent/attn-grade '%s' grade '%s'", attn_bin(), lesson_path);
    int right1 = 0, unscaled1 = 0;
    for (int s = 0; s < 30; s++) {
        char text[200];
        int k = s % 5;
        snprintf(text, sizeof text, "# student %d\n1: %s\n2: 0.4754\n", s + 1, answers[k]);
        right1 += k == 0;
        unscaled1 += k == 1;
        char path[600];
        snprintf(path, sizeof path, "%s.sheet%02d", lesson_path, s + 1);
        FILE *f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fputs(text, f);
        fclose(f);
        appendf(cmd, sizeof cmd, " '%s'", path);
    }
    CmdResult r = cmd_run(cmd);
    ck_assert_int_eq(r.status, 1);
    char want[200];
    snprintf(want, sizeof want, "\n30 sheets: the mistakes named, exercise by exercise\n1: %d right, 24 wrong, 0 "
                                "unanswered; %d the scale left out", right1, unscaled1);
    ck_assert_msg(strstr(r.out, want), "no \"%s\" in:\n%s", want, r.out);
    ck_assert_msg(strstr(r.out, "2: 30 right, 0 wrong, 0 unanswered\n3: 0 right, 0 wrong, 30 unanswered\n"), "%s",
                  r.out);
    /* one table per student, each closed by its counts */
    int tables = 0;
    for (const char *p = r.out; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        int a, b, c, used = 0;
        if (sscanf(p, "%d right, %d wrong, %d unanswered%n", &a, &b, &c, &used) == 3 && p[used] == '\n')
            tables++;
    }
    ck_assert_int_eq(tables, 30);
    cmd_free(&r);
    /* and nothing was written anywhere: grading keeps no progress */
    struct stat st;
    ck_assert_int_ne(stat("/nonexistent/attn-grade", &st), 0);
}
END_TEST

Suite *grade_suite(void)
{
    Suite *s = suite_create("grade");
    TCase *c = tcase_create("core");
    tcase_set_timeout(c, 60);
    tcase_add_test(c, text_for_the_teacher);
    tcase_add_test(c, every_exercise_right_exits_0);
    tcase_add_test(c, json_for_programs);
    tcase_add_test(c, tap_as_check_writes_it);
    tcase_add_test(c, sheets_that_cannot_be_read);
    tcase_add_test(c, one_bad_sheet_does_not_void_the_run);
    tcase_add_test(c, a_deep_answer_is_refused);
    tcase_add_test(c, a_typed_escape_never_reaches_the_terminal);
    tcase_add_test(c, a_class_of_thirty);
    suite_add_tcase(s, c);
    return s;
}
