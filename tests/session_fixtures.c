/*
 * session_fixtures.c - shared helpers of the session suites (see
 * session_fixtures.h).
 */
#include "session_fixtures.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

Session *session_of_text(const char *text, const char *name)
{
    LessonError err;
    Session *s = session_open_text(text, strlen(text), name, &err);
    ck_assert_msg(s != NULL, "the test lesson is refused: %d:%d: %s", err.line, err.col, err.msg);
    return s;
}

float session_cell(const Session *s, const char *name, int r, int c)
{
    const Mat *m = lesson_state_get(session_state(s), name);
    ck_assert_msg(m != NULL, "%s is not defined", name);
    return mat_get(m, r, c);
}

void write_text_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}
