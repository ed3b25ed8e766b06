/*
 * tmux.h - the harness of the screen tests (tmux.c): start attn in a
 * private tmux server, type keys, read the screen, wait for text, click,
 * and find attn's process through /proc.
 */
#ifndef ATTN_TEST_TMUX_H
#define ATTN_TEST_TMUX_H

#include <stddef.h>

#define POLL_MS 50
#define SETTLE_MS 40 /* a frame is whole once it has not changed for this long */
#define WAIT_MS 5000

typedef struct {
    char sock[64];
    char state[64];     /* a fresh ATTN_STATE_DIR: no progress from other tests */
    char last[131072];  /* the last screen captured (250x70 with colours fits) */
} Tmux;

int have_tmux(void);
/* Start attn in a new tmux session of cols x rows. env is put before the
 * command (e.g. "NO_COLOR=1"), args after it. The shell around it reports
 * how attn left: "EXITED <status>". SIGINT is ignored by that shell so ^C
 * reaches attn alone. */
void tmux_start(Tmux *t, int cols, int rows, const char *env, const char *args);
void tmux_stop(Tmux *t);
/* Capture the screen into t->last; with_attrs keeps the escape codes. */
void tmux_capture(Tmux *t, int with_attrs);
/* Poll until the screen shows text / no longer shows it; 1 on success. */
int tmux_wait_for(Tmux *t, const char *text);
int tmux_wait_gone(Tmux *t, const char *text);
/* Send tmux key names ("Down", "Enter", "n", "C-c"). */
void tmux_keys(Tmux *t, const char *keys);
/* Send text literally (typing into a prompt, or a mouse escape sequence). */
void tmux_type(Tmux *t, const char *text);
/* A mouse click (press and release) at 0-based screen column x, row y. */
void tmux_click(Tmux *t, int x, int y);
/* 1 when an SGR sequence in s sets a colour. */
int has_colour_codes(const char *s);
/* Press key, wait for expect, and assert attn's screen is gone and the
 * shell's is back. */
void tmux_quit_and_check(Tmux *t, const char *key, const char *expect);

/* The 0-based index of the first line of screen s at or after line from
 * that contains needle (*col gets its 0-based byte column), or -1. */
int line_with(const char *s, int from, const char *needle, int *col);
/* Line k of screen s into buf. */
const char *line_at(const char *s, int k, char *buf, size_t size);

/* The state letter and parent of process pid from /proc/PID/stat; 1 on
 * success, 0 when it cannot be read. */
int proc_stat(int pid, char *state, int *ppid);
/* The CPU time process pid has used (user and system), in seconds, from
 * /proc/PID/stat; -1 when it cannot be read. */
double proc_cpu_seconds(int pid);
/* The first child process of parent, or 0. */
int child_of(int parent);
/* attn's process in t's pane: the child of the pane's shell (the inner sh
 * exec'd it), or 0. */
int tmux_attn_pid(const Tmux *t);
/* Whether process pid has ended (gone, or a zombie). */
int process_ended(int pid);

#define WAIT_FOR(t, text)                                                                               \
    ck_assert_msg(tmux_wait_for((t), (text)), "the screen never showed \"%s\"; it shows:\n%s", (text), \
                  (t)->last)

#endif
