/*
 * check_readme.c - the README shows real output: its example lesson passes
 * `attn check`, and the `attn run --explain` it quotes is what attn prints.
 * A change to the language or the output that makes the README wrong fails
 * here.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* The text of README.md from the line starting with `first` through the
 * line starting with `last`, inclusive (malloc'd), or NULL. */
static char *readme_between(const char *first, const char *last)
{
    char *readme = slurp("README.md");
    if (!readme)
        return NULL;
    char *start = strstr(readme, first);
    char *end = start ? strstr(start, last) : NULL;
    char *out = NULL;
    if (end) {
        end = strchr(end, '\n');
        size_t len = end ? (size_t)(end - start + 1) : strlen(start);
        out = malloc(len + 1);
        memcpy(out, start, len);
        out[len] = '\0';
    }
    free(readme);
    return out;
}

START_TEST(readme_lesson_passes_check)
{
    char *lesson = readme_between("lesson Scores in brief", "check A[1,1]");
    ck_assert_msg(lesson != NULL, "README.md has no example lesson");
    const char *path = write_temp(".lesson", lesson);
    ck_assert_ptr_nonnull(path);
    CmdResult r = cmd_runf("%s check %s", attn_bin(), path);
    ck_assert_msg(r.status == 0, "the README's lesson fails attn check (%d):\n%s%s", r.status, r.out, r.err);
    ck_assert_msg(strstr(r.out, "2 passed, 0 failed\n") != NULL, "unexpected summary:\n%s", r.out);
    cmd_free(&r);
    free(lesson);
}
END_TEST

START_TEST(readme_explain_is_real_output)
{
    char *quoted = readme_between("A[1,2] = exp(", "= 0.3577");
    ck_assert_msg(quoted != NULL, "README.md no longer quotes the explanation of A[1,2]");
    CmdResult r = cmd_runf("%s run --explain 'A[1,2]' %s/02-sky-is-blue.lesson", attn_bin(), lessons_dir());
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strcmp(r.out, quoted) == 0, "README quotes:\n%s\nattn prints:\n%s", quoted, r.out);
    cmd_free(&r);
    free(quoted);
}
END_TEST

START_TEST(readme_leads_with_the_two_commands)
{
    char *readme = slurp("README.md");
    ck_assert_ptr_nonnull(readme);
    char *run = strstr(readme, "make run"), *test = strstr(readme, "make test");
    char *prose = strstr(readme, "attn is a terminal lab");
    ck_assert_msg(run && test && prose && run < prose && test < prose,
                  "README.md must show `make run` and `make test` before anything else");
    free(readme);
}
END_TEST

Suite *readme_suite(void)
{
    Suite *s = suite_create("readme");
    TCase *core = tcase_create("core");
    tcase_add_test(core, readme_lesson_passes_check);
    tcase_add_test(core, readme_explain_is_real_output);
    tcase_add_test(core, readme_leads_with_the_two_commands);
    suite_add_tcase(s, core);
    return s;
}
