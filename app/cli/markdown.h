/*
 * markdown.h - `attn run --markdown FILE`: the lesson as a handout for a
 * course page (GitHub-flavoured markdown): title, about, steps numbered as
 * the plain handout numbers them, prose, matrices as tables with labelled
 * axes, heatmaps as shaded cells, exercises with hints and answers or
 * blanks.
 */
#ifndef ATTN_MARKDOWN_H
#define ATTN_MARKDOWN_H

#include <stdio.h>

#include "lesson.h"
#include "sheet.h"

/* Print the markdown handout of l as v shows it to out. v->with_answers 0
 * leaves each answer a blank and writes "?" for the cells the step's
 * exercises hide. */
void markdown_print(FILE *out, const Lesson *l, const SheetView *v);

#endif
