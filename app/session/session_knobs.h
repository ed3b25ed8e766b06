/*
 * session_knobs.h - the knobs of an opened lesson (session_knobs.c).
 * Included through session.h.
 */
#ifndef ATTN_SESSION_KNOBS_H
#define ATTN_SESSION_KNOBS_H

#include "lesson.h"

typedef struct Session Session;

/* ---- knobs (lesson_knob: `knob` and `switch` lines) ---- */
/* The value knob i holds now (its default, or as the person set it); NaN
 * when there is no knob i. */
double session_knob_value(const Session *s, int i);
/* Set knob i to value, clamped to its range and snapped to its step, by an
 * edit of NAME[1,1] (so everything downstream follows and undo takes it
 * back). SESSION_NOTHING with a message when it already holds that value
 * (at an end of its range); SESSION_REFUSED when there is no knob i. */
unsigned session_knob_set(Session *s, int i, double value);
/* Move knob i one step up (dir > 0) or down (dir < 0); a switch goes on or
 * off. */
unsigned session_knob_nudge(Session *s, int i, int dir);
/* Flip a switch (a slider goes to the other end of its range). */
unsigned session_knob_toggle(Session *s, int i);
/* Parse the value text for knob k as `--set` takes it: a number, or for a
 * switch on/off/1/0. 0 and *v on success; -1 with why in buf otherwise
 * (not a number, outside the range, not on/off). */
int session_knob_parse(const LessonKnob *k, const char *text, double *v, char *why, size_t size);

/* ---- live reload ---- */
/* Read the file again if it changed since it was last read (always when
 * by_hand). A good version replaces the lesson: the screen is found again
 * by its step's title (else kept by number), the edits that still apply
 * stay, exercises keep their state by question. A refused version leaves
 * everything as it was and reports SESSION_RELOAD_FAILED; its error stays
 * in session_reload_error until a good version is read. */
unsigned session_reload(Session *s, int by_hand);
/* The last refused reload, formatted (file:line:col, line, caret), or
 * NULL. How many edits the last good reload dropped. */
const char *session_reload_error(const Session *s);
int session_reload_dropped(const Session *s);

#endif
