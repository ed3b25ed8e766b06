/*
 * sheet.h - what the handouts share, whatever their format (plain text,
 * markdown, JSON): which panes of a step are heatmaps, which cells a
 * student's sheet hides, a cell as written (its number, or "?" when hidden),
 * an axis label (the lesson's, else the 1-based index), the value of an
 * exercise's answer, and the lines softmax found all -inf.
 */
#ifndef ATTN_SHEET_H
#define ATTN_SHEET_H

#include <stddef.h>
#include <stdio.h>

#include "lesson.h"
#include "teach.h"

/* "Step K/N: " for step k (0-based) of n, the heading's prefix in every
 * handout. Returns buf. */
const char *sheet_step_heading(char *buf, size_t size, int k, int n);

/* 1 when st draws its pane name as a heatmap. */
int sheet_is_heatmap(const LessonStep *st, const char *name);

/* Which cells a sheet without answers writes as "?", as the screen keeps
 * them: on step `step` (0-based; -1 the set-up, before every step) each
 * cell an exercise of that step or of a later one hides, every one of them
 * still open there. l NULL (a sheet with answers): none. */
typedef struct {
    const Lesson *l;
    int step;
} SheetHide;
int sheet_hidden(const SheetHide *h, const char *name, int row, int col);

/* Write value v as the handouts write it: by the engine's num_format with
 * the default decimals, or "?" when hidden. Returns its display width. */
int sheet_cell(char *buf, size_t size, float v, int hidden, int utf8);
/* The same for cell [i,j] of m: a zero a mask made is a bare "0". */
int sheet_mat_cell(char *buf, size_t size, const Mat *m, int i, int j, int hidden, int utf8);

/* The label of row i (or column j) of m, or its 1-based number written into
 * buf when the axis has no labels. Returns the label or buf. */
const char *sheet_row_label(const Mat *m, int i, char *buf, size_t size);
const char *sheet_col_label(const Mat *m, int j, char *buf, size_t size);

/* What a handout prints: the numbers shown (a bug handout's are the
 * bug's), the lesson as written (the one source of the answers' values,
 * the same the grader judges by), a bug handout's bug (NULL: none), and
 * whether the answers are printed. The states and the bug are borrowed. */
typedef struct {
    const LessonState *shown;
    const LessonState *asked;
    const LessonBug *bug;
    int with_answers;
} SheetView;

/* text (prose, a hint) as the handout prints it: on a bug handout the
 * numbers it quotes are the bug's (lesson_bug_text), else as written. A
 * new string the caller frees (NULL on no memory). */
char *sheet_text(const SheetView *v, const char *text);

/* The value of ex's answer in s: 1 and *value when it evaluates to one
 * number, 0 otherwise (a row, a matrix, or an error). */
int sheet_answer_value(const LessonState *s, const LessonExercise *ex, double *value);

/* The heading of a handout's list of knobs, saying how to change one. */
#define SHEET_KNOBS_HEADING "Knobs (attn run --set NAME=VALUE changes one):"
/* Knob k as a handout lists it, at the value it holds in s:
 * "T = 2 (a knob from 0.1 to 10 in steps of 0.1; the lesson has 1)" or
 * "causal = on (a switch, on or off)"; the lesson's own value is named
 * only when --set changed it. Returns buf. */
const char *sheet_knob_line(char *buf, size_t size, const LessonState *s, const LessonKnob *k);

/* Under m, the lines softmax found all -inf, rows then columns, each as
 * before + "rows 1, 2 fully masked: every score -inf, weights 0" + after;
 * nothing when there are none. */
void sheet_put_masked(FILE *out, const Mat *m, const char *before, const char *after);

#endif
