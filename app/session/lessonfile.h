/*
 * lessonfile.h - lesson files on disk: read one (with the language's size
 * limit, through app/files/fileread.h), parse it, read the data files it
 * loads, list a folder's lessons, and find the default lesson set.
 *
 * The default set is, in order: $ATTN_LESSONS; lessons/ beside the running
 * binary or one level up (a build tree); ../share/attn/lessons from the
 * binary (an install under any PREFIX); the PREFIX compiled in.
 */
#ifndef ATTN_LESSONFILE_H
#define ATTN_LESSONFILE_H

#include <stddef.h>

#include "lesson.h"
#include "filewrite.h"

/* Read and parse path. NULL and err (with file set to path) when the file
 * cannot be read, is too large, or is refused by the parser. The caller
 * frees the Lesson with lesson_free. Its load() calls read their files
 * through lessonfile_read_data. */
Lesson *lessonfile_load(const char *path, LessonError *err);
/* The same, with every error the parser can find of the file
 * (lesson_parse_all): up to max into errs, how many in *n_errs (1 when
 * the file cannot be read; 0 on success). */
Lesson *lessonfile_load_all(const char *path, LessonError *errs, int max, int *n_errs);

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
