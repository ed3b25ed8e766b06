/*
 * safetensors.h - a reader of the safetensors format (Hugging Face's
 * checkpoints), from bytes in memory: the engine never opens files, the app
 * maps them read-only and hands them over, and a tensor's bytes are read
 * where they lie (nothing is copied whole that needs no conversion).
 *
 * The format: 8 bytes, the header's length N as a little-endian unsigned
 * integer; N bytes of JSON, an object of name -> {"dtype", "shape",
 * "data_offsets": [BEGIN, END]} (offsets into the bytes after the header)
 * and an optional "__metadata__" of strings; then the tensors' bytes.
 *
 * Read: F32, F16 and BF16 (little-endian, as the format stores them), any
 * number of dimensions up to SAFETENSORS_MAX_DIMS. Refused at once, each
 * with a message naming what is wrong and where, before anything is sized
 * by what the file claims: a file shorter than its header says, a header
 * that is not a JSON object, an entry without its dtype, shape or offsets,
 * an unknown dtype (named), a negative or absurd dimension, offsets past the
 * end or backwards, a shape whose bytes do not match its offsets, two
 * tensors whose bytes overlap, and bytes between or after the tensors that
 * no tensor claims.
 *
 * Ownership: a SafeTensors owns its tensors' names and the array of them;
 * their data points into the caller's bytes, which must outlive it.
 */
#ifndef ATTN_SAFETENSORS_H
#define ATTN_SAFETENSORS_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

#define SAFETENSORS_MAX_DIMS 4
/* The longest header read (the format's own limit is 100 MB). */
#define SAFETENSORS_MAX_HEADER (100L << 20)

typedef enum { ST_F32, ST_F16, ST_BF16 } StDtype;

typedef struct {
    char *name;
    StDtype dtype;
    int ndim;
    int64_t shape[SAFETENSORS_MAX_DIMS];
    int64_t count;                  /* elements: the shape's product        */
    const unsigned char *data;      /* count elements of dtype, in the caller's bytes */
} StTensor;

typedef struct {
    StTensor *tensors;              /* in the order of their bytes in the file */
    int n;
} SafeTensors;

/* Parse the file bytes[0..len) into *out (freed by safetensors_free).
 * ATTN_OK, or a code with err->msg saying what is wrong ("the header says
 * 4096 bytes but the file holds 100 after its length"). */
attn_status safetensors_parse(const unsigned char *bytes, size_t len, SafeTensors *out, AttnError *err);
void safetensors_free(SafeTensors *st);

/* The tensor named name, or NULL. */
const StTensor *safetensors_find(const SafeTensors *st, const char *name);

/* The dtype's name as the format writes it ("F32", "F16", "BF16"), and
 * its size in bytes. */
const char *safetensors_dtype_name(StDtype d);
int safetensors_dtype_size(StDtype d);

/* Tensor t's elements [first, first + n) as float32 into out (converted
 * from F16 or BF16; F32 copied). The caller keeps first + n <= t->count. */
void safetensors_to_f32(const StTensor *t, int64_t first, int64_t n, float *out);

/* t's data as float32 where it lies (F32 at an address float can be read
 * at), else NULL: the caller converts with safetensors_to_f32. */
const float *safetensors_f32_in_place(const StTensor *t);

#endif
