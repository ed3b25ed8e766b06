/*
 * fuzz_answer.c - libFuzzer target for the reader of a student's answer
 * (lesson_read_answer, engine/teach/lesson_answer.c): any bytes give a
 * number that is not NaN, or a refusal that says why, the same both times it
 * is read; never a crash, a leak or undefined behaviour (ASan + UBSan).
 * Built and run by `make fuzz`; seeds are tests/fuzz/answers.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "teach.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    /* what a prompt hands over: text up to its first NUL */
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    double a = 0, b = 0;
    char why_a[256] = "", why_b[256] = "";
    int ra = lesson_read_answer(text, &a, why_a, sizeof why_a);
    int rb = lesson_read_answer(text, &b, why_b, sizeof why_b);
    if (ra != 0 && ra != -1)
        abort();
    if (ra != rb || strcmp(why_a, why_b) != 0)
        abort();                        /* reading is deterministic */
    if (ra == 0 && (isnan(a) || memcmp(&a, &b, sizeof a) != 0))
        abort();                        /* a number, the same one */
    if (ra == -1 && why_a[0] == '\0')
        abort();                        /* a refusal says why */
    free(text);
    return 0;
}
