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

#include "json.h"
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
        /* the set-up screen is no step of the exercise: X in full */
        "X  (2x2)\n          1       2\n  a  1.0000  2.0000\n  b  3.0000  4.0000\n",
        "Step 1/2: One\n",
        /* "?" right-aligned like a number; a hidden cell's shade is '?' */
        "X  (2x2)\n          1       2\n  a  1.0000       ?\n  b  3.0000  4.0000\n",
        "S  (2x2, heatmap)\n           a        b\n  a        ?  11.0000   |?:|\n  b        ?  25.0000   |?@|\n",
        "Exercise: What is S[2,1]?\n  Answer: ____________\n",
        "Exercise: Which is X[1,2]?\n  Answer: ____________\n",
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

Suite *handout_suite(void)
{
    Suite *s = suite_create("handout");
    TCase *core = tcase_create("core");
    tcase_set_timeout(core, 60);
    tcase_add_test(core, test_plain_hides_cells);
    suite_add_tcase(s, core);
    return s;
}
