/*
 * class_pack.h - a lesson as it travels to the students of a class: its
 * text and the files its load() lines read, so a student needs no files of
 * their own. The instructor packs the lesson its session parsed; a student opens the pack
 * as a lesson whose load() reads from the pack, never from their disk.
 *
 * Ownership: a ClassPack owns its name, text and files; class_pack_free
 * releases them. A Lesson opened from a pack borrows the pack: free the
 * lesson first.
 */
#ifndef ATTN_CLASS_PACK_H
#define ATTN_CLASS_PACK_H

#include <stddef.h>

#include "lesson.h"

typedef struct {
    char *path;         /* as the lesson's load() writes it */
    char *bytes;
    size_t len;
} ClassFile;

typedef struct ClassPack {
    char *name;         /* the lesson file's name, without its folder */
    char *text;
    size_t len;
    ClassFile *files;
    int n_files;
} ClassPack;

/* Pack lesson l as it was parsed (its text) with the files its load()
 * lines read, beside its file: what the instructor's session holds, sent
 * as it is, never parsed again. 0, or -1 with why. */
int class_pack_of(const Lesson *l, ClassPack *p, char *why, size_t size);
/* Add a file received (path as the lesson writes it; bytes taken over). 0,
 * or -1 when out of memory. */
int class_pack_add(ClassPack *p, const char *path, char *bytes, size_t len);
/* The lesson of a pack, its load() reading from the pack. NULL with err. */
Lesson *class_pack_lesson(ClassPack *p, LessonError *err);
void class_pack_free(ClassPack *p);

#endif
