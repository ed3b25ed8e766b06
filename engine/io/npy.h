/*
 * npy.h - a reader of NumPy's .npy format (versions 1.0 to 3.0), from bytes
 * in memory: the engine never opens files, the app hands them over.
 *
 * Read: float32, float64, int8..int64 and uint8..uint64, little ('<'),
 * big ('>') or no ('|', one-byte types) byte order, C or Fortran order,
 * 0-D (1 x 1), 1-D (1 x n) and 2-D arrays. Refused, each with a message
 * that says what is wrong in the file: wrong magic, an unknown version, a
 * header longer than NPY_MAX_HEADER, a header that does not parse, other
 * data types, 3-D and more, an empty array, more elements than the caller's
 * limit (checked before anything is allocated), data shorter or longer than
 * the shape says, and values that are NaN or beyond float32.
 */
#ifndef ATTN_NPY_H
#define ATTN_NPY_H

#include <stddef.h>
#include <stdint.h>

#include "mat.h"

/* The longest header read (bytes after the preamble), as NumPy's own
 * default limit for np.load. */
#define NPY_MAX_HEADER 10000

/* Parse the .npy file bytes[0..len) into a new matrix (OP_INPUT, no name,
 * no labels) in *out, which the caller frees with mat_free. At most
 * max_elems elements. ATTN_OK, or a code with err->msg saying what is
 * wrong ("truncated: the header says 4x4 float32 (64 bytes) but 60
 * follow"), *out NULL. */
attn_status npy_read(Mat **out, const char *bytes, size_t len, long max_elems, AttnError *err);

/* The header of a little-endian float32 .npy (version 1.0, C order) of
 * the given shape (ndim 1 to 4) into buf: the magic, the version, the
 * length, the dict, padded with spaces to a multiple of 64 bytes and ended
 * by a newline, as NumPy writes it. Its length, or 0 when buf is too
 * small (128 bytes always suffice). The caller writes the data after it. */
size_t npy_header_f32(char *buf, size_t size, const int64_t *shape, int ndim);

#endif
