/*
 * check_safetensors.c - the safetensors reader (engine/io/safetensors.c)
 * on files the test writes itself in the format's layout: F32, F16 and
 * BF16 read back as the numbers written (half's subnormals and infinities
 * too), the metadata skipped, and every hostile file refused at once with
 * the message that says what is wrong.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "safetensors.h"
#include "testutil.h"

/* A file: the header's length (8 bytes, little-endian), the header, the
 * data. A new buffer in *len bytes; the caller frees it. */
static unsigned char *file_of(const char *header, const void *data, size_t data_len, size_t *len)
{
    size_t n = strlen(header);
    *len = 8 + n + data_len;
    unsigned char *b = malloc(*len);
    ck_assert_ptr_nonnull(b);
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)((uint64_t)n >> (8 * i));
    memcpy(b + 8, header, n);
    if (data_len)
        memcpy(b + 8 + n, data, data_len);
    return b;
}

START_TEST(three_dtypes_read_back)
{
    /* F32 [2,3] at 0..24, F16 [4] at 24..32, BF16 [2,2] at 32..40 */
    unsigned char data[40];
    float f[6] = { 1, -2, 0.5f, 3.25f, -0.125f, 1e-3f };
    memcpy(data, f, sizeof f);
    uint16_t h[4] = { 0x3C00, 0xC000, 0x0001, 0x7C00 };   /* 1, -2, the smallest subnormal, inf */
    memcpy(data + 24, h, sizeof h);
    uint16_t bf[4] = { 0x3F80, 0xBF00, 0x4049, 0x0000 };  /* 1, -0.5, 3.140625, 0 */
    memcpy(data + 32, bf, sizeof bf);
    const char *header = "{\"__metadata__\": {\"format\": \"pt\"}, "
                         "\"h\": {\"dtype\": \"F16\", \"shape\": [4], \"data_offsets\": [24, 32]}, "
                         "\"w\": {\"dtype\": \"F32\", \"shape\": [2, 3], \"data_offsets\": [0, 24]}, "
                         "\"b\": {\"dtype\": \"BF16\", \"shape\": [2, 2], \"data_offsets\": [32, 40]}}";
    size_t len;
    unsigned char *file = file_of(header, data, sizeof data, &len);
    SafeTensors st;
    AttnError err = { 0 };
    ck_assert_msg(safetensors_parse(file, len, &st, &err) == ATTN_OK, "%s", err.msg);
    ck_assert_int_eq(st.n, 3);
    ck_assert_str_eq(st.tensors[0].name, "w");     /* in the order of their bytes */
    const StTensor *w = safetensors_find(&st, "w"), *hh = safetensors_find(&st, "h"), *b = safetensors_find(&st, "b");
    ck_assert(w && hh && b && !safetensors_find(&st, "__metadata__"));
    ck_assert_int_eq(w->ndim, 2);
    ck_assert_int_eq(w->shape[0], 2);
    ck_assert_int_eq(w->shape[1], 3);
    ck_assert_int_eq(w->count, 6);
    float out[6];
    safetensors_to_f32(w, 0, 6, out);
    for (int i = 0; i < 6; i++)
        ck_assert_float_eq(out[i], f[i]);
    safetensors_to_f32(w, 4, 2, out);
    ck_assert_float_eq(out[0], -0.125f);
    safetensors_to_f32(hh, 0, 4, out);
    ck_assert_float_eq(out[0], 1.0f);
    ck_assert_float_eq(out[1], -2.0f);
    ck_assert_float_eq(out[2], ldexpf(1.0f, -24));
    ck_assert(isinf(out[3]) && out[3] > 0);
    safetensors_to_f32(b, 0, 4, out);
    ck_assert_float_eq(out[0], 1.0f);
    ck_assert_float_eq(out[1], -0.5f);
    ck_assert_float_eq(out[2], 3.140625f);
    ck_assert_float_eq(out[3], 0.0f);
    /* F32 read where it lies when it is aligned, never for F16 */
    const float *in_place = safetensors_f32_in_place(w);
    if (((uintptr_t)w->data & 3) == 0)
        ck_assert(in_place && in_place[1] == -2.0f);
    ck_assert_ptr_null(safetensors_f32_in_place(hh));
    safetensors_free(&st);
    free(file);
}
END_TEST

/* header + data refused with exactly want. */
static void refused(const char *header, size_t data_len, const char *want)
{
    unsigned char *data = calloc(data_len ? data_len : 1, 1);
    size_t len;
    unsigned char *file = file_of(header, data, data_len, &len);
    SafeTensors st;
    AttnError err = { 0 };
    ck_assert_msg(safetensors_parse(file, len, &st, &err) != ATTN_OK, "accepted: %s", header);
    ck_assert_str_eq(err.msg, want);
    ck_assert_int_eq(st.n, 0);
    free(file);
    free(data);
}

START_TEST(hostile_files_are_refused_with_a_reason)
{
    /* shorter than the length of its header, and a header longer than the file */
    unsigned char tiny[5] = { 1, 2, 3, 4, 5 };
    SafeTensors st;
    AttnError err = { 0 };
    ck_assert_int_ne(safetensors_parse(tiny, sizeof tiny, &st, &err), ATTN_OK);
    ck_assert_str_eq(err.msg, "the file has 5 bytes, fewer than the 8 of its header's length");
    unsigned char liar[16] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f };
    ck_assert_int_ne(safetensors_parse(liar, sizeof liar, &st, &err), ATTN_OK);
    ck_assert_str_eq(err.msg, "the header says 9223372036854775807 bytes but the file holds 8 after its length");
    refused("{\"a\": ", 0, "the header is not JSON: JSON: unexpected end of input at offset 6");
    refused("[1, 2]", 0, "the header is not a JSON object");
    refused("{\"a\": {\"dtype\": \"F32\", \"shape\": [1]}}", 4, "tensor \"a\" has no dtype, shape or data_offsets");
    refused("{\"a\": {\"dtype\": \"I8\", \"shape\": [4], \"data_offsets\": [0, 4]}}", 4,
            "tensor \"a\" has dtype I8; attn reads F32, F16 and BF16");
    refused("{\"a\": {\"dtype\": \"F32\", \"shape\": [1, 1, 1, 1, 1], \"data_offsets\": [0, 4]}}", 4,
            "tensor \"a\" has a shape that is not a list of at most 4 sizes");
    refused("{\"a\": {\"dtype\": \"F32\", \"shape\": [-1], \"data_offsets\": [0, 4]}}", 4,
            "tensor \"a\": dimension 1 is not a size the file can hold");
    refused("{\"a\": {\"dtype\": \"F32\", \"shape\": [4, 4, 4, 4], \"data_offsets\": [0, 4]}}", 4,
            "tensor \"a\": its shape holds more than the file's 4 bytes");
    refused("{\"a\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [4, 0]}}", 4,
            "tensor \"a\": data_offsets is not [BEGIN, END] with BEGIN <= END");
    refused("{\"a\": {\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [0, 8]}}", 4,
            "tensor \"a\": its bytes end at 8, past the 4 the file holds");
    refused("{\"a\": {\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [0, 4]}}", 4,
            "tensor \"a\": its shape needs 8 bytes but its offsets give 4");
    refused("{\"a\": {\"dtype\": \"F32\", \"shape\": [2], \"data_offsets\": [0, 8]}, "
            "\"b\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [4, 8]}}", 8,
            "tensor \"b\": its bytes from 4 overlap the tensor before, which ends at 8");
    refused("{\"a\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [4, 8]}}", 8,
            "tensor \"a\" begins at 4; bytes from 0 belong to no tensor");
    refused("{\"a\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [0, 4]}}", 12,
            "the file holds 12 bytes after the header; its tensors use 4");
    /* a NUL inside the header */
    unsigned char nul[8 + 4] = { 4, 0, 0, 0, 0, 0, 0, 0, '{', 0, '}', ' ' };
    ck_assert_int_ne(safetensors_parse(nul, sizeof nul, &st, &err), ATTN_OK);
    ck_assert_str_eq(err.msg, "the header is not JSON: a NUL byte inside it");
}
END_TEST

typedef struct {
    const unsigned char *file;
    size_t len;
} Parse;

static void parse_it(void *ctx)
{
    const Parse *p = ctx;
    SafeTensors st;
    AttnError err = { 0 };
    if (safetensors_parse(p->file, p->len, &st, &err) == ATTN_OK)
        safetensors_free(&st);
}

/* A header of 100,000 short strings (metadata of 50,000 names, and one
 * tensor) took 401 MB, each string given the rest of the document: its
 * memory is a small constant times its size. */
START_TEST(a_header_of_many_strings_takes_memory_in_proportion)
{
    size_t cap = 50000 * 20 + 200, n = 0;
    char *header = malloc(cap);
    ck_assert_ptr_nonnull(header);
    n += (size_t)snprintf(header + n, cap - n, "{\"__metadata__\": {");
    for (int i = 0; i < 50000; i++)
        n += (size_t)snprintf(header + n, cap - n, "%s\"k%05d\":\"v%05d\"", i ? "," : "", i, i);
    snprintf(header + n, cap - n, "}, \"a\": {\"dtype\": \"F32\", \"shape\": [1], \"data_offsets\": [0, 4]}}");
    float one = 1;
    Parse p;
    p.file = file_of(header, &one, 4, &p.len);
    SafeTensors st;
    AttnError err = { 0 };
    ck_assert_msg(safetensors_parse(p.file, p.len, &st, &err) == ATTN_OK, "%s", err.msg);
    ck_assert_int_eq(st.n, 1);
    safetensors_free(&st);
    long kb = peak_growth_kb(parse_it, &p);
    if (kb >= 0)
        ck_assert_msg(kb * 1024 <= 12 * (long)p.len, "a header of %zu bytes raised the peak by %ld KB (%.1f times it)",
                      p.len, kb, kb * 1024.0 / (double)p.len);
    free((void *)p.file);
    free(header);
}
END_TEST

Suite *safetensors_suite(void)
{
    Suite *s = suite_create("safetensors");
    TCase *tc = tcase_create("safetensors");
    tcase_add_test(tc, three_dtypes_read_back);
    tcase_add_test(tc, hostile_files_are_refused_with_a_reason);
    tcase_add_test(tc, a_header_of_many_strings_takes_memory_in_proportion);
    suite_add_tcase(s, tc);
    return s;
}
