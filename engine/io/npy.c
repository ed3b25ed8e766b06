/*
 * npy.c - the .npy reader (see npy.h): the preamble, the header (a Python
 * dict literal with 'descr', 'fortran_order' and 'shape'), then the data,
 * converted element by element to float.
 */
#include "npy.h"
#include "numfmt.h"
#include "strbuf.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    char kind;              /* 'f', 'i' or 'u'                              */
    int size;               /* bytes per element                           */
    int big;                /* big-endian                                  */
    int fortran;
    int ndim;
    long long dims[2];
    char type[16];          /* "float32", for messages                      */
} NpyHeader;

/* ---- the header: a small Python dict literal ---- */

typedef struct {
    const char *p, *end;
} Cursor;

static void skip_blank(Cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
}

static int eat(Cursor *c, char ch)
{
    skip_blank(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return 1;
    }
    return 0;
}

/* A quoted string ('...' or "...") into buf (cut to size); 0 when there is
 * none. */
static int quoted(Cursor *c, char *buf, size_t size)
{
    skip_blank(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
        return 0;
    char q = *c->p++;
    size_t n = 0;
    while (c->p < c->end && *c->p != q) {
        if (n + 1 < size)
            buf[n++] = *c->p;
        c->p++;
    }
    buf[n] = '\0';
    if (c->p >= c->end)
        return 0;
    c->p++;
    return 1;
}

static int word(Cursor *c, const char *w)
{
    skip_blank(c);
    size_t n = strlen(w);
    if ((size_t)(c->end - c->p) >= n && memcmp(c->p, w, n) == 0) {
        c->p += n;
        return 1;
    }
    return 0;
}

static attn_status bad_header(AttnError *err, const char *what)
{
    return attn_fail(err, ATTN_E_ARG, "the header does not parse: %s", what);
}

/* 'descr': byte order, kind and size ("<f4", ">i8", "|u1"). */
static attn_status parse_descr(const char *d, NpyHeader *h, AttnError *err)
{
    size_t n = strlen(d);
    int ok = n == 3 && strchr("<>|=", d[0]) && strchr("fiu", d[1]) && strchr("1248", d[2]);
    h->kind = ok ? d[1] : 0;
    h->size = ok ? d[2] - '0' : 0;
    if (ok && h->kind == 'f' && h->size < 4)
        ok = 0;
    char quoted[32];
    if (!ok)
        return attn_fail(err, ATTN_E_ARG,
                         "the data type '%s' is not read: load reads float32, float64, int8..int64 and "
                         "uint8..uint64", str_clip(quoted, sizeof quoted, d, 20));
    if (d[0] == '|' && h->size > 1)
        return attn_fail(err, ATTN_E_ARG, "the data type '%s' has no byte order ('|'), but its elements have %d bytes",
                         d, h->size);
    uint16_t probe = 1;
    unsigned char first;
    memcpy(&first, &probe, 1);
    h->big = d[0] == '>' || (d[0] == '=' && first == 0);
    snprintf(h->type, sizeof h->type, "%s%d", h->kind == 'f' ? "float" : h->kind == 'i' ? "int" : "uint",
             h->size * 8);
    return ATTN_OK;
}

/* 'shape': a tuple of whole numbers, (), (n,), (r, c); more is refused
 * after reading it all, so the message can give the whole shape. */
static attn_status parse_shape(Cursor *c, NpyHeader *h, AttnError *err)
{
    if (!eat(c, '('))
        return bad_header(err, "'shape' is not a tuple");
    long long dims[8];
    int nd = 0;
    for (;;) {
        skip_blank(c);
        if (eat(c, ')'))
            break;
        if (c->p >= c->end || *c->p < '0' || *c->p > '9')
            return bad_header(err, "'shape' holds something other than whole numbers");
        long long v = 0;
        while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
            if (v > (LLONG_MAX - 9) / 10)
                return attn_fail(err, ATTN_E_TOO_BIG, "a dimension of the shape is too large");
            v = v * 10 + (*c->p++ - '0');
        }
        if (c->p < c->end && *c->p == 'L')  /* Python 2's long */
            c->p++;
        if (nd < 8)
            dims[nd] = v;
        nd++;
        if (!eat(c, ',')) {
            if (!eat(c, ')'))
                return bad_header(err, "'shape' is not closed");
            break;
        }
    }
    if (nd > 2) {
        char shape[96] = "";
        for (int i = 0; i < nd && i < 8; i++) {
            size_t u = strlen(shape);
            snprintf(shape + u, sizeof shape - u, "%s%lld", i ? "x" : "", dims[i]);
        }
        return attn_fail(err, ATTN_E_SHAPE, "a %d-D array (%s%s): load reads 1-D and 2-D arrays", nd, shape,
                         nd > 8 ? "x..." : "");
    }
    h->ndim = nd;
    h->dims[0] = nd == 2 ? dims[0] : 1;
    h->dims[1] = nd == 2 ? dims[1] : nd == 1 ? dims[0] : 1;
    return ATTN_OK;
}

static attn_status parse_header(const char *text, size_t len, NpyHeader *h, AttnError *err)
{
    Cursor c = { text, text + len };
    int seen[3] = { 0, 0, 0 };
    if (!eat(&c, '{'))
        return bad_header(err, "it is not a dict ('{' missing)");
    for (;;) {
        if (eat(&c, '}'))
            break;
        char key[32];
        if (!quoted(&c, key, sizeof key))
            return bad_header(err, "a key is not a quoted string");
        if (!eat(&c, ':'))
            return bad_header(err, "':' missing after a key");
        attn_status st = ATTN_OK;
        if (strcmp(key, "descr") == 0) {
            char d[32];
            if (!quoted(&c, d, sizeof d))
                return bad_header(err, "'descr' is not a string (structured arrays are not read)");
            st = parse_descr(d, h, err);
            seen[0] = 1;
        } else if (strcmp(key, "fortran_order") == 0) {
            if (word(&c, "True"))
                h->fortran = 1;
            else if (word(&c, "False"))
                h->fortran = 0;
            else
                return bad_header(err, "'fortran_order' is neither True nor False");
            seen[1] = 1;
        } else if (strcmp(key, "shape") == 0) {
            st = parse_shape(&c, h, err);
            seen[2] = 1;
        } else {
        {
            char quoted[32];
            return attn_fail(err, ATTN_E_ARG, "the header does not parse: unknown key '%s'",
                             str_clip(quoted, sizeof quoted, key, 20));
        }
        }
        if (st != ATTN_OK)
            return st;
        if (!eat(&c, ',')) {
            if (!eat(&c, '}'))
                return bad_header(err, "',' or '}' missing");
            break;
        }
    }
    static const char *const keys[3] = { "descr", "fortran_order", "shape" };
    for (int i = 0; i < 3; i++)
        if (!seen[i])
            return attn_fail(err, ATTN_E_ARG, "the header does not parse: it has no '%s'", keys[i]);
    return ATTN_OK;
}

/* ---- the data ---- */

/* Element k of the data (an h->size-byte number in h's byte order). */
static double element(const unsigned char *p, const NpyHeader *h)
{
    unsigned char b[8];
    for (int i = 0; i < h->size; i++)
        b[i] = h->big ? p[h->size - 1 - i] : p[i];   /* b: little-endian */
    uint64_t u = 0;
    for (int i = h->size - 1; i >= 0; i--)
        u = u << 8 | b[i];
    if (h->kind == 'f') {
        if (h->size == 4) {
            uint32_t u32 = (uint32_t)u;
            float f;
            memcpy(&f, &u32, 4);
            return f;
        }
        double d;
        memcpy(&d, &u, 8);
        return d;
    }
    if (h->kind == 'u')
        return (double)u;
    int shift = 64 - 8 * h->size;       /* sign-extend */
    return (double)((int64_t)(u << shift) >> shift);
}

attn_status npy_read(Mat **out, const char *bytes, size_t len, long max_elems, AttnError *err)
{
    static const char magic[6] = { '\x93', 'N', 'U', 'M', 'P', 'Y' };
    *out = NULL;
    size_t m = len < 6 ? len : 6;
    if (memcmp(bytes, magic, m) != 0)
        return attn_fail(err, ATTN_E_ARG, "wrong magic: a .npy file starts with \\x93NUMPY");
    if (len < 10)
        return attn_fail(err, ATTN_E_ARG, "truncated: the file ends after %zu bytes, inside its preamble", len);
    const unsigned char *u = (const unsigned char *)bytes;
    int major = u[6], minor = u[7];
    if (major < 1 || major > 3)
        return attn_fail(err, ATTN_E_ARG, "version %d.%d is not read (1.0 to 3.0 are)", major, minor);
    size_t pre = major == 1 ? 10 : 12;
    if (len < pre)
        return attn_fail(err, ATTN_E_ARG, "truncated: the file ends after %zu bytes, inside its preamble", len);
    size_t hlen = major == 1 ? (size_t)(u[8] | u[9] << 8)
                             : (size_t)u[8] | (size_t)u[9] << 8 | (size_t)u[10] << 16 | (size_t)u[11] << 24;
    if (hlen > NPY_MAX_HEADER)
        return attn_fail(err, ATTN_E_LIMIT, "the header is %zu bytes, over the limit of %d", hlen, NPY_MAX_HEADER);
    if (len - pre < hlen)
        return attn_fail(err, ATTN_E_ARG, "truncated: the header should be %zu bytes but %zu follow", hlen,
                         len - pre);
    NpyHeader h;
    memset(&h, 0, sizeof h);
    attn_status st = parse_header(bytes + pre, hlen, &h, err);
    if (st != ATTN_OK)
        return st;
    long long rows = h.dims[0], cols = h.dims[1];
    if (rows == 0 || cols == 0)
        return attn_fail(err, ATTN_E_SHAPE, "the array is empty (%lldx%lld): a matrix needs at least one value", rows,
                         cols);
    if (rows > max_elems || cols > max_elems || rows * cols > max_elems)
        return attn_fail(err, ATTN_E_LIMIT, "a %lldx%lld array is over the limit of %ld elements per matrix", rows,
                         cols, max_elems);
    size_t need = (size_t)(rows * cols) * (size_t)h.size, have = len - pre - hlen;
    if (have != need)
        return attn_fail(err, ATTN_E_ARG, "%s: the header says %lldx%lld %s (%zu bytes) but %zu follow",
                         have < need ? "truncated" : "the shape does not match the data", rows, cols, h.type, need,
                         have);
    Mat *mat = mat_new((int)rows, (int)cols, err);
    if (!mat)
        return err ? err->code : ATTN_E_NOMEM;
    const unsigned char *data = u + pre + hlen;
    for (long long k = 0; k < rows * cols; k++) {
        long long i = h.fortran ? k % rows : k / cols, j = h.fortran ? k / rows : k % cols;
        double v = element(data + k * h.size, &h);
        if (isnan(v) || (isfinite(v) && !num_fits_float(v))) {
            mat_free(mat);
            if (isnan(v))
                return attn_fail(err, ATTN_E_ARG, "row %lld, column %lld is NaN: a loaded matrix holds numbers or +-inf",
                                 i + 1, j + 1);
            return attn_fail(err, ATTN_E_ARG, "row %lld, column %lld (%g) is beyond float32 (about 3.4e38)", i + 1,
                             j + 1, v);
        }
        mat_set(mat, (int)i, (int)j, (float)v);
    }
    *out = mat;
    return ATTN_OK;
}

size_t npy_header_f32(char *buf, size_t size, const int64_t *shape, int ndim)
{
    char dict[160], dims[100] = "";
    size_t at = 0;
    for (int i = 0; i < ndim && i < 4; i++)
        at += (size_t)snprintf(dims + at, sizeof dims - at, "%lld%s", (long long)shape[i],
                               ndim == 1 ? "," : i + 1 < ndim ? ", " : "");
    int n = snprintf(dict, sizeof dict, "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }", dims);
    size_t total = 10 + (size_t)n + 1, pad = (64 - total % 64) % 64, len = total + pad;
    if (len > size || len - 10 > 0xffff)
        return 0;
    unsigned hlen = (unsigned)(len - 10);
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (char)(hlen & 0xff);
    buf[9] = (char)(hlen >> 8);
    memcpy(buf + 10, dict, (size_t)n);
    memset(buf + 10 + n, ' ', pad);
    buf[len - 1] = '\n';
    return len;
}
