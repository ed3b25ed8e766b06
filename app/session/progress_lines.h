/*
 * progress_lines.h - the progress store's format, line by line
 * (progress_lines.c): a header "attn-progress VERSION", then L, E, H and B
 * lines of tab-separated fields (tabs, newlines and backslashes escaped).
 * B lines (bug hunts) came after version 2 without a new version: an
 * older attn sets them aside one by one and keeps every other line.
 * Private to the store (progress.c).
 */
#ifndef ATTN_PROGRESS_LINES_H
#define ATTN_PROGRESS_LINES_H

#include <stdio.h>

#include "progress.h"

#define PROGRESS_MAGIC "attn-progress"
#define PROGRESS_VERSION 2

/* Read one line (its newline removed; the text is changed) into recs[0..n),
 * adding a lesson or an exercise as it needs. 0, or -1 when the line is
 * not one of the format (or memory ran out): the caller sets it aside. */
int progress_parse_line(char *line, ProgressLesson **recs, int *n);

/* The record of lesson (added when missing), and of an exercise of it by
 * key and question; NULL when out of memory. */
ProgressLesson *progress_lesson_rec(ProgressLesson **recs, int *n, const char *lesson);
ProgressExercise *progress_exercise_rec(ProgressLesson *r, const char *key, const char *question);
/* The record of the hunt of seed (added when missing); NULL: no memory. */
ProgressBug *progress_bug_rec(ProgressLesson *r, unsigned seed);

/* The header and every record of recs[0..n) as lines. */
void progress_write_lines(FILE *f, const ProgressLesson *recs, int n);

#endif
