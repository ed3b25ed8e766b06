/*
 * cell_explain.h - `attn run --explain CELL FILE`: the arithmetic behind one
 * cell, as the engine's explain_cell writes it.
 */
#ifndef ATTN_CELL_EXPLAIN_H
#define ATTN_CELL_EXPLAIN_H

#include "lesson.h"

/* Print the explanation of the cell spec ("NAME[ROW,COL]", 1-based) of s
 * to stdout. Returns 0, or 2 with a message on stderr when spec is not a
 * cell of s or cannot be explained. */
int cell_explain_print(const LessonState *s, const char *spec);

#endif
