/*
 * fileread.h - the one way attn reads a file (fileread.c): a regular file
 * only (a FIFO, a device or a folder refused at once, never waited on),
 * read whole up to a limit or mapped where it lies. What a file is for
 * (a lesson, its data, a model's weights, a progress store) is the
 * caller's; the words of a refusal are too, from the status given here.
 */
#ifndef ATTN_FILEREAD_H
#define ATTN_FILEREAD_H

#include <stddef.h>

/* Why a file could not be read whole. */
typedef enum {
    FILEREAD_OK,
    FILEREAD_OPEN,          /* it could not be opened: errno says why */
    FILEREAD_DIR,           /* a folder, not a file */
    FILEREAD_NOT_FILE,      /* a FIFO, a socket or a device: *kind says which */
    FILEREAD_BIG,           /* larger than the limit */
    FILEREAD_NOMEM,
    FILEREAD_IO,            /* a read failed */
} FileReadStatus;

/* Read the regular file path whole into *text (malloc'd, not
 * NUL-terminated; the caller frees it) and *len. At most limit bytes: past
 * it FILEREAD_BIG, unless soft, when the read stops a little past the limit
 * and the caller judges the excess (the lesson parser names the line).
 * *kind (may be NULL) is set to what the path is for FILEREAD_NOT_FILE
 * ("a FIFO", "a character device" ...). FILEREAD_OK, or the status with
 * *text NULL. */
FileReadStatus fileread_whole(const char *path, size_t limit, int soft, char **text, size_t *len, const char **kind);

/* fileread_whole, not soft, with the refusal in words into why ("it is a
 * FIFO, not a regular file"): 0, or -1. The one way attn reads a file a
 * person hands it. */
int fileread_text(const char *path, size_t limit, char **text, size_t *len, char *why, size_t size);

/* Map the regular file path read-only (a model's weights, read where they
 * lie): *bytes and *len until fileread_unmap. A FIFO, a device or a
 * directory is refused at once. 0, or -1 with why. */
int fileread_map(const char *path, const unsigned char **bytes, size_t *len, char *why, size_t size);
void fileread_unmap(const unsigned char *bytes, size_t len);

/* What a path that is not a regular file is ("a FIFO", "a socket", "a
 * character device", "a block device", else "not a regular file"), from
 * its stat(2) mode, for a refusal. */
const char *fileread_kind(unsigned mode);

#endif
