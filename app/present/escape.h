/*
 * escape.h - text from outside made safe for a terminal (escape.c): every
 * byte a terminal could act on written as \xNN (C0 controls and tab, DEL,
 * invalid UTF-8, the C1 controls and the bidirectional controls of
 * engine/base/utf8.h's one list), and a lesson's error as a person reads
 * it, its caret under the column in display columns. Every byte a person
 * or a peer typed, a file held or a server sent goes through here before a
 * terminal or a spreadsheet shows it.
 */
#ifndef ATTN_ESCAPE_H
#define ATTN_ESCAPE_H

#include <stddef.h>

#include "lesson.h"

/* Copy s into buf (truncating safely, at a character) with every byte a
 * terminal could act on written as \xNN and a backslash as \\. For text
 * no lesson check passed: a file name, an argument, a message quoting
 * either. Returns buf. */
const char *term_escape(const char *s, char *buf, size_t size);
/* The same for a message attn wrote that may quote bytes of a file: every
 * byte a terminal could act on as \xNN, a backslash left as it is. */
const char *term_escape_text(const char *s, char *buf, size_t size);

/* Write "FILE:LINE:COL: error: MSG\n" + the line + "\n" + a caret under the
 * column + "\n" into buf (truncating safely), the file and the message
 * escaped. Returns buf. */
const char *term_lesson_error(const LessonError *e, char *buf, size_t size);

#endif
