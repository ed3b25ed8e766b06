/*
 * testutil.h - helpers shared by the suites: run the attn binary (or any
 * shell command) and capture what it printed, and find the project's files.
 *
 * The binary is $ATTN_BIN (the Makefile sets it), else ./attn; lessons are
 * $ATTN_LESSONS, else ./lessons. Tests run from the repository root.
 */
#ifndef ATTN_TESTUTIL_H
#define ATTN_TESTUTIL_H

typedef struct {
    int status;     /* exit status, or -1 when the command could not run */
    char *out;      /* everything written to stdout, NUL-terminated, owned */
    char *err;      /* everything written to stderr, NUL-terminated, owned */
} CmdResult;

/* Run `sh -c cmd` with stdin from /dev/null. Free with cmd_free. */
CmdResult cmd_run(const char *cmd);
/* printf-style cmd_run. */
CmdResult cmd_runf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cmd_free(CmdResult *r);

const char *attn_bin(void);
const char *lessons_dir(void);

/* Write text to a new temporary file with the given suffix; returns its
 * path (static buffer, overwritten by the next call). NULL on failure. The
 * file is removed when the process exits. */
const char *write_temp(const char *suffix, const char *text);

/* The whole contents of a file (malloc'd), or NULL. */
char *slurp(const char *path);

#endif
