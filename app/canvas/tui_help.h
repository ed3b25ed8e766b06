/*
 * tui_help.h - the help screen (? and F1 on every screen; tui_help.c),
 * made from the key table for the screen that opens it, which says whose
 * keys, in whose words, and the notes no key says; and the one way the
 * screens that cover another scroll (Down, Up) and close (any other key).
 */
#ifndef ATTN_TUI_HELP_H
#define ATTN_TUI_HELP_H

#include "tui_screen.h"

#define HELP_NOTES_MAX 3

/* What a screen asks of its help. */
typedef struct {
    int where;      /* KEYS_MENU, KEYS_LESSON or KEYS_MODEL: whose keys      */
    int words;      /* whose words (tui_action_help_in): where, KEYS_HUNT,
                       KEYS_PRESENT or KEYS_TRAIN_OVER; an action worded ""
                       is left out                                         */
    const char *notes[HELP_NOTES_MAX];  /* under the keys, NULL-ended; copied */
} HelpWant;

/* The help screen on top (its state the stack's): ACT_OPEN. Leaves with
 * "out of memory" when there is none. */
TuiAsk tui_help_open(const HelpWant *want);

/* A key on a screen that covers another and scrolls by *first over max
 * lines: Down and Up scroll when there is more (ACT_NONE); any other key
 * goes back to the first line and closes it (ACT_CLOSE). */
TuiAction tui_cover_key(TuiTerm *term, int *first, int max, int ch);

extern const TuiScreen tui_screen_help;

#endif
