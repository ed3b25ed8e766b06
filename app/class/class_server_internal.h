/*
 * class_server_internal.h - what the class server's files share (and no
 * other folder sees): the state of a class, its students and their
 * connections; the peer's buffers (class_peer.c) and the listening socket
 * (class_listen.c) as class_server.c uses them.
 *
 * Ownership: as class_server.h says; a Conn owns its socket and buffer.
 */
#ifndef ATTN_CLASS_SERVER_INTERNAL_H
#define ATTN_CLASS_SERVER_INTERNAL_H

#include <stddef.h>

#include "class_log.h"
#include "class_pack.h"
#include "class_server.h"
#include "class_wire.h"
#include "lesson.h"
#include "session.h"
#include "teach.h"

#define OUT_SLACK (256 * 1024)      /* bytes waiting for a slow peer, past the lesson's */
#define OUT_TOTAL (256L << 20)      /* and for all peers together: 200 students who never
                                       read once grew the instructor to 1.44 GB */

typedef struct {
    char *typed;
    int verdict;                    /* a Verdict, meaningful when typed != NULL */
    char diag[32];
} Answer;

typedef struct {
    char name[4 * CLASS_NAME_MAX + 1];
    int conn;                       /* its connection, -1 when not connected  */
    char secret[CLASS_SECRET_LEN + 1]; /* proves the name is this student's (PROVE) */
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
    char proof[CLASS_SECRET_LEN + 1]; /* what PROVE said before HELLO ("" if nothing) */
    char from[64];                  /* the peer's address, for wrong codes ("unix" on a socket) */
    int shown;                      /* SHOWN: the decimals its screen judged with (0: as written) */
} Conn;

/* Wrong codes from one address: how many, and until when it must wait. */
#define WRONG_FROM_MAX 64
typedef struct {
    char from[64];
    int fails;
    double until;                   /* monotonic seconds                       */
} WrongFrom;

struct ClassServer {
    int listen_fd;
    ClassAddr addr;
    char code[17];
    char join[400];
    ClassPack pack;                 /* the lesson as it travels                 */
    Session *ses;                   /* the instructor's (borrowed): its lesson,
                                       its judge                                 */
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
    /* wrong codes are slowed per address and in total, so the code cannot
     * be guessed (11,000 guesses a second once went through) */
    WrongFrom wrong[WRONG_FROM_MAX];
    double wrong_tokens, wrong_at;
    int next_fd;                    /* where the last pump stopped (round robin) */
    int corked;                     /* queue, do not send yet (one send for many lines) */
};

/* ---- who joins (class_admit.c) ---- */
#define CLASS_WRONG_BURST 10.0          /* wrong codes the whole class takes at once */
/* A HELLO from peer c, judged and, when it may, a student joined. 1 when
 * the roll changed. */
int class_admit_hello(ClassServer *s, int c, ClassMsg *m);
/* The students connected now. */
int class_joined_count(const ClassServer *s);

/* ---- a peer (class_peer.c) ---- */
/* The memory held for every peer's unsent bytes (their buffers). */
size_t class_peer_held(const ClassServer *s);
/* Close connection c and forget it (its student stays, not connected). */
void class_peer_drop(ClassServer *s, int c);
/* Send what c's buffer holds, as far as the socket takes it. */
void class_peer_flush(ClassServer *s, int c);
/* Queue bytes for c (sent at once unless the server is corked); a peer
 * that lets more pile up than the lesson and OUT_SLACK is dropped. */
void class_peer_send(ClassServer *s, int c, const char *bytes, size_t n);
/* One line of the protocol to c (a newline inside made a blank). */
void class_peer_line(ClassServer *s, int c, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* REFUSED why, then the connection closes once it is out. */
void class_peer_refuse(ClassServer *s, int c, const char *why);
/* One line to every student who joined. */
void class_peer_broadcast(ClassServer *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Send what the lines queued while corked hold: one send per student. */
void class_peer_uncork(ClassServer *s);

/* ---- listening (class_listen.c) ---- */
/* The join code: code as given (letters and digits), else 6 random digits. */
int class_pick_code(ClassServer *s, const char *code, char *why, size_t size);
/* Listen on s->addr (a unix socket for the group, or TCP; port 0 made the
 * one chosen) and write the join line. 0, or -1 with why. */
int class_listen(ClassServer *s, char *why, size_t size);

#endif
