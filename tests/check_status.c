/*
 * check_status.c - the one table of status codes (engine/base/status.h): every
 * code has its own message for a person, attn_fail fills an AttnError and
 * returns the code, and the edges (unknown codes, NULL errors, a message
 * longer than the buffer) are safe.
 */
#include <check.h>
#include <string.h>

#include "status.h"

START_TEST(test_every_code_has_its_message)
{
    ck_assert_str_eq(attn_status_str(ATTN_OK), "ok");
    ck_assert_str_eq(attn_status_str(ATTN_E_NOMEM), "out of memory");
    ck_assert_str_eq(attn_status_str(ATTN_E_SHAPE), "the shapes do not fit");
    for (int a = 0; a < ATTN_STATUS_COUNT; a++) {
        const char *sa = attn_status_str((attn_status)a);
        ck_assert_msg(sa && sa[0] && strcmp(sa, "unknown status") != 0, "code %d has no message", a);
        for (int b = 0; b < a; b++)
            ck_assert_msg(strcmp(sa, attn_status_str((attn_status)b)) != 0, "codes %d and %d share \"%s\"", a, b,
                          sa);
    }
}
END_TEST

START_TEST(test_fail_fills_and_returns)
{
    AttnError err;
    ck_assert_int_eq(attn_fail(&err, ATTN_E_SHAPE, "`@` needs %d to equal %d", 3, 2), ATTN_E_SHAPE);
    ck_assert_int_eq(err.code, ATTN_E_SHAPE);
    ck_assert_str_eq(err.msg, "`@` needs 3 to equal 2");
    attn_error_clear(&err);
    ck_assert_int_eq(err.code, ATTN_OK);
    ck_assert_str_eq(err.msg, "");
}
END_TEST

START_TEST(test_edges_are_safe)
{
    ck_assert_str_eq(attn_status_str(ATTN_STATUS_COUNT), "unknown status");
    ck_assert_str_eq(attn_status_str((attn_status)-1), "unknown status");
    ck_assert_int_eq(attn_fail(NULL, ATTN_E_RANGE, "no error to fill"), ATTN_E_RANGE);
    attn_error_clear(NULL);
    AttnError err;
    char long_text[1000];
    memset(long_text, 'x', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    attn_fail(&err, ATTN_E_ARG, "%s", long_text);
    ck_assert_uint_eq(strlen(err.msg), sizeof err.msg - 1);
}
END_TEST

Suite *status_suite(void)
{
    Suite *s = suite_create("status");
    TCase *core = tcase_create("core");
    tcase_add_test(core, test_every_code_has_its_message);
    tcase_add_test(core, test_fail_fills_and_returns);
    suite_add_tcase(s, core);
    TCase *limits = tcase_create("limits");
    tcase_add_test(limits, test_edges_are_safe);
    suite_add_tcase(s, limits);
    return s;
}
