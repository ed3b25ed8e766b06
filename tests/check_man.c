/*
 * check_man.c - the manuals app/man/attn.1 and attn-lesson.5: each renders
 * with groff without a warning and with man -l within 80 columns, and they
 * cannot fall behind the code: every key of the screen's binding table
 * (tui_keys.c), every function of the lesson language (lesson_fns) and
 * every directive (read from lesson_parse.c) must have its entry.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson_tree.h"
#include "optable.h"
#include "testutil.h"
#include "tui_keys.h"

#define MAN1 "app/man/attn.1"
#define MAN5 "app/man/attn-lesson.5"

/* The lines of section `name` of a man source (from ".SH name" to the
 * next ".SH"), malloc'd. */
static char *source_section(const char *path, const char *name)
{
    char *text = slurp(path);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    char head[64];
    snprintf(head, sizeof head, "\n.SH %s\n", name);
    char *start = strstr(text, head);
    ck_assert_msg(start != NULL, "%s has no section %s", path, name);
    start += strlen(head);
    char *end = strstr(start, "\n.SH ");
    size_t n = end ? (size_t)(end - start) : strlen(start);
    char *out = strndup(start, n);
    free(text);
    return out;
}

/* The words of the tag lines (the line after each .TP) of a section, as
 * they read: macro names and quotes dropped, "\-" as "-", separated by
 * single spaces, with a space at both ends for whole-word search. */
static char *tag_words(const char *section)
{
    size_t cap = strlen(section) + 2, n = 0;
    char *out = malloc(cap + 1);
    out[n++] = ' ';
    for (const char *p = strstr(section, ".TP\n"); p; p = strstr(p, ".TP\n")) {
        p += 4;
        const char *e = strchr(p, '\n');
        if (!e)
            break;
        const char *q = p;
        if (*q == '.')              /* the macro: .B, .BR, .BI ... */
            q += strcspn(q, " \n");
        for (; q < e; q++) {
            if (*q == '"')
                continue;
            if (q[0] == '\\' && q[1] == '-') {
                out[n++] = '-';
                q++;
            } else if (q[0] == '\\' && q[1] == 'f') {
                q += 2;             /* a font change: \fR, \fP */
            } else if (*q == ' ' || *q == ',') {
                if (out[n - 1] != ' ')
                    out[n++] = ' ';
            } else {
                out[n++] = *q;
            }
        }
        if (out[n - 1] != ' ')
            out[n++] = ' ';
    }
    out[n] = '\0';
    return out;
}

static int has_word(const char *words, const char *w)
{
    char pat[80];
    snprintf(pat, sizeof pat, " %s ", w);
    return strstr(words, pat) != NULL;
}

START_TEST(test_pages_render_without_warnings)
{
    const char *pages[] = { MAN1, MAN5 };
    for (size_t i = 0; i < sizeof pages / sizeof *pages; i++) {
        CmdResult r = cmd_runf("groff -man -Tutf8 -ww -z %s", pages[i]);
        ck_assert_msg(r.status == 0 && r.err[0] == '\0' && r.out[0] == '\0',
                      "groff -man -ww %s: exit %d\n%s%s", pages[i], r.status, r.out, r.err);
        cmd_free(&r);
        r = cmd_runf("MANWIDTH=80 MANPAGER=cat PAGER=cat man -l %s", pages[i]);
        ck_assert_msg(r.status == 0 && r.err[0] == '\0', "man -l %s: exit %d\n%s", pages[i], r.status, r.err);
        ck_assert_msg(strlen(r.out) > 2000, "man -l %s rendered only:\n%s", pages[i], r.out);
        /* no line wider than the 80 columns it was rendered for */
        int line = 1, width = 0;
        for (const unsigned char *p = (const unsigned char *)r.out; *p; p++) {
            if (*p == '\n') {
                line++;
                width = 0;
            } else if ((*p & 0xC0) != 0x80) {
                width++;
                ck_assert_msg(width <= 80, "%s: line %d of the rendered page is wider than 80", pages[i], line);
            }
        }
        cmd_free(&r);
    }
    CmdResult r = cmd_runf("MANWIDTH=80 MANPAGER=cat PAGER=cat man -l %s", MAN1);
    ck_assert_msg(strstr(r.out, "ATTN_LESSONS") && strstr(r.out, "ATTN_STATE_DIR") && strstr(r.out, "NO_COLOR") &&
                  strstr(r.out, "TERM") && strstr(r.out, "EXIT STATUS") && strstr(r.out, "EXAMPLES") &&
                  strstr(r.out, "FILES") && strstr(r.out, "--tap") && strstr(r.out, "--junit") &&
                  strstr(r.out, "--quiet"), "attn(1) lacks a section or option:\n%s", r.out);
    cmd_free(&r);
}
END_TEST

START_TEST(test_every_key_documented)
{
    char *keys = source_section(MAN1, "KEYS");
    char *words = tag_words(keys);
    int n = 0;
    for (const TuiBinding *b = tui_bindings; b->action != ACT_NONE; b++, n++) {
        char name[32];
        tui_key_name(b->key, name, sizeof name);
        ck_assert_msg(has_word(words, name), "the key %s (%s) is not under KEYS in %s; documented:%s", name,
                      tui_action_help(b->action), MAN1, words);
    }
    ck_assert_int_ge(n, 30);
    free(words);
    free(keys);
}
END_TEST

START_TEST(test_every_function_documented)
{
    char *fns = source_section(MAN5, "FUNCTIONS");
    char *rendered;
    CmdResult r = cmd_runf("MANWIDTH=80 MANPAGER=cat PAGER=cat man -l %s", MAN5);
    rendered = r.out;
    for (int i = 0; i < OPT_COUNT; i++) {
        if (!optable_is_fn(i))
            continue;
        const char *name = optable_at(i)->name;
        char call[48];
        snprintf(call, sizeof call, "%s(", name);
        char tag[64];
        snprintf(tag, sizeof tag, "\n.BI %s", call);
        char *entry = strstr(fns, tag);
        if (!entry) {
            snprintf(tag, sizeof tag, "\" \" %s", call);  /* a second in a tag: sqrt(A), exp(A) */
            entry = strstr(fns, tag);
        }
        ck_assert_msg(entry != NULL, "the function %s has no entry under FUNCTIONS in %s", name, MAN5);
        /* and an example that calls it */
        char *next = strstr(entry + 1, "\n.TP\n");
        char *ex = strstr(entry, ".EX\n");
        ck_assert_msg(ex && (!next || ex < next) && strstr(ex, call) && (!next || strstr(ex, call) < next),
                      "the function %s has no example calling it in %s", name, MAN5);
        ck_assert_msg(strstr(rendered, call), "%s does not show in the rendered %s", call, MAN5);
    }
    cmd_free(&r);
    free(fns);
}
END_TEST

START_TEST(test_every_directive_documented)
{
    /* the parser's own list of directives */
    char *src = slurp("engine/lesson/lesson_parse.c");
    ck_assert_ptr_nonnull(src);
    char *list = strstr(src, "directives[] = {");
    ck_assert_msg(list != NULL, "lesson_parse.c has no directives[] table");
    char *end = strstr(list, "};");
    char *dirs = source_section(MAN5, "DIRECTIVES");
    char *words = tag_words(dirs);
    int n = 0;
    for (char *q = strchr(list, '"'); q && q < end; q = strchr(q, '"')) {
        char *close = strchr(q + 1, '"');
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)(close - q - 1), q + 1);
        ck_assert_msg(has_word(words, name), "the directive %s is not under DIRECTIVES in %s", name, MAN5);
        n++;
        q = close + 1;
    }
    ck_assert_int_ge(n, 16);
    /* each directive's entry has an example */
    int tps = 0, examples = 0;
    for (char *p = strstr(dirs, ".TP\n"); p; p = strstr(p + 1, ".TP\n")) {
        tps++;
        char *next = strstr(p + 1, ".TP\n"), *ex = strstr(p, ".EX\n");
        examples += ex && (!next || ex < next);
    }
    ck_assert_int_eq(examples, tps);
    free(words);
    free(dirs);
    free(src);
}
END_TEST

Suite *man_suite(void)
{
    Suite *s = suite_create("man");
    TCase *core = tcase_create("core");
    tcase_set_timeout(core, 60);      /* groff and man, several times */
    tcase_add_test(core, test_pages_render_without_warnings);
    tcase_add_test(core, test_every_key_documented);
    tcase_add_test(core, test_every_function_documented);
    tcase_add_test(core, test_every_directive_documented);
    suite_add_tcase(s, core);
    return s;
}
