/*
 * tmux.c - the harness of the screen tests: attn runs inside a private
 * tmux server (tmux -L attn-test-PID-N); a test types keys with send-keys
 * and reads the screen with capture-pane, polling every 50 ms until the
 * expected text appears (5 s at most). A watchdog ends each server within
 * a minute, even when a test fails half-way. Also the /proc readers the
 * signal and hang-up tests use to find attn's process.
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

#include "testutil.h"
#include "tmux.h"

#define WATCHDOG_S 60   /* no test session outlives this */

static int tmux_serial;  /* names each server of this process */

int have_tmux(void)
{
    CmdResult r = cmd_run("command -v tmux");
    int ok = r.status == 0;
    cmd_free(&r);
    return ok;
}

/* Start attn in a new tmux session of cols x rows. env is put before the
 * command (e.g. "NO_COLOR=1"), args after it. The shell around it reports
 * how attn left: "EXITED <status>". SIGINT is ignored by that shell so ^C
 * reaches attn alone. */
void tmux_start(Tmux *t, int cols, int rows, const char *env, const char *args)
{
    ck_assert_msg(have_tmux(), "tmux is not installed: the screen tests need it (apt-get install tmux)");
    snprintf(t->sock, sizeof t->sock, "attn-test-%d-%d", (int)getpid(), tmux_serial++);
    t->last[0] = '\0';
    snprintf(t->state, sizeof t->state, "/tmp/attn-state-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(t->state));
    char inner[2048];
    snprintf(inner, sizeof inner,
             "trap '' INT; sh -c 'echo ATTN PID $$; exec env LC_ALL=C.UTF-8 TERM=xterm-256color "
             /* under ASan, LeakSanitizer's exit-time scan of a screen process
              * whose terminal was torn down could spin for ever in its tracer
              * (seen on this machine: dozens of orphans at 9%% CPU each); the
              * unit suites keep checking leaks */
             "ASAN_OPTIONS=detect_leaks=0 "
             "ATTN_LESSONS=%s ATTN_STATE_DIR=%s %s %s %s'; echo EXITED $?; sleep 20",
             lessons_dir(), t->state, env ? env : "", attn_bin(), args ? args : "");
    /* the command goes to tmux as one argument: quote it for sh */
    char quoted[4096];
    size_t q = 0;
    quoted[q++] = '\'';
    for (const char *p = inner; *p && q < sizeof quoted - 8; p++) {
        if (*p == '\'') {
            memcpy(quoted + q, "'\\''", 4);
            q += 4;
        } else {
            quoted[q++] = *p;
        }
    }
    quoted[q++] = '\'';
    quoted[q] = '\0';
    CmdResult r = cmd_runf("tmux -u -f /dev/null -L %s new-session -d -x %d -y %d sh -c %s", t->sock, cols, rows,
                           quoted);
    ck_assert_msg(r.status == 0, "tmux new-session failed (%d): %s", r.status, r.err);
    cmd_free(&r);
    /* a watchdog: a test that fails half-way never reaches tmux_stop, and
     * attn would wait for keys forever; this ends the server regardless.
     * setsid: libcheck kills the test's process group when it ends. */
    r = cmd_runf("setsid sh -c 'sleep %d; tmux -L %s kill-server' >/dev/null 2>&1 &", WATCHDOG_S, t->sock);
    cmd_free(&r);
}

void tmux_stop(Tmux *t)
{
    CmdResult r = cmd_runf("tmux -L %s kill-server; rm -rf '%s'", t->sock, t->state);
    cmd_free(&r);
}

/* Capture the screen into t->last; with_attrs keeps the escape codes. */
void tmux_capture(Tmux *t, int with_attrs)
{
    CmdResult r = cmd_runf("tmux -L %s capture-pane -p %s", t->sock, with_attrs ? "-e" : "");
    snprintf(t->last, sizeof t->last, "%s", r.out ? r.out : "");
    cmd_free(&r);
}

/* Poll until the screen shows text; 1 on success. */
int tmux_wait_for(Tmux *t, const char *text)
{
    /* A frame reaches tmux in pieces: the title line can be there before
     * the rest, and on a busy machine (or under ASan) a test that saw its
     * text would then assert on half a screen. So the text counts once
     * two captures SETTLE_MS apart agree. */
    static char seen[sizeof t->last];
    for (int waited = 0; waited <= WAIT_MS; waited += POLL_MS) {
        tmux_capture(t, 0);
        while (strstr(t->last, text) && waited <= WAIT_MS) {
            memcpy(seen, t->last, sizeof seen);
            usleep(SETTLE_MS * 1000);
            waited += SETTLE_MS;
            tmux_capture(t, 0);
            if (strcmp(seen, t->last) == 0)
                return 1;
        }
        usleep(POLL_MS * 1000);
    }
    return 0;
}

/* Poll until the screen no longer shows text. */
int tmux_wait_gone(Tmux *t, const char *text)
{
    for (int waited = 0; waited <= WAIT_MS; waited += POLL_MS) {
        tmux_capture(t, 0);
        if (!strstr(t->last, text))
            return 1;
        usleep(POLL_MS * 1000);
    }
    return 0;
}

/* Send tmux key names ("Down", "Enter", "n", "C-c"). */
void tmux_keys(Tmux *t, const char *keys)
{
    CmdResult r = cmd_runf("tmux -L %s send-keys %s", t->sock, keys);
    ck_assert_msg(r.status == 0, "send-keys %s failed: %s", keys, r.err);
    cmd_free(&r);
}

/* Send text literally (typing into a prompt, or a mouse escape sequence). */
void tmux_type(Tmux *t, const char *text)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "tmux -L %s send-keys -l '%s'", t->sock, text);
    CmdResult r = cmd_run(cmd);
    ck_assert_msg(r.status == 0, "send-keys -l failed: %s", r.err);
    cmd_free(&r);
}

/* 1 when an SGR sequence in s sets a colour (30-37, 38, 40-47, 48, 90-97,
 * 100-107); the resets 39 and 49 do not count. */
int has_colour_codes(const char *s)
{
    for (const char *p = s; (p = strstr(p, "\033[")); ) {
        p += 2;
        while (*p >= '0' && *p <= '9') {
            int v = atoi(p);
            if ((v >= 30 && v <= 38) || (v >= 40 && v <= 48) || (v >= 90 && v <= 97) || (v >= 100 && v <= 107))
                return 1;
            while (*p >= '0' && *p <= '9')
                p++;
            if (*p == ';')
                p++;
        }
    }
    return 0;
}

void tmux_quit_and_check(Tmux *t, const char *key, const char *expect)
{
    tmux_keys(t, key);
    WAIT_FOR(t, expect);
    /* the terminal is restored: attn's screen is gone, the shell's is back */
    ck_assert_msg(strstr(t->last, "attn ·") == NULL && strstr(t->last, "step ") == NULL,
                  "attn's screen is still shown after it left:\n%s", t->last);
    ck_assert_msg(strstr(t->last, "ATTN PID"), "the shell's own screen did not come back:\n%s", t->last);
}

/* The 0-based index of the first line of screen s at or after line from
 * that contains needle, or -1; *col gets its display column. */
int line_with(const char *s, int from, const char *needle, int *col)
{
    int k = 0;
    for (const char *line = s; line && *line; k++) {
        const char *nl = strchr(line, '\n');
        const char *hit = strstr(line, needle);
        if (k >= from && hit && (!nl || hit < nl)) {
            if (col) {
                *col = 0;
                for (const char *p = line; p < hit; p++)
                    *col += ((unsigned char)*p & 0xC0) != 0x80;
            }
            return k;
        }
        line = nl ? nl + 1 : NULL;
    }
    return -1;
}

/* Line k of screen s into buf. */
const char *line_at(const char *s, int k, char *buf, size_t size)
{
    for (; k > 0 && s; k--)
        s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL;
    size_t n = s ? strcspn(s, "\n") : 0;
    n = n < size ? n : size - 1;
    memcpy(buf, s ? s : "", n);
    buf[n] = '\0';
    return buf;
}

/* A mouse click (press and release) at 0-based screen column x, row y. */
void tmux_click(Tmux *t, int x, int y)
{
    char click[64];
    snprintf(click, sizeof click, "\033[<0;%d;%dM", x + 1, y + 1);
    tmux_type(t, click);
    snprintf(click, sizeof click, "\033[<0;%d;%dm", x + 1, y + 1);
    tmux_type(t, click);
}

/* The first child process of parent, found in /proc (no procps needed on
 * a minimal machine), or 0. */
/* The state letter and parent of process pid from /proc/PID/stat. Returns 1,
 * or 0 when the process is gone. */
int proc_stat(int pid, char *state, int *ppid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    char *stat = slurp(path);
    /* pid (comm) state ppid ...: comm may hold spaces, so start after ')' */
    char *close = stat ? strrchr(stat, ')') : NULL;
    int ok = close && sscanf(close + 1, " %c %d", state, ppid) == 2;
    free(stat);
    return ok;
}

double proc_cpu_seconds(int pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    char *stat = slurp(path);
    /* after comm and state: ppid pgrp session tty_nr tpgid flags minflt
     * cminflt majflt cmajflt, then utime and stime in clock ticks */
    char *close = stat ? strrchr(stat, ')') : NULL;
    unsigned long utime = 0, stime = 0;
    int ok = close && sscanf(close + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime) == 2;
    free(stat);
    return ok ? (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK) : -1;
}

int tmux_attn_pid(const Tmux *t)
{
    CmdResult q = cmd_runf("tmux -L %s list-panes -F '#{pane_pid}'", t->sock);
    int sh = atoi(q.out ? q.out : "0");
    cmd_free(&q);
    return sh > 0 ? child_of(sh) : 0;
}

int child_of(int parent)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    struct dirent *e;
    int found = 0;
    while (!found && (e = readdir(d))) {
        int pid = atoi(e->d_name);
        if (pid <= 0)
            continue;
        int ppid = 0;
        char state;
        if (proc_stat(pid, &state, &ppid) && ppid == parent)
            found = pid;
    }
    closedir(d);
    return found;
}

/* Whether process pid has ended (gone, or a zombie waiting for its parent). */
int process_ended(int pid)
{
    char state;
    int ppid;
    return !proc_stat(pid, &state, &ppid) || state == 'Z' || state == 'X';
}
