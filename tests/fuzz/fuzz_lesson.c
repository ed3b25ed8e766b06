/*
 * fuzz_lesson.c - libFuzzer target for the lesson language: any bytes are
 * parsed, and what parses is evaluated, verified, every cell of every
 * matrix explained, and its first exercises judged (every classic mistake
 * evaluated in the statements they depend on). Whatever the input, it must end in a clean refusal or a
 * result: never a crash, a leak or undefined behaviour (ASan + UBSan), and
 * a refusal always says why (a code, a message, a line and column).
 * Built and run by `make fuzz` (clang); seeds are the shipped lessons.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "explain.h"
#include "lesson.h"
#include "teach.h"

/* A refusal without a reason is a bug: stop the fuzzer on it. */
static void check_refusal(const LessonError *err)
{
    if (err->code == ATTN_OK || !err->msg[0] || err->line < 0 || (err->line > 0 && err->col < 1))
        abort();
    char buf[1024];
    term_lesson_error(err, buf, sizeof buf);
    if (!strstr(buf, ": error: "))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    LessonError err, all[LESSON_MAX_ERRORS];
    int n_all;
    /* going on past errors (attn check): each one a refusal as the first */
    Lesson *again = lesson_parse_all((const char *)data, size, "fuzz.lesson", all, LESSON_MAX_ERRORS, &n_all);
    for (int i = 0; i < (again ? 0 : n_all); i++)
        check_refusal(&all[i]);
    lesson_free(again);
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
        /* judged where a lesson is small enough that evaluating it once per
         * classic mistake stays inside the fuzzer's time per input */
        long long elements = 0;
        for (int i = 0; i < lesson_state_count(s); i++) {
            const Mat *m = lesson_state_at(s, i);
            elements += m ? (long long)m->rows * m->cols : 0;
        }
        LessonJudge *judge = elements <= 65536 ? lesson_judge_new(l, s) : NULL;
        static const char *const typed[] = { "0", "0.25", "-inf", "1e30" };
        for (int i = 0; judge && i < lesson_n_exercises(l) && i < 4; i++)
            for (int t = 0; t < 4; t++) {
                Judgement j;
                lesson_judge(judge, lesson_exercise_at(l, i), typed[t], NULL, &j);
                if (j.verdict != VERDICT_INVALID && j.verdict != VERDICT_RIGHT && j.verdict != VERDICT_WRONG)
                    abort();
                if (!j.msg[0])
                    abort();    /* every verdict says something */
            }
        lesson_judge_free(judge);
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
