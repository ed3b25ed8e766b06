/*
 * tui_knobs.h - the knob bar of a lesson with knobs (tui_knobs.c).
 */
#ifndef ATTN_TUI_KNOBS_H
#define ATTN_TUI_KNOBS_H

#include "tui_keys.h"
#include "tui_layout.h"

typedef struct TuiTerm TuiTerm;
typedef struct LessonScreen LessonScreen;

/* tui_knobs.c: the knob bar of a lesson with knobs. */
/* 1 when the open lesson has knobs to show. */
int knobs_bar_want(const LessonScreen *ls);
/* Draw the knob bar in r (one row): every knob, the picked one marked. */
void knobs_bar_draw(const TuiTerm *term, const LessonScreen *ls, Rect r);
/* Handle ACT_KNOB_*: pick the next knob, move or flip the picked one. */
void lv_knob_action(TuiTerm *term, LessonScreen *ls, TuiAction a);

#endif
