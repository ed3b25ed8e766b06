/*
 * tui_chrome.c - the main loop's stack of screens: which one is on top,
 * each with its own state.
 */
#include "tui_chrome.h"

#include <stdlib.h>
#include <string.h>

#include "tui_screen.h"
#include "tui_state.h"

/* ---- the stack of screens ---------------------------------------------- */

const TuiScreen *tui_screen(const Tui *t)
{
    return t->depth > 0 ? t->stack[t->depth - 1].screen : NULL;
}

void *tui_screen_self(const Tui *t)
{
    return t->depth > 0 ? t->stack[t->depth - 1].self : NULL;
}

void tui_set_base(Tui *t, const TuiScreen *s, void *self)
{
    t->stack[0].screen = s;
    t->stack[0].self = self;
    if (t->depth == 0)
        t->depth = 1;
}

int tui_on_base(const Tui *t, const TuiScreen *s)
{
    return t->depth > 0 && t->stack[0].screen == s;
}

void tui_push(Tui *t, const TuiScreen *s, void *self)
{
    if (tui_screen(t) == s)
        return;
    if (t->depth >= TUI_STACK_MAX)
        tui_fatal("too many screens on top of each other");
    t->stack[t->depth].screen = s;
    t->stack[t->depth++].self = self;
}

void tui_pop_top(Tui *t)
{
    if (t->depth > 1)
        t->depth--;
}

void tui_pop(Tui *t, const TuiScreen *s)
{
    for (int i = t->depth - 1; i >= 1; i--)
        if (t->stack[i].screen == s) {
            memmove(&t->stack[i], &t->stack[i + 1], (size_t)(t->depth - i - 1) * sizeof *t->stack);
            t->depth--;
            return;
        }
}
