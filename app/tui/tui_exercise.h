/*
 * tui_exercise.h - the lesson screen's exercise area (tui_exercise.c): its
 * lines, each with a role the drawing colours it by, and the helper that
 * adds a line (tui_bug.c writes the hunt's lines with it).
 */
#ifndef ATTN_TUI_EXERCISE_H
#define ATTN_TUI_EXERCISE_H

#include <stddef.h>

typedef struct Tui Tui;

typedef enum { EXL_TITLE, EXL_HINT, EXL_RIGHT, EXL_WRONG, EXL_NOTE } ExLineRole;
#define EX_ROLES_MAX ((int)sizeof ((Tui *)0)->frame.roles)

/* The area as it is built: the wrapped text, its lines, and their roles. */
typedef struct {
    char *buf;
    size_t size, len;
    int n;
    unsigned char *roles;   /* one per wrapped line (NULL: not kept)       */
    int width;
} ExLines;

/* Wrap one logical line of role into the area. */
void ex_add(ExLines *x, ExLineRole role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The area for the step shown, wrapped to width into buf; roles (when not
 * NULL) gets each line's role. Returns the lines. */
int lv_exercise_lines(const Tui *t, char *buf, size_t size, int width, unsigned char *roles);

#endif
