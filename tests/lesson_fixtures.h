/*
 * lesson_fixtures.h - helpers of the language suites (lesson_fixtures.c).
 */
#ifndef ATTN_TEST_LESSON_FIXTURES_H
#define ATTN_TEST_LESSON_FIXTURES_H

#include "lesson.h"

/* Parse text (named t.lesson); the test fails with the error otherwise. */
Lesson *parse_ok(const char *text);
/* Evaluate l with n edits; the test fails with the error otherwise. */
LessonState *eval_ok(const Lesson *l, const LessonEdit *edits, int n);
/* The matrix name of s; the test fails when there is none. */
const Mat *lesson_get(const LessonState *s, const char *name);
/* m must be rows x cols with the given row-major values (within tol). */
void expect_mat(const Mat *m, int rows, int cols, const float *want, double tol);
/* The program must be refused (by the parser, or else by evaluation) with
 * code, at line:col, with a message containing msg. */
void expect_error(const char *text, attn_status code, int line, int col, const char *msg);

#endif
