/*
 * check_progress.c - progress that is never lost (app/session/progress.c,
 * session_progress.c): quit and come back to the same exercises and step;
 * two writers keep each other's work; a damaged or newer file is set aside
 * with a warning; a store that cannot be written leaves the session
 * running; and 200 SIGKILLs at random moments while saving never leave a
 * torn file.
 */
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lesson.h"
#include "teach.h"
#include "progress.h"
#include "session_fixtures.h"
#include "testutil.h"

static const char *lesson_text =
    "lesson Progress\n"
    "let X = [ 1 2 ; 3 4 ]\n"
    "step One\n"
    "  let P = X @ X\n"
    "  show P\n"
    "  exercise What is P[2,2]?\n    answer P[2,2]\n    hint 3*2 + 4*4\n  end\n"
    "  exercise And P[1,1]?\n    answer P[1,1]\n  end\n"
    "step Two\n"
    "  show X\n"
    "  exercise What is X[1,2]?\n    answer X[1,2]\n  end\n";

static char dir[256];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/attn-progress-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_dir(void)
{
    CmdResult r = cmd_runf("chmod -R u+w '%s' 2>/dev/null; rm -rf '%s'", dir, dir);
    cmd_free(&r);
}

static Session *open_keeping(const char *state_dir)
{
    LessonError err;
    Session *s = session_open_text(lesson_text, strlen(lesson_text), "progress.lesson", &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    session_keep_progress(s, state_dir);
    return s;
}

START_TEST(quit_and_come_back)
{
    make_dir();
    Session *s = open_keeping(dir);
    ck_assert_str_eq(session_progress_warning(s), "");
    session_go(s, 1);
    session_answer(s, 0, "21");
    session_answer(s, 0, "22");
    session_hint(s, 1);
    session_reveal(s, 1);
    session_go(s, 2);
    session_free(s);        /* quit */

    s = open_keeping(dir);  /* and come back */
    ck_assert_int_eq(session_screen(s), 2);
    ck_assert_str_eq(session_step(s)->title, "Two");
    session_go(s, 1);
    ck_assert_int_eq(session_exercise_state(s, 0)->status, EX_RIGHT);
    ck_assert_int_eq(session_exercise_state(s, 0)->attempts, 2);
    ck_assert_int_eq(session_exercise_state(s, 1)->status, EX_REVEALED);
    ck_assert_int_eq(session_exercise_state(s, 1)->hints_shown, 0);
    int solved, total;
    session_progress(s, &solved, &total);
    ck_assert_int_eq(solved, 1);
    ck_assert_int_eq(total, 3);
    session_free(s);

    /* the file says so, in its documented form */
    char path[400];
    snprintf(path, sizeof path, "%s/progress", dir);
    char *text = slurp(path);
    ck_assert_ptr_nonnull(text);
    ck_assert_msg(strstr(text, "attn-progress 2\nL\tProgress\tOne\t1\t1\n"), "%s", text);   /* back on One */
    ck_assert_msg(strstr(text, "E\tProgress\tP[2,2]\tWhat is P[2,2]?\tright\t2\t0\t0\n"), "%s", text);
    ck_assert_msg(strstr(text, "E\tProgress\tP[1,1]\tAnd P[1,1]?\trevealed\t0\t0\t0\n"), "%s", text);
    /* each answer as it was judged, the latest last */
    ck_assert_msg(strstr(text, "\twrong\t\t21\tnot yet: off by more than 0.001\n"), "%s", text);
    ck_assert_msg(strstr(text, "\tright\t\t22\tright\n"), "%s", text);
    free(text);
    remove_dir();
}
END_TEST

/* The screen answers a key first: with step saves deferred, a move is in
 * the store only once session_save_pending runs (after the frame), an
 * answer's save takes the move along, and session_free saves what waits. */
START_TEST(a_screen_saves_the_step_after_its_frame)
{
    make_dir();
    char path[400];
    snprintf(path, sizeof path, "%s/progress", dir);
    Session *s = open_keeping(dir);
    session_defer_step_saves(s, 1);
    session_go(s, 1);
    char *text = slurp(path);
    ck_assert_msg(text == NULL || !strstr(text, "\tOne\t"), "saved before the frame: %s", text ? text : "");
    free(text);
    session_save_pending(s);
    text = slurp(path);
    ck_assert_msg(text && strstr(text, "L\tProgress\tOne\t0\t1\n"), "%s", text ? text : "(no file)");
    free(text);
    /* an answer saves at once, the move to step Two with it */
    session_go(s, 2);
    session_go(s, 1);
    session_go(s, 2);
    session_answer(s, 0, "2");
    text = slurp(path);
    ck_assert_msg(text && strstr(text, "L\tProgress\tTwo\t1\t2\n") && strstr(text, "E\tProgress\tX[1,2]\tWhat is X[1,2]?\tright"),
                  "%s", text ? text : "(no file)");
    free(text);
    /* a move left pending is saved when the session ends */
    session_go(s, 1);
    session_free(s);
    text = slurp(path);
    ck_assert_msg(text && strstr(text, "L\tProgress\tOne\t1\t1\n"), "%s", text ? text : "(no file)");
    free(text);
    remove_dir();
}
END_TEST

START_TEST(two_writers_keep_each_others_work)
{
    make_dir();
    Session *a = open_keeping(dir), *b = open_keeping(dir);
    session_go(a, 1);
    session_go(b, 1);
    session_answer(a, 0, "22");     /* a solves the first */
    session_answer(b, 1, "7");      /* b solves the second, knowing nothing of a */
    session_free(a);
    session_free(b);
    Session *c = open_keeping(dir);
    session_go(c, 1);
    ck_assert_int_eq(session_exercise_state(c, 0)->status, EX_RIGHT);
    ck_assert_int_eq(session_exercise_state(c, 1)->status, EX_RIGHT);
    session_free(c);
    remove_dir();
}
END_TEST

START_TEST(a_damaged_or_newer_file_is_set_aside)
{
    static const char *bad[] = {
        "garbage\n", "attn-progress 1\nL\tProgress\n", "attn-progress 1\nE\tP\tk\tbogus\t1\t0\n",
        "attn-progress 1\nL\tProgress\tOne\t1", "",
    };
    for (int k = 0; k < 6; k++) {
        make_dir();
        char path[400];
        snprintf(path, sizeof path, "%s/progress", dir);
        write_text_file(path, k < 5 ? bad[k] : "attn-progress 7\nZ\tsomething new\n");
        Session *s = open_keeping(dir);
        const char *w = session_progress_warning(s);
        /* a bad header sets the whole file aside; a bad line only itself */
        int line = k >= 1 && k <= 3;
        ck_assert_msg(strstr(w, line ? "could not be read; the rest of your progress is kept"
                                : k < 5 ? "is damaged; it is kept as " : "was written by a newer attn; it is kept as "),
                      "case %d: %s", k, w);
        ck_assert_msg(line || strstr(w, "progress starts afresh"), "%s", w);
        ck_assert_int_eq(session_exercise_state(s, 0) == NULL, 1);   /* on the set-up screen */
        session_go(s, 1);
        ck_assert_int_eq(session_exercise_state(s, 0)->status, EX_UNANSWERED);
        session_answer(s, 0, "22");     /* and a fresh store works */
        session_free(s);
        CmdResult r = cmd_runf("ls '%s' | grep -c '^progress\\.%s-'", dir, k < 5 ? "damaged" : "newer");
        ck_assert_msg(r.out && atoi(r.out) == 1, "case %d: the bad file was not kept aside", k);
        cmd_free(&r);
        ProgressLesson *recs;
        int n;
        char warn[600];
        ck_assert_int_eq(progress_load(dir, &recs, &n, warn, sizeof warn), 0);
        ck_assert_int_eq(n, 1);
        progress_free(recs, n);
        remove_dir();
    }
}
END_TEST

/* Every count read from the store is checked against what counting can
 * reach: attempts of 2147483647 then one answer was a signed overflow; the
 * line is now refused by name and the count starts afresh, and counting
 * stops at the ceiling. */
START_TEST(counts_from_a_file_never_overflow)
{
    make_dir();
    char path[400];
    snprintf(path, sizeof path, "%s/progress", dir);
    write_text_file(path, "attn-progress 2\nE\tProgress\tP[2,2]\tWhat is P[2,2]?\ttried\t2147483647\t0\t0\n");
    Session *s = open_keeping(dir);
    ck_assert_msg(strstr(session_progress_warning(s), "could not be read; the rest of your progress is kept"), "%s",
                  session_progress_warning(s));
    session_go(s, 1);
    session_answer(s, 0, "21");
    ck_assert_int_eq(session_exercise_state(s, 0)->attempts, 1);
    session_free(s);
    /* at the ceiling, the count stays there */
    write_text_file(path, "attn-progress 2\nE\tProgress\tP[2,2]\tWhat is P[2,2]?\ttried\t1000000000\t0\t0\n");
    s = open_keeping(dir);
    session_go(s, 1);
    ck_assert_int_eq(session_exercise_state(s, 0)->attempts, PROGRESS_COUNT_MAX);
    session_answer(s, 0, "21");
    ck_assert_int_eq(session_exercise_state(s, 0)->attempts, PROGRESS_COUNT_MAX);
    session_free(s);
    remove_dir();
}
END_TEST

/* Loading is bounded: a lesson keeps at most LESSON_MAX_EXERCISES
 * records, more are refused line by line (grown one at a time and each
 * looked up among all, 100,000 E lines of one lesson took 43 s). */
START_TEST(a_flood_of_records_is_bounded)
{
    make_dir();
    char path[400];
    snprintf(path, sizeof path, "%s/progress", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("attn-progress 2\n", f);
    for (int i = 0; i < LESSON_MAX_EXERCISES + 1000; i++)
        fprintf(f, "E\tProgress\tK%d\tQ%d\ttried\t1\t0\t0\n", i, i);
    fclose(f);
    ProgressLesson *recs;
    int n;
    char warn[600];
    ck_assert_int_eq(progress_load(dir, &recs, &n, warn, sizeof warn), 0);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(recs[0].n_ex, LESSON_MAX_EXERCISES);
    ck_assert_msg(strstr(warn, "could not be read; the rest of your progress is kept"), "%s", warn);
    progress_free(recs, n);
    remove_dir();
}
END_TEST

START_TEST(a_store_that_cannot_be_written_only_warns)
{
    if (geteuid() == 0) {
        /* root writes anywhere: use a path under a regular file instead */
        make_dir();
        char file[400], under[500];
        snprintf(file, sizeof file, "%s/not-a-dir", dir);
        write_text_file(file, "x");
        snprintf(under, sizeof under, "%s/attn", file);
        Session *s = open_keeping(under);
        session_go(s, 1);
        session_answer(s, 0, "22");
        ck_assert_msg(strstr(session_progress_warning(s), "progress is not kept: cannot "), "%s",
                      session_progress_warning(s));
        ck_assert_int_eq(session_exercise_state(s, 0)->status, EX_RIGHT);
        session_free(s);
        remove_dir();
        return;
    }
    make_dir();
    chmod(dir, 0500);
    char sub[400];
    snprintf(sub, sizeof sub, "%s/state", dir);
    Session *s = open_keeping(sub);
    session_go(s, 1);
    session_answer(s, 0, "22");
    ck_assert_msg(strstr(session_progress_warning(s), "progress is not kept"), "%s", session_progress_warning(s));
    session_free(s);
    remove_dir();
}
END_TEST

START_TEST(reset_forgets_one_or_all)
{
    make_dir();
    ProgressLesson a = { .lesson = "A", .last_step = "s" }, b = { .lesson = "B", .last_step = "t" };
    char warn[600];
    ck_assert_int_eq(progress_save(dir, &a, 1, warn, sizeof warn), 0);
    ck_assert_int_eq(progress_save(dir, &b, 0, warn, sizeof warn), 0);
    ck_assert_int_eq(progress_reset(dir, "A", warn, sizeof warn), 0);
    ProgressLesson *recs;
    int n;
    ck_assert_int_eq(progress_load(dir, &recs, &n, warn, sizeof warn), 0);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(recs[0].lesson, "B");
    progress_free(recs, n);
    ck_assert_int_eq(progress_reset(dir, NULL, warn, sizeof warn), 0);
    ck_assert_int_eq(progress_load(dir, &recs, &n, warn, sizeof warn), 0);
    ck_assert_int_eq(n, 0);
    progress_free(recs, n);
    remove_dir();
}
END_TEST

/* A child saves with ever more attempts, durably and not in turn; the
 * parent kills it with SIGKILL at a random moment, 200 times. After each
 * kill the store must read back whole, with no fewer attempts than any
 * earlier read saw. */
START_TEST(kill_9_never_tears_the_file)
{
    make_dir();
    srand((unsigned)time(NULL));
    int seen = 0;
    for (int round = 0; round < 200; round++) {
        pid_t pid = fork();
        ck_assert_int_ge(pid, 0);
        if (pid == 0) {
            ProgressExercise ex = { .key = "P[2,2]", .status = PROG_TRIED };
            ProgressLesson rec = { .lesson = "Killed", .last_step = "One", .ex = &ex, .n_ex = 1 };
            char warn[600];
            for (int k = seen + 1;; k++) {
                ex.attempts = k;
                progress_save(dir, &rec, k % 2, warn, sizeof warn);
            }
        }
        struct timespec ts = { 0, (long)(rand() % 20000) * 1000 + (round == 0 ? 100000000L : 0) };
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        ProgressLesson *recs;
        int n;
        char warn[600];
        ck_assert_msg(progress_load(dir, &recs, &n, warn, sizeof warn) == 0, "round %d: %s", round, warn);
        if (n > 0) {
            ck_assert_int_eq(n, 1);
            ck_assert_int_eq(recs[0].n_ex, 1);
            ck_assert_msg(recs[0].ex[0].attempts >= seen, "round %d: %d attempts after %d", round,
                          recs[0].ex[0].attempts, seen);
            seen = recs[0].ex[0].attempts;
        }
        progress_free(recs, n);
    }
    ck_assert_msg(seen > 0, "no save ever completed");
    remove_dir();
}
END_TEST

/* The lesson written into a lesson set of its own (dir/lessons) and opened
 * keeping its progress in dir: the set's folder and the file into the
 * buffers. */
static Session *open_in_a_lesson_set(char *lessons, size_t lsize, char *path, size_t psize)
{
    snprintf(lessons, lsize, "%s/lessons", dir);
    mkdir(lessons, 0700);
    snprintf(path, psize, "%s/progress.lesson", lessons);
    write_text_file(path, lesson_text);
    LessonError err;
    Session *s = session_open(path, &err);
    ck_assert_ptr_nonnull(s);
    session_keep_progress(s, dir);
    return s;
}

/* `attn progress` reads the store; `--reset FILE` forgets one lesson
 * (no terminal: no question asked). */
START_TEST(the_progress_command_shows_and_resets)
{
    LessonError err_of_reopen;
    make_dir();
    char lessons[400], path[500];
    Session *s = open_in_a_lesson_set(lessons, sizeof lessons, path, sizeof path);
    session_go(s, 1);
    session_answer(s, 0, "22");
    session_go(s, 2);
    session_free(s);
    CmdResult r = cmd_runf("ATTN_STATE_DIR=%s ATTN_LESSONS=%s %s progress", dir, lessons, attn_bin());
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "Progress kept in "), "%s", r.out);
    ck_assert_msg(strstr(r.out, "Progress                                  1/3        Two"), "%s", r.out);
    /* at the end with two exercises open: not finished */
    ck_assert_msg(strstr(r.out, "  read to the end, 2 open\n") &&
                  !strstr(r.out, "finished\n"), "%s", r.out);
    cmd_free(&r);
    r = cmd_runf("ATTN_STATE_DIR=%s ATTN_LESSONS=%s %s progress --json", dir, lessons, attn_bin());
    ck_assert_msg(strstr(r.out, "\"finished\": false"), "%s", r.out);
    cmd_free(&r);
    /* every exercise answered (one revealed): finished */
    s = session_open(path, &err_of_reopen);
    ck_assert_ptr_nonnull(s);
    session_keep_progress(s, dir);
    session_go(s, 1);
    session_answer(s, 1, "7");
    session_go(s, 2);
    session_reveal(s, 0);
    session_free(s);
    r = cmd_runf("ATTN_STATE_DIR=%s ATTN_LESSONS=%s %s progress", dir, lessons, attn_bin());
    ck_assert_msg(strstr(r.out, "Progress                                  2/3        Two") &&
                  strstr(r.out, "  finished\n"), "%s", r.out);
    cmd_free(&r);
    r = cmd_runf("ATTN_STATE_DIR=%s %s progress --reset %s", dir, attn_bin(), path);
    ck_assert_msg(r.status == 0 && strstr(r.out, "progress in \"Progress\" reset"), "%s%s", r.out, r.err);
    cmd_free(&r);
    r = cmd_runf("ATTN_STATE_DIR=%s ATTN_LESSONS=%s %s progress", dir, lessons, attn_bin());
    ck_assert_msg(strstr(r.out, "Progress                                  0/3        -"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "not begun"), "%s", r.out);
    cmd_free(&r);
    r = cmd_runf("%s progress --bogus", attn_bin());
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "usage: attn progress [--json | --reset [FILE.lesson]]"), "%s", r.err);
    cmd_free(&r);
    remove_dir();
}
END_TEST

/* The answers come back as they were judged, with their verdicts and
 * diagnoses; the summary counts a first try; `attn progress --json` hands
 * all of it on, with the lessons outside the set; what the writer writes at
 * its extremes, the reader reads. */
START_TEST(answers_come_back_as_judged)
{
    make_dir();
    char lessons[400], path[500];
    Session *s = open_in_a_lesson_set(lessons, sizeof lessons, path, sizeof path);
    session_go(s, 1);
    session_answer(s, 1, "7");              /* right at once: a first try */
    session_edit(s, "X", 1, 1, 5);
    session_answer(s, 0, "31");             /* the edited value: named, wrong */
    session_undo(s);
    session_answer(s, 0, "22");
    int first, later, revealed, open;
    session_summary(s, &first, &later, &revealed, &open);
    ck_assert_int_eq(first, 1);
    ck_assert_int_eq(later, 1);
    session_free(s);

    LessonError err;
    s = session_open(path, &err);
    ck_assert_ptr_nonnull(s);
    session_keep_progress(s, dir);
    ck_assert_int_eq(session_screen(s), 1);
    const ExerciseState *e = session_exercise_state(s, 0);
    ck_assert_int_eq(e->status, EX_RIGHT);
    ck_assert_int_eq(e->n_history, 2);
    ck_assert_str_eq(e->history[0].typed, "31");
    ck_assert_str_eq(e->history[0].diagnosis, "edited");
    ck_assert_int_eq(e->history[0].verdict, VERDICT_WRONG);
    ck_assert_int_eq(e->judged.verdict, VERDICT_RIGHT);    /* the last answer, as it was judged */
    ck_assert_str_eq(e->last, "22");
    session_summary(s, &first, &later, &revealed, &open);
    ck_assert_int_eq(first, 1);
    /* a solved exercise still shows its hints */
    ck_assert_uint_eq(session_hint(s, 0), SESSION_EXERCISE);
    session_free(s);

    /* a lesson the set does not have: its record is listed too */
    ProgressLesson other = { .lesson = "Elsewhere", .last_step = "Far", .finished = 0 };
    ProgressExercise ex = { .key = "Q[1,1]", .status = PROG_TRIED, .attempts = 1000000, .hints = 1001 };
    ex.n_hist = 1;
    snprintf(ex.hist[0].typed, sizeof ex.hist[0].typed, "0.5\t\\x");
    snprintf(ex.hist[0].verdict, sizeof ex.hist[0].verdict, "wrong");
    snprintf(ex.hist[0].msg, sizeof ex.hist[0].msg, "not yet");
    ex.hist[0].when = 1700000000;
    other.ex = &ex;
    other.n_ex = 1;
    char warn[600];
    ck_assert_int_eq(progress_save(dir, &other, 1, warn, sizeof warn), 0);
    ProgressLesson *recs;
    int n;
    ck_assert_int_eq(progress_load(dir, &recs, &n, warn, sizeof warn), 0);
    const ProgressLesson *back = progress_find(recs, n, "Elsewhere");
    ck_assert_ptr_nonnull(back);
    ck_assert_int_eq(back->ex[0].hints, 1001);
    ck_assert_int_eq(back->ex[0].attempts, 1000000);
    ck_assert_str_eq(back->ex[0].hist[0].typed, "0.5\t\\x");
    progress_free(recs, n);

    CmdResult r = cmd_runf("ATTN_STATE_DIR=%s ATTN_LESSONS=%s %s progress --json", dir, lessons, attn_bin());
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_msg(strstr(r.out, "{\"answer\": \"31\", \"verdict\": \"wrong\", \"diagnosis\": \"edited\", "
                                "\"message\": \"that is the value with your edits; the exercise asks about the "
                                "lesson's own numbers\", \"time\": "), "%s", r.out);
    ck_assert_msg(strstr(r.out, "{\"lesson\": \"Elsewhere\", \"file\": null, \"in_lesson_set\": false"), "%s",
                  r.out);
    ck_assert_msg(strstr(r.out, "\"first_try\": true"), "%s", r.out);
    cmd_free(&r);
    r = cmd_runf("ATTN_STATE_DIR=%s ATTN_LESSONS=%s %s progress", dir, lessons, attn_bin());
    ck_assert_msg(strstr(r.out, "Elsewhere") && strstr(r.out, "(not in the lesson set)"), "%s", r.out);
    cmd_free(&r);
    remove_dir();
}
END_TEST

Suite *progress_suite(void)
{
    Suite *s = suite_create("progress");
    TCase *c = tcase_create("core");
    tcase_set_timeout(c, 120);
    tcase_add_test(c, quit_and_come_back);
    tcase_add_test(c, a_screen_saves_the_step_after_its_frame);
    tcase_add_test(c, two_writers_keep_each_others_work);
    tcase_add_test(c, a_damaged_or_newer_file_is_set_aside);
    tcase_add_test(c, counts_from_a_file_never_overflow);
    tcase_add_test(c, a_flood_of_records_is_bounded);
    tcase_add_test(c, a_store_that_cannot_be_written_only_warns);
    tcase_add_test(c, reset_forgets_one_or_all);
    tcase_add_test(c, kill_9_never_tears_the_file);
    tcase_add_test(c, the_progress_command_shows_and_resets);
    tcase_add_test(c, answers_come_back_as_judged);
    suite_add_tcase(s, c);
    return s;
}
