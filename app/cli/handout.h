/*
 * handout.h - `attn run FILE`: the lesson as a plain-text handout (title,
 * about, tokens, set-up, every step with its wrapped prose, its matrices
 * with labelled axes and shaded heatmap rows, its exercises and hints).
 */
#ifndef ATTN_HANDOUT_H
#define ATTN_HANDOUT_H

#include <stdio.h>

#include "lesson.h"

/* Print the handout of l, evaluated in s, to out. with_answers 0 leaves the
 * answers out (hints stay) so the sheet can be handed to students. */
void handout_print(FILE *out, const Lesson *l, const LessonState *s, int with_answers);

#endif
