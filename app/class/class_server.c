/*
 * class_server.c - the class server (see class_server.h): listening,
 * students joining, the lesson sent, steps and exercises announced,
 * answers judged, logged and tallied, slow or silent peers dropped.
 */
#define _GNU_SOURCE      /* accept4 */
#include "class_server.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include "class_log.h"
#include "class_pack.h"
#include "class_wire.h"
#include "lesson.h"

#define HELLO_SECONDS 10.0          /* a peer that never says HELLO is dropped (default) */
#define OUT_SLACK (256 * 1024)      /* bytes waiting for a slow peer, past the lesson's */
#define PENDING_MAX 64              /* peers not yet joined                      */
#define ACCEPTS_PER_PUMP 32         /* so a flood of connects never stalls the keys */
#define RATE_BURST 20.0             /* lines a student may send at once          */
#define RATE_PER_SECOND 10.0        /* and then per second                       */

typedef struct {
    char *typed;
    int verdict;                    /* a Verdict, meaningful when typed != NULL */
    char diag[32];
} Answer;

typedef struct {
    char name[4 * CLASS_NAME_MAX + 1];
    int conn;                       /* its connection, -1 when not connected  */
    Answer *answers;                /* one per exercise of the lesson          */
} Student;

typedef struct {
    int fd;                         /* -1: the slot is free                    */
    int student;                    /* -1 until its HELLO is accepted          */
    ClassReader in;
    char *out;
    size_t out_len, out_off, out_cap;
    double hello_by;                /* monotonic seconds; 0 once joined        */
    double tokens, tokens_at;
    int closing;                    /* drop once its bytes are out (REFUSED)   */
} Conn;

struct ClassServer {
    int listen_fd;
    ClassAddr addr;
    char code[17];
    char join[400];
    ClassPack pack;
    Lesson *lesson;
    LessonState *state;
    LessonJudge *judge;
    int n_ex;
    Conn *conns;
    int n_conns;                    /* slots used (some may be free)           */
    Student *students;
    int n_students;
    ClassLog *log;
    char log_error[400];
    int step, n_steps, exercise;    /* what the students were last told        */
    char title[512];
    int ended;
    double hello_seconds;
    int next_fd;                    /* where the last pump stopped (round robin) */
    int corked;                     /* queue, do not send yet (one send for many lines) */
};

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int set_nonblocking(int fd)
{
    int flags = fcntl(fd, F_GETFL);
    return flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0 ? -1 : 0;
}

/* ---- listening ---- */

static int listen_unix(ClassServer *s, char *why, size_t size)
{
    struct sockaddr_un sa = { .sun_family = AF_UNIX };
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", s->addr.path);
    struct stat st;
    if (lstat(s->addr.path, &st) == 0) {
        /* a socket left by a class that ended badly may go; anything else stays */
        int probe = S_ISSOCK(st.st_mode) ? socket(AF_UNIX, SOCK_STREAM, 0) : -1;
        int alive = probe >= 0 && connect(probe, (struct sockaddr *)&sa, sizeof sa) == 0;
        if (probe >= 0)
            close(probe);
        if (!S_ISSOCK(st.st_mode) || alive) {
            snprintf(why, size, "%s is in use%s", s->addr.path, alive ? " by another class" : " (not a socket)");
            return -1;
        }
        unlink(s->addr.path);
    }
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    mode_t old = umask(007);        /* the group may join; nobody else */
    int ok = fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
    umask(old);
    if (!ok || chmod(s->addr.path, 0660) != 0 || listen(fd, 128) != 0 || set_nonblocking(fd) != 0) {
        snprintf(why, size, "cannot listen on unix:%s: %s", s->addr.path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    s->listen_fd = fd;
    snprintf(s->join, sizeof s->join, "attn join unix:%s %s", s->addr.path, s->code);
    return 0;
}

static int listen_tcp(ClassServer *s, char *why, size_t size)
{
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE }, *res;
    char port[16];
    snprintf(port, sizeof port, "%d", s->addr.port);
    int rc = getaddrinfo(s->addr.host, port, &hints, &res);
    if (rc != 0) {
        snprintf(why, size, "cannot listen on %s:%d: %s", s->addr.host, s->addr.port, gai_strerror(rc));
        return -1;
    }
    int fd = -1, err = 0;
    for (struct addrinfo *a = res; a && fd < 0; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        int one = 1;
        if (fd >= 0 && (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
                        bind(fd, a->ai_addr, a->ai_addrlen) != 0 || listen(fd, 512) != 0 || set_nonblocking(fd) != 0)) {
            err = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0) {
        snprintf(why, size, "cannot listen on %s:%d: %s", s->addr.host, s->addr.port, strerror(err));
        return -1;
    }
    /* port 0: the one the system chose */
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &len) == 0)
        s->addr.port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                                      : ((struct sockaddr_in *)&ss)->sin_port);
    s->listen_fd = fd;
    snprintf(s->join, sizeof s->join, "attn join %s:%d %s", s->addr.host, s->addr.port, s->code);
    return 0;
}

static int pick_code(ClassServer *s, const char *code, char *why, size_t size)
{
    if (code) {
        size_t n = strlen(code);
        if (n == 0 || n >= sizeof s->code || strspn(code, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") != n) {
            snprintf(why, size, "a class code is 1 to %zu letters or digits", sizeof s->code - 1);
            return -1;
        }
        snprintf(s->code, sizeof s->code, "%s", code);
        return 0;
    }
    unsigned int r = 0;
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0 || read(fd, &r, sizeof r) != (ssize_t)sizeof r) {
        snprintf(why, size, "cannot draw a class code from /dev/urandom");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    close(fd);
    snprintf(s->code, sizeof s->code, "%06u", r % 1000000u);
    return 0;
}

ClassServer *class_server_open(const char *lesson_path, const ClassOptions *o, char *why, size_t size)
{
    ClassServer *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(why, size, "out of memory");
        return NULL;
    }
    s->listen_fd = -1;
    s->exercise = 0;
    s->hello_seconds = o->hello_seconds > 0 ? o->hello_seconds : HELLO_SECONDS;
    s->step = -1;
    LessonError err;
    if (class_pack_file(lesson_path, &s->pack, why, size) != 0)
        goto fail;
    if (!(s->lesson = class_pack_lesson(&s->pack, &err)) || !(s->state = lesson_eval(s->lesson, NULL, 0, &err))) {
        lesson_error_format(&err, why, size);
        goto fail;
    }
    if (!(s->judge = lesson_judge_new(s->lesson, s->state))) {
        snprintf(why, size, "out of memory");
        goto fail;
    }
    s->n_ex = lesson_n_exercises(s->lesson);
    if (pick_code(s, o->code, why, size) != 0 ||
        class_addr_parse(o->listen ? o->listen : CLASS_DEFAULT_ADDR, &s->addr, why, size) != 0)
        goto fail;
    if (o->log_path && !(s->log = class_log_open(o->log_path, why, size)))
        goto fail;
    if ((s->addr.is_unix ? listen_unix(s, why, size) : listen_tcp(s, why, size)) != 0)
        goto fail;
    return s;
fail:
    class_server_free(s);
    return NULL;
}

const char *class_server_join_line(const ClassServer *s) { return s->join; }

/* ---- one peer ---- */

static void drop(ClassServer *s, int c)
{
    Conn *k = &s->conns[c];
    if (k->fd < 0)
        return;
    close(k->fd);
    k->fd = -1;
    if (k->student >= 0)
        s->students[k->student].conn = -1;
    k->student = -1;
    free(k->out);
    k->out = NULL;
    k->out_len = k->out_off = k->out_cap = 0;
}

static void flush_out(ClassServer *s, int c)
{
    Conn *k = &s->conns[c];
    while (k->fd >= 0 && k->out_off < k->out_len) {
        ssize_t n = send(k->fd, k->out + k->out_off, k->out_len - k->out_off, MSG_NOSIGNAL);
        if (n > 0) {
            k->out_off += (size_t)n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else {
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                return;
            drop(s, c);
            return;
        }
    }
    if (k->fd >= 0 && k->out_off == k->out_len) {
        k->out_off = k->out_len = 0;
        if (k->closing)
            drop(s, c);
    }
}

/* Queue bytes for peer c; a peer that lets more pile up than the lesson
 * and OUT_SLACK is too slow for the class and is dropped. */
static void send_bytes(ClassServer *s, int c, const char *bytes, size_t n)
{
    Conn *k = &s->conns[c];
    if (k->fd < 0)
        return;
    size_t limit = s->pack.len + OUT_SLACK;
    for (int i = 0; i < s->pack.n_files; i++)
        limit += s->pack.files[i].len;
    if (k->out_len - k->out_off + n > limit) {
        drop(s, c);
        return;
    }
    if (k->out_len + n > k->out_cap) {
        size_t cap = k->out_cap ? k->out_cap : 4096;
        while (cap < k->out_len + n)
            cap *= 2;
        char *more = realloc(k->out, cap);
        if (!more) {
            drop(s, c);
            return;
        }
        k->out = more;
        k->out_cap = cap;
    }
    memcpy(k->out + k->out_len, bytes, n);
    k->out_len += n;
    if (!s->corked)
        flush_out(s, c);
}

static void send_line(ClassServer *s, int c, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void send_line(ClassServer *s, int c, const char *fmt, ...)
{
    char line[CLASS_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n > sizeof line - 2)
        n = (int)sizeof line - 2;
    /* one line: a newline inside a field would end it early */
    for (int i = 0; i < n; i++)
        if (line[i] == '\n' || line[i] == '\r')
            line[i] = ' ';
    line[n++] = '\n';
    send_bytes(s, c, line, (size_t)n);
}

static void refuse(ClassServer *s, int c, const char *why)
{
    send_line(s, c, "REFUSED %s", why);
    if (s->conns[c].fd >= 0) {
        s->conns[c].closing = 1;
        flush_out(s, c);
    }
}

static void send_state(ClassServer *s, int c)
{
    if (s->step >= 0)
        send_line(s, c, "STEP %d %d %s", s->step, s->n_steps, s->title);
    if (s->exercise > 0)
        send_line(s, c, "EXERCISE %d %s", s->exercise, lesson_exercise_at(s->lesson, s->exercise - 1)->question);
}

static int student_named(ClassServer *s, const char *name)
{
    for (int i = 0; i < s->n_students; i++)
        if (strcmp(s->students[i].name, name) == 0)
            return i;
    return -1;
}

static int joined_count(const ClassServer *s)
{
    int n = 0;
    for (int i = 0; i < s->n_students; i++)
        n += s->students[i].conn >= 0;
    return n;
}

static int hello(ClassServer *s, int c, ClassMsg *m)
{
    long version;
    char name[4 * CLASS_NAME_MAX + 1], why[200];
    if (m->n < 3 || class_field_int(m->field[0], 0, 1000000, &version) || version != CLASS_PROTO_VERSION) {
        refuse(s, c, "this class speaks version 1 of the protocol: update attn");
        return 0;
    }
    if (strcmp(m->field[1], s->code) != 0) {
        refuse(s, c, "wrong code: ask the instructor for the code on the screen");
        return 0;
    }
    if (class_name_clean(m->field[2], name, sizeof name, why, sizeof why) != 0) {
        refuse(s, c, why);
        return 0;
    }
    int st = student_named(s, name);
    if (st < 0 && joined_count(s) >= CLASS_MAX_STUDENTS) {
        refuse(s, c, "the class is full (500 students)");
        return 0;
    }
    if (st < 0) {
        Student *more = realloc(s->students, (size_t)(s->n_students + 1) * sizeof *more);
        Answer *answers = calloc((size_t)(s->n_ex > 0 ? s->n_ex : 1), sizeof *answers);
        if (!more || !answers) {
            if (more)
                s->students = more;
            free(answers);
            refuse(s, c, "the server is out of memory");
            return 0;
        }
        s->students = more;
        st = s->n_students++;
        snprintf(s->students[st].name, sizeof s->students[st].name, "%s", name);
        s->students[st].conn = -1;
        s->students[st].answers = answers;
    } else if (s->students[st].conn >= 0) {
        drop(s, s->students[st].conn);      /* the same student again: the old line is dead */
    }
    s->students[st].conn = c;
    s->conns[c].student = st;
    s->conns[c].hello_by = 0;
    send_line(s, c, "WELCOME %d %s", CLASS_PROTO_VERSION, name);
    send_line(s, c, "FILE lesson %zu %s", s->pack.len, s->pack.name);
    send_bytes(s, c, s->pack.text, s->pack.len);
    for (int i = 0; i < s->pack.n_files; i++) {
        send_line(s, c, "FILE data %zu %s", s->pack.files[i].len, s->pack.files[i].path);
        send_bytes(s, c, s->pack.files[i].bytes, s->pack.files[i].len);
    }
    /* where the class is, then READY: the student's answers wait for both */
    send_state(s, c);
    send_line(s, c, "READY");
    return 1;
}

static int answer(ClassServer *s, int c, ClassMsg *m)
{
    long k;
    int st = s->conns[c].student;
    if (st < 0 || m->n < 2 || class_field_int(m->field[0], 1, s->n_ex, &k) || k != s->exercise)
        return 0;       /* not the open exercise: it does not count */
    Judgement j;
    lesson_judge(s->judge, lesson_exercise_at(s->lesson, (int)k - 1), m->field[1], NULL, &j);
    Student *who = &s->students[st];
    /* the log first: an answer counts once it is written down */
    if (s->log && class_log_answer(s->log, who->name, lesson_title(s->lesson), (int)k, m->field[1],
                                   verdict_word(j.verdict), j.diagnosis, s->log_error, sizeof s->log_error) != 0)
        return 1;
    Answer *a = &who->answers[k - 1];
    char *typed = strdup(m->field[1]);
    if (!typed)
        return 0;
    free(a->typed);
    a->typed = typed;
    a->verdict = j.verdict;
    snprintf(a->diag, sizeof a->diag, "%s", j.verdict == VERDICT_RIGHT ? "" : j.diagnosis);
    send_line(s, c, "COUNTED %ld", k);
    return 1;
}

/* One line from peer c. 1 when the tally or the roll changed. */
static int handle_line(ClassServer *s, int c, char *line)
{
    ClassMsg m;
    Conn *k = &s->conns[c];
    double t = now_seconds();
    k->tokens += (t - k->tokens_at) * RATE_PER_SECOND;
    k->tokens_at = t;
    if (k->tokens > RATE_BURST)
        k->tokens = RATE_BURST;
    if (--k->tokens < 0) {
        refuse(s, c, "too many messages: slow down");
        return 1;
    }
    int joined = k->student >= 0;
    if (class_msg_parse(line, joined ? 2 : 3, &m) != 0) {
        refuse(s, c, "not a message of the class protocol");
        return joined;
    }
    if (!joined && strcmp(m.verb, "HELLO") == 0)
        return hello(s, c, &m);
    if (joined && strcmp(m.verb, "ANSWER") == 0)
        return answer(s, c, &m);
    if (strcmp(m.verb, "BYE") == 0) {
        drop(s, c);
        return joined;
    }
    refuse(s, c, joined ? "unknown message" : "say HELLO first");
    return joined;
}

static int read_from(ClassServer *s, int c)
{
    char buf[8192], line[CLASS_LINE_MAX];
    int changed = 0;
    for (int rounds = 0; rounds < 4 && s->conns[c].fd >= 0; rounds++) {
        ssize_t n = recv(s->conns[c].fd, buf, sizeof buf, 0);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
            changed |= s->conns[c].student >= 0;
            drop(s, c);
            break;
        }
        if (n < 0)
            break;
        size_t off = 0;
        while (off < (size_t)n && s->conns[c].fd >= 0 && !s->conns[c].closing) {
            off += class_reader_feed(&s->conns[c].in, buf + off, (size_t)n - off);
            int got;
            while (s->conns[c].fd >= 0 && !s->conns[c].closing && (got = class_reader_line(&s->conns[c].in, line)) != 0) {
                if (got < 0) {
                    refuse(s, c, "a line longer than 4096 bytes");
                    changed = 1;
                    break;
                }
                changed |= handle_line(s, c, line);
            }
        }
        if ((size_t)n < sizeof buf)
            break;
    }
    return changed;
}

static void accept_new(ClassServer *s)
{
    for (int i = 0; i < ACCEPTS_PER_PUMP; i++) {
        int fd = accept4(s->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;
        int pending = 0, slot = -1;
        for (int c = 0; c < s->n_conns; c++) {
            pending += s->conns[c].fd >= 0 && s->conns[c].student < 0;
            if (s->conns[c].fd < 0 && slot < 0)
                slot = c;
        }
        if (pending >= PENDING_MAX || (slot < 0 && s->n_conns >= CLASS_MAX_STUDENTS + PENDING_MAX)) {
            close(fd);      /* a flood of connects: the ones that never say HELLO go first */
            continue;
        }
        if (slot < 0) {
            Conn *more = realloc(s->conns, (size_t)(s->n_conns + 1) * sizeof *more);
            if (!more) {
                close(fd);
                return;
            }
            s->conns = more;
            slot = s->n_conns++;
        }
        int one = 1;
        if (!s->addr.is_unix)
            setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        Conn *k = &s->conns[slot];
        memset(k, 0, sizeof *k);
        k->fd = fd;
        k->student = -1;
        k->hello_by = now_seconds() + s->hello_seconds;
        k->tokens = RATE_BURST;
        k->tokens_at = now_seconds();
    }
}

/* ---- the loop's side ---- */

int class_server_fds(ClassServer *s, struct pollfd *fds, int max)
{
    int n = 0;
    if (s->listen_fd >= 0 && n < max)
        fds[n++] = (struct pollfd){ .fd = s->listen_fd, .events = POLLIN };
    for (int c = 0; c < s->n_conns && n < max; c++)
        if (s->conns[c].fd >= 0)
            fds[n++] = (struct pollfd){ .fd = s->conns[c].fd,
                                        .events = (short)(POLLIN | (s->conns[c].out_len > s->conns[c].out_off ? POLLOUT : 0)) };
    return n;
}

int class_server_pump(ClassServer *s, const struct pollfd *fds, int n, double budget_ms)
{
    int changed = 0;
    double start = now_seconds();
    /* round robin: this pump begins where the last one stopped */
    for (int step = 0; step < n; step++) {
        int i = (s->next_fd + step) % n;
        if (!fds[i].revents)
            continue;
        if (budget_ms > 0 && (now_seconds() - start) * 1e3 >= budget_ms) {
            s->next_fd = i;
            goto deadlines;
        }
        if (fds[i].fd == s->listen_fd) {
            accept_new(s);
            continue;
        }
        for (int c = 0; c < s->n_conns; c++) {
            if (s->conns[c].fd != fds[i].fd)
                continue;
            if (fds[i].revents & POLLOUT)
                flush_out(s, c);
            if (s->conns[c].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                changed |= read_from(s, c);
            break;
        }
    }
    s->next_fd = 0;
deadlines:;
    double t = now_seconds();
    for (int c = 0; c < s->n_conns; c++)
        if (s->conns[c].fd >= 0 && s->conns[c].hello_by > 0 && t > s->conns[c].hello_by)
            drop(s, c);     /* connected, never said who: a half-open line */
    return changed;
}

/* One line to every student who joined. */
static void broadcast(ClassServer *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void broadcast(ClassServer *s, const char *fmt, ...)
{
    char line[CLASS_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    for (int c = 0; c < s->n_conns; c++)
        if (s->conns[c].fd >= 0 && s->conns[c].student >= 0)
            send_line(s, c, "%s", line);
}

void class_server_close_question(ClassServer *s)
{
    if (s->exercise <= 0)
        return;
    broadcast(s, "CLOSED %d", s->exercise);
    s->exercise = 0;
}

/* Send what the lines queued while corked hold: one send per student. */
static void uncork(ClassServer *s)
{
    s->corked = 0;
    for (int c = 0; c < s->n_conns; c++)
        if (s->conns[c].fd >= 0 && s->conns[c].out_len > s->conns[c].out_off)
            flush_out(s, c);
}

void class_server_show(ClassServer *s, int step, int n_steps, const char *title, int exercise)
{
    s->corked = 1;
    if (step != s->step || n_steps != s->n_steps || strcmp(title, s->title) != 0) {
        class_server_close_question(s);
        s->step = step;
        s->n_steps = n_steps;
        snprintf(s->title, sizeof s->title, "%s", title);
        broadcast(s, "STEP %d %d %s", step, n_steps, s->title);
    }
    if (exercise != s->exercise && exercise >= 0 && exercise <= s->n_ex) {
        class_server_close_question(s);
        s->exercise = exercise;
        if (exercise > 0)
            broadcast(s, "EXERCISE %d %s", exercise, lesson_exercise_at(s->lesson, exercise - 1)->question);
    }
    uncork(s);
}

void class_server_tally(const ClassServer *s, ClassTally *t)
{
    memset(t, 0, sizeof *t);
    t->joined = joined_count(s);
    t->exercise = s->exercise;
    if (s->exercise <= 0)
        return;
    for (int i = 0; i < s->n_students; i++) {
        const Answer *a = &s->students[i].answers[s->exercise - 1];
        if (!a->typed)
            continue;
        t->answered++;
        if (a->verdict == VERDICT_RIGHT) {
            t->right++;
            continue;
        }
        int k = 0;
        while (k < t->n_spread && strcmp(t->spread[k].id, a->diag) != 0)
            k++;
        if (k == t->n_spread) {
            if (k == (int)(sizeof t->spread / sizeof *t->spread))
                continue;
            snprintf(t->spread[k].id, sizeof t->spread[k].id, "%s", a->diag);
            t->n_spread++;
        }
        t->spread[k].count++;
    }
    /* most first; among equals, the named before the unnamed */
    for (int i = 1; i < t->n_spread; i++)
        for (int k = i; k > 0 && (t->spread[k].count > t->spread[k - 1].count ||
                                  (t->spread[k].count == t->spread[k - 1].count && !t->spread[k - 1].id[0])); k--) {
            __typeof__(t->spread[0]) tmp = t->spread[k];
            t->spread[k] = t->spread[k - 1];
            t->spread[k - 1] = tmp;
        }
}

const char *class_server_log_error(const ClassServer *s) { return s->log_error[0] ? s->log_error : NULL; }

void class_server_end(ClassServer *s)
{
    if (s->ended)
        return;
    s->ended = 1;
    class_server_close_question(s);
    broadcast(s, "ENDED");
    for (int c = 0; c < s->n_conns; c++)
        if (s->conns[c].fd >= 0) {
            /* a last chance for the bytes to go out; nobody is waited for */
            flush_out(s, c);
            drop(s, c);
        }
    if (s->listen_fd >= 0) {
        close(s->listen_fd);
        s->listen_fd = -1;
        if (s->addr.is_unix)
            unlink(s->addr.path);
    }
}

void class_server_free(ClassServer *s)
{
    if (!s)
        return;
    class_server_end(s);
    for (int i = 0; i < s->n_students; i++) {
        for (int k = 0; k < s->n_ex; k++)
            free(s->students[i].answers[k].typed);
        free(s->students[i].answers);
    }
    free(s->students);
    free(s->conns);
    class_log_close(s->log);
    lesson_judge_free(s->judge);
    lesson_state_free(s->state);
    lesson_free(s->lesson);
    class_pack_free(&s->pack);
    free(s);
}
