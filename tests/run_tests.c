/*
 * run_tests.c - the one test runner: every suite of tests/check_*.c, listed
 * in suites.h, which the Makefile generates from those files. libcheck's
 * summary closes the output; exit 0 only when every test passed.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

#define SUITE(name) Suite *name(void);
#include "suites.h"
#undef SUITE

int main(void)
{
    /* hermetic: no test reads or writes the user's own state (a run once
     * left Ada, Bob, Cy and Bea in the user's class-secrets): HOME and the
     * state folders are a fresh temporary folder, which the suites' child
     * processes inherit; a test that needs its own sets its own */
    if (test_private_home() != 0) {
        fprintf(stderr, "run_tests: cannot make a temporary HOME\n");
        return EXIT_FAILURE;
    }
    SRunner *sr = srunner_create(NULL);
#define SUITE(name) srunner_add_suite(sr, name());
#include "suites.h"
#undef SUITE
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
