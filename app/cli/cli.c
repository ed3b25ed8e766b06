/*
 * cli.c - the plain-text commands' arguments and dispatch: `attn run FILE`
 * picks a printer (handout.c the plain handout and, with --svg, the panes
 * as pictures, json_out.c the JSON object,
 * markdown.c the markdown handout, cell_explain.c one cell's arithmetic); `attn check FILE...` verifies every
 * check and exercise and hands the results to the report writers of
 * report.c (plain lines then "N passed, N failed", --tap, --junit FILE,
 * --quiet).
 *
 * Lessons are opened through the session (session.h), as the screen opens
 * them, and verified by the engine's judge (lesson_verify); nothing here
 * computes.
 * Errors go to stderr; `run` prints nothing to stdout when it fails.
 */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cell_explain.h"
#include "escape.h"
#include "filewrite.h"
#include "handout.h"
#include "json_out.h"
#include "lesson.h"
#include "teach.h"
#include "markdown.h"
#include "report.h"
#include "session.h"

static int usage_error(const char *fmt, const char *arg)
{
    char shown[1024];
    fputs("attn: ", stderr);
    fprintf(stderr, fmt, term_escape(arg, shown, sizeof shown));  /* an argument may hold anything */
    fputs("\nusage: attn run [--no-answers] [--json | --markdown OUT | --svg DIR | --explain CELL]\n"
          "                [--set KNOB=VALUE]... [--bug N [--key]] FILE\n"
          "       attn check [--tap | --quiet] [--strict] [--junit FILE] FILE...\n", stderr);
    return 2;
}

static void print_error(const LessonError *err)
{
    char buf[1024];
    fputs(term_lesson_error(err, buf, sizeof buf), stderr);
}

/* Would writing out overwrite a lesson? A name ending in .lesson, or the
 * same file as one of the lessons given (`attn check --junit
 * lessons/NN.lesson ...` with the report's name forgotten took the first lesson
 * for the report). Says so and returns 1. */
static int output_is_a_lesson(const char *opt, const char *out, char **inputs, int n)
{
    size_t len = strlen(out);
    int clash = len >= 7 && strcmp(out + len - 7, ".lesson") == 0;
    struct stat o, in;
    if (!clash && stat(out, &o) == 0)
        for (int i = 0; i < n && !clash; i++)
            clash = stat(inputs[i], &in) == 0 && in.st_dev == o.st_dev && in.st_ino == o.st_ino;
    if (clash) {
        char shown[1024];
        fprintf(stderr, "attn: %s %s would overwrite a lesson; name the file to write, e.g. %s %s\n", opt,
                term_escape(out, shown, sizeof shown), opt, strcmp(opt, "--junit") == 0 ? "report.xml" : "out.md");
    }
    return clash;
}

/* The markdown handout into path ("-" is stdout); 0, or 2 with a message
 * when the file cannot be written. */
static int write_markdown(const char *path, const Lesson *l, const SheetView *v)
{
    if (strcmp(path, "-") == 0) {
        markdown_print(stdout, l, v);
        return 0;
    }
    char why[300] = "";
    errno = 0;
    FILE *f = filewrite_create(path, why, sizeof why);
    int failed = !f;
    if (f) {
        markdown_print(f, l, v);
        failed = ferror(f);
        failed |= fclose(f) != 0;
    }
    if (failed) {
        int e = errno;
        fputs("attn: cannot write the markdown handout ", stderr);
        report_put_name(stderr, path);
        fprintf(stderr, ": %s\n", why[0] ? why : strerror(e ? e : EIO));
        return 2;
    }
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
        if (session_knob_parse(lesson_knob(l, k), eq + 1, &v, why, sizeof why) != 0) {
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
    int json = 0, with_answers = 1, want_bug = 0, key = 0;
    unsigned long bug_seed = 0;
    const char *explain = NULL, *markdown = NULL, *svg = NULL, *file = NULL, *set;
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
        } else if (strcmp(a, "--bug") == 0) {
            unsigned seed;
            if (i + 1 >= argc || lesson_bug_seed_parse(argv[i + 1], &seed) != 0)
                return usage_error("--bug needs a seed, a whole number from 0 to 4294967295 (e.g. --bug 7)%s", "");
            bug_seed = seed;
            want_bug = 1;
            i++;
        } else if (strcmp(a, "--key") == 0) {
            key = 1;
        } else if (strcmp(a, "--markdown") == 0) {
            if (i + 1 >= argc)
                return usage_error("--markdown needs a file to write, or - for stdout%s", "");
            markdown = argv[++i];
        } else if (strncmp(a, "--markdown=", 11) == 0 && a[11]) {
            markdown = a + 11;
        } else if (strcmp(a, "--svg") == 0 || (strncmp(a, "--svg=", 6) == 0 && a[6])) {
            if (!a[5] && i + 1 >= argc)
                return usage_error("--svg needs a folder to write the pictures into%s", "");
            svg = a[5] ? a + 6 : argv[++i];
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
    if (key && !want_bug)
        return usage_error("--key goes with --bug N: the answer to a planted bug%s", "");
    if (want_bug && (explain || markdown || svg))
        return usage_error("--bug goes with the plain handout or --json%s", "");
    if (!!json + !!explain + !!markdown + !!svg > 1)
        return usage_error("--json, --markdown, --svg and --explain do not go together%s", "");
    if (!with_answers && explain)
        return usage_error("--no-answers goes with a handout (plain, --json), not --explain%s", "");
    if (markdown && strcmp(markdown, "-") != 0 && output_is_a_lesson("--markdown", markdown, (char **)&file, 1))
        return 2;
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
    LessonBug bug;
    if (want_bug) {
        if (lesson_bug_plant(l, s, (unsigned)bug_seed, &bug, &err) != 0) {
            print_error(&err);
            session_free(ses);
            return 2;
        }
        s = bug.state;
    }
    /* The answers' values come from the lesson as written, the grader's one
     * source. On a bug handout for people they are printed only with
     * --key: beside the bug's numbers they would point at it. */
    SheetView view = { s, session_state(ses), want_bug ? &bug : NULL, with_answers && (!want_bug || key || json) };
    if (explain)
        status = cell_explain_print(s, explain);
    else if (json)
        /* JSON is the handout for programs and carries its answers (the
         * exercises' too) unless --no-answers: the bug's among them */
        status = json_print(stdout, l, &view, want_bug && (key || with_answers)) == 0 ? 0 : 2;
    else if (markdown)
        status = write_markdown(markdown, l, &view);
    else if (svg)
        status = handout_svg(svg, l, &view);
    else
        handout_print(stdout, l, &view);
    if (want_bug && key && !json) {
        const LessonStep *st = lesson_step(l, bug.step);
        printf("\nThe bug (seed %u)\n  the first wrong matrix: %s (step %d: %s)\n  the mistake: %s (%s)\n"
               "  as planted: %s\n  as written: %s\n", bug.seed, bug.matrix, bug.step + 1, st ? st->title : "",
               bug.kind, lesson_diagnosis_words(bug.kind) ? lesson_diagnosis_words(bug.kind) : "", bug.planted,
               bug.written);
    }
    if (want_bug)
        lesson_bug_free(&bug);
    session_free(ses);
    return fflush(stdout) != 0 || ferror(stdout) ? 2 : status;   /* said by main */
}

/* ---- check ---- */

/* The result of exercise ex among vr (by its line), or NULL. */
static VerifyResult *result_of(VerifyResult *vr, int n, const LessonExercise *ex)
{
    for (int i = 0; i < n; i++)
        if (vr[i].kind == VERIFY_EXERCISE && vr[i].line == ex->line)
            return &vr[i];
    return NULL;
}

/* One refusal of --strict for an exercise: its own result fails (the first
 * reason kept), so one exercise is one line, never both FAIL and ok. */
static void refuse_exercise(VerifyResult *r, const char *why)
{
    if (!r || !r->passed)
        return;
    r->passed = 0;
    snprintf(r->detail, sizeof r->detail, "%s", why);
}

/* A number a step's prose quotes for an exercise's value that the judge
 * would refuse: a refusal of --strict. */
typedef struct {
    VerifyResult *vr;
    int n;
} ProseCtx;

static void prose_quote(void *ctx, const LessonStep *st, const LessonExercise *ex, const char *quoted,
                        const char *why)
{
    ProseCtx *pc = ctx;
    char detail[352];
    snprintf(detail, sizeof detail,
             "the step's text (line %d) quotes %s for this answer, which the judge refuses (--strict): \"%s\"; "
             "quote the digits the exercise checks", st->line, quoted, why);
    refuse_exercise(result_of(pc->vr, pc->n, ex), detail);
}

/* --strict: what a lesson in CI must also be. */
static void strict_results(const char *file, const Session *ses, VerifyResult *vr, int n, ReportList *res,
                           int *status)
{
    for (int i = 0; i < n; i++)
        if (vr[i].kind == VERIFY_EXERCISE && !vr[i].stated)
            refuse_exercise(&vr[i], "states no expected value (--strict): write 'answer EXPR = VALUE'");
    const char *why = NULL;
    char buf[200];
    if (n == 0)
        why = "the lesson has no check and no exercise (--strict)";
    const LessonState *st = session_state(ses);
    for (int k = 0; !why && k < lesson_state_count(st); k++) {
        const Mat *m = lesson_state_at(st, k);
        for (int r = 0; !why && r < m->rows; r++)
            for (int c = 0; !why && c < m->cols; c++)
                if (isnan(mat_get(m, r, c))) {
                    snprintf(buf, sizeof buf, "%s[%d,%d] is NaN (--strict)", m->name, r + 1, c + 1);
                    why = buf;
                }
    }
    if (why) {
        ReportItem *it = report_add(res, file);
        if (it) {
            it->kind = REPORT_REFUSED;
            snprintf(it->detail, sizeof it->detail, "%s", why);
        }
        *status = *status < 1 ? 1 : *status;
    }
    /* an answer the screen gives away: read off a cell, or by a row's sum */
    const Lesson *l = session_lesson(ses);
    for (int i = 0; i < lesson_n_exercises(l); i++) {
        const LessonExercise *ex = lesson_exercise_at(l, i);
        char leak[352];
        if (lesson_exercise_leaks(l, session_asked_state(ses), ex, leak, sizeof leak))
            refuse_exercise(result_of(vr, n, ex), leak);
    }
    LessonJudge *judge = lesson_judge_new(l, session_asked_state(ses));
    ProseCtx pc = { vr, n };
    if (judge)
        lesson_judge_prose(judge, prose_quote, &pc);
    lesson_judge_free(judge);
}

/* A file refused: every error the parser found of it on stderr (at most
 * LESSON_MAX_ERRORS, and a word when there were more), and one result,
 * the first error's, counted as one failure. */
static void refused_file(const char *file, const LessonError *errs, int n, ReportList *res)
{
    int shown = n < LESSON_MAX_ERRORS ? n : LESSON_MAX_ERRORS;
    for (int i = 0; i < shown; i++)
        print_error(&errs[i]);
    if (n > shown) {
        fputs("attn: ", stderr);
        report_put_name(stderr, file);
        fprintf(stderr, ": more errors after these %d; fix them and check again\n", shown);
    }
    ReportItem *it = report_add(res, file);
    if (it) {
        it->kind = REPORT_REFUSED;
        it->line = errs[0].line;
        it->col = errs[0].col;
        if (n > 1)
            snprintf(it->detail, sizeof it->detail, "%s (and %s%d more errors, on standard error)", errs[0].msg,
                     n > shown ? "over " : "", shown - 1);
        else
            snprintf(it->detail, sizeof it->detail, "%s", errs[0].msg);
    }
}

/* Check one file and add its results to res. Returns 2 when it could not be
 * read or evaluated, 1 when something failed, 0 when all passed. */
static int check_file(const char *file, ReportList *res, int strict)
{
    /* one more than are shown: to know that there were more */
    LessonError *errs = calloc(LESSON_MAX_ERRORS + 1, sizeof *errs);
    if (!errs) {
        fprintf(stderr, "attn: out of memory checking %s\n", file);
        return 2;
    }
    int n_errs = 0;
    Session *ses = session_open_all(file, errs, LESSON_MAX_ERRORS + 1, &n_errs);
    if (!ses) {
        refused_file(file, errs, n_errs, res);
        free(errs);
        return 2;
    }
    free(errs);
    VerifyResult *vr = NULL;
    int n = 0, status = 0;
    if (lesson_verify(session_lesson(ses), session_state(ses), &vr, &n) != ATTN_OK) {
        fprintf(stderr, "attn: out of memory checking %s\n", file);
        ReportItem *it = report_add(res, file);
        if (it) {
            it->kind = REPORT_REFUSED;
            snprintf(it->detail, sizeof it->detail, "out of memory");
        }
        status = 2;
    }
    if (strict)
        strict_results(file, ses, vr, n, res, &status);
    for (int i = 0; i < n; i++) {
        ReportItem *it = report_add(res, file);
        if (!it) {
            fprintf(stderr, "attn: out of memory checking %s\n", file);
            status = 2;
            break;
        }
        it->kind = vr[i].kind == VERIFY_CHECK ? REPORT_CHECK : REPORT_EXERCISE;
        it->line = vr[i].line;
        it->passed = vr[i].passed;
        snprintf(it->what, sizeof it->what, "%s", vr[i].what);
        snprintf(it->detail, sizeof it->detail, "%s", vr[i].detail);
        if (!it->passed && status < 1)
            status = 1;
    }
    free(vr);
    session_free(ses);
    return status;
}

int cli_check(int argc, char **argv)
{
    int tap = 0, quiet = 0, strict = 0, n_files = 0, dashdash = 0;
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
        } else if (strcmp(a, "--strict") == 0) {
            strict = 1;
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
    if (junit && output_is_a_lesson("--junit", junit, (char **)files, n_files)) {
        free(files);
        return 2;
    }
    ReportList res = { 0 };
    int status = 0;
    for (int i = 0; i < n_files; i++) {
        int st = check_file(files[i], &res, strict);
        if (st > status)
            status = st;
    }
    if (tap)
        report_tap(stdout, res.items, res.n);
    else
        report_plain(stdout, res.items, res.n, quiet);
    if (junit && report_junit_file(junit, res.items, res.n) != 0)
        status = 2;
    free(res.items);
    free(files);
    return fflush(stdout) != 0 || ferror(stdout) ? 2 : status;   /* said by main */
}
