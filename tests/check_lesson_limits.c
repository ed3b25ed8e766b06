/*
 * check_lesson_limits.c - the limits that keep bad input from crashing or
 * exhausting memory: deep nesting, huge matrices, redefinitions, long names
 * and lines, NULL arguments, fuzzed input, the file size and the total of
 * elements; each refused with its own message.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "lesson.h"
#include "teach.h"
#include "lesson_fixtures.h"

START_TEST(test_deep_nesting_refused)
{
    size_t n = 100000;
    char *text = malloc(n * 2 + 64);
    size_t len = (size_t)sprintf(text, "lesson D\nlet a = ");
    /* nesting far beyond the limit, in a line within the line limit... */
    for (int i = 0; i < 1000; i++)
        text[len++] = '(';
    text[len++] = '\n';
    text[len] = '\0';
    LessonError err;
    Lesson *l = lesson_parse(text, len, "d.lesson", &err);
    ck_assert_ptr_null(l);
    ck_assert_int_eq(err.code, ATTN_E_LIMIT);
    ck_assert_msg(strstr(err.msg, "deeper than the limit of 200"), "message: %s", err.msg);
    /* ...and of unary minus */
    len = (size_t)sprintf(text, "lesson D\nlet a = ");
    for (int i = 0; i < 3000; i++)
        text[len++] = '-';
    len += (size_t)sprintf(text + len, "1\n");
    l = lesson_parse(text, len, "d.lesson", &err);
    ck_assert_ptr_null(l);
    ck_assert_int_eq(err.code, ATTN_E_LIMIT);
    /* a flat chain is deep too: a + b + c + ... beyond LESSON_MAX_CHAIN */
    len = (size_t)sprintf(text, "lesson D\nlet a = (");
    for (int i = 0; i < 1100; i++)
        len += (size_t)sprintf(text + len, "1+\n");
    len += (size_t)sprintf(text + len, "1)\n");
    l = lesson_parse(text, len, "d.lesson", &err);
    ck_assert_ptr_null(l);
    ck_assert_int_eq(err.code, ATTN_E_LIMIT);
    ck_assert_msg(strstr(err.msg, "chains more than 1000 operations"), "message: %s", err.msg);
    len = (size_t)sprintf(text, "lesson D\nlet a = (");
    for (int i = 0; i < 900; i++)
        len += (size_t)sprintf(text + len, "1+\n");
    len += (size_t)sprintf(text + len, "1)\n");
    l = lesson_parse(text, len, "d.lesson", &err);
    ck_assert_msg(l != NULL, "a chain of 900 refused: %s", err.msg);
    LessonState *chain = eval_ok(l, NULL, 0);
    ck_assert_float_eq(mat_get(lesson_get(chain, "a"), 0, 0), 901.0f);
    lesson_state_free(chain);
    lesson_free(l);
    /* just under the limit works */
    len = (size_t)sprintf(text, "lesson D\nlet a = ");
    for (int i = 0; i < 150; i++)
        text[len++] = '(';
    text[len++] = '2';
    for (int i = 0; i < 150; i++)
        text[len++] = ')';
    text[len++] = '\n';
    l = lesson_parse(text, len, "d.lesson", &err);
    ck_assert_msg(l != NULL, "150 levels refused: %s", err.msg);
    LessonState *s = eval_ok(l, NULL, 0);
    ck_assert_float_eq(mat_get(lesson_get(s, "a"), 0, 0), 2.0f);
    lesson_state_free(s);
    lesson_free(l);
    free(text);
}
END_TEST

/* At most LESSON_MAX_EXERCISES exercises, the records the progress store
 * keeps of one lesson. */
START_TEST(test_exercise_limit)
{
    size_t size = 64 + (size_t)(LESSON_MAX_EXERCISES + 1) * 40;
    char *text = malloc(size);
    ck_assert_ptr_nonnull(text);
    size_t len = (size_t)sprintf(text, "lesson E\nlet X = [ 1 ]\nstep S\n");
    for (int i = 0; i <= LESSON_MAX_EXERCISES; i++)
        len += (size_t)sprintf(text + len, "  exercise q\n    answer X[1,1]\n  end\n");
    LessonError err;
    Lesson *l = lesson_parse(text, len, "e.lesson", &err);
    ck_assert_ptr_null(l);
    ck_assert_int_eq(err.code, ATTN_E_LIMIT);
    ck_assert_msg(strstr(err.msg, "more than the limit of 4096 exercises"), "message: %s", err.msg);
    ck_assert_int_eq(err.line, 4 + 3 * LESSON_MAX_EXERCISES);
    free(text);
}
END_TEST

START_TEST(test_huge_matrix_refused)
{
    expect_error("lesson H\nlet A = randn(2000000, 2000000)\n", ATTN_E_LIMIT, 2, 9,
                 "(4000000000000 elements); the limit is 4194304 elements per matrix");
    expect_error("lesson H\nlet A = zeros(2048, 2049)\n", ATTN_E_LIMIT, 2, 9, "the limit is 4194304");
    expect_error("lesson H\nlet A = ones(2000, 2000)\nlet B = A^T @ hcat(A, A)\n", ATTN_E_LIMIT, 3, 15,
                 "hcat(A, A) would make a 2000x4000 matrix");
    expect_error("lesson H\nlet A = ones(2000, 1)\nlet B = ones(1, 2100)\nlet C = A @ B\n", ATTN_E_LIMIT, 4, 11,
                 "A @ B would make a 2000x2100 matrix");
    /* exactly the limit is allowed */
    Lesson *l = parse_ok("lesson H\nlet A = zeros(2048, 2048)\n");
    LessonState *s = eval_ok(l, NULL, 0);
    ck_assert_int_eq(lesson_get(s, "A")->rows, 2048);
    lesson_state_free(s);
    lesson_free(l);
}
END_TEST

START_TEST(test_redefinition_refused)
{
    expect_error("lesson R\nlet A = [1]\nstep S\n  let B = A\n  let A = [2]\n", ATTN_E_NAME, 5, 7,
                 "'A' is already defined at line 2 (a let may not redefine a name)");
}
END_TEST

START_TEST(test_name_and_line_limits)
{
    size_t cap = (size_t)(LESSON_MAX_NAMES + 2) * 24 + 64;
    char *text = malloc(cap);
    size_t len = (size_t)sprintf(text, "lesson N\n");
    for (int i = 0; i <= LESSON_MAX_NAMES; i++)
        len += (size_t)sprintf(text + len, "let n%d = %d\n", i, i);
    LessonError err;
    Lesson *l = lesson_parse(text, len, "n.lesson", &err);
    ck_assert_ptr_null(l);
    ck_assert_int_eq(err.code, ATTN_E_LIMIT);
    ck_assert_int_eq(err.line, LESSON_MAX_NAMES + 2);
    ck_assert_msg(strstr(err.msg, "at most 4096 names"), "message: %s", err.msg);
    free(text);

    /* a line one character over the limit */
    text = malloc(LESSON_MAX_LINE + 64);
    len = (size_t)sprintf(text, "lesson L\nabout ");
    while (len < 9 + LESSON_MAX_LINE + 1)
        text[len++] = 'x';
    text[len++] = '\n';
    l = lesson_parse(text, len, "l.lesson", &err);
    ck_assert_ptr_null(l);
    ck_assert_int_eq(err.code, ATTN_E_LIMIT);
    ck_assert_int_eq(err.col, LESSON_MAX_LINE + 1);
    /* exactly the limit is fine */
    len = 9 + LESSON_MAX_LINE;
    text[len++] = '\n';
    l = lesson_parse(text, len, "l.lesson", &err);
    ck_assert_msg(l != NULL, "a line of exactly %d characters was refused: %s", LESSON_MAX_LINE, err.msg);
    lesson_free(l);
    free(text);
}
END_TEST

START_TEST(test_null_safe)
{
    lesson_free(NULL);
    lesson_state_free(NULL);
    ck_assert_int_eq(lesson_state_count(NULL), 0);
    ck_assert_ptr_null(lesson_state_get(NULL, "A"));
    ck_assert_ptr_null(lesson_state_nearest(NULL, "A"));
    LessonError err;
    Lesson *l = lesson_parse(NULL, 0, NULL, &err);
    ck_assert_ptr_null(l);
    ck_assert_msg(strstr(err.msg, "empty"), "message: %s", err.msg);
    ck_assert_ptr_null(lesson_eval_expr(NULL, "1", &err));
}
END_TEST

START_TEST(test_fuzzed_input_never_crashes)
{
    /* Every prefix of a lesson, and the lesson with each byte replaced, is
     * either accepted or refused with a position inside the text. */
    const char *base = "lesson F\nlayout rows\ntokens a b\nseed 1\nlet A = [1 2; 3 4]\n"
                       "step S\n  text\n    hi\n  end\n  let B = softmax_rows(A @ A^T / sqrt(2))\n"
                       "  exercise Q\n    answer B[1,2] = 0.5 within 1\n    hint h\n  end\n"
                       "check cols(hcat(A, B), 2, 3) = [2 1; 4 0] within 10\n";
    size_t n = strlen(base);
    char *buf = malloc(n + 1);
    const char subst[] = "([]);,@^-#\n\t=x9.";
    for (size_t cut = 0; cut <= n; cut++) {
        for (size_t k = 0; k < sizeof subst; k++) {
            memcpy(buf, base, n);
            size_t len = n;
            if (k == sizeof subst - 1)
                len = cut;          /* a prefix */
            else if (cut < n)
                buf[cut] = subst[k];
            LessonError err;
            Lesson *l = lesson_parse(buf, len, "f.lesson", &err);
            /* going on past errors: the same verdict, the same first error,
             * every one with a position */
            LessonError all[LESSON_MAX_ERRORS];
            int n_all = -1;
            Lesson *again = lesson_parse_all(buf, len, "f.lesson", all, LESSON_MAX_ERRORS, &n_all);
            ck_assert_msg(!again == !l && (l ? n_all == 0 : n_all >= 1), "%zu/%zu: %d errors", cut, k, n_all);
            if (!l)
                ck_assert_msg(all[0].line == err.line && all[0].col == err.col && strcmp(all[0].msg, err.msg) == 0,
                              "first %d:%d %s, not %d:%d %s", all[0].line, all[0].col, all[0].msg, err.line, err.col,
                              err.msg);
            for (int e = 0; e < n_all; e++)
                ck_assert_msg(all[e].line >= 1 && all[e].col >= 1 && all[e].msg[0], "error %d without a position", e);
            lesson_free(again);
            LessonState *s = l ? lesson_eval(l, NULL, 0, &err) : NULL;
            if (!s)
                ck_assert_msg(err.line >= 1 && err.col >= 1 && err.msg[0], "refusal without a position: %s",
                              err.msg);
            if (s) {
                VerifyResult *res;
                int nr;
                ck_assert_int_eq(lesson_verify(l, s, &res, &nr), ATTN_OK);
                free(res);
            }
            lesson_state_free(s);
            lesson_free(l);
        }
    }
    free(buf);
}
END_TEST

/* A line too long to quote whole is quoted as a window around the column,
 * with the caret under the character at fault
 * wherever it is on the line: near the start, in the middle, at the end. */
START_TEST(test_long_line_window)
{
    static const struct { int before, after; } shapes[] = { { 0, 150 }, { 150, 100 }, { 150, 0 } };
    for (size_t t = 0; t < sizeof shapes / sizeof *shapes; t++) {
        char text[4096];
        int n = snprintf(text, sizeof text, "lesson T\nlet A = 1\nlet Z = 1\nlet B = ");
        for (int i = 0; i < shapes[t].before; i++)
            n += snprintf(text + n, sizeof text - (size_t)n, "A + Z + ");
        int col = n - (int)strlen("lesson T\nlet A = 1\nlet Z = 1\n") + 1;
        n += snprintf(text + n, sizeof text - (size_t)n, "Qx");
        for (int i = 0; i < shapes[t].after; i++)
            n += snprintf(text + n, sizeof text - (size_t)n, " + A");
        snprintf(text + n, sizeof text - (size_t)n, "\n");
        LessonError err;
        Lesson *l = lesson_parse(text, strlen(text), "t.lesson", &err);
        ck_assert_ptr_null(l);
        ck_assert_msg(err.line == 4 && err.col == col, "at %d:%d, expected 4:%d", err.line, err.col, col);
        char buf[1024];
        term_lesson_error(&err, buf, sizeof buf);
        char *quote = strchr(buf, '\n') + 1, *caret = strchr(quote, '\n') + 1;
        *strchr(caret, '\n') = '\0';
        caret[-1] = '\0';
        ck_assert_msg(strlen(quote) < sizeof err.source_line && strlen(quote) >= 100, "quoted %zu bytes: %s",
                      strlen(quote), quote);
        ck_assert_int_eq(strncmp(quote, "...", 3) == 0, shapes[t].before > 0);
        ck_assert_int_eq(strcmp(quote + strlen(quote) - 3, "...") == 0, shapes[t].after > 0);
        /* the caret's display column, counted in characters of the quote */
        size_t spaces = strspn(caret, " "), chars = 0, i = 0;
        ck_assert_msg(caret[spaces] == '^' && caret[spaces + 1] == '\0', "caret line '%s'", caret);
        while (chars < spaces && quote[i]) {
            i++;
            while (((unsigned char)quote[i] & 0xC0) == 0x80)
                i++;
            chars++;
        }
        ck_assert_msg(strncmp(quote + i, "Qx", 2) == 0, "the caret is under '%.8s', not 'Qx':\n%s\n%s", quote + i,
                      quote, caret);
    }
    /* cut between whole characters: both ends of the window would fall
     * inside a two-byte character around this bad byte */
    char text[1024];
    int n = snprintf(text, sizeof text, "lesson T\n# ");
    for (int i = 0; i < 300; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, "\xc3\xa9");
    n += snprintf(text + n, sizeof text - (size_t)n, "x\xffy");
    for (int i = 0; i < 100; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, "\xc3\xa9");
    snprintf(text + n, sizeof text - (size_t)n, "\n");
    LessonError err;
    ck_assert_ptr_null(lesson_parse(text, strlen(text), "t.lesson", &err));
    ck_assert_int_eq(err.col, 604);
    const char *q = err.source_line;
    size_t len = strlen(q);
    ck_assert_msg(strncmp(q, "...\xc3\xa9", 5) == 0, "the window starts inside a character: %s", q);
    ck_assert_msg(len > 8 && strcmp(q + len - 5, "\xc3\xa9...") == 0, "the window ends inside a character: %s", q);
    char buf[1024];
    const char *caret = strchr(strchr(term_lesson_error(&err, buf, sizeof buf), '\n') + 1, '\n') + 1;
    size_t chars = 0;   /* characters of the quote before the '?' */
    for (const char *p = q; *p != '?'; p++)
        chars += ((unsigned char)*p & 0xC0) != 0x80;
    ck_assert_msg(strspn(caret, " ") == chars && caret[chars] == '^', "caret at %zu, the bad byte at %zu",
                  strspn(caret, " "), chars);
}
END_TEST

/* A lesson of exactly LESSON_MAX_BYTES parses; one byte more is refused
 * with the limit named, before anything is read into the Lesson. */
START_TEST(test_file_size_limit)
{
    size_t len = (size_t)LESSON_MAX_BYTES;
    char *text = malloc(len + 2);
    ck_assert_ptr_nonnull(text);
    size_t n = (size_t)sprintf(text, "lesson Big\nlet A = [1 2]\n");
    while (n < len) {
        size_t line = len - n > 80 ? 80 : len - n;
        memset(text + n, '#', line - 1);
        text[n + line - 1] = '\n';
        n += line;
    }
    LessonError err;
    Lesson *l = lesson_parse(text, len, "big.lesson", &err);
    ck_assert_msg(l != NULL, "a lesson of exactly the limit was refused: %s", err.msg);
    lesson_free(l);
    text[len] = '\n';
    l = lesson_parse(text, len + 1, "big.lesson", &err);
    ck_assert_ptr_null(l);
    ck_assert_int_eq(err.code, ATTN_E_LIMIT);
    ck_assert_int_eq(err.line, 0);
    ck_assert_str_eq(err.file, "big.lesson");
    ck_assert_str_eq(err.msg, "the lesson is larger than the limit of 1048576 bytes");
    char buf[512];
    ck_assert_str_eq(term_lesson_error(&err, buf, sizeof buf),
                     "big.lesson: error: the lesson is larger than the limit of 1048576 bytes\n");
    free(text);
}
END_TEST

/* All the matrices of one evaluation together are bounded too: sixteen
 * of the largest allowed fill LESSON_MAX_TOTAL, and the scalars on top
 * pass it, so the 15th let is refused (A itself is the first). */
START_TEST(test_total_elements_limit)
{
    char text[2048];
    int n = snprintf(text, sizeof text, "lesson T\nlet A = zeros(2048, 2048)\n");
    for (int i = 0; i < 14; i++)
        n += snprintf(text + n, sizeof text - (size_t)n, "let B%d = A + %d\n", i, i);
    Lesson *l = parse_ok(text);
    LessonState *s = eval_ok(l, NULL, 0);
    ck_assert_int_eq(lesson_state_count(s), 15);
    lesson_state_free(s);
    lesson_free(l);
    snprintf(text + n, sizeof text - (size_t)n, "let B14 = A + 14\n");
    expect_error(text, ATTN_E_LIMIT, 17, 13,
                 "the lesson's matrices would hold more than 67108864 numbers in all (256 MB); that is the limit "
                 "for one lesson");
}
END_TEST

/* A parse going on past its errors keeps at most max of them, and stops at
 * the first limit passed, whatever follows. */
START_TEST(test_errors_kept_are_capped)
{
    char text[4096] = "lesson Many\n";
    for (int i = 0; i < 30; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "let a%d = %d.%d.%d\n", i, i, i, i);
    LessonError errs[LESSON_MAX_ERRORS + 1];
    int n = -1;
    ck_assert_ptr_null(lesson_parse_all(text, strlen(text), "m.lesson", errs, LESSON_MAX_ERRORS + 1, &n));
    ck_assert_int_eq(n, LESSON_MAX_ERRORS + 1);
    ck_assert_int_eq(errs[LESSON_MAX_ERRORS].line, LESSON_MAX_ERRORS + 2);
    ck_assert_ptr_null(lesson_parse_all(text, strlen(text), "m.lesson", errs, 3, &n));
    ck_assert_int_eq(n, 3);
    const char *limit = "lesson L\nlet a23456789012345678901234567890123 = 1\nlet b = Q\n";
    ck_assert_ptr_null(lesson_parse_all(limit, strlen(limit), "l.lesson", errs, LESSON_MAX_ERRORS, &n));
    ck_assert_msg(n == 1 && errs[0].code == ATTN_E_LIMIT, "%d errors, the first: %s", n, errs[0].msg);
    /* a text that parses has none */
    const char *good = "lesson G\nlet a = 1\n";
    Lesson *l = lesson_parse_all(good, strlen(good), "g.lesson", errs, LESSON_MAX_ERRORS, &n);
    ck_assert_ptr_nonnull(l);
    ck_assert_int_eq(n, 0);
    lesson_free(l);
}
END_TEST

Suite *lesson_limits_suite(void)
{
    Suite *s = suite_create("lesson_limits");
    TCase *limits = tcase_create("limits");
    tcase_set_timeout(limits, 60);
    tcase_add_test(limits, test_exercise_limit);
    tcase_add_test(limits, test_deep_nesting_refused);
    tcase_add_test(limits, test_huge_matrix_refused);
    tcase_add_test(limits, test_redefinition_refused);
    tcase_add_test(limits, test_name_and_line_limits);
    tcase_add_test(limits, test_long_line_window);
    tcase_add_test(limits, test_file_size_limit);
    tcase_add_test(limits, test_total_elements_limit);
    tcase_add_test(limits, test_null_safe);
    tcase_add_test(limits, test_errors_kept_are_capped);
    tcase_add_test(limits, test_fuzzed_input_never_crashes);
    suite_add_tcase(s, limits);
    return s;
}
