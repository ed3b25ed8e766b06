/*
 * check_mat.c - the matrix type: allocation and its size limits, reference
 * counting, views, labels, copies and provenance lifetime.
 */
#include <check.h>
#include <limits.h>
#include <string.h>

#include "mat.h"
#include "mat_make.h"

static Mat *mat_seq(int rows, int cols)
{
    AttnError err;
    Mat *m = mat_new(rows, cols, &err);
    ck_assert_msg(m != NULL, "mat_new(%d, %d) failed: %s", rows, cols, err.msg);
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            mat_set(m, i, j, (float)(i * 10 + j));
    return m;
}

/* ---- core ---------------------------------------------------------------- */

START_TEST(new_is_zeroed_input)
{
    AttnError err;
    Mat *m = mat_new(3, 4, &err);
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(err.code, ATTN_OK);
    ck_assert_int_eq(m->rows, 3);
    ck_assert_int_eq(m->cols, 4);
    ck_assert_int_eq(m->ld, 4);
    ck_assert_int_eq(m->refs, 1);
    ck_assert_int_eq(m->prov.op, OP_INPUT);
    ck_assert_str_eq(m->name, "");
    ck_assert_ptr_null(m->masked);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            ck_assert_msg(mat_get(m, i, j) == 0.0f, "[%d,%d] = %g, not 0", i, j, mat_get(m, i, j));
    char buf[32];
    ck_assert_str_eq(mat_shape_str(m, buf, sizeof buf), "3x4");
    mat_free(m);
}
END_TEST

/* Every matrix has its own serial, views and copies too, and a freed
 * matrix's serial is not given again when its address is (the screen's
 * memo of a matrix's numbers keys on it). */
START_TEST(serials_are_never_given_twice)
{
    AttnError err;
    Mat *a = mat_new(2, 3, &err);
    ck_assert_ptr_nonnull(a);
    unsigned long first = a->serial;
    Mat *v = mat_view(a, OP_ROWS, 0, 0, 1, 3, &err), *c = mat_copy(a, &err);
    ck_assert(v && c);
    ck_assert(first > 0 && v->serial > first && c->serial > v->serial);
    const Mat *where = a;
    unsigned long last = c->serial;
    mat_free(v);
    mat_free(c);
    mat_free(a);
    for (int i = 0; i < 100; i++) {
        Mat *b = mat_new(2, 3, &err);
        ck_assert_ptr_nonnull(b);
        ck_assert_msg(b->serial > last, "serial %lu given again (at %p, was %p)", b->serial, (void *)b,
                      (const void *)where);
        last = b->serial;
        mat_free(b);
    }
}
END_TEST

START_TEST(from_copies_values)
{
    float v[] = { 1, 2, 3, 4, 5, 6 };
    Mat *m = mat_from(2, 3, v, NULL);
    ck_assert_ptr_nonnull(m);
    v[0] = 99;
    ck_assert_float_eq(mat_get(m, 0, 0), 1.0f);
    ck_assert_float_eq(mat_get(m, 1, 2), 6.0f);
    ck_assert_float_eq(*mat_row(m, 1), 4.0f);
    mat_free(m);
}
END_TEST

START_TEST(name_is_truncated)
{
    Mat *m = mat_new(1, 1, NULL);
    mat_set_name(m, "Q");
    ck_assert_str_eq(m->name, "Q");
    char longname[100];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    mat_set_name(m, longname);
    ck_assert_int_eq((int)strlen(m->name), MAT_NAME_MAX - 1);
    mat_set_name(m, NULL);
    ck_assert_str_eq(m->name, "");
    mat_free(m);
}
END_TEST

START_TEST(refcount_retain_free)
{
    Mat *m = mat_new(2, 2, NULL);
    ck_assert_ptr_eq(mat_retain(m), m);
    ck_assert_int_eq(m->refs, 2);
    mat_free(m);
    ck_assert_int_eq(m->refs, 1);
    mat_free(m);
    ck_assert_ptr_null(mat_retain(NULL));
}
END_TEST

START_TEST(labels_share_and_slice)
{
    const char *names[] = { "The", "cat", "sat" };
    Labels *l = labels_new(3, names);
    ck_assert_ptr_nonnull(l);
    ck_assert_int_eq(l->n, 3);
    ck_assert_str_eq(l->names[1], "cat");
    Mat *m = mat_new(3, 2, NULL);
    mat_set_row_labels(m, l);
    ck_assert_int_eq(l->refs, 2);
    ck_assert_str_eq(mat_row_label(m, 2), "sat");
    ck_assert_ptr_null(mat_row_label(m, 3));
    ck_assert_ptr_null(mat_col_label(m, 0));
    /* a set of the wrong length is ignored */
    mat_set_col_labels(m, l);
    ck_assert_ptr_null(m->col_labels);
    ck_assert_int_eq(l->refs, 2);

    Labels *s = labels_slice(l, 1, 3);
    ck_assert_int_eq(s->n, 2);
    ck_assert_str_eq(s->names[0], "cat");
    ck_assert_str_eq(s->names[1], "sat");
    labels_free(s);

    labels_free(l);                 /* the matrix still holds it */
    ck_assert_str_eq(mat_row_label(m, 0), "The");
    mat_set_row_labels(m, NULL);    /* drops the last reference */
    ck_assert_ptr_null(mat_row_label(m, 0));
    mat_free(m);
}
END_TEST

START_TEST(copy_is_deep_and_remembers)
{
    Mat *a = mat_seq(2, 3);
    mat_set_name(a, "A");
    const char *names[] = { "x", "y", "z" };
    Labels *l = labels_new(3, names);
    mat_set_col_labels(a, l);
    labels_free(l);
    AttnError err;
    Mat *c = mat_copy(a, &err);
    ck_assert_ptr_nonnull(c);
    ck_assert_ptr_ne(c->data, a->data);
    ck_assert_str_eq(c->name, "A");
    ck_assert_ptr_eq(c->col_labels, a->col_labels);
    ck_assert_int_eq(c->prov.op, OP_COPY);
    ck_assert_ptr_eq(c->prov.a, a);
    ck_assert_float_eq(mat_get(c, 1, 2), 12.0f);
    mat_set(a, 1, 2, -1);
    ck_assert_float_eq(mat_get(c, 1, 2), 12.0f);
    mat_free(a);                    /* c keeps a alive for explanations */
    ck_assert_int_eq(c->prov.a->refs, 1);
    ck_assert_float_eq(mat_get(c->prov.a, 1, 2), -1.0f);
    mat_free(c);
}
END_TEST

START_TEST(view_shares_buffer)
{
    Mat *a = mat_seq(4, 6);
    AttnError err;
    Mat *v = mat_view(a, OP_COLS, 1, 2, 2, 3, &err);
    ck_assert_msg(v != NULL, "%s", err.msg);
    ck_assert_int_eq(v->ld, 6);
    ck_assert_ptr_null(v->buf);
    ck_assert_ptr_eq(v->prov.a, a);
    ck_assert_float_eq(mat_get(v, 0, 0), 12.0f);
    ck_assert_float_eq(mat_get(v, 1, 2), 24.0f);
    mat_free(a);                    /* the view keeps its parent */
    ck_assert_float_eq(mat_get(v, 1, 2), 24.0f);
    /* a view of a view: still the root buffer's stride */
    Mat *vv = mat_view(v, OP_COLS, 1, 1, 1, 2, &err);
    ck_assert_ptr_nonnull(vv);
    ck_assert_float_eq(mat_get(vv, 0, 1), 24.0f);
    mat_free(v);
    ck_assert_float_eq(mat_get(vv, 0, 0), 23.0f);
    mat_free(vv);
}
END_TEST

START_TEST(view_detaches_when_provenance_replaced)
{
    Mat *a = mat_seq(3, 3);
    Mat *v = mat_view(a, OP_ROWS, 1, 0, 2, 3, NULL);
    mat_set_prov(v, OP_INPUT, NULL, NULL);
    ck_assert_ptr_nonnull(v->buf);
    ck_assert_int_eq(v->ld, 3);
    ck_assert_int_eq(a->refs, 1);
    mat_free(a);
    ck_assert_float_eq(mat_get(v, 1, 2), 22.0f);
    mat_free(v);
}
END_TEST

START_TEST(provenance_retains_and_replaces)
{
    Mat *a = mat_new(2, 2, NULL), *b = mat_new(2, 2, NULL), *c = mat_new(2, 2, NULL);
    mat_set_prov(c, OP_ADD, a, b);
    ck_assert_int_eq(a->refs, 2);
    ck_assert_int_eq(b->refs, 2);
    mat_set_prov(c, OP_NEG, a, NULL);   /* replaces: b released, a kept */
    ck_assert_int_eq(a->refs, 2);
    ck_assert_int_eq(b->refs, 1);
    ck_assert_int_eq(c->prov.op, OP_NEG);
    ck_assert_ptr_null(c->prov.b);
    Mat *parts[] = { a, b, a };
    ck_assert_int_eq(mat_set_prov_parts(c, OP_HCAT, parts, 3, NULL), ATTN_OK);
    ck_assert_int_eq(a->refs, 3);
    ck_assert_int_eq(b->refs, 2);
    ck_assert_int_eq(c->prov.n_parts, 3);
    ck_assert_ptr_null(c->prov.a);
    mat_free(a);
    mat_free(b);
    mat_free(c);                        /* releases a and b with it */
}
END_TEST

START_TEST(op_names)
{
    ck_assert_str_eq(mat_op_name(OP_MATMUL), "@");
    ck_assert_str_eq(mat_op_name(OP_SOFTMAX_ROWS), "softmax_rows");
    ck_assert_str_eq(mat_op_name(OP_TRANSPOSE), "^T");
    for (int op = 0; op < OP_COUNT; op++)
        ck_assert_msg(strcmp(mat_op_name((MatOp)op), "unknown") != 0, "op %d has no name", op);
    ck_assert_str_eq(mat_op_name(OP_COUNT), "unknown");
    ck_assert_str_eq(mat_op_name((MatOp)-1), "unknown");
}
END_TEST

/* ---- limits ----------------------------------------------------------- */

START_TEST(huge_refused_before_allocating)
{
    AttnError err;
    Mat *m = mat_new(2000000, 2000000, &err);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(err.code, ATTN_E_TOO_BIG);
    ck_assert_str_eq(err.msg,
                     "a 2000000x2000000 matrix would hold 4000000000000 numbers; the limit is 67108864");
    m = mat_new(INT_MAX, INT_MAX, &err);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(err.code, ATTN_E_TOO_BIG);
    m = mat_new(8192, 8193, &err);      /* one row past the limit */
    ck_assert_ptr_null(m);
    ck_assert_int_eq(err.code, ATTN_E_TOO_BIG);
    float one = 1;
    ck_assert_ptr_null(mat_from(1 << 20, 1 << 20, &one, &err));
    ck_assert_int_eq(err.code, ATTN_E_TOO_BIG);
}
END_TEST

START_TEST(bad_sizes_refused)
{
    AttnError err;
    int sizes[][2] = { { 0, 3 }, { 3, 0 }, { -1, 4 }, { 4, -1 }, { INT_MIN, INT_MIN }, { 0, 0 } };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        Mat *m = mat_new(sizes[k][0], sizes[k][1], &err);
        ck_assert_msg(m == NULL, "%dx%d was accepted", sizes[k][0], sizes[k][1]);
        ck_assert_int_eq(err.code, ATTN_E_ARG);
    }
    mat_new(0, 3, &err);
    ck_assert_str_eq(err.msg, "a matrix needs at least one row and one column, not 0x3");
    ck_assert_ptr_null(mat_from(2, 2, NULL, &err));
    ck_assert_int_eq(err.code, ATTN_E_ARG);
    ck_assert_ptr_null(mat_copy(NULL, &err));
    ck_assert_int_eq(err.code, ATTN_E_ARG);
    ck_assert_ptr_null(mat_new(0, 1, NULL));   /* err may be NULL */
}
END_TEST

START_TEST(null_is_harmless)
{
    mat_free(NULL);
    labels_free(NULL);
    mat_set_name(NULL, "x");
    mat_set_prov(NULL, OP_ADD, NULL, NULL);
    mat_set_row_labels(NULL, NULL);
    ck_assert_ptr_null(labels_retain(NULL));
    ck_assert_ptr_null(labels_slice(NULL, 0, 1));
    ck_assert_ptr_null(mat_row_label(NULL, 0));
    char buf[16];
    ck_assert_str_eq(mat_shape_str(NULL, buf, sizeof buf), "(none)");
    const char *names[] = { "a", "b" };
    ck_assert_ptr_null(labels_new(0, names));
    ck_assert_ptr_null(labels_new(2, NULL));
    Labels *l = labels_new(2, names);
    ck_assert_ptr_null(labels_slice(l, 1, 3));
    ck_assert_ptr_null(labels_slice(l, -1, 1));
    ck_assert_ptr_null(labels_slice(l, 1, 1));
    labels_free(l);
}
END_TEST

START_TEST(view_out_of_range_refused)
{
    Mat *a = mat_new(3, 4, NULL);
    AttnError err;
    ck_assert_ptr_null(mat_view(a, OP_COLS, 0, 2, 3, 3, &err));
    ck_assert_int_eq(err.code, ATTN_E_RANGE);
    ck_assert_ptr_null(mat_view(a, OP_ROWS, -1, 0, 1, 4, &err));
    ck_assert_ptr_null(mat_view(a, OP_ROWS, 0, 0, 0, 4, &err));
    ck_assert_ptr_null(mat_view(NULL, OP_ROWS, 0, 0, 1, 1, &err));
    ck_assert_int_eq(a->refs, 1);
    mat_free(a);
}
END_TEST

/* A chain a0 <- a1 <- ... each holding the previous one only through its
 * provenance: freeing the head must not recurse once per link. */
START_TEST(long_chain_frees)
{
    Mat *head = mat_new(1, 1, NULL);
    for (int k = 0; k < 300000; k++) {
        Mat *next = mat_new(1, 1, NULL);
        ck_assert_ptr_nonnull(next);
        mat_set_prov(next, OP_NEG, head, NULL);
        mat_free(head);
        head = next;
    }
    mat_free(head);
}
END_TEST

Suite *mat_suite(void)
{
    Suite *s = suite_create("mat");
    TCase *core = tcase_create("core");
    tcase_add_test(core, new_is_zeroed_input);
    tcase_add_test(core, from_copies_values);
    tcase_add_test(core, serials_are_never_given_twice);
    tcase_add_test(core, name_is_truncated);
    tcase_add_test(core, refcount_retain_free);
    tcase_add_test(core, labels_share_and_slice);
    tcase_add_test(core, copy_is_deep_and_remembers);
    tcase_add_test(core, view_shares_buffer);
    tcase_add_test(core, view_detaches_when_provenance_replaced);
    tcase_add_test(core, provenance_retains_and_replaces);
    tcase_add_test(core, op_names);
    suite_add_tcase(s, core);

    TCase *limits = tcase_create("limits");
    tcase_set_timeout(limits, 60);
    tcase_add_test(limits, huge_refused_before_allocating);
    tcase_add_test(limits, bad_sizes_refused);
    tcase_add_test(limits, null_is_harmless);
    tcase_add_test(limits, view_out_of_range_refused);
    tcase_add_test(limits, long_chain_frees);
    suite_add_tcase(s, limits);
    return s;
}
