/*
 * check_class.c - class mode end to end on loopback: a real class server
 * (app/class/class_server.c) pumped by the test as the instructor's screen
 * pumps it, and real `attn join` line clients as processes. Joining and
 * following the steps, answers right and wrong judged on both sides, the
 * tally and its spread, the log and `attn class-report`, a student who
 * joins again keeping their answers, a wrong code, the class's end; and
 * hostile peers (random bytes, a 1 MB line, a silent connection, a flood
 * of connects) dropped without stalling a student. Also the wire's pieces:
 * the line reader, names, addresses.
 */
#include <check.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include "class_log.h"
#include "class_server.h"
#include "class_wire.h"
#include "lesson.h"
#include "session.h"
#include "teach.h"
#include "testutil.h"

/* ---- the wire ---- */

START_TEST(lines_names_and_addresses)
{
    ClassReader r = { 0 };
    char line[CLASS_LINE_MAX];
    const char *two = "HELLO 1 4242 Ada Lovelace\r\nANSWER 3 0.36\nANS";
    ck_assert_uint_eq(class_reader_feed(&r, two, strlen(two)), strlen(two));
    ck_assert_int_eq(class_reader_line(&r, line), 1);
    ck_assert_str_eq(line, "HELLO 1 4242 Ada Lovelace");
    ClassMsg m;
    ck_assert_int_eq(class_msg_parse(line, 3, &m), 0);
    ck_assert_str_eq(m.verb, "HELLO");
    ck_assert_int_eq(m.n, 3);
    ck_assert_str_eq(m.field[2], "Ada Lovelace");     /* the last field keeps its blanks */
    ck_assert_int_eq(class_reader_line(&r, line), 1);
    ck_assert_str_eq(line, "ANSWER 3 0.36");
    ck_assert_int_eq(class_reader_line(&r, line), 0);  /* "ANS" waits for its end */
    /* a line past the limit is an error, never cut */
    char big[CLASS_LINE_MAX];
    memset(big, 'x', sizeof big);
    class_reader_feed(&r, big, sizeof big);
    ck_assert_int_eq(class_reader_line(&r, line), -1);
    ck_assert_int_eq(class_msg_parse((char[]){ "hello 1" }, 3, &m), -1);
    ck_assert_int_eq(class_msg_parse((char[]){ "" }, 3, &m), -1);

    char name[200], why[200];
    ck_assert_int_eq(class_name_clean("  Ada \t Lovelace ", name, sizeof name, why, sizeof why), 0);
    ck_assert_str_eq(name, "Ada Lovelace");
    ck_assert_int_eq(class_name_clean("Zoë", name, sizeof name, why, sizeof why), 0);
    ck_assert_int_eq(class_name_clean("evil\x1b[2J", name, sizeof name, why, sizeof why), -1);
    ck_assert_str_eq(why, "a name is printable text: no control characters, UTF-8 only");
    ck_assert_int_eq(class_name_clean("\xc2\x9b" "1m", name, sizeof name, why, sizeof why), -1);
    ck_assert_int_eq(class_name_clean("\xff", name, sizeof name, why, sizeof why), -1);
    ck_assert_int_eq(class_name_clean("   ", name, sizeof name, why, sizeof why), -1);
    ck_assert_str_eq(why, "a name is needed");
    ck_assert_int_eq(class_name_clean("abcdefghijklmnopqrstuvwxyz0123456", name, sizeof name, why, sizeof why), -1);
    ck_assert_str_eq(why, "a name has at most 32 characters");
    ck_assert_int_eq(class_name_clean("abcdefghijklmnopqrstuvwxyz012345", name, sizeof name, why, sizeof why), 0);

    ClassAddr a;
    ck_assert_int_eq(class_addr_parse("127.0.0.1:7411", &a, why, sizeof why), 0);
    ck_assert_str_eq(a.host, "127.0.0.1");
    ck_assert_int_eq(a.port, 7411);
    ck_assert_int_eq(class_addr_parse("unix:/tmp/c.sock", &a, why, sizeof why), 0);
    ck_assert(a.is_unix);
    ck_assert_str_eq(a.path, "/tmp/c.sock");
    ck_assert_int_eq(class_addr_parse("7411", &a, why, sizeof why), -1);
    ck_assert_str_eq(why, "'7411' is not HOST:PORT (like 127.0.0.1:7411) or unix:PATH");
    ck_assert_int_eq(class_addr_parse("host:99999", &a, why, sizeof why), -1);
}
END_TEST

/* ---- a class on loopback ---- */

static char dir[64];
static ClassServer *server;
static Session *instructor;     /* the session the server judges with */

/* The instructor's session of the lesson at path, which a class judges with. */
static Session *instructor_of(const char *path)
{
    LessonError err;
    Session *ses = session_open(path, &err);
    ck_assert_msg(ses != NULL, "%s", err.msg);
    return ses;
}


static char *lesson_path(const char *name)
{
    static char path[600];
    snprintf(path, sizeof path, "%s/%s", lessons_dir(), name);
    return path;
}

static void open_class(const char *listen)
{
    snprintf(dir, sizeof dir, "/tmp/attn-class-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char log[128], why[1200];
    snprintf(log, sizeof log, "%s/answers.jsonl", dir);
    ClassOptions o = { listen, "4242", log, 1.0 };
    instructor = instructor_of(lesson_path("02-sky-is-blue.lesson"));
    server = class_server_open(instructor, &o, why, sizeof why);
    ck_assert_msg(server != NULL, "%s", why);
}

static void close_class(void)
{
    class_server_free(server);
    server = NULL;
    session_free(instructor);
    instructor = NULL;
    CmdResult r = cmd_runf("rm -rf %s", dir);
    cmd_free(&r);
}

/* Serve the class for up to ms milliseconds (as the screen's loop does). */
static void serve(int ms)
{
    struct pollfd fds[700];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        int n = class_server_fds(server, fds, 700);
        int ready = poll(fds, (nfds_t)n, 10);
        class_server_pump(server, fds, ready > 0 ? n : 0, 0);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if ((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000 >= ms)
            return;
    }
}

/* The address in the join line: "attn join ADDR CODE". */
static const char *class_addr(void)
{
    static char addr[300];
    sscanf(class_server_join_line(server), "attn join %299s", addr);
    return addr;
}

/* A student: `attn join` with pipes on stdin and stdout. */
typedef struct {
    pid_t pid;
    int in, out;
    char seen[16384];
    size_t n;
} Student;

static void student_start(Student *s, const char *addr, const char *code, const char *name)
{
    int to[2], from[2];
    ck_assert(pipe(to) == 0 && pipe(from) == 0);
    memset(s, 0, sizeof *s);
    s->pid = fork();
    ck_assert_int_ge(s->pid, 0);
    if (s->pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        dup2(from[1], 2);
        close(to[1]);
        close(from[0]);
        execl(attn_bin(), "attn", "join", addr, code, "--name", name, (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    s->in = to[1];
    s->out = from[0];
    fcntl(s->out, F_SETFL, O_NONBLOCK);
}

static void student_say(Student *s, const char *line)
{
    ck_assert(write(s->in, line, strlen(line)) == (ssize_t)strlen(line));
}

/* Serve the class 10 ms, then take what the student printed meanwhile. */
static void student_read(Student *s)
{
    serve(10);
    ssize_t n = read(s->out, s->seen + s->n, sizeof s->seen - 1 - s->n);
    if (n > 0)
        s->n += (size_t)n;
    s->seen[s->n] = '\0';
}

/* Serve the class until the student has printed want (or 10 s pass). */
static void student_expect(Student *s, const char *want)
{
    for (int i = 0; i < 1000 && !strstr(s->seen, want); i++)
        student_read(s);
    ck_assert_msg(strstr(s->seen, want), "the student never printed '%s'; they printed:\n%s", want, s->seen);
}

/* Wait for the student's exit (serving meanwhile): its status. */
static int student_exit(Student *s)
{
    int status = -1;
    for (int i = 0; i < 1000; i++) {
        student_read(s);
        if (waitpid(s->pid, &status, WNOHANG) == s->pid) {
            close(s->in);
            close(s->out);
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
        }
    }
    kill(s->pid, SIGKILL);
    waitpid(s->pid, &status, 0);
    ck_abort_msg("the student did not exit:\n%s", s->seen);
    return -1;
}

/* A student whose place cannot be kept (no state folder can be made) is
 * told so and follows the class all the same: the secret was once dropped
 * without a word on every new account, whose ~/.local/state was not there. */
START_TEST(a_place_not_kept_is_said)
{
    open_class("127.0.0.1:0");
    class_server_show(server, 0, 7, "Set-up", 0);
    setenv("ATTN_STATE_DIR", "/proc/attn-no-state/attn", 1);
    Student dee;
    student_start(&dee, class_addr(), "4242", "Dee");
    student_expect(&dee, "attn: your place in this class is not kept (cannot make /proc/attn-no-state/attn: ");
    student_expect(&dee, "if you drop out, you rejoin under another name\n");
    student_expect(&dee, "as Dee\nstep 0/7: Set-up\n");
    class_server_end(server);
    ck_assert_int_eq(student_exit(&dee), 0);
    close_class();
}
END_TEST

START_TEST(a_class_follows_answers_and_ends)
{
    open_class("127.0.0.1:0");
    ck_assert_msg(strncmp(class_server_join_line(server), "attn join 127.0.0.1:", 20) == 0 &&
                  strstr(class_server_join_line(server), " 4242"), "%s", class_server_join_line(server));
    class_server_show(server, 0, 7, "Set-up", 0);
    Student ada, bob;
    student_start(&ada, class_addr(), "4242", "Ada");
    student_expect(&ada, "joined Sky is blue: attention by matrix products as Ada\nstep 0/7: Set-up\n");
    /* the instructor moves on: the students follow */
    class_server_show(server, 1, 7, "Tokens and embeddings", 1);
    student_expect(&ada, "step 1/7: Tokens and embeddings\n"
                         "exercise 1: What do the two numbers of the embedding of 'blue' add up to?\n");
    student_start(&bob, class_addr(), "4242", "Bob");
    /* who joins late gets where the class is */
    student_expect(&bob, "as Bob\nstep 1/7: Tokens and embeddings\nexercise 1: What do the two numbers");
    ClassTally t;
    class_server_tally(server, &t);
    ck_assert_int_eq(t.joined, 2);
    ck_assert_int_eq(t.exercise, 1);
    ck_assert_int_eq(t.answered, 0);
    /* E[3,1] + E[3,2] of lesson 2 is -0.5371: Ada right, Bob with the sign the wrong way */
    student_say(&ada, "1: -0.5371\n");
    student_expect(&ada, "1 ✓ -0.5371: right\n");
    student_say(&bob, "1: 0.5371\n");
    student_expect(&bob, "1 ✗ 0.5371: the sign is the wrong way round\n");
    serve(50);
    class_server_tally(server, &t);
    ck_assert_int_eq(t.answered, 2);
    ck_assert_int_eq(t.right, 1);
    ck_assert_int_eq(t.n_spread, 1);
    ck_assert_str_eq(t.spread[0].id, "sign");
    ck_assert_int_eq(t.spread[0].count, 1);
    /* an exercise that is not open is judged for the student, not counted */
    student_say(&bob, "2: 1\n");
    student_expect(&bob, "2 is not open in the class: your answer is yours, the instructor does not count it\n");
    /* Bob drops and joins again: his answer stays his */
    kill(bob.pid, SIGKILL);
    student_exit(&bob);
    serve(100);
    class_server_tally(server, &t);
    ck_assert_int_eq(t.joined, 1);
    ck_assert_int_eq(t.answered, 2);
    student_start(&bob, class_addr(), "4242", "Bob");
    student_expect(&bob, "as Bob\n");
    serve(50);
    class_server_tally(server, &t);
    ck_assert_int_eq(t.joined, 2);
    ck_assert_int_eq(t.answered, 2);
    ck_assert_int_eq(t.right, 1);
    /* closed: answers no longer count */
    class_server_close_question(server);
    student_expect(&bob, "closed 1\n");
    student_say(&bob, "1: -0.5371\n");
    student_expect(&bob, "1 is not open in the class");
    /* a wrong code: one clear line, exit 1 */
    Student eve;
    student_start(&eve, class_addr(), "1111", "Eve");
    ck_assert_int_eq(student_exit(&eve), 1);
    ck_assert_msg(strstr(eve.seen, "attn: the class refused to let you in: wrong code: ask the instructor for the "
                                   "code on the screen\n"), "%s", eve.seen);
    /* the end: every student is told and exits 0 */
    class_server_end(server);
    ck_assert_int_eq(student_exit(&ada), 0);
    ck_assert_int_eq(student_exit(&bob), 0);
    ck_assert_msg(strstr(ada.seen, "\nended\n"), "%s", ada.seen);

    /* the log holds both answers, and the report reads it */
    CmdResult r = cmd_runf("cat %s/answers.jsonl", dir);
    ck_assert_msg(strstr(r.out, "\"name\": \"Ada\", \"lesson\": \"Sky is blue: attention by matrix products\", "
                                "\"exercise\": 1, \"answer\": \"-0.5371\", \"verdict\": \"right\", \"diagnosis\": null}\n"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "\"name\": \"Bob\", \"lesson\": \"Sky is blue: attention by matrix products\", "
                                "\"exercise\": 1, \"answer\": \"0.5371\", \"verdict\": \"wrong\", \"diagnosis\": \"sign\"}\n"),
                  "%s", r.out);
    cmd_free(&r);
    r = cmd_runf("%s class-report %s/answers.jsonl", attn_bin(), dir);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "Exercise 1: 2 students answered, 1 right at their last answer (50%), 2 answers in all\n"
                                "    1  sign: the sign the wrong way round\n"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "  Ada:  1 ✓ -0.5371\n  Bob:  1 ✗ 0.5371 (sign)\n"), "%s", r.out);
    cmd_free(&r);
    r = cmd_runf("%s class-report --csv %s/answers.jsonl", attn_bin(), dir);
    ck_assert_msg(strstr(r.out, "name,lesson,exercise,answer,verdict,diagnosis,time\n"
                                "Ada,Sky is blue: attention by matrix products,1,-0.5371,right,,"), "%s", r.out);
    cmd_free(&r);
    close_class();
}
END_TEST

/* A broken log line is named by its line. */
START_TEST(the_report_names_a_bad_line)
{
    snprintf(dir, sizeof dir, "/tmp/attn-class-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    /* a torn line among whole ones: named, skipped, the whole ones reported */
    const char *whole = "{\"time\": 1, \"name\": \"A\", \"lesson\": \"L\", \"exercise\": 1, \"answer\": \"1\", "
                        "\"verdict\": \"right\", \"diagnosis\": null}";
    CmdResult r = cmd_runf("printf '%s\\n{\"oops\"\\n%s\\n' > %s/log && %s class-report %s/log", whole,
                           "{\"time\": 2, \"name\": \"B\", \"lesson\": \"L\", \"exercise\": 1, \"answer\": \"2\", "
                           "\"verdict\": \"wrong\", \"diagnosis\": null}", dir, attn_bin(), dir);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "/log:2: JSON: ") && strstr(r.err, "(1 line not read; the whole ones are reported)"),
                  "%s", r.err);
    ck_assert_msg(strstr(r.out, "Exercise 1: 2 students answered"), "%s", r.out);
    cmd_free(&r);
    /* the CSV: bytes escaped, and a formula kept as text (a number stays one) */
    r = cmd_runf("printf '%s\\n' > %s/log && %s class-report --csv %s/log",
                 "{\"time\": 1, \"name\": \"=cmd\", \"lesson\": \"L\", \"exercise\": 1, "
                 "\"answer\": \"=HYPERLINK(1)\\u001b[2J\", \"verdict\": \"wrong\", \"diagnosis\": null}",
                 dir, attn_bin(), dir);
    ck_assert_msg(strstr(r.out, "\n\"'=cmd\",L,1,\"'=HYPERLINK(1)\\x1b[2J\",wrong,,1\n") && !strchr(r.out, '\x1b'),
                  "%s", r.out);
    cmd_free(&r);
    /* numbers out of their type: an exercise of 2147483647 (looped for
     * ever) or 1e300 (read as -2147483648) is a line not read */
    r = cmd_runf("printf '%s\\n%s\\n%s\\n' > %s/log && timeout 10 %s class-report %s/log", whole,
                 "{\"time\": 1, \"name\": \"C\", \"lesson\": \"L\", \"exercise\": 2147483647, \"answer\": \"1\", "
                 "\"verdict\": \"right\", \"diagnosis\": null}",
                 "{\"time\": 1, \"name\": \"D\", \"lesson\": \"L\", \"exercise\": 1e300, \"answer\": \"1\", "
                 "\"verdict\": \"right\", \"diagnosis\": null}", dir, attn_bin(), dir);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.err, "/log:2: the exercise must be a whole number from 1 to 100000")
                      && strstr(r.err, "(2 lines not read"), "%s", r.err);
    cmd_free(&r);
    r = cmd_runf("%s class-report", attn_bin());
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "usage: attn class-report [--csv] LOG"), "%s", r.err);
    cmd_free(&r);
    r = cmd_runf("rm -rf %s", dir);
    cmd_free(&r);
}
END_TEST

/* A full disk (a file-size limit stands in for it): each answer is one
 * whole line or none, and the log reads back whole (half a line once
 * stayed, the next answer glued to it). */
START_TEST(a_full_disk_never_tears_the_log)
{
    snprintf(dir, sizeof dir, "/tmp/attn-class-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[400];
    snprintf(path, sizeof path, "%s/answers.jsonl", dir);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit lim = { 300, 300 };    /* room for two lines and part of a third */
        setrlimit(RLIMIT_FSIZE, &lim);
        char why[400];
        ClassLog *log = class_log_open(path, why, sizeof why);
        if (!log)
            _exit(3);
        int ok = 0, refused = 0;
        for (int i = 0; i < 5; i++) {
            if (class_log_answer(log, "Ada", "A lesson of some length", 1, "0.5", "right", NULL, why, sizeof why) == 0)
                ok++;
            else
                refused += strstr(why, "answers are not being recorded") != NULL;
        }
        class_log_close(log);
        _exit(ok >= 1 && refused >= 1 ? 0 : 4);
    }
    int status;
    waitpid(pid, &status, 0);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d", status);
    ClassLogEntry *e;
    int n, skipped;
    char why[400];
    ck_assert_int_eq(class_log_read(path, &e, &n, &skipped, why, sizeof why), 0);
    ck_assert_msg(skipped == 0 && n >= 1, "%d read, %d torn: %s", n, skipped, why);
    CmdResult r = cmd_runf("tail -c 1 %s | od -c", path);
    ck_assert_msg(strstr(r.out, "\\n"), "the log does not end in a whole line: %s", r.out);
    cmd_free(&r);
    class_log_entries_free(e, n);
    r = cmd_runf("rm -rf %s", dir);
    cmd_free(&r);
}
END_TEST

static int raw_connect(void)
{
    ClassAddr a;
    char why[200];
    ck_assert_int_eq(class_addr_parse(class_addr(), &a, why, sizeof why), 0);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)a.port) };
    inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    return fd;
}

/* Send text whole on fd. */
static void raw_send(int fd, const char *text)
{
    ck_assert(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
}

/* Serve the class while reading fd into got (from its start) until it
 * holds want, or 3 s pass. */
static void raw_until(int fd, char *got, size_t size, const char *want)
{
    size_t have = 0;
    got[0] = '\0';
    for (int i = 0; i < 300 && !strstr(got, want); i++) {
        serve(10);
        ssize_t n = read(fd, got + have, size - 1 - have);
        if (n > 0)
            have += (size_t)n;
        got[have] = '\0';
    }
}

/* Is fd closed by the server (EOF after whatever it sent)? */
static int closed_by_server(int fd)
{
    char buf[4096];
    fcntl(fd, F_SETFL, O_NONBLOCK);
    for (int i = 0; i < 300; i++) {
        serve(10);
        ssize_t n = read(fd, buf, sizeof buf);
        if (n == 0 || (n < 0 && errno == ECONNRESET))
            return 1;
    }
    return 0;
}

/* One parse, one judge: the class sends the lesson as the instructor's
 * session parsed it (not the file as it is on disk since), and judges with
 * that session: the answer right in the session's lesson is counted right,
 * though the file now says otherwise. */
START_TEST(the_class_is_the_instructors_session)
{
    snprintf(dir, sizeof dir, "/tmp/attn-class-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[200], why[1200];
    snprintf(path, sizeof path, "%s/two.lesson", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("lesson As parsed\nlet A = [1 2; 3 4]\nstep S\n  show A\n  exercise What is A[2,1]?\n    answer A[2,1]\n  end\n", f);
    fclose(f);
    instructor = instructor_of(path);
    f = fopen(path, "w");      /* the file changes; the session was not reloaded */
    ck_assert_ptr_nonnull(f);
    fputs("lesson As on disk\nlet A = [9 9; 9 9]\nstep S\n  show A\n  exercise What is A[2,1]?\n    answer A[2,1]\n  end\n", f);
    fclose(f);
    ClassOptions o = { "127.0.0.1:0", "4242", NULL, 30.0 };
    server = class_server_open(instructor, &o, why, sizeof why);
    ck_assert_msg(server != NULL, "%s", why);
    class_server_show(server, 1, 1, "S", 1);
    int raw = raw_connect();
    raw_send(raw, "HELLO 1 4242 Raw\n");
    static char got[8192];
    fcntl(raw, F_SETFL, O_NONBLOCK);
    raw_until(raw, got, sizeof got, "\nREADY\n");
    ck_assert_msg(strstr(got, "lesson As parsed\n") && !strstr(got, "As on disk"), "%s", got);
    raw_send(raw, "ANSWER 1 3\n");
    raw_until(raw, got, sizeof got, "COUNTED 1 right\n");
    ck_assert_msg(strstr(got, "COUNTED 1 right\n"), "%s", got);
    ClassTally t;
    class_server_tally(server, &t);
    ck_assert_int_eq(t.answered, 1);
    ck_assert_int_eq(t.right, 1);
    close(raw);
    close_class();
}
END_TEST

START_TEST(hostile_peers_are_dropped_and_nobody_stalls)
{
    open_class("127.0.0.1:0");
    class_server_show(server, 1, 7, "Tokens and embeddings", 1);
    Student ada;
    student_start(&ada, class_addr(), "4242", "Ada");
    student_expect(&ada, "exercise 1:");
    /* random bytes */
    int junk = raw_connect();
    unsigned char bytes[512];
    srand(7);
    for (size_t i = 0; i < sizeof bytes; i++)
        bytes[i] = (unsigned char)rand();
    bytes[0] = 0x01;
    ck_assert(write(junk, bytes, sizeof bytes) > 0);
    ck_assert_msg(closed_by_server(junk), "random bytes were not dropped");
    close(junk);
    /* a 1 MB line */
    int big = raw_connect();
    char *mb = malloc(1 << 20);
    memset(mb, 'A', 1 << 20);
    fcntl(big, F_SETFL, O_NONBLOCK);
    size_t sent = 0;
    for (int i = 0; i < 200 && sent < (1u << 20); i++) {
        ssize_t n = write(big, mb + sent, (1u << 20) - sent);
        if (n > 0)
            sent += (size_t)n;
        serve(5);
    }
    free(mb);
    ck_assert_msg(closed_by_server(big), "a 1 MB line was not refused");
    close(big);
    /* a connection that never says who it is: dropped after its second */
    int silent = raw_connect();
    ck_assert_msg(closed_by_server(silent), "a silent connection stayed");
    close(silent);
    /* a name with an escape sequence: refused, never drawn or logged */
    Student evil;
    student_start(&evil, class_addr(), "4242", "evil\x1b[2J");
    ck_assert_int_eq(student_exit(&evil), 1);
    ck_assert_msg(strstr(evil.seen, "no control characters"), "%s", evil.seen);
    /* the protocol by hand: the lesson's file, where the class is, READY;
     * an answer to the open exercise is acknowledged once it is logged */
    int raw = raw_connect();
    const char *hello = "HELLO 1 4242 Raw\n";
    raw_send(raw, hello);
    static char got[65536];
    fcntl(raw, F_SETFL, O_NONBLOCK);
    raw_until(raw, got, sizeof got, "\nREADY\n");
    ck_assert_msg(strncmp(got, "WELCOME 1 Raw\nSECRET ", 21) == 0 && strstr(got, "\nFILE lesson "), "%.200s", got);
    char raw_secret[CLASS_SECRET_LEN + 1];
    ck_assert_int_eq(sscanf(got + 21, "%32[0-9a-f]", raw_secret), 1);
    ck_assert_uint_eq(strlen(raw_secret), CLASS_SECRET_LEN);
    ck_assert_msg(strstr(got, "\nSTEP 1 7 Tokens and embeddings\nEXERCISE 1 What do the two numbers of the "
                              "embedding of 'blue' add up to?\nREADY\n"), "%s", got);
    const char *ans = "ANSWER 1 0.36\n";
    raw_send(raw, ans);
    raw_until(raw, got, sizeof got, "COUNTED 1 wrong\n");
    ck_assert_msg(strstr(got, "COUNTED 1 wrong\n"), "no COUNTED: %s", got);
    /* an answer that is no number is not counted and replaces nothing */
    const char *junk_answer = "ANSWER 1 abc\n";
    raw_send(raw, junk_answer);
    raw_until(raw, got, sizeof got, "UNCOUNTED 1 not one number\n");
    ck_assert_msg(strstr(got, "UNCOUNTED 1 not one number\n"), "%s", got);
    ClassTally kept;
    class_server_tally(server, &kept);
    ck_assert_int_eq(kept.answered, 1);     /* Raw's 0.36 stands */
    ck_assert_int_eq(kept.n_spread, 1);
    /* the name is Raw's: a second connection claiming it is refused with a
     * reason, and Raw's counted answer stays (it once dropped Raw without a
     * word and replaced the answer) */
    int thief = raw_connect();
    const char *steal = "HELLO 1 4242 Raw\nANSWER 1 999\n";
    raw_send(thief, steal);
    static char stolen[4096];
    fcntl(thief, F_SETFL, O_NONBLOCK);
    raw_until(thief, stolen, sizeof stolen, "REFUSED");
    ck_assert_msg(strstr(stolen, "REFUSED the name Raw is taken in this class: choose another with --name"), "%s",
                  stolen);
    close(thief);
    ClassTally held;
    class_server_tally(server, &held);
    ck_assert_int_eq(held.answered, 1);
    /* with its secret, the name comes back to Raw (a rejoin) */
    int again = raw_connect();
    char prove[200];
    snprintf(prove, sizeof prove, "PROVE %s\nHELLO 1 4242 Raw\n", raw_secret);
    raw_send(again, prove);
    fcntl(again, F_SETFL, O_NONBLOCK);
    raw_until(again, stolen, sizeof stolen, "\nREADY\n");
    ck_assert_msg(strncmp(stolen, "WELCOME 1 Raw\n", 14) == 0, "%.200s", stolen);
    close(again);
    close(raw);
    /* a student who floods: more lines at once than the rate allows */
    int flood = raw_connect();
    char lines[2048] = "HELLO 1 4242 Flood\n";
    for (int i = 0; i < 40; i++)
        strcat(lines, "ANSWER 1 0.5\n");
    raw_send(flood, lines);
    fcntl(flood, F_SETFL, O_NONBLOCK);
    raw_until(flood, got, sizeof got, "REFUSED too many messages: slow down\n");
    ck_assert_msg(strstr(got, "REFUSED too many messages: slow down\n"), "no rate limit: %.300s", got);
    ck_assert_msg(closed_by_server(flood), "the flooding student stayed");
    close(flood);
    /* a flood: 1000 connects, most closed at once */
    for (int i = 0; i < 1000; i++) {
        int fd = raw_connect();
        close(fd);
        if (i % 50 == 0)
            serve(1);
    }
    serve(100);
    /* and through all of it, Ada's answer is judged and counted */
    student_say(&ada, "1: -0.5371\n");
    student_expect(&ada, "1 ✓ -0.5371: right\n");
    serve(50);
    ClassTally t;
    class_server_tally(server, &t);
    ck_assert_int_eq(t.joined, 1);
    ck_assert_int_eq(t.answered, 3);    /* Ada's, and Raw's and Flood's who left */
    ck_assert_int_eq(t.right, 1);
    class_server_end(server);
    ck_assert_int_eq(student_exit(&ada), 0);
    close_class();
}
END_TEST

/* 64 idle connections held open (no code needed) do not lock the class:
 * the silent line that waited longest makes room for the newcomer (the
 * newcomer was the one closed). */
START_TEST(idle_connections_do_not_lock_the_class)
{
    open_class("127.0.0.1:0");
    class_server_show(server, 1, 7, "Tokens and embeddings", 1);
    int idle[80];
    for (int i = 0; i < 80; i++) {
        idle[i] = raw_connect();
        serve(2);
    }
    serve(50);
    Student ada;
    student_start(&ada, class_addr(), "4242", "Ada");
    student_expect(&ada, "exercise 1:");
    serve(50);
    ClassTally t;
    class_server_tally(server, &t);
    ck_assert_int_eq(t.joined, 1);
    /* the oldest idle ones were let go */
    ck_assert_msg(closed_by_server(idle[0]), "the oldest idle line is still held");
    class_server_end(server);
    ck_assert_int_eq(student_exit(&ada), 0);
    for (int i = 0; i < 80; i++)
        close(idle[i]);
    close_class();
}
END_TEST

/* The reply to one HELLO sent on a fresh connection (what the server says
 * before it closes, or READY). */
static void hello_reply(const char *hello, char *got, size_t size)
{
    int fd = raw_connect();
    raw_send(fd, hello);
    fcntl(fd, F_SETFL, O_NONBLOCK);
    raw_until(fd, got, size, "\n");      /* the first line says which */
    close(fd);
}

/* Wrong codes are slowed per address and in total: after three from one
 * address it waits, a right code refused too while it does (all 10^6 codes
 * once took 90 s); a student elsewhere still joins. */
START_TEST(wrong_codes_are_slowed)
{
    open_class("127.0.0.1:0");
    static char got[65536];
    int judged = 0, waited = 0;
    for (int i = 0; i < 20; i++) {
        char hello[64];
        snprintf(hello, sizeof hello, "HELLO 1 %04d Guess%d\n", 1000 + i, i);
        hello_reply(hello, got, sizeof got);
        judged += strstr(got, "REFUSED wrong code") != NULL;
        waited += strstr(got, "REFUSED too many wrong codes from here") != NULL;
    }
    ck_assert_msg(judged == 3 && waited == 17, "%d guesses judged, %d told to wait", judged, waited);
    /* the right code, from the waiting address: refused unread */
    hello_reply("HELLO 1 4242 Right\n", got, sizeof got);
    ck_assert_msg(strstr(got, "REFUSED too many wrong codes from here: try again in"), "%s", got);
    /* a student from another address of the loopback joins (the class's
     * own share of wrong codes is not spent) */
    ClassAddr ca;
    char why[200];
    ck_assert_int_eq(class_addr_parse(class_addr(), &ca, why, sizeof why), 0);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in from = { .sin_family = AF_INET }, to = { .sin_family = AF_INET, .sin_port = htons((uint16_t)ca.port) };
    inet_pton(AF_INET, "127.0.0.2", &from.sin_addr);
    inet_pton(AF_INET, "127.0.0.1", &to.sin_addr);
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&from, sizeof from), 0);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&to, sizeof to), 0);
    const char *hello = "HELLO 1 4242 Ada\n";
    raw_send(fd, hello);
    fcntl(fd, F_SETFL, O_NONBLOCK);
    raw_until(fd, got, sizeof got, "\n");
    ck_assert_msg(strncmp(got, "WELCOME 1 Ada\n", 14) == 0, "%.200s", got);
    close(fd);
    close_class();
}
END_TEST

/* A hostile server: attn join (the line client) at 127.0.0.1:port, its
 * output into out; the server's side is the listening socket ls. */
static pid_t join_hostile(int *ls, const char *out)
{
    *ls = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = { .sin_family = AF_INET };
    inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    socklen_t len = sizeof sa;
    ck_assert_int_eq(bind(*ls, (struct sockaddr *)&sa, sizeof sa), 0);
    ck_assert_int_eq(listen(*ls, 4), 0);
    ck_assert_int_eq(getsockname(*ls, (struct sockaddr *)&sa, &len), 0);
    char addr[64];
    snprintf(addr, sizeof addr, "127.0.0.1:%d", ntohs(sa.sin_port));
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600), null = open("/dev/null", O_RDONLY);
        dup2(fd, 1);
        dup2(fd, 2);
        dup2(null, 0);
        execl(attn_bin(), "attn", "join", addr, "4242", "--name", "Ada", (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* A hostile server cannot exhaust a student: files past the count a class
 * may send are refused (FILE repeated once grew the line client to 768 MB),
 * and a server that says nothing is left after the time limit (it held
 * the line client for ever). */
START_TEST(a_hostile_server_cannot_exhaust_a_student)
{
    char out[] = "/tmp/attn-hostile-XXXXXX";
    int tmp = mkstemp(out);
    ck_assert_int_ge(tmp, 0);
    close(tmp);
    int ls;
    pid_t pid = join_hostile(&ls, out);
    int c = accept(ls, NULL, NULL);
    ck_assert_int_ge(c, 0);
    char line[128];
    ck_assert(write(c, "WELCOME 1 Ada\n", 14) == 14);
    for (int i = 0; i < CLASS_FILES_MAX + 5; i++) {
        int n = snprintf(line, sizeof line, "FILE data 1 d%d.npy\nx", i);
        if (write(c, line, (size_t)n) != n)
            break;
    }
    int status;
    waitpid(pid, &status, 0);
    close(c);
    close(ls);
    CmdResult r = cmd_runf("cat %s", out);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 1 && strstr(r.out, "the class sent a file this client cannot take"),
                  "status %d: %s", status, r.out);
    cmd_free(&r);
    /* silence: the wait ends; and, waited for in the same 30 seconds, a
     * file begun after the lesson and then left (its bytes stalled) ends
     * the wait too (it once held the line client for ever) */
    char out2[] = "/tmp/attn-hostile-XXXXXX";
    tmp = mkstemp(out2);
    ck_assert_int_ge(tmp, 0);
    close(tmp);
    double t0 = class_now_seconds();
    pid = join_hostile(&ls, out);
    c = accept(ls, NULL, NULL);
    int ls2;
    pid_t pid2 = join_hostile(&ls2, out2);
    int c2 = accept(ls2, NULL, NULL);
    static const char lesson[] = "lesson Tiny\nlet x = [1 2]\n";
    char head[400];
    int hn = snprintf(head, sizeof head, "WELCOME 1 Ada\nFILE lesson %zu tiny.lesson\n%sREADY\n"
                      "FILE data 62914560 d0.npy\n%s", sizeof lesson - 1, lesson, "partial bytes");
    ck_assert(write(c2, head, (size_t)hn) == hn);
    waitpid(pid, &status, 0);
    int status2;
    waitpid(pid2, &status2, 0);
    close(c);
    close(ls);
    close(c2);
    close(ls2);
    r = cmd_runf("cat %s", out);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 1
                      && strstr(r.out, "the class sent no lesson within 30 seconds"), "status %d: %s", status, r.out);
    ck_assert_msg(class_now_seconds() - t0 < 45, "the wait took %.0f s", class_now_seconds() - t0);
    cmd_free(&r);
    r = cmd_runf("cat %s", out2);
    ck_assert_msg(WIFEXITED(status2) && WEXITSTATUS(status2) == 1
                      && strstr(r.out, "the class stopped sending d0.npy part way (13 of 62914560 bytes, nothing for 30 "
                                       "seconds)"), "status %d: %s", status2, r.out);
    cmd_free(&r);
    unlink(out);
    unlink(out2);
}
END_TEST

/* Students who join and never read cannot grow the instructor without
 * bound: the lesson waits in each one's buffer, and past the total the
 * class holds for all of them a newcomer is refused with a reason (200 of
 * them once grew the instructor from 56 MB to 1.44 GB). */
START_TEST(students_who_never_read_are_bounded_in_total)
{
    snprintf(dir, sizeof dir, "/tmp/attn-class-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[200], why[1200];
    snprintf(path, sizeof path, "%s/big.npy", dir);
    ck_assert_int_eq(write_npy_f32(path, 2048, 1024), 0);   /* 8 MB */
    snprintf(path, sizeof path, "%s/big.lesson", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("lesson Big\nlet W = load(\"big.npy\")\nstep S\n  let C = rows(cols(W, 1, 2), 1, 2)\n  show C\n", f);
    fclose(f);
    ClassOptions o = { "127.0.0.1:0", "4242", NULL, 30.0 };
    instructor = instructor_of(path);
    server = class_server_open(instructor, &o, why, sizeof why);
    ck_assert_msg(server != NULL, "%s", why);
    int fds[80], refused = 0;
    static char got[4096];
    for (int i = 0; i < 80; i++) {
        fds[i] = raw_connect();
        char hello[64];
        int n = snprintf(hello, sizeof hello, "HELLO 1 4242 S%d\n", i);
        ck_assert(write(fds[i], hello, (size_t)n) == n);
        serve(20);
    }
    serve(200);
    ClassTally t;
    class_server_tally(server, &t);
    ck_assert_msg(t.joined < 80, "every one of 80 was queued 8 MB: %d joined", t.joined);
    /* the last to come are told why */
    fcntl(fds[79], F_SETFL, O_NONBLOCK);
    raw_until(fds[79], got, sizeof got, "busy");
    refused = strstr(got, "REFUSED the class is busy sending the lesson to others") != NULL;
    ck_assert_msg(refused, "%.200s", got);
    for (int i = 0; i < 80; i++)
        close(fds[i]);
    close_class();
}
END_TEST

/* A class on the IPv6 loopback, [::1]:PORT as people write it (it was
 * refused as no HOST:PORT); skipped where the machine has no ::1. */
START_TEST(a_class_on_ipv6_loopback)
{
    int probe = socket(AF_INET6, SOCK_STREAM, 0);
    struct sockaddr_in6 sa = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT };
    int have_v6 = probe >= 0 && bind(probe, (struct sockaddr *)&sa, sizeof sa) == 0;
    if (probe >= 0)
        close(probe);
    if (!have_v6)
        return;
    open_class("[::1]:0");
    ck_assert_msg(strncmp(class_addr(), "[::1]:", 6) == 0, "%s", class_addr());
    class_server_show(server, 2, 7, "Three views of each word: Q, K and V", 0);
    Student ada;
    student_start(&ada, class_addr(), "4242", "Ada");
    student_expect(&ada, "as Ada\nstep 2/7: Three views of each word: Q, K and V\n");
    class_server_end(server);
    ck_assert_int_eq(student_exit(&ada), 0);
    close_class();
    ClassAddr a;
    char why[200];
    ck_assert_int_eq(class_addr_parse("::1:7411", &a, why, sizeof why), -1);
    ck_assert_msg(strstr(why, "write an IPv6 address in brackets, like [::1]:7411"), "%s", why);
}
END_TEST

/* One verdict on both sides: an answer a student's screen calls right
 * from the rounded numbers it showed is counted right in the tally (the
 * server judged it again at 4 decimals and counted it wrong). */
START_TEST(the_tally_counts_what_the_screen_said)
{
    open_class("127.0.0.1:0");
    class_server_show(server, 2, 7, "Three views of each word: Q, K and V", 3);
    /* a number right from the numbers rounded to 2 decimals, wrong at 4 */
    char path[600];
    snprintf(path, sizeof path, "%s/02-sky-is-blue.lesson", lessons_dir());
    char *text = slurp(path);
    LessonError err;
    Lesson *l = lesson_parse(text, strlen(text), path, &err);
    ck_assert_msg(l != NULL, "%s", err.msg);
    LessonState *st = lesson_eval(l, NULL, 0, &err);
    LessonJudge *j = lesson_judge_new(l, st);
    const LessonExercise *ex = lesson_exercise_at(l, 2);
    JudgeContext two = { .decimals = 2 };
    char typed[32] = "";
    Judgement a, b;
    lesson_judge(j, ex, "0.2261", NULL, &a);
    for (int i = -400; i <= 400 && !typed[0]; i++) {
        char try[32];
        snprintf(try, sizeof try, "%.4f", 0.2261 + i * 1e-4);
        lesson_judge(j, ex, try, &two, &a);
        lesson_judge(j, ex, try, NULL, &b);
        if (a.verdict == VERDICT_RIGHT && b.verdict == VERDICT_WRONG)
            snprintf(typed, sizeof typed, "%s", try);
    }
    ck_assert_msg(typed[0], "no number is right only from the rounded screen");
    lesson_judge_free(j);
    lesson_state_free(st);
    lesson_free(l);
    free(text);
    int fd = raw_connect();
    char lines[300];
    int n = snprintf(lines, sizeof lines, "HELLO 1 4242 Ada\n");
    ck_assert(write(fd, lines, (size_t)n) == n);
    static char got[65536];
    fcntl(fd, F_SETFL, O_NONBLOCK);
    raw_until(fd, got, sizeof got, "\nREADY\n");
    ck_assert_msg(strstr(got, "\nJUDGES shown\n"), "%.300s", got);
    n = snprintf(lines, sizeof lines, "SHOWN 2\nANSWER 3 %s\n", typed);
    ck_assert(write(fd, lines, (size_t)n) == n);
    raw_until(fd, got, sizeof got, "COUNTED 3 right\n");
    ck_assert_msg(strstr(got, "COUNTED 3 right\n"), "the student was not told the count: %.300s", got);
    ClassTally t;
    class_server_tally(server, &t);
    ck_assert_msg(t.answered == 1 && t.right == 1, "%s counted %d right of %d", typed, t.right, t.answered);
    /* the same number without the screen's decimals: judged as written */
    n = snprintf(lines, sizeof lines, "ANSWER 3 %s\n", typed);
    ck_assert(write(fd, lines, (size_t)n) == n);
    raw_until(fd, got, sizeof got, "COUNTED 3 wrong\n");
    ck_assert_msg(strstr(got, "COUNTED 3 wrong\n"), "%.300s", got);
    serve(20);
    class_server_tally(server, &t);
    ck_assert_int_eq(t.right, 0);
    close(fd);
    close_class();
}
END_TEST

/* A unix socket for a shared host: the group may join, nobody else. */
START_TEST(a_class_on_a_unix_socket)
{
    char sock[200], listen[220];
    snprintf(sock, sizeof sock, "/tmp/attn-class-sock-%d", (int)getpid());
    snprintf(listen, sizeof listen, "unix:%s", sock);
    open_class(listen);
    struct stat st;
    ck_assert_int_eq(stat(sock, &st), 0);
    ck_assert_int_eq(st.st_mode & 0777, 0660);
    class_server_show(server, 2, 7, "Three views of each word: Q, K and V", 0);
    Student ada;
    student_start(&ada, listen, "4242", "Ada");
    student_expect(&ada, "as Ada\nstep 2/7: Three views of each word: Q, K and V\n");
    class_server_end(server);
    ck_assert_int_eq(student_exit(&ada), 0);
    ck_assert_int_ne(stat(sock, &st), 0);   /* the socket goes with the class */
    close_class();
}
END_TEST

/* class-report rounds its shares (3 of 7 right is 43%, not 42%). */
START_TEST(report_rounds_its_shares)
{
    char text[2048] = "";
    for (int k = 0; k < 7; k++) {
        size_t len = strlen(text);
        snprintf(text + len, sizeof text - len,
                 "{\"time\": 1, \"name\": \"S%d\", \"lesson\": \"L\", \"exercise\": 1, \"answer\": \"%s\", "
                 "\"verdict\": \"%s\", \"diagnosis\": null}\n", k, k < 3 ? "1" : "2", k < 3 ? "right" : "wrong");
    }
    const char *log = write_temp(".jsonl", text);
    ck_assert_ptr_nonnull(log);
    CmdResult r = cmd_runf("%s class-report %s", attn_bin(), log);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "Exercise 1: 7 students answered, 3 right at their last answer (43%)"), "%s", r.out);
    cmd_free(&r);
}
END_TEST

/* The report's student lines in columns: the names as wide as the widest,
 * each exercise's answers as wide as its widest (the last of a line
 * unpadded). */
START_TEST(the_report_lines_up_its_students)
{
    const char *log = write_temp(".jsonl",
        "{\"time\": 1, \"name\": \"Ada\", \"lesson\": \"L\", \"exercise\": 1, \"answer\": \"0.5\", "
        "\"verdict\": \"right\", \"diagnosis\": null}\n"
        "{\"time\": 2, \"name\": \"Christopher\", \"lesson\": \"L\", \"exercise\": 1, \"answer\": \"-0.25\", "
        "\"verdict\": \"wrong\", \"diagnosis\": \"sign\"}\n"
        "{\"time\": 3, \"name\": \"Ada\", \"lesson\": \"L\", \"exercise\": 2, \"answer\": \"3\", "
        "\"verdict\": \"right\", \"diagnosis\": null}\n"
        "{\"time\": 4, \"name\": \"Christopher\", \"lesson\": \"L\", \"exercise\": 2, \"answer\": \"4\", "
        "\"verdict\": \"wrong\", \"diagnosis\": null}\n");
    ck_assert_ptr_nonnull(log);
    CmdResult r = cmd_runf("%s class-report %s", attn_bin(), log);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "\nStudents\n"
                                "  Ada:          1 ✓ 0.5           2 ✓ 3\n"
                                "  Christopher:  1 ✗ -0.25 (sign)  2 ✗ 4\n"), "%s", r.out);
    cmd_free(&r);
}
END_TEST

/* Each test's peers (a student, a hostile server) may leave as soon as
 * they refuse what they were sent: a write to them is then an error here
 * (EPIPE), never the signal that once ended a hostile-server test when the
 * student was quick. */
static void no_sigpipe(void)
{
    signal(SIGPIPE, SIG_IGN);
}

Suite *class_suite(void)
{
    Suite *s = suite_create("class");
    TCase *c = tcase_create("core");
    tcase_add_checked_fixture(c, no_sigpipe, NULL);
    tcase_set_timeout(c, 120);
    tcase_add_test(c, report_rounds_its_shares);
    tcase_add_test(c, a_place_not_kept_is_said);
    tcase_add_test(c, the_report_lines_up_its_students);
    tcase_add_test(c, idle_connections_do_not_lock_the_class);
    tcase_add_test(c, wrong_codes_are_slowed);
    tcase_add_test(c, a_hostile_server_cannot_exhaust_a_student);
    tcase_add_test(c, students_who_never_read_are_bounded_in_total);
    tcase_add_test(c, lines_names_and_addresses);
    tcase_add_test(c, a_class_follows_answers_and_ends);
    tcase_add_test(c, the_report_names_a_bad_line);
    tcase_add_test(c, a_full_disk_never_tears_the_log);
    tcase_add_test(c, the_class_is_the_instructors_session);
    tcase_add_test(c, hostile_peers_are_dropped_and_nobody_stalls);
    tcase_add_test(c, a_class_on_a_unix_socket);
    tcase_add_test(c, a_class_on_ipv6_loopback);
    tcase_add_test(c, the_tally_counts_what_the_screen_said);
    suite_add_tcase(s, c);
    return s;
}
