/*
 * tui_exlines.c - a line added to the exercise area (tui_exlines.h):
 * wrapped to the area's width, its role kept for each wrapped line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "text.h"
#include "tui_exlines.h"

void ex_add(ExLines *x, ExLineRole role, const char *fmt, ...)
{
    char raw[2048], wrapped[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    int k = text_wrap_lines(wrapped, sizeof wrapped, raw, x->width, 4);
    size_t w = strlen(wrapped), sep = x->n > 0;
    if (k == 0 || x->len + sep + w + 1 >= x->size)
        return;
    if (sep)
        x->buf[x->len++] = '\n';
    memcpy(x->buf + x->len, wrapped, w + 1);
    x->len += w;
    for (int i = 0; i < k; i++, x->n++)
        if (x->roles && x->n < EX_ROLES_MAX)
            x->roles[x->n] = (unsigned char)role;
}
