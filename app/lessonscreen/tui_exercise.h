/*
 * tui_exercise.h - the lesson screen's exercise area (tui_exercise.c): its
 * lines, each with a role the drawing colours it by (tui_exlines.h).
 */
#ifndef ATTN_TUI_EXERCISE_H
#define ATTN_TUI_EXERCISE_H

#include <stddef.h>

#include "tui_exlines.h"

typedef struct TuiTerm TuiTerm;
typedef struct LessonScreen LessonScreen;

/* The area for the step shown, wrapped to width into buf; roles (when not
 * NULL) gets each line's role. Returns the lines. */
int lv_exercise_lines(const TuiTerm *term, const LessonScreen *ls, char *buf, size_t size, int width, unsigned char *roles);

#endif
