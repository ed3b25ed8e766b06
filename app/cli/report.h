/*
 * report.h - the reports of `attn check`: the plain lines a person reads,
 * TAP version 14 for test harnesses, and JUnit XML for CI systems. The
 * writers are pure: they take the collected results and a FILE*, and know
 * nothing of lessons or of how the results were made.
 */
#ifndef ATTN_REPORT_H
#define ATTN_REPORT_H

#include <stdio.h>

typedef enum { REPORT_CHECK, REPORT_EXERCISE, REPORT_REFUSED } ReportKind;

/* One result: a check or an exercise of a lesson, or a lesson file that
 * could not be read or parsed (REPORT_REFUSED; line and col of the error,
 * 0 when it has none). */
typedef struct {
    const char *file;       /* the path as given; borrowed                   */
    int line, col;
    ReportKind kind;
    int passed;
    char what[160];         /* the check as written, or the question         */
    char detail[1024];      /* why it failed, or why the file was refused: whole */
} ReportItem;

/* A growing list of results. */
typedef struct {
    ReportItem *items;      /* owned: free(items) when done                  */
    int n, cap;
} ReportList;

/* A new zeroed result for file at the end of list, or NULL (out of memory). */
ReportItem *report_add(ReportList *list, const char *file);

/* One line per result ("ok   FILE:LINE  check ..." or "FAIL ... -- why"),
 * then "N passed, N failed". quiet: the failures and the closing line only. */
void report_plain(FILE *out, const ReportItem *items, int n, int quiet);

/* TAP version 14: the plan, "ok N - FILE:LINE kind what" or "not ok ...",
 * each failure followed by a YAML block (message, file, line, expected,
 * got), and the closing line as a comment. */
void report_tap(FILE *out, const ReportItem *items, int n);

/* JUnit XML: <testsuites>, a <testsuite> per lesson file (in the order the
 * files first appear), a <testcase> per result with <failure message=...>
 * (or <error message=...> for a refused file). Text is XML-escaped; bytes
 * XML cannot carry become '?'. */
void report_junit(FILE *out, const ReportItem *items, int n);

/* report_junit into the file path; 0 on success, -1 (after saying why on
 * stderr) when it cannot be written. */
int report_junit_file(const char *path, const ReportItem *items, int n);

/* The counts of passed and failed results. */
void report_count(const ReportItem *items, int n, int *passed, int *failed);

/* Write s with control bytes and invalid UTF-8 shown as \xNN escapes (a
 * backslash as \\), so a hostile file name cannot reach the terminal. */
void report_put_name(FILE *out, const char *s);

#endif
