/*
 * status.c - messages for the status table in status.h, and the helpers
 * that fill an AttnError.
 */
#include "status.h"

#include <stdarg.h>
#include <stdio.h>

static const char *const status_text[] = {
#define ATTN_STATUS_TEXT(code, text) text,
    ATTN_STATUS_LIST(ATTN_STATUS_TEXT)
#undef ATTN_STATUS_TEXT
};

const char *attn_status_str(attn_status code)
{
    if ((int)code < 0 || code >= ATTN_STATUS_COUNT)
        return "unknown status";
    return status_text[code];
}

attn_status attn_fail(AttnError *err, attn_status code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        err->code = code;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

void attn_error_clear(AttnError *err)
{
    if (err) {
        err->code = ATTN_OK;
        err->msg[0] = '\0';
    }
}
