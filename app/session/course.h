/*
 * course.h - the order in which a folder's lessons are meant to be taken,
 * in parts, from the folder's COURSE file:
 *
 *     # comments and blank lines are skipped
 *     part The notebooks: self-attention step by step
 *     01-key-query.lesson
 *     02-sky-is-blue.lesson
 *     part Attention as models compute it now
 *     10-online-softmax.lesson
 *
 * Each lesson line names a .lesson file of the same folder, once. The menu
 * and `attn progress` show the lessons in this order under their parts
 * (app/session/catalogue.c); a folder without a COURSE file is one list in
 * file order.
 *
 * Ownership: a Course owns its parts and their strings; course_free
 * releases them.
 */
#ifndef ATTN_COURSE_H
#define ATTN_COURSE_H

#include <stddef.h>

typedef struct {
    char *title;
    char **files;       /* the lesson files' names, in order (no folder) */
    int n;
} CoursePart;

typedef struct {
    CoursePart *parts;
    int n_parts;
} Course;

/* The largest COURSE file read (bytes). */
#define COURSE_MAX_BYTES (64 * 1024)

/* Read dir/COURSE into c. 1 when the folder has none (c empty), 0 when it
 * was read, -1 when it is refused: why holds "FILE:LINE:COL: message"
 * (a lesson before any part, a file that is not in dir, one listed twice,
 * a part with no lessons, out of memory) and c is empty. */
int course_read(const char *dir, Course *c, char *why, size_t size);
void course_free(Course *c);

#endif
