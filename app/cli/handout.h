/*
 * handout.h - `attn run FILE`: the lesson as a plain-text handout (title,
 * about, tokens, set-up, every step with its wrapped prose, its matrices
 * with labelled axes and shaded heatmap rows, its exercises and hints).
 */
#ifndef ATTN_HANDOUT_H
#define ATTN_HANDOUT_H

#include <stdio.h>

#include "lesson.h"
#include "sheet.h"

/* Print the handout of l as v shows it to out. v->with_answers 0 leaves
 * the answers out (hints stay) so the sheet can be handed to students. */
void handout_print(FILE *out, const Lesson *l, const SheetView *v);

#endif
