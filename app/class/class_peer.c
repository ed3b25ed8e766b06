/*
 * class_peer.c - the class server's side of one connection: its output
 * queued and sent as the socket takes it, a slow peer dropped, lines of the
 * protocol, a refusal, and a line to every student (see
 * class_server_internal.h).
 */
#include "class_server_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void class_peer_drop(ClassServer *s, int c)
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

void class_peer_flush(ClassServer *s, int c)
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
            class_peer_drop(s, c);
            return;
        }
    }
    if (k->fd >= 0 && k->out_off == k->out_len) {
        k->out_off = k->out_len = 0;
        if (k->closing)
            class_peer_drop(s, c);
    }
}

size_t class_peer_held(const ClassServer *s)
{
    size_t held = 0;
    for (int c = 0; c < s->n_conns; c++)
        if (s->conns[c].fd >= 0)
            held += s->conns[c].out_cap;
    return held;
}

/* Queue bytes for peer c; a peer that lets more pile up than the lesson
 * and OUT_SLACK is too slow for the class and is dropped, and so is one
 * whose bytes would take the peers' buffers past OUT_TOTAL together. */
void class_peer_send(ClassServer *s, int c, const char *bytes, size_t n)
{
    Conn *k = &s->conns[c];
    if (k->fd < 0)
        return;
    if (k->out_len + n > k->out_cap && class_peer_held(s) - k->out_cap + 2 * (k->out_len + n) > (size_t)OUT_TOTAL) {
        class_peer_drop(s, c);
        return;
    }
    size_t limit = s->pack.len + OUT_SLACK;
    for (int i = 0; i < s->pack.n_files; i++)
        limit += s->pack.files[i].len;
    if (k->out_len - k->out_off + n > limit) {
        class_peer_drop(s, c);
        return;
    }
    if (k->out_len + n > k->out_cap) {
        size_t cap = k->out_cap ? k->out_cap : 4096;
        while (cap < k->out_len + n)
            cap *= 2;
        char *more = realloc(k->out, cap);
        if (!more) {
            class_peer_drop(s, c);
            return;
        }
        k->out = more;
        k->out_cap = cap;
    }
    memcpy(k->out + k->out_len, bytes, n);
    k->out_len += n;
    if (!s->corked)
        class_peer_flush(s, c);
}

void class_peer_line(ClassServer *s, int c, const char *fmt, ...)
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
    class_peer_send(s, c, line, (size_t)n);
}

void class_peer_refuse(ClassServer *s, int c, const char *why)
{
    class_peer_line(s, c, "REFUSED %s", why);
    if (s->conns[c].fd >= 0) {
        s->conns[c].closing = 1;
        class_peer_flush(s, c);
    }
}

/* One line to every student who joined. */
void class_peer_broadcast(ClassServer *s, const char *fmt, ...)
{
    char line[CLASS_LINE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    for (int c = 0; c < s->n_conns; c++)
        if (s->conns[c].fd >= 0 && s->conns[c].student >= 0)
            class_peer_line(s, c, "%s", line);
}

/* Send what the lines queued while corked hold: one send per student. */
void class_peer_uncork(ClassServer *s)
{
    s->corked = 0;
    for (int c = 0; c < s->n_conns; c++)
        if (s->conns[c].fd >= 0 && s->conns[c].out_len > s->conns[c].out_off)
            class_peer_flush(s, c);
}
