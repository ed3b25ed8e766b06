/*
 * check_strict.c - `attn check` judges exercises as the screen does (an
 * answer must be one number), and --strict also fails an exercise that
 * states no value, an exercise whose own screen gives its value away, and
 * a lesson with nothing to check. (It fails a NaN in
 * any matrix too, which no lesson can hold today: honest arithmetic, no
 * nan literal, and load() refuses NaN.)
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static CmdResult check_text(const char *opts, const char *text)
{
    const char *path = write_temp(".lesson", text);
    ck_assert_ptr_nonnull(path);
    return cmd_runf("%s check %s %s", attn_bin(), opts, path);
}

START_TEST(an_exercise_answer_is_one_number)
{
    CmdResult r = check_text("", "lesson M\nlet X = [ 1 2 ; 3 4 ]\nstep S\n  show X\n"
                                 "  exercise What is X?\n    answer X\n  end\n");
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.out, "exercise What is X? -- the answer is a 2x2 matrix; an exercise's answer is one number"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "0 passed, 1 failed"), "%s", r.out);
    cmd_free(&r);
}
END_TEST

START_TEST(strict_fails_what_plain_check_lets_pass)
{
    const char *unstated = "lesson U\nlet X = [ 1 2 ]\nstep S\n  show X\n"
                           "  exercise What is X[1,2]?\n    answer X[1,2]\n  end\n";
    CmdResult r = check_text("", unstated);
    ck_assert_int_eq(r.status, 0);
    cmd_free(&r);
    r = check_text("--strict", unstated);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.out, "states no expected value (--strict): write 'answer EXPR = VALUE'"), "%s", r.out);
    cmd_free(&r);

    const char *nothing = "lesson N\nlet X = [ 1 2 ]\nstep S\n  show X\n";
    r = check_text("", nothing);
    ck_assert_int_eq(r.status, 0);
    cmd_free(&r);
    r = check_text("--strict", nothing);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.out, "the lesson has no check and no exercise (--strict)"), "%s", r.out);
    cmd_free(&r);

    /* the shipped lessons are strict-clean */
    r = cmd_runf("%s check --strict %s/*.lesson", attn_bin(), lessons_dir());
    ck_assert_msg(r.status == 0, "%s", r.out);
    cmd_free(&r);
}
END_TEST

/* --strict refuses an exercise whose value its own screen gives away: a
 * neighbour that reads the same (lesson 10's s[1,5] beside the hidden
 * s[1,4]), or the one hidden cell of a row that sums to 1 (or a column, or
 * 0 for a gradient); hiding another cell mends it; a count (a whole
 * number) is never refused by chance. One exercise is one line, failed or
 * ok, never both. */
START_TEST(strict_refuses_an_answer_the_screen_gives_away)
{
    const char *twin = "lesson T\nlet s = [ 1.5 2.5 2.5 ]\nstep S\n  show s\n"
                       "  exercise What is the largest score?\n    answer s[1,2] = 2.5 within 1e-3\n  end\n";
    CmdResult r = check_text("--strict", twin);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.out, "exercise What is the largest score? -- its value 2.5 can be read on its own screen at "
                                "s[1,3] (--strict): hide that cell too, or ask another"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "0 passed, 1 failed") && !strstr(r.out, "ok "), "%s", r.out);
    cmd_free(&r);
    const char *row = "lesson R\nlet A = softmax_rows([ 1 2 3 ; 3 1 1 ])\nstep S\n  show A\n"
                      "  exercise What is A[1,2]?\n    answer A[1,2] = 0.2447 within 1e-3\n  end\n";
    r = check_text("--strict", row);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.out, "its value follows from row 1 of A, which sums to 1 with only this cell hidden"), "%s",
                  r.out);
    cmd_free(&r);
    const char *mended = "lesson R\nlet A = softmax_rows([ 1 2 3 ; 3 1 1 ])\nstep S\n  show A\n"
                         "  exercise What is A[1,2]?\n    answer A[1,2] = 0.2447 within 1e-3\n"
                         "    hide A[1,2] A[1,3]\n  end\n";
    r = check_text("--strict", mended);
    ck_assert_msg(r.status == 0, "%s", r.out);
    cmd_free(&r);
    const char *count = "lesson C\nlet X = [ 2 4 ]\nstep S\n  show X\n"
                        "  exercise How many numbers?\n    answer 1 + 1 = 2 within 0\n  end\n";
    r = check_text("--strict", count);
    ck_assert_msg(r.status == 0, "%s", r.out);
    cmd_free(&r);
}
END_TEST

Suite *strict_suite(void)
{
    Suite *s = suite_create("strict");
    TCase *c = tcase_create("core");
    tcase_set_timeout(c, 60);
    tcase_add_test(c, an_exercise_answer_is_one_number);
    tcase_add_test(c, strict_fails_what_plain_check_lets_pass);
    tcase_add_test(c, strict_refuses_an_answer_the_screen_gives_away);
    suite_add_tcase(s, c);
    return s;
}
