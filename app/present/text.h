/*
 * text.h - prose as the screen and the handout both show it: cleaned of
 * control characters, wrapped to a width (one wrapper for both, so a
 * formula line keeps its own line and a long word splits the same way on
 * paper and on screen), walked line by line, measured in display columns.
 * Pure: no curses, no printing.
 */
#ifndef ATTN_TEXT_H
#define ATTN_TEXT_H

#include <stddef.h>

/* Copy in to out (size bytes, NUL-terminated), dropping control
 * characters (C0 but newline when keep_newlines, DEL, and in UTF-8 the C1
 * and bidirectional controls of engine/base/utf8.h's list); tabs become
 * spaces. Without utf8, bytes >= 0x80 become '?'; with it,
 * malformed UTF-8 bytes become '?'. Returns out. */
char *text_clean(char *out, size_t size, const char *in, int keep_newlines, int utf8);

/* Wrap prose to width display columns into out, lines separated by '\n'.
 * Paragraphs are separated by blank lines and stay separated by one empty
 * line; inside a paragraph, line breaks are spaces, except that a line
 * indented deeper than the paragraph's first line starts a new line and
 * keeps its indentation (formulas, lists). Words longer than width are
 * split. Returns the number of lines (0 for empty text). out always holds
 * a NUL-terminated result, truncated at a line boundary to fit. */
int text_wrap(char *out, size_t size, const char *text, int width);

/* Wrap each '\n'-separated line of text on its own (no joining, unlike
 * text_wrap) to width columns, continuation lines indented by indent
 * spaces: for formulas and arithmetic. Returns the number of lines; out
 * as text_wrap's. */
int text_wrap_lines(char *out, size_t size, const char *text, int width, int indent);

/* Copy the line that starts at p (up to '\n' or the end) into line
 * (truncated to size), and return where the next line starts; NULL when
 * p is at the end. Walks a '\n'-separated text line by line. */
const char *text_line(const char *p, char *line, size_t size);

/* The byte length of the longest prefix of s that fits in w columns. */
size_t text_fit(const char *s, int w);

/* Is the locale's character set UTF-8 (so "…", "✓" and block glyphs can
 * be written)? The one test, for the screen and the printed commands. */
int text_locale_utf8(void);

/* Does the environment ask for no colour: NO_COLOR set and not empty
 * (no-color.org)? The one reading, for the screen and every picture. */
int text_no_color(void);

/* s into out as it fits w columns: whole, or cut at a word's end with "…"
 * ("..." when not utf8) after it, never in the middle of a word unless
 * the first word alone is too long. Returns out. */
char *text_shorten(char *out, size_t size, const char *s, int w, int utf8);

#endif
