/*
 * progress_file.c - the progress store's files on disk, where a hostile or
 * damaged file must not hurt: the store is read only when it is a regular
 * file (a FIFO in its place is refused at once, never waited on), and what
 * cannot be read is set aside under a name no file has yet, so one
 * set-aside never overwrites another.
 */
#include "progress_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A name beside path no file has yet: PATH.KIND-DATE, then -2, -3, ... so
 * one set-aside never overwrites another. Into aside; 0, or -1. */
static int aside_name(const char *path, const char *kind, int k, char *aside, size_t size)
{
    char stamp[32];
    time_t now = time(NULL);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", localtime(&now));
    if (k == 1)
        snprintf(aside, size, "%s.%s-%s", path, kind, stamp);
    else
        snprintf(aside, size, "%s.%s-%s-%d", path, kind, stamp, k);
    return 0;
}

/* Move a bad file out of the way under a name of its own. */
void progress_set_aside(const char *path, const char *why, const char *kind, char *warn, size_t size)
{
    char aside[1200];
    int rc = -1, e = 0;
    for (int k = 1; k < 1000 && rc != 0; k++) {
        aside_name(path, kind, k, aside, sizeof aside);
        rc = link(path, aside);     /* fails on a name taken: rename would overwrite it */
        e = errno;
        if (rc != 0 && e != EEXIST)
            break;
    }
    if (rc == 0 && unlink(path) == 0)
        snprintf(warn, size, "attn: %s %s; it is kept as %s and progress starts afresh", path, why, aside);
    else
        snprintf(warn, size, "attn: %s %s, and it could not be set aside: %s", path, why, strerror(rc ? e : errno));
}

/* Keep the lines that could not be read in a file of their own beside
 * path (never one that exists), so the rest of the store goes on. */
void progress_set_aside_lines(const char *path, const char *lines, size_t len, int count, char *warn, size_t size)
{
    char aside[1200];
    int fd = -1;
    for (int k = 1; k < 1000 && fd < 0; k++) {
        aside_name(path, "damaged", k, aside, sizeof aside);
        fd = open(aside, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    ssize_t w = fd >= 0 ? write(fd, lines, len) : -1;
    if (fd >= 0 && (w != (ssize_t)len || fsync(fd) != 0))
        w = -1;
    if (fd >= 0)
        close(fd);
    if (w >= 0)
        snprintf(warn, size, "attn: %d line%s of %s could not be read; %s kept in %s, the rest of your progress "
                 "is safe", count, count == 1 ? "" : "s", path, count == 1 ? "it is" : "they are", aside);
    else
        snprintf(warn, size, "attn: %d line%s of %s could not be read and could not be set aside: %s", count,
                 count == 1 ? "" : "s", path, strerror(errno));
}

/* Open path for reading only when it is a regular file: a FIFO or a device
 * put in its place is refused at once, never waited on. NULL with errno
 * (ENOENT when absent; EINVAL: not a regular file). */
FILE *progress_open_regular(const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    int flags = fcntl(fd, F_GETFL);
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        close(fd);
        errno = EINVAL;
        return NULL;
    }
    FILE *f = fdopen(fd, "r");
    if (!f)
        close(fd);
    return f;
}

