/*
 * check_course.c - the course: a folder's COURSE file read into parts
 * (app/session/course.c), the catalogue in its order with each part's
 * completion (catalogue.c), `attn progress` with the parts' headings and
 * the course's total, in text and JSON; a COURSE file refused with
 * FILE:LINE:COL and the lessons still listed; the shipped course.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalogue.h"
#include "course.h"
#include "testutil.h"

static char dir[64];

static void put(const char *name, const char *text)
{
    char path[300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

static void put_lesson(const char *name, const char *title)
{
    char text[400];
    snprintf(text, sizeof text,
             "lesson %s\nabout One exercise.\nlet X = [ 1 2 ]\nstep S\n  show X\n"
             "  exercise What is X[1,2]?\n    answer X[1,2] = 2 within 0\n  end\n",
             title);
    put(name, text);
}

/* A folder of four lessons; COURSE is written by each test. */
static void make_folder(void)
{
    snprintf(dir, sizeof dir, "/tmp/attn-course-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    put_lesson("a.lesson", "Alpha");
    put_lesson("b.lesson", "Beta");
    put_lesson("c.lesson", "Gamma");
    put_lesson("d.lesson", "Delta");
}

static void remove_folder(void)
{
    CmdResult r = cmd_runf("rm -rf %s", dir);
    cmd_free(&r);
}

static const char *base(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

START_TEST(parts_in_the_course_order)
{
    make_folder();
    put("COURSE", "# the order\n\npart First things\n  c.lesson\na.lesson   \npart Then\nb.lesson\n");
    Catalogue c;
    ck_assert_int_eq(catalogue_load(&c, dir), 0);
    ck_assert_str_eq(c.course_error, "");
    ck_assert_int_eq(c.n, 4);
    ck_assert_int_eq(c.n_parts, 3);
    const char *order[] = { "c.lesson", "a.lesson", "b.lesson", "d.lesson" };
    const int part[] = { 0, 0, 1, 2 };
    for (int i = 0; i < 4; i++) {
        ck_assert_str_eq(base(c.entries[i].path), order[i]);
        ck_assert_int_eq(c.entries[i].part, part[i]);
    }
    ck_assert_str_eq(c.parts[0].title, "First things");
    ck_assert_int_eq(c.parts[0].first, 0);
    ck_assert_int_eq(c.parts[0].n, 2);
    ck_assert_int_eq(c.parts[0].n_exercises, 2);
    ck_assert_str_eq(c.parts[1].title, "Then");
    ck_assert_int_eq(c.parts[1].first, 2);
    /* what the course does not list comes last, under its own heading */
    ck_assert_str_eq(c.parts[2].title, "More lessons");
    ck_assert_int_eq(c.parts[2].first, 3);
    ck_assert_int_eq(c.parts[2].n, 1);
    catalogue_free(&c);
    /* without a COURSE file: one list, by name */
    unlink(strcat(strcpy((char[128]){ 0 }, dir), "/COURSE"));
    ck_assert_int_eq(catalogue_load(&c, dir), 0);
    ck_assert_int_eq(c.n_parts, 0);
    ck_assert_str_eq(base(c.entries[0].path), "a.lesson");
    ck_assert_int_eq(c.entries[0].part, -1);
    catalogue_free(&c);
    remove_folder();
}
END_TEST

typedef struct {
    const char *text;
    const char *want;   /* after "DIR/COURSE:" */
} Refusal;

START_TEST(a_refused_course_says_where)
{
    make_folder();
    static const Refusal refusals[] = {
        { "a.lesson\npart P\n", "1:1: 'a.lesson' comes before the first 'part' line" },
        { "part P\n  z.lesson\n", "2:3: no lesson 'z.lesson' in " },
        { "part P\na.lesson\npart Q\nb.lesson\na.lesson\n", "5:1: 'a.lesson' is listed twice (first on line 2)" },
        { "part P\npart Q\na.lesson\n", "1:1: the part 'P' lists no lesson" },
        { "part P\na.lesson\npart Q\n", "3:1: the part 'Q' lists no lesson" },
        { "part\na.lesson\n", "1:5: 'part' needs a title" },
        { "part P\n../a.lesson\n", "2:1: expected 'part TITLE' or the name of a .lesson file of this folder, "
                                   "not '../a.lesson'" },
        { "part P\nlesson a.lesson\n", "2:1: expected 'part TITLE' or the name of a .lesson file" },
    };
    for (size_t i = 0; i < sizeof refusals / sizeof *refusals; i++) {
        put("COURSE", refusals[i].text);
        Course c;
        char why[600], want[700];
        ck_assert_int_eq(course_read(dir, &c, why, sizeof why), -1);
        ck_assert_int_eq(c.n_parts, 0);
        snprintf(want, sizeof want, "%s/COURSE:%s", dir, refusals[i].want);
        ck_assert_msg(strncmp(why, want, strlen(want)) == 0, "%s\ngot:  %s\nwant: %s", refusals[i].text, why, want);
        /* the lessons are still all listed, in file order, and why is said */
        Catalogue cat;
        ck_assert_int_eq(catalogue_load(&cat, dir), 0);
        ck_assert_int_eq(cat.n, 4);
        ck_assert_int_eq(cat.n_parts, 0);
        ck_assert_str_eq(cat.course_error, why);
        catalogue_free(&cat);
    }
    /* a FIFO named COURSE is refused at once, never waited on */
    char path[300];
    snprintf(path, sizeof path, "%s/COURSE", dir);
    unlink(path);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    Course c;
    char why[600];
    ck_assert_int_eq(course_read(dir, &c, why, sizeof why), -1);
    ck_assert_msg(strstr(why, "COURSE: ") && strstr(why, "FIFO"), "%s", why);
    remove_folder();
}
END_TEST

START_TEST(progress_shows_the_parts_and_the_course)
{
    make_folder();
    put("COURSE", "part First things\nc.lesson\na.lesson\npart Then\nb.lesson\n");
    char state[100];
    snprintf(state, sizeof state, "%s/state", dir);
    /* Alpha solved and finished, as the store keeps it */
    mkdir(state, 0700);
    char path[200];
    snprintf(path, sizeof path, "%s/progress", state);
    FILE *f = fopen(path, "w");
    fputs("attn-progress 2\nL\tAlpha\tS\t1\t1\nE\tAlpha\tX[1,2]\tWhat is X[1,2]?\tright\t1\t0\t1\n", f);
    fclose(f);
    CmdResult r = cmd_runf("ATTN_LESSONS=%s ATTN_STATE_DIR=%s %s progress", dir, state, attn_bin());
    ck_assert_msg(r.status == 0, "%s%s", r.out, r.err);
    const char *first = strstr(r.out, "\nFirst things  (1/2 lessons finished, 1/2 exercises right)\nGamma ");
    ck_assert_msg(first != NULL, "%s", r.out);
    const char *then = strstr(r.out, "\nThen  (0/1 lessons finished, 0/1 exercises right)\nBeta ");
    const char *more = strstr(r.out, "\nMore lessons  (0/1 lessons finished, 0/1 exercises right)\nDelta ");
    ck_assert_msg(then && more && first < then && then < more, "%s", r.out);
    ck_assert_msg(strstr(r.out, "\nCourse: 1 of 4 lessons finished, 1/4 exercises right\n"), "%s", r.out);
    cmd_free(&r);
    r = cmd_runf("ATTN_LESSONS=%s ATTN_STATE_DIR=%s %s progress --json", dir, state, attn_bin());
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "\"course\": {\"lessons\": 4, \"finished\": 1, \"solved\": 1, \"total\": 4, \"parts\": ["),
                  "%s", r.out);
    char want[600];
    snprintf(want, sizeof want,
             "{\"title\": \"First things\", \"files\": [\"%s/c.lesson\", \"%s/a.lesson\"], \"lessons\": 2, "
             "\"finished\": 1, \"solved\": 1, \"total\": 2}", dir, dir);
    ck_assert_msg(strstr(r.out, want), "%s\nwant %s", r.out, want);
    cmd_free(&r);
    /* a refused COURSE: said on stderr, the table as before */
    put("COURSE", "part P\nnope.lesson\n");
    r = cmd_runf("ATTN_LESSONS=%s ATTN_STATE_DIR=%s %s progress", dir, state, attn_bin());
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.err, "the course is not shown, its COURSE file is refused: ") &&
                  strstr(r.err, "/COURSE:2:1: no lesson 'nope.lesson' in "), "%s", r.err);
    ck_assert_msg(!strstr(r.out, "Course:") && strstr(r.out, "Alpha"), "%s", r.out);
    cmd_free(&r);
    remove_folder();
}
END_TEST

/* The shipped course lists every shipped lesson: the notebooks' nine, the
 * six beyond them, then the model trained here. */
START_TEST(the_shipped_course)
{
    Catalogue c;
    ck_assert_int_eq(catalogue_load(&c, lessons_dir()), 0);
    ck_assert_str_eq(c.course_error, "");
    ck_assert_int_eq(c.n_parts, 3);
    ck_assert_int_eq(c.parts[0].n, 9);
    ck_assert_int_eq(c.parts[1].n, 6);
    ck_assert_int_eq(c.parts[2].n, 2);
    ck_assert_str_eq(base(c.entries[0].path), "01-key-query.lesson");
    ck_assert_str_eq(base(c.entries[9].path), "10-online-softmax.lesson");
    ck_assert_str_eq(base(c.entries[14].path), "15-gradients.lesson");
    ck_assert_str_eq(base(c.entries[15].path), "16-a-model-trained-here.lesson");
    ck_assert_str_eq(base(c.entries[16].path), "17-is-it-an-induction-head.lesson");
    for (int i = 0; i < c.n; i++)
        ck_assert_msg(c.entries[i].error == NULL, "%s: %s", c.entries[i].path, c.entries[i].error);
    catalogue_free(&c);
}
END_TEST

Suite *course_suite(void)
{
    Suite *s = suite_create("course");
    TCase *c = tcase_create("core");
    tcase_set_timeout(c, 60);
    tcase_add_test(c, parts_in_the_course_order);
    tcase_add_test(c, a_refused_course_says_where);
    tcase_add_test(c, progress_shows_the_parts_and_the_course);
    tcase_add_test(c, the_shipped_course);
    suite_add_tcase(s, c);
    return s;
}
