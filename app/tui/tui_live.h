/*
 * tui_live.h - live reload of the open lesson (tui_live.c): the file saved
 * in another window is read again, and a reload that fails is shown.
 */
#ifndef ATTN_TUI_LIVE_H
#define ATTN_TUI_LIVE_H

#include "tui_layout.h"

typedef struct Tui Tui;

/* tui_live.c: live reload of the open lesson. */
/* Reload the lesson if its file changed since it was last read (every
 * time when by_hand). Returns 1 when the screen must be redrawn. */
int lv_reload_if_changed(Tui *t, int by_hand);
/* Hide the reload error (the title keeps a short note). */
void lv_hide_reload_error(Tui *t);
/* The rows the reload error would like under the title (0: none shown). */
int lv_banner_want(const Tui *t);
/* Draw the reload error in r. */
void lv_banner_draw(const Tui *t, Rect r);

#endif
