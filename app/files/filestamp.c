/*
 * filestamp.c - file stamps (see filestamp.h): stat(2), compared field by
 * field.
 */
#include "filestamp.h"

#include <string.h>
#include <sys/stat.h>

FileStamp file_stamp(const char *path)
{
    FileStamp f;
    memset(&f, 0, sizeof f);
    struct stat st;
    if (!path || stat(path, &st) != 0)
        return f;
    f.exists = 1;
    f.dev = (unsigned long long)st.st_dev;
    f.ino = (unsigned long long)st.st_ino;
    f.size = (long long)st.st_size;
    f.mtime_s = (long long)st.st_mtim.tv_sec;
    f.mtime_ns = (long long)st.st_mtim.tv_nsec;
    return f;
}

int file_stamp_same(const FileStamp *a, const FileStamp *b)
{
    return a->exists == b->exists && a->dev == b->dev && a->ino == b->ino && a->size == b->size
        && a->mtime_s == b->mtime_s && a->mtime_ns == b->mtime_ns;
}
