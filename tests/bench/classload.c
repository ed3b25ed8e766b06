/*
 * classload.c - a class under load: `make class-load`. Runs the
 * instructor's `attn --class` in a pseudo-terminal on loopback, joins N
 * students (300 by default) speaking the protocol from this one process,
 * and while they answer every exercise the instructor opens, presses keys
 * that move the class between two steps, timing each key from its write to
 * the frame that shows the new step's title. Then it checks what must
 * hold whatever the timing: every student joined, each answer the server
 * acknowledged (COUNTED) is a line of the log, every student saw the steps
 * and the end. The pseudo-terminal's own round trip (a line through cat)
 * is measured in the same run as the yardstick. Speed is reported, never
 * asserted; the exit status says whether the class held (0) or lost
 * something (1).
 *
 * usage: classload ATTN LESSON [--students N] [--keys K]
 * Only 127.0.0.1: it never aims traffic anywhere else.
 */
#define _DEFAULT_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_STUDENTS 500
#define LINE_MAX_BYTES 4096

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

typedef struct {
    int fd;
    char in[1 << 16];
    size_t len;
    size_t skip;            /* bytes of a FILE still to pass over */
    int ready, ended, open, steps, sent, counted;
    double answer_at;       /* when to answer the open exercise (0: not yet) */
} Student;

static Student *students;
static int n_students = 300;

/* The screen's bytes, kept as a rolling window to look for the markers. */
static char screen[1 << 16];
static size_t screen_len;

static void screen_take(int pty)
{
    char buf[65536];
    ssize_t n;
    while ((n = read(pty, buf, sizeof buf)) > 0) {
        if (screen_len + (size_t)n >= sizeof screen) {
            size_t keep = sizeof screen / 2;
            memmove(screen, screen + screen_len - keep, keep);
            screen_len = keep;
        }
        memcpy(screen + screen_len, buf, (size_t)n);
        screen_len += (size_t)n;
        screen[screen_len] = '\0';
        if (screen_len >= sizeof screen - 1)
            break;
    }
}

static void student_line(Student *s, char *line)
{
    if (strncmp(line, "FILE ", 5) == 0) {
        char kind[16];
        size_t size;
        if (sscanf(line, "FILE %15s %zu", kind, &size) == 2)
            s->skip = size;
    } else if (strcmp(line, "READY") == 0) {
        s->ready = 1;
    } else if (strncmp(line, "STEP ", 5) == 0) {
        s->steps++;
    } else if (strncmp(line, "EXERCISE ", 9) == 0) {
        s->open = atoi(line + 9);
        s->answer_at = now_ms() + rand() % 400;
    } else if (strncmp(line, "CLOSED ", 7) == 0) {
        if (atoi(line + 7) == s->open)
            s->open = 0;
    } else if (strncmp(line, "COUNTED ", 8) == 0) {
        s->counted++;
    } else if (strcmp(line, "ENDED") == 0) {
        s->ended = 1;
    }
}

static void student_read(Student *s)
{
    ssize_t n = recv(s->fd, s->in + s->len, sizeof s->in - s->len, 0);
    if (n <= 0)
        return;
    s->len += (size_t)n;
    size_t off = 0;
    for (;;) {
        if (s->skip) {
            size_t take = s->len - off < s->skip ? s->len - off : s->skip;
            off += take;
            s->skip -= take;
            if (s->skip)
                break;
        }
        char *nl = memchr(s->in + off, '\n', s->len - off);
        if (!nl)
            break;
        *nl = '\0';
        student_line(s, s->in + off);
        off = (size_t)(nl + 1 - s->in);
    }
    memmove(s->in, s->in + off, s->len - off);
    s->len -= off;
}

static void student_answer(Student *s)
{
    static const char *const answers[] = { "0.5", "-0.5321", "0.5321", "1", "0.36", "0.3622", "2", "0" };
    char line[128];
    int n = snprintf(line, sizeof line, "ANSWER %d %s\n", s->open, answers[rand() % 8]);
    if (send(s->fd, line, (size_t)n, MSG_NOSIGNAL) == n)
        s->sent++;
    s->answer_at = 0;
}

static int connect_port(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        close(fd);
        return -1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    fcntl(fd, F_SETFL, O_NONBLOCK);
    return fd;
}

/* Serve the pty and every student for ms milliseconds (or until done()). */
static void run_for(int pty, double ms, int (*done)(void))
{
    static struct pollfd fds[MAX_STUDENTS + 1];
    double end = now_ms() + ms;
    while (now_ms() < end && !(done && done())) {
        fds[0] = (struct pollfd){ pty, POLLIN, 0 };
        for (int i = 0; i < n_students; i++)
            fds[i + 1] = (struct pollfd){ students[i].fd, POLLIN, 0 };
        poll(fds, (nfds_t)n_students + 1, 5);
        if (fds[0].revents)
            screen_take(pty);
        double t = now_ms();
        for (int i = 0; i < n_students; i++) {
            if (fds[i + 1].revents)
                student_read(&students[i]);
            if (students[i].open && students[i].answer_at > 0 && t >= students[i].answer_at)
                student_answer(&students[i]);
        }
    }
}

static int all_ready(void)
{
    for (int i = 0; i < n_students; i++)
        if (!students[i].ready)
            return 0;
    return 1;
}

static int all_ended(void)
{
    for (int i = 0; i < n_students; i++)
        if (!students[i].ended)
            return 0;
    return 1;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double pct(double *v, int n, double p)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return v[(int)(p * (n - 1) + 0.5)];
}

/* The pseudo-terminal's round trip through cat: the yardstick (as
 * screenbench measures it: a line written, cat's copy read back). */
static double pty_round_trip(void)
{
    int fd;
    struct winsize ws = { 24, 80, 0, 0 };
    pid_t pid = forkpty(&fd, NULL, NULL, &ws);
    if (pid == 0) {
        execl("/bin/cat", "cat", (char *)NULL);
        _exit(127);
    }
    double ms[200];
    int n = 0;
    for (int k = 0; k < 200; k++) {
        double t0 = now_ms();
        if (write(fd, "x\n", 2) != 2)
            break;
        char c;
        struct pollfd p = { fd, POLLIN, 0 };
        int got = 0;
        while (poll(&p, 1, 1000) > 0 && read(fd, &c, 1) == 1)
            if (c == 'x' && ++got == 2)     /* the line discipline's echo, then cat's copy */
                break;
        ms[n++] = now_ms() - t0;
    }
    kill(pid, SIGTERM);
    close(fd);
    waitpid(pid, NULL, 0);
    return n ? pct(ms, n, 0.5) : 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: classload ATTN LESSON [--students N] [--keys K]\n");
        return 2;
    }
    int keys = 60;
    for (int i = 3; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--students") == 0)
            n_students = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--keys") == 0)
            keys = atoi(argv[i + 1]);
    }
    if (n_students < 1 || n_students > MAX_STUDENTS) {
        fprintf(stderr, "classload: 1 to %d students\n", MAX_STUDENTS);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    srand(7);
    char dir[] = "/tmp/attn-classload-XXXXXX", log[128];
    if (!mkdtemp(dir))
        return 2;
    snprintf(log, sizeof log, "%s/answers.jsonl", dir);
    double yard = pty_round_trip();
    if (getenv("CLASSLOAD_DEBUG"))
        fprintf(stderr, "yardstick %.3f ms\n", yard);

    int pty;
    struct winsize ws = { 40, 120, 0, 0 };
    pid_t pid = forkpty(&pty, NULL, NULL, &ws);
    if (pid == 0) {
        setenv("TERM", "xterm-256color", 1);
        setenv("LANG", "C.UTF-8", 1);
        setenv("ATTN_STATE_DIR", dir, 1);
        execl(argv[1], "attn", "--class", "--listen", "127.0.0.1:0", "--code", "4242", "--log", log, argv[2],
              (char *)NULL);
        _exit(127);
    }
    fcntl(pty, F_SETFL, O_NONBLOCK);
    int port = 0;
    for (double t0 = now_ms(); !port && now_ms() - t0 < 5000;) {
        struct pollfd p = { pty, POLLIN, 0 };
        poll(&p, 1, 50);
        screen_take(pty);
        const char *at = strstr(screen, "attn join 127.0.0.1:");
        if (at)
            port = atoi(at + strlen("attn join 127.0.0.1:"));
    }
    if (!port) {
        fprintf(stderr, "classload: the class never showed its join line\n");
        kill(pid, SIGKILL);
        return 1;
    }
    students = calloc((size_t)n_students, sizeof *students);
    double join0 = now_ms();
    for (int i = 0; i < n_students; i++) {
        students[i].fd = connect_port(port);
        if (students[i].fd < 0) {
            fprintf(stderr, "classload: student %d could not connect\n", i + 1);
            return 1;
        }
        char hello[64];
        int n = snprintf(hello, sizeof hello, "HELLO 1 4242 student %d\n", i + 1);
        if (send(students[i].fd, hello, (size_t)n, MSG_NOSIGNAL) != n)
            return 1;
        if (i % 20 == 19)
            run_for(pty, 1, NULL);
    }
    if (getenv("CLASSLOAD_DEBUG"))
        fprintf(stderr, "port %d, students connected\n", port);
    run_for(pty, 10000, all_ready);
    if (getenv("CLASSLOAD_DEBUG"))
        fprintf(stderr, "ready phase done\n");
    double joined_ms = now_ms() - join0;
    int ready = 0;
    for (int i = 0; i < n_students; i++)
        ready += students[i].ready;

    /* the instructor moves between the first and the last step while the
     * students answer: each key timed to the frame with the new title */
    static const char *const key[2] = { "G", "g" };
    /* the end of each title: curses sends only the characters that change */
    static const char *const title[2] = { "O = A V", "embeddings" };
    double ms[1024];
    int n_ms = 0, missed = 0;
    for (int k = 0; k < keys && n_ms < 1024; k++) {
        run_for(pty, 150 + rand() % 200, NULL);     /* the students answer meanwhile */
        screen_len = 0;
        screen[0] = '\0';
        double t0 = now_ms();
        if (write(pty, key[k % 2], 1) != 1)
            break;
        double seen = 0;
        while (!seen && now_ms() - t0 < 2000) {
            run_for(pty, 1, NULL);
            if (strstr(screen, title[k % 2]))
                seen = now_ms();
        }
        if (seen)
            ms[n_ms++] = seen - t0;
        else
            missed++;
    }
    run_for(pty, 1500, NULL);   /* the last answers in */
    if (write(pty, "q", 1) != 1)
        return 1;
    run_for(pty, 5000, all_ended);
    int status = 0;
    waitpid(pid, &status, 0);

    long sent = 0, counted = 0, ended = 0, steps = 0;
    for (int i = 0; i < n_students; i++) {
        sent += students[i].sent;
        counted += students[i].counted;
        ended += students[i].ended;
        steps += students[i].steps;
    }
    long logged = 0;
    FILE *f = fopen(log, "r");
    for (int c; f && (c = fgetc(f)) != EOF;)
        logged += c == '\n';
    if (f)
        fclose(f);
    printf("class-load: %d students on 127.0.0.1, %d ready in %.0f ms\n", n_students, ready, joined_ms);
    printf("  answers sent %ld, counted by the server %ld, lines in the log %ld\n", sent, counted, logged);
    printf("  steps seen per student %.1f, students told the class ended %ld\n", (double)steps / n_students, ended);
    if (n_ms > 0) {
        double p50 = pct(ms, n_ms, 0.5), p99 = pct(ms, n_ms, 0.99), max = ms[n_ms - 1];
        printf("  instructor's key to frame (%d keys, %d without a frame): p50 %.1f ms, p99 %.1f ms, max %.1f ms\n",
               n_ms, missed, p50, p99, max);
        printf("  the pseudo-terminal's own round trip (cat): p50 %.2f ms; p99 key over it: %.1fx\n", yard,
               yard > 0 ? p99 / yard : 0);
    }
    int held = ready == n_students && counted == logged && ended == n_students && missed == 0 &&
               WIFEXITED(status) && WEXITSTATUS(status) == 0;
    printf("  %s\n", held ? "the class held: every student in, every counted answer logged, everyone told the end"
                          : "THE CLASS LOST SOMETHING (see above)");
    char rm[200];
    snprintf(rm, sizeof rm, "rm -rf %s", dir);
    if (system(rm) != 0)
        return 1;
    return held ? 0 : 1;
}
