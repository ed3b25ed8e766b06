/*
 * filewrite.c - the files attn makes for itself, written one way
 * (filewrite.h): a folder with the folders above it, a file replaced
 * whole and atomically through a temporary file of its own.
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

/* Is there something at dir/name (of any kind; stat never waits on a FIFO)? */
static int holds(const char *dir, const char *name)
{
    char path[PATH_MAX];
    struct stat st;
    return filewrite_join(path, sizeof path, dir, name) == 0 && lstat(path, &st) == 0;
}

int filewrite_claim(const char *dir, const char *const *names, const char *own, char *why, size_t size)
{
    struct stat st;
    int existed = stat(dir, &st) == 0;
    if (filewrite_dirs(dir) != 0) {
        snprintf(why, size, "%s: cannot make the folder: %s", dir,
                 errno == ENOTDIR ? "a file, not a folder, is in the way" : strerror(errno));
        return -1;
    }
    int ours = !existed || holds(dir, FILEWRITE_STAMP) || (own && holds(dir, own));
    for (int i = 0; !ours && names[i]; i++)
        if (holds(dir, names[i])) {
            snprintf(why, size, "%s/%s: attn did not write it, and would replace it: choose another folder, or move "
                     "it away", dir, names[i]);
            return -1;
        }
    char stamp[PATH_MAX], msg[300];
    static const char text[] = "attn wrote the files of this folder and may replace them\n";
    if (filewrite_join(stamp, sizeof stamp, dir, FILEWRITE_STAMP) != 0) {
        snprintf(why, size, "%s: the path is too long", dir);
        return -1;
    }
    if (!holds(dir, FILEWRITE_STAMP) && filewrite_replace(stamp, text, sizeof text - 1, msg, sizeof msg) != 0) {
        snprintf(why, size, "%s: %s", stamp, msg);
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
