/*
 * lesson_fixtures.c - what the language suites (check_lesson.c,
 * check_lesson_limits.c) share: a program parsed and evaluated or else the
 * test fails with the error, a matrix asserted by its values, a program
 * asserted refused at a place with a message.
 */
#include <check.h>
#include <math.h>
#include <string.h>

#include "escape.h"
#include "lesson_fixtures.h"

/* Parse and evaluate text; both must succeed. */
Lesson *parse_ok(const char *text)
{
    LessonError err;
    Lesson *l = lesson_parse(text, strlen(text), "t.lesson", &err);
    char buf[1024];
    ck_assert_msg(l != NULL, "parse failed: %s", term_lesson_error(&err, buf, sizeof buf));
    return l;
}

LessonState *eval_ok(const Lesson *l, const LessonEdit *edits, int n)
{
    LessonError err;
    LessonState *s = lesson_eval(l, edits, n, &err);
    char buf[1024];
    ck_assert_msg(s != NULL, "eval failed: %s", term_lesson_error(&err, buf, sizeof buf));
    return s;
}

const Mat *lesson_get(const LessonState *s, const char *name)
{
    const Mat *m = lesson_state_get(s, name);
    ck_assert_msg(m != NULL, "no matrix %s", name);
    return m;
}

/* m must be rows x cols with the given row-major values (within tol). */
void expect_mat(const Mat *m, int rows, int cols, const float *want, double tol)
{
    ck_assert_msg(m->rows == rows && m->cols == cols, "%s is %dx%d, expected %dx%d", m->name, m->rows, m->cols,
                  rows, cols);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            double got = mat_get(m, i, j), w = want[i * cols + j];
            ck_assert_msg(fabs(got - w) <= tol || (isinf(got) && got == w),
                          "%s[%d,%d] = %.9g, expected %.9g (difference %.3g)", m->name, i + 1, j + 1, got, w,
                          fabs(got - w));
        }
}

/* The program must be refused (by the parser, or else by evaluation) with
 * code, at line:col, with a message containing msg. */
void expect_error(const char *text, attn_status code, int line, int col, const char *msg)
{
    LessonError err;
    Lesson *l = lesson_parse(text, strlen(text), "t.lesson", &err);
    LessonState *s = NULL;
    if (l) {
        s = lesson_eval(l, NULL, 0, &err);
        ck_assert_msg(s == NULL, "expected a refusal containing \"%s\", but the lesson evaluated", msg);
    }
    ck_assert_msg(err.code == code, "code %d (%s), expected %d; message: %s", err.code,
                  attn_status_str(err.code), code, err.msg);
    ck_assert_msg(err.line == line && err.col == col, "at %d:%d, expected %d:%d (%s)", err.line, err.col, line,
                  col, err.msg);
    ck_assert_msg(strstr(err.msg, msg) != NULL, "message \"%s\" lacks \"%s\"", err.msg, msg);
    lesson_state_free(s);
    lesson_free(l);
}
