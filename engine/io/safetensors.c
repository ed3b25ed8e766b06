/*
 * safetensors.c - the safetensors reader (safetensors.h): the header's
 * length, its JSON (json_read.c, the one reader), each entry checked
 * against the bytes that follow before anything is believed, and the
 * dtypes read as float32.
 */
#include "safetensors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "json_read.h"

const char *safetensors_dtype_name(StDtype d)
{
    return d == ST_F32 ? "F32" : d == ST_F16 ? "F16" : "BF16";
}

int safetensors_dtype_size(StDtype d) { return d == ST_F32 ? 4 : 2; }

static int dtype_of(const char *s, StDtype *d)
{
    static const StDtype all[] = { ST_F32, ST_F16, ST_BF16 };
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        if (strcmp(s, safetensors_dtype_name(all[i])) == 0) {
            *d = all[i];
            return 0;
        }
    return -1;
}

/* An offset or a dimension: a whole number in [0, max]. */
static int whole(const JVal *v, double max, int64_t *out)
{
    if (!v || v->type != J_NUM || v->num < 0 || v->num > max || v->num != (double)(int64_t)v->num)
        return -1;
    *out = (int64_t)v->num;
    return 0;
}

/* One entry of the header into t (its name already set). */
static attn_status read_entry(const char *name, const JVal *e, size_t data_len, StTensor *t, AttnError *err)
{
    const JVal *dt = json_get(e, "dtype"), *shape = json_get(e, "shape"), *off = json_get(e, "data_offsets");
    if (e->type != J_OBJ || !dt || !shape || !off)
        return attn_fail(err, ATTN_E_ARG, "tensor \"%.120s\" has no dtype, shape or data_offsets", name);
    if (dt->type != J_STR || dtype_of(dt->str, &t->dtype) != 0) {
        return attn_fail(err, ATTN_E_ARG, "tensor \"%.120s\" has dtype %.40s; attn reads F32, F16 and BF16", name,
                         dt->type == J_STR ? dt->str : "(not a string)");
    }
    if (shape->type != J_ARR || shape->n > SAFETENSORS_MAX_DIMS)
        return attn_fail(err, ATTN_E_ARG, "tensor \"%.120s\" has a shape that is not a list of at most %d sizes", name,
                         SAFETENSORS_MAX_DIMS);
    t->ndim = shape->n;
    t->count = 1;
    for (int i = 0; i < shape->n; i++) {
        /* a dimension past the data's bytes cannot be true: checked as it is read */
        if (whole(&shape->items[i], (double)data_len, &t->shape[i]) != 0)
            return attn_fail(err, ATTN_E_ARG, "tensor \"%.120s\": dimension %d is not a size the file can hold", name,
                             i + 1);
        if (t->shape[i] > 0 && t->count > (int64_t)data_len / t->shape[i] + 1)
            return attn_fail(err, ATTN_E_ARG, "tensor \"%.120s\": its shape holds more than the file's %lld bytes", name,
                             (long long)data_len);
        t->count *= t->shape[i];
    }
    int64_t begin, end;
    if (off->type != J_ARR || off->n != 2 || whole(&off->items[0], 9e18, &begin) != 0
        || whole(&off->items[1], 9e18, &end) != 0 || end < begin)
        return attn_fail(err, ATTN_E_ARG, "tensor \"%.120s\": data_offsets is not [BEGIN, END] with BEGIN <= END", name);
    if ((uint64_t)end > data_len)
        return attn_fail(err, ATTN_E_ARG, "tensor \"%.120s\": its bytes end at %lld, past the %lld the file holds", name,
                         (long long)end, (long long)data_len);
    if ((end - begin) != t->count * safetensors_dtype_size(t->dtype))
        return attn_fail(err, ATTN_E_ARG, "tensor \"%.120s\": its shape needs %lld bytes but its offsets give %lld", name,
                         (long long)(t->count * safetensors_dtype_size(t->dtype)), (long long)(end - begin));
    t->data = (const unsigned char *)(uintptr_t)begin;     /* an offset until the whole header is read */
    return ATTN_OK;
}

static int by_offset(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const StTensor *)a)->data, y = (uintptr_t)((const StTensor *)b)->data;
    return x < y ? -1 : x > y;
}

attn_status safetensors_parse(const unsigned char *bytes, size_t len, SafeTensors *out, AttnError *err)
{
    memset(out, 0, sizeof *out);
    if (len < 8)
        return attn_fail(err, ATTN_E_ARG, "the file has %zu bytes, fewer than the 8 of its header's length", len);
    uint64_t n = 0;
    for (int i = 7; i >= 0; i--)
        n = n << 8 | bytes[i];
    if (n > len - 8)
        return attn_fail(err, ATTN_E_ARG, "the header says %llu bytes but the file holds %zu after its length",
                         (unsigned long long)n, len - 8);
    if (n > SAFETENSORS_MAX_HEADER)
        return attn_fail(err, ATTN_E_TOO_BIG, "a header of %llu bytes, over the %ld attn reads", (unsigned long long)n,
                         SAFETENSORS_MAX_HEADER);
    char *text = attn_malloc((size_t)n + 1);
    if (!text)
        return attn_fail(err, ATTN_E_NOMEM, "out of memory for a header of %llu bytes", (unsigned long long)n);
    memcpy(text, bytes + 8, (size_t)n);
    text[n] = '\0';
    JVal root;
    char why[160] = "";
    attn_status rc = ATTN_OK;
    if (strlen(text) != n || json_parse(text, &root, why, sizeof why) != 0) {
        free(text);
        if (!why[0])
            snprintf(why, sizeof why, "a NUL byte inside it");
        return attn_fail(err, ATTN_E_ARG, "the header is not JSON: %s", why);
    }
    free(text);
    size_t data_len = len - 8 - (size_t)n;
    const unsigned char *data = bytes + 8 + n;
    if (root.type != J_OBJ) {
        json_free(&root);
        return attn_fail(err, ATTN_E_ARG, "the header is not a JSON object");
    }
    out->tensors = attn_calloc((size_t)(root.n ? root.n : 1), sizeof *out->tensors);
    if (!out->tensors) {
        json_free(&root);
        return attn_fail(err, ATTN_E_NOMEM, "out of memory");
    }
    for (int i = 0; rc == ATTN_OK && i < root.n; i++) {
        if (strcmp(root.keys[i], "__metadata__") == 0)
            continue;
        StTensor *t = &out->tensors[out->n];
        if (!(t->name = strdup(root.keys[i]))) {
            rc = attn_fail(err, ATTN_E_NOMEM, "out of memory");
            break;
        }
        out->n++;
        rc = read_entry(t->name, &root.items[i], data_len, t, err);
    }
    json_free(&root);
    /* the tensors' bytes, in order: each starts where the one before ended,
     * from 0 to the end of the file (the format's own rule) */
    if (rc == ATTN_OK) {
        qsort(out->tensors, (size_t)out->n, sizeof *out->tensors, by_offset);
        uint64_t at = 0;
        for (int i = 0; rc == ATTN_OK && i < out->n; i++) {
            StTensor *t = &out->tensors[i];
            uint64_t begin = (uintptr_t)t->data, size = (uint64_t)(t->count * safetensors_dtype_size(t->dtype));
            if (begin < at)
                rc = attn_fail(err, ATTN_E_ARG, "tensor \"%.120s\": its bytes from %llu overlap the tensor before, "
                                                  "which ends at %llu", t->name, (unsigned long long)begin,
                               (unsigned long long)at);
            else if (begin > at)
                rc = attn_fail(err, ATTN_E_ARG, "tensor \"%.120s\" begins at %llu; bytes from %llu belong to no tensor", t->name,
                               (unsigned long long)begin, (unsigned long long)at);
            at = begin + size;
            t->data = data + begin;
        }
        if (rc == ATTN_OK && at != data_len)
            rc = attn_fail(err, ATTN_E_ARG, "the file holds %zu bytes after the header; its tensors use %llu", data_len,
                           (unsigned long long)at);
    }
    if (rc != ATTN_OK)
        safetensors_free(out);
    return rc;
}

void safetensors_free(SafeTensors *st)
{
    for (int i = 0; st && i < st->n; i++)
        free(st->tensors[i].name);
    if (st) {
        free(st->tensors);
        memset(st, 0, sizeof *st);
    }
}

const StTensor *safetensors_find(const SafeTensors *st, const char *name)
{
    for (int i = 0; i < st->n; i++)
        if (strcmp(st->tensors[i].name, name) == 0)
            return &st->tensors[i];
    return NULL;
}

/* IEEE half to float: subnormals, infinities and NaN included. */
static float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff, bits;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000u | man << 13;
    } else if (exp != 0) {
        bits = sign | (exp + 112) << 23 | man << 13;
    } else if (man == 0) {
        bits = sign;
    } else {
        /* a subnormal half is a normal float: shift the mantissa up */
        int e = -1;
        do {
            man <<= 1;
            e++;
        } while (!(man & 0x400));
        bits = sign | (uint32_t)(112 - e) << 23 | (man & 0x3ff) << 13;
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

void safetensors_to_f32(const StTensor *t, int64_t first, int64_t n, float *out)
{
    const unsigned char *p = t->data + first * safetensors_dtype_size(t->dtype);
    for (int64_t i = 0; i < n; i++) {
        uint32_t bits;
        if (t->dtype == ST_F32) {
            bits = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 | (uint32_t)p[4 * i + 2] << 16
                   | (uint32_t)p[4 * i + 3] << 24;
            memcpy(&out[i], &bits, sizeof bits);
        } else {
            uint16_t h = (uint16_t)(p[2 * i] | p[2 * i + 1] << 8);
            if (t->dtype == ST_F16) {
                out[i] = half_to_float(h);
            } else {
                bits = (uint32_t)h << 16;
                memcpy(&out[i], &bits, sizeof bits);
            }
        }
    }
}

const float *safetensors_f32_in_place(const StTensor *t)
{
    return t->dtype == ST_F32 && (uintptr_t)t->data % sizeof(float) == 0 ? (const float *)(const void *)t->data : NULL;
}
