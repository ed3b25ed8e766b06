/*
 * cell_explain.c - `attn run --explain CELL FILE`: read "NAME[ROW,COL]",
 * find the cell, and print the engine's explanation of it; a cell that is
 * not there is refused with what the lesson has instead.
 */
#include "cell_explain.h"

#include <ctype.h>
#include <stdlib.h>
#include <limits.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "escape.h"
#include "explain.h"

/* "NAME[ROW,COL]" (1-based, blanks allowed) into its parts: 0, or -1 with
 * why (the form, or an index too large). */
static int parse_cell(const char *spec, char *name, size_t size, int *row, int *col, const char **why)
{
    static const char *const form = "write NAME[ROW,COL] with 1-based indices, e.g. 'A[2,1]'";
    const char *p = spec;
    *why = form;
    while (*p == ' ')
        p++;
    const char *start = p;
    while (isalnum((unsigned char)*p) || *p == '_')
        p++;
    size_t n = (size_t)(p - start);
    if (n == 0 || n >= size || isdigit((unsigned char)*start))
        return -1;
    memcpy(name, start, n);
    name[n] = '\0';
    /* [ROW,COL]: whole numbers that fit an int, read whole (a
     * number too large is refused, never wrapped round to another cell) */
    int *at[2] = { row, col };
    const char seps[2] = { ',', ']' };
    while (*p == ' ')
        p++;
    if (*p++ != '[')
        return -1;
    for (int k = 0; k < 2; k++) {
        while (*p == ' ')
            p++;
        if (!isdigit((unsigned char)*p))
            return -1;
        errno = 0;
        char *end;
        long v = strtol(p, &end, 10);
        if (errno == ERANGE || v > INT_MAX) {
            *why = "an index is too large (rows and columns count from 1)";
            return -1;      /* (0 is read: "outside A" says why) */
        }
        *at[k] = (int)v;
        for (p = end; *p == ' '; p++)
            ;
        if (*p++ != seps[k])
            return -1;
    }
    while (*p == ' ')
        p++;
    return *p == '\0' ? 0 : -1;
}

int cell_explain_print(const LessonState *s, const char *spec)
{
    char name[MAT_NAME_MAX];
    int row, col;
    const char *why;
    if (parse_cell(spec, name, sizeof name, &row, &col, &why) != 0) {
        char shown[512];
        fprintf(stderr, "attn: bad cell '%s': %s\n", term_escape(spec, shown, sizeof shown), why);
        return 2;
    }
    const Mat *m = lesson_state_get(s, name);
    if (!m) {
        const char *near = lesson_state_nearest(s, name);
        fprintf(stderr, "attn: the lesson defines no matrix '%s'%s%s%s\n", name, near ? "; did you mean '" : "",
                near ? near : "", near ? "'?" : "");
        return 2;
    }
    if (row < 1 || row > m->rows || col < 1 || col > m->cols) {
        fprintf(stderr, "attn: %s[%d,%d] is outside %s, which is %dx%d (indices start at 1)\n", name, row, col,
                name, m->rows, m->cols);
        return 2;
    }
    Explanation ex;
    memset(&ex, 0, sizeof ex);
    AttnError err = { 0 };
    if (explain_cell(&ex, m, row - 1, col - 1, &err) != ATTN_OK) {
        fprintf(stderr, "attn: cannot explain %s[%d,%d]: %s\n", name, row, col,
                err.msg[0] ? err.msg : attn_status_str(err.code));
        explain_free(&ex);
        return 2;
    }
    fputs(ex.text ? ex.text : "", stdout);
    if (ex.text && ex.text[0] && ex.text[strlen(ex.text) - 1] != '\n')
        fputc('\n', stdout);
    explain_free(&ex);
    return 0;
}

