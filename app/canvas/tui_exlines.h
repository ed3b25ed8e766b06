/*
 * tui_exlines.h - the lines of the lesson screen's exercise area as they
 * are built (tui_exlines.c): wrapped text and each line's role, so the
 * drawing colours a line by what it is. The exercise (tui_exercise.c) and
 * a bug hunt (tui_bug.c) write their lines with ex_add; a frame keeps
 * EX_ROLES_MAX roles.
 */
#ifndef ATTN_TUI_EXLINES_H
#define ATTN_TUI_EXLINES_H

#include <stddef.h>

typedef enum { EXL_TITLE, EXL_HINT, EXL_RIGHT, EXL_WRONG, EXL_NOTE } ExLineRole;
#define EX_ROLES_MAX 256  /* the lines of an area whose roles are kept */

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

#endif
