/*
 * tui_live.h - live reload of the open lesson (tui_live.c): the file saved
 * in another window is read again, and a reload that fails is shown.
 */
#ifndef ATTN_TUI_LIVE_H
#define ATTN_TUI_LIVE_H

#include "tui_layout.h"

typedef struct TuiTerm TuiTerm;
typedef struct LessonScreen LessonScreen;

/* tui_live.c: live reload of the open lesson. */
/* Reload the lesson if its file changed since it was last read (every
 * time when by_hand). Returns 1 when the screen must be redrawn. */
int lv_reload_if_changed(TuiTerm *term, LessonScreen *ls, int by_hand);
/* Hide the reload error (the title keeps a short note). */
void lv_hide_reload_error(TuiTerm *term, LessonScreen *ls);
/* The rows the reload error would like under the title (0: none shown). */
int lv_banner_want(const TuiTerm *term, const LessonScreen *ls);
/* Draw the reload error in r. */
void lv_banner_draw(const TuiTerm *term, const LessonScreen *ls, Rect r);

#endif
