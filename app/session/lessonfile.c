/*
 * lessonfile.c - lesson files on disk: a lesson read and parsed, the data
 * files it loads, the lessons of a folder, and where the shipped lessons
 * and models are. The parser never touches the disk; this is where its
 * text comes from, read through app/files/fileread.c.
 */
#include "lessonfile.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileread.h"

#ifndef ATTN_DATADIR
#define ATTN_DATADIR "/usr/local/share/attn"
#endif

static void io_error(LessonError *err, const char *path, const char *fmt, const char *detail)
{
    memset(err, 0, sizeof *err);
    err->code = ATTN_E_IO;
    snprintf(err->file, sizeof err->file, "%s", path);
    err->line = 0;
    err->col = 0;
    snprintf(err->msg, sizeof err->msg, fmt, detail);
}

Lesson *lessonfile_load(const char *path, LessonError *err)
{
    int n;
    return lessonfile_load_all(path, err, 1, &n);
}

Lesson *lessonfile_load_all(const char *path, LessonError *errs, int max, int *n_errs)
{
    LessonError *err = errs;
    *n_errs = 1;    /* until the file is read */
    char *text;
    size_t len;
    const char *kind = "";
    switch (fileread_whole(path, (size_t)LESSON_MAX_BYTES, 1, &text, &len, &kind)) {
    case FILEREAD_OPEN:
        io_error(err, path, "cannot open the lesson: %s", strerror(errno));
        return NULL;
    case FILEREAD_DIR:
        io_error(err, path, "%s", "this is a directory, not a lesson file");
        return NULL;
    case FILEREAD_NOT_FILE:
        io_error(err, path, "this is %s, not a lesson file", kind);
        return NULL;
    case FILEREAD_NOMEM:
        io_error(err, path, "%s", "out of memory reading the lesson");
        return NULL;
    case FILEREAD_IO: case FILEREAD_BIG:
        io_error(err, path, "%s", "the lesson could not be read");
        return NULL;
    case FILEREAD_OK:
        break;
    }
    /* the read stops soon past the limit; lesson_parse refuses the excess */
    Lesson *l = lesson_parse_all(text, len, path, errs, max, n_errs);
    free(text);
    lesson_set_loader(l, lessonfile_read_data, NULL);
    return l;
}

const char *lessonfile_data_path(const char *lesson_path, const char *path, char *buf, size_t size)
{
    const char *slash = lesson_path ? strrchr(lesson_path, '/') : NULL;
    if (path[0] == '/' || !slash)
        snprintf(buf, size, "%s", path);
    else
        snprintf(buf, size, "%.*s/%s", (int)(slash - lesson_path), lesson_path, path);
    return buf;
}

int lessonfile_read_data(void *ctx, const char *lesson_path, const char *path, char **bytes, size_t *len,
                         char *why, size_t why_size)
{
    (void)ctx;
    char full[PATH_MAX + 1];
    if (strlen(path) + (lesson_path ? strlen(lesson_path) : 0) + 2 > sizeof full) {
        snprintf(why, why_size, "the path is too long");
        return 0;
    }
    lessonfile_data_path(lesson_path, path, full, sizeof full);
    const char *kind = "";
    switch (fileread_whole(full, (size_t)LESSONFILE_MAX_DATA, 0, bytes, len, &kind)) {
    case FILEREAD_OK:
        return 1;
    case FILEREAD_OPEN:
        snprintf(why, why_size, "cannot open %s: %s", full, strerror(errno));
        return 0;
    case FILEREAD_DIR:
        snprintf(why, why_size, "%s is a directory, not a data file", full);
        return 0;
    case FILEREAD_NOT_FILE:
        snprintf(why, why_size, "%s is %s, not a data file", full, kind);
        return 0;
    case FILEREAD_BIG:
        snprintf(why, why_size, "the file is larger than the limit of %ld MB", (long)(LESSONFILE_MAX_DATA >> 20));
        return 0;
    case FILEREAD_NOMEM:
        snprintf(why, why_size, "out of memory reading the file");
        return 0;
    case FILEREAD_IO:
        break;
    }
    snprintf(why, why_size, "the file could not be read");
    return 0;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The folder name that ships beside attn: $env when it names a folder,
 * else name beside the running binary or one level up (a build tree),
 * ../share/attn/name from the binary (an install under any PREFIX), the
 * PREFIX compiled in; NULL when none exists. found holds it. */
static const char *shipped_dir(const char *env_name, const char *name, char *found, size_t size)
{
    const char *env = env_name ? getenv(env_name) : NULL;
    if (env && *env && is_dir(env)) {
        snprintf(found, size, "%s", env);
        return found;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            /* the binary at the top of a build tree, in build-asan/, or
             * installed as PREFIX/bin/attn whatever PREFIX it was built with */
            const char *tries[] = { "/", "/../", "/../share/attn/" };
            for (size_t i = 0; i < sizeof tries / sizeof *tries; i++) {
                char candidate[PATH_MAX + 64];
                snprintf(candidate, sizeof candidate, "%s%s%s", exe, tries[i], name);
                if (is_dir(candidate)) {
                    if (!realpath(candidate, found))
                        snprintf(found, size, "%s", candidate);
                    return found;
                }
            }
        }
    }
    snprintf(found, size, "%s/%s", ATTN_DATADIR, name);
    return is_dir(found) ? found : NULL;
}

const char *lessonfile_default_dir(void)
{
    static char found[PATH_MAX + 64];
    return shipped_dir("ATTN_LESSONS", "lessons", found, sizeof found);
}

const char *lessonfile_shipped_models(void)
{
    static char found[PATH_MAX + 64];
    return shipped_dir(NULL, "models", found, sizeof found);
}

static int compare_paths(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **lessonfile_list(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    size_t n = 0, cap = 16;
    char **paths = malloc(cap * sizeof *paths);
    struct dirent *e;
    while (paths && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len <= 7 || strcmp(e->d_name + len - 7, ".lesson") != 0 || e->d_name[0] == '.')
            continue;
        if (n + 1 >= cap) {
            char **bigger = realloc(paths, cap * 2 * sizeof *paths);
            if (!bigger) {
                lessonfile_list_free(paths);
                paths = NULL;
                break;
            }
            paths = bigger;
            cap *= 2;
        }
        size_t size = strlen(dir) + len + 2;
        paths[n] = malloc(size);
        if (!paths[n])
            break;
        snprintf(paths[n], size, "%s/%s", dir, e->d_name);
        paths[++n] = NULL;
    }
    closedir(d);
    if (paths) {
        paths[n] = NULL;
        qsort(paths, n, sizeof *paths, compare_paths);
    }
    return paths;
}

void lessonfile_list_free(char **paths)
{
    if (!paths)
        return;
    for (char **p = paths; *p; p++)
        free(*p);
    free(paths);
}
