/*
 * check_docs.c - the documents say what the program does: every option of
 * every command, as the command's own usage message lists it, is in
 * `attn --help`, in attn(1) and in the README, and --help lists no option
 * the command does not take; the README's numbers are what attn prints
 * (the closing line of `attn check` over the shipped lessons, the matrix
 * of its `attn run` example). attn(1)'s keys, functions and directives
 * are check_man.c's.
 */
#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static const char *const commands[] = { "run", "check", "grade", "progress", "bench", "join", "class-report", "model",
                                         "train" };
#define N_COMMANDS (sizeof commands / sizeof *commands)

/* Does text hold the option opt as a word ("--json", not "--json-x")? */
static int has_option(const char *text, const char *opt)
{
    size_t n = strlen(opt);
    for (const char *p = text; (p = strstr(p, opt)); p += n)
        if ((p == text || !isalnum((unsigned char)p[-1]) || p[-1] == ' ') && p[n] != '-' &&
            !isalnum((unsigned char)p[n]))
            return 1;
    return 0;
}

/* The options ("--word") in the lines of text that start (after blanks or
 * "usage:") with "attn CMD", and the lines that continue them (indented
 * deeper, with no "attn" of their own), into opts; returns how many. */
static int options_of(const char *text, const char *cmd, char opts[][32], int max)
{
    char head[32];
    snprintf(head, sizeof head, "attn %s ", cmd);
    int n = 0, in = 0;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf - 1 ? len : sizeof buf - 1), line);
        const char *attn = strstr(buf, "attn ");
        if (attn)
            in = strncmp(attn, head, strlen(head)) == 0;
        /* the usage part of a line: up to a wide gap (the description) */
        char *gap = strstr(buf, "     ");
        if (gap && gap > buf + 12)
            *gap = '\0';
        for (char *p = buf; in && (p = strstr(p, "--")); p += 2) {
            int k = 0;
            char word[32];
            while (k < 30 && (p[k] == '-' || isalnum((unsigned char)p[k])))
                word[k] = p[k], k++;
            word[k] = '\0';
            int seen = 0;
            for (int i = 0; i < n; i++)
                seen |= strcmp(opts[i], word) == 0;
            if (!seen && n < max && k > 2)
                snprintf(opts[n++], sizeof opts[0], "%s", word);
        }
        line = end ? end + 1 : NULL;
    }
    return n;
}

static char *man_text(void)
{
    char *man = slurp("app/man/attn.1");
    ck_assert_ptr_nonnull(man);
    /* roff writes a hyphen as "\-" */
    char *w = man;
    for (const char *r = man; *r; r++)
        if (!(r[0] == '\\' && r[1] == '-'))
            *w++ = *r;
    *w = '\0';
    return man;
}

START_TEST(every_option_is_documented)
{
    CmdResult help = cmd_runf("%s --help", attn_bin());
    ck_assert_int_eq(help.status, 0);
    char *man = man_text(), *readme = slurp("README.md");
    ck_assert_ptr_nonnull(readme);
    for (size_t c = 0; c < N_COMMANDS; c++) {
        CmdResult r = cmd_runf("%s %s --no-such-option", attn_bin(), commands[c]);
        ck_assert_msg(r.status == 2, "attn %s --no-such-option: exit %d", commands[c], r.status);
        char usage[32][32], helped[32][32];
        int n = options_of(r.err, commands[c], usage, 32);
        ck_assert_msg(n > 0 || strcmp(commands[c], "progress") == 0, "attn %s prints no options:\n%s", commands[c],
                      r.err);
        for (int i = 0; i < n; i++) {
            ck_assert_msg(has_option(help.out, usage[i]), "attn --help lacks %s of attn %s", usage[i], commands[c]);
            ck_assert_msg(has_option(man, usage[i]), "attn(1) lacks %s of attn %s", usage[i], commands[c]);
            ck_assert_msg(has_option(readme, usage[i]), "README.md lacks %s of attn %s", usage[i], commands[c]);
        }
        int h = options_of(help.out, commands[c], helped, 32);
        for (int i = 0; i < h; i++)
            ck_assert_msg(has_option(r.err, helped[i]), "attn --help gives attn %s %s, which it does not take",
                          commands[c], helped[i]);
        char line[64];
        snprintf(line, sizeof line, "attn %s", commands[c]);
        ck_assert_msg(strstr(man, line) != NULL, "attn(1) lacks the command %s", commands[c]);
        cmd_free(&r);
    }
    free(man);
    free(readme);
    cmd_free(&help);
}
END_TEST

/* The README's "N passed, M failed" after attn check over the shipped lessons. */
START_TEST(readme_check_count_is_real)
{
    char *readme = slurp("README.md");
    ck_assert_ptr_nonnull(readme);
    const char *cmd = strstr(readme, "$ ./attn check lessons/*.lesson");
    ck_assert_msg(cmd != NULL, "README.md shows no attn check run");
    const char *said = strstr(cmd, " passed, ");
    ck_assert_ptr_nonnull(said);
    while (said > cmd && isdigit((unsigned char)said[-1]))
        said--;
    char claim[64];
    snprintf(claim, sizeof claim, "%.*s", (int)strcspn(said, "\n"), said);
    CmdResult r = cmd_runf("%s check %s/*.lesson | tail -n 1", attn_bin(), lessons_dir());
    char got[64];
    snprintf(got, sizeof got, "%.*s", (int)strcspn(r.out, "\n"), r.out);
    ck_assert_msg(strcmp(claim, got) == 0, "README.md says '%s'; attn check says '%s'", claim, got);
    cmd_free(&r);
    free(readme);
}
END_TEST

/* The matrix the README quotes from `attn run lessons/02-sky-is-blue.lesson`. */
START_TEST(readme_matrix_is_real)
{
    char *readme = slurp("README.md");
    ck_assert_ptr_nonnull(readme);
    const char *start = strstr(readme, "scaled  (3x3, heatmap)");
    ck_assert_msg(start != NULL, "README.md quotes no matrix");
    const char *end = strstr(start, "\n\n");
    ck_assert_ptr_nonnull(end);
    char *block = strndup(start, (size_t)(end - start));
    CmdResult r = cmd_runf("%s run %s/02-sky-is-blue.lesson", attn_bin(), lessons_dir());
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, block) != NULL, "attn run does not print what README.md quotes:\n%s", block);
    free(block);
    cmd_free(&r);
    free(readme);
}
END_TEST

Suite *docs_suite(void)
{
    Suite *s = suite_create("docs");
    TCase *tc = tcase_create("docs");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, every_option_is_documented);
    tcase_add_test(tc, readme_check_count_is_real);
    tcase_add_test(tc, readme_matrix_is_real);
    suite_add_tcase(s, tc);
    return s;
}
