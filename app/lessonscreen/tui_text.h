/*
 * tui_text.h - the step's whole text over the lesson screen (t;
 * tui_text.c).
 */
#ifndef ATTN_TUI_TEXT_H
#define ATTN_TUI_TEXT_H

#include "tui_lesson.h"
#include "tui_screen.h"

/* The whole text of the lesson ls (borrowed: the screen under it) on a
 * screen of its own, to open (ACT_OPEN). */
TuiAsk lv_text_open(const LessonScreen *ls);

#endif
