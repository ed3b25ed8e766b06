/*
 * json_out.h - `attn run --json FILE`: the lesson as one JSON object, the
 * shape of LESSON-FORMAT.md ("The command line"), documented in full in
 * lessons/README.md.
 */
#ifndef ATTN_JSON_OUT_H
#define ATTN_JSON_OUT_H

#include <stdio.h>

#include "lesson.h"
#include "sheet.h"

/* Print the JSON object of l as v shows it to out, ending in a newline:
 * 0, or -1 when it could not be made or written (as jw_print).
 * v->with_answers 0 leaves out each exercise's answer and writes "?" for
 * the cells a student's sheet hides. On a bug handout (v->bug) the
 * numbers are the bug's, and with_bug adds a "bug" object saying where
 * (seed, step, matrix, kind, statement, fixed). */
int json_print(FILE *out, const Lesson *l, const SheetView *v, int with_bug);

#endif
