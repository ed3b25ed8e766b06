/*
 * fileread.c - reading a file (fileread.h): opened without blocking, held
 * to a regular file by fstat before a byte is read, its size checked
 * before its bytes are, then read whole or mapped.
 */
#include "fileread.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

const char *fileread_kind(unsigned mode)
{
    mode_t m = (mode_t)mode;
    return S_ISFIFO(m) ? "a FIFO" : S_ISSOCK(m) ? "a socket" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : "not a regular file";
}

FileReadStatus fileread_whole(const char *path, size_t limit, int soft, char **text, size_t *len, const char **kind)
{
    *text = NULL;
    *len = 0;
    /* opened without blocking: a FIFO with no writer would wait forever;
     * only a regular file is read */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return FILEREAD_OPEN;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int e = errno;
        FileReadStatus why = S_ISDIR(st.st_mode) ? FILEREAD_DIR : FILEREAD_NOT_FILE;
        if (kind)
            *kind = fileread_kind(st.st_mode);
        close(fd);
        errno = e;
        return why;
    }
    /* the size first: a 5 GB sparse file once took 16 s and 4.2 GB of
     * memory before it was called too large */
    if (!soft && (uint64_t)st.st_size > (uint64_t)limit) {
        close(fd);
        return FILEREAD_BIG;
    }
    int flags = fcntl(fd, F_GETFL);
    FILE *f = flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 ? NULL : fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return FILEREAD_OPEN;
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    FileReadStatus rs = FILEREAD_OK;
    while (buf) {
        if (n == cap) {
            if (cap > limit) {
                if (!soft)
                    rs = FILEREAD_BIG;
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
    if (rs == FILEREAD_OK && !soft && n > limit)
        rs = FILEREAD_BIG;
    int failed = ferror(f);
    fclose(f);
    if (!buf)
        return FILEREAD_NOMEM;
    if (rs == FILEREAD_OK && failed)
        rs = FILEREAD_IO;
    if (rs != FILEREAD_OK) {
        free(buf);
        return rs;
    }
    *text = buf;
    *len = n;
    return FILEREAD_OK;
}

int fileread_text(const char *path, size_t limit, char **text, size_t *len, char *why, size_t size)
{
    const char *kind = "";
    switch (fileread_whole(path, limit, 0, text, len, &kind)) {
    case FILEREAD_OK:
        return 0;
    case FILEREAD_OPEN:
        snprintf(why, size, "cannot open it: %s", strerror(errno));
        break;
    case FILEREAD_DIR:
        snprintf(why, size, "it is a directory, not a file");
        break;
    case FILEREAD_NOT_FILE:
        snprintf(why, size, "it is %s, not a regular file", kind);
        break;
    case FILEREAD_BIG:
        snprintf(why, size, "it is larger than %zu bytes", limit);
        break;
    case FILEREAD_NOMEM:
        snprintf(why, size, "out of memory reading it");
        break;
    case FILEREAD_IO:
        snprintf(why, size, "it could not be read: %s", strerror(errno ? errno : EIO));
        break;
    }
    return -1;
}

int fileread_map(const char *path, const unsigned char **bytes, size_t *len, char *why, size_t size)
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
                 fileread_kind(st.st_mode));
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

void fileread_unmap(const unsigned char *bytes, size_t len)
{
    if (bytes && len > 0)
        munmap((void *)bytes, len);
}
