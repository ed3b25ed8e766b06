/*
 * utf8.c - the one UTF-8 decoder and the one list of characters never
 * written raw (utf8.h).
 */
#include "utf8.h"

#include <string.h>

size_t utf8_decode(const unsigned char *p, size_t n, unsigned *cp_out)
{
    unsigned char c = p[0];
    size_t len;
    unsigned min;
    unsigned cp;
    *cp_out = c;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) { len = 2; cp = c & 0x1F; min = 0x80; }
    else if (c >= 0xE0 && c <= 0xEF) { len = 3; cp = c & 0x0F; min = 0x800; }
    else if (c >= 0xF0 && c <= 0xF4) { len = 4; cp = c & 0x07; min = 0x10000; }
    else
        return 0;
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    *cp_out = cp;
    return len;
}

/* The list, a row a range. */
static const struct {
    unsigned first, last;
    const char *const *names;   /* one a code point, or NULL: name */
    const char *name;
    int in_text;                /* a lesson may hold it */
} controls[] = {
    { 0x9B, 0x9B, NULL, "control sequence introducer, a C1 control character", 0 },
    { 0x80, 0x9F, NULL, "a C1 control character", 0 },
    { 0x61C, 0x61C, NULL, "arabic letter mark", 1 },
    { 0x200E, 0x200E, NULL, "left-to-right mark", 1 },
    { 0x200F, 0x200F, NULL, "right-to-left mark", 1 },
    { 0x202A, 0x202E, (const char *const[]){ "left-to-right embedding", "right-to-left embedding",
                                             "pop directional formatting", "left-to-right override",
                                             "right-to-left override" }, NULL, 0 },
    { 0x2066, 0x2069, (const char *const[]){ "left-to-right isolate", "right-to-left isolate",
                                             "first strong isolate", "pop directional isolate" }, NULL, 0 },
};

static int control_row(unsigned cp)
{
    for (int i = 0; i < (int)(sizeof controls / sizeof *controls); i++)
        if (cp >= controls[i].first && cp <= controls[i].last)
            return i;
    return -1;
}

const char *utf8_control_name(unsigned cp)
{
    int i = control_row(cp);
    if (i < 0)
        return NULL;
    return controls[i].names ? controls[i].names[cp - controls[i].first] : controls[i].name;
}

int utf8_control_refused_in_text(unsigned cp)
{
    int i = control_row(cp);
    return i >= 0 && !controls[i].in_text;
}

int utf8_unsafe(const unsigned char *t, size_t n, size_t *len)
{
    unsigned cp;
    size_t k = utf8_decode(t, n, &cp);
    *len = k ? k : 1;
    if (k == 0)
        return 1;
    if (k == 1)
        return cp < 0x20 || cp == 0x7f;
    return control_row(cp) >= 0;
}

const char *utf8_escape(const char *s, char *buf, size_t size, int doubled)
{
    if (!buf || size == 0)
        return buf;
    static const char hex[] = "0123456789abcdef";
    size_t n = 0, len = strlen(s);
    const unsigned char *t = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        size_t k;
        int bad = utf8_unsafe(t + i, len - i, &k);
        if (!bad && (t[i] != '\\' || !doubled)) {
            if (n + k >= size)
                break;
            memcpy(buf + n, s + i, k);
            n += k;
            i += k;
            continue;
        }
        if (n + (bad ? 4 * k : 2) >= size)
            break;
        if (!bad) {
            buf[n++] = '\\';
            buf[n++] = '\\';
            i++;
            continue;
        }
        for (size_t j = 0; j < k; j++, i++) {
            buf[n++] = '\\';
            buf[n++] = 'x';
            buf[n++] = hex[t[i] >> 4];
            buf[n++] = hex[t[i] & 15];
        }
    }
    buf[n] = '\0';
    return buf;
}
