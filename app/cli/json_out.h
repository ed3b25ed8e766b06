/*
 * json_out.h - `attn run --json FILE`: the lesson as one JSON object, the
 * shape of LESSON-FORMAT.md ("The command line"), documented in full in
 * lessons/README.md.
 */
#ifndef ATTN_JSON_OUT_H
#define ATTN_JSON_OUT_H

#include <stdio.h>

#include "lesson.h"

/* Print the JSON object of l, evaluated in s, to out, ending in a newline.
 * with_answers 0 leaves out each exercise's answer and writes "?" for the
 * cells a student's sheet hides. */
/* bug: the lesson is shown with it planted (s its state), and a "bug"
 * object says where (seed, step, matrix, kind, statement, fixed); NULL:
 * none. */
void json_print(FILE *out, const Lesson *l, const LessonState *s, int with_answers, const LessonBug *bug);

#endif
