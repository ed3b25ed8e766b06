/*
 * lessonfile.c - reading lesson files and finding the default lesson set.
 * The parser never touches the disk; this is where text comes from.
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
    FILE *f = fopen(path, "rb");
    if (!f) {
        io_error(err, path, "cannot open the lesson: %s", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        io_error(err, path, "%s", "this is a directory, not a lesson file");
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *text = malloc(cap);
    while (text) {
        if (len == cap) {
            if (cap > (size_t)LESSON_MAX_BYTES)
                break;
            char *bigger = realloc(text, cap * 2);
            if (!bigger) {
                free(text);
                text = NULL;
                break;
            }
            text = bigger;
            cap *= 2;
        }
        size_t got = fread(text + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    int read_failed = ferror(f);
    fclose(f);
    if (!text) {
        io_error(err, path, "%s", "out of memory reading the lesson");
        return NULL;
    }
    if (read_failed) {
        free(text);
        io_error(err, path, "%s", "the lesson could not be read");
        return NULL;
    }
    /* the read stops soon past the limit; lesson_parse refuses the excess */
    Lesson *l = lesson_parse(text, len, path, err);
    free(text);
    return l;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *lessonfile_default_dir(void)
{
    static char found[PATH_MAX + 32];
    const char *env = getenv("ATTN_LESSONS");
    if (env && *env && is_dir(env)) {
        snprintf(found, sizeof found, "%s", env);
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
            const char *tries[] = { "/lessons", "/../lessons", "/../share/attn/lessons" };
            for (size_t i = 0; i < sizeof tries / sizeof *tries; i++) {
                char candidate[PATH_MAX + 32];
                snprintf(candidate, sizeof candidate, "%s%s", exe, tries[i]);
                if (is_dir(candidate)) {
                    if (!realpath(candidate, found))
                        snprintf(found, sizeof found, "%s", candidate);
                    return found;
                }
            }
        }
    }
    snprintf(found, sizeof found, "%s/lessons", ATTN_DATADIR);
    if (is_dir(found))
        return found;
    return NULL;
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
