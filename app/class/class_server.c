/*
 * class_server.c - the class server (see class_server.h): opened on its
 * lesson, students accepted and joining by name, each line they send
 * handled (ANSWER judged, logged, counted and acknowledged, BYE), the
 * loop's descriptors served in turn, steps and exercises announced, the
 * tally, a reload, the end. Who may join (HELLO) is class_admit.c's, a
 * peer's buffers class_peer.c's, the listening socket class_listen.c's.
 */
#define _GNU_SOURCE      /* accept4 */
#include "class_server.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
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

ClassServer *class_server_open(Session *ses, const ClassOptions *o, char *why, size_t size)
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
    s->ses = ses;
    if (class_pack_of(session_lesson(ses), &s->pack, why, size) != 0)
        goto fail;
    s->n_ex = lesson_n_exercises(session_lesson(ses));
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

static int answer(ClassServer *s, int c, ClassMsg *m)
{
    long k;
    int st = s->conns[c].student;
    if (st < 0 || m->n < 2 || class_field_int(m->field[0], 1, s->n_ex, &k) || k != s->exercise)
        return 0;       /* not the open exercise: it does not count */
    Judgement j;
    /* the instructor's session judges, in the context the student's screen
     * used (the decimals it showed): an answer its screen called right from
     * the rounded numbers on screen is counted right, not judged again at 4
     * decimals */
    int judged = session_judge_number(s->ses, (int)k, m->field[1], s->conns[c].shown, &j);
    s->conns[c].shown = 0;      /* for the one answer it came with */
    if (judged != 0)
        return 0;
    if (j.verdict == VERDICT_INVALID) {
        /* not a number: nothing counted, the answer before it stays */
        class_peer_line(s, c, "UNCOUNTED %ld not one number", k);
        return 0;
    }
    Student *who = &s->students[st];
    /* the log first: an answer counts once it is written down */
    if (s->log && class_log_answer(s->log, who->name, lesson_title(session_lesson(s->ses)), (int)k, m->field[1],
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
    class_peer_line(s, c, "COUNTED %ld %s", k, verdict_word(j.verdict));
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
        return class_admit_hello(s, c, &m);
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

int class_server_show(ClassServer *s, int step, int n_steps, const char *title, int exercise)
{
    int was = s->exercise;
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
            class_peer_broadcast(s, "EXERCISE %d %s", exercise, lesson_exercise_at(session_lesson(s->ses), exercise - 1)->question);
    }
    class_peer_uncork(s);
    return s->exercise != was;
}

void class_server_tally(const ClassServer *s, ClassTally *t)
{
    memset(t, 0, sizeof *t);
    t->joined = class_joined_count(s);
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

int class_server_reload(ClassServer *s, char *why, size_t size)
{
    ClassPack pack = { 0 };
    const Lesson *l = session_lesson(s->ses);
    if (class_pack_of(l, &pack, why, size) != 0)
        return -1;
    int n_ex = lesson_n_exercises(l);
    Answer **fresh = calloc((size_t)(s->n_students ? s->n_students : 1), sizeof *fresh);
    int ok = fresh != NULL;
    for (int i = 0; ok && i < s->n_students; i++)
        ok = (fresh[i] = calloc((size_t)(n_ex > 0 ? n_ex : 1), sizeof **fresh)) != NULL;
    if (!ok) {
        for (int i = 0; fresh && i < s->n_students; i++)
            free(fresh[i]);
        free(fresh);
        snprintf(why, size, "out of memory");
        class_pack_free(&pack);
        return -1;
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
    class_pack_free(&s->pack);
    s->pack = pack;
    s->n_ex = n_ex;
    s->step = -1;           /* told again at the next class_server_show */
    s->exercise = 0;
    s->title[0] = '\0';
    return 0;
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
    class_pack_free(&s->pack);
    free(s);
}
