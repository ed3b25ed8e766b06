/*
 * testutil.h - helpers shared by the suites: run the attn binary (or any
 * shell command) and capture what it printed, read the JSON of a lesson,
 * append to a message, and find the project's files.
 *
 * The binary is $ATTN_BIN (the Makefile sets it), else ./attn; lessons are
 * $ATTN_LESSONS, else ./lessons. Tests run from the repository root.
 */
#ifndef ATTN_TESTUTIL_H
#define ATTN_TESTUTIL_H

#include <stddef.h>

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

/* Make this process's (and its children's) HOME a fresh temporary folder,
 * with ATTN_STATE_DIR and XDG_STATE_HOME inside it, as a new account would
 * have them: nothing a test does reaches the user's own state. The folder
 * is the HOME of every test of the run; a test that needs a state of its
 * own sets its own. 0, or -1. */
int test_private_home(void);
const char *lessons_dir(void);

/* Write text to a new temporary file with the given suffix; returns its
 * path (static buffer, overwritten by the next call). NULL on failure. The
 * file is removed when the process exits. */
const char *write_temp(const char *suffix, const char *text);

/* The whole contents of a file (malloc'd), or NULL. */
char *slurp(const char *path);
/* The same, with its length (the bytes may hold NULs). */
char *slurp_n(const char *path, size_t *out_len);

/* The 256 byte tokens of GPT-2's byte alphabet as JSON members, "TOKEN": b
 * for each byte b, comma-separated, without braces (a static buffer), for
 * the tests' vocab.json and tokenizer.json. */
const char *byte_tokens_json(void);

/* How many lessons lessons_dir() holds (for a loop test over them). */
int shipped_count(void);

/* Append printf-style text to buf (always NUL-terminated). */
void appendf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

struct JVal;
/* Run `attn run --json` on path into *root (tests/json.h); 0 on success,
 * else -1 with the reason (exit status, stderr, or the JSON error) in why. */
int lesson_json(const char *path, struct JVal *root, char *why, size_t why_size);

/* A little-endian float32 .npy of rows x cols at path (values k % 97 / 97,
 * row-major): a lesson's big data file. 0, or -1. */
int write_npy_f32(const char *path, int rows, int cols);

/* How far fn(ctx) raised the peak resident memory (getrusage's
 * ru_maxrss), in KB, run in a child process of its own; -1 where it cannot
 * be measured (under AddressSanitizer or valgrind, whose redzones,
 * quarantine and shadow are not the program's memory). */
long peak_growth_kb(void (*fn)(void *ctx), void *ctx);

#endif
