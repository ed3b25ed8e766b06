/*
 * cli.c - the plain-text commands: `attn run FILE` (a handout: every step,
 * its prose, its matrices with labelled axes), `attn run --json FILE` (the
 * JSON object of LESSON-FORMAT.md), `attn run --explain CELL FILE` (the
 * arithmetic behind one cell) and `attn check FILE...` (every check and
 * exercise, one line each, then "N passed, N failed"; --tap, --junit FILE
 * and --quiet pick the report writers of report.c).
 *
 * Lessons are opened through the session (session.h), as the screen opens
 * them, and verified by the engine's judge (lesson_verify); this file only
 * prints.
 * Errors go to stderr; `run` prints nothing to stdout when it fails.
 */
#include "cli.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "format.h"
#include "heat.h"
#include "lesson.h"
#include "report.h"
#include "session.h"
#include "text.h"

#define WRAP_COLUMNS 78

static int usage_error(const char *fmt, const char *arg)
{
    fputs("attn: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nusage: attn run [--no-answers | --json | --explain CELL] [--set KNOB=VALUE]... FILE\n"
          "       attn check [--tap | --quiet] [--junit FILE] FILE...\n", stderr);
    return 2;
}

static void print_error(const LessonError *err)
{
    char buf[1024];
    fputs(lesson_error_format(err, buf, sizeof buf), stderr);
}

/* ---- plain text ---- */

/* Print prose wrapped to WRAP_COLUMNS by the screen's wrapper (text.h),
 * each line after `indent` spaces; paragraphs stay one empty line apart. */
static void print_wrapped(FILE *out, const char *text, int indent)
{
    size_t size = 3 * strlen(text) + 16;
    char *wrapped = malloc(size), *line = malloc(size);
    if (wrapped && line) {
        text_wrap(wrapped, size, text, WRAP_COLUMNS - indent);
        for (const char *p = wrapped; (p = text_line(p, line, size));)
            fprintf(out, "%*s%s\n", line[0] ? indent : 0, "", line);
    }
    free(wrapped);
    free(line);
}

/* A line of c as wide as prefix + title. */
static void print_rule(FILE *out, const char *prefix, const char *title, char c)
{
    int w = fmt_display_width(prefix) + fmt_display_width(title);
    for (int i = 0; i < w; i++)
        fputc(c, out);
    fputc('\n', out);
}

static void pad(FILE *out, int n)
{
    for (int i = 0; i < n; i++)
        fputc(' ', out);
}

/* The lines softmax found all -inf, e.g. "  row 2 fully masked: every
 * score -inf, weights 0" (nothing when there are none). */
static void print_masked(FILE *out, const Mat *m)
{
    for (int by_rows = 1; by_rows >= 0; by_rows--) {
        int n = by_rows ? m->rows : m->cols, count = 0;
        for (int k = 0; k < n; k++)
            count += mat_line_masked(m, k, by_rows);
        if (!count)
            continue;
        fprintf(out, "  %s%s", by_rows ? "row" : "column", count > 1 ? "s" : "");
        for (int k = 0, i = 0; k < n; k++)
            if (mat_line_masked(m, k, by_rows))
                fprintf(out, i++ ? ", %d" : " %d", k + 1);
        fprintf(out, " fully masked: every score -inf, weights 0\n");
    }
}

static void print_matrix(FILE *out, const Mat *m, int heat)
{
    if (!m)
        return;
    fprintf(out, "%s  (%dx%d%s)\n", m->name, m->rows, m->cols, heat ? ", heatmap" : "");
    int label_w = 0;
    char buf[64];
    for (int i = 0; i < m->rows; i++) {
        const char *lab = mat_row_label(m, i);
        int w = lab ? fmt_display_width(lab) : snprintf(buf, sizeof buf, "%d", i + 1);
        if (w > label_w)
            label_w = w;
    }
    int *widths = calloc((size_t)m->cols, sizeof *widths);
    if (!widths)
        return;
    for (int j = 0; j < m->cols; j++) {
        const char *lab = mat_col_label(m, j);
        int w = lab ? fmt_display_width(lab) : snprintf(buf, sizeof buf, "%d", j + 1);
        for (int i = 0; i < m->rows; i++) {
            int vw = num_format(buf, sizeof buf, mat_get(m, i, j), NUM_DECIMALS_DEFAULT, 0);
            if (vw > w)
                w = vw;
        }
        widths[j] = w;
    }
    HeatScale scale = heat_scale(m);
    /* the header: column labels, right-aligned over their numbers */
    pad(out, 2 + label_w);
    for (int j = 0; j < m->cols; j++) {
        const char *lab = mat_col_label(m, j);
        if (!lab) {
            snprintf(buf, sizeof buf, "%d", j + 1);
            lab = buf;
        }
        pad(out, 2 + widths[j] - fmt_display_width(lab));
        fputs(lab, out);
    }
    fputc('\n', out);
    for (int i = 0; i < m->rows; i++) {
        const char *lab = mat_row_label(m, i);
        if (!lab) {
            snprintf(buf, sizeof buf, "%d", i + 1);
            lab = buf;
        }
        fputs("  ", out);
        fputs(lab, out);
        pad(out, label_w - fmt_display_width(lab));
        for (int j = 0; j < m->cols; j++) {
            int w = num_format(buf, sizeof buf, mat_get(m, i, j), NUM_DECIMALS_DEFAULT, 0);
            pad(out, 2 + widths[j] - w);
            fputs(buf, out);
        }
        if (heat) {
            fputs("   |", out);
            for (int j = 0; j < m->cols; j++)
                fputs(heat_shade(&scale, mat_get(m, i, j), 0), out);
            fputc('|', out);
        }
        fputc('\n', out);
    }
    if (heat) {
        /* say what the shades stand for, so a printed heatmap reads alone */
        char legend[200];
        heat_legend(&scale, legend, sizeof legend, NUM_DECIMALS_DEFAULT);
        fprintf(out, "  %s\n", legend);
    }
    print_masked(out, m);
    fputc('\n', out);
    free(widths);
}

static int in_list(char **names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return 1;
    return 0;
}

/* The lesson as a plain-text handout; with_answers 0 leaves the answers
 * out (hints stay) so the sheet can be handed to students. */
static void print_handout(FILE *out, const Lesson *l, const LessonState *s, int with_answers)
{
    fputs(lesson_title(l), out);
    fputc('\n', out);
    print_rule(out, "", lesson_title(l), '=');
    if (*lesson_about(l)) {
        fputc('\n', out);
        print_wrapped(out, lesson_about(l), 0);
    }
    if (lesson_n_tokens(l) > 0) {
        fprintf(out, "\nTokens (%s):", lesson_layout(l) == LAYOUT_ROWS ? "one per row" : "one per column");
        for (int i = 0; i < lesson_n_tokens(l); i++)
            fprintf(out, " %s", lesson_token(l, i));
        fputc('\n', out);
    }
    if (lesson_n_setup(l) > 0) {
        fputs("\nSet-up\n------\n\n", out);
        for (int i = 0; i < lesson_n_setup(l); i++)
            print_matrix(out, lesson_state_get(s, lesson_setup_name(l, i)), 0);
    }
    int n = lesson_n_steps(l);
    for (int k = 0; k < n; k++) {
        const LessonStep *st = lesson_step(l, k);
        char head[64];
        snprintf(head, sizeof head, "Step %d/%d: ", k + 1, n);
        fprintf(out, "\n%s%s\n", head, st->title);
        print_rule(out, head, st->title, '-');
        if (st->text[0]) {
            fputc('\n', out);
            print_wrapped(out, st->text, 0);
        }
        fputc('\n', out);
        for (int i = 0; i < st->n_show; i++)
            print_matrix(out, lesson_state_get(s, st->show[i]), in_list(st->heatmap, st->n_heatmap, st->show[i]));
        for (int e = 0; e < st->n_exercises; e++) {
            const LessonExercise *ex = &st->exercises[e];
            fputs("Exercise: ", out);
            print_wrapped(out, ex->question, 0);
            for (int h = 0; h < ex->n_hints; h++) {
                fprintf(out, "  Hint %d: ", h + 1);
                print_wrapped(out, ex->hints[h], 0);
            }
            if (!with_answers) {
                fputs("  Answer: ____________\n\n", out);
                continue;
            }
            LessonError err;
            Mat *v = lesson_eval_expr(s, ex->answer, &err);
            if (v && v->rows == 1 && v->cols == 1) {
                char buf[64];
                num_format(buf, sizeof buf, mat_get(v, 0, 0), NUM_DECIMALS_DEFAULT, 0);
                fprintf(out, "  Answer: %s = %s\n", ex->answer, buf);
            } else {
                fprintf(out, "  Answer: %s\n", ex->answer);
            }
            mat_free(v);
            fputc('\n', out);
        }
    }
}

/* ---- JSON ---- */

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p == '\t')
            fputs("\\t", out);
        else if (*p < 0x20 || *p == 0x7f)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

static void json_number(FILE *out, float v)
{
    if (isnan(v))
        fputs("\"nan\"", out);
    else if (isinf(v))
        fputs(v > 0 ? "\"inf\"" : "\"-inf\"", out);
    else
        fprintf(out, "%.9g", (double)v);
}

static void json_names(FILE *out, char **names, int n)
{
    fputc('[', out);
    for (int i = 0; i < n; i++) {
        if (i)
            fputs(", ", out);
        json_string(out, names[i]);
    }
    fputc(']', out);
}

static void print_json(FILE *out, const Lesson *l, const LessonState *s)
{
    fputs("{\"lesson\": ", out);
    json_string(out, lesson_title(l));
    fprintf(out, ", \"layout\": \"%s\",\n \"steps\": [", lesson_layout(l) == LAYOUT_ROWS ? "rows" : "columns");
    for (int k = 0; k < lesson_n_steps(l); k++) {
        const LessonStep *st = lesson_step(l, k);
        fputs(k ? ",\n  {\"title\": " : "\n  {\"title\": ", out);
        json_string(out, st->title);
        fputs(", \"show\": ", out);
        json_names(out, st->show, st->n_show);
        fputs(", \"heatmap\": ", out);
        json_names(out, st->heatmap, st->n_heatmap);
        fputc('}', out);
    }
    fputs("],\n \"matrices\": {", out);
    for (int i = 0; i < lesson_state_count(s); i++) {
        const Mat *m = lesson_state_at(s, i);
        fputs(i ? ",\n  " : "\n  ", out);
        json_string(out, m->name);
        fprintf(out, ": {\"rows\": %d, \"cols\": %d, \"data\": [", m->rows, m->cols);
        for (int r = 0; r < m->rows; r++) {
            fputs(r ? ", [" : "[", out);
            for (int c = 0; c < m->cols; c++) {
                if (c)
                    fputs(", ", out);
                json_number(out, mat_get(m, r, c));
            }
            fputc(']', out);
        }
        fputs("]}", out);
    }
    fputs("}}\n", out);
}

/* ---- explain ---- */

/* "NAME[ROW,COL]" (1-based, blanks allowed) into its parts; 1 on success. */
static int parse_cell(const char *spec, char *name, size_t size, int *row, int *col)
{
    const char *p = spec;
    while (*p == ' ')
        p++;
    const char *start = p;
    while (isalnum((unsigned char)*p) || *p == '_')
        p++;
    size_t n = (size_t)(p - start);
    if (n == 0 || n >= size || isdigit((unsigned char)*start))
        return 0;
    memcpy(name, start, n);
    name[n] = '\0';
    char close;
    int used = 0;
    if (sscanf(p, " [ %d , %d %c%n", row, col, &close, &used) != 3 || close != ']')
        return 0;
    for (p += used; *p == ' '; p++)
        ;
    return *p == '\0';
}

static int run_explain(const LessonState *s, const char *spec)
{
    char name[MAT_NAME_MAX];
    int row, col;
    if (!parse_cell(spec, name, sizeof name, &row, &col)) {
        fprintf(stderr, "attn: bad cell '%s': write NAME[ROW,COL] with 1-based indices, e.g. 'A[2,1]'\n", spec);
        return 2;
    }
    const Mat *m = lesson_state_get(s, name);
    if (!m) {
        const char *near = lesson_state_nearest(s, name);
        fprintf(stderr, "attn: the lesson defines no matrix '%s'%s%s%s\n", name, near ? "; did you mean '" : "",
                near ? near : "", near ? "'?" : "");
        return 2;
    }
    if (row < 1 || row > m->rows || col < 1 || col > m->cols) {
        fprintf(stderr, "attn: %s[%d,%d] is outside %s, which is %dx%d (indices start at 1)\n", name, row, col,
                name, m->rows, m->cols);
        return 2;
    }
    Explanation ex;
    memset(&ex, 0, sizeof ex);
    AttnError err = { 0 };
    if (explain_cell(&ex, m, row - 1, col - 1, &err) != ATTN_OK) {
        fprintf(stderr, "attn: cannot explain %s[%d,%d]: %s\n", name, row, col,
                err.msg[0] ? err.msg : attn_status_str(err.code));
        explain_free(&ex);
        return 2;
    }
    fputs(ex.text ? ex.text : "", stdout);
    if (ex.text && ex.text[0] && ex.text[strlen(ex.text) - 1] != '\n')
        fputc('\n', stdout);
    explain_free(&ex);
    return 0;
}

/* The KNOB=VALUE of a `--set` at argv[*i] (`--set X=1` or `--set=X=1`),
 * moving *i past it; NULL when argv[*i] is not one. "" when it lacks the
 * value. */
static const char *set_arg(int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (strncmp(a, "--set=", 6) == 0)
        return a + 6;
    if (strcmp(a, "--set") != 0)
        return NULL;
    return *i + 1 < argc ? argv[++*i] : "";
}

/* Apply every `--set KNOB=VALUE` of argv to the session's knobs, in order.
 * 0, or 2 after saying why (an unknown knob, with the lesson's knobs; a
 * value that is not a number or on/off, or outside the range). */
static int apply_sets(Session *ses, const char *file, int argc, char **argv)
{
    const Lesson *l = session_lesson(ses);
    for (int i = 1; i < argc; i++) {
        const char *set = set_arg(argc, argv, &i);
        if (!set)
            continue;
        const char *eq = strchr(set, '=');
        char name[MAT_NAME_MAX];
        snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - set) : 0, set);
        int k = eq ? lesson_knob_find(l, name) : -1;
        if (k < 0) {
            char msg[700];
            snprintf(msg, sizeof msg, "%s has no knob '%s'; its knobs:", file, name);
            for (int j = 0; j < lesson_n_knobs(l); j++)
                snprintf(msg + strlen(msg), sizeof msg - strlen(msg), " %s", lesson_knob(l, j)->name);
            return usage_error("%s", lesson_n_knobs(l) ? msg : strcat(msg, " none"));
        }
        double v;
        char why[200];
        if (!session_knob_parse(lesson_knob(l, k), eq + 1, &v, why, sizeof why)) {
            fprintf(stderr, "attn: %s: --set %s\n", file, why);
            return 2;
        }
        session_knob_set(ses, k, v);
        if (session_knob_value(ses, k) != (float)v)
            fprintf(stderr, "attn: %s: %s moves by %g from %g, so %g is used\n", file, name, lesson_knob(l, k)->step,
                    lesson_knob(l, k)->lo, session_knob_value(ses, k));
    }
    return 0;
}

int cli_run(int argc, char **argv)
{
    int json = 0, with_answers = 1;
    const char *explain = NULL, *file = NULL, *set;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((set = set_arg(argc, argv, &i)) != NULL) {
            if (!strchr(set, '='))
                return usage_error("--set takes KNOB=VALUE, e.g. --set T=2 (got '%s')", set);
        } else if (strcmp(a, "--json") == 0) {
            json = 1;
        } else if (strcmp(a, "--no-answers") == 0) {
            with_answers = 0;
        } else if (strcmp(a, "--explain") == 0) {
            if (i + 1 >= argc)
                return usage_error("--explain needs a cell, e.g. --explain 'A[2,1]'%s", "");
            explain = argv[++i];
        } else if (strncmp(a, "--explain=", 10) == 0) {
            explain = a + 10;
        } else if (strcmp(a, "--") == 0 && i + 1 < argc && !file) {
            file = argv[++i];
        } else if (a[0] == '-' && a[1] != '\0') {
            return usage_error("unknown option '%s'", a);
        } else if (file) {
            return usage_error("run takes one lesson file (got a second: '%s')", a);
        } else {
            file = a;
        }
    }
    if (!file)
        return usage_error("run needs a lesson file%s", "");
    if (json && explain)
        return usage_error("--json and --explain do not go together%s", "");
    if (!with_answers && (json || explain))
        return usage_error("--no-answers goes with the plain-text handout only%s", "");
    LessonError err;
    Session *ses = session_open(file, &err);
    if (!ses) {
        print_error(&err);
        return 2;
    }
    int set_status = apply_sets(ses, file, argc, argv);
    if (set_status) {
        session_free(ses);
        return set_status;
    }
    const Lesson *l = session_lesson(ses);
    const LessonState *s = session_state(ses);
    int status = 0;
    if (explain)
        status = run_explain(s, explain);
    else if (json)
        print_json(stdout, l, s);
    else
        print_handout(stdout, l, s, with_answers);
    session_free(ses);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "attn: could not write the output\n");
        return 2;
    }
    return status;
}

/* ---- check ---- */

typedef struct {
    ReportItem *items;
    int n, cap;
} Results;

/* A new zeroed result for file at the end of res, or NULL (out of memory). */
static ReportItem *add_result(Results *res, const char *file)
{
    if (res->n == res->cap) {
        int cap = res->cap ? 2 * res->cap : 64;
        ReportItem *bigger = realloc(res->items, (size_t)cap * sizeof *bigger);
        if (!bigger)
            return NULL;
        res->items = bigger;
        res->cap = cap;
    }
    ReportItem *it = &res->items[res->n++];
    memset(it, 0, sizeof *it);
    it->file = file;
    return it;
}

/* Check one file and add its results to res. Returns 2 when it could not be
 * read or evaluated, 1 when something failed, 0 when all passed. */
static int check_file(const char *file, Results *res)
{
    LessonError err;
    Session *ses = session_open(file, &err);
    if (!ses) {
        print_error(&err);
        ReportItem *it = add_result(res, file);
        if (it) {
            it->kind = REPORT_REFUSED;
            it->line = err.line;
            it->col = err.col;
            snprintf(it->detail, sizeof it->detail, "%s", err.msg);
        }
        return 2;
    }
    VerifyResult *vr = NULL;
    int n = 0, status = 0;
    if (lesson_verify(session_lesson(ses), session_state(ses), &vr, &n) != ATTN_OK) {
        fprintf(stderr, "attn: out of memory checking %s\n", file);
        ReportItem *it = add_result(res, file);
        if (it) {
            it->kind = REPORT_REFUSED;
            snprintf(it->detail, sizeof it->detail, "out of memory");
        }
        status = 2;
    }
    for (int i = 0; i < n; i++) {
        ReportItem *it = add_result(res, file);
        if (!it) {
            fprintf(stderr, "attn: out of memory checking %s\n", file);
            status = 2;
            break;
        }
        it->kind = vr[i].kind == VERIFY_CHECK ? REPORT_CHECK : REPORT_EXERCISE;
        it->line = vr[i].line;
        it->passed = vr[i].passed;
        memcpy(it->what, vr[i].what, sizeof it->what);
        memcpy(it->detail, vr[i].detail, sizeof it->detail);
        if (!it->passed && status < 1)
            status = 1;
    }
    free(vr);
    session_free(ses);
    return status;
}

/* Write the JUnit report to path; 0 on success. */
static int write_junit(const char *path, const Results *res)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fputs("attn: cannot write the JUnit report ", stderr);
        report_put_name(stderr, path);
        fputc('\n', stderr);
        return -1;
    }
    report_junit(f, res->items, res->n);
    if (fclose(f) != 0) {
        fputs("attn: could not write the JUnit report ", stderr);
        report_put_name(stderr, path);
        fputc('\n', stderr);
        return -1;
    }
    return 0;
}

int cli_check(int argc, char **argv)
{
    int tap = 0, quiet = 0, n_files = 0, dashdash = 0;
    const char *junit = NULL;
    const char **files = calloc((size_t)argc, sizeof *files);
    if (!files)
        return 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (dashdash || a[0] != '-' || a[1] == '\0') {
            files[n_files++] = a;
        } else if (strcmp(a, "--") == 0) {
            dashdash = 1;
        } else if (strcmp(a, "--tap") == 0) {
            tap = 1;
        } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
            quiet = 1;
        } else if (strcmp(a, "--junit") == 0 && i + 1 < argc) {
            junit = argv[++i];
        } else if (strncmp(a, "--junit=", 8) == 0 && a[8]) {
            junit = a + 8;
        } else {
            free(files);
            if (strncmp(a, "--junit", 7) == 0)
                return usage_error("--junit needs a file to write, e.g. --junit report.xml%s", "");
            return usage_error("unknown option '%s'", a);
        }
    }
    if (n_files == 0 || (tap && quiet)) {
        free(files);
        return n_files ? usage_error("--tap and --quiet do not go together (TAP lists every result)%s", "")
                       : usage_error("check needs at least one lesson file%s", "");
    }
    Results res = { 0 };
    int status = 0;
    for (int i = 0; i < n_files; i++) {
        int st = check_file(files[i], &res);
        if (st > status)
            status = st;
    }
    if (tap)
        report_tap(stdout, res.items, res.n);
    else
        report_plain(stdout, res.items, res.n, quiet);
    if (junit && write_junit(junit, &res) != 0)
        status = 2;
    free(res.items);
    free(files);
    if (fflush(stdout) != 0) {
        fprintf(stderr, "attn: could not write the output\n");
        return 2;
    }
    return status;
}
