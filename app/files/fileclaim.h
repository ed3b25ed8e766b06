/*
 * fileclaim.h - whether attn may write a set of files into a folder
 * (fileclaim.c), so nothing a person made there is replaced or lost.
 *
 * Two rules, for two kinds of set, and not one: they answer different
 * questions and their users need both.
 *  - fileclaim_stamp: a set whose names are known before a byte is written
 *    (a training run's files, a head written as a lesson), in a folder
 *    that may hold a person's other files beside them (the text a run
 *    trains on, notes). Only the names attn would replace matter, and a
 *    stamp file says the folder is attn's before any of them exists, so a
 *    run stopped before its first checkpoint may start again there.
 *  - fileclaim_marks: a set whose names depend on what is written (a
 *    lesson's pictures, one a pane of each screen), in a folder a person
 *    takes away whole (slides). Any file attn did not write would be lost
 *    among them, so every file there must carry attn's mark, and the
 *    folder is left with nothing but the pictures (no stamp).
 * Held to one rule, the first would refuse a run folder holding the
 * training text, or the second would let notes.txt sit among the slides
 * and leave a stamp in them.
 */
#ifndef ATTN_FILECLAIM_H
#define ATTN_FILECLAIM_H

#include <stddef.h>

/* The stamp fileclaim_stamp leaves in a folder it takes (attn(1), FILES). */
#define FILECLAIM_STAMP ".attn"

/* Take the folder dir for the files attn writes there (names, a NULL-ended
 * list): made with its parents (0700) when absent. A folder that holds one
 * of names is attn's only if it holds the stamp FILECLAIM_STAMP (written
 * by this call into every folder it takes) or the file own (NULL: none; a
 * run's checkpoint.bin); otherwise it is refused, naming that file. 0, or
 * -1 with why ("DIR/NAME: ...", the names as they are: the caller escapes
 * why before showing it). */
int fileclaim_stamp(const char *dir, const char *const *names, const char *own, char *why, size_t size);

/* Take the folder dir a person names for files attn writes into it, each
 * with mark in its first 512 bytes (`attn run --svg DIR`): made, with the
 * folders above it (0777 less the umask), when absent; refused when it
 * holds anything but regular files with mark. 0, or -1 with why ("it
 * holds notes.txt, which attn did not write: ...", the name as it is: the
 * caller escapes why before showing it). */
int fileclaim_marks(const char *dir, const char *mark, char *why, size_t size);

#endif
