/*
 * tui_lesson_internal.h - what the parts of the lesson screen share beyond
 * its public face (tui_lesson.h): its frame laid out and drawn
 * (tui_lesson_draw.c), its prompt, its mouse, the projector test
 * (tui_lesson.c), and the headers of its parts.
 * Included from app/lessonscreen alone.
 */
#ifndef ATTN_TUI_LESSON_INTERNAL_H
#define ATTN_TUI_LESSON_INTERNAL_H

#include "tui_lesson.h"
#include "tui_plugin.h"
#include "tui_screen.h"

/* Build the panes of the session's current screen; where prev (n_prev
 * panes of the screen shown before) has a pane of the same name, it keeps
 * its cursor, scroll and view (tui_pane.c). */
void lv_build_panes(LessonScreen *ls, const Pane *prev, int n_prev);
/* tui_lesson_draw.c: the lesson screen's frame, laid out then drawn (the
 * screen object, tui_screen_lesson, is tui_lesson_screen.c's). */
void lv_prepare(TuiTerm *term, LessonScreen *ls);
void lv_draw(TuiTerm *term, LessonScreen *ls);
/* Finish the prompt with the typed text. */
void lv_submit(TuiTerm *term, LessonScreen *ls);
/* The key after "y shows the worked answer": y reveals it. */
void lv_confirm_reveal(TuiTerm *term, LessonScreen *ls, int ch);
/* Mouse: select the cell at screen (x, y) if there is one. */
void lv_click(LessonScreen *ls, int x, int y);
/* A presenter on a projector (PROJECTOR_COLS x PROJECTOR_ROWS or more):
 * the knobs, the panes' names and labels in the block font too. The one
 * test of it. */
int lv_on_projector(const TuiTerm *term, const LessonScreen *ls);

#endif
