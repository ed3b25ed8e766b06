/*
 * tui_lesson.h - the lesson screen's own state: the open session, its panes
 * and what the last frame computed for each, the cursor, the decimals, the
 * exercise shown; and its life and actions (tui_lesson.c), its whole text
 * (tui_lesson_draw.c).
 */
#ifndef ATTN_TUI_LESSON_H
#define ATTN_TUI_LESSON_H

#include "tui_view.h"
#include "bigtext.h"
#include "explain.h"
#include "heat.h"
#include "lesson.h"
#include "session.h"
#include "tui_keys.h"
#include "tui_layout.h"
#include "tui_put.h"

typedef struct Tui Tui;



/* tui_lesson.c: the lesson view's life and actions. */
/* Open the lesson at path into t->lv. Returns 0, or -1 with the error
 * text in msg (the view is left empty). */
int lv_open(Tui *t, const char *path, char *msg, size_t size);
/* Adopt an opened session (ownership passes to the view). */
void lv_adopt(Tui *t, Session *ses);
void lv_close(LessonView *lv);
/* Go to a screen of the lesson. */
void lv_go(Tui *t, int screen);
/* Build the panes of the session's current screen; where prev (n_prev
 * panes of the screen shown before) has a pane of the same name, it keeps
 * its cursor, scroll and view. */
void lv_build_panes(Tui *t, const Pane *prev, int n_prev);
/* Handle one action of the lesson view. */
void lv_action(Tui *t, TuiAction a);
/* tui_lesson_draw.c: the lesson screen's frame, laid out then drawn (the
 * screen object, tui_screen_lesson, is tui_lesson.c's). */
void lv_prepare(Tui *t);
void lv_draw(Tui *t);
/* tui_lesson_draw.c: the step's prose and then its exercise as it
 * stands, wrapped to width (what t shows whole). Returns the lines. */
int lv_whole_text(const Tui *t, char *buf, size_t size, int width);
/* Finish the prompt with the typed text. */
void lv_submit(Tui *t);
/* The key after "y shows the worked answer": y reveals it. */
void lv_confirm_reveal(Tui *t, int ch);
/* Mouse: select the cell at screen (x, y) if there is one. */
void lv_click(Tui *t, int x, int y);

#endif
