/*
 * class_wire.c - class mode's protocol on the wire: lines, messages,
 * names, addresses (see class_wire.h).
 */
#include "class_wire.h"
#include "clock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

size_t class_reader_feed(ClassReader *r, const char *bytes, size_t n)
{
    size_t room = sizeof r->buf - r->len, take = n < room ? n : room;
    memcpy(r->buf + r->len, bytes, take);
    r->len += take;
    return take;
}

static void consume(ClassReader *r, size_t n)
{
    memmove(r->buf, r->buf + n, r->len - n);
    r->len -= n;
}

int class_reader_line(ClassReader *r, char *line)
{
    char *nl = memchr(r->buf, '\n', r->len);
    if (!nl)
        return r->len >= sizeof r->buf ? -1 : 0;
    size_t n = (size_t)(nl - r->buf);
    size_t keep = n > 0 && r->buf[n - 1] == '\r' ? n - 1 : n;
    memcpy(line, r->buf, keep);
    line[keep] = '\0';
    consume(r, n + 1);
    return 1;
}

size_t class_reader_raw(ClassReader *r, char *out, size_t size)
{
    size_t n = r->len < size ? r->len : size;
    memcpy(out, r->buf, n);
    consume(r, n);
    return n;
}

int class_msg_parse(char *line, int max_fields, ClassMsg *m)
{
    memset(m, 0, sizeof *m);
    if (max_fields > 4)
        max_fields = 4;
    char *p = line;
    if (*p < 'A' || *p > 'Z')
        return -1;
    m->verb = p;
    while (*p >= 'A' && *p <= 'Z')
        p++;
    if (*p != '\0' && *p != ' ')
        return -1;
    while (*p == ' ' && m->n < max_fields) {
        *p++ = '\0';
        m->field[m->n++] = p;
        if (m->n == max_fields)
            break;
        while (*p && *p != ' ')
            p++;
    }
    return 0;
}

int class_field_int(const char *s, long lo, long hi, long *out)
{
    if (!s || *s < '0' || *s > '9')
        return -1;
    errno = 0;
    char *end;
    long v = strtol(s, &end, 10);
    if (errno || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* The length of the UTF-8 character at s (1-4), or 0 when it is not one
 * (or is a C1 control, U+0080..U+009F). */
static int utf8_char(const unsigned char *s)
{
    if (s[0] < 0x80)
        return 1;
    int n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    if (n == 2 && s[0] == 0xc2 && s[1] < 0xa0)
        return 0;
    return n;
}

int class_name_clean(const char *in, char *out, size_t size, char *why, size_t why_size)
{
    const unsigned char *s = (const unsigned char *)in;
    size_t o = 0;
    int chars = 0, blank = 0;
    while (*s == ' ' || *s == '\t')
        s++;
    while (*s) {
        if (*s == ' ' || *s == '\t') {
            blank = 1;
            s++;
            continue;
        }
        int n = utf8_char(s);
        if (n == 0 || *s < 0x20 || *s == 0x7f) {
            snprintf(why, why_size, "a name is printable text: no control characters, UTF-8 only");
            return -1;
        }
        if (chars + blank + 1 > CLASS_NAME_MAX || o + (size_t)n + 2 > size) {
            snprintf(why, why_size, "a name has at most %d characters", CLASS_NAME_MAX);
            return -1;
        }
        if (blank)
            out[o++] = ' ', chars++;
        blank = 0;
        memcpy(out + o, s, (size_t)n);
        o += (size_t)n;
        s += n;
        chars++;
    }
    out[o] = '\0';
    if (chars == 0) {
        snprintf(why, why_size, "a name is needed");
        return -1;
    }
    return 0;
}

int class_addr_parse(const char *s, ClassAddr *a, char *why, size_t size)
{
    memset(a, 0, sizeof *a);
    if (strncmp(s, "unix:", 5) == 0) {
        a->is_unix = 1;
        if (s[5] == '\0' || strlen(s + 5) >= sizeof a->path) {
            snprintf(why, size, "unix:PATH needs a path of at most %zu bytes", sizeof a->path - 1);
            return -1;
        }
        snprintf(a->path, sizeof a->path, "%s", s + 5);
        return 0;
    }
    const char *colon = strrchr(s, ':');
    long port;
    if (!colon || colon == s || (size_t)(colon - s) >= sizeof a->host || class_field_int(colon + 1, 0, 65535, &port)) {
        snprintf(why, size, "'%.100s' is not HOST:PORT (like 127.0.0.1:7411) or unix:PATH", s);
        return -1;
    }
    memcpy(a->host, s, (size_t)(colon - s));
    a->host[colon - s] = '\0';
    /* an IPv6 address in brackets, as [::1]:7411 writes it */
    size_t hl = strlen(a->host);
    if (hl >= 2 && a->host[0] == '[' && a->host[hl - 1] == ']') {
        memmove(a->host, a->host + 1, hl - 2);
        a->host[hl - 2] = '\0';
    } else if (strchr(a->host, ':')) {
        snprintf(why, size, "'%.100s': write an IPv6 address in brackets, like [::1]:7411", s);
        return -1;
    }
    a->port = (int)port;
    return 0;
}

double class_now_seconds(void) { return clock_seconds(); }
