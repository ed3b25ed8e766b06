/*
 * lessonfile.c - reading lesson files and the data files they load, and
 * finding the default lesson set. The parser never touches the disk; this
 * is where text comes from. And the files attn writes where a person says:
 * one at a time, a new one beside the others, a folder of them.
 */
#include "lessonfile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "filewrite.h"

#ifndef ATTN_DATADIR
#define ATTN_DATADIR "/usr/local/share/attn"
#endif

static void io_error(LessonError *err, const char *path, const char *fmt, const char *detail)
{
    memset(err, 0, sizeof *err);
    err->code = ATTN_E_IO;
    snprintf(err->file, sizeof err->file, "%s", path);
    err->line = 0;
    err->col = 0;
    snprintf(err->msg, sizeof err->msg, fmt, detail);
}

/* Why a file could not be read whole. */
typedef enum { READ_OK, READ_OPEN, READ_DIR, READ_NOT_FILE, READ_BIG, READ_NOMEM, READ_IO } ReadStatus;

/* What a path that is not a regular file is, for the refusal. */
static const char *file_kind(mode_t m)
{
    return S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : "not a regular file";
}

/* Read path whole into *text (malloc'd) and *len. At most limit bytes:
 * past it READ_BIG, unless soft, when the read stops a little past the
 * limit and the caller judges the excess. On READ_OPEN, errno says why. */
static const char *last_kind = "";

static ReadStatus read_whole(const char *path, size_t limit, int soft, char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    /* opened without blocking: a FIFO with no writer would wait forever;
     * only a regular file is read */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return READ_OPEN;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int e = errno;
        ReadStatus why = S_ISDIR(st.st_mode) ? READ_DIR : READ_NOT_FILE;
        last_kind = file_kind(st.st_mode);
        close(fd);
        errno = e;
        return why;
    }
    /* the size first: a 5 GB sparse file once took 16 s and 4.2 GB of
     * memory before it was called too large */
    if (!soft && (uint64_t)st.st_size > (uint64_t)limit) {
        close(fd);
        return READ_BIG;
    }
    int flags = fcntl(fd, F_GETFL);
    FILE *f = flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 ? NULL : fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return READ_OPEN;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    ReadStatus rs = READ_OK;
    while (buf) {
        if (n == cap) {
            if (cap > limit) {
                if (!soft)
                    rs = READ_BIG;
                break;
            }
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (rs == READ_OK && !soft && n > limit)
        rs = READ_BIG;
    int failed = ferror(f);
    fclose(f);
    if (!buf)
        return READ_NOMEM;
    if (rs == READ_OK && failed)
        rs = READ_IO;
    if (rs != READ_OK) {
        free(buf);
        return rs;
    }
    *text = buf;
    *len = n;
    return READ_OK;
}

int lessonfile_read_text(const char *path, size_t limit, char **text, size_t *len, char *why, size_t size)
{
    switch (read_whole(path, limit, 0, text, len)) {
    case READ_OK:
        return 0;
    case READ_OPEN:
        snprintf(why, size, "cannot open it: %s", strerror(errno));
        break;
    case READ_DIR:
        snprintf(why, size, "it is a directory, not a file");
        break;
    case READ_NOT_FILE:
        snprintf(why, size, "it is %s, not a regular file", last_kind);
        break;
    case READ_BIG:
        snprintf(why, size, "it is larger than %zu bytes", limit);
        break;
    case READ_NOMEM:
        snprintf(why, size, "out of memory reading it");
        break;
    case READ_IO:
        snprintf(why, size, "it could not be read: %s", strerror(errno ? errno : EIO));
        break;
    }
    return -1;
}

int lessonfile_map(const char *path, const unsigned char **bytes, size_t *len, char *why, size_t size)
{
    *bytes = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, size, "cannot open it: %s", strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, size, S_ISDIR(st.st_mode) ? "it is a directory, not a file" : "it is %s, not a regular file",
                 file_kind(st.st_mode));
        close(fd);
        return -1;
    }
    if (st.st_size == 0) {
        close(fd);
        *bytes = (const unsigned char *)"";
        return 0;
    }
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    close(fd);
    if (p == MAP_FAILED) {
        snprintf(why, size, "it could not be mapped: %s", strerror(e));
        return -1;
    }
    *bytes = p;
    *len = (size_t)st.st_size;
    return 0;
}

void lessonfile_unmap(const unsigned char *bytes, size_t len)
{
    if (bytes && len > 0)
        munmap((void *)bytes, len);
}

Lesson *lessonfile_load(const char *path, LessonError *err)
{
    char *text;
    size_t len;
    switch (read_whole(path, (size_t)LESSON_MAX_BYTES, 1, &text, &len)) {
    case READ_OPEN:
        io_error(err, path, "cannot open the lesson: %s", strerror(errno));
        return NULL;
    case READ_DIR:
        io_error(err, path, "%s", "this is a directory, not a lesson file");
        return NULL;
    case READ_NOT_FILE:
        io_error(err, path, "this is %s, not a lesson file", last_kind);
        return NULL;
    case READ_NOMEM:
        io_error(err, path, "%s", "out of memory reading the lesson");
        return NULL;
    case READ_IO: case READ_BIG:
        io_error(err, path, "%s", "the lesson could not be read");
        return NULL;
    case READ_OK:
        break;
    }
    /* the read stops soon past the limit; lesson_parse refuses the excess */
    Lesson *l = lesson_parse(text, len, path, err);
    free(text);
    lesson_set_loader(l, lessonfile_read_data, NULL);
    return l;
}

const char *lessonfile_data_path(const char *lesson_path, const char *path, char *buf, size_t size)
{
    const char *slash = lesson_path ? strrchr(lesson_path, '/') : NULL;
    if (path[0] == '/' || !slash)
        snprintf(buf, size, "%s", path);
    else
        snprintf(buf, size, "%.*s/%s", (int)(slash - lesson_path), lesson_path, path);
    return buf;
}

int lessonfile_read_data(void *ctx, const char *lesson_path, const char *path, char **bytes, size_t *len,
                         char *why, size_t why_size)
{
    (void)ctx;
    char full[PATH_MAX + 1];
    if (strlen(path) + (lesson_path ? strlen(lesson_path) : 0) + 2 > sizeof full) {
        snprintf(why, why_size, "the path is too long");
        return 0;
    }
    lessonfile_data_path(lesson_path, path, full, sizeof full);
    switch (read_whole(full, (size_t)LESSONFILE_MAX_DATA, 0, bytes, len)) {
    case READ_OK:
        return 1;
    case READ_OPEN:
        snprintf(why, why_size, "cannot open %s: %s", full, strerror(errno));
        return 0;
    case READ_DIR:
        snprintf(why, why_size, "%s is a directory, not a data file", full);
        return 0;
    case READ_NOT_FILE:
        snprintf(why, why_size, "%s is %s, not a data file", full, last_kind);
        return 0;
    case READ_BIG:
        snprintf(why, why_size, "the file is larger than the limit of %ld MB", (long)(LESSONFILE_MAX_DATA >> 20));
        return 0;
    case READ_NOMEM:
        snprintf(why, why_size, "out of memory reading the file");
        return 0;
    case READ_IO:
        break;
    }
    snprintf(why, why_size, "the file could not be read");
    return 0;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The folder name that ships beside attn: $env when it names a folder,
 * else name beside the running binary or one level up (a build tree),
 * ../share/attn/name from the binary (an install under any PREFIX), the
 * PREFIX compiled in; NULL when none exists. found holds it. */
static const char *shipped_dir(const char *env_name, const char *name, char *found, size_t size)
{
    const char *env = env_name ? getenv(env_name) : NULL;
    if (env && *env && is_dir(env)) {
        snprintf(found, size, "%s", env);
        return found;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            /* the binary at the top of a build tree, in build-asan/, or
             * installed as PREFIX/bin/attn whatever PREFIX it was built with */
            const char *tries[] = { "/", "/../", "/../share/attn/" };
            for (size_t i = 0; i < sizeof tries / sizeof *tries; i++) {
                char candidate[PATH_MAX + 64];
                snprintf(candidate, sizeof candidate, "%s%s%s", exe, tries[i], name);
                if (is_dir(candidate)) {
                    if (!realpath(candidate, found))
                        snprintf(found, size, "%s", candidate);
                    return found;
                }
            }
        }
    }
    snprintf(found, size, "%s/%s", ATTN_DATADIR, name);
    return is_dir(found) ? found : NULL;
}

const char *lessonfile_default_dir(void)
{
    static char found[PATH_MAX + 64];
    return shipped_dir("ATTN_LESSONS", "lessons", found, sizeof found);
}

const char *lessonfile_shipped_models(void)
{
    static char found[PATH_MAX + 64];
    return shipped_dir(NULL, "models", found, sizeof found);
}

static int compare_paths(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **lessonfile_list(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    size_t n = 0, cap = 16;
    char **paths = malloc(cap * sizeof *paths);
    struct dirent *e;
    while (paths && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len <= 7 || strcmp(e->d_name + len - 7, ".lesson") != 0 || e->d_name[0] == '.')
            continue;
        if (n + 1 >= cap) {
            char **bigger = realloc(paths, cap * 2 * sizeof *paths);
            if (!bigger) {
                lessonfile_list_free(paths);
                paths = NULL;
                break;
            }
            paths = bigger;
            cap *= 2;
        }
        size_t size = strlen(dir) + len + 2;
        paths[n] = malloc(size);
        if (!paths[n])
            break;
        snprintf(paths[n], size, "%s/%s", dir, e->d_name);
        paths[++n] = NULL;
    }
    closedir(d);
    if (paths) {
        paths[n] = NULL;
        qsort(paths, n, sizeof *paths, compare_paths);
    }
    return paths;
}

void lessonfile_list_free(char **paths)
{
    if (!paths)
        return;
    for (char **p = paths; *p; p++)
        free(*p);
    free(paths);
}

int lessonfile_append_whole(int fd, const char *bytes, size_t len)
{
    off_t before = lseek(fd, 0, SEEK_END);
    if (before < 0)
        return -1;
    ssize_t put = write(fd, bytes, len);
    if (put >= 0 && (size_t)put == len)
        return 0;
    int err = put < 0 ? errno : ENOSPC;
    if (put >= 0 && ftruncate(fd, before) != 0)
        err = errno;
    errno = err ? err : EIO;
    return -1;
}

FILE *lessonfile_create(const char *path, char *why, size_t size)
{
    size_t len = strlen(path);
    if (len >= 7 && strcmp(path + len - 7, ".lesson") == 0) {
        snprintf(why, size, "it would overwrite a lesson");
        return NULL;
    }
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        snprintf(why, size, "it is %s, not a regular file", S_ISFIFO(st.st_mode) ? "a FIFO"
                                                           : S_ISDIR(st.st_mode) ? "a directory" : "a device");
        return NULL;
    }
    /* O_NONBLOCK: one made a FIFO meanwhile opens at once (or fails) */
    int fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0644);
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, size, "%s", fd < 0 ? strerror(errno) : "it is not a regular file");
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    int flags = fcntl(fd, F_GETFL);
    FILE *f = NULL;
    if (flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 && ftruncate(fd, 0) == 0)
        f = fdopen(fd, "w");
    if (!f) {
        snprintf(why, size, "%s", strerror(errno));
        close(fd);
    }
    return f;
}

int lessonfile_write_new(const char *stem, const char *ext, const char *text, char *name, size_t name_size,
                         char *why, size_t size)
{
    for (int k = 1; k <= 999; k++) {
        if (k == 1)
            snprintf(name, name_size, "%s%s", stem, ext);
        else
            snprintf(name, name_size, "%s-%d%s", stem, k, ext);
        size_t len = strlen(name);
        if (len >= 7 && strcmp(name + len - 7, ".lesson") == 0) {
            snprintf(why, size, "it would be a lesson");
            return -1;
        }
        int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd < 0 && errno == EEXIST)
            continue;
        if (fd < 0) {
            snprintf(why, size, "%s", strerror(errno));
            return -1;
        }
        /* whole or not at all: a part left behind is taken away again */
        size_t n = strlen(text), done = 0;
        while (done < n) {
            ssize_t w = write(fd, text + done, n - done);
            if (w <= 0 && errno != EINTR)
                break;
            done += w > 0 ? (size_t)w : 0;
        }
        int err = done < n ? (errno ? errno : EIO) : 0;
        if (close(fd) != 0 && !err)
            err = errno;
        if (err) {
            unlink(name);
            snprintf(why, size, "%s", strerror(err));
            return -1;
        }
        return 0;
    }
    snprintf(why, size, "%s%s and 998 more are there already", stem, ext);
    return -1;
}

/* 1 when the regular file path holds mark in its first 512 bytes. */
static int holds_mark(const char *path, const char *mark)
{
    char head[512];
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return 0;
    ssize_t n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, head, sizeof head) : -1;
    close(fd);
    size_t len = strlen(mark);
    for (ssize_t at = 0; at + (ssize_t)len <= n; at++)
        if (memcmp(head + at, mark, len) == 0)
            return 1;
    return 0;
}

int lessonfile_own_dir(const char *dir, const char *mark, char *why, size_t size)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        if (errno == ENOENT && filewrite_dirs_mode(dir, 0777) == 0)
            return 0;
        snprintf(why, size, "cannot make the folder: %s", strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(why, size, "it is %s, not a folder", S_ISREG(st.st_mode) ? "a file" : file_kind(st.st_mode));
        return -1;
    }
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(why, size, "cannot read the folder: %s", strerror(errno));
        return -1;
    }
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char path[PATH_MAX + 256], shown[300];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && holds_mark(path, mark))
            continue;
        snprintf(why, size, "it holds %s, which attn did not write: name a new or empty folder",
                 lesson_escape(e->d_name, shown, sizeof shown));
        rc = -1;
    }
    closedir(d);
    return rc;
}
