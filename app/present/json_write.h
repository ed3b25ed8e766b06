/*
 * json_write.h - the one JSON writer of attn (every --json output, the
 * class log's lines, the files of a trained model; no printer spells JSON
 * punctuation by hand): strings escaped so that no control byte ever
 * reaches the output, numbers in the fewest digits that read back as the
 * very same double, non-finite values as the strings "inf", "-inf" and
 * "nan". It writes into a StrBuf (strbuf.h), so a document can go to a
 * stream, a file replaced whole or a log line written at once alike.
 */
#ifndef ATTN_JSON_WRITE_H
#define ATTN_JSON_WRITE_H

#include <stdio.h>

#include "strbuf.h"

/* s as a JSON string: '"' and '\' escaped, \n \r \t as such, every other
 * C0 control, DEL, C1 control (U+0080..U+009F) and U+2028/U+2029 as \uXXXX;
 * other UTF-8 passed through as it is; a byte that is not valid UTF-8 as
 * \ufffd. NULL is written as null. */
void jw_string(StrBuf *out, const char *s);
/* The same of s[0..n), which may hold NUL bytes (\u0000). */
void jw_string_n(StrBuf *out, const char *s, size_t n);

/* v as a JSON number in the fewest digits that read back as the same
 * double (num_shortest), or "inf", "-inf", "nan". */
void jw_number(StrBuf *out, double v);


/* A document written field by field: the writer puts the commas, the
 * keys (escaped as strings) and the line breaks, so no printer spells JSON
 * punctuation by hand. key is NULL for an element of an array (and for the
 * document itself). Each element of an array starts a line indented by its
 * depth, unless the array is written on one line (jw_inline: numbers, a
 * matrix's rows, short lists); a key's item follows the one before it on
 * its line, unless its object breaks each (jw_object_lines) or jw_newline
 * asked for a break.
 *
 * Ownership: the writer holds the text in out; jw_print writes it to a
 * stream and releases it; a caller that wants the bytes takes them
 * (strbuf_take(&w.out), free() them) or reads out.s and out.len and then
 * calls strbuf_free(&w.out). A failed allocation shows in out.failed. */
#define JW_DEPTH_MAX 8
typedef struct {
    StrBuf out;                         /* the document so far               */
    int depth;
    int count[JW_DEPTH_MAX];            /* items written at each open level  */
    unsigned char inl[JW_DEPTH_MAX];    /* the level stays on one line       */
    unsigned char lines[JW_DEPTH_MAX];  /* each item of the level on a line  */
    int next_line;                      /* the next item starts a line       */
} JsonWriter;
void jw_begin(JsonWriter *w);                      /* the document: an object */
void jw_end(JsonWriter *w);                        /* closes it, and a newline */
void jw_object(JsonWriter *w, const char *key);
void jw_object_lines(JsonWriter *w, const char *key); /* each item on its own line */
void jw_array(JsonWriter *w, const char *key);
void jw_inline(JsonWriter *w, const char *key);    /* an array on one line   */
void jw_close(JsonWriter *w, char bracket);        /* '}' or ']' */
void jw_newline(JsonWriter *w);                    /* the next item starts a line */
void jw_int(JsonWriter *w, const char *key, long long v);
/* v with the given decimals (-1: as jw_number: the same double read back); not finite: as
 * jw_number writes it. */
void jw_num(JsonWriter *w, const char *key, double v, int decimals);
void jw_bool(JsonWriter *w, const char *key, int v);
void jw_str(JsonWriter *w, const char *key, const char *s);     /* NULL: null */
void jw_str_n(JsonWriter *w, const char *key, const char *s, size_t n);
void jw_null(JsonWriter *w, const char *key);
/* A value already spelled in JSON, written as it is: for a number a file
 * must spell as another program does (Python's 1e-05 in a config.json). */
void jw_literal(JsonWriter *w, const char *key, const char *json);

/* Write the document to f and release it: 0, or -1 when an allocation
 * failed while it was written (then nothing is written) or f refused it. */
int jw_print(JsonWriter *w, FILE *f);
#endif
