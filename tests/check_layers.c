/*
 * check_layers.c - the walls the build enforces (scripts/check-layers):
 * the project as it stands passes, and a tree with a file that reaches past
 * its layer, into another folder's private header or, from the engine, into
 * printing fails with the file, the line and the reason.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

START_TEST(the_project_keeps_its_layers)
{
    CmdResult r = cmd_run("scripts/check-layers");
    ck_assert_msg(r.status == 0, "check-layers found breaches:\n%s%s", r.out, r.err);
    ck_assert_str_eq(r.out, "");
    cmd_free(&r);
}
END_TEST

/* A small tree: the session and the screen, with the layers given. */
static char *make_tree(void)
{
    static char dir[] = "/tmp/attn-layers-XXXXXX";
    strcpy(dir, "/tmp/attn-layers-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    CmdResult r = cmd_runf("cd %s && mkdir -p engine/base app/session app/tui app/cli && "
                           "printf 'int x;\\n' > app/session/session_internal.h && "
                           "printf 'int y;\\n' > app/session/session.h && "
                           "printf 'int z;\\n' > app/cli/grade.h && "
                           "printf 'int m;\\n' > engine/base/mat.h && "
                           "printf 'int t;\\n' > engine/base/lesson_tree.h && "
                           "printf 'engine: engine/base\\napp/session: engine/base app/session\\n"
                           "app/tui: engine/base app/session app/tui\\n' > layers",
                           dir);
    ck_assert_int_eq(r.status, 0);
    cmd_free(&r);
    return dir;
}

static CmdResult check_tree(const char *dir)
{
    return cmd_runf("ATTN_LAYERS=%s/layers scripts/check-layers %s", dir, dir);
}

START_TEST(a_sibling_header_is_refused)
{
    char *dir = make_tree();
    CmdResult w = cmd_runf("cd %s && printf '#include \"session.h\"\\n#include \"grade.h\"\\n' > app/tui/menu.c", dir);
    cmd_free(&w);
    CmdResult r = check_tree(dir);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.out, "app/tui/menu.c:2: includes app/cli/grade.h, which app/tui may not see "
                            "(it sees: engine/base app/session app/tui)\n");
    cmd_free(&r);
    w = cmd_runf("rm -rf %s", dir);
    cmd_free(&w);
}
END_TEST

START_TEST(a_private_header_stays_home)
{
    char *dir = make_tree();
    CmdResult w = cmd_runf("cd %s && printf '\\n#include \"session_internal.h\"\\n' > app/tui/lesson.c && "
                           "printf '#include \"session_internal.h\"\\n' > app/session/knobs.c", dir);
    cmd_free(&w);
    CmdResult r = check_tree(dir);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.out, "app/tui/lesson.c:2: includes app/session/session_internal.h, "
                            "the private header of another folder\n");
    cmd_free(&r);
    w = cmd_runf("rm -rf %s", dir);
    cmd_free(&w);
}
END_TEST

START_TEST(the_engine_keeps_its_tree)
{
    char *dir = make_tree();
    CmdResult w = cmd_runf("cd %s && printf '#include \"session.h\"\\n#include \"lesson_tree.h\"\\n' > app/session/x.c && "
                           "printf '#include \"lesson_tree.h\"\\n' > engine/base/y.c", dir);
    cmd_free(&w);
    CmdResult r = check_tree(dir);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.out, "app/session/x.c:2: includes engine/base/lesson_tree.h, the engine's own tree "
                            "(the app sees lesson.h and teach.h)\n");
    cmd_free(&r);
    w = cmd_runf("rm -rf %s", dir);
    cmd_free(&w);
}
END_TEST

START_TEST(the_engine_neither_prints_nor_draws)
{
    char *dir = make_tree();
    CmdResult w = cmd_runf("cd %s && printf '#include \"mat.h\"\\n#include <curses.h>\\n"
                           "/* printf( in a comment is fine */\\nvoid f(void) { char b[4]; snprintf(b, 4, \"x\"); "
                           "fprintf(stderr, \"no\"); }\\n' > engine/base/rng.c", dir);
    cmd_free(&w);
    CmdResult r = check_tree(dir);
    ck_assert_int_eq(r.status, 1);
    ck_assert_str_eq(r.out, "engine/base/rng.c:2: the engine includes curses\n"
                            "engine/base/rng.c:4: the engine prints or opens a file (the app does that)\n");
    cmd_free(&r);
    w = cmd_runf("rm -rf %s", dir);
    cmd_free(&w);
}
END_TEST

Suite *layers_suite(void)
{
    Suite *s = suite_create("layers");
    TCase *tc = tcase_create("layers");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, the_project_keeps_its_layers);
    tcase_add_test(tc, the_engine_keeps_its_tree);
    tcase_add_test(tc, a_sibling_header_is_refused);
    tcase_add_test(tc, a_private_header_stays_home);
    tcase_add_test(tc, the_engine_neither_prints_nor_draws);
    suite_add_tcase(s, tc);
    return s;
}
