/*
 * report.c - the three reports of `attn check` (plain, TAP 14, JUnit XML),
 * written from a list of results (ReportList, which cli.c fills). Every string that came from outside the
 * program is escaped for where it goes: file names through term_escape,
 * TAP descriptions for '#', YAML strings and XML text for their quotes.
 */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "filewrite.h"
#include "lesson.h"

#define NAME_MAX_SHOWN 1024

static const char *kind_name(ReportKind k)
{
    return k == REPORT_CHECK ? "check" : k == REPORT_EXERCISE ? "exercise" : "refused";
}

void report_count(const ReportItem *items, int n, int *passed, int *failed)
{
    *passed = *failed = 0;
    for (int i = 0; i < n; i++)
        (*(items[i].passed ? passed : failed))++;
}

ReportItem *report_add(ReportList *list, const char *file)
{
    if (list->n == list->cap) {
        int cap = list->cap ? 2 * list->cap : 64;
        ReportItem *bigger = realloc(list->items, (size_t)cap * sizeof *bigger);
        if (!bigger)
            return NULL;
        list->items = bigger;
        list->cap = cap;
    }
    ReportItem *it = &list->items[list->n++];
    memset(it, 0, sizeof *it);
    it->file = file;
    return it;
}

void report_put_name(FILE *out, const char *s)
{
    char buf[NAME_MAX_SHOWN * 4 + 1];
    fputs(term_escape(s, buf, sizeof buf), out);
}

/* "FILE:LINE" (or "FILE" when the result has no line), escaped. */
static void put_where(FILE *out, const ReportItem *it)
{
    report_put_name(out, it->file);
    if (it->line > 0)
        fprintf(out, ":%d", it->line);
}

/* A message or a question: controls escaped, backslashes as they are. */
static void put_text(FILE *out, const char *s)
{
    char buf[NAME_MAX_SHOWN * 4 + 1];
    fputs(term_escape_text(s, buf, sizeof buf), out);
}

void report_plain(FILE *out, const ReportItem *items, int n, int quiet)
{
    for (int i = 0; i < n; i++) {
        const ReportItem *it = &items[i];
        if (it->passed && quiet)
            continue;
        fputs(it->passed ? "ok   " : "FAIL ", out);
        /* what and detail may quote a lesson's or a data file's bytes */
        if (it->kind == REPORT_REFUSED) {
            report_put_name(out, it->file);
            fputs("  refused: ", out);
            put_text(out, it->detail);
            fputc('\n', out);
            continue;
        }
        put_where(out, it);
        fprintf(out, "  %s ", kind_name(it->kind));
        put_text(out, it->what);
        if (!it->passed) {
            fputs(" -- ", out);
            put_text(out, it->detail);
        }
        fputc('\n', out);
    }
    int passed, failed;
    report_count(items, n, &passed, &failed);
    fprintf(out, "%d passed, %d failed\n", passed, failed);
}

/* ---- TAP ---- */

/* A TAP description: '#' would start a directive and '\' escapes it. */
static void tap_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '#' || *s == '\\')
            fputc('\\', out);
        fputc(*s, out);
    }
}

/* A double-quoted YAML string. */
static void yaml_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(out, "\\x%02x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

/* The expected and the actual value of a failure, when its detail states
 * them ("got G, expected E" of a check, "the answer is G, but the exercise
 * states E"); otherwise what was asked for and what happened. */
static void failure_values(const ReportItem *it, char *expected, char *got, size_t size)
{
    const char *d = it->detail, *p;
    char g[64], e[64];
    if ((p = strstr(d, ": got ")) && sscanf(p, ": got %63[^,], expected %63[^ (]", g, e) == 2) {
        snprintf(got, size, "%s", g);
        snprintf(expected, size, "%s", e);
    } else if (sscanf(d, "the answer is %63[^,], but the exercise states %63[^ (]", g, e) == 2) {
        snprintf(got, size, "%s", g);
        snprintf(expected, size, "%s", e);
    } else if (it->kind == REPORT_REFUSED) {
        snprintf(expected, size, "a lesson that reads and evaluates");
        snprintf(got, size, "%s", d);
    } else {
        snprintf(expected, size, "%s", it->what);
        snprintf(got, size, "%s", d);
    }
}

void report_tap(FILE *out, const ReportItem *items, int n)
{
    char name[NAME_MAX_SHOWN * 4 + 1];
    fprintf(out, "TAP version 14\n1..%d\n", n);
    for (int i = 0; i < n; i++) {
        const ReportItem *it = &items[i];
        fprintf(out, "%s %d - ", it->passed ? "ok" : "not ok", i + 1);
        tap_text(out, term_escape(it->file, name, sizeof name));
        if (it->line > 0)
            fprintf(out, ":%d", it->line);
        fprintf(out, " %s", kind_name(it->kind));
        if (it->kind != REPORT_REFUSED) {
            fputc(' ', out);
            tap_text(out, it->what);
        }
        fputc('\n', out);
        if (it->passed)
            continue;
        char expected[sizeof it->detail], got[sizeof it->detail];
        failure_values(it, expected, got, sizeof expected);
        fputs("  ---\n  message: ", out);
        yaml_string(out, it->detail);
        fputs("\n  severity: fail\n  file: ", out);
        yaml_string(out, name);
        fputc('\n', out);
        if (it->line > 0)   /* an unanswered exercise has no line on the sheet */
            fprintf(out, "  line: %d\n", it->line);
        if (it->col > 0)
            fprintf(out, "  column: %d\n", it->col);
        fputs("  expected: ", out);
        yaml_string(out, expected);
        fputs("\n  got: ", out);
        yaml_string(out, got);
        fputs("\n  ...\n", out);
    }
    int passed, failed;
    report_count(items, n, &passed, &failed);
    fprintf(out, "# %d passed, %d failed\n", passed, failed);
}

/* ---- JUnit XML ---- */

/* XML text or attribute value: the five entities; a byte XML 1.0 cannot
 * carry (a control, invalid UTF-8) would already be \xNN from the caller. */
static void xml_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&apos;", out); break;
        default:
            if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n')
                fputc('?', out);
            else
                fputc(*s, out);
        }
    }
}

/* A file's counts: its results, failures and refusals. */
static void file_counts(const ReportItem *items, int n, const char *file, int *tests, int *failures, int *errors)
{
    *tests = *failures = *errors = 0;
    for (int i = 0; i < n; i++)
        if (items[i].file == file || strcmp(items[i].file, file) == 0) {
            (*tests)++;
            if (!items[i].passed)
                (*(items[i].kind == REPORT_REFUSED ? errors : failures))++;
        }
}

static int seen_before(const ReportItem *items, int i)
{
    for (int k = 0; k < i; k++)
        if (strcmp(items[k].file, items[i].file) == 0)
            return 1;
    return 0;
}

static void junit_case(FILE *out, const ReportItem *it, const char *name)
{
    fputs("    <testcase classname=\"", out);
    xml_text(out, name);
    fputs("\" name=\"", out);
    if (it->kind == REPORT_REFUSED) {
        fputs("refused", out);
    } else {
        fprintf(out, "line %d: %s ", it->line, kind_name(it->kind));
        xml_text(out, it->what);
    }
    fputs("\" file=\"", out);
    xml_text(out, name);
    fprintf(out, "\" line=\"%d\"", it->line);
    if (it->passed) {
        fputs("/>\n", out);
        return;
    }
    const char *tag = it->kind == REPORT_REFUSED ? "error" : "failure";
    fprintf(out, ">\n      <%s message=\"", tag);
    xml_text(out, it->detail);
    fprintf(out, "\" type=\"%s\">", it->kind == REPORT_REFUSED ? "refused" : kind_name(it->kind));
    xml_text(out, name);
    if (it->line > 0)
        fprintf(out, ":%d", it->line);
    if (it->col > 0)
        fprintf(out, ":%d", it->col);
    fputs(": ", out);
    xml_text(out, it->detail);
    fprintf(out, "</%s>\n    </testcase>\n", tag);
}

void report_junit(FILE *out, const ReportItem *items, int n)
{
    char name[NAME_MAX_SHOWN * 4 + 1];
    int tests = 0, failures = 0, errors = 0;
    for (int i = 0; i < n; i++)
        if (!items[i].passed)
            (*(items[i].kind == REPORT_REFUSED ? &errors : &failures))++;
    tests = n;
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<testsuites name=\"attn check\" tests=\"%d\" failures=\"%d\" errors=\"%d\">\n",
            tests, failures, errors);
    for (int i = 0; i < n; i++) {
        if (seen_before(items, i))
            continue;
        int t, f, e;
        file_counts(items, n, items[i].file, &t, &f, &e);
        term_escape(items[i].file, name, sizeof name);
        fputs("  <testsuite name=\"", out);
        xml_text(out, name);
        fprintf(out, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\">\n", t, f, e);
        for (int k = i; k < n; k++)
            if (strcmp(items[k].file, items[i].file) == 0)
                junit_case(out, &items[k], name);
        fputs("  </testsuite>\n", out);
    }
    fputs("</testsuites>\n", out);
}

int report_junit_file(const char *path, const ReportItem *items, int n)
{
    char why[300] = "";
    FILE *f = filewrite_create(path, why, sizeof why);
    if (f)
        report_junit(f, items, n);
    if (!f || fclose(f) != 0) {
        fputs(f ? "attn: could not write the JUnit report " : "attn: cannot write the JUnit report ", stderr);
        report_put_name(stderr, path);
        fprintf(stderr, "%s%s\n", why[0] ? ": " : "", why);
        return -1;
    }
    return 0;
}
