/*
 * course.c - read a folder's COURSE file: its parts and the lessons of
 * each, checked against the folder (see course.h).
 */
#include "course.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fileread.h"

/* Say where in the file: "PATH:LINE:COL: message". Returns -1. */
static int refuse(char *why, size_t size, const char *path, int line, int col, const char *fmt, ...)
{
    int n = snprintf(why, size, "%s:%d:%d: ", path, line, col);
    if (n >= 0 && (size_t)n < size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why + n, size - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int add_part(Course *c, const char *title, size_t len)
{
    CoursePart *more = realloc(c->parts, (size_t)(c->n_parts + 1) * sizeof *more);
    if (!more)
        return -1;
    c->parts = more;
    CoursePart *p = &c->parts[c->n_parts];
    memset(p, 0, sizeof *p);
    if (!(p->title = strndup(title, len)))
        return -1;
    c->n_parts++;
    return 0;
}

static int add_file(CoursePart *p, const char *name, size_t len)
{
    char **more = realloc(p->files, (size_t)(p->n + 1) * sizeof *more);
    if (!more)
        return -1;
    p->files = more;
    if (!(p->files[p->n] = strndup(name, len)))
        return -1;
    p->n++;
    return 0;
}

/* The line (1-based) where name was listed before line `before`, or 0. */
static int listed_at(const Course *c, const char *name, const int *lines, int before)
{
    int k = 0;
    for (int i = 0; i < c->n_parts; i++)
        for (int j = 0; j < c->parts[i].n; j++, k++)
            if (k < before && strcmp(c->parts[i].files[j], name) == 0)
                return lines[k];
    return 0;
}

static int parse(const char *dir, const char *path, const char *text, size_t len, Course *c, char *why,
                 size_t size)
{
    int line_no = 0, n_files = 0, part_line = 0, rc = 0;
    int *lines = NULL;      /* the line of each lesson listed, in order */
    const char *p = text, *end = text + len;
    while (rc == 0 && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl : end;
        line_no++;
        const char *s = p;
        while (s < eol && (*s == ' ' || *s == '\t'))
            s++;
        const char *e = eol;
        while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
            e--;
        int col = (int)(s - p) + 1;
        size_t n = (size_t)(e - s);
        if (memchr(p, '\0', (size_t)(eol - p))) {
            rc = refuse(why, size, path, line_no, 1, "a NUL byte: COURSE is a text file");
        } else if (n == 0 || *s == '#') {
            /* nothing */
        } else if (n >= 4 && strncmp(s, "part", 4) == 0 && (n == 4 || s[4] == ' ' || s[4] == '\t')) {
            const char *t = s + 4;
            while (t < e && (*t == ' ' || *t == '\t'))
                t++;
            if (t == e)
                rc = refuse(why, size, path, line_no, col + 4, "'part' needs a title");
            else if (c->n_parts > 0 && c->parts[c->n_parts - 1].n == 0)
                rc = refuse(why, size, path, part_line, 1, "the part '%s' lists no lesson",
                            c->parts[c->n_parts - 1].title);
            else if (add_part(c, t, (size_t)(e - t)) != 0)
                rc = refuse(why, size, path, line_no, col, "out of memory");
            part_line = line_no;
        } else {
            char name[256];
            struct stat st;
            char full[4096];
            if (n >= sizeof name || memchr(s, '/', n) || memchr(s, ' ', n) || memchr(s, '\t', n) || n <= 7 || strncmp(e - 7, ".lesson", 7) != 0) {
                rc = refuse(why, size, path, line_no, col,
                            "expected 'part TITLE' or the name of a .lesson file of this folder, not '%.*s'",
                            (int)(n > 60 ? 60 : n), s);
            } else if (c->n_parts == 0) {
                rc = refuse(why, size, path, line_no, col, "'%.*s' comes before the first 'part' line", (int)n, s);
            } else {
                memcpy(name, s, n);
                name[n] = '\0';
                snprintf(full, sizeof full, "%s/%s", dir, name);
                int before = listed_at(c, name, lines, n_files);
                int *more = realloc(lines, (size_t)(n_files + 1) * sizeof *more);
                if (!more)
                    rc = refuse(why, size, path, line_no, col, "out of memory");
                else if ((lines = more), before)
                    rc = refuse(why, size, path, line_no, col, "'%s' is listed twice (first on line %d)", name,
                                before);
                else if (stat(full, &st) != 0 || !S_ISREG(st.st_mode))
                    rc = refuse(why, size, path, line_no, col, "no lesson '%s' in %s", name, dir);
                else if (add_file(&c->parts[c->n_parts - 1], name, n) != 0)
                    rc = refuse(why, size, path, line_no, col, "out of memory");
                else
                    lines[n_files++] = line_no;
            }
        }
        p = nl ? nl + 1 : end;
    }
    if (rc == 0 && c->n_parts > 0 && c->parts[c->n_parts - 1].n == 0)
        rc = refuse(why, size, path, part_line, 1, "the part '%s' lists no lesson", c->parts[c->n_parts - 1].title);
    free(lines);
    return rc;
}

int course_read(const char *dir, Course *c, char *why, size_t size)
{
    memset(c, 0, sizeof *c);
    why[0] = '\0';
    if (!dir)
        return 1;
    char path[4096];
    snprintf(path, sizeof path, "%s/COURSE", dir);
    struct stat st;
    if (lstat(path, &st) != 0 && errno == ENOENT)
        return 1;
    char *text = NULL, reason[300];
    size_t len = 0;
    if (fileread_text(path, COURSE_MAX_BYTES, &text, &len, reason, sizeof reason) != 0) {
        snprintf(why, size, "%s: %s", path, reason);
        return -1;
    }
    int rc = parse(dir, path, text, len, c, why, size);
    free(text);
    if (rc != 0)
        course_free(c);
    return rc;
}

void course_free(Course *c)
{
    for (int i = 0; i < c->n_parts; i++) {
        for (int j = 0; j < c->parts[i].n; j++)
            free(c->parts[i].files[j]);
        free(c->parts[i].files);
        free(c->parts[i].title);
    }
    free(c->parts);
    memset(c, 0, sizeof *c);
}
