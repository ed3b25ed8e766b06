/*
 * check_tui_reload.c - live reload in tmux: the open lesson saved, broken, fixed and removed while attn shows it; R, Ctrl-L and c.
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

/* An author edits the open lesson: a changed number shows up with the
 * step and the user's edit kept; a syntax error shows file:line:col and
 * keeps the last good numbers; fixing it clears the error. At 80x24. */
START_TEST(live_reload_follows_the_file)
{
    Tmux t;
    const char *path = open_small_lesson(&t, 80, 24, NULL);
    char file[256];
    snprintf(file, sizeof file, "%s", path);
    /* step 2, X[2,2] = 4 -> 10: P[2,2] = 3*0 + 10*2 = 20 */
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "step 1/2");
    tmux_keys(&t, "Down");
    tmux_keys(&t, "Right");
    tmux_keys(&t, "e");
    WAIT_FOR(&t, "new value for X[2,2]");
    tmux_type(&t, "10");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "20.0000");
    /* W[2,2] 2 -> 3 in the file: P[2,2] = 10*3 = 30 with the edit kept */
    char *changed = small_lesson_with("let W = [ 0.5 0 ; 0 2 ]", "let W = [ 0.5 0 ; 0 3 ]", NULL);
    save_in_place(file, changed);
    WAIT_FOR(&t, "30.0000");
    char want[400];
    snprintf(want, sizeof want, "reloaded %s", file);
    ck_assert_msg(strstr(t.last, want), "no \"%s\" after the save:\n%s", want, t.last);
    ck_assert_msg(strstr(t.last, "step 1/2") && strstr(t.last, "1 edit"), "the step or the edit was lost:\n%s",
                  t.last);
    ck_assert_msg(strstr(t.last, "10.0000✎") && strstr(t.last, "3.0000"), "the edit or the new W is missing:\n%s",
                  t.last);
    ck_assert_msg(strstr(t.last, "X[2,2] = a given value"), "the cursor left X[2,2]:\n%s", t.last);
    /* a syntax error in a later step: the error with its place, the old numbers stay */
    int line;
    char *broken = small_lesson_with("  let S = P + M\n", "  let S = P + + M\n", &line);
    save_in_place(file, broken);
    snprintf(want, sizeof want, "%s:%d:15: error:", file, line);
    WAIT_FOR(&t, want);
    ck_assert_msg(strstr(t.last, "reload failed") && strstr(t.last, "let S = P + + M"),
                  "the error is not marked or lacks its line:\n%s", t.last);
    ck_assert_msg(strstr(t.last, "30.0000") && strstr(t.last, "10.0000✎") && strstr(t.last, "step 1/2"),
                  "the last good version did not stay:\n%s", t.last);
    ck_assert_msg(!strstr(t.last, "reloaded"), "\"reloaded\" is still claimed:\n%s", t.last);
    /* moving about with the error shown works, and it stays */
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "step 2/2");
    ck_assert_msg(strstr(t.last, want), "the error went away on a step:\n%s", t.last);
    tmux_keys(&t, "p");
    WAIT_FOR(&t, "step 1/2");
    /* fixed (saved by rename this time): the error goes, the numbers stay */
    save_by_rename(file, changed);
    ck_assert_msg(tmux_wait_gone(&t, "reload failed"), "the error stayed after the fix:\n%s", t.last);
    WAIT_FOR(&t, "reloaded");
    ck_assert_msg(strstr(t.last, "30.0000") && strstr(t.last, "1 edit"), "the fix lost the numbers:\n%s", t.last);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    free(changed);
    free(broken);
    unlink(file);
}
END_TEST

/* The keys: R and Ctrl-L reload by hand; c hides an error (the title
 * keeps a note), R brings it back while the file is still bad; an edit
 * whose cell is gone is dropped and counted. A deleted file keeps the
 * last version up with its error. At 250x70. */
START_TEST(live_reload_keys_and_dropped_edits)
{
    Tmux t;
    const char *path = open_small_lesson(&t, 250, 70, NULL);
    char file[256];
    snprintf(file, sizeof file, "%s", path);
    tmux_keys(&t, "R");
    WAIT_FOR(&t, "reloaded");
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "step 1/2");
    ck_assert_msg(tmux_wait_gone(&t, "reloaded"), "a key did not clear the message:\n%s", t.last);
    tmux_keys(&t, "C-l");
    WAIT_FOR(&t, "reloaded");
    ck_assert_msg(strstr(t.last, "step 1/2"), "Ctrl-L lost the step:\n%s", t.last);
    /* the file goes away: the lesson stays, with the error */
    CmdResult r = cmd_runf("mv %s %s.away", file, file);
    cmd_free(&r);
    WAIT_FOR(&t, "cannot open the lesson");
    ck_assert_msg(strstr(t.last, "reload failed") && strstr(t.last, "8.0000"), "the lesson did not stay:\n%s", t.last);
    /* c hides it, the title says so; R on the still-missing file shows it again */
    tmux_keys(&t, "c");
    ck_assert_msg(tmux_wait_gone(&t, "reload failed"), "c did not hide the error:\n%s", t.last);
    WAIT_FOR(&t, "file has an error");
    tmux_keys(&t, "R");
    WAIT_FOR(&t, "reload failed");
    WAIT_FOR(&t, "still has an error");
    /* back, with X[2,2] edited, then X made 1x2: the edit has no cell left */
    r = cmd_runf("mv %s.away %s", file, file);
    cmd_free(&r);
    ck_assert_msg(tmux_wait_gone(&t, "reload failed"), "the file came back, the error stayed:\n%s", t.last);
    tmux_keys(&t, "Down");
    tmux_keys(&t, "Right");
    tmux_keys(&t, "e");
    tmux_type(&t, "10");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "1 edit");
    char *narrow = small_lesson_with("let X = [ 1 2 ; 3 4 ]", "let X = [ 1 2 ]", NULL);
    save_by_rename(file, narrow);
    WAIT_FOR(&t, "1 edit dropped");
    ck_assert_msg(!strstr(t.last, "│ 1 edit") && !strstr(t.last, "10.0000✎"), "the dropped edit is still there:\n%s",
                  t.last);
    ck_assert_msg(strstr(t.last, "P 1x2"), "the new X did not reach P:\n%s", t.last);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    free(narrow);
    unlink(file);
}
END_TEST

Suite *tui_reload_suite(void)
{
    Suite *s = suite_create("tui_reload");
    TCase *tc = tcase_create("reload");
    tcase_set_timeout(tc, 300);
    const char *skip = getenv("ATTN_SKIP_TUI");
    if (!(skip && strcmp(skip, "1") == 0)) {
        tcase_add_test(tc, live_reload_follows_the_file);
        tcase_add_test(tc, live_reload_keys_and_dropped_edits);
    }
    suite_add_tcase(s, tc);
    return s;
}
