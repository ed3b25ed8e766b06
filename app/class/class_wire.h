/*
 * class_wire.h - class mode's protocol, version 1, as bytes on the wire:
 * the limits, the reader that cuts a stream into lines, the messages, the
 * names students give, and the addresses a class listens on. Written down
 * for people in attn(1), section CLASS PROTOCOL.
 *
 * A message is one line of at most CLASS_LINE_MAX bytes ending in '\n': a
 * verb in capitals, then fields separated by one blank; the last field may
 * hold blanks. A file (the lesson, a file it loads) follows its FILE line
 * as exactly SIZE raw bytes.
 *
 *   student -> server                server -> student
 *   HELLO 1 CODE NAME                WELCOME 1 NAME
 *   ANSWER K TEXT                    REFUSED WHY            (then closes)
 *   BYE                              FILE lesson|data SIZE PATH, SIZE bytes
 *                                    STEP N M TITLE         (N 0: the set-up)
 *                                    EXERCISE K QUESTION    (where the class is)
 *                                    READY
 *                                    STEP, EXERCISE, CLOSED K, ENDED (later)
 *                                    COUNTED K VERDICT      (an answer logged and counted, right or
 *                                                            wrong as the instructor's session judged it)
 *
 * Nothing here allocates or does I/O: the reader works in a buffer its
 * owner embeds.
 */
#ifndef ATTN_CLASS_WIRE_H
#define ATTN_CLASS_WIRE_H

#include <stddef.h>

#define CLASS_PROTO_VERSION 1
#define CLASS_LINE_MAX 4096             /* bytes of a line, its '\n' included */
#define CLASS_NAME_MAX 32               /* characters of a student's name     */
#define CLASS_MAX_STUDENTS 500
#define CLASS_FILE_MAX (1L << 26)       /* bytes of one file sent             */
#define CLASS_FILES_MAX 64              /* files a class may send a student   */
#define CLASS_FILES_TOTAL (1L << 28)    /* and their bytes in all             */
#define CLASS_READY_SECONDS 30          /* a student waits this long for the lesson */
#define CLASS_STALL_SECONDS 30          /* and this long for more of a file begun */
#define CLASS_DEFAULT_ADDR "127.0.0.1:7411"

/* A stream cut into lines. Feed bytes in; take whole lines out. A line
 * longer than CLASS_LINE_MAX is an error of the stream (the peer is
 * dropped): lines are never cut silently. */
typedef struct {
    char buf[CLASS_LINE_MAX];
    size_t len;         /* bytes held                                        */
} ClassReader;

/* The next whole line of r, without its '\n' (and a '\r' before it), NUL-
 * terminated into line (CLASS_LINE_MAX bytes): 1, 0 when no whole line is
 * held yet, -1 when the line held is too long. Consumes it. */
int class_reader_line(ClassReader *r, char *line);
/* Append n bytes; the number taken (less than n when the buffer is full:
 * take lines out, then feed the rest). */
size_t class_reader_feed(ClassReader *r, const char *bytes, size_t n);
/* Take up to size raw bytes (a file's) from what r holds: how many. */
size_t class_reader_raw(ClassReader *r, char *out, size_t size);

/* One message: the verb and up to 4 fields (the last the rest of the
 * line), pointing into the line the caller parsed (which it keeps). */
typedef struct {
    const char *verb;
    const char *field[4];
    int n;
} ClassMsg;

/* Split line (modified in place) into m, with at most max_fields fields
 * (the last takes the rest). 0, or -1 when the line is empty or its verb
 * is not capitals. */
int class_msg_parse(char *line, int max_fields, ClassMsg *m);

/* A field as a whole number from lo to hi: 0 with *out, else -1. */
int class_field_int(const char *s, long lo, long hi, long *out);

/* A name as a student wrote it, cleaned for the screen and the log: blanks
 * at the ends dropped, runs of blanks made one; refused (-1, why) when it
 * is empty, longer than CLASS_NAME_MAX characters, not UTF-8, or holds a
 * control character. 0 and out (at least 4 * CLASS_NAME_MAX + 1 bytes). */
int class_name_clean(const char *in, char *out, size_t size, char *why, size_t why_size);

/* An address: "HOST:PORT" (an IPv4 address or a name; PORT 0 lets the
 * system choose) or "unix:PATH". 0 with the parts, -1 with why. */
typedef struct {
    int is_unix;
    char host[256];
    int port;
    char path[108];
} ClassAddr;
int class_addr_parse(const char *s, ClassAddr *a, char *why, size_t size);

/* Monotonic seconds, for every time limit of the class (both sides). */
double class_now_seconds(void);

/* The secret a class gives each new student (SECRET, hex), proved with
 * PROVE before a HELLO that takes the name again. */
#define CLASS_SECRET_LEN 32

#endif
