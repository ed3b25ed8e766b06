/*
 * filewrite.h - the files attn makes for itself (filewrite.c): the state
 * directory's folders, a progress store, a head written as a lesson. Not
 * for a person's files, which lessonfile.h opens and creates.
 */
#ifndef ATTN_FILEWRITE_H
#define ATTN_FILEWRITE_H

#include <stddef.h>
#include <sys/types.h>

/* "dir/name" into out (size bytes, PATH_MAX for any path the system
 * takes): 0, or -1 with errno ENAMETOOLONG when it does not fit. A path
 * is never cut short (a 1,025-byte --out once wrote into ".../targ"). */
int filewrite_join(char *out, size_t size, const char *dir, const char *name);

/* Take the folder dir for the files attn writes there (names, a NULL-ended
 * list): made with its parents when absent. A folder that holds one of
 * names is attn's only if it holds the stamp FILEWRITE_STAMP (written by
 * this call into every folder it takes) or the file own (NULL: none; a
 * run's checkpoint.bin); otherwise it is refused, naming that file, so
 * nothing a person made there is replaced without asking. 0, or -1 with
 * why ("DIR/NAME: ..."). */
#define FILEWRITE_STAMP ".attn"
int filewrite_claim(const char *dir, const char *const *names, const char *own, char *why, size_t size);

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

#endif
