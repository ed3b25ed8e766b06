/*
 * handout.h - `attn run FILE`: the lesson as a plain-text handout (title,
 * about, tokens, set-up, every step with its wrapped prose, its matrices
 * with labelled axes and shaded heatmap rows, its exercises and hints);
 * and the same panes as pictures, one SVG each.
 */
#ifndef ATTN_HANDOUT_H
#define ATTN_HANDOUT_H

#include <stdio.h>

#include "lesson.h"
#include "sheet.h"

/* Print the handout of l as v shows it to out. v->with_answers 0 leaves
 * the answers out (hints stay) so the sheet can be handed to students. */
void handout_print(FILE *out, const Lesson *l, const SheetView *v);

/* `attn run --svg DIR`: every pane of every screen (the set-up as 00, then
 * each step) as the screen draws it, into DIR/NN-MATRIX.svg, its name
 * printed; without answers a cell an exercise asks is "?" wherever it is
 * shown, as on the screen until it is answered; grey for NO_COLOR. DIR is
 * made when absent and refused when it holds files attn did not write. 0,
 * or 2 after saying why on stderr. */
int handout_svg(const char *dir, const Lesson *l, const SheetView *v);

#endif
