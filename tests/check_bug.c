/*
 * check_bug.c - find the bug (engine/lesson/lesson_bug.c): for every
 * shipped lesson and seeds 1..50 the planted bug keeps the lesson
 * evaluable, its matrix is the first shown matrix (steps in order, panes in
 * order) that differs from the lesson without it, its kind is a diagnosis
 * of the catalogue, and the same seed plants the same bug; six kinds or
 * more occur over the shipped lessons. Then `attn run --bug N --key` and
 * its JSON, and the lesson's file never written.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lessonfile.h"
#include "testutil.h"
#include "tui_fixtures.h"

static int differ(const Mat *a, const Mat *b)
{
    if (a->rows != b->rows || a->cols != b->cols)
        return 1;
    for (int i = 0; i < a->rows; i++)
        for (int j = 0; j < a->cols; j++) {
            float x = mat_get(a, i, j), y = mat_get(b, i, j);
            if (isinf(x) || isinf(y) ? x != y : fabsf(x - y) > 1e-6f * fmaxf(1.0f, fabsf(x)))
                return 1;
        }
    return 0;
}

START_TEST(every_lesson_every_seed)
{
    Shipped s = shipped_load();
    char kinds[32][32];
    int n_kinds = 0;
    for (int i = 0; i < s.n; i++) {
        LessonError err;
        LessonState *asked = lesson_eval(s.lessons[i], NULL, 0, &err);
        ck_assert_msg(asked != NULL, "%s: %s", s.paths[i], err.msg);
        for (unsigned seed = 1; seed <= 50; seed++) {
            LessonBug bug, again;
            ck_assert_msg(lesson_bug_plant(s.lessons[i], asked, seed, &bug, &err) == 0, "%s seed %u: %s",
                          s.paths[i], seed, err.msg);
            ck_assert_ptr_nonnull(bug.state);
            ck_assert_msg(lesson_diagnosis_words(bug.kind) != NULL, "%s: %s is not in the catalogue", s.paths[i],
                          bug.kind);
            /* the first matrix shown, in order, that the bug changed */
            const char *first = NULL;
            int first_step = -1;
            for (int k = 0; k < lesson_n_steps(s.lessons[i]) && !first; k++) {
                const LessonStep *st = lesson_step(s.lessons[i], k);
                for (int p = 0; p < st->n_show && !first; p++)
                    if (differ(lesson_state_get(asked, st->show[p]), lesson_state_get(bug.state, st->show[p]))) {
                        first = st->show[p];
                        first_step = k;
                    }
            }
            ck_assert_msg(first && strcmp(first, bug.matrix) == 0 && first_step == bug.step,
                          "%s seed %u: the bug says %s (step %d), the first changed is %s (step %d)", s.paths[i],
                          seed, bug.matrix, bug.step + 1, first ? first : "none", first_step + 1);
            ck_assert_msg(strcmp(bug.planted, bug.written) != 0, "%s seed %u: planted as written: %s", s.paths[i],
                          seed, bug.planted);
            /* the same seed, the same bug */
            ck_assert_int_eq(lesson_bug_plant(s.lessons[i], asked, seed, &again, &err), 0);
            ck_assert_str_eq(again.kind, bug.kind);
            ck_assert_str_eq(again.planted, bug.planted);
            ck_assert_int_eq(again.stmt, bug.stmt);
            lesson_bug_free(&again);
            int known = 0;
            for (int k = 0; k < n_kinds; k++)
                known |= strcmp(kinds[k], bug.kind) == 0;
            if (!known && n_kinds < 32)
                snprintf(kinds[n_kinds++], sizeof kinds[0], "%s", bug.kind);
            lesson_bug_free(&bug);
        }
        lesson_state_free(asked);
    }
    ck_assert_msg(n_kinds >= 6, "only %d kinds of bug over the shipped lessons", n_kinds);
    shipped_free(&s);
}
END_TEST

START_TEST(a_bug_handout_and_its_key)
{
    char path[600];
    snprintf(path, sizeof path, "%s/02-sky-is-blue.lesson", lessons_dir());
    struct stat before, after;
    ck_assert_int_eq(stat(path, &before), 0);
    CmdResult r = cmd_runf("%s run --bug 1 %s", attn_bin(), path);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(!strstr(r.out, "The bug") && !strstr(r.out, "wrong-axis"), "the handout gives the bug away");
    cmd_free(&r);
    r = cmd_runf("%s run --bug 1 --key %s", attn_bin(), path);
    ck_assert_msg(strstr(r.out, "The bug (seed 1)\n  the first wrong matrix: A (step 5: Softmax along each row)\n"
                                "  the mistake: wrong-axis (softmax along the wrong axis)\n"
                                "  as planted: A = softmax_cols(scaled)\n  as written: A = softmax_rows(scaled)\n"),
                  "%s", r.out);
    cmd_free(&r);
    r = cmd_runf("%s run --bug 1 --key --json %s", attn_bin(), path);
    ck_assert_msg(strstr(r.out, "\"bug\": {\"seed\": 1, \"step\": \"Softmax along each row\", \"matrix\": \"A\", "
                                "\"kind\": \"wrong-axis\", \"statement\": \"A = softmax_cols(scaled)\", "
                                "\"fixed\": \"A = softmax_rows(scaled)\"}}"), "%.400s", r.out);
    cmd_free(&r);
    /* the handout shows the numbers with the bug: A's rows no longer sum to 1 */
    r = cmd_runf("%s run --bug 1 --json %s", attn_bin(), path);
    ck_assert_msg(!strstr(r.out, "\"bug\""), "the key without --key");
    cmd_free(&r);
    r = cmd_runf("%s run --key %s", attn_bin(), path);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--key goes with --bug N"), "%s", r.err);
    cmd_free(&r);
    r = cmd_runf("%s run --bug x %s", attn_bin(), path);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--bug needs a seed"), "%s", r.err);
    cmd_free(&r);
    ck_assert_int_eq(stat(path, &after), 0);
    ck_assert_msg(before.st_mtime == after.st_mtime && before.st_size == after.st_size, "the lesson file changed");
}
END_TEST

Suite *bug_suite(void)
{
    Suite *s = suite_create("bug");
    TCase *c = tcase_create("core");
    tcase_set_timeout(c, 300);
    tcase_add_test(c, every_lesson_every_seed);
    tcase_add_test(c, a_bug_handout_and_its_key);
    suite_add_tcase(s, c);
    return s;
}
