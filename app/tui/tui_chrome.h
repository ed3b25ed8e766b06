/*
 * tui_chrome.h - the main loop's stack of screens, each with its own state
 * (tui_chrome.c).
 */
#ifndef ATTN_TUI_CHROME_H
#define ATTN_TUI_CHROME_H


typedef struct Tui Tui;
struct TuiScreen;

/* The screen on top, the one that takes the keys and draws the frame, and
 * its state. */
const struct TuiScreen *tui_screen(const Tui *t);
void *tui_screen_self(const Tui *t);
/* The screen at the bottom of the stack: the menu or the lesson. */
void tui_set_base(Tui *t, const struct TuiScreen *s, void *self);
int tui_on_base(const Tui *t, const struct TuiScreen *s);
/* Put s (with its state) on top (nothing when it is there already); take
 * the top off (never the base). */
void tui_push(Tui *t, const struct TuiScreen *s, void *self);
void tui_pop_top(Tui *t);
/* Take s off wherever it is above the base (nothing when it is not). */
void tui_pop(Tui *t, const struct TuiScreen *s);

#endif
