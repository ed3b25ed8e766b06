/*
 * check_tui_class.c - the instructor's screen in class mode, in tmux:
 * `attn --class` on loopback shows the join line, the roll and the open
 * exercise's count as real `attn join` students answer; S reveals the
 * spread by diagnosis with no name on the projector, X closes the
 * question, q ends the class and every student is told.
 * ATTN_SKIP_TUI=1 registers none of the tmux tests (make valgrind).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "tmux.h"
#include "tui_fixtures.h"

/* A student in the background: answers, then listens until the class
 * ends (at most 30 s), everything printed into dir/NAME.out. */
static void student(const char *dir, const char *addr, const char *name, const char *answers)
{
    CmdResult r = cmd_runf("(printf '%s'; sleep 30) | timeout 30 %s join %s 4242 --name %s > %s/%s.out 2>&1 &",
                           answers, attn_bin(), addr, name, dir, name);
    cmd_free(&r);
}

static int printed(const char *dir, const char *name, const char *want)
{
    for (int i = 0; i < 200; i++) {
        CmdResult r = cmd_runf("cat %s/%s.out", dir, name);
        int ok = strstr(r.out, want) != NULL;
        cmd_free(&r);
        if (ok)
            return 1;
        usleep(50000);
    }
    return 0;
}

/* The instructor's screen (120x40) on a class on loopback, code 4242,
 * with `rest` (options and the lesson): started, and the address its join
 * line gives into addr. */
static void start_instructor(Tmux *t, const char *rest, char addr[64])
{
    char args[900];
    snprintf(args, sizeof args, "--class --listen 127.0.0.1:0 --code 4242 %s", rest);
    tmux_start(t, 120, 40, NULL, args);
    WAIT_FOR(t, "0 joined");
    addr[0] = '\0';
    ck_assert_int_eq(sscanf(strstr(t->last, "attn join "), "attn join %63s", addr), 1);
}

/* Ada on a terminal (80x24), joining the class at addr. */
static void start_terminal_student(Tmux *t, const char *addr)
{
    char args[200];
    snprintf(args, sizeof args, "join %s 4242 --name Ada", addr);
    tmux_start(t, 80, 24, NULL, args);
}

/* q, asked and said again: the class ends, and attn with it. */
static void end_class(Tmux *t)
{
    tmux_keys(t, "q");
    WAIT_FOR(t, "q again ends the class");
    tmux_quit_and_check(t, "q", "EXITED 0");
}

START_TEST(the_instructor_sees_the_room)
{
    char dir[] = "/tmp/attn-tui-class-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char args[700];
    snprintf(args, sizeof args, "--class --listen 127.0.0.1:0 --code 4242 --log %s/answers.jsonl %s/02-sky-is-blue.lesson",
             dir, lessons_dir());
    Tmux t;
    tmux_start(&t, 120, 40, NULL, args);
    WAIT_FOR(&t, "attn join 127.0.0.1:");
    WAIT_FOR(&t, "0 joined");
    char addr[64] = "";
    const char *at = strstr(t.last, "attn join ");
    ck_assert_int_eq(sscanf(at, "attn join %63s", addr), 1);
    WAIT_FOR(&t, "exercise 1: 0 answered (S: the spread, X: close)");
    /* the class's keys are in the help too */
    tmux_keys(&t, "?");
    WAIT_FOR(&t, "In class: S shows or hides the answers' spread; X closes the open exercise.");
    tmux_keys(&t, "Escape");
    ck_assert_msg(tmux_wait_gone(&t, "In class:"), "the help did not close:\n%s", t.last);
    student(dir, addr, "Ada", "1: -0.5371\\n");
    student(dir, addr, "Bob", "1: 0.5371\\n");
    student(dir, addr, "Cy", "1: 0.5371\\n");
    WAIT_FOR(&t, "3 joined");
    WAIT_FOR(&t, "exercise 1: 3 answered");
    tmux_keys(&t, "S");
    WAIT_FOR(&t, "1 right, 2 the sign the wrong way round");
    ck_assert_msg(!strstr(t.last, "Ada") && !strstr(t.last, "Bob"), "a name is on the projector:\n%s", t.last);
    /* the next exercise has its own tally at once, its spread hidden */
    tmux_keys(&t, "x");
    WAIT_FOR(&t, "exercise 2: 0 answered (S: the spread, X: close)");
    ck_assert_msg(!strstr(t.last, "1 right, 2 the sign"), "the last exercise's spread stayed:\n%s", t.last);
    tmux_keys(&t, "x");
    WAIT_FOR(&t, "exercise 1: 3 answered (S: the spread, X: close)");
    tmux_keys(&t, "X");
    WAIT_FOR(&t, "exercise 1 closed");
    ck_assert_msg(printed(dir, "Ada", "closed 1\n"), "Ada was not told the question closed");
    /* q and Esc ask before they end the class for everyone */
    tmux_keys(&t, "q");
    WAIT_FOR(&t, "q again ends the class for the 3 who joined; any other key keeps it going");
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "Esc again ends the class for the 3 who joined");
    tmux_keys(&t, "x");
    WAIT_FOR(&t, "exercise 2: 0 answered");
    CmdResult seen = cmd_runf("cat %s/Ada.out", dir);
    ck_assert_msg(!strstr(seen.out, "\nended\n"), "the class ended without asking:\n%s", seen.out);
    cmd_free(&seen);
    end_class(&t);
    ck_assert_msg(printed(dir, "Ada", "\nended\n") && printed(dir, "Bob", "\nended\n"),
                  "the students were not told the class ended");
    ck_assert_msg(printed(dir, "Bob", "1 ✗ 0.5371: the sign is the wrong way round\n"), "Bob's verdict");
    /* a room's presenter keeps no progress of its own */
    char saved[128];
    snprintf(saved, sizeof saved, "%s/progress", t.state);
    ck_assert_msg(access(saved, F_OK) != 0, "the presenter saved progress in %s", saved);
    CmdResult r = cmd_runf("%s class-report %s/answers.jsonl", attn_bin(), dir);
    ck_assert_msg(strstr(r.out, "Exercise 1: 3 students answered, 1 right at their last answer (33%)"), "%s", r.out);
    cmd_free(&r);
    tmux_stop(&t);
    r = cmd_runf("rm -rf %s", dir);
    cmd_free(&r);
}
END_TEST

/* A student on a terminal: the lesson screen follows the instructor,
 * an answer judged here reaches the instructor's count, looking around and
 * f to follow again, the class's end said, the student's progress kept. */
START_TEST(a_student_follows_on_a_terminal)
{
    char lesson[700], addr[64];
    snprintf(lesson, sizeof lesson, "%s/02-sky-is-blue.lesson", lessons_dir());
    Tmux inst, stu;
    start_instructor(&inst, lesson, addr);
    start_terminal_student(&stu, addr);
    WAIT_FOR(&stu, "class: step 1 │ following │ exercise 1 is open: a answers it");
    WAIT_FOR(&stu, "Exercise 1 (1/2): What do the two numbers");
    WAIT_FOR(&inst, "1 joined");
    tmux_keys(&stu, "a");
    tmux_type(&stu, "0.5371");
    tmux_keys(&stu, "Enter");
    WAIT_FOR(&stu, "✗ 0.5371: the sign is the wrong way round");
    WAIT_FOR(&inst, "exercise 1: 1 answered");
    /* the student's bar says what the class counted (the instructor's judge) */
    WAIT_FOR(&stu, "exercise 1: the class counted your answer wrong");
    /* typed into the answer, f is a letter, not "follow" */
    tmux_keys(&stu, "a");
    tmux_type(&stu, "inf");
    tmux_keys(&stu, "Enter");
    WAIT_FOR(&stu, "✗ inf");
    /* the instructor moves: the student's screen follows */
    tmux_keys(&inst, "G");
    WAIT_FOR(&stu, "step 7/7: The output O = A V");
    WAIT_FOR(&stu, "class: step 7 │ following");
    /* looking around, then back */
    tmux_keys(&stu, "p");
    WAIT_FOR(&stu, "you are looking around: f follows");
    tmux_keys(&stu, "f");
    WAIT_FOR(&stu, "class: step 7 │ following");
    /* f is in the help, under the keys (at 80x24, a Down or two away) */
    tmux_keys(&stu, "?");
    WAIT_FOR(&stu, "keys of the lesson screen");
    for (int i = 0; i < 5; i++)
        tmux_keys(&stu, "Down");
    WAIT_FOR(&stu, "In class: f follows the instructor's step again after you look around.");
    tmux_keys(&stu, "Escape");
    ck_assert_msg(tmux_wait_gone(&stu, "In class:"), "the help did not close:\n%s", stu.last);
    /* Esc on the class's lesson leaves it where it is (it once closed it
     * under the class, which then wrote into the freed screen: a crash at
     * the instructor's next step) */
    tmux_keys(&stu, "Escape");
    WAIT_FOR(&stu, "this lesson is the class's: q leaves the class");
    tmux_keys(&inst, "p");
    WAIT_FOR(&stu, "class: step 6 │ following");
    /* the end: said, and the student's answers kept */
    end_class(&inst);
    WAIT_FOR(&stu, "class ended │ your answers stay in your progress");
    tmux_quit_and_check(&stu, "q", "EXITED 0");
    CmdResult r = cmd_runf("cat %s/progress", stu.state);
    ck_assert_msg(strstr(r.out, "Sky is blue: attention by matrix products") && strstr(r.out, "0.5371"),
                  "the student's progress was not kept:\n%s", r.out);
    cmd_free(&r);
    tmux_stop(&stu);
    tmux_stop(&inst);
}
END_TEST

/* The class's address in use, a bad code: said before the screen opens. */
START_TEST(a_class_that_cannot_open_says_why)
{
    CmdResult r = cmd_runf("%s --class --code 'no way' %s/02-sky-is-blue.lesson", attn_bin(), lessons_dir());
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "attn: a class code is 1 to 16 letters or digits"), "%s", r.err);
    cmd_free(&r);
    r = cmd_runf("%s --class", attn_bin());
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--class needs the lesson to teach"), "%s", r.err);
    cmd_free(&r);
    r = cmd_runf("%s --log x.jsonl %s/02-sky-is-blue.lesson", attn_bin(), lessons_dir());
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--listen, --code and --log go with --class"), "%s", r.err);
    cmd_free(&r);
    r = cmd_runf("%s --class --listen nowhere %s/02-sky-is-blue.lesson", attn_bin(), lessons_dir());
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "'nowhere' is not HOST:PORT"), "%s", r.err);
    cmd_free(&r);
}
END_TEST

/* A student on a lesson that loads data keeps its files after the class:
 * an edit once the instructor ended the class evaluates the lesson again
 * (it read the class's freed files: "the class did not send it"). */
START_TEST(a_students_lesson_keeps_its_files)
{
    char lesson[700], addr[64];
    snprintf(lesson, sizeof lesson, "%s/09-loaded-weights.lesson", lessons_dir());
    Tmux inst, stu;
    start_instructor(&inst, lesson, addr);
    start_terminal_student(&stu, addr);
    WAIT_FOR(&stu, "class: step");
    WAIT_FOR(&inst, "1 joined");
    end_class(&inst);
    WAIT_FOR(&stu, "the class ended");
    tmux_keys(&stu, "e");
    tmux_type(&stu, "0.5");
    tmux_keys(&stu, "Enter");
    WAIT_FOR(&stu, "everything after it follows");
    ck_assert_msg(!strstr(stu.last, "did not send"), "the lesson lost its files:\n%s", stu.last);
    tmux_quit_and_check(&stu, "q", "EXITED 0");
    tmux_stop(&stu);
}
END_TEST

/* A lesson with more data than a few MB reaches a student on a terminal:
 * the wait for it is limited in time, not in reads (each 4 KB read once
 * counted as 50 ms, so 2.4 MB never got in). */
START_TEST(a_big_lesson_reaches_a_terminal)
{
    char dir[] = "/tmp/attn-tui-big-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[600];
    snprintf(path, sizeof path, "%s/big.npy", dir);
    ck_assert_int_eq(write_npy_f32(path, 1000, 800), 0);   /* 3.2 MB of float32 */
    snprintf(path, sizeof path, "%s/big.lesson", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("lesson Big data\nlet W = load(\"big.npy\")\nstep Corner\n  let C = rows(cols(W, 1, 2), 1, 2)\n"
          "  show C\n  exercise What is C[1,2]?\n    answer C[1,2] = 0.0103 within 1e-3\n  end\n", f);
    fclose(f);
    char addr[64];
    Tmux inst, stu;
    start_instructor(&inst, path, addr);
    start_terminal_student(&stu, addr);
    WAIT_FOR(&stu, "class: step");
    WAIT_FOR(&inst, "1 joined");
    end_class(&inst);
    tmux_quit_and_check(&stu, "q", "EXITED 0");
    tmux_stop(&stu);
    CmdResult r = cmd_runf("rm -rf %s", dir);
    cmd_free(&r);
}
END_TEST

/* The lesson changed on disk during a class (a step added): the
 * instructor's screen reloads it and so does the class (it kept the old
 * one: students were told "step 8" of 7 and judged against the old
 * exercise). Those who joined are told to join again; a newcomer gets the
 * lesson as it is. */
START_TEST(a_reload_reaches_the_class)
{
    char dir[] = "/tmp/attn-tui-reload-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[600], addr[64];
    snprintf(path, sizeof path, "%s/02-sky-is-blue.lesson", lessons_dir());
    char *text = slurp(path);
    ck_assert_ptr_nonnull(text);
    snprintf(path, sizeof path, "%s/sky.lesson", dir);
    save_in_place(path, text);
    Tmux t;
    start_instructor(&t, path, addr);
    student(dir, addr, "Ada", "");
    WAIT_FOR(&t, "1 joined");
    ck_assert_msg(printed(dir, "Ada", "step 1/7"), "Ada did not join");
    /* one step more: 8 steps */
    char *shorter = malloc(strlen(text) + 64);
    sprintf(shorter, "%s\nstep One more look\n  show A\n", text);
    save_by_rename(path, shorter);
    ck_assert_msg(printed(dir, "Ada", "the instructor changed the lesson: join again to get it"), "Ada was not told");
    student(dir, addr, "Bea", "");
    ck_assert_msg(printed(dir, "Bea", "step 1/8"), "the class kept the old lesson");
    end_class(&t);
    tmux_stop(&t);
    free(shorter);
    free(text);
    CmdResult r = cmd_runf("rm -rf %s", dir);
    cmd_free(&r);
}
END_TEST

/* On a projector (250x70) the spread is in the presenter's block font,
 * alone on the status rows (no line of the explanation under it left over:
 * "= -1.072    Enter: mark its operands"); X gives the closed exercise's
 * value, the cell it kept as ? showing again. */
START_TEST(the_spread_reads_from_the_back_and_closing_gives_the_value)
{
    char dir[] = "/tmp/attn-tui-class-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char args[700], addr[64] = "";
    snprintf(args, sizeof args, "--class --listen 127.0.0.1:0 --code 4242 %s/02-sky-is-blue.lesson", lessons_dir());
    Tmux t;
    tmux_start(&t, 250, 70, NULL, args);
    /* (a projector's screen is too long for a failure's message: its end) */
#define WAIT_BIG(text) ck_assert_msg(tmux_wait_for(&t, text), "no \"%s\" on:\n%s", text, \
                                     t.last + (strlen(t.last) > 3000 ? strlen(t.last) - 3000 : 0))
    WAIT_BIG("0 joined");
    ck_assert_int_eq(sscanf(strstr(t.last, "attn join "), "attn join %63s", addr), 1);
    student(dir, addr, "Ada", "1: -0.5371\\n");
    student(dir, addr, "Bob", "1: 0.5371\\n");
    WAIT_BIG("exercise 1: 2 answered");
    tmux_keys(&t, "Enter");
    WAIT_BIG("= -1.072");
    tmux_keys(&t, "S");
    /* "1 RIGHT, 1 THE SIGN ...": R I G H T in the half-block font */
    WAIT_BIG("█▀▄ ▀█▀ ▄▀▀ █ █ ▀█▀");
    ck_assert_msg(!strstr(t.last, "= -1.072") && !strstr(t.last, "1 right, 1 the sign"),
                  "the spread is not alone, or not in the block font:\n%s", t.last + strlen(t.last) - 3000);
#undef WAIT_BIG
    end_class(&t);
    tmux_stop(&t);

    /* closing exercise 3 gives Q[1,1] as a teacher would: revealed, worked */
    snprintf(args, sizeof args, "%s/02-sky-is-blue.lesson", lessons_dir());
    start_instructor(&t, args, addr);
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "exercise 3: 0 answered");
    ck_assert_msg(!strstr(t.last, "0.2261"), "Q[1,1] shows before it is asked:\n%s", t.last);
    tmux_keys(&t, "X");
    WAIT_FOR(&t, "exercise 3 closed");
    WAIT_FOR(&t, "Exercise 3 (revealed)");
    WAIT_FOR(&t, "Answer (revealed): Q[1,1] = 0.226");
    end_class(&t);
    tmux_stop(&t);
    CmdResult r = cmd_runf("rm -rf %s", dir);
    cmd_free(&r);
}
END_TEST

Suite *tui_class_suite(void)
{
    Suite *s = suite_create("tui_class");
    TCase *c = tcase_create("class");
    tcase_set_timeout(c, 120);
    tcase_add_test(c, a_class_that_cannot_open_says_why);
    const char *skip = getenv("ATTN_SKIP_TUI");
    if (!(skip && strcmp(skip, "1") == 0))
        tcase_add_test(c, the_instructor_sees_the_room);
    if (!(skip && strcmp(skip, "1") == 0))
        tcase_add_test(c, a_student_follows_on_a_terminal);
    if (!(skip && strcmp(skip, "1") == 0))
        tcase_add_test(c, a_students_lesson_keeps_its_files);
    if (!(skip && strcmp(skip, "1") == 0))
        tcase_add_test(c, a_big_lesson_reaches_a_terminal);
    if (!(skip && strcmp(skip, "1") == 0))
        tcase_add_test(c, a_reload_reaches_the_class);
    if (!(skip && strcmp(skip, "1") == 0))
        tcase_add_test(c, the_spread_reads_from_the_back_and_closing_gives_the_value);
    suite_add_tcase(s, c);
    return s;
}
