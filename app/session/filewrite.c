/*
 * filewrite.c - the files attn makes for itself, written one way
 * (filewrite.h): a folder with the folders above it, a file replaced
 * whole and atomically.
 */
#include "filewrite.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int filewrite_dirs(const char *dir)
{
    return filewrite_dirs_mode(dir, 0700);
}

int filewrite_dirs_mode(const char *dir, unsigned mode)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(p, (mode_t)mode) != 0 && errno != EEXIST)
                return -1;
            *s = '/';
        }
    return mkdir(p, (mode_t)mode) != 0 && errno != EEXIST ? -1 : 0;
}

int filewrite_replace(const char *path, const void *bytes, size_t len, char *why, size_t size)
{
    char tmp[PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        snprintf(why, size, "cannot write it: %s", strerror(errno));
        return -1;
    }
    int ok = fwrite(bytes, 1, len, f) == len && fflush(f) == 0 && fsync(fileno(f)) == 0;
    int err = errno;
    if (fclose(f) != 0 && ok) {
        ok = 0;
        err = errno;
    }
    if (!ok || rename(tmp, path) != 0) {
        if (ok)
            err = errno;
        unlink(tmp);
        snprintf(why, size, "cannot write it: %s", strerror(err ? err : EIO));
        return -1;
    }
    return 0;
}
