/*
 * check_tui_menu.c - the lesson menu in tmux: every shipped lesson listed, a broken lesson listed with its error, the folder re-listed on return.
 * ATTN_SKIP_TUI=1 registers none of the tmux tests (make valgrind).
 */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <signal.h>
#include <pty.h>
#include <poll.h>

#include "format.h"
#include "lessonfile.h"
#include "refdata.h"
#include "testutil.h"
#include "tmux.h"
#include "tui_fixtures.h"
#include "tui_keys.h"
#include "tui_layout.h"

START_TEST(menu_lists_every_lesson)
{
    Shipped s = shipped_load();
    ck_assert_msg(s.n > 0, "no lessons in %s", lessons_dir());
    Tmux t;
    tmux_start(&t, 120, 8 + 2 * s.n, NULL, NULL);
    WAIT_FOR(&t, "self-attention, step by step");
    /* the course's parts head their lessons, in order, with their completion */
    WAIT_FOR(&t, "Beyond the notebooks: attention as models compute it now");
    const char *notebooks = strstr(t.last, "The notebooks: self-attention step by step");
    const char *beyond = strstr(t.last, "Beyond the notebooks");
    const char *online = strstr(t.last, "Online softmax");
    WAIT_FOR(&t, "A model trained here");
    const char *trained = strstr(t.last, "A model trained here");
    ck_assert_msg(notebooks && notebooks < beyond && beyond < online && online < trained
                  && strstr(t.last, "course: 0/17 finished"),
                  "the course's parts are not shown in order:\n%s", t.last);
    for (int i = 0; i < s.n; i++) {
        WAIT_FOR(&t, lesson_title(s.lessons[i]));
        char about[60];
        snprintf(about, sizeof about, "%s", lesson_about(s.lessons[i]));
        ck_assert_msg(strstr(t.last, about), "the about line of %s is missing:\n%s", s.paths[i], t.last);
    }
    /* Enter opens the first lesson; Esc comes back to the menu; q quits */
    tmux_keys(&t, "Enter");
    char want[64];
    screen_label(s.lessons[0], 1, want, sizeof want);
    WAIT_FOR(&t, want);
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, lesson_about(s.lessons[s.n - 1]));
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    shipped_free(&s);
}
END_TEST

START_TEST(menu_lists_a_broken_lesson_with_its_error)
{
    char dir[] = "/tmp/attn-test-menu-XXXXXX";
    ck_assert_msg(mkdtemp(dir) != NULL, "mkdtemp failed");
    char path[300];
    snprintf(path, sizeof path, "%s/1-good.lesson", dir);
    FILE *f = fopen(path, "w");
    fputs(small_lesson, f);
    fclose(f);
    snprintf(path, sizeof path, "%s/2-broken.lesson", dir);
    f = fopen(path, "w");
    fputs("lesson Broken\nlet A = [ 1 2 ; 3 4 ]\nlet B = A @ Nope\n", f);
    fclose(f);
    /* a C1 control (CSI, U+009B) in a title: a terminal would read "1m" as
     * a colour; the parser refuses it, and the menu says where */
    snprintf(path, sizeof path, "%s/3-c1.lesson", dir);
    f = fopen(path, "w");
    fputs("lesson Sneaky \xc2\x9b" "1m title\nabout the C1 control\nstep One\n  let A = [ 1 ]\n", f);
    fclose(f);
    Tmux t;
    char env[400];
    snprintf(env, sizeof env, "ATTN_LESSONS=%s", dir);
    tmux_start(&t, 100, 24, env, NULL);
    WAIT_FOR(&t, "Tiny attention");
    WAIT_FOR(&t, "(does not open)");
    ck_assert_msg(strstr(t.last, "2-broken.lesson:3:"), "the error has no file:line:col:\n%s", t.last);
    ck_assert_msg(strstr(t.last, "3-c1.lesson:1:15: error: U+009B (control sequence introducer"),
                  "the C1 control is not refused:\n%s", t.last);
    tmux_keys(&t, "Down");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "cannot open");
    ck_assert_msg(!strstr(t.last, "step 1/") && !strstr(t.last, "Set-up, then"), "a broken lesson opened:\n%s", t.last);
    tmux_keys(&t, "Up");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "Set-up, then 2 steps");
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "2-broken.lesson");    /* Esc went back to the menu */
    tmux_quit_and_check(&t, "Escape", "EXITED 0");
    tmux_stop(&t);
    CmdResult r = cmd_runf("rm -rf %s", dir);
    cmd_free(&r);
}
END_TEST

/* A menu of n lessons in a fresh directory: lesson k is the small lesson
 * titled "Lesson k", but lessons 1 and 2 share the title "Twin". */
static void numbered_menu(char *dir, int n)
{
    ck_assert_msg(mkdtemp(dir) != NULL, "mkdtemp failed");
    for (int k = 1; k <= n; k++) {
        char path[300], title[64];
        snprintf(path, sizeof path, "%s/%02d-lesson.lesson", dir, k);
        snprintf(title, sizeof title, "lesson %s\n", k <= 2 ? "Twin" : "");
        if (k > 2)
            snprintf(title, sizeof title, "lesson Lesson %d\n", k);
        FILE *f = fopen(path, "w");
        ck_assert_msg(f != NULL, "cannot write %s", path);
        fputs(title, f);
        fputs(strstr(small_lesson, "about"), f);
        fclose(f);
    }
}

/* Digit keys open a lesson by the number the menu shows; with ten or more
 * lessons a digit waits for a second one while a longer number could
 * begin with it. Lessons of one title show their file names. */
START_TEST(menu_number_keys_and_twins)
{
    char dir[] = "/tmp/attn-test-menu-XXXXXX", env[400];
    numbered_menu(dir, 4);
    snprintf(env, sizeof env, "ATTN_LESSONS=%s", dir);
    Tmux t;
    tmux_start(&t, 80, 24, env, NULL);
    WAIT_FOR(&t, "Lesson 4");
    ck_assert_msg(strstr(t.last, " 3  Lesson 3"), "the numbers are not shown:\n%s", t.last);
    ck_assert_msg(strstr(t.last, "Twin  (01-lesson.lesson)") && strstr(t.last, "Twin  (02-lesson.lesson)"),
                  "twins without their files:\n%s", t.last);
    ck_assert_msg(!strstr(t.last, "(03-lesson.lesson)"), "a lesson of its own title shows its file:\n%s", t.last);
    tmux_keys(&t, "3");
    WAIT_FOR(&t, "attn · Lesson 3");
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "4 lessons in");
    tmux_keys(&t, "2");
    WAIT_FOR(&t, "attn · Twin");
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "4 lessons in");
    tmux_keys(&t, "7");
    WAIT_FOR(&t, "no lesson 7: the menu has 4");
    tmux_stop(&t);
    CmdResult r = cmd_runf("rm -rf %s", dir);
    cmd_free(&r);
    /* twelve: 1 then 2 is the twelfth; 2 alone the second; 1 and Enter the first */
    char dir12[] = "/tmp/attn-test-menu-XXXXXX";
    numbered_menu(dir12, 12);
    snprintf(env, sizeof env, "ATTN_LESSONS=%s", dir12);
    tmux_start(&t, 80, 40, env, NULL);
    WAIT_FOR(&t, "12 lessons in");
    tmux_keys(&t, "1");
    WAIT_FOR(&t, "lesson 1: another digit, or Enter to open it");
    tmux_keys(&t, "2");
    WAIT_FOR(&t, "attn · Lesson 12");
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "12 lessons in");
    tmux_keys(&t, "2");
    WAIT_FOR(&t, "attn · Twin");
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "12 lessons in");
    tmux_keys(&t, "1");
    WAIT_FOR(&t, "another digit");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "attn · Twin");
    tmux_stop(&t);
    r = cmd_runf("rm -rf %s", dir12);
    cmd_free(&r);
}
END_TEST

/* Back from a lesson, the menu lists its directory again: a lesson added
 * meanwhile is there, R re-lists it by hand too. */
START_TEST(menu_relists_on_return)
{
    char dir[] = "/tmp/attn-test-relist-XXXXXX";
    ck_assert_msg(mkdtemp(dir) != NULL, "mkdtemp failed");
    char path[300];
    snprintf(path, sizeof path, "%s/1-tiny.lesson", dir);
    save_in_place(path, small_lesson);
    Tmux t;
    char env[400];
    snprintf(env, sizeof env, "ATTN_LESSONS=%s", dir);
    tmux_start(&t, 100, 24, env, NULL);
    WAIT_FOR(&t, "1 lesson in");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "Set-up, then 2 steps");
    snprintf(path, sizeof path, "%s/2-new.lesson", dir);
    save_in_place(path, "lesson Freshly added\nabout written while attn ran\nstep One\n  let A = [ 1 ]\n");
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "Freshly added");
    ck_assert_msg(strstr(t.last, "2 lessons in") && strstr(t.last, "▶  1  Tiny attention"),
                  "the menu did not re-list, or lost the selection:\n%s", t.last);
    snprintf(path, sizeof path, "%s/3-later.lesson", dir);
    save_in_place(path, "lesson Later still\nstep One\n  let A = [ 1 ]\n");
    tmux_keys(&t, "R");
    WAIT_FOR(&t, "Later still");
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    CmdResult r = cmd_runf("rm -rf %s", dir);
    cmd_free(&r);
}
END_TEST

Suite *tui_menu_suite(void)
{
    Suite *s = suite_create("tui_menu");
    TCase *tc = tcase_create("menu");
    tcase_set_timeout(tc, 300);
    const char *skip = getenv("ATTN_SKIP_TUI");
    if (!(skip && strcmp(skip, "1") == 0)) {
        tcase_add_test(tc, menu_lists_every_lesson);
        tcase_add_test(tc, menu_relists_on_return);
        tcase_add_test(tc, menu_lists_a_broken_lesson_with_its_error);
        tcase_add_test(tc, menu_number_keys_and_twins);
    }
    suite_add_tcase(s, tc);
    return s;
}
