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

/* --strict finds every kind of leak on the exercise's step or an earlier
 * one, naming where: a cell of an earlier step, the text of a step (a
 * decimal, or a fraction), a hint of another exercise, a question; and
 * tells coincidences apart: a short value (0.5) in another matrix or a
 * whole number in prose gives nothing away, a long one (0.4754) anywhere
 * does. */
/* --strict refuses lesson with a line holding want (and one line only). */
static void strict_refuses(const char *lesson, const char *want)
{
    CmdResult r = check_text("--strict", lesson);
    ck_assert_msg(r.status == 1 && strstr(r.out, want) && strstr(r.out, "0 passed, 1 failed"), "%s", r.out);
    cmd_free(&r);
}

START_TEST(strict_finds_every_kind_of_leak)
{
    strict_refuses("lesson E\nlet x = [ 0.4754 2 ]\nstep One\n  show x\nstep Two\n  let y = x * 1\n  show y\n"
                   "  exercise What is y[1,1]?\n    answer y[1,1] = 0.4754 within 1e-3\n  end\n",
                   "exercise What is y[1,1]? -- its value 0.4754 can be read on step 1 at x[1,1] (--strict): hide that "
                   "cell too, or ask another");
    strict_refuses("lesson P\nlet x = [ 1 3 ]\nstep One\n  text\n    The average is 2, a quarter of 8,\n"
                   "    and x[1,1] is 1/4 of x[1,2] plus 1/4.\n  end\n  let q = x[1,1] / 4\n  show x\n"
                   "  exercise A quarter of x[1,1]?\n    answer q[1,1] = 0.25 within 1e-6\n  end\n",
                   "its value 0.25 is written in the text of step 1 before it is asked (\"1/4\") (--strict): reword "
                   "it, or ask another");
    /* (the second exercise's own value is no leak: one line fails) */
    const char *hint = "lesson H\nlet x = [ 1.5 2.5 ]\nstep One\n  let s = x[1,1] + x[1,2] * 0.1234\n  show x\n"
                       "  exercise What is s?\n    answer s[1,1] = 1.8085 within 1e-3\n  end\n"
                       "  exercise And half of it?\n    answer s[1,1] / 2 = 0.90425 within 1e-3\n"
                       "    hint   Half of 1.8085.\n  end\n";
    CmdResult r = check_text("--strict", hint);
    ck_assert_msg(r.status == 1 && strstr(r.out, "1 passed, 1 failed") &&
                  strstr(r.out, "exercise What is s? -- its value 1.8085 is written in hint 1 of exercise 2 before "
                                "it is asked (\"1.8085\")"), "%s", r.out);
    cmd_free(&r);
    strict_refuses("lesson Q\nlet x = [ 1.5 2.5 ]\nstep One\n  show x\n"
                   "  exercise What is x[1,1] * 0.5 + x[1,2] * 0.25, or 1.375?\n"
                   "    answer x[1,1] * 0.5 + x[1,2] * 0.25 = 1.375 within 1e-3\n  end\n",
                   "is written in the question of exercise 1 before it is asked (\"1.375\")");
    /* the coincidences: 0.5 at W[1,1] and at S[2,1] (another row and
     * column of the asked matrix), 2 in the prose */
    const char *chance = "lesson C\nlet W = [ 0.5 0 ; 0 2 ]\nlet X = [ 1 0 ; 1 1 ]\nstep One\n"
                         "  text\n    Two words, 2 numbers each.\n  end\n  let S = X @ W @ X^T\n  show W S\n"
                         "  exercise What is S[1,2]?\n    answer S[1,2] = 0.5 within 1e-3\n"
                         "    hide S[1,1] S[1,2]\n  end\n";
    r = check_text("--strict", chance);
    ck_assert_msg(r.status == 0, "%s", r.out);
    cmd_free(&r);
}
END_TEST

/* The README's example lesson and lessons/README.md's walk-through (its
 * fenced blocks from the title to the check, as an author following it
 * would write them) pass --strict. */
START_TEST(readme_examples_pass_strict)
{
    char *readme = slurp("README.md");
    ck_assert_ptr_nonnull(readme);
    char *start = strstr(readme, "lesson Scores in brief");
    char *end = start ? strstr(start, "\n```") : NULL;
    ck_assert_msg(start && end, "README.md has no example lesson");
    *end = '\0';
    CmdResult r = check_text("--strict", start);
    ck_assert_msg(r.status == 0, "%s", r.out);
    cmd_free(&r);
    free(readme);

    char *guide = slurp("lessons/README.md");
    ck_assert_ptr_nonnull(guide);
    char lesson[4000] = "";
    const char *p = strstr(guide, "## Your first lesson, step by step");
    const char *stop = p ? strstr(p, "\n8. **Check it:**") : NULL;
    ck_assert_msg(p && stop, "lessons/README.md has no walk-through");
    while ((p = strstr(p, "```\n")) && p < stop) {
        const char *close = strstr(p + 4, "```");
        ck_assert_ptr_nonnull(close);
        /* each line without the list's indent of three blanks */
        for (const char *line = p + 4; line < close;) {
            const char *eol = strchr(line, '\n');
            if (!eol || eol > close)
                break;
            const char *text = strncmp(line, "   ", 3) == 0 ? line + 3 : line;
            appendf(lesson, sizeof lesson, "%.*s\n", (int)(eol - text), text);
            line = eol + 1;
        }
        p = close + 3;
    }
    ck_assert_msg(strstr(lesson, "exercise What score does 'world' get from 'hello'?"), "%s", lesson);
    r = check_text("--strict", lesson);
    ck_assert_msg(r.status == 0 && strstr(r.out, "2 passed, 0 failed"), "%s\n%s", lesson, r.out);
    cmd_free(&r);
    free(guide);
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
    tcase_add_test(c, strict_finds_every_kind_of_leak);
    tcase_add_test(c, readme_examples_pass_strict);
    suite_add_tcase(s, c);
    return s;
}
