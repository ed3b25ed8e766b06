/*
 * check_alloc.c - allocation failure, everywhere: the engine's allocator
 * (engine/base/alloc.h) is told to fail from the k-th allocation on, for every k
 * until a whole lesson goes through, and each time parsing, evaluation,
 * verification, explanation and one-expression evaluation must either work
 * or refuse with ATTN_E_NOMEM and a message, never crash (and, under
 * `make valgrind` / `make asan`, never leak).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "explain.h"
#include "lesson.h"
#include "teach.h"
#include "ops.h"

/* Something of everything: labels, a seed, products, broadcast, a mask,
 * softmax, ranges, concatenation, layer norm, posenc, cosine, an exercise
 * with hints, a check. */
static const char *lesson_text =
    "lesson Alloc\nabout Every allocation may fail.\nlayout columns\ntokens a b c\n"
    "seed 3\nlet X = randn(4, 3)\nlabels X rows d1 d2 d3 d4\n"
    "let W = [1 0 0 1; 0 1 1 0; 1 1 0 0]\n"
    "step Attend\n  text\n    Some prose.\n\n    A second paragraph.\n  end\n"
    "  let Q = W @ X + 1\n  let K = W @ X\n"
    "  let S = K^T @ Q / sqrt(3) + causal_mask(3)\n  let A = softmax_rows(S)\n"
    "  let H = hcat(cols(A, 1, 2), A[:,3], rows(A, 1, 3))\n"
    "  let L = layernorm_rows(vcat(A, relu(-A), exp(A), log(A + 1)))\n"
    "  let P = posenc(3, 4) + cosine(X, X)\n"
    "  show S A\n  heatmap A\n"
    "  exercise What is A[1,1]?\n    answer A[1,1] = 1\n    hint A hint.\n    hint Another.\n  end\n"
    "check A[1,1] = 1\ncheck P[1,1] = 1\n";

/* A failure at allocation must say so (msg NULL: a call with no message). */
static void expect_nomem(attn_status code, const char *msg, const char *what, long k)
{
    ck_assert_msg(code == ATTN_E_NOMEM, "%s with allocation %ld failing: code %d (%s), not ATTN_E_NOMEM: %s", what,
                  k, code, attn_status_str(code), msg);
    ck_assert_msg(!msg || msg[0] != '\0', "%s with allocation %ld failing: no message", what, k);
}

/* The whole way through with allocations failing from the k-th on (k < 0:
 * never). 1 when every step worked. */
static int run_lesson(long k)
{
    attn_alloc_fail_after(k);
    LessonError err;
    Lesson *l = lesson_parse(lesson_text, strlen(lesson_text), "alloc.lesson", &err);
    if (!l) {
        attn_alloc_fail_after(-1);
        expect_nomem(err.code, err.msg, "lesson_parse", k);
        return 0;
    }
    LessonEdit edit = { "W", 0, 0, 1.0f };
    LessonState *s = lesson_eval(l, &edit, 1, &err);
    int ok = s != NULL;
    if (!s) {
        attn_alloc_fail_after(-1);
        expect_nomem(err.code, err.msg, "lesson_eval", k);
        lesson_free(l);
        return 0;
    }
    VerifyResult *res = NULL;
    int n = 0;
    attn_status st = lesson_verify(l, s, &res, &n);
    if (st != ATTN_OK) {
        ok = 0;
        expect_nomem(st, NULL, "lesson_verify", k);
        ck_assert_ptr_null(res);
    }
    free(res);
    /* a few cells of every kind of arithmetic */
    static const struct { const char *name; int row, col; } cells[] = {
        { "S", 1, 2 }, { "A", 2, 1 }, { "Q", 0, 0 }, { "H", 1, 3 }, { "L", 4, 2 }, { "P", 2, 3 }, { "X", 0, 0 },
    };
    for (size_t i = 0; i < sizeof cells / sizeof *cells; i++) {
        Explanation ex;
        memset(&ex, 0, sizeof ex);
        AttnError ae = { 0 };
        st = explain_cell(&ex, lesson_state_get(s, cells[i].name), cells[i].row, cells[i].col, &ae);
        if (st != ATTN_OK) {
            ok = 0;
            expect_nomem(st, ae.msg, "explain_cell", k);
            ck_assert_msg(ex.text == NULL && ex.operands == NULL, "a failed explanation keeps memory");
        }
        explain_free(&ex);
    }
    Mat *m = lesson_eval_expr(s, "S / 2 + hcat(A[1,1], A[2,2], A[3,3])", &err);
    if (!m) {
        ok = 0;
        expect_nomem(err.code, err.msg, "lesson_eval_expr", k);
    }
    mat_free(m);
    lesson_state_free(s);
    lesson_free(l);
    return ok;
}

START_TEST(test_hook_counts)
{
    AttnError err;
    attn_alloc_fail_after(1);
    Mat *a = mat_new(2, 2, &err);   /* the struct, then its buffer: the second fails */
    ck_assert_ptr_null(a);
    ck_assert_int_eq(err.code, ATTN_E_NOMEM);
    ck_assert_int_eq(attn_alloc_refused(), 1);
    attn_alloc_fail_after(-1);
    a = mat_new(2, 2, &err);
    ck_assert_ptr_nonnull(a);
    ck_assert_int_eq(attn_alloc_refused(), 0);
    Mat *b = NULL;
    attn_alloc_fail_after(0);
    ck_assert_int_eq(op_matmul(&b, a, 0, a, 1, &err), ATTN_E_NOMEM);
    ck_assert_ptr_null(b);
    ck_assert_msg(strstr(err.msg, "memory"), "message: %s", err.msg);
    attn_alloc_fail_after(-1);
    mat_free(a);
    /* the lesson itself goes through when nothing fails */
    ck_assert_int_eq(run_lesson(-1), 1);
}
END_TEST

START_TEST(test_every_allocation_may_fail)
{
    long k = 0;
    while (!run_lesson(k) || attn_alloc_refused() > 0) {
        attn_alloc_fail_after(-1);
        k++;
        ck_assert_msg(k < 100000, "the lesson never went through");
    }
    attn_alloc_fail_after(-1);
    ck_assert_msg(k > 100, "only %ld allocations: the hook is not on the engine's path", k);
}
END_TEST

Suite *alloc_suite(void)
{
    Suite *s = suite_create("alloc");
    TCase *core = tcase_create("core");
    tcase_add_test(core, test_hook_counts);
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_set_timeout(limits, 120);
    tcase_add_test(limits, test_every_allocation_may_fail);
    suite_add_tcase(s, limits);
    return s;
}
