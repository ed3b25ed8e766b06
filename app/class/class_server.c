/*
 * class_server.c - the class server (see class_server.h): opened on its
 * lesson, students accepted and joining by name, each line they send
 * handled (HELLO, ANSWER judged, logged, counted and acknowledged, BYE),
 * the loop's descriptors served in turn, steps and exercises announced,
 * the tally, the end. A peer's buffers are class_peer.c's, the listening
 * socket class_listen.c's.
 */
#define _GNU_SOURCE      /* accept4 */
#include "class_server.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <arpa/inet.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include "class_server_internal.h"

#define HELLO_SECONDS 10.0          /* a peer that never says HELLO is dropped (default) */
#define PENDING_MAX 64              /* peers not yet joined                      */
#define ACCEPTS_PER_PUMP 32         /* so a flood of connects never stalls the keys */
#define RATE_BURST 20.0             /* lines a student may send at once          */
#define RATE_PER_SECOND 10.0        /* and then per second                       */
#define WRONG_FREE 3                /* wrong codes an address may make at once   */
#define WRONG_WAIT_MAX 60.0         /* then it waits 1, 2, 4 ... up to this, s   */
#define WRONG_BURST 10.0            /* wrong codes the whole class takes at once */
#define WRONG_PER_SECOND 1.0        /* and then per second, from everyone        */

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
    if (class_pick_code(s, o->code, why, size) != 0 ||
        class_addr_parse(o->listen ? o->listen : CLASS_DEFAULT_ADDR, &s->addr, why, size) != 0)
        goto fail;
    if (o->log_path && !(s->log = class_log_open(o->log_path, why, size)))
        goto fail;
    if (class_listen(s, why, size) != 0)
        goto fail;
    return s;
fail:
    class_server_free(s);
    return NULL;
}

const char *class_server_join_line(const ClassServer *s) { return s->join; }

static void send_state(ClassServer *s, int c)
{
    if (s->step >= 0)
        class_peer_line(s, c, "STEP %d %d %s", s->step, s->n_steps, s->title);
    if (s->exercise > 0)
        class_peer_line(s, c, "EXERCISE %d %s", s->exercise, lesson_exercise_at(s->lesson, s->exercise - 1)->question);
}

static int student_named(ClassServer *s, const char *name)
{
    for (int i = 0; i < s->n_students; i++)
        if (strcmp(s->students[i].name, name) == 0)
            return i;
    return -1;
}

/* A new student's secret: CLASS_SECRET_LEN hex digits from the kernel's
 * random source (never guessed from the name or the time). */
static void new_secret(char *out)
{
    unsigned char raw[CLASS_SECRET_LEN / 2];
    size_t got = 0;
    while (got < sizeof raw) {
        ssize_t n = getrandom(raw + got, sizeof raw - got, 0);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(out + 2 * i, 3, "%02x", got == sizeof raw ? raw[i] : (unsigned)rand() & 0xff);
}

/* The wrong codes from address from, or NULL. */
static WrongFrom *wrong_from(ClassServer *s, const char *from)
{
    for (int i = 0; i < WRONG_FROM_MAX; i++)
        if (s->wrong[i].from[0] && strcmp(s->wrong[i].from, from) == 0)
            return &s->wrong[i];
    return NULL;
}

/* A record for address from: a free one, else the one whose wait ended
 * longest ago (a table of fixed size, whatever the peers send). */
static WrongFrom *wrong_add(ClassServer *s, const char *from)
{
    WrongFrom *pick = &s->wrong[0];
    for (int i = 0; i < WRONG_FROM_MAX; i++) {
        if (!s->wrong[i].from[0]) {
            pick = &s->wrong[i];
            break;
        }
        if (s->wrong[i].until < pick->until)
            pick = &s->wrong[i];
    }
    memset(pick, 0, sizeof *pick);
    snprintf(pick->from, sizeof pick->from, "%s", from);
    return pick;
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
        char says[120];
        snprintf(says, sizeof says, "this class speaks version %d of the protocol: update attn", CLASS_PROTO_VERSION);
        class_peer_refuse(s, c, says);
        return 0;
    }
    /* a guess is refused unread while its address waits, or while the
     * class has taken its share of wrong codes: a right code then too, or
     * waiting would not slow the guessing */
    double now = class_now_seconds();
    s->wrong_tokens += (now - s->wrong_at) * WRONG_PER_SECOND;
    s->wrong_at = now;
    if (s->wrong_tokens > WRONG_BURST)
        s->wrong_tokens = WRONG_BURST;
    WrongFrom *w = wrong_from(s, s->conns[c].from);
    if ((w && w->until > now) || s->wrong_tokens < 1) {
        char says[200];
        snprintf(says, sizeof says, "too many wrong codes %s: try again in %d seconds",
                 w && w->until > now ? "from here" : "in this class just now",
                 w && w->until > now ? (int)ceil(w->until - now) : 2);
        class_peer_refuse(s, c, says);
        return 0;
    }
    if (strcmp(m->field[1], s->code) != 0) {
        s->wrong_tokens -= 1;
        if (!w)
            w = wrong_add(s, s->conns[c].from);
        if (w && ++w->fails >= WRONG_FREE)
            w->until = now + fmin(WRONG_WAIT_MAX, pow(2.0, w->fails - WRONG_FREE));
        class_peer_refuse(s, c, "wrong code: ask the instructor for the code on the screen");
        return 0;
    }
    if (class_name_clean(m->field[2], name, sizeof name, why, sizeof why) != 0) {
        class_peer_refuse(s, c, why);
        return 0;
    }
    int st = student_named(s, name);
    /* a name belongs to the student who took it: taking it again needs its
     * secret (a second HELLO under a name once dropped that student without
     * a word and replaced their counted answers) */
    if (st >= 0 && strcmp(s->conns[c].proof, s->students[st].secret) != 0) {
        char says[300];
        snprintf(says, sizeof says, "the name %s is taken in this class: choose another with --name", name);
        class_peer_refuse(s, c, says);
        return 0;
    }
    /* the lesson waits in this peer's buffer until it reads it: refused
     * with a reason while the buffers of those not reading are full */
    size_t lesson_bytes = s->pack.len;
    for (int i = 0; i < s->pack.n_files; i++)
        lesson_bytes += s->pack.files[i].len;
    if (class_peer_held(s) + 2 * lesson_bytes > (size_t)OUT_TOTAL) {
        class_peer_refuse(s, c, "the class is busy sending the lesson to others: try again in a moment");
        return 0;
    }
    if (st < 0 && joined_count(s) >= CLASS_MAX_STUDENTS) {
        char says[120];
        snprintf(says, sizeof says, "the class is full (%d students)", CLASS_MAX_STUDENTS);
        class_peer_refuse(s, c, says);
        return 0;
    }
    if (st < 0) {
        Student *more = realloc(s->students, (size_t)(s->n_students + 1) * sizeof *more);
        Answer *answers = calloc((size_t)(s->n_ex > 0 ? s->n_ex : 1), sizeof *answers);
        if (!more || !answers) {
            if (more)
                s->students = more;
            free(answers);
            class_peer_refuse(s, c, "the server is out of memory");
            return 0;
        }
        s->students = more;
        st = s->n_students++;
        snprintf(s->students[st].name, sizeof s->students[st].name, "%s", name);
        new_secret(s->students[st].secret);
        s->students[st].conn = -1;
        s->students[st].answers = answers;
    } else if (s->students[st].conn >= 0) {
        class_peer_drop(s, s->students[st].conn);      /* the same student again: the old line is dead */
    }
    s->students[st].conn = c;
    s->conns[c].student = st;
    s->conns[c].hello_by = 0;
    class_peer_line(s, c, "WELCOME %d %s", CLASS_PROTO_VERSION, name);
    class_peer_line(s, c, "SECRET %s", s->students[st].secret);
    class_peer_line(s, c, "JUDGES shown");     /* SHOWN D before an answer is understood */
    class_peer_line(s, c, "FILE lesson %zu %s", s->pack.len, s->pack.name);
    class_peer_send(s, c, s->pack.text, s->pack.len);
    for (int i = 0; i < s->pack.n_files; i++) {
        class_peer_line(s, c, "FILE data %zu %s", s->pack.files[i].len, s->pack.files[i].path);
        class_peer_send(s, c, s->pack.files[i].bytes, s->pack.files[i].len);
    }
    /* where the class is, then READY: the student's answers wait for both */
    send_state(s, c);
    class_peer_line(s, c, "READY");
    return 1;
}

static int answer(ClassServer *s, int c, ClassMsg *m)
{
    long k;
    int st = s->conns[c].student;
    if (st < 0 || m->n < 2 || class_field_int(m->field[0], 1, s->n_ex, &k) || k != s->exercise)
        return 0;       /* not the open exercise: it does not count */
    Judgement j;
    /* the judging context the student's screen used (the decimals it
     * showed): an answer its screen called right from the rounded numbers
     * on screen is counted right, not judged again at 4 decimals */
    JudgeContext ctx = { .decimals = s->conns[c].shown };
    lesson_judge(s->judge, lesson_exercise_at(s->lesson, (int)k - 1), m->field[1], s->conns[c].shown ? &ctx : NULL,
                 &j);
    s->conns[c].shown = 0;      /* for the one answer it came with */
    if (j.verdict == VERDICT_INVALID) {
        /* not a number: nothing counted, the answer before it stays */
        class_peer_line(s, c, "UNCOUNTED %ld not one number", k);
        return 0;
    }
    Student *who = &s->students[st];
    /* the log first: an answer counts once it is written down */
    if (s->log && class_log_answer(s->log, who->name, lesson_title(s->lesson), (int)k, m->field[1],
                                   verdict_word(j.verdict), j.diagnosis, s->log_error, sizeof s->log_error) != 0)
        return 1;
    s->log_error[0] = '\0';   /* recording again: the banner goes */
    Answer *a = &who->answers[k - 1];
    char *typed = strdup(m->field[1]);
    if (!typed)
        return 0;
    free(a->typed);
    a->typed = typed;
    a->verdict = j.verdict;
    snprintf(a->diag, sizeof a->diag, "%s", j.verdict == VERDICT_RIGHT ? "" : j.diagnosis);
    class_peer_line(s, c, "COUNTED %ld", k);
    return 1;
}

/* One line from peer c. 1 when the tally or the roll changed. */
static int handle_line(ClassServer *s, int c, char *line)
{
    ClassMsg m;
    Conn *k = &s->conns[c];
    double t = class_now_seconds();
    k->tokens += (t - k->tokens_at) * RATE_PER_SECOND;
    k->tokens_at = t;
    if (k->tokens > RATE_BURST)
        k->tokens = RATE_BURST;
    if (--k->tokens < 0) {
        class_peer_refuse(s, c, "too many messages: slow down");
        return 1;
    }
    int joined = k->student >= 0;
    if (class_msg_parse(line, joined ? 2 : 3, &m) != 0) {
        class_peer_refuse(s, c, "not a message of the class protocol");
        return joined;
    }
    if (!joined && strcmp(m.verb, "PROVE") == 0 && m.n == 1 && strlen(m.field[0]) == CLASS_SECRET_LEN) {
        snprintf(k->proof, sizeof k->proof, "%s", m.field[0]);
        return 0;
    }
    if (!joined && strcmp(m.verb, "HELLO") == 0)
        return hello(s, c, &m);
    if (joined && strcmp(m.verb, "ANSWER") == 0)
        return answer(s, c, &m);
    long shown;
    if (joined && strcmp(m.verb, "SHOWN") == 0 && m.n >= 1 && !class_field_int(m.field[0], 1, 4, &shown)) {
        k->shown = (int)shown;
        return 0;
    }
    if (strcmp(m.verb, "BYE") == 0) {
        class_peer_drop(s, c);
        return joined;
    }
    class_peer_refuse(s, c, joined ? "unknown message" : "say HELLO first");
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
            class_peer_drop(s, c);
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
                    class_peer_refuse(s, c, "a line longer than 4096 bytes");
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
        struct sockaddr_storage peer;
        socklen_t peer_len = sizeof peer;
        int fd = accept4(s->listen_fd, (struct sockaddr *)&peer, &peer_len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0)
            return;
        int pending = 0, slot = -1, oldest = -1;
        for (int c = 0; c < s->n_conns; c++) {
            const Conn *k = &s->conns[c];
            if (k->fd >= 0 && k->student < 0) {
                pending++;
                /* the one waiting longest without a word goes first */
                if (oldest < 0 || k->hello_by < s->conns[oldest].hello_by)
                    oldest = c;
            }
            if (k->fd < 0 && slot < 0)
                slot = c;
        }
        if (pending >= PENDING_MAX && oldest >= 0) {
            /* a flood of connects, or idle ones held open: the silent
             * line that waited longest makes room, never the newcomer
             * (64 idle connections once locked every student out) */
            class_peer_drop(s, oldest);
            slot = oldest;
        }
        if (slot < 0 && s->n_conns >= CLASS_MAX_STUDENTS + PENDING_MAX) {
            close(fd);
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
        k->hello_by = class_now_seconds() + s->hello_seconds;
        k->tokens = RATE_BURST;
        k->tokens_at = class_now_seconds();
        /* where it comes from, for its wrong codes */
        snprintf(k->from, sizeof k->from, "unix");
        if (peer.ss_family == AF_INET)
            inet_ntop(AF_INET, &((struct sockaddr_in *)&peer)->sin_addr, k->from, sizeof k->from);
        else if (peer.ss_family == AF_INET6)
            inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&peer)->sin6_addr, k->from, sizeof k->from);
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
    double start = class_now_seconds();
    /* round robin: this pump begins where the last one stopped */
    for (int step = 0; step < n; step++) {
        int i = (s->next_fd + step) % n;
        if (!fds[i].revents)
            continue;
        if (budget_ms > 0 && (class_now_seconds() - start) * 1e3 >= budget_ms) {
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
                class_peer_flush(s, c);
            if (s->conns[c].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                changed |= read_from(s, c);
            break;
        }
    }
    s->next_fd = 0;
deadlines:;
    double t = class_now_seconds();
    for (int c = 0; c < s->n_conns; c++)
        if (s->conns[c].fd >= 0 && s->conns[c].hello_by > 0 && t > s->conns[c].hello_by)
            class_peer_drop(s, c);     /* connected, never said who: a half-open line */
    return changed;
}

void class_server_close_question(ClassServer *s)
{
    if (s->exercise <= 0)
        return;
    class_peer_broadcast(s, "CLOSED %d", s->exercise);
    s->exercise = 0;
}

void class_server_show(ClassServer *s, int step, int n_steps, const char *title, int exercise)
{
    s->corked = 1;
    if (step != s->step || n_steps != s->n_steps || strcmp(title, s->title) != 0) {
        class_server_close_question(s);
        s->step = step;
        s->n_steps = n_steps;
        snprintf(s->title, sizeof s->title, "%s", title);
        class_peer_broadcast(s, "STEP %d %d %s", step, n_steps, s->title);
    }
    if (exercise != s->exercise && exercise >= 0 && exercise <= s->n_ex) {
        class_server_close_question(s);
        s->exercise = exercise;
        if (exercise > 0)
            class_peer_broadcast(s, "EXERCISE %d %s", exercise, lesson_exercise_at(s->lesson, exercise - 1)->question);
    }
    class_peer_uncork(s);
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
    class_peer_broadcast(s, "ENDED");
    for (int c = 0; c < s->n_conns; c++)
        if (s->conns[c].fd >= 0) {
            /* a last chance for the bytes to go out; nobody is waited for */
            class_peer_flush(s, c);
            class_peer_drop(s, c);
        }
    if (s->listen_fd >= 0) {
        close(s->listen_fd);
        s->listen_fd = -1;
        if (s->addr.is_unix)
            unlink(s->addr.path);
    }
}

int class_server_reload(ClassServer *s, const char *lesson_path, char *why, size_t size)
{
    ClassPack pack = { 0 };
    Lesson *l = NULL;
    LessonState *st = NULL;
    LessonJudge *j = NULL;
    LessonError err;
    if (class_pack_file(lesson_path, &pack, why, size) != 0)
        return -1;
    if (!(l = class_pack_lesson(&pack, &err)) || !(st = lesson_eval(l, NULL, 0, &err))) {
        lesson_error_format(&err, why, size);
        goto fail;
    }
    int n_ex = lesson_n_exercises(l);
    Answer **fresh = calloc((size_t)(s->n_students ? s->n_students : 1), sizeof *fresh);
    int ok = (j = lesson_judge_new(l, st)) != NULL && fresh;
    for (int i = 0; ok && i < s->n_students; i++)
        ok = (fresh[i] = calloc((size_t)(n_ex > 0 ? n_ex : 1), sizeof **fresh)) != NULL;
    if (!ok) {
        for (int i = 0; fresh && i < s->n_students; i++)
            free(fresh[i]);
        free(fresh);
        snprintf(why, size, "out of memory");
        goto fail;
    }
    /* the students hold the lesson as it was: they are told to join again
     * (their names stay theirs), and the answers start afresh, numbered by
     * the lesson as it is now (the log keeps those given before) */
    for (int c = 0; c < s->n_conns; c++)
        if (s->conns[c].fd >= 0 && s->conns[c].student >= 0)
            class_peer_refuse(s, c, "the instructor changed the lesson: join again to get it");
    for (int i = 0; i < s->n_students; i++) {
        for (int k = 0; k < s->n_ex; k++)
            free(s->students[i].answers[k].typed);
        free(s->students[i].answers);
        s->students[i].answers = fresh[i];
    }
    free(fresh);
    lesson_judge_free(s->judge);
    lesson_state_free(s->state);
    lesson_free(s->lesson);
    class_pack_free(&s->pack);
    s->pack = pack;
    s->lesson = l;
    s->state = st;
    s->judge = j;
    s->n_ex = n_ex;
    s->step = -1;           /* told again at the next class_server_show */
    s->exercise = 0;
    s->title[0] = '\0';
    return 0;
fail:
    lesson_judge_free(j);
    lesson_state_free(st);
    lesson_free(l);
    class_pack_free(&pack);
    return -1;
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
