/*
 * tui_chrome.h - the main loop's stack of screens (tui_chrome.c): which
 * is on top, each with the state the stack owns.
 */
#ifndef ATTN_TUI_CHROME_H
#define ATTN_TUI_CHROME_H

typedef struct Tui Tui;
struct TuiScreen;

/* The screen on top, the one that takes the keys and draws the frame, and
 * its state (NULL when the stack is empty). */
const struct TuiScreen *tui_top(const Tui *t);
void *tui_top_self(const Tui *t);
/* Put s with its state self on top: the stack owns self from then on (a
 * full stack is a fatal error). */
void tui_push(Tui *t, const struct TuiScreen *s, void *self);
/* Take the top off and close it (its state let go). */
void tui_close_top(Tui *t);

#endif
