/*
 * filewrite.c - writing files, each kind one way (filewrite.h): a folder
 * with the folders above it, a file replaced whole and atomically through
 * a temporary file of its own, a file a person names, a new file beside
 * others, a line appended whole.
 */
#include "filewrite.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One folder: made, or there already as a folder (a file or a FIFO where
 * a folder is needed is ENOTDIR, said at once). */
static int one_dir(const char *p, mode_t mode)
{
    if (mkdir(p, mode) == 0)
        return 0;
    if (errno != EEXIST)
        return -1;
    struct stat st;
    if (stat(p, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

int filewrite_dirs(const char *dir) { return filewrite_dirs_mode(dir, 0700); }

int filewrite_dirs_mode(const char *dir, unsigned mode)
{
    size_t len = strlen(dir);
    char *p = malloc(len + 1);      /* any length: a long path is never cut */
    if (!p) {
        errno = ENOMEM;
        return -1;
    }
    memcpy(p, dir, len + 1);
    int rc = 0;
    for (char *s = p + 1; rc == 0 && *s; s++)
        if (*s == '/' && s[-1] != '/') {
            *s = '\0';
            rc = one_dir(p, (mode_t)mode);
            *s = '/';
        }
    if (rc == 0)
        rc = one_dir(p, (mode_t)mode);
    int e = errno;
    free(p);
    errno = e;
    return rc;
}

int filewrite_join(char *out, size_t size, const char *dir, const char *name)
{
    int n = snprintf(out, size, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= size) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

int filewrite_replace(const char *path, const void *bytes, size_t len, char *why, size_t size)
{
    mode_t mask = umask(0);
    umask(mask);
    return filewrite_replace_as(path, bytes, len, 0666 & ~mask, 1, why, size);
}

int filewrite_replace_as(const char *path, const void *bytes, size_t len, mode_t mode, int durable, char *why,
                         size_t size)
{
    /* the temporary file is a new one of attn's own (O_EXCL, a name no one
     * planted): a link or a FIFO left at PATH.tmp is never followed */
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 16);
    if (!tmp) {
        snprintf(why, size, "out of memory");
        return -1;
    }
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp.XXXXXX", 12);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(why, size, "cannot write it: %s", strerror(errno));
        free(tmp);
        return -1;
    }
    (void)fcntl(fd, F_SETFD, FD_CLOEXEC);
    struct stat old;
    (void)fchmod(fd, stat(path, &old) == 0 ? old.st_mode & 0777 : mode);    /* a file replaced keeps its mode */
    const char *b = bytes;
    size_t done = 0;
    int err = 0;
    while (done < len) {
        ssize_t w = write(fd, b + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            err = w < 0 ? errno : ENOSPC;
            break;
        }
        done += (size_t)w;
    }
    if (!err && durable && fsync(fd) != 0)
        err = errno;
    if (close(fd) != 0 && !err)
        err = errno;
    if (!err && rename(tmp, path) != 0)
        err = errno;
    if (err) {
        unlink(tmp);
        snprintf(why, size, "cannot write it: %s", strerror(err));
    } else if (durable) {
        /* the rename itself outlives a crash of the machine too */
        char *slash = strrchr(tmp, '/');
        if (slash)
            slash[slash == tmp] = '\0';
        int d = open(slash ? tmp : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (d >= 0) {
            (void)fsync(d);
            close(d);
        }
    }
    free(tmp);
    return err ? -1 : 0;
}

int filewrite_append_whole(int fd, const char *bytes, size_t len)
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

FILE *filewrite_create(const char *path, char *why, size_t size)
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

int filewrite_new(const char *stem, const char *ext, const char *text, char *name, size_t name_size, char *why,
                  size_t size)
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
