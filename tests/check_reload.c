/*
 * check_reload.c - what live reload decides without a screen
 * (app/session/session.c, filestamp.c): which of the user's cell edits still apply to a new
 * version of a lesson, and the file stamps that notice a save, a file
 * replaced by rename, a touch, and a file gone.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lesson.h"
#include "testutil.h"
#include "filestamp.h"
#include "session.h"

/* The new version: X is 2x3 now, W became computed, R is drawn. */
static const char *new_version =
    "lesson Reloaded\n"
    "let X = [ 1 2 3 ; 4 5 6 ]\n"
    "seed 7\n"
    "let R = randn(2, 2)\n"
    "step One\n"
    "  let W = X @ X^T\n"
    "  show X W R\n";

static LessonState *eval_text(const char *text, Lesson **l)
{
    LessonError err;
    *l = lesson_parse(text, strlen(text), "new.lesson", &err);
    ck_assert_msg(*l != NULL, "the test lesson does not parse: %d:%d: %s", err.line, err.col, err.msg);
    LessonState *s = lesson_eval(*l, NULL, 0, &err);
    ck_assert_msg(s != NULL, "the test lesson does not evaluate: %d:%d: %s", err.line, err.col, err.msg);
    return s;
}

static LessonEdit edit(const char *name, int row, int col, float value)
{
    LessonEdit e;
    memset(&e, 0, sizeof e);
    snprintf(e.name, sizeof e.name, "%s", name);
    e.row = row;
    e.col = col;
    e.value = value;
    return e;
}

START_TEST(edits_that_still_apply_are_kept_in_order)
{
    Lesson *l;
    LessonState *s = eval_text(new_version, &l);
    LessonEdit edits[] = {
        edit("X", 1, 2, 10),    /* kept: X grew to 2x3 */
        edit("Gone", 0, 0, 1),  /* dropped: no such name now */
        edit("X", 2, 0, 2),     /* dropped: row 3 is outside 2x3 */
        edit("W", 0, 0, 3),     /* dropped: W is computed now */
        edit("R", 1, 1, 4),     /* kept: randn is an input */
        edit("X", 0, 3, 5),     /* dropped: column 4 is outside */
        edit("X", 0, 0, 6),     /* kept */
        edit("X", -1, 0, 7),    /* dropped: negative */
    };
    int kept = edits_still_apply(edits, 8, s);
    ck_assert_msg(kept == 3, "kept %d edits, want 3 (X[2,3], R[2,2], X[1,1])", kept);
    ck_assert_msg(strcmp(edits[0].name, "X") == 0 && edits[0].row == 1 && edits[0].col == 2 && edits[0].value == 10,
                  "first kept: %s[%d,%d] = %g, want X[2,3] = 10", edits[0].name, edits[0].row + 1, edits[0].col + 1,
                  (double)edits[0].value);
    ck_assert_msg(strcmp(edits[1].name, "R") == 0 && edits[1].value == 4, "second kept: %s = %g, want R = 4",
                  edits[1].name, (double)edits[1].value);
    ck_assert_msg(strcmp(edits[2].name, "X") == 0 && edits[2].row == 0 && edits[2].value == 6,
                  "third kept: %s[%d,%d] = %g, want X[1,1] = 6", edits[2].name, edits[2].row + 1, edits[2].col + 1,
                  (double)edits[2].value);
    /* what is kept evaluates: lesson_eval accepts every one */
    LessonError err;
    LessonState *with = lesson_eval(l, edits, kept, &err);
    ck_assert_msg(with != NULL, "the kept edits do not evaluate: %s", err.msg);
    ck_assert_msg(mat_get(lesson_state_get(with, "X"), 1, 2) == 10, "the edit X[2,3] = 10 was not applied");
    lesson_state_free(with);
    lesson_state_free(s);
    lesson_free(l);
}
END_TEST

START_TEST(file_stamps_see_saves)
{
    const char *p = write_temp(".lesson", "lesson One\n");
    ck_assert_ptr_nonnull(p);
    char path[256];
    snprintf(path, sizeof path, "%s", p);
    FileStamp a = file_stamp(path), b = file_stamp(path);
    ck_assert_msg(a.exists && a.size == 11, "stamp of a fresh 11-byte file: exists %d, size %lld", a.exists, a.size);
    ck_assert_msg(file_stamp_same(&a, &b), "two stamps of an unchanged file differ");
    /* the same size, a new modification time (set exactly: no sleeping) */
    struct timespec times[2] = { { 1000000000, 0 }, { 1000000000, 5 } };
    ck_assert_int_eq(utimensat(AT_FDCWD, path, times, 0), 0);
    b = file_stamp(path);
    ck_assert_msg(!file_stamp_same(&a, &b), "a new mtime (5 ns later) went unnoticed");
    ck_assert_msg(b.mtime_s == 1000000000 && b.mtime_ns == 5, "mtime %lld.%09lld, want 1000000000.000000005",
                  b.mtime_s, b.mtime_ns);
    /* replaced by rename: a new inode */
    char other[300];
    snprintf(other, sizeof other, "%s.new", path);
    FILE *f = fopen(other, "w");
    ck_assert_ptr_nonnull(f);
    fputs("lesson Two\n", f);
    fclose(f);
    ck_assert_int_eq(utimensat(AT_FDCWD, other, times, 0), 0);
    ck_assert_int_eq(rename(other, path), 0);
    FileStamp c = file_stamp(path);
    ck_assert_msg(c.size == b.size && c.ino != b.ino && !file_stamp_same(&b, &c),
                  "a same-size, same-mtime file renamed over it went unnoticed (ino %llu -> %llu)", b.ino, c.ino);
    unlink(path);
    FileStamp gone = file_stamp(path);
    ck_assert_msg(!gone.exists && !file_stamp_same(&c, &gone), "a removed file still has a stamp");
}
END_TEST

START_TEST(nothing_applies_without_a_state)
{
    LessonEdit edits[] = { edit("X", 0, 0, 1) };
    ck_assert_int_eq(edits_still_apply(edits, 1, NULL), 0);
    ck_assert_int_eq(edits_still_apply(edits, 0, NULL), 0);
    FileStamp none = file_stamp(NULL), missing = file_stamp("/nonexistent/attn/x.lesson");
    ck_assert_msg(!none.exists && !missing.exists, "a stamp for no file");
    ck_assert_msg(file_stamp_same(&none, &missing), "two missing files should look the same");
}
END_TEST

Suite *reload_suite(void)
{
    Suite *s = suite_create("reload");
    TCase *core = tcase_create("core");
    tcase_add_test(core, edits_that_still_apply_are_kept_in_order);
    tcase_add_test(core, file_stamps_see_saves);
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_add_test(limits, nothing_applies_without_a_state);
    suite_add_tcase(s, limits);
    return s;
}
