/*
 * session_fixtures.h - what the suites that drive a Session without a
 * terminal share: opening a lesson from text, reading a cell of its state,
 * writing a file a test then reloads.
 */
#ifndef ATTN_SESSION_FIXTURES_H
#define ATTN_SESSION_FIXTURES_H

#include "session.h"

/* The session of text (named name in errors); the test fails when the
 * lesson is refused. */
Session *session_of_text(const char *text, const char *name);
/* name[r,c] (0-based) in the session's state; the test fails when name is
 * not defined. */
float session_cell(const Session *s, const char *name, int r, int c);
/* Replace the file at path with text. */
void write_text_file(const char *path, const char *text);

#endif
