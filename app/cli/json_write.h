/*
 * json_write.h - the pieces of a JSON document as attn writes them: strings
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

#endif
