/*
 * tui_bug.h - find the bug on the screen (attn bug FILE [--seed N]),
 * tui_bug.c: the hunt's lines in the exercise area, the exercise keys as
 * the hunt's (a points at the focused pane as the first wrong matrix,
 * then names the mistake from the list of kinds; i a hint; v the fix),
 * and two screens of its own: the list of kinds, and the fix (the right
 * statement and the numbers beside the buggy ones, differing cells
 * marked).
 */
#ifndef ATTN_TUI_BUG_H
#define ATTN_TUI_BUG_H

#include "tui_exlines.h"
#include "tui_keys.h"

typedef struct TuiTerm TuiTerm;
typedef struct LessonScreen LessonScreen;

/* The hunt's lines for the exercise area (the session has a bug). */
int bug_exercise_lines(const TuiTerm *term, const LessonScreen *ls, ExLines *x);
/* In a hunt, a of the lesson's actions as the hunt's: 1 when it was taken. */
int tui_bug_action(TuiTerm *term, LessonScreen *ls, TuiAction a);
/* The key bar's word for a in a hunt ("point", "name", ...). */
const char *tui_bug_answer_label(const LessonScreen *ls);


#endif
