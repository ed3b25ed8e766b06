/*
 * lessonfile.h - lesson files on disk: read one (with the language's size
 * limit), parse it, and find the default lesson set.
 *
 * The default set is, in order: $ATTN_LESSONS; lessons/ beside the running
 * binary or one level up (a build tree); ../share/attn/lessons from the
 * binary (an install under any PREFIX); the PREFIX compiled in.
 */
#ifndef ATTN_LESSONFILE_H
#define ATTN_LESSONFILE_H

#include <stdio.h>

#include "lesson.h"

/* Read and parse path. NULL and err (with file set to path) when the file
 * cannot be read, is too large, or is refused by the parser. The caller
 * frees the Lesson with lesson_free. Its load() calls read their files
 * through lessonfile_read_data. */
Lesson *lessonfile_load(const char *path, LessonError *err);

/* Read the regular file path whole (at most limit bytes) into *text
 * (malloc'd, not NUL-terminated) and *len: the one way attn reads a file a
 * person hands it. A FIFO, a device or a directory is refused at once,
 * never waited on. 0, or -1 with why ("it is a FIFO, not a regular file"). */
int lessonfile_read_text(const char *path, size_t limit, char **text, size_t *len, char *why, size_t size);

/* Map the regular file path read-only (a model's weights, read where they
 * lie): *bytes and *len until lessonfile_unmap. A FIFO, a device or a
 * directory is refused at once. 0, or -1 with why. */
int lessonfile_map(const char *path, const unsigned char **bytes, size_t *len, char *why, size_t size);
void lessonfile_unmap(const unsigned char *bytes, size_t len);
/* Open path to write a file attn makes (a report, a handout, a dump),
 * the one way it writes a file a person names: a lesson (a name ending in
 * .lesson) is never overwritten, and a FIFO, a device or a directory is
 * refused at once, never waited on. The stream, or NULL with why. */
FILE *lessonfile_create(const char *path, char *why, size_t size);
/* A new file of text beside any there: stem + ext, else stem-2 + ext,
 * stem-3 + ext ... up to 999, never over a file that is there (a
 * person's `w` on the screen, pressed again, keeps both); written whole or
 * not at all. 0 and the name used (into name), or -1 with why. */
int lessonfile_write_new(const char *stem, const char *ext, const char *text, char *name, size_t name_size,
                         char *why, size_t size);
/* A folder a person names for the files attn writes into it (`attn run
 * --svg DIR`): made, with the folders above it, when absent; refused when
 * it holds anything but regular files with mark in their first 512 bytes,
 * so no file attn did not write is overwritten or lost among them. 0, or
 * -1 with why ("it holds notes.txt, which attn did not write: ..."). */
int lessonfile_own_dir(const char *dir, const char *mark, char *why, size_t size);

/* Append len bytes (one or more whole lines) to fd, opened O_APPEND, as
 * one write: all of them or none, a write the disk took only part of cut
 * off again, so a full disk never leaves half a line for the next to glue
 * onto. 0, or -1 with errno. */
int lessonfile_append_whole(int fd, const char *bytes, size_t len);

/* The largest data file load() reads (bytes). */
#define LESSONFILE_MAX_DATA (1L << 26)

/* Where load("path") in the lesson at lesson_path finds its file: beside
 * the lesson (an absolute path stands as it is). Into buf; returns buf. */
const char *lessonfile_data_path(const char *lesson_path, const char *path, char *buf, size_t size);

/* The LessonLoader of lessons read from disk (see lesson.h): the file
 * lessonfile_data_path names, read whole up to LESSONFILE_MAX_DATA. */
int lessonfile_read_data(void *ctx, const char *lesson_path, const char *path, char **bytes, size_t *len,
                         char *why, size_t why_size);

/* The directory of the default lesson set, or NULL when none exists.
 * Returns a static buffer. */
const char *lessonfile_default_dir(void);
/* The folder of the models attn ships (models/, found as the lessons
 * are, without an environment variable), or NULL. A static buffer. */
const char *lessonfile_shipped_models(void);

/* The *.lesson files of dir, sorted by name, as a NULL-terminated array of
 * malloc'd paths (free with lessonfile_list_free). NULL when dir cannot be
 * read; an empty array when it holds no lessons. */
char **lessonfile_list(const char *dir);
void lessonfile_list_free(char **paths);

#endif
