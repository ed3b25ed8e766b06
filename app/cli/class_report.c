/*
 * class_report.c - `attn class-report [--csv] LOG`: what a class answered,
 * from the log `attn --class --log LOG` wrote. Per exercise: how many
 * students answered, how many were right at their last answer, and the
 * diagnoses of the wrong ones, most common first; then per student their
 * answers in order. `--csv` gives every answer as a row (name, lesson,
 * exercise, answer, verdict, diagnosis, time) for a spreadsheet.
 *
 * Exit status: 0, or 2 when the log cannot be read (it names the line).
 */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "class_log.h"
#include "escape.h"
#include "format.h"
#include "lesson.h"
#include "teach.h"

static int report_usage(const char *why)
{
    fprintf(stderr, "attn: %s\nusage: attn class-report [--csv] LOG\n", why);
    return 2;
}

/* Is s a plain number (the answers a class types: -0.5321, +2)? */
static int plain_number(const char *s)
{
    char *end;
    if (!*s)
        return 0;
    strtod(s, &end);
    return *end == '\0' && !strpbrk(s, "xXpPnNiI");
}

/* One cell: the bytes a terminal acts on escaped (term_escape), quoted
 * where it holds a comma, a quote or a line end, and a cell a spreadsheet
 * would read as a formula (= + - @ first, not a number) given a leading
 * apostrophe, so =HYPERLINK(...) typed as an answer stays text. */
static void csv_field(const char *raw, int last)
{
    char safe[1024];
    const char *s = term_escape(raw, safe, sizeof safe);
    int formula = strchr("=+-@", s[0]) && s[0] && !plain_number(s);
    if (formula || strpbrk(s, ",\"\n\r")) {
        putchar('"');
        if (formula)
            putchar('\'');
        for (; *s; s++) {
            if (*s == '"')
                putchar('"');
            putchar(*s);
        }
        putchar('"');
    } else {
        fputs(s, stdout);
    }
    putchar(last ? '\n' : ',');
}

static void print_csv(const ClassLogEntry *e, int n)
{
    printf("name,lesson,exercise,answer,verdict,diagnosis,time\n");
    for (int i = 0; i < n; i++) {
        char num[32];
        csv_field(e[i].name, 0);
        csv_field(e[i].lesson, 0);
        snprintf(num, sizeof num, "%d", e[i].exercise);
        csv_field(num, 0);
        csv_field(e[i].answer, 0);
        csv_field(e[i].verdict, 0);
        csv_field(e[i].diagnosis, 0);
        snprintf(num, sizeof num, "%lld", e[i].time);
        csv_field(num, 1);
    }
}

static int by_number(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Is entry i the last answer its student gave to its exercise? */
static int is_last(const ClassLogEntry *e, int n, int i)
{
    for (int k = i + 1; k < n; k++)
        if (e[k].exercise == e[i].exercise && strcmp(e[k].name, e[i].name) == 0 &&
            strcmp(e[k].lesson, e[i].lesson) == 0)
            return 0;
    return 1;
}

/* The exercises whose answers line up in columns (a log's numbers past it
 * are printed as they come). */
#define ALIGN_EXERCISES 256

static int imax(int a, int b) { return a > b ? a : b; }

/* One answer of a student's line: "1 ✗ 0.5371 (sign)", into buf. */
static const char *answer_item(const ClassLogEntry *e, char *buf, size_t size)
{
    char ans[200], diag[200];
    snprintf(buf, size, "%d %s %s%s%s%s", e->exercise, strcmp(e->verdict, "right") == 0 ? "✓" : "✗",
             term_escape(e->answer, ans, sizeof ans), e->diagnosis[0] ? " (" : "",
             e->diagnosis[0] ? term_escape(e->diagnosis, diag, sizeof diag) : "", e->diagnosis[0] ? ")" : "");
    return buf;
}

static void print_exercise(const ClassLogEntry *e, int n, const char *lesson, int k)
{
    int students = 0, right = 0, answers = 0;
    const char *ids[64];
    int counts[64], n_ids = 0;
    for (int i = 0; i < n; i++) {
        if (e[i].exercise != k || strcmp(e[i].lesson, lesson) != 0)
            continue;
        answers++;
        if (!is_last(e, n, i))
            continue;
        students++;
        if (strcmp(e[i].verdict, "right") == 0) {
            right++;
            continue;
        }
        int d = 0;
        while (d < n_ids && strcmp(ids[d], e[i].diagnosis) != 0)
            d++;
        if (d == n_ids && n_ids < 64) {
            ids[n_ids] = e[i].diagnosis;
            counts[n_ids++] = 0;
        }
        if (d < n_ids)
            counts[d]++;
    }
    printf("Exercise %d: %d student%s answered, %d right at their last answer (%d%%), %d answer%s in all\n", k,
           students, students == 1 ? "" : "s", right, students ? (200 * right + students) / (2 * students) : 0, answers,
           answers == 1 ? "" : "s");
    for (int shown = 0; shown < n_ids; shown++) {
        int best = -1;
        for (int d = 0; d < n_ids; d++)
            if (counts[d] > 0 && (best < 0 || counts[d] > counts[best]))
                best = d;
        if (best < 0)
            break;
        const char *words = ids[best][0] ? lesson_diagnosis_words(ids[best]) : NULL;
        char safe[200];
        printf("  %3d  %s%s%s\n", counts[best],
               ids[best][0] ? term_escape(ids[best], safe, sizeof safe) : "wrong, no mistake named",
               words ? ": " : "", words ? words : "");
        counts[best] = 0;
    }
}

static void print_text(const ClassLogEntry *e, int n, const char *raw_path)
{
    char path_shown[1024];
    const char *path = term_escape(raw_path, path_shown, sizeof path_shown);
    char safe[1200];
    for (int i = 0; i < n; i++) {
        /* each lesson of the log once, in the order it first appears */
        int seen = 0;
        for (int k = 0; k < i && !seen; k++)
            seen = strcmp(e[k].lesson, e[i].lesson) == 0;
        if (seen)
            continue;
        const char *lesson = e[i].lesson;
        int students = 0;
        for (int k = 0; k < n; k++) {
            if (strcmp(e[k].lesson, lesson) != 0)
                continue;
            int first = 1;
            for (int q = 0; q < k && first; q++)
                first = !(strcmp(e[q].lesson, lesson) == 0 && strcmp(e[q].name, e[k].name) == 0);
            students += first;
        }
        printf("%s (%s): %d student%s\n\n", term_escape(lesson, safe, sizeof safe), path, students,
               students == 1 ? "" : "s");
        /* the exercises answered, in order: each number once, never a
         * count from 1 to the largest (2147483647 looped for ever) */
        int *asked = malloc((size_t)(n > 0 ? n : 1) * sizeof *asked), n_asked = 0;
        for (int q = 0; asked && q < n; q++)
            if (strcmp(e[q].lesson, lesson) == 0)
                asked[n_asked++] = e[q].exercise;
        if (asked)
            qsort(asked, (size_t)n_asked, sizeof *asked, by_number);
        for (int q = 0; asked && q < n_asked; q++)
            if (q == 0 || asked[q] != asked[q - 1])
                print_exercise(e, n, lesson, asked[q]);
        free(asked);
        printf("\nStudents\n");
        /* in columns: the names, and each exercise's answers as wide as
         * its widest */
        int name_w = 0, item_w[ALIGN_EXERCISES] = { 0 };
        char item[512];
        for (int q = 0; q < n; q++)
            if (strcmp(e[q].lesson, lesson) == 0) {
                name_w = imax(name_w, fmt_display_width(term_escape(e[q].name, safe, sizeof safe)) + 1);
                if (e[q].exercise > 0 && e[q].exercise < ALIGN_EXERCISES)
                    item_w[e[q].exercise] = imax(item_w[e[q].exercise], fmt_display_width(answer_item(&e[q], item,
                                                                                                  sizeof item)));
            }
        for (int k = 0; k < n; k++) {
            if (strcmp(e[k].lesson, lesson) != 0)
                continue;
            int first = 1;
            for (int q = 0; q < k && first; q++)
                first = !(strcmp(e[q].lesson, lesson) == 0 && strcmp(e[q].name, e[k].name) == 0);
            if (!first)
                continue;
            snprintf(item, sizeof item, "%s:", term_escape(e[k].name, safe, sizeof safe));
            printf("  %s", item);
            int owed = name_w - fmt_display_width(item);    /* blanks due before the next item */
            for (int q = k; q < n; q++) {
                if (strcmp(e[q].lesson, lesson) != 0 || strcmp(e[q].name, e[k].name) != 0)
                    continue;
                printf("%*s  %s", owed, "", answer_item(&e[q], item, sizeof item));
                owed = e[q].exercise > 0 && e[q].exercise < ALIGN_EXERCISES
                       ? item_w[e[q].exercise] - fmt_display_width(item) : 0;
            }
            putchar('\n');
        }
        putchar('\n');
    }
    if (n == 0)
        printf("%s: no answers yet\n", path);
}

int cli_class_report(int argc, char **argv)
{
    int csv = 0;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--csv") == 0)
            csv = 1;
        else if (argv[i][0] == '-' && argv[i][1])
            return report_usage("unknown option");
        else if (!path)
            path = argv[i];
        else
            return report_usage("one log at a time");
    }
    if (!path)
        return report_usage("class-report needs the log a class wrote (attn --class --log FILE)");
    ClassLogEntry *e;
    int n, skipped;
    char why[1200];
    char shown[sizeof why * 4];
    if (class_log_read(path, &e, &n, &skipped, why, sizeof why) != 0) {
        fprintf(stderr, "attn: %s\n", term_escape(why, shown, sizeof shown));
        return 2;
    }
    if (skipped)
        fprintf(stderr, "attn: %s%s (%d line%s not read; the whole ones are reported)\n",
                term_escape(why, shown, sizeof shown), skipped > 1 ? ", and more" : "", skipped,
                skipped == 1 ? "" : "s");
    if (csv)
        print_csv(e, n);
    else
        print_text(e, n, path);
    class_log_entries_free(e, n);
    /* 1: reported, but some line of the log was not an answer */
    return fflush(stdout) != 0 ? 2 : skipped ? 1 : 0;
}
