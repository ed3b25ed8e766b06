/*
 * progress_file.h - the progress store's files on disk (progress_file.c),
 * for progress.c: opened only when regular, set aside under names of their
 * own. Not for the store's users.
 */
#ifndef ATTN_PROGRESS_FILE_H
#define ATTN_PROGRESS_FILE_H

#include <stddef.h>
#include <stdio.h>

/* path opened for reading when it is a regular file; NULL with errno
 * (ENOENT when absent, EINVAL when not a regular file) otherwise. */
FILE *progress_open_regular(const char *path);

/* Move the file at path aside, as PATH.KIND-DATE (or -2, -3, ...), with a
 * one-line warning saying why and where it went, or why it could not. */
void progress_set_aside(const char *path, const char *why, const char *kind, char *warn, size_t size);

/* Keep count lines that could not be read (lines[0..len), each ending in
 * a newline) in a file of their own beside path, with a warning. */
void progress_set_aside_lines(const char *path, const char *lines, size_t len, int count, char *warn, size_t size);

#endif
