/*
 * ops_fixtures.h - helpers of the operation suites (ops_fixtures.c).
 */
#ifndef ATTN_TEST_OPS_FIXTURES_H
#define ATTN_TEST_OPS_FIXTURES_H

#include <stdint.h>

#include "mat.h"
#include "status.h"

/* The suites' generator (a 32-bit LCG, seeded the same in every test). */
extern uint32_t ops_lcg_state;
/* A value in [-2, 2) from it. */
float ops_rnd(void);
/* A rows x cols matrix of ops_rnd() values. */
Mat *random_mat(int rows, int cols);
/* A matrix from row-major values, named when name is not NULL. */
Mat *lit(int rows, int cols, const float *v, const char *name);
/* Labels from up to three names (n of them). */
Labels *labels3(const char *a, const char *b, const char *c, int n);
/* got equals want element-wise within tol (absolute, scaled by
 * max(1, |want|)); a failure names the max difference and where. */
void assert_close(const Mat *got, const Mat *want, double tol, const char *what);
/* m equals the rows x cols values want within tol. */
void assert_values(const Mat *m, int rows, int cols, const float *want, double tol, const char *what);
/* An operation refused with code (and msg, when not NULL), leaving out NULL. */
void assert_err(attn_status st, const AttnError *err, const Mat *out, attn_status code, const char *msg);

#endif
