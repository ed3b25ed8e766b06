/*
 * refdata.h - the reference numbers of the .ref files in tests/reference, read for
 * the tests: each file is a list of named matrices and scalars (a scalar is
 * stored as a 1x1 matrix). In torch-randn.ref a 'seed S' line starts a new
 * block; each entry records the seed in force.
 *
 * The reference directory is $ATTN_REF, else tests/reference relative to
 * the repository root (tests run from the root).
 */
#ifndef ATTN_TEST_REFDATA_H
#define ATTN_TEST_REFDATA_H

#include "mat.h"

typedef struct {
    char name[64];
    int rows, cols;
    double *data;       /* rows*cols, row-major; +-inf where the file says */
    int is_scalar;
    long seed;          /* the last 'seed' line before it, or -1 */
} RefEntry;

typedef struct {
    char path[1024];
    RefEntry *entries;
    int n;
} RefFile;

/* The reference directory (static buffer). */
const char *ref_dir(void);

/* Load dir/name (e.g. "001-sky-is-blue.ref"). Returns 0 on success; on
 * failure -1 with a message in msg. */
int ref_load(RefFile *rf, const char *name, char *msg, size_t msg_size);
void ref_free(RefFile *rf);

/* The first entry named name (after `seed` when seed >= 0), or NULL. */
const RefEntry *ref_find(const RefFile *rf, const char *name, long seed);

/* Compare m against e: returns 1 when every element agrees to within
 * rel_tol relative (|a - b| <= rel_tol * max(1, |b|)), non-finite values
 * equal; else 0 and a message in msg naming the max difference and where
 * (1-based [row,col]), or the shape mismatch. */
int ref_compare(const Mat *m, const RefEntry *e, double rel_tol, char *msg, size_t msg_size);

#endif
