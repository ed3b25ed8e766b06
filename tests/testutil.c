/*
 * testutil.c - running commands and handling files for the test suites.
 */
#include "testutil.h"
#include "bpe.h"
#include "json_read.h"
#include "lessonfile.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

char *slurp_n(const char *path, size_t *out_len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            char *bigger = realloc(buf, cap * 2 + 1);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    if (out_len)
        *out_len = len;
    return buf;
}

char *slurp(const char *path)
{
    return slurp_n(path, NULL);
}

CmdResult cmd_run(const char *cmd)
{
    CmdResult r = { -1, NULL, NULL };
    char out_path[] = "/tmp/attn-test-out-XXXXXX";
    char err_path[] = "/tmp/attn-test-err-XXXXXX";
    int fo = mkstemp(out_path), fe = mkstemp(err_path);
    if (fo < 0 || fe < 0)
        return r;
    close(fo);
    close(fe);
    size_t size = strlen(cmd) + 2 * sizeof out_path + 64;
    char *full = malloc(size);
    snprintf(full, size, "(%s) </dev/null >%s 2>%s", cmd, out_path, err_path);
    int st = system(full);
    free(full);
    r.status = (st != -1 && WIFEXITED(st)) ? WEXITSTATUS(st) : -1;
    r.out = slurp(out_path);
    r.err = slurp(err_path);
    unlink(out_path);
    unlink(err_path);
    if (!r.out)
        r.out = calloc(1, 1);
    if (!r.err)
        r.err = calloc(1, 1);
    return r;
}

CmdResult cmd_runf(const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    return cmd_run(cmd);
}

void cmd_free(CmdResult *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

int test_private_home(void)
{
    static char home[] = "/tmp/attn-home-XXXXXX";
    if (!mkdtemp(home))
        return -1;
    char state[sizeof home + 32], xdg[sizeof home + 32];
    /* neither exists yet, nor the folder above them: as on a new account,
     * whose ~/.local/state is not there until something makes it */
    snprintf(state, sizeof state, "%s/state/attn", home);
    snprintf(xdg, sizeof xdg, "%s/.local/state", home);
    return setenv("HOME", home, 1) || setenv("ATTN_STATE_DIR", state, 1) || setenv("XDG_STATE_HOME", xdg, 1) ? -1 : 0;
}

const char *attn_bin(void)
{
    const char *b = getenv("ATTN_BIN");
    return b && *b ? b : "./attn";
}

const char *lessons_dir(void)
{
    const char *d = getenv("ATTN_LESSONS");
    return d && *d ? d : "lessons";
}

/* The temporary files this process wrote, removed when it exits (each
 * test's forked process removes its own), so runs leave /tmp as they found
 * it. */
static char **temp_paths;
static int n_temp_paths;

static void remove_temp_files(void)
{
    for (int i = 0; i < n_temp_paths; i++) {
        unlink(temp_paths[i]);
        free(temp_paths[i]);
    }
    free(temp_paths);
    temp_paths = NULL;
    n_temp_paths = 0;
}

static void remember_temp(const char *path)
{
    static int registered;
    if (!registered) {
        atexit(remove_temp_files);
        registered = 1;
    }
    char **more = realloc(temp_paths, (size_t)(n_temp_paths + 1) * sizeof *more);
    char *copy = strdup(path);
    if (!more || !copy) {
        free(copy);
        if (more)
            temp_paths = more;
        return;
    }
    temp_paths = more;
    temp_paths[n_temp_paths++] = copy;
}

const char *write_temp(const char *suffix, const char *text)
{
    static char path[128];
    snprintf(path, sizeof path, "/tmp/attn-test-XXXXXX%s", suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    if (fd < 0)
        return NULL;
    remember_temp(path);
    size_t len = strlen(text);
    ssize_t w = write(fd, text, len);
    close(fd);
    return w == (ssize_t)len ? path : NULL;
}

/* Append printf-style text to buf (always NUL-terminated). */
void appendf(char *buf, size_t size, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, size - used, fmt, ap);
    va_end(ap);
}

/* Run `attn run --json` on path into *root; 0 on success, else -1 with the
 * reason (exit status, stderr, or the JSON error) in why. */
int lesson_json(const char *path, JVal *root, char *why, size_t why_size)
{
    CmdResult r = cmd_runf("'%s' run --json '%s'", attn_bin(), path);
    int rc = -1;
    char jerr[200];
    if (r.status != 0)
        snprintf(why, why_size, "attn run --json %s: exit %d: %.300s", path, r.status, r.err);
    else if (json_parse(r.out, root, jerr, sizeof jerr) < 0)
        snprintf(why, why_size, "attn run --json %s: %s", path, jerr);
    else
        rc = 0;
    cmd_free(&r);
    return rc;
}

int write_npy_f32(const char *path, int rows, int cols)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    char header[128];
    int n = snprintf(header, sizeof header, "{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d), }", rows, cols);
    int total = 10 + n + 1, pad = (64 - total % 64) % 64;
    unsigned short hlen = (unsigned short)(n + pad + 1);
    fwrite("\x93NUMPY\x01\x00", 1, 8, f);
    fputc(hlen & 0xff, f);
    fputc(hlen >> 8, f);
    fwrite(header, 1, (size_t)n, f);
    for (int k = 0; k < pad; k++)
        fputc(' ', f);
    fputc('\n', f);
    for (long k = 0; k < (long)rows * cols; k++) {
        float v = (float)(k % 97) / 97.0f;
        fwrite(&v, sizeof v, 1, f);
    }
    return fclose(f) == 0 ? 0 : -1;
}

const char *byte_tokens_json(void)
{
    static char text[8192];
    int n = 0;
    for (int b = 0; b < 256; b++) {
        unsigned cp = bpe_byte_char(b);
        char t[3];
        n += snprintf(text + n, sizeof text - (size_t)n, "%s\"%s%s\": %d", b ? ", " : "",
                      cp == '"' || cp == '\\' ? "\\" : "", bpe_byte_utf8(b, t), b);
    }
    return text;
}

/* Under AddressSanitizer every block carries redzones and freed memory
 * waits in quarantine: a peak there is not the program's. */
#if defined(__SANITIZE_ADDRESS__)
#define PEAK_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PEAK_UNDER_ASAN 1
#endif
#endif

long peak_growth_kb(void (*fn)(void *ctx), void *ctx)
{
#ifdef PEAK_UNDER_ASAN
    (void)fn, (void)ctx;
    return -1;
#else
    /* nor under valgrind, whose shadow memory is counted too */
    const char *preload = getenv("LD_PRELOAD");
    if (preload && strstr(preload, "vgpreload"))
        return -1;
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        /* a child of its own: its high-water mark starts at what it shares */
        struct rusage before, after;
        getrusage(RUSAGE_SELF, &before);
        fn(ctx);
        getrusage(RUSAGE_SELF, &after);
        long kb = after.ru_maxrss - before.ru_maxrss;
        ssize_t w = write(fds[1], &kb, sizeof kb);
        _exit(w == (ssize_t)sizeof kb ? 0 : 1);
    }
    close(fds[1]);
    long kb = -1;
    if (pid < 0 || read(fds[0], &kb, sizeof kb) != (ssize_t)sizeof kb)
        kb = -1;
    close(fds[0]);
    int status;
    if (pid > 0)
        waitpid(pid, &status, 0);
    return kb;
#endif
}

int shipped_count(void)
{
    char **paths = lessonfile_list(lessons_dir());
    int n = 0;
    while (paths && paths[n])
        n++;
    lessonfile_list_free(paths);
    return n;
}
