/*
 * check_ops_shape.c - the operations that reshape and make matrices:
 * concatenation and ranges (views with their labels), positional encodings
 * against reference 003, cosine, provenance that outlives its handles, and
 * the limits: sizes refused, shape messages, NULL arguments.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ops.h"
#include "ops_ref.h"
#include "refdata.h"
#include "ops_fixtures.h"

/* ---- concatenation and ranges ----------------------------------------------------------- */

START_TEST(concat_values_and_labels)
{
    Mat *a = lit(2, 1, (float[]){ 1, 2 }, "h1"), *b = lit(2, 2, (float[]){ 3, 4, 5, 6 }, "h2"), *o = NULL;
    Labels *tok = labels3("The", "cat", NULL, 2), *ca = labels3("x", NULL, NULL, 1), *cb = labels3("y", "z", NULL, 2);
    mat_set_row_labels(a, tok);
    mat_set_col_labels(a, ca);
    AttnError err;
    Mat *parts[] = { a, b };
    ck_assert_int_eq(op_hcat(&o, parts, 2, &err), ATTN_OK);
    assert_values(o, 2, 3, (float[]){ 1, 3, 4, 2, 5, 6 }, 0, "hcat");
    ck_assert_str_eq(mat_row_label(o, 1), "cat");
    ck_assert_ptr_null(o->col_labels);          /* b has none: no column labels */
    ck_assert_int_eq(o->prov.op, OP_HCAT);
    ck_assert_int_eq(o->prov.n_parts, 2);
    ck_assert_ptr_eq(o->prov.parts[1], b);
    mat_free(o);
    mat_set_col_labels(b, cb);
    ck_assert_int_eq(op_hcat(&o, parts, 2, &err), ATTN_OK);
    ck_assert_str_eq(mat_col_label(o, 0), "x");
    ck_assert_str_eq(mat_col_label(o, 2), "z");
    mat_free(o);

    Mat *at = NULL, *bt = NULL;
    ck_assert_int_eq(op_transpose(&at, a, &err), ATTN_OK);
    ck_assert_int_eq(op_transpose(&bt, b, &err), ATTN_OK);
    Mat *vparts[] = { at, bt, at };
    ck_assert_int_eq(op_vcat(&o, vparts, 3, &err), ATTN_OK);
    assert_values(o, 4, 2, (float[]){ 1, 2, 3, 5, 4, 6, 1, 2 }, 0, "vcat");
    ck_assert_str_eq(mat_col_label(o, 0), "The");
    ck_assert_str_eq(mat_row_label(o, 3), "x");
    ck_assert_int_eq(at->refs, 3);              /* retained twice by the parts */
    mat_free(o);
    ck_assert_int_eq(op_hcat(&o, parts, 1, &err), ATTN_OK);     /* one part: a copy */
    assert_values(o, 2, 1, (float[]){ 1, 2 }, 0, "hcat of one");
    mat_free(o);
    labels_free(tok);
    labels_free(ca);
    labels_free(cb);
    mat_free(at);
    mat_free(bt);
    mat_free(a);
    mat_free(b);
}
END_TEST

START_TEST(concat_shape_message)
{
    Mat *a = random_mat(2, 3), *b = random_mat(3, 3), *o = NULL;
    mat_set_name(a, "Z1");
    AttnError err;
    Mat *parts[] = { a, b };
    attn_status st = op_hcat(&o, parts, 2, &err);
    assert_err(st, &err, o, ATTN_E_SHAPE,
               "hcat needs the same number of rows in every part: Z1 is 2x3, an unnamed matrix (part 2) is 3x3");
    Mat *c = random_mat(2, 4);
    Mat *vparts[] = { a, a, c };
    st = op_vcat(&o, vparts, 3, &err);
    assert_err(st, &err, o, ATTN_E_SHAPE,
               "vcat needs the same number of columns in every part: Z1 is 2x3, an unnamed matrix (part 3) is 2x4");
    mat_free(a);
    mat_free(b);
    mat_free(c);
}
END_TEST

START_TEST(ranges_are_views_with_labels)
{
    Mat *a = random_mat(3, 4), *r = NULL, *c = NULL, *e = NULL;
    mat_set_name(a, "X");
    Labels *tok = labels3("The", "cat", "sat", 3);
    const char *dn[] = { "d1", "d2", "d3", "d4" };
    Labels *dim = labels_new(4, dn);
    mat_set_row_labels(a, tok);
    mat_set_col_labels(a, dim);
    AttnError err;
    ck_assert_int_eq(op_rows(&r, a, 1, 3, &err), ATTN_OK);
    ck_assert_int_eq(r->rows, 2);
    ck_assert_int_eq(r->cols, 4);
    ck_assert_ptr_eq(r->data, a->data + 4);
    ck_assert_int_eq(r->prov.op, OP_ROWS);
    ck_assert_int_eq(r->prov.lo, 1);
    ck_assert_int_eq(r->prov.hi, 3);
    ck_assert_str_eq(mat_row_label(r, 0), "cat");
    ck_assert_str_eq(mat_col_label(r, 3), "d4");
    ck_assert_int_eq(op_cols(&c, r, 2, 4, &err), ATTN_OK);     /* a view of a view */
    ck_assert_int_eq(c->ld, 4);
    ck_assert_float_eq(mat_get(c, 1, 1), mat_get(a, 2, 3));
    ck_assert_str_eq(mat_col_label(c, 0), "d3");
    ck_assert_str_eq(mat_row_label(c, 1), "sat");
    ck_assert_int_eq(op_element(&e, a, 2, 1, &err), ATTN_OK);
    ck_assert_float_eq(mat_get(e, 0, 0), mat_get(a, 2, 1));
    ck_assert_int_eq(e->prov.op, OP_ELEMENT);
    ck_assert_int_eq(e->prov.lo, 2);
    ck_assert_int_eq(e->prov.hi, 1);
    ck_assert_str_eq(mat_row_label(e, 0), "sat");
    ck_assert_str_eq(mat_col_label(e, 0), "d2");
    labels_free(tok);
    labels_free(dim);
    float keep = mat_get(a, 2, 3);
    mat_free(a);
    mat_free(r);
    ck_assert_float_eq(mat_get(c, 1, 1), keep);     /* the chain keeps the buffer */
    mat_free(c);
    mat_free(e);
}
END_TEST

/* ---- positional encodings and cosine ------------------------------------------------------ */

static double ref_scalar(const RefFile *rf, const char *name)
{
    const RefEntry *e = ref_find(rf, name, -1);
    ck_assert_msg(e != NULL, "%s not in %s", name, rf->path);
    return e->data[0];
}

START_TEST(posenc_against_reference)
{
    RefFile rf;
    char msg[512];
    ck_assert_msg(ref_load(&rf, "003-transformer-encoder.ref", msg, sizeof msg) == 0, "%s", msg);
    struct { MatOp op; const char *first8, *cos; } cases[] = {
        { OP_POSENC, "pe_paper_2_first8", "cos_pe_paper_2_10" },
        { OP_POSENC_BOOK, "pe_book_2_first8", "cos_pe_book_2_10" },
    };
    for (int k = 0; k < 2; k++) {
        Mat *pe = NULL, *p2 = NULL, *p10 = NULL, *head = NULL, *cs = NULL;
        AttnError err;
        attn_status st = cases[k].op == OP_POSENC ? op_posenc(&pe, 11, 512, &err) : op_posenc_book(&pe, 11, 512, &err);
        ck_assert_int_eq(st, ATTN_OK);
        ck_assert_int_eq(pe->prov.op, cases[k].op);
        ck_assert_int_eq(op_rows(&p2, pe, 2, 3, &err), ATTN_OK);
        ck_assert_int_eq(op_rows(&p10, pe, 10, 11, &err), ATTN_OK);
        ck_assert_int_eq(op_cols(&head, p2, 0, 8, &err), ATTN_OK);
        const RefEntry *want = ref_find(&rf, cases[k].first8, -1);
        ck_assert_msg(want != NULL, "%s missing", cases[k].first8);
        ck_assert_msg(ref_compare(head, want, 1e-6, msg, sizeof msg), "%s: %s", cases[k].first8, msg);
        ck_assert_int_eq(op_cosine(&cs, p2, p10, &err), ATTN_OK);
        double w = ref_scalar(&rf, cases[k].cos);
        ck_assert_msg(fabs(mat_get(cs, 0, 0) - w) < 1e-6, "%s: %.9f, want %.9f", cases[k].cos, mat_get(cs, 0, 0), w);
        mat_free(cs);
        mat_free(head);
        mat_free(p2);
        mat_free(p10);
        mat_free(pe);
    }
    ref_free(&rf);
}
END_TEST

START_TEST(posenc_small)
{
    Mat *pe = NULL;
    AttnError err;
    ck_assert_int_eq(op_posenc(&pe, 2, 3, &err), ATTN_OK);   /* odd d ends on a sine */
    assert_values(pe, 2, 3, (float[]){ 0, 1, 0, 0.84147098f, 0.54030231f, (float)sin(1 / pow(10000, 2 / 3.0)) }, 1e-7,
                  "posenc(2, 3)");
    mat_free(pe);
}
END_TEST

START_TEST(cosine_values)
{
    Mat *a = lit(1, 3, (float[]){ 1, 2, 3 }, "a"), *b = lit(3, 1, (float[]){ 2, 4, 6 }, "b");
    Mat *c = lit(1, 3, (float[]){ -3, 0, 1 }, NULL), *z = lit(1, 3, (float[]){ 0, 0, 0 }, NULL), *o = NULL;
    AttnError err;
    ck_assert_int_eq(op_cosine(&o, a, b, &err), ATTN_OK);       /* any orientation */
    ck_assert_float_eq_tol(mat_get(o, 0, 0), 1.0f, 1e-7f);
    ck_assert_int_eq(o->prov.op, OP_COSINE);
    ck_assert_ptr_eq(o->prov.b, b);
    mat_free(o);
    ck_assert_int_eq(op_cosine(&o, a, c, &err), ATTN_OK);
    ck_assert_float_eq_tol(mat_get(o, 0, 0), 0.0f, 1e-7f);
    mat_free(o);
    ck_assert_int_eq(op_cosine(&o, a, z, &err), ATTN_OK);
    ck_assert_float_eq(mat_get(o, 0, 0), 0.0f);
    mat_free(o);
    Mat *two = random_mat(2, 2);
    attn_status st = op_cosine(&o, a, two, &err);
    assert_err(st, &err, o, ATTN_E_SHAPE, "cosine needs two vectors of the same length: a has 3 elements (1x3), the second has 4 (2x2)");
    mat_free(two);
    mat_free(a);
    mat_free(b);
    mat_free(c);
    mat_free(z);
}
END_TEST

/* ---- lifetime ---------------------------------------------------------------------------- */

/* Scores outlive the handles of their operands: the provenance still holds
 * Q and K, with their values, so the result can still be explained. */
START_TEST(provenance_outlives_handles)
{
    Mat *q = lit(2, 2, (float[]){ 1, 0, 0, 1 }, "Q"), *k = lit(2, 2, (float[]){ 2, 3, 4, 5 }, "K");
    Mat *s = NULL, *scale = lit(1, 1, (float[]){ 2 }, NULL), *ss = NULL, *w = NULL;
    AttnError err;
    ck_assert_int_eq(op_matmul(&s, q, 0, k, 1, &err), ATTN_OK);
    ck_assert_int_eq(op_div(&ss, s, scale, &err), ATTN_OK);
    ck_assert_int_eq(op_softmax_rows(&w, ss, &err), ATTN_OK);
    mat_free(q);
    mat_free(k);
    mat_free(s);
    mat_free(scale);
    mat_free(ss);
    const Mat *div = w->prov.a, *prod = div->prov.a;
    ck_assert_int_eq(div->prov.op, OP_DIV);
    ck_assert_float_eq(mat_get(div->prov.b, 0, 0), 2.0f);
    ck_assert_int_eq(prod->prov.op, OP_MATMUL);
    ck_assert_int_eq(prod->prov.trans_b, 1);
    ck_assert_str_eq(prod->prov.a->name, "Q");
    ck_assert_str_eq(prod->prov.b->name, "K");
    ck_assert_float_eq(mat_get(prod->prov.b, 1, 0), 4.0f);
    ck_assert_float_eq(mat_get(prod, 0, 1), 4.0f);              /* q1 . k2 */
    mat_free(w);                                                /* frees the whole chain */
}
END_TEST

/* ---- limits -------------------------------------------------------------------------------- */

START_TEST(huge_refused)
{
    Mat *o = NULL;
    AttnError err;
    assert_err(op_zeros(&o, 2000000, 2000000, &err), &err, o, ATTN_E_TOO_BIG,
               "a 2000000x2000000 matrix would hold 4000000000000 numbers; the limit is 67108864");
    assert_err(op_causal_mask(&o, 2000000, &err), &err, o, ATTN_E_TOO_BIG, NULL);
    assert_err(op_posenc(&o, 2000000, 2000000, &err), &err, o, ATTN_E_TOO_BIG, NULL);
    assert_err(op_eye(&o, 1 << 14, &err), &err, o, ATTN_E_TOO_BIG, NULL);
    assert_err(op_ones(&o, 1, 1 << 30, &err), &err, o, ATTN_E_TOO_BIG, NULL);
    /* an outer product past the limit is refused before any work */
    Mat *col = NULL, *row = NULL;
    ck_assert_int_eq(op_zeros(&col, 1 << 14, 1, &err), ATTN_OK);
    ck_assert_int_eq(op_zeros(&row, 1, 1 << 14, &err), ATTN_OK);
    assert_err(op_matmul(&o, col, 0, row, 0, &err), &err, o, ATTN_E_TOO_BIG,
               "a 16384x16384 matrix would hold 268435456 numbers; the limit is 67108864");
    mat_free(col);
    mat_free(row);
}
END_TEST

START_TEST(bad_sizes_refused)
{
    Mat *o = NULL;
    AttnError err;
    assert_err(op_zeros(&o, 0, 3, &err), &err, o, ATTN_E_ARG,
               "a matrix needs at least one row and one column, not 0x3");
    assert_err(op_ones(&o, 2, -1, &err), &err, o, ATTN_E_ARG, NULL);
    assert_err(op_eye(&o, -3, &err), &err, o, ATTN_E_ARG, NULL);
    assert_err(op_causal_mask(&o, 0, &err), &err, o, ATTN_E_ARG, NULL);
    assert_err(op_posenc(&o, 4, 0, &err), &err, o, ATTN_E_ARG, NULL);
    assert_err(op_posenc_book(&o, -1, 8, &err), &err, o, ATTN_E_ARG, NULL);
    ck_assert_int_eq(op_zeros(&o, 0, 0, NULL), ATTN_E_ARG);    /* err may be NULL */
    ck_assert_int_eq(op_zeros(&o, 1 << 20, 1 << 20, NULL), ATTN_E_TOO_BIG);
}
END_TEST

START_TEST(broadcast_shape_messages)
{
    Mat *a = random_mat(3, 4), *b = random_mat(2, 4), *row = random_mat(1, 3), *o = NULL;
    AttnError err;
    assert_err(op_add(&o, a, b, &err), &err, o, ATTN_E_SHAPE,
               "`+` cannot combine the left operand (3x4) with the right operand (2x4): the shapes must match, "
               "or one side must be a number, a 1x4 row or a 3x1 column");
    mat_set_name(a, "XW");
    mat_set_name(row, "b");
    assert_err(op_sub(&o, row, a, &err), &err, o, ATTN_E_SHAPE,
               "`-` cannot combine b (1x3) with XW (3x4): the shapes must match, or one side must be a number, "
               "a 1x4 row or a 3x1 column");
    assert_err(op_mul(&o, a, row, &err), &err, o, ATTN_E_SHAPE, NULL);
    assert_err(op_div(&o, b, a, &err), &err, o, ATTN_E_SHAPE, NULL);
    /* a row and a column do not make an outer sum */
    Mat *c = random_mat(3, 1);
    assert_err(op_add(&o, row, c, &err), &err, o, ATTN_E_SHAPE, NULL);
    ck_assert_int_eq(a->refs, 1);
    mat_free(a);
    mat_free(b);
    mat_free(row);
    mat_free(c);
}
END_TEST

START_TEST(range_messages)
{
    Mat *a = random_mat(4, 3), *o = NULL;
    mat_set_name(a, "X");
    AttnError err;
    assert_err(op_rows(&o, a, 2, 5, &err), &err, o, ATTN_E_RANGE,
               "rows 3..5 are outside X, which has 4 rows (4x3)");
    assert_err(op_cols(&o, a, -1, 2, &err), &err, o, ATTN_E_RANGE,
               "columns 0..2 are outside X, which has 3 columns (4x3)");
    assert_err(op_cols(&o, a, 2, 2, &err), &err, o, ATTN_E_RANGE,
               "columns 3..2 of X: the first comes after the last");
    assert_err(op_rows(&o, a, 3, 1, &err), &err, o, ATTN_E_RANGE, NULL);
    assert_err(op_element(&o, a, 4, 0, &err), &err, o, ATTN_E_RANGE, "X[5,1] is outside X, which is 4x3");
    assert_err(op_element(&o, a, 0, -1, &err), &err, o, ATTN_E_RANGE, NULL);
    assert_err(op_element(&o, a, 0, 3, &err), &err, o, ATTN_E_RANGE, NULL);
    ck_assert_int_eq(op_rows(&o, a, 0, 4, &err), ATTN_OK);      /* the whole range is fine */
    mat_free(o);
    ck_assert_int_eq(a->refs, 1);
    mat_free(a);
}
END_TEST

START_TEST(null_arguments)
{
    Mat *a = random_mat(2, 2), *o = NULL;
    AttnError err;
    assert_err(op_matmul(&o, NULL, 0, a, 0, &err), &err, o, ATTN_E_ARG, "`@` was given no matrix");
    assert_err(op_add(&o, a, NULL, &err), &err, o, ATTN_E_ARG, "`+` was given no matrix");
    assert_err(op_softmax_rows(&o, NULL, &err), &err, o, ATTN_E_ARG, NULL);
    assert_err(op_layernorm_rows(&o, NULL, &err), &err, o, ATTN_E_ARG, NULL);
    assert_err(op_transpose(&o, NULL, &err), &err, o, ATTN_E_ARG, NULL);
    assert_err(op_relu(&o, NULL, &err), &err, o, ATTN_E_ARG, NULL);
    assert_err(op_cosine(&o, a, NULL, &err), &err, o, ATTN_E_ARG, NULL);
    assert_err(op_rows(&o, NULL, 0, 1, &err), &err, o, ATTN_E_ARG, NULL);
    assert_err(op_element(&o, NULL, 0, 0, &err), &err, o, ATTN_E_ARG, NULL);
    assert_err(op_hcat(&o, NULL, 1, &err), &err, o, ATTN_E_ARG, NULL);
    Mat *parts[] = { a, NULL };
    assert_err(op_hcat(&o, parts, 0, &err), &err, o, ATTN_E_ARG, "hcat needs at least one matrix");
    assert_err(op_vcat(&o, parts, 2, &err), &err, o, ATTN_E_ARG, "vcat was given no matrix as part 2");
    ck_assert_int_eq(op_neg(NULL, a, &err), ATTN_E_ARG);
    ck_assert_int_eq(op_matmul(NULL, a, 0, a, 0, NULL), ATTN_E_ARG);
    ck_assert_int_eq(a->refs, 1);
    mat_free(a);
}
END_TEST

Suite *ops_shape_suite(void)
{
    Suite *s = suite_create("ops_shape");
    TCase *core = tcase_create("core");
    tcase_add_test(core, concat_values_and_labels);
    tcase_add_test(core, concat_shape_message);
    tcase_add_test(core, ranges_are_views_with_labels);
    tcase_add_test(core, posenc_against_reference);
    tcase_add_test(core, posenc_small);
    tcase_add_test(core, cosine_values);
    tcase_add_test(core, provenance_outlives_handles);
    suite_add_tcase(s, core);

    TCase *limits = tcase_create("limits");
    tcase_add_test(limits, huge_refused);
    tcase_add_test(limits, bad_sizes_refused);
    tcase_add_test(limits, broadcast_shape_messages);
    tcase_add_test(limits, range_messages);
    tcase_add_test(limits, null_arguments);
    suite_add_tcase(s, limits);
    return s;
}
