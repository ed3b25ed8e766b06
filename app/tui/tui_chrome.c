/*
 * tui_chrome.c - the main loop's stack of screens: which one is on top,
 * each with its own state, which the stack owns and lets go through the
 * screen's close.
 */
#include "tui_chrome.h"

#include "tui_screen.h"
#include "tui_state.h"

const TuiScreen *tui_top(const Tui *t)
{
    return t->depth > 0 ? t->stack[t->depth - 1].screen : NULL;
}

void *tui_top_self(const Tui *t)
{
    return t->depth > 0 ? t->stack[t->depth - 1].self : NULL;
}

void tui_push(Tui *t, const TuiScreen *s, void *self)
{
    if (t->depth >= TUI_STACK_MAX) {
        if (s->close)
            s->close(self);
        tui_fatal("too many screens on top of each other");
    }
    t->stack[t->depth].screen = s;
    t->stack[t->depth++].self = self;
}

void tui_close_top(Tui *t)
{
    if (t->depth == 0)
        return;
    t->depth--;
    if (t->stack[t->depth].screen->close)
        t->stack[t->depth].screen->close(t->stack[t->depth].self);
}
