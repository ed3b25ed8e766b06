/*
 * fuzz_lesson.c - libFuzzer target for the lesson language: any bytes are
 * parsed, and what parses is evaluated, verified and every cell of every
 * matrix explained. Whatever the input, it must end in a clean refusal or a
 * result: never a crash, a leak or undefined behaviour (ASan + UBSan), and
 * a refusal always says why (a code, a message, a line and column).
 * Built and run by `make fuzz` (clang); seeds are the shipped lessons.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "lesson.h"

/* A refusal without a reason is a bug: stop the fuzzer on it. */
static void check_refusal(const LessonError *err)
{
    if (err->code == ATTN_OK || !err->msg[0] || err->line < 0 || (err->line > 0 && err->col < 1))
        abort();
    char buf[1024];
    lesson_error_format(err, buf, sizeof buf);
    if (!strstr(buf, ": error: "))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    LessonError err;
    Lesson *l = lesson_parse((const char *)data, size, "fuzz.lesson", &err);
    if (!l) {
        check_refusal(&err);
        return 0;
    }
    LessonState *s = lesson_eval(l, NULL, 0, &err);
    if (!s)
        check_refusal(&err);
    if (s) {
        VerifyResult *results = NULL;
        int n = 0;
        if (lesson_verify(l, s, &results, &n) == ATTN_OK)
            free(results);
        int shown = 0;
        for (int i = 0; i < lesson_state_count(s) && shown < 64; i++) {
            const Mat *m = lesson_state_at(s, i);
            for (int r = 0; r < m->rows && shown < 64; r++)
                for (int c = 0; c < m->cols && shown < 64; c++, shown++) {
                    Explanation ex = {0};
                    if (explain_cell(&ex, m, r, c, NULL) == ATTN_OK)
                        explain_free(&ex);
                }
        }
        lesson_state_free(s);
    }
    lesson_free(l);
    return 0;
}
