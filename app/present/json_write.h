/*
 * json_write.h - the one JSON writer of attn (every --json output): strings
 * escaped so that no control byte ever reaches the output, numbers with 9
 * significant digits (enough to read every float back exactly), non-finite
 * values as the strings "inf", "-inf" and "nan".
 */
#ifndef ATTN_JSON_WRITE_H
#define ATTN_JSON_WRITE_H

#include <stdio.h>

/* s as a JSON string: '"' and '\' escaped, \n \r \t as such, every other
 * C0 control, DEL, C1 control (U+0080..U+009F) and U+2028/U+2029 as \uXXXX;
 * other UTF-8 passed through as it is; a byte that is not valid UTF-8 as
 * \ufffd. NULL is written as null. */
void jw_string(FILE *out, const char *s);

/* v as a JSON number with 9 significant digits, or "inf", "-inf", "nan". */
void jw_number(FILE *out, double v);

/* ["a", "b", ...] of names[0..n). */
void jw_strings(FILE *out, char **names, int n);

/* A document written field by field: the writer puts the commas, the
 * keys (escaped as strings) and a line break before each element of an
 * array of objects, so no printer spells JSON punctuation by hand. key is
 * NULL for an element of an array (and for the document itself). */
#define JW_DEPTH_MAX 8
typedef struct {
    FILE *f;
    int depth;
    int count[JW_DEPTH_MAX];   /* items written at each open level */
} JsonWriter;

void jw_begin(JsonWriter *w, FILE *f);             /* the document: an object */
void jw_end(JsonWriter *w);                        /* closes it, and a newline */
void jw_object(JsonWriter *w, const char *key);
void jw_array(JsonWriter *w, const char *key);
void jw_close(JsonWriter *w, char bracket);        /* '}' or ']' */
void jw_int(JsonWriter *w, const char *key, long long v);
/* v with the given decimals (-1: 9 significant digits); not finite: as
 * jw_number writes it. */
void jw_num(JsonWriter *w, const char *key, double v, int decimals);
void jw_bool(JsonWriter *w, const char *key, int v);
void jw_str(JsonWriter *w, const char *key, const char *s);     /* NULL: null */
void jw_null(JsonWriter *w, const char *key);

#endif
