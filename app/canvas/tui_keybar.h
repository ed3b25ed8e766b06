/*
 * tui_keybar.h - the bottom row every screen draws (tui_keybar.c): the
 * prompt, the message, an alert or the screen's keys.
 */
#ifndef ATTN_TUI_KEYBAR_H
#define ATTN_TUI_KEYBAR_H

#include "tui_keys.h"
#include "tui_layout.h"
#include "tui_term.h"

/* What a screen asks of the key bar. */
typedef struct {
    int where;          /* KEYS_MENU, KEYS_LESSON or KEYS_MODEL: whose keys */
    Rect rect;          /* where (w 0: the terminal's last row)            */
    int has_exercise;   /* hint and answer apply                           */
    int scrolls;        /* overview applies                                */
    int quiet;          /* presenter mode: no keys on the class's screen   */
    const char *alert;  /* shown in place of the keys (NULL: none)          */
    const char *answer_label; /* a's word (NULL: "answer")                  */
    const char *prompt_label, *prompt_input; /* what is typed (NULL: nothing) */
    unsigned model_keys; /* KEYS_MODEL: bit i offers the model bar's key i
                            (move, open, new text, as a lesson, temperature,
                            back, generate, token, run, knob, turn, keep,
                            lines)                                         */
} KeyBarWant;

/* The prompt as it is typed, else the message, else want->alert, else the
 * screen's keys (read from the key table), help and quit at the right. */
void tui_keybar_draw(const TuiTerm *term, const KeyBarWant *want);

#endif
