/*
 * panes.h - which matrices a screen of a lesson shows, and which of them
 * as heatmaps: one rule for the lesson screen and for the pictures of
 * `attn run --svg`, so a slide holds what the screen showed.
 */
#ifndef ATTN_PANES_H
#define ATTN_PANES_H

#include "lesson.h"

/* The panes of a screen of l: st's `show` list, else what st defines; the
 * set-up's inputs when st is NULL. How many, and the name of pane i. */
int panes_count(const Lesson *l, const LessonStep *st);
const char *panes_name(const Lesson *l, const LessonStep *st, int i);

/* 1 when st (NULL: the set-up, which has none) draws name as a heatmap. */
int panes_heat(const LessonStep *st, const char *name);

#endif
