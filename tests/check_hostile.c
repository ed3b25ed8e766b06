/*
 * check_hostile.c - the fifteen ways in of issue #24, one regression test
 * each (the signals and TERM=dumb are in check_tui_process.c, the writer's
 * extremes read back in check_progress.c): files that are not regular
 * files, CSV lines that were quadratic, numbers beyond float32 or meant as
 * numbers, bytes that must not reach a terminal, saves that fail, long
 * titles, damaged lines of progress, output files that are lessons, cells
 * past int, a benchmark larger than the machine, and the smaller ones.
 * Every command runs under `timeout`, so a hang fails instead of hanging.
 */
#include <check.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "progress.h"
#include "session_fixtures.h"
#include "testutil.h"
#include "tmux.h"

static char dir[256];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/attn-hostile-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_dir(void)
{
    CmdResult r = cmd_runf("chmod -R u+w %s; rm -rf %s", dir, dir);
    cmd_free(&r);
}

static void write_file(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* attn in dir with a timeout: a hang is a failure, never a stuck suite. */
static CmdResult attn_in_dir(const char *args)
{
    char bin[4096];
    if (!realpath(attn_bin(), bin))
        snprintf(bin, sizeof bin, "%s", attn_bin());
    return cmd_runf("cd %s && ATTN_STATE_DIR=%s/state timeout 20 %s %s", dir, dir, bin, args);
}

static const char *loads(const char *file)
{
    static char text[300];
    snprintf(text, sizeof text, "lesson Loads\nlet M = load(\"%s\")\ncheck M[1,1] = 1\n", file);
    return text;
}

/* 1: a FIFO is refused at once wherever attn reads a file. */
START_TEST(a_fifo_never_hangs_attn)
{
    make_dir();
    char path[512];
    snprintf(path, sizeof path, "%s/f.npy", dir);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    write_file("l.lesson", loads("f.npy"));
    CmdResult r = attn_in_dir("run l.lesson");
    ck_assert_msg(r.status == 2 && strstr(r.err, "f.npy is a FIFO, not a data file"), "%d %s", r.status, r.err);
    cmd_free(&r);
    snprintf(path, sizeof path, "%s/fifo.lesson", dir);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    r = attn_in_dir("check fifo.lesson");
    ck_assert_msg(r.status == 2 && strstr(r.err, "fifo.lesson: error: this is a FIFO, not a lesson file"), "%d %s",
                  r.status, r.err);
    cmd_free(&r);
    /* a FIFO among the lessons: attn progress lists the others */
    write_file("ok.lesson", "lesson Fine\nstep S\n  text\n    t\n  end\n");
    r = cmd_runf("ATTN_LESSONS=%s ATTN_STATE_DIR=%s/state timeout 20 %s progress", dir, dir, attn_bin());
    ck_assert_msg(r.status == 0 && strstr(r.out, "Fine"), "%d %s %s", r.status, r.out, r.err);
    cmd_free(&r);
    /* and a FIFO where the progress file is */
    snprintf(path, sizeof path, "%s/state", dir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/state/progress", dir);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    r = cmd_runf("ATTN_LESSONS=%s ATTN_STATE_DIR=%s/state timeout 20 %s progress", dir, dir, attn_bin());
    ck_assert_msg(r.status == 0 && strstr(r.err, "it is not a regular file"), "%d %s", r.status, r.err);
    cmd_free(&r);
    remove_dir();
}
END_TEST

/* 2: a first CSV line of 400,000 fields is read in one pass (it took
 * minutes: the survey re-read the line for each field). */
START_TEST(a_long_csv_line_is_linear)
{
    make_dir();
    char path[512];
    snprintf(path, sizeof path, "%s/wide.csv", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < 400000; i++)
        fputs(i ? ",1" : "1", f);
    fputc('\n', f);
    fclose(f);
    write_file("l.lesson", loads("wide.csv"));
    CmdResult r = attn_in_dir("check l.lesson");
    ck_assert_msg(r.status == 0 && strstr(r.out, "1 passed, 0 failed"), "%d %s %s", r.status, r.out, r.err);
    cmd_free(&r);
    remove_dir();
}
END_TEST

/* 3, 4 and 15: numbers from a file follow the literal's rule; a first cell
 * meant as a number is refused where it stands, never a label column. */
START_TEST(numbers_from_files_follow_one_rule)
{
    make_dir();
    static const struct { const char *csv, *msg; } cases[] = {
        { "1e400,2\n3,4\n", "row 1, column 1 (1e400) is beyond float32 (about 3.4e38)" },
        { "-1e400,2\n3,4\n", "row 1, column 1 (-1e400) is beyond float32" },
        { "1e39,2\n3,4\n", "row 1, column 1 (1e39) is beyond float32" },
        { "nan,2\n3,4\n", "row 1, column 1 ('nan') is not a number" },
        { "0x10,2\n3,4\n", "row 1, column 1 ('0x10') is not a number" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        write_file("m.csv", cases[i].csv);
        write_file("l.lesson", loads("m.csv"));
        CmdResult r = attn_in_dir("run l.lesson");
        ck_assert_msg(r.status == 2 && strstr(r.err, cases[i].msg), "%s: %d %s", cases[i].csv, r.status, r.err);
        cmd_free(&r);
    }
    /* labels still work, and the words inf stay numbers */
    write_file("m.csv", "x,a,b\nr1,1,-inf\n");
    write_file("l.lesson", loads("m.csv"));
    CmdResult r = attn_in_dir("check l.lesson");
    ck_assert_msg(r.status == 0, "%s %s", r.out, r.err);
    cmd_free(&r);
    /* the largest float as attn's JSON writes it is a literal */
    write_file("l.lesson", "lesson Big\nlet M = [ 3.40282347e+38 ]\ncheck M[1,1] = 3.40282347e+38\n");
    r = attn_in_dir("check l.lesson");
    ck_assert_msg(r.status == 0, "%s %s", r.out, r.err);
    cmd_free(&r);
    remove_dir();
}
END_TEST

/* 5 and 15: bytes from a data file or an argument never reach a terminal
 * raw: OSC 52, CSI, C1, bidi, escaped wherever they are quoted. */
START_TEST(no_raw_byte_reaches_the_terminal)
{
    make_dir();
    write_file("m.csv", "a,b\n1,\"x\x1b]52;c;aGk=\x07\xc2\x9b\xe2\x80\xae\"\n");
    write_file("l.lesson", loads("m.csv"));
    const char *runs[] = { "run l.lesson", "check l.lesson", "check --quiet l.lesson", "run --explain 'M\x1b[2J[1,1]' "
                           "l.lesson", "--bogus\x1b[2J", "bench --bogus\x1b[2J", "grade l.lesson x\x1b[2J" };
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        CmdResult r = attn_in_dir(runs[i]);
        ck_assert_msg(!strchr(r.out, '\x1b') && !strchr(r.err, '\x1b') && !strstr(r.out, "\xc2\x9b")
                          && !strstr(r.err, "\xc2\x9b") && !strstr(r.err, "\xe2\x80\xae"),
                      "'%s' let a control through:\n%s%s", runs[i], r.out, r.err);
        ck_assert_int_ne(r.status, 0);
        cmd_free(&r);
    }
    CmdResult r = attn_in_dir("run l.lesson");
    ck_assert_msg(strstr(r.err, "'x\\x1b]52;c;aGk=\\x07"), "%s", r.err);
    cmd_free(&r);
    remove_dir();
}
END_TEST

/* 6: attn progress escapes what the state file holds. */
START_TEST(progress_prints_the_store_escaped)
{
    make_dir();
    char state[400];
    snprintf(state, sizeof state, "%s/state", dir);
    mkdir(state, 0700);
    write_file("state/progress", "attn-progress 2\nL\tEvil\x1b]52;c;aGk=\x07\tstep\x1b[2J\t0\t1\n");
    CmdResult r = cmd_runf("ATTN_LESSONS=%s ATTN_STATE_DIR=%s timeout 20 %s progress", dir, state, attn_bin());
    ck_assert_msg(r.status == 0 && strstr(r.out, "Evil\\x1b]52;c;aGk=\\x07") && !strchr(r.out, '\x1b'), "%s", r.out);
    cmd_free(&r);
    remove_dir();
}
END_TEST

static const char *progress_lesson =
    "lesson Saved\nlet X = [ 1 2 ; 3 4 ]\nstep One\n  let P = X @ X\n  show P\n"
    "  exercise What is P[2,2]?\n    answer P[2,2] = 22\n  end\n";

/* 7: a save that fails is said, and counted for the exit status; the old
 * file stays. */
START_TEST(a_failed_save_is_never_silent)
{
    make_dir();
    char state[400];
    snprintf(state, sizeof state, "%s/state", dir);
    Session *s = session_of_text(progress_lesson, "saved.lesson");
    session_keep_progress(s, state);
    session_go(s, 1);
    session_answer(s, 0, "22");
    ck_assert_int_eq(session_save_failures(s), 0);
    /* now read-only: the next save fails, says so, and the file is kept */
    char path[512];
    snprintf(path, sizeof path, "%s/progress", state);
    ck_assert_int_eq(chmod(state, 0500), 0);
    ck_assert_int_eq(chmod(path, 0400), 0);
    session_answer(s, 0, "21");
    ck_assert_int_eq(session_save_failures(s), 1);
    ck_assert_msg(strstr(session_progress_warning(s), "progress is not saved: ") &&
                      strstr(session_progress_warning(s), "is read-only"), "%s", session_progress_warning(s));
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0400);      /* not replaced with 644 */
    session_free(s);
    /* a directory that cannot exist */
    s = session_of_text(progress_lesson, "saved.lesson");
    session_keep_progress(s, "/proc/attn-cannot-exist");
    session_go(s, 1);
    session_answer(s, 0, "22");
    ck_assert_int_ge(session_save_failures(s), 1);
    ck_assert_msg(strstr(session_progress_warning(s), "progress is not kept: cannot create /proc/attn-cannot-exist"),
                  "%s", session_progress_warning(s));
    session_free(s);
    remove_dir();
}
END_TEST

/* 7 on the screen: the warning shows, and attn exits with 1. */
START_TEST(the_screen_says_a_save_failed)
{
    make_dir();
    write_file("l.lesson", progress_lesson);
    char args[600], env[600];
    snprintf(args, sizeof args, "%s/l.lesson", dir);
    snprintf(env, sizeof env, "ATTN_STATE_DIR=/proc/attn-cannot-exist");
    Tmux t;
    tmux_start(&t, 100, 30, env, args);
    WAIT_FOR(&t, "Set-up");
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "progress is not kept: cannot create /proc/attn-cannot-exist");
    tmux_quit_and_check(&t, "q", "EXITED 1");
    tmux_stop(&t);
    remove_dir();
}
END_TEST

/* 8: a title longer than a key is restored all the same. */
START_TEST(a_long_title_is_restored)
{
    make_dir();
    char text[2000], title[400];
    memset(title, 'T', 300);
    title[300] = '\0';
    snprintf(text, sizeof text, "lesson %s\nlet X = [ 1 ]\nstep A\n  show X\nstep B\n  show X\nstep C\n  show X\n",
             title);
    Session *s = session_of_text(text, "long.lesson");
    session_keep_progress(s, dir);
    session_go(s, 3);
    session_free(s);
    s = session_of_text(text, "long.lesson");
    session_keep_progress(s, dir);
    ck_assert_int_eq(session_screen(s), 3);
    session_free(s);
    /* 15: a step renamed since is found by its number */
    char renamed[2000];
    snprintf(renamed, sizeof renamed, "lesson %s\nlet X = [ 1 ]\nstep A\n  show X\nstep B\n  show X\nstep C2\n  show X\n",
             title);
    s = session_of_text(renamed, "long.lesson");
    session_keep_progress(s, dir);
    ck_assert_int_eq(session_screen(s), 3);
    session_free(s);
    remove_dir();
}
END_TEST

/* 9: one bad line is set aside alone; set-asides never overwrite each
 * other; the rest of the progress stays. */
START_TEST(one_bad_line_is_set_aside_alone)
{
    make_dir();
    write_file("progress", "attn-progress 2\nL\tKept\tOne\t0\t1\nE\tKept\tP[1,1]\tWhich?\tright\t1\t0\t1\n"
                           "E\tBad\tx\tnope\t1\n");
    ProgressLesson *recs;
    int n;
    char warn[600];
    ck_assert_int_eq(progress_load(dir, &recs, &n, warn, sizeof warn), 0);
    ck_assert_ptr_nonnull(progress_find(recs, n, "Kept"));
    ck_assert_msg(strstr(warn, "1 line of") && strstr(warn, "the rest of your progress is kept"), "%s", warn);
    progress_free(recs, n);
    /* the writer sets it aside, twice in the same second, in two files */
    ProgressLesson rec = { .lesson = "Other" };
    for (int k = 0; k < 2; k++) {
        if (k)
            write_file("progress", "attn-progress 2\nL\tKept\tOne\t0\t1\nbroken line\n");
        ck_assert_int_eq(progress_save(dir, &rec, 0, warn, sizeof warn), 0);
        ck_assert_msg(strstr(warn, "kept in ") && strstr(warn, "progress.damaged-"), "%s", warn);
    }
    CmdResult r = cmd_runf("ls %s | grep -c damaged; cat %s/progress.damaged-*", dir, dir);
    ck_assert_msg(strncmp(r.out, "2\n", 2) == 0 && strstr(r.out, "E\tBad\tx\tnope\t1\n") && strstr(r.out,
                  "broken line\n"), "%s", r.out);
    cmd_free(&r);
    ck_assert_int_eq(progress_load(dir, &recs, &n, warn, sizeof warn), 0);
    ck_assert_ptr_nonnull(progress_find(recs, n, "Kept"));
    ck_assert_ptr_nonnull(progress_find(recs, n, "Other"));
    progress_free(recs, n);
    /* 15: a lock held by another process delays a save a moment, no more */
    char lock[512];
    snprintf(lock, sizeof lock, "%s/progress.lock", dir);
    int fd = open(lock, O_RDWR | O_CREAT, 0600);
    ck_assert_int_ge(fd, 0);
    pid_t child = fork();
    if (child == 0) {
        flock(fd, LOCK_EX);
        sleep(5);
        _exit(0);
    }
    usleep(200000);
    ck_assert_int_eq(progress_save(dir, &rec, 0, warn, sizeof warn), -1);
    ck_assert_msg(strstr(warn, "is held by another attn"), "%s", warn);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    close(fd);
    remove_dir();
}
END_TEST

/* 15: removing an exercise never hands its state to another with the same
 * answer; the other keeps its own, renumbered. */
START_TEST(a_removed_exercise_hands_nothing_on)
{
    make_dir();
    const char *two =
        "lesson Twins\nlet X = [ 1 2 ; 3 4 ]\nstep One\n  let P = X @ X\n  show P\n"
        "  exercise First time asked\n    answer P[2,2]\n  end\n"
        "  exercise Asked again\n    answer P[2,2]\n  end\n";
    const char *one =
        "lesson Twins\nlet X = [ 1 2 ; 3 4 ]\nstep One\n  let P = X @ X\n  show P\n"
        "  exercise Asked again\n    answer P[2,2]\n  end\n";
    Session *s = session_of_text(two, "twins.lesson");
    session_keep_progress(s, dir);
    session_go(s, 1);
    session_answer(s, 0, "22");     /* the first: right */
    session_answer(s, 1, "21");     /* the second: tried */
    session_free(s);
    s = session_of_text(one, "twins.lesson");
    session_keep_progress(s, dir);
    session_go(s, 1);
    const ExerciseState *e = session_exercise_state(s, 0);
    ck_assert_int_eq(e->status, EX_TRIED);     /* its own state, not the removed one's tick */
    ck_assert_str_eq(e->last, "21");
    session_free(s);
    remove_dir();
}
END_TEST

/* 13: an output file is never a lesson. */
START_TEST(an_output_file_is_never_a_lesson)
{
    make_dir();
    write_file("a.lesson", "lesson A\nlet X = [ 1 ]\ncheck X[1,1] = 1\n");
    write_file("b.lesson", "lesson B\nlet X = [ 1 ]\ncheck X[1,1] = 1\n");
    CmdResult r = attn_in_dir("check --junit a.lesson b.lesson");
    ck_assert_msg(r.status == 2 && strstr(r.err, "attn: --junit a.lesson would overwrite a lesson; name the file to "
                                                 "write, e.g. --junit report.xml"), "%d %s", r.status, r.err);
    cmd_free(&r);
    r = attn_in_dir("run --markdown b.lesson b.lesson");
    ck_assert_msg(r.status == 2 && strstr(r.err, "--markdown b.lesson would overwrite a lesson"), "%s", r.err);
    cmd_free(&r);
    r = attn_in_dir("check a.lesson b.lesson");
    ck_assert_msg(r.status == 0, "a lesson was overwritten: %s", r.out);
    cmd_free(&r);
    remove_dir();
}
END_TEST

/* 14: a cell past int is refused, never wrapped to another cell. */
START_TEST(a_cell_past_int_is_refused)
{
    make_dir();
    write_file("a.lesson", "lesson A\nlet a1 = [ 1 2 ; 3 4 ]\n");
    CmdResult r = attn_in_dir("run --explain 'a1[4294967297,1]' a.lesson");
    ck_assert_msg(r.status == 2 && strstr(r.err, "attn: bad cell 'a1[4294967297,1]': an index is too large"), "%s",
                  r.err);
    ck_assert_str_eq(r.out, "");
    cmd_free(&r);
    r = attn_in_dir("run --explain 'a1[9999999999,1]' a.lesson");
    ck_assert_msg(r.status == 2 && !strstr(r.err, "1410065407"), "%s", r.err);
    cmd_free(&r);
    remove_dir();
}
END_TEST

/* 12 and 15: the benchmark refuses what it cannot hold, and --standard
 * refuses the options it would ignore. */
START_TEST(the_benchmark_knows_its_limits)
{
    CmdResult r = cmd_runf("timeout 20 %s bench --n 1048576 --d 5120 --fused-only", attn_bin());
    ck_assert_msg(r.status == 2 && strstr(r.err, "attn bench: n = 1048576, d = 5120 needs about ") &&
                      strstr(r.err, " GB available"), "%d %s", r.status, r.err);
    cmd_free(&r);
    r = cmd_runf("timeout 20 %s bench --standard --n 5", attn_bin());
    ck_assert_msg(r.status == 2 && strstr(r.err, "--standard runs its own cases") && strstr(r.err, "--n does not go "
                  "with it"), "%s", r.err);
    cmd_free(&r);
}
END_TEST

/* 15: a caret stands under its column after wide characters: 宽 takes
 * two columns on a terminal. */
START_TEST(carets_count_wide_characters)
{
    const char *path = write_temp(".lesson", "lesson W\nlet M = load(\"宽.csv\") + q\n");
    ck_assert_ptr_nonnull(path);
    CmdResult r = cmd_runf("%s check %s", attn_bin(), path);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, ":2:27: error: unknown name 'q'\nlet M = load(\"宽.csv\") + q\n"
                                "                         ^\n"), "%s", r.err);
    cmd_free(&r);
}
END_TEST

Suite *hostile_suite(void)
{
    Suite *s = suite_create("hostile");
    TCase *c = tcase_create("core");
    tcase_set_timeout(c, 180);
    tcase_add_test(c, a_fifo_never_hangs_attn);
    tcase_add_test(c, a_long_csv_line_is_linear);
    tcase_add_test(c, numbers_from_files_follow_one_rule);
    tcase_add_test(c, no_raw_byte_reaches_the_terminal);
    tcase_add_test(c, progress_prints_the_store_escaped);
    tcase_add_test(c, a_failed_save_is_never_silent);
    tcase_add_test(c, a_long_title_is_restored);
    tcase_add_test(c, one_bad_line_is_set_aside_alone);
    tcase_add_test(c, an_output_file_is_never_a_lesson);
    tcase_add_test(c, a_removed_exercise_hands_nothing_on);
    tcase_add_test(c, a_cell_past_int_is_refused);
    tcase_add_test(c, the_benchmark_knows_its_limits);
    tcase_add_test(c, carets_count_wide_characters);
    const char *skip = getenv("ATTN_SKIP_TUI");
    if (!(skip && strcmp(skip, "1") == 0))
        tcase_add_test(c, the_screen_says_a_save_failed);
    suite_add_tcase(s, c);
    return s;
}
