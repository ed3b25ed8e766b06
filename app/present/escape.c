/*
 * escape.c - outside text shown safely on a terminal (escape.h): the
 * escaping is engine/base/utf8.c's one writer (the engine's own messages
 * quote a typed answer through it too); what only a terminal needs, the
 * display columns of a caret, is here.
 */
#include "escape.h"

#include <stdio.h>
#include <string.h>

#include "utf8.h"

const char *term_escape(const char *s, char *buf, size_t size) { return utf8_escape(s, buf, size, 1); }

const char *term_escape_text(const char *s, char *buf, size_t size) { return utf8_escape(s, buf, size, 0); }

/* Does a terminal give cp two columns (East Asian wide and full-width,
 * emoji)? So a caret stands under its character after them. */
static int wide_char(unsigned cp)
{
    return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF && cp != 0x303F)
           || (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F)
           || (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F)
           || (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD);
}

const char *term_lesson_error(const LessonError *e, char *buf, size_t size)
{
    if (!buf || size == 0)
        return buf;
    /* the file name is whatever the user gave, and the message may quote a
     * data file's bytes: both shown escaped, so nothing in them reaches a
     * terminal as a control */
    char file[sizeof e->file * 4], msg[sizeof e->msg * 4];
    term_escape(e->file, file, sizeof file);
    term_escape_text(e->msg, msg, sizeof msg);
    if (e->line <= 0) {
        snprintf(buf, size, "%s: error: %s\n", file, msg);
        return buf;
    }
    /* the caret goes under the character at col (bytes; in a window of a
     * long line, at source_col), in display columns */
    char caret[sizeof e->source_line + 2];
    size_t w = 0, bytes = (size_t)((e->source_col > 0 ? e->source_col : e->col) - 1);
    size_t shown = strlen(e->source_line);
    if (bytes > shown)
        bytes = shown;
    for (size_t i = 0; i < bytes && w + 3 < sizeof caret;) {
        unsigned cp;
        size_t len = utf8_decode((const unsigned char *)e->source_line + i, bytes - i, &cp);
        if (len == 0)       /* a byte that starts no character: a column of its own */
            len = 1;
        for (int k = wide_char(cp) ? 2 : 1; k > 0; k--)
            caret[w++] = ' ';
        i += len;
    }
    caret[w++] = '^';
    caret[w] = '\0';
    snprintf(buf, size, "%s:%d:%d: error: %s\n%s\n%s\n", file, e->line, e->col, msg, e->source_line, caret);
    return buf;
}
