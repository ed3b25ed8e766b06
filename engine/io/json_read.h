/*
 * json_read.h - a small JSON reader: `attn run --json` read back by the
 * tests, the class log by `attn class-report`; the text is parsed
 * back into a tree (objects keep their keys in order), so a test can assert
 * the document's exact shape and read its numbers; "inf", "-inf" and "nan"
 * (the strings attn writes for non-finite values) read as numbers through
 * json_number. Also a safetensors header, a config.json, a tokenizer.json:
 * the tree takes a small constant times the text (each string the size of
 * its own text, each list cut to its length; about 4 times a hub
 * tokenizer.json, at most about 30 times a document of one-byte values).
 */
#ifndef ATTN_JSON_READ_H
#define ATTN_JSON_READ_H

#include <stddef.h>

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } JType;

/* 40 bytes (the type beside the count): a document of small values is
 * mostly these, so a tree costs a small constant times its text. */
typedef struct JVal {
    JType type;
    int n;                  /* J_ARR elements / J_OBJ members             */
    double num;             /* J_NUM, and J_BOOL (0 or 1)                 */
    char *str;              /* J_STR, owned                               */
    struct JVal *items;     /* J_ARR elements / J_OBJ values, owned       */
    char **keys;            /* J_OBJ keys, owned, in the document's order */
} JVal;

/* Parse text into *root (the caller frees with json_free). 0 on success;
 * -1 with "JSON: WHAT at offset N" in err, *root then empty. */
int json_parse(const char *text, JVal *root, char *err, size_t err_size);

/* Free what a JVal owns and zero it. NULL does nothing. */
void json_free(JVal *v);

/* The member key of an object, or NULL (also when obj is NULL or no object). */
const JVal *json_get(const JVal *obj, const char *key);

/* A number, or one of the strings "inf", "-inf", "nan". 0 on success. */
int json_number(const JVal *v, double *out);

#endif
