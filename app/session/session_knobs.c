/*
 * session_knobs.c - the session's knobs (session.h, "knobs"): a knob's
 * value is the lesson's 1x1 input NAME as the person left it, and every
 * change goes through session_edit, so the evaluation, undo, reset and
 * reload treat a knob like any other edited input. The range and the step
 * come from the lesson (lesson_knob_snap).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session_internal.h"
#include "strbuf.h"

double session_knob_value(const Session *s, int i)
{
    return lesson_knob_now(s->state, lesson_knob(s->lesson, i));
}

unsigned session_knob_set(Session *s, int i, double value)
{
    const LessonKnob *k = lesson_knob(s->lesson, i);
    if (!k)
        return session_say(s, SESSION_REFUSED, "this lesson has no knob %d", i + 1);
    double v = lesson_knob_snap(k, value), now = session_knob_value(s, i);
    char text[48];
    lesson_knob_text(k, v, text, sizeof text);
    if ((float)v == (float)now)
        return session_say(s, SESSION_NOTHING, "%s is already %s%s", k->name, text,
                           k->is_switch ? "" : v >= k->hi ? " (its highest)" : v <= k->lo ? " (its lowest)" : "");
    if ((float)v == (float)k->value) {
        /* back at the lesson's own value: no edit is left of this knob */
        unsigned c = session_unedit(s, k->name, 0, 0);
        if (c & SESSION_REFUSED)
            return c;
        return session_say(s, c, "%s = %s, the lesson's own value; everything after it follows", k->name, text);
    }
    unsigned c = session_edit(s, k->name, 0, 0, (float)v);
    if (c & SESSION_REFUSED)
        return c;
    return session_say(s, c, "%s = %s; everything after it follows", k->name, text);
}

unsigned session_knob_nudge(Session *s, int i, int dir)
{
    const LessonKnob *k = lesson_knob(s->lesson, i);
    if (!k)
        return session_say(s, SESSION_REFUSED, "this lesson has no knob %d", i + 1);
    return session_knob_set(s, i, session_knob_value(s, i) + (dir > 0 ? k->step : -k->step));
}

unsigned session_knob_toggle(Session *s, int i)
{
    const LessonKnob *k = lesson_knob(s->lesson, i);
    if (!k)
        return session_say(s, SESSION_REFUSED, "this lesson has no knob %d", i + 1);
    double v = session_knob_value(s, i);
    return session_knob_set(s, i, fabs(v - k->hi) < fabs(v - k->lo) ? k->lo : k->hi);
}

int session_knob_parse(const LessonKnob *k, const char *text, double *v, char *why, size_t size)
{
    char *end;
    if (k->is_switch && (strcmp(text, "on") == 0 || strcmp(text, "off") == 0)) {
        *v = text[1] == 'n';
        return 0;
    }
    double x = strtod(text, &end);
    char quoted[64];
    str_clip(quoted, sizeof quoted, text, 40);
    if (end == text || *end || isnan(x)) {
        snprintf(why, size, k->is_switch ? "%s is a switch: on, off, 1 or 0, not '%s'"
                                         : "%s takes a number, not '%s'", k->name, quoted);
        return -1;
    }
    if (k->is_switch && x != 0 && x != 1) {
        snprintf(why, size, "%s is a switch: on, off, 1 or 0, not '%s'", k->name, quoted);
        return -1;
    }
    if (x < k->lo || x > k->hi) {
        snprintf(why, size, "%s = %g is outside its range %g to %g", k->name, x, k->lo, k->hi);
        return -1;
    }
    *v = x;
    return 0;
}
