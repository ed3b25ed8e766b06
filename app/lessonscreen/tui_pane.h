/*
 * tui_pane.h - one matrix in its pane (tui_pane.c): what it needs, how it
 * fits, how it is drawn.
 */
#ifndef ATTN_TUI_PANE_H
#define ATTN_TUI_PANE_H

#include "explain.h"
#include "tui_layout.h"
#include "tui_view.h"

typedef struct TuiTerm TuiTerm;
typedef struct LessonScreen LessonScreen;

/* tui_pane.c: one matrix in its pane. */
/* What pane i would like (its whole matrix, its numbers with the given
 * decimals) and the least it can use: all of it for a matrix of up to
 * PANE_WHOLE_MAX x PANE_WHOLE_MAX, which goes to a page of its own rather
 * than scroll. */
void pane_need(TuiTerm *term, LessonScreen *ls, int i, int decimals, PaneNeed *need);
/* Fit pane i to the rectangle it was placed in: compact heat cells, the
 * overview's pooling, what is visible, the scroll that keeps the cursor in
 * view. */
void pane_fit(TuiTerm *term, LessonScreen *ls, int i);
/* Draw pane i; ex (or NULL) has the operand cells to mark. */
void pane_draw(const TuiTerm *term, const LessonScreen *ls, int i, const Explanation *ex);
void tui_views_free(LessonView *lv);
/* Whether pane i's numbers are shown: always, but in presenter mode a
 * computed matrix only once revealed (a given one has nothing to predict). */
int lv_pane_shown(const LessonScreen *ls, int i);
/* The next pane presenter mode still hides, or -1 when all show. */
int lv_pane_next_hidden(const LessonScreen *ls);
/* The matrix of pane i in the current state (NULL when undefined). */
const Mat *lv_pane_mat(const LessonView *lv, int i);


/* w writes the focused pane as the screen shows it (its
 * decimals, its heat, the cells kept from the student as "?") as an SVG in
 * the current folder, STEP-MATRIX.svg as `attn run --svg` names it (a new
 * file beside any there); its name said on the status line. */
void lv_write_svg(TuiTerm *term, LessonScreen *ls);

/* A label of m's axis (by_rows: a row's) for line k of blocks of `block`
 * lines: the lesson's label, else the 1-based number, or the block's range
 * ("3-4"). Into buf. */
void pane_axis_label(char *buf, size_t size, const Mat *m, int k, int block, int by_rows);

#endif
