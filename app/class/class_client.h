/*
 * class_client.h - a student's end of a class: connect to the class's
 * address, say HELLO with the code and a name, receive the lesson (its
 * text and the files it loads) into a pack, then read what the instructor
 * shows. `attn join` drives it as a line client (app/cli/join.c).
 *
 * Ownership: the client owns its socket and the pack it receives;
 * class_client_free releases them.
 */
#ifndef ATTN_CLASS_CLIENT_H
#define ATTN_CLASS_CLIENT_H

#include <stddef.h>

#include "class_pack.h"
#include "class_wire.h"

typedef struct ClassClient ClassClient;

/* What the server said, one message at a time. */
typedef enum {
    CLIENT_NOTHING,     /* no whole message yet                             */
    CLIENT_READY,       /* the lesson arrived: class_client_pack             */
    CLIENT_STEP,        /* n, m, text (the step's title)                     */
    CLIENT_EXERCISE,    /* n, text (the question)                            */
    CLIENT_CLOSED,      /* n                                                 */
    CLIENT_COUNTED,     /* n, text: the verdict the class counted ("right")  */
    CLIENT_ENDED,
    CLIENT_REFUSED,     /* text: why                                         */
    CLIENT_LOST,        /* the connection is gone (text: why)                */
    CLIENT_NOTE,        /* text: something the student should know, the
                           class going on (their place could not be kept)  */
} ClientEvent;

typedef struct {
    ClientEvent what;
    long n, m;
    char text[CLASS_LINE_MAX];
} ClientMsg;

/* Connect to addr and say HELLO. NULL with why. */
ClassClient *class_client_connect(const char *addr, const char *code, const char *name, char *why, size_t size);
/* A client over a connection already made (fd, owned from then on), for
 * addr and name, that has said HELLO: what the fuzzer feeds a server's
 * bytes through. NULL on no memory. */
ClassClient *class_client_over(int fd, const char *addr, const char *name);
/* The socket, to poll for reading. */
int class_client_fd(const ClassClient *c);
/* How long a caller may wait on the socket before calling
 * class_client_next again: while a file is arriving, until it would have
 * stalled for CLASS_STALL_SECONDS (then next says CLIENT_LOST); -1 (for
 * ever) otherwise. */
int class_client_wait_ms(const ClassClient *c);
/* Read what the socket holds (call when poll says it is readable). */
void class_client_read(ClassClient *c);
/* The next message read, or CLIENT_NOTHING. */
void class_client_next(ClassClient *c, ClientMsg *m);
/* The name the server accepted (after CLIENT_READY). */
const char *class_client_name(const ClassClient *c);
/* The lesson and files the class sent, taken over by the caller (after
 * CLIENT_READY): the lesson opened from it reads its files for as long as
 * it lives, after the class ended too. Free with class_pack_free, then
 * free(); NULL on no memory. The client keeps an empty pack. */
ClassPack *class_client_take_pack(ClassClient *c);
/* Wait up to timeout_ms for the lesson (READY): 0, or -1 with m holding
 * the refusal or the loss (a timeout is a loss). */
int class_client_wait_ready(ClassClient *c, int timeout_ms, ClientMsg *m);
/* Send an answer to exercise k, judged on this side with the decimals
 * its screen showed (0: as written, 4), which a server that says it
 * judges so is told too: the tally counts what the screen said. 0, or -1
 * when the connection is gone. */
int class_client_answer(ClassClient *c, int k, const char *answer, int decimals);
void class_client_free(ClassClient *c);

#endif
