/*
 * check_lesson_text.c - the text a lesson may be written in: a UTF-8
 * byte-order mark, CRLF line ends and lines joined by a backslash are
 * accepted, with errors still at the file's true line and column; C1
 * controls and the bidirectional overrides and isolates are refused by
 * name; and nothing of a refused character reaches a formatted error.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "lesson.h"
#include "teach.h"

static Lesson *parse_ok(const char *text, size_t len)
{
    LessonError err;
    Lesson *l = lesson_parse(text, len, "t.lesson", &err);
    char buf[1024];
    ck_assert_msg(l != NULL, "refused: %s", term_lesson_error(&err, buf, sizeof buf));
    return l;
}

/* text is refused at line:col with exactly msg. */
static void expect_refused(const char *text, int line, int col, const char *msg)
{
    LessonError err;
    Lesson *l = lesson_parse(text, strlen(text), "t.lesson", &err);
    LessonState *s = l ? lesson_eval(l, NULL, 0, &err) : NULL;
    ck_assert_msg(s == NULL, "accepted: %s", text);
    ck_assert_msg(err.line == line && err.col == col, "at %d:%d, expected %d:%d (%s)", err.line, err.col, line,
                  col, err.msg);
    ck_assert_str_eq(err.msg, msg);
    lesson_free(l);
}

START_TEST(test_byte_order_mark)
{
    const char text[] = "\xEF\xBB\xBFlesson Saved by Notepad\nlet A = [1 2]\ncheck A[1,2] = 2\n";
    Lesson *l = parse_ok(text, sizeof text - 1);
    ck_assert_str_eq(lesson_title(l), "Saved by Notepad");
    lesson_free(l);
    /* columns count from the character after the mark */
    expect_refused("\xEF\xBB\xBFlesson T\nlet A = Q\n", 2, 9, "unknown name 'Q'");
    expect_refused("\xEF\xBB\xBFlessen T\n", 1, 1, "a lesson starts with 'lesson TITLE', not 'lessen'");
    /* only at the very start: a second mark is a character like any other */
    expect_refused("\xEF\xBB\xBF\xEF\xBB\xBFlesson T\n", 1, 1,
                   "a lesson starts with 'lesson TITLE', not '\xEF\xBB\xBF'");
}
END_TEST

START_TEST(test_crlf)
{
    const char *text = "lesson Windows\r\nabout From Notepad.\r\ntokens a b\r\nstep One\r\n  text\r\n"
                       "    Line one\r\n    and two.\r\n  end\r\n  exercise Q?\r\n    answer 1 = 1\r\n"
                       "    hint H\r\n  end\r\ncheck 1 = 1\r\n";
    Lesson *l = parse_ok(text, strlen(text));
    ck_assert_str_eq(lesson_title(l), "Windows");
    ck_assert_str_eq(lesson_about(l), "From Notepad.");
    ck_assert_str_eq(lesson_token(l, 1), "b");
    const LessonStep *st = lesson_step(l, 0);
    ck_assert_str_eq(st->title, "One");
    ck_assert_str_eq(st->text, "Line one and two.");
    ck_assert_str_eq(st->exercises[0].question, "Q?");
    ck_assert_str_eq(st->exercises[0].hints[0], "H");
    lesson_free(l);
    /* errors: the same columns as with LF, and no CR in the quoted line */
    LessonError err;
    const char *bad = "lesson T\r\nlet B = [1]\r\nlet C = Bb + B\r\n";
    ck_assert_ptr_null(lesson_parse(bad, strlen(bad), "w.lesson", &err));
    char buf[1024];
    ck_assert_str_eq(term_lesson_error(&err, buf, sizeof buf),
                     "w.lesson:3:9: error: unknown name 'Bb'; did you mean 'B'?\n"
                     "let C = Bb + B\n"
                     "        ^\n");
}
END_TEST

START_TEST(test_continued_lines)
{
    const char *text =
        "lesson A title \\\n"
        "       on two lines\n"
        "about  So is \\\r\n"
        "  this.\n"
        "tokens t1 t2 \\\n"
        "       t3\\\n"
        "t4\n"
        "let X = [1 2 3 4] + \\\n"
        "        1\n"
        "labels X cols a b \\\n"
        "  c d\n"
        "step One \\\n"
        "  step\n"
        "  text\n"
        "    Prose may \\\n"
        "        continue too.\n"
        "  end\n"
        "  exercise What is \\\n"
        "      X[1,4]?\n"
        "    answer X[1,4] \\\n"
        "       = 5\n"
        "    hint Add \\\n"
        "      one.\n"
        "  end\n"
        "# a comment \\\n"
        "  goes on too\n"
        "check X[1,1] = \\\n"
        "      2\n"
        "check 1 = 1 # a\\b is not a joint\n";
    Lesson *l = parse_ok(text, strlen(text));
    ck_assert_str_eq(lesson_title(l), "A title on two lines");
    ck_assert_str_eq(lesson_about(l), "So is this.");
    ck_assert_int_eq(lesson_n_tokens(l), 4);
    ck_assert_str_eq(lesson_token(l, 2), "t3");
    ck_assert_str_eq(lesson_token(l, 3), "t4");
    const LessonStep *st = lesson_step(l, 0);
    ck_assert_str_eq(st->title, "One step");
    ck_assert_int_eq(st->line, 12);
    ck_assert_str_eq(st->text, "Prose may continue too.");
    ck_assert_str_eq(st->exercises[0].question, "What is X[1,4]?");
    ck_assert_int_eq(st->exercises[0].line, 18);
    ck_assert_str_eq(st->exercises[0].answer, "X[1,4]");
    ck_assert_str_eq(st->exercises[0].hints[0], "Add one.");
    LessonError err;
    LessonState *s = lesson_eval(l, NULL, 0, &err);
    ck_assert_ptr_nonnull(s);
    const Mat *x = lesson_state_get(s, "X");
    ck_assert_str_eq(mat_col_label(x, 3), "d");
    VerifyResult *res;
    int n;
    ck_assert_int_eq(lesson_verify(l, s, &res, &n), ATTN_OK);
    ck_assert_int_eq(n, 3);
    for (int i = 0; i < n; i++)
        ck_assert_msg(res[i].passed, "%d: %s -- %s", res[i].line, res[i].what, res[i].detail);
    ck_assert_str_eq(res[1].what, "X[1,1] = 2");
    ck_assert_int_eq(res[1].line, 27);
    free(res);
    lesson_state_free(s);
    lesson_free(l);

    /* a backslash that does not end the line is itself */
    l = parse_ok("lesson a\\b\n", 11);
    ck_assert_str_eq(lesson_title(l), "a\\b");
    lesson_free(l);

    /* errors on a continued line name the line and column in the file */
    expect_refused("lesson T\nlet A = [1 2]\nlet B = A + \\\n    Q\n", 4, 5, "unknown name 'Q'");
    expect_refused("lesson T\ntokens a \\\n  b\nlet B = \\\r\n  [1 2] @ \\\r\n [3 4]\n", 5, 9,
                   "`@` needs the columns of [1 2] (2) to equal the rows of [3 4] (1): [1 2] is 1x2, [3 4] is 1x2");
    expect_refused("lesson T\nlabels \\\n  Q rows a\n", 3, 3, "unknown name 'Q' in 'labels'");
}
END_TEST

/* The case: 2048 tokens, more than one line can hold. */
START_TEST(test_many_tokens)
{
    size_t cap = 2048 * 12 + 64, len = 0;
    char *text = malloc(cap);
    len += (size_t)sprintf(text + len, "lesson Long\ntokens");
    for (int i = 0; i < 2048; i++)
        len += (size_t)sprintf(text + len, i % 256 == 255 ? " w%d \\\n" : " w%d", i);
    len += (size_t)sprintf(text + len, "\n");
    Lesson *l = parse_ok(text, len);
    ck_assert_int_eq(lesson_n_tokens(l), 2048);
    ck_assert_str_eq(lesson_token(l, 2047), "w2047");
    lesson_free(l);
    /* on one line it is refused, and the message says how to go on */
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\\')
            text[i] = ' ', text[i + 1] = ' ';
    LessonError err;
    ck_assert_ptr_null(lesson_parse(text, len, "l.lesson", &err));
    ck_assert_int_eq(err.line, 2);
    ck_assert_int_eq(err.col, LESSON_MAX_LINE + 1);
    ck_assert_msg(strstr(err.msg, "; the limit is 4096 (end a line with '\\' to continue it on the next)"),
                  "message: %s", err.msg);
    free(text);
}
END_TEST

START_TEST(test_hostile_code_points)
{
    static const struct { unsigned cp; const char *name; } named[] = {
        { 0x80, "a C1 control character" },
        { 0x85, "a C1 control character" },
        { 0x9B, "control sequence introducer, a C1 control character" },
        { 0x9F, "a C1 control character" },
        { 0x202A, "left-to-right embedding" },
        { 0x202B, "right-to-left embedding" },
        { 0x202C, "pop directional formatting" },
        { 0x202D, "left-to-right override" },
        { 0x202E, "right-to-left override" },
        { 0x2066, "left-to-right isolate" },
        { 0x2067, "right-to-left isolate" },
        { 0x2068, "first strong isolate" },
        { 0x2069, "pop directional isolate" },
    };
    for (unsigned cp = 0x80; cp <= 0x206F; cp++) {
        if (cp == 0xA0)
            cp = 0x2020;    /* the two ranges, and what is around them */
        int c1 = cp <= 0x9F, bidi = (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
        char enc[5];
        int k = cp < 0x800 ? 2 : 3;
        if (k == 2) {
            enc[0] = (char)(0xC0 | (cp >> 6));
            enc[1] = (char)(0x80 | (cp & 0x3F));
        } else {
            enc[0] = (char)(0xE0 | (cp >> 12));
            enc[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
            enc[2] = (char)(0x80 | (cp & 0x3F));
        }
        char text[64];
        int len = snprintf(text, sizeof text, "lesson T\nstep S\n  text\n    ab%.*scd\n  end\n", k, enc);
        LessonError err;
        Lesson *l = lesson_parse(text, (size_t)len, "h.lesson", &err);
        if (!c1 && !bidi) {
            ck_assert_msg(l != NULL, "U+%04X refused: %s", cp, err.msg);
            lesson_free(l);
            continue;
        }
        ck_assert_msg(l == NULL, "U+%04X accepted", cp);
        ck_assert_int_eq(err.line, 4);
        ck_assert_int_eq(err.col, 7);
        char want[160];
        const char *name = c1 ? "a C1 control character" : NULL;
        for (size_t i = 0; i < sizeof named / sizeof *named; i++)
            if (named[i].cp == cp)
                name = named[i].name;
        ck_assert_ptr_nonnull(name);
        snprintf(want, sizeof want, "U+%04X (%s) is not allowed in a lesson", cp, name);
        ck_assert_str_eq(err.msg, want);
        /* the quoted line shows a stand-in, never the character itself */
        char buf[1024];
        term_lesson_error(&err, buf, sizeof buf);
        enc[k] = '\0';
        ck_assert_msg(!strstr(buf, enc), "U+%04X reaches the error:\n%s", cp, buf);
        ck_assert_msg(strstr(buf, k == 2 ? "\n    ab\xc2\xbf" "cd\n      ^\n" : "\n    ab\xef\xbf\xbd" "cd\n      ^\n"),
                      "U+%04X: %s", cp, buf);
    }
}
END_TEST

START_TEST(test_escape)
{
    char buf[256];
    ck_assert_str_eq(term_escape("plain/\xc3\xa9t\xc3\xa9.lesson", buf, sizeof buf), "plain/\xc3\xa9t\xc3\xa9.lesson");
    ck_assert_str_eq(term_escape("a\x1b[2Jb\tc\\d\x7f", buf, sizeof buf), "a\\x1b[2Jb\\x09c\\\\d\\x7f");
    ck_assert_str_eq(term_escape("\xc2\x9b\xe2\x80\xae\xff", buf, sizeof buf), "\\xc2\\x9b\\xe2\\x80\\xae\\xff");
    /* cut on a whole escape, never inside one */
    char small[8];
    ck_assert_str_eq(term_escape("ab\x1b\x1b", small, sizeof small), "ab\\x1b");
    /* a file name in an error is shown escaped */
    LessonError err;
    ck_assert_ptr_null(lesson_parse("lesson T\nlet A = Q\n", 19, "x\x1b]0;owned\x07.lesson", &err));
    ck_assert_str_eq(term_lesson_error(&err, buf, sizeof buf),
                     "x\\x1b]0;owned\\x07.lesson:2:9: error: unknown name 'Q'\nlet A = Q\n        ^\n");
}
END_TEST

Suite *lesson_text_suite(void)
{
    Suite *s = suite_create("lesson_text");
    TCase *core = tcase_create("core");
    tcase_add_test(core, test_byte_order_mark);
    tcase_add_test(core, test_crlf);
    tcase_add_test(core, test_continued_lines);
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_add_test(limits, test_many_tokens);
    tcase_add_test(limits, test_hostile_code_points);
    tcase_add_test(limits, test_escape);
    suite_add_tcase(s, limits);
    return s;
}
