/*
 * class_pack.c - a lesson and the files it loads, packed to travel to a
 * class (see class_pack.h).
 */
#include "class_pack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "class_wire.h"
#include "lessonfile.h"


int class_pack_add(ClassPack *p, const char *path, char *bytes, size_t len)
{
    ClassFile *more = realloc(p->files, (size_t)(p->n_files + 1) * sizeof *more);
    if (!more)
        return -1;
    p->files = more;
    char *copy = strdup(path);
    if (!copy)
        return -1;
    p->files[p->n_files++] = (ClassFile){ copy, bytes, len };
    return 0;
}

int class_pack_of(const Lesson *l, ClassPack *p, char *why, size_t size)
{
    memset(p, 0, sizeof *p);
    const char *path = lesson_file(l);
    size_t len;
    const char *text = lesson_source(l, &len);
    const char *base = strrchr(path, '/');
    p->name = strdup(base ? base + 1 : path);
    p->text = malloc(len + 1);
    if (!p->name || !p->text) {
        snprintf(why, size, "out of memory");
        class_pack_free(p);
        return -1;
    }
    memcpy(p->text, text, len);
    p->text[len] = '\0';
    p->len = len;
    char reason[300];
    int rc = 0;
    for (int i = 0; rc == 0 && i < lesson_n_loads(l); i++) {
        char *bytes;
        size_t n;
        if (!lessonfile_read_data(NULL, path, lesson_load_path(l, i), &bytes, &n, reason, sizeof reason)) {
            snprintf(why, size, "%s: load(\"%s\"): %s", path, lesson_load_path(l, i), reason);
            rc = -1;
        } else if (n > CLASS_FILE_MAX || class_pack_add(p, lesson_load_path(l, i), bytes, n) != 0) {
            free(bytes);
            snprintf(why, size, "%s: load(\"%s\"): too large to send to a class", path, lesson_load_path(l, i));
            rc = -1;
        }
    }
    if (rc != 0)
        class_pack_free(p);
    return rc;
}

/* The pack's loader: a file it holds, by the path the lesson writes. */
static int pack_loader(void *ctx, const char *lesson_file, const char *path, char **bytes, size_t *len, char *why,
                       size_t why_size)
{
    (void)lesson_file;
    const ClassPack *p = ctx;
    for (int i = 0; i < p->n_files; i++)
        if (strcmp(p->files[i].path, path) == 0) {
            *bytes = malloc(p->files[i].len ? p->files[i].len : 1);
            if (!*bytes) {
                snprintf(why, why_size, "out of memory");
                return 0;
            }
            memcpy(*bytes, p->files[i].bytes, p->files[i].len);
            *len = p->files[i].len;
            return 1;
        }
    snprintf(why, why_size, "the class did not send it");
    return 0;
}

Lesson *class_pack_lesson(ClassPack *p, LessonError *err)
{
    Lesson *l = lesson_parse(p->text, p->len, p->name, err);
    if (l)
        lesson_set_loader(l, pack_loader, p);
    return l;
}

void class_pack_free(ClassPack *p)
{
    for (int i = 0; i < p->n_files; i++) {
        free(p->files[i].path);
        free(p->files[i].bytes);
    }
    free(p->files);
    free(p->text);
    free(p->name);
    memset(p, 0, sizeof *p);
}
