/*
 * check_tui_process.c - how attn starts and ends: resizing below the minimum and back, signals and hang-up with the terminal restored, a bad lesson or no terminal refused before the screen.
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

START_TEST(resize_below_the_minimum_and_back)
{
    Tmux t;
    open_small_lesson(&t, 100, 30, NULL);
    CmdResult r = cmd_runf("tmux -L %s resize-window -x 56 -y 12", t.sock);
    cmd_free(&r);
    char want[128];
    snprintf(want, sizeof want, "terminal too small: need at least %dx%d, have 56x12", TUI_MIN_COLS, TUI_MIN_ROWS);
    WAIT_FOR(&t, want);
    /* keys while too small change nothing and break nothing */
    tmux_keys(&t, "n");
    r = cmd_runf("tmux -L %s resize-window -x 80 -y 24", t.sock);
    cmd_free(&r);
    WAIT_FOR(&t, "Set-up, then 2 steps");
    ck_assert_msg(!strstr(t.last, "too small"), "the notice stayed after growing back:\n%s", t.last);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
}
END_TEST

START_TEST(signals_restore_the_terminal)
{
    Tmux t;
    const char *args = open_small_lesson(&t, 100, 30, NULL);
    tmux_quit_and_check(&t, "C-c", "EXITED 130");
    tmux_stop(&t);
    /* SIGTERM and SIGHUP from outside, and every other signal that ends a
     * process: Ctrl-\ (QUIT), USR1, PIPE, ALRM left the alternate screen,
     * mouse reporting and raw mode on; a crash (SEGV) puts the terminal
     * back and dies of its own signal */
    const char *sigs[] = { "TERM", "HUP", "QUIT", "USR1", "PIPE", "ALRM", "SEGV" };
    const char *codes[] = { "EXITED 143", "EXITED 129", "EXITED 131", "EXITED 138", "EXITED 141", "EXITED 142",
                            "EXITED 139" };
    for (int k = 0; k < 7; k++) {
        tmux_start(&t, 100, 30, NULL, args);
        WAIT_FOR(&t, "Set-up");
        int pid = tmux_attn_pid(&t);
        ck_assert_msg(pid > 0, "cannot find attn's pid");
        CmdResult kr = cmd_runf("kill -%s %d", sigs[k], pid);
        cmd_free(&kr);
        WAIT_FOR(&t, codes[k]);
        ck_assert_msg(strstr(t.last, "attn ·") == NULL, "SIG%s left attn's screen behind:\n%s", sigs[k], t.last);
        tmux_stop(&t);
    }
}
END_TEST

/* A terminal that cannot place the cursor is refused, with what to do. */
START_TEST(a_dumb_terminal_is_refused)
{
    Tmux t;
    tmux_start(&t, 100, 30, "TERM=dumb", small_lesson_path());
    WAIT_FOR(&t, "EXITED 2");
    ck_assert_msg(strstr(t.last, "attn: this terminal (TERM=dumb) cannot move the cursor"), "%s", t.last);
    tmux_stop(&t);
}
END_TEST

START_TEST(bad_lesson_file_exits_2_before_the_screen)
{
    const char *path = write_temp(".lesson", "lesson Bad\nlet A = [ 1 2 ; 3 ]\n");
    ck_assert_msg(path != NULL, "cannot write a lesson");
    CmdResult r = cmd_runf("%s %s", attn_bin(), path);
    ck_assert_msg(r.status == 2, "exit %d, want 2", r.status);
    char want[300];
    snprintf(want, sizeof want, "%s:2:", path);
    ck_assert_msg(strstr(r.err, want), "stderr lacks %s:\n%s", want, r.err);
    ck_assert_msg(strstr(r.out, "\033[") == NULL, "the terminal was touched:\n%s", r.out);
    cmd_free(&r);
    r = cmd_runf("%s /nonexistent/x.lesson", attn_bin());
    ck_assert_msg(r.status == 2 && strstr(r.err, "/nonexistent/x.lesson"), "exit %d: %s", r.status, r.err);
    cmd_free(&r);
}
END_TEST

/* Without a terminal (stdin not a tty) the screen refuses and says what to
 * use instead, at once: it used to spin on end of file at 100% CPU. */
START_TEST(no_terminal_is_refused)
{
    CmdResult r = cmd_runf("%s %s", attn_bin(), small_lesson_path());
    ck_assert_msg(r.status == 2, "exit %d, want 2; stderr: %s", r.status, r.err);
    ck_assert_msg(strstr(r.err, "attn: the lesson screen needs a terminal; to print a lesson, use 'attn run FILE'"),
                  "stderr: %s", r.err);
    ck_assert_str_eq(r.out, "");
    cmd_free(&r);
}
END_TEST

/* A terminal that hangs up under attn ends it, even when the hang-up signal
 * goes only to the shell that started it (attn is not the session leader):
 * its reads then fail at once, and the loop must notice rather than spin. */
START_TEST(hangup_ends_attn)
{
    const char *lesson = small_lesson_path();
    int master;
    struct winsize ws = { .ws_row = 30, .ws_col = 100 };
    pid_t sh = forkpty(&master, NULL, NULL, &ws);
    ck_assert_msg(sh >= 0, "forkpty failed");
    if (sh == 0) {
        setenv("TERM", "xterm-256color", 1);
        setenv("LC_ALL", "C.UTF-8", 1);
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "trap '' HUP; %s %s; sleep 30", attn_bin(), lesson);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    /* read the screen until attn has drawn its set-up step */
    char screen[65536];
    size_t got = 0;
    int attn = 0;
    for (int tries = 0; tries < 100 && !(attn && strstr(screen, "Set-up")); tries++) {
        struct pollfd in = { .fd = master, .events = POLLIN };
        if (poll(&in, 1, 50) > 0 && got < sizeof screen - 1) {
            ssize_t n = read(master, screen + got, sizeof screen - 1 - got);
            if (n > 0)
                got += (size_t)n;
        }
        screen[got] = '\0';
        if (!attn)
            attn = child_of(sh);
    }
    ck_assert_msg(attn > 0, "attn never started under the shell");
    ck_assert_msg(strstr(screen, "Set-up"), "attn never drew its screen");
    /* hang up: the shell ignores it and stays; attn's terminal is gone */
    close(master);
    int ended = 0;
    for (int tries = 0; tries < 60 && !ended; tries++) {
        usleep(50 * 1000);
        ended = process_ended(attn);
    }
    if (!ended)
        kill(attn, SIGKILL);
    kill(sh, SIGKILL);
    waitpid(sh, NULL, 0);
    ck_assert_msg(ended, "attn kept running for 3 s after its terminal hung up");
}
END_TEST

START_TEST(too_small_from_the_start_and_ascii)
{
    char args[300];
    snprintf(args, sizeof args, "%s", small_lesson_path());
    Tmux t;
    /* a C locale: ASCII only, -inf spelled out */
    tmux_start(&t, 59, 16, "LC_ALL=C", args);
    WAIT_FOR(&t, "terminal too small: need at least 60x16, have 59x16");
    CmdResult r = cmd_runf("tmux -L %s resize-window -x 90 -y 24", t.sock);
    cmd_free(&r);
    WAIT_FOR(&t, "Tiny attention");
    tmux_keys(&t, "G");
    WAIT_FOR(&t, "-inf");
    ck_assert_msg(!strstr(t.last, "∞") && !strstr(t.last, "▶"), "non-ASCII drawn in the C locale:\n%s", t.last);
    tmux_stop(&t);
}
END_TEST

Suite *tui_process_suite(void)
{
    Suite *s = suite_create("tui_process");
    TCase *tc = tcase_create("process");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, bad_lesson_file_exits_2_before_the_screen);
    tcase_add_test(tc, no_terminal_is_refused);
    tcase_add_test(tc, hangup_ends_attn);
    const char *skip = getenv("ATTN_SKIP_TUI");
    if (!(skip && strcmp(skip, "1") == 0)) {
        tcase_add_test(tc, resize_below_the_minimum_and_back);
        tcase_add_test(tc, signals_restore_the_terminal);
        tcase_add_test(tc, a_dumb_terminal_is_refused);
        tcase_add_test(tc, too_small_from_the_start_and_ascii);
    }
    suite_add_tcase(s, tc);
    return s;
}
