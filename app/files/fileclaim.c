/*
 * fileclaim.c - taking a folder for a set of files (fileclaim.h): by a
 * stamp beside the known names, or by the mark inside every file.
 */
#include "fileclaim.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileread.h"
#include "filewrite.h"

/* Is there something at dir/name (of any kind; stat never waits on a FIFO)? */
static int holds(const char *dir, const char *name)
{
    char path[PATH_MAX];
    struct stat st;
    return filewrite_join(path, sizeof path, dir, name) == 0 && lstat(path, &st) == 0;
}

int fileclaim_stamp(const char *dir, const char *const *names, const char *own, char *why, size_t size)
{
    struct stat st;
    int existed = stat(dir, &st) == 0;
    if (filewrite_dirs(dir) != 0) {
        snprintf(why, size, "%s: cannot make the folder: %s", dir,
                 errno == ENOTDIR ? "a file, not a folder, is in the way" : strerror(errno));
        return -1;
    }
    int ours = !existed || holds(dir, FILECLAIM_STAMP) || (own && holds(dir, own));
    for (int i = 0; !ours && names[i]; i++)
        if (holds(dir, names[i])) {
            snprintf(why, size, "%s/%s: attn did not write it, and would replace it: choose another folder, or move "
                     "it away", dir, names[i]);
            return -1;
        }
    char stamp[PATH_MAX], msg[300];
    static const char text[] = "attn wrote the files of this folder and may replace them\n";
    if (filewrite_join(stamp, sizeof stamp, dir, FILECLAIM_STAMP) != 0) {
        snprintf(why, size, "%s: the path is too long", dir);
        return -1;
    }
    if (!holds(dir, FILECLAIM_STAMP) && filewrite_replace(stamp, text, sizeof text - 1, msg, sizeof msg) != 0) {
        snprintf(why, size, "%s: %s", stamp, msg);
        return -1;
    }
    return 0;
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

int fileclaim_marks(const char *dir, const char *mark, char *why, size_t size)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        if (errno == ENOENT && filewrite_dirs_mode(dir, 0777) == 0)
            return 0;
        snprintf(why, size, "cannot make the folder: %s", strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(why, size, "it is %s, not a folder", S_ISREG(st.st_mode) ? "a file" : fileread_kind(st.st_mode));
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
        char path[PATH_MAX + 256];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && holds_mark(path, mark))
            continue;
        snprintf(why, size, "it holds %s, which attn did not write: name a new or empty folder",
                 e->d_name);
        rc = -1;
    }
    closedir(d);
    return rc;
}
