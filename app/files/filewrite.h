/*
 * filewrite.h - the ways attn writes a file (filewrite.c). The files it
 * makes for itself (the state directory's folders, a progress store, a
 * head written as a lesson, a checkpoint) are replaced whole through a
 * temporary file of their own; a file a person names (a report, a handout)
 * is created as a regular file, never over a lesson; a new file goes
 * beside any there; a line goes onto a log whole or not at all. Whether a
 * folder is attn's to write into is fileclaim.h's.
 */
#ifndef ATTN_FILEWRITE_H
#define ATTN_FILEWRITE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* "dir/name" into out (size bytes, PATH_MAX for any path the system
 * takes): 0, or -1 with errno ENAMETOOLONG when it does not fit. A path
 * is never cut short (a 1,025-byte --out once wrote into ".../targ"). */
int filewrite_join(char *out, size_t size, const char *dir, const char *name);

/* Make dir and the folders above it (0700), of any length: 0, or -1 with
 * errno (ENOTDIR where a file, not a folder, stands in the way). */
int filewrite_dirs(const char *dir);
/* The same with the folders' mode (before the umask): 0777 for a folder a
 * person names. */
int filewrite_dirs_mode(const char *dir, unsigned mode);
/* Write path whole, atomically (a new temporary file of attn's own beside
 * it, made exclusively so nothing planted there is followed, synced, then
 * renamed over it, and the folder synced): a reader sees the old file or
 * the new, never part. A file replaced keeps its mode; a new one is
 * 0666 less the umask. 0, or -1 with why. */
int filewrite_replace(const char *path, const void *bytes, size_t len, char *why, size_t size);
/* The same with a new file's mode, and durable 0 to skip the syncs (a
 * killed process still never leaves part of a file; a crash of the machine
 * may keep the old one). */
int filewrite_replace_as(const char *path, const void *bytes, size_t len, mode_t mode, int durable, char *why,
                         size_t size);


/* Open path to write a file attn makes (a report, a handout, a dump),
 * the one way it writes a file a person names: a lesson (a name ending in
 * .lesson) is never overwritten, and a FIFO, a device or a directory is
 * refused at once, never waited on. The stream, or NULL with why. */
FILE *filewrite_create(const char *path, char *why, size_t size);

/* A new file of text beside any there: stem + ext, else stem-2 + ext,
 * stem-3 + ext ... up to 999, never over a file that is there (a
 * person's `w` on the screen, pressed again, keeps both); written whole or
 * not at all. 0 and the name used (into name), or -1 with why. */
int filewrite_new(const char *stem, const char *ext, const char *text, char *name, size_t name_size, char *why,
                  size_t size);

/* Append len bytes (one or more whole lines) to fd, opened O_APPEND, as
 * one write: all of them or none, a write the disk took only part of cut
 * off again, so a full disk never leaves half a line for the next to glue
 * onto. 0, or -1 with errno. */
int filewrite_append_whole(int fd, const char *bytes, size_t len);

#endif
