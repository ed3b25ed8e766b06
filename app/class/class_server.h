/*
 * class_server.h - the class server of `attn --class`: one process, one
 * non-blocking loop shared with the instructor's screen. It sends the
 * lesson to every student who joins with the class's code, tells them the
 * step and the exercise the instructor shows, judges each answer with the
 * lesson's judge, appends it to the log (flushed before it counts) and
 * keeps the tally the instructor reveals. The protocol is class_wire.h's.
 *
 * The screen owns the loop: it asks class_server_fds what to poll beside
 * the keyboard and hands the result to class_server_pump. Nothing here
 * draws or blocks: a slow student's bytes wait in their own buffer, a
 * student too slow or silent is dropped, and nobody waits for anybody.
 *
 * Ownership: the server owns its sockets, students, the packed lesson and
 * the log; class_server_free (after class_server_end) releases them all.
 * The lesson, its parse and its judge are the instructor's Session's.
 */
#ifndef ATTN_CLASS_SERVER_H
#define ATTN_CLASS_SERVER_H

#include <poll.h>
#include <stddef.h>

typedef struct ClassServer ClassServer;

typedef struct {
    const char *listen;     /* HOST:PORT or unix:PATH; NULL: CLASS_DEFAULT_ADDR */
    const char *code;       /* the join code; NULL: 6 random digits          */
    const char *log_path;   /* each answer as a JSON line; NULL: none        */
    double hello_seconds;   /* a peer silent this long after connecting is
                               dropped; 0: 10 seconds                        */
} ClassOptions;

/* What the room may see of the open exercise. */
typedef struct {
    int joined;             /* students connected now                        */
    int exercise;           /* the open exercise (1-based), 0 when none      */
    int answered, right;    /* students whose last answer to it is in / right */
    struct {
        char id[32];        /* a diagnosis id ("" for a wrong answer named by none) */
        int count;
    } spread[8];            /* the wrong answers by diagnosis, most first    */
    int n_spread;
} ClassTally;

/* Open the class for the lesson of the instructor's session ses: listen,
 * pack the lesson as ses parsed it. ses judges every answer (the one
 * parse, the one judge) and must outlive every call but class_server_end
 * and class_server_free. NULL with why (the address in use, a bad code,
 * the log not writable, a file the lesson loads unreadable). */
struct Session;
ClassServer *class_server_open(struct Session *ses, const ClassOptions *o, char *why, size_t size);

/* "attn join 127.0.0.1:7411 123456": what students type. */
const char *class_server_join_line(const ClassServer *s);

/* The descriptors to poll (at most max): how many were written. */
int class_server_fds(ClassServer *s, struct pollfd *fds, int max);
/* Handle what poll reported on the descriptors class_server_fds gave, for
 * about budget_ms at most (0: no bound; what is left stays readable for
 * the next poll, taken up where this one stopped, so every student is
 * served in turn); also drops the students past their deadlines. 1 when
 * the tally or the roll changed (the screen redraws), else 0. */
int class_server_pump(ClassServer *s, const struct pollfd *fds, int n, double budget_ms);

/* The instructor shows step n of n_steps (0: the set-up) titled title and,
 * when exercise > 0, that exercise (1-based, as attn grade numbers them)
 * open. Sent to every student when it differs from what they were told;
 * an exercise left open is closed first. 1 when the open exercise is
 * another than before. */
int class_server_show(ClassServer *s, int step, int n_steps, const char *title, int exercise);
/* Close the open exercise: no more answers count for it. */
void class_server_close_question(ClassServer *s);

void class_server_tally(const ClassServer *s, ClassTally *t);
/* The instructor's session took in a new version of its lesson (reload):
 * the class packs it too, the students who joined are told to join again
 * for it, and the answers start afresh. 0, or -1 with why (the students
 * keep the lesson they have; the session judges as it now stands). */
int class_server_reload(ClassServer *s, char *why, size_t size);
/* Why the log could not be written, or NULL. */
const char *class_server_log_error(const ClassServer *s);

/* Tell every student the class ended, and stop listening. */
void class_server_end(ClassServer *s);
void class_server_free(ClassServer *s);

#endif
