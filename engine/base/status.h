/*
 * status.h - the one table of status codes used across attn.
 *
 * An X-macro builds both the enum and attn_status_str(), so a code and its
 * message for a person can never drift apart (tig's STATUS_CODE_INFO).
 * AttnError carries a code plus a detailed message written by the function
 * that failed (e.g. one naming both shapes of a bad product).
 */
#ifndef ATTN_STATUS_H
#define ATTN_STATUS_H

#define ATTN_STATUS_LIST(X)                                              \
    X(ATTN_OK,        "ok")                                              \
    X(ATTN_E_NOMEM,   "out of memory")                                   \
    X(ATTN_E_SHAPE,   "the shapes do not fit")                           \
    X(ATTN_E_TOO_BIG, "the matrix would be too large")                   \
    X(ATTN_E_RANGE,   "an index is out of range")                        \
    X(ATTN_E_ARG,     "an argument is not valid")                        \
    X(ATTN_E_SYNTAX,  "the lesson has a syntax error")                   \
    X(ATTN_E_NAME,    "a name is not defined")                           \
    X(ATTN_E_LIMIT,   "a limit of the lesson language was exceeded")     \
    X(ATTN_E_IO,      "a file could not be read")

typedef enum {
#define ATTN_STATUS_ENUM(code, text) code,
    ATTN_STATUS_LIST(ATTN_STATUS_ENUM)
#undef ATTN_STATUS_ENUM
    ATTN_STATUS_COUNT
} attn_status;

/* A failure with details: code, plus a message for a person ("`@` needs
 * the columns of A (3) to equal the rows of B (2)"). msg is "" on success. */
typedef struct {
    attn_status code;
    char msg[256];
} AttnError;

/* Static text for a code; never NULL (unknown codes give "unknown status"). */
const char *attn_status_str(attn_status code);

/* Set err (if non-NULL) to code and a printf-style message; returns code,
 * so a function can `return attn_fail(err, ATTN_E_SHAPE, "...", ...)`. */
attn_status attn_fail(AttnError *err, attn_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Reset err to ATTN_OK with an empty message. NULL is allowed. */
void attn_error_clear(AttnError *err);

#endif
