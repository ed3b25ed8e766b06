/*
 * filewrite.h - the files attn makes for itself (filewrite.c): the state
 * directory's folders, a progress store, a head written as a lesson. Not
 * for a person's files, which lessonfile.h opens and creates.
 */
#ifndef ATTN_FILEWRITE_H
#define ATTN_FILEWRITE_H

#include <stddef.h>

/* Make dir and the folders above it (0700): 0, or -1 with errno. */
int filewrite_dirs(const char *dir);
/* The same with the folders' mode (before the umask): 0777 for a folder a
 * person names. */
int filewrite_dirs_mode(const char *dir, unsigned mode);
/* Write path whole, atomically (a temporary file beside it, synced, then
 * renamed over it): a reader sees the old file or the new, never part. 0,
 * or -1 with why. */
int filewrite_replace(const char *path, const void *bytes, size_t len, char *why, size_t size);

#endif
