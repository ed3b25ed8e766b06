/*
 * json_read.c - the JSON reader (json_read.h): recursive descent over objects,
 * arrays, strings with escapes (\\uXXXX to UTF-8), numbers, true, false
 * and null, nesting bounded at 64 levels.
 */
#include "alloc.h"
#include "nest.h"
#include "json_read.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *s;
    size_t pos, len;
    int depth;
    char err[160];
} JParser;

void json_free(JVal *v)
{
    if (!v)
        return;
    for (int i = 0; i < v->n; i++) {
        json_free(&v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->str);
    memset(v, 0, sizeof *v);
}

static int jfail(JParser *p, const char *what)
{
    if (!p->err[0])
        snprintf(p->err, sizeof p->err, "JSON: %s at offset %zu", what, p->pos);
    return -1;
}

static void jskip(JParser *p)
{
    const char *s = p->s;
    size_t pos = p->pos, len = p->len;
    while (pos < len && (unsigned char)s[pos] <= ' ' && (s[pos] == ' ' || s[pos] == '\n' || s[pos] == '\t'
                                                         || s[pos] == '\r'))
        pos++;
    p->pos = pos;
}

static int jvalue(JParser *p, JVal *v);

/* Append one code point as UTF-8. */
static void put_utf8(char *out, size_t *n, unsigned cp)
{
    if (cp < 0x80) {
        out[(*n)++] = (char)cp;
    } else if (cp < 0x800) {
        out[(*n)++] = (char)(0xC0 | (cp >> 6));
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        if (cp >= 0xD800 && cp <= 0xDFFF)
            cp = 0xFFFD;        /* half of a pair, alone: no character */
        out[(*n)++] = (char)(0xE0 | (cp >> 12));
        out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    } else {
        out[(*n)++] = (char)(0xF0 | (cp >> 18));
        out[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    }
}

/* Four hex digits at p->pos into *cp, past them: 0, or -1. */
static int hex4(JParser *p, unsigned *cp)
{
    *cp = 0;
    for (int k = 0; k < 4; k++, p->pos++) {
        char h = p->pos < p->len ? p->s[p->pos] : '\0';
        int d = (h >= '0' && h <= '9') ? h - '0'
              : (h >= 'a' && h <= 'f') ? h - 'a' + 10
              : (h >= 'A' && h <= 'F') ? h - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        *cp = *cp * 16 + (unsigned)d;
    }
    return 0;
}

/* A string at p->pos (which is on the opening quote) into a malloc'd buffer
 * the size of its raw text (the decoded is never longer): a buffer the size
 * of the rest of the document, once each string's, was 4 KB a string and
 * 1.75 GB for a 9 MB tokenizer.json. */
static int jstring(JParser *p, char **out)
{
    p->pos++;
    size_t end = p->pos, n = 0;
    int plain = 1;          /* no escape and no control character: copied whole */
    while (end < p->len && p->s[end] != '"') {
        unsigned char c = (unsigned char)p->s[end];
        plain &= c != '\\' && c >= 0x20;
        end += c == '\\' ? 2 : 1;
    }
    char *buf = attn_malloc((end < p->len ? end : p->len) - p->pos + 1);
    if (!buf)
        return jfail(p, "out of memory");
    if (plain && end < p->len) {
        memcpy(buf, p->s + p->pos, end - p->pos);
        buf[end - p->pos] = '\0';
        p->pos = end + 1;
        *out = buf;
        return 0;
    }
    while (p->pos < p->len && p->s[p->pos] != '"') {
        unsigned char c = (unsigned char)p->s[p->pos];
        if (c < 0x20) {
            free(buf);
            return jfail(p, "control character in a string");
        }
        if (c != '\\') {
            buf[n++] = (char)c;
            p->pos++;
            continue;
        }
        if (++p->pos >= p->len)
            break;
        char e = p->s[p->pos++];
        switch (e) {
        case '"': buf[n++] = '"'; break;
        case '\\': buf[n++] = '\\'; break;
        case '/': buf[n++] = '/'; break;
        case 'b': buf[n++] = '\b'; break;
        case 'f': buf[n++] = '\f'; break;
        case 'n': buf[n++] = '\n'; break;
        case 'r': buf[n++] = '\r'; break;
        case 't': buf[n++] = '\t'; break;
        case 'u': {
            unsigned cp = 0;
            if (hex4(p, &cp) != 0) {
                free(buf);
                return jfail(p, "bad \\u escape");
            }
            /* a surrogate pair is one character (U+1F600 is \\ud83d\\ude00):
             * decoded half by half, two names with different emoji both
             * read as replacement characters and merged in a report */
            if (cp >= 0xD800 && cp <= 0xDBFF && p->pos + 1 < p->len && p->s[p->pos] == '\\'
                && p->s[p->pos + 1] == 'u') {
                size_t back = p->pos;
                unsigned low = 0;
                p->pos += 2;
                if (hex4(p, &low) == 0 && low >= 0xDC00 && low <= 0xDFFF)
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                else
                    p->pos = back;      /* a lone high half: U+FFFD, and the next read as itself */
            }
            put_utf8(buf, &n, cp);
            break;
        }
        default:
            free(buf);
            p->pos--;
            return jfail(p, "bad escape in a string");
        }
    }
    if (p->pos >= p->len) {
        free(buf);
        return jfail(p, "unterminated string");
    }
    p->pos++;   /* closing quote */
    buf[n] = '\0';
    *out = buf;
    return 0;
}

static int jnumber(JParser *p, JVal *v)
{
    const char *s = p->s + p->pos;
    size_t i = 0, avail = p->len - p->pos;
    if (i < avail && s[i] == '-')
        i++;
    size_t digits = i;
    while (i < avail && s[i] >= '0' && s[i] <= '9')
        i++;
    if (i == digits)
        return jfail(p, "expected a value");
    size_t whole = i;       /* where the integer part ends */
    if (i < avail && s[i] == '.') {
        size_t frac = ++i;
        while (i < avail && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == frac)
            return jfail(p, "digits expected after '.'");
    }
    if (i < avail && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < avail && (s[i] == '+' || s[i] == '-'))
            i++;
        size_t ex = i;
        while (i < avail && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == ex)
            return jfail(p, "digits expected in an exponent");
    }
    v->type = J_NUM;
    if (i == whole && i - digits <= 15) {
        /* a whole number of at most 15 digits (a vocabulary's ids): exact
         * in a double without strtod */
        double x = 0;
        for (size_t k = digits; k < i; k++)
            x = x * 10 + (s[k] - '0');
        v->num = digits ? -x : x;
        p->pos += i;
        return 0;
    }
    char tmp[64];
    if (i >= sizeof tmp)
        return jfail(p, "number too long");
    memcpy(tmp, s, i);
    tmp[i] = '\0';
    v->num = strtod(tmp, NULL);
    p->pos += i;
    return 0;
}

/* A container's lists cut from cap entries to its n, so a document's
 * tree holds what it holds and not the doubling's slack (a list of pairs
 * was eight entries each). A cut that fails keeps the longer lists. */
static void trim(JVal *v, int cap)
{
    if (v->n == cap)
        return;
    JVal *items = attn_realloc(v->items, (size_t)v->n * sizeof *items);
    if (items)
        v->items = items;
    char **keys = v->keys ? attn_realloc(v->keys, (size_t)v->n * sizeof *keys) : NULL;
    if (keys)
        v->keys = keys;
}

/* Elements of an array or members of an object, after the opening bracket. */
static int jcontainer(JParser *p, JVal *v, int is_object)
{
    char close = is_object ? '}' : ']';
    v->type = is_object ? J_OBJ : J_ARR;
    p->pos++;
    jskip(p);
    if (p->pos < p->len && p->s[p->pos] == close) {
        p->pos++;
        return 0;
    }
    int cap = 0;
    for (;;) {
        if (v->n == cap) {
            cap = cap ? cap * 2 : 2;     /* a merge's pair fits without a cut */
            JVal *items = attn_realloc(v->items, (size_t)cap * sizeof *items);
            if (!items)
                return jfail(p, "out of memory");
            v->items = items;
            if (is_object) {
                char **keys = attn_realloc(v->keys, (size_t)cap * sizeof *keys);
                if (!keys)
                    return jfail(p, "out of memory");
                v->keys = keys;
            }
        }
        JVal *item = &v->items[v->n];
        memset(item, 0, sizeof *item);
        if (is_object) {
            jskip(p);
            if (p->pos >= p->len || p->s[p->pos] != '"')
                return jfail(p, "expected a key string");
            char *key = NULL;
            if (jstring(p, &key) < 0)
                return -1;
            v->keys[v->n] = key;
            v->n++;
            jskip(p);
            if (p->pos >= p->len || p->s[p->pos] != ':')
                return jfail(p, "expected ':'");
            p->pos++;
        } else {
            v->n++;
        }
        if (jvalue(p, item) < 0)
            return -1;
        jskip(p);
        if (p->pos < p->len && p->s[p->pos] == ',') {
            p->pos++;
            continue;
        }
        if (p->pos < p->len && p->s[p->pos] == close) {
            p->pos++;
            trim(v, cap);
            return 0;
        }
        return jfail(p, is_object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static int jvalue(JParser *p, JVal *v)
{
    jskip(p);
    if (p->pos >= p->len)
        return jfail(p, "unexpected end of input");
    if (++p->depth > ATTN_NEST_MAX)
        return jfail(p, "nested deeper than the limit of " NEST_MAX_TEXT);
    int rc;
    char c = p->s[p->pos];
    const char *rest = p->s + p->pos;
    size_t avail = p->len - p->pos;
    if (c == '{' || c == '[') {
        rc = jcontainer(p, v, c == '{');
    } else if (c == '"') {
        v->type = J_STR;
        rc = jstring(p, &v->str);
    } else if (c == 't' && avail >= 4 && strncmp(rest, "true", 4) == 0) {
        v->type = J_BOOL, v->num = 1, p->pos += 4, rc = 0;
    } else if (c == 'f' && avail >= 5 && strncmp(rest, "false", 5) == 0) {
        v->type = J_BOOL, v->num = 0, p->pos += 5, rc = 0;
    } else if (c == 'n' && avail >= 4 && strncmp(rest, "null", 4) == 0) {
        v->type = J_NULL, p->pos += 4, rc = 0;
    } else {
        rc = jnumber(p, v);
    }
    p->depth--;
    return rc;
}

int json_parse(const char *text, JVal *root, char *err, size_t err_size)
{
    JParser p = { text, 0, strlen(text), 0, "" };
    memset(root, 0, sizeof *root);
    int rc = jvalue(&p, root);
    if (rc == 0) {
        jskip(&p);
        if (p.pos != p.len)
            rc = jfail(&p, "trailing characters after the value");
    }
    if (rc < 0) {
        json_free(root);
        snprintf(err, err_size, "%s", p.err);
    }
    return rc;
}

const JVal *json_get(const JVal *obj, const char *key)
{
    if (!obj || obj->type != J_OBJ)
        return NULL;
    for (int i = 0; i < obj->n; i++)
        if (strcmp(obj->keys[i], key) == 0)
            return &obj->items[i];
    return NULL;
}

int json_number(const JVal *v, double *out)
{
    if (v && v->type == J_NUM) {
        *out = v->num;
        return 0;
    }
    if (v && v->type == J_STR) {
        if (strcmp(v->str, "inf") == 0)
            return *out = INFINITY, 0;
        if (strcmp(v->str, "-inf") == 0)
            return *out = -INFINITY, 0;
        if (strcmp(v->str, "nan") == 0)
            return *out = NAN, 0;
    }
    return -1;
}
