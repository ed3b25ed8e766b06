/*
 * check_lessons.c - the shipped lessons against the reference numbers.
 *
 * For every reference file (the .ref files of tests/reference, torch-randn.ref
 * aside) the lesson(s) that reproduce it are run with `attn run --json`, the
 * matrices are read out of the JSON, and EVERY matrix and scalar of the
 * .ref is compared (1e-5 relative): a failure names the lesson, the matrix,
 * the max difference and where. Every shipped lesson must also pass
 * `attn check` (closing line `N passed, 0 failed`, N = its checks and
 * exercises), and be built the way lessons/README.md asks: a title, a menu
 * line that fits the menu, labelled tokens, text on every step, an exercise
 * with a stated value and a hint on every step that defines something,
 * panes on every step, heatmaps among them.
 *
 * The JSON is read with tests/json.c; the "limits" case tests that reader
 * and shows the comparison catches a wrong number.
 */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "json.h"
#include "lesson.h"
#include "lesson_internal.h"
#include "lessonfile.h"
#include "mat.h"
#include "refdata.h"
#include "testutil.h"

#define REL_TOL 1e-5
#define ABOUT_MAX 70    /* what the lesson menu shows of an 'about' line at 80 columns */

/* The matrix `name` of an `attn run --json` document as a new Mat (the
 * caller frees), or NULL with the reason in why. */
static Mat *json_matrix(const JVal *root, const char *name, char *why, size_t why_size)
{
    const JVal *m = json_get(json_get(root, "matrices"), name);
    if (!m) {
        snprintf(why, why_size, "%s: not defined by the lesson", name);
        return NULL;
    }
    const JVal *jr = json_get(m, "rows"), *jc = json_get(m, "cols"), *data = json_get(m, "data");
    if (!jr || jr->type != J_NUM || !jc || jc->type != J_NUM || !data || data->type != J_ARR) {
        snprintf(why, why_size, "%s: not an object with rows, cols and data", name);
        return NULL;
    }
    int rows = (int)jr->num, cols = (int)jc->num;
    if (data->n != rows) {
        snprintf(why, why_size, "%s: %d rows of data for rows = %d", name, data->n, rows);
        return NULL;
    }
    AttnError err;
    Mat *out = mat_new(rows, cols, &err);
    if (!out) {
        snprintf(why, why_size, "%s: %s", name, err.msg);
        return NULL;
    }
    for (int i = 0; i < rows; i++) {
        const JVal *row = &data->items[i];
        if (row->type != J_ARR || row->n != cols) {
            snprintf(why, why_size, "%s: row %d does not hold %d values", name, i + 1, cols);
            mat_free(out);
            return NULL;
        }
        for (int j = 0; j < cols; j++) {
            double x;
            if (json_number(&row->items[j], &x) < 0) {
                snprintf(why, why_size, "%s: [%d,%d] is not a number", name, i + 1, j + 1);
                mat_free(out);
                return NULL;
            }
            mat_set(out, i, j, (float)x);
        }
    }
    return out;
}

/* ------------------------------------------------------------------ */
/* Lessons and their reference files                                   */
/* ------------------------------------------------------------------ */

#define MAX_PARTS 3

/* Which lessons reproduce which reference file. A file may be split over
 * several lessons; each of its entries must be defined by at least one, and
 * every lesson that defines it must match it. */
static const struct {
    const char *ref;
    const char *lessons[MAX_PARTS];
} REF_LESSONS[] = {
    { "004-key-query.ref", { "01-key-query.lesson" } },
    { "001-sky-is-blue.ref", { "02-sky-is-blue.lesson" } },
    { "000-self-attention-exercises.ref", { "03-self-attention-steps.lesson" } },
    { "000-multihead.ref", { "04-two-heads.lesson" } },
    { "002-attention-layer.ref", { "05-attention-layer.lesson" } },
    { "003-transformer-encoder.ref",
      { "06-encoder.lesson", "07-positional-encoding.lesson", "08-causal-mask.lesson" } },
};
#define N_REF_LESSONS ((int)(sizeof REF_LESSONS / sizeof REF_LESSONS[0]))

/* Append printf-style text to buf (always NUL-terminated). */
static void appendf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void appendf(char *buf, size_t size, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, size - used, fmt, ap);
    va_end(ap);
}

/* Run `attn run --json` on path into *root; 0 on success, else -1 with the
 * reason (exit status, stderr, or the JSON error) in why. */
static int run_json(const char *path, JVal *root, char *why, size_t why_size)
{
    CmdResult r = cmd_runf("'%s' run --json '%s'", attn_bin(), path);
    int rc = -1;
    char jerr[200];
    if (r.status != 0)
        snprintf(why, why_size, "attn run --json %s: exit %d: %.300s", path, r.status, r.err);
    else if (json_parse(r.out, root, jerr, sizeof jerr) < 0)
        snprintf(why, why_size, "attn run --json %s: %s", path, jerr);
    else
        rc = 0;
    cmd_free(&r);
    return rc;
}

/* Compare every entry of rf with the lessons' documents (names[i] is the
 * lesson of docs[i]). Failures are appended to report; returns their count. */
static int compare_reference(const RefFile *rf, const JVal *docs, const char *const *names, int n_docs,
                             char *report, size_t report_size)
{
    int failures = 0;
    for (int e = 0; e < rf->n; e++) {
        const RefEntry *entry = &rf->entries[e];
        int found = 0;
        for (int d = 0; d < n_docs; d++) {
            if (!json_get(json_get(&docs[d], "matrices"), entry->name))
                continue;
            found = 1;
            char why[400] = "";
            Mat *m = json_matrix(&docs[d], entry->name, why, sizeof why);
            if (!m || !ref_compare(m, entry, REL_TOL, why, sizeof why)) {
                appendf(report, report_size, "%s: %s\n", names[d], why);
                failures++;
            }
            mat_free(m);
        }
        if (!found) {
            appendf(report, report_size, "%s: %s is not defined by", rf->path, entry->name);
            for (int d = 0; d < n_docs; d++)
                appendf(report, report_size, " %s", names[d]);
            appendf(report, report_size, "\n");
            failures++;
        }
    }
    return failures;
}

/* "rows" or "columns": what the reference file's header says. */
static const char *ref_layout(const char *ref_name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", ref_dir(), ref_name);
    char *text = slurp(path);
    const char *layout = text && strstr(text, "COLUMNS") ? "columns" : "rows";
    free(text);
    return layout;
}

START_TEST(test_lessons_reproduce_reference)
{
    const char *ref_name = REF_LESSONS[_i].ref;
    RefFile rf;
    char msg[512];
    ck_assert_msg(ref_load(&rf, ref_name, msg, sizeof msg) == 0, "%s", msg);
    ck_assert_msg(rf.n > 0, "%s holds no matrices", rf.path);

    JVal docs[MAX_PARTS];
    const char *names[MAX_PARTS];
    int n_docs = 0;
    char report[8192] = "";
    const char *want_layout = ref_layout(ref_name);
    for (int k = 0; k < MAX_PARTS && REF_LESSONS[_i].lessons[k]; k++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", lessons_dir(), REF_LESSONS[_i].lessons[k]);
        char why[600];
        if (run_json(path, &docs[n_docs], why, sizeof why) < 0) {
            appendf(report, sizeof report, "%s\n", why);
            continue;
        }
        const JVal *layout = json_get(&docs[n_docs], "layout");
        if (!layout || layout->type != J_STR || strcmp(layout->str, want_layout) != 0)
            appendf(report, sizeof report, "%s: layout %s, but %s is laid out in %s\n",
                    REF_LESSONS[_i].lessons[k], layout && layout->str ? layout->str : "(none)",
                    ref_name, want_layout);
        names[n_docs++] = REF_LESSONS[_i].lessons[k];
    }
    int failures = report[0] ? 1 : 0;
    failures += compare_reference(&rf, docs, names, n_docs, report, sizeof report);
    for (int d = 0; d < n_docs; d++)
        json_free(&docs[d]);
    int entries = rf.n;
    ref_free(&rf);
    ck_assert_msg(failures == 0, "%s (%d entries): %d failure(s):\n%s", ref_name, entries, failures, report);
}
END_TEST

/* Every reference file but the generator's is reproduced by some lesson. */
START_TEST(test_every_reference_has_a_lesson)
{
    DIR *dir = opendir(ref_dir());
    ck_assert_msg(dir != NULL, "cannot open the reference directory %s (set ATTN_REF)", ref_dir());
    struct dirent *de;
    int seen = 0;
    char missing[1024] = "";
    while ((de = readdir(dir))) {
        size_t len = strlen(de->d_name);
        if (len < 5 || strcmp(de->d_name + len - 4, ".ref") != 0 || strcmp(de->d_name, "torch-randn.ref") == 0)
            continue;
        seen++;
        int listed = 0;
        for (int i = 0; i < N_REF_LESSONS; i++)
            listed |= strcmp(REF_LESSONS[i].ref, de->d_name) == 0;
        if (!listed)
            appendf(missing, sizeof missing, " %s", de->d_name);
    }
    closedir(dir);
    ck_assert_msg(seen == N_REF_LESSONS, "%d reference files, %d listed", seen, N_REF_LESSONS);
    ck_assert_msg(missing[0] == '\0', "reference files no lesson reproduces:%s", missing);
}
END_TEST

/* The shipped lessons, sorted (a NULL-terminated list, or NULL). */
static char **shipped(void)
{
    return lessonfile_list(lessons_dir());
}

static int n_shipped(void)
{
    char **paths = shipped();
    int n = 0;
    while (paths && paths[n])
        n++;
    lessonfile_list_free(paths);
    return n;
}

/* How many results `attn check` should report for path: its checks and
 * exercises, as the language counts them. -1 when it does not evaluate. */
static int expected_results(const char *path, char *why, size_t why_size)
{
    LessonError err;
    Lesson *l = lessonfile_load(path, &err);
    if (!l) {
        lesson_error_format(&err, why, why_size);
        return -1;
    }
    LessonState *s = lesson_eval(l, NULL, 0, &err);
    int n = -1;
    VerifyResult *results = NULL;
    if (!s)
        lesson_error_format(&err, why, why_size);
    else if (lesson_verify(l, s, &results, &n) != ATTN_OK)
        snprintf(why, why_size, "%s: lesson_verify failed", path), n = -1;
    free(results);
    lesson_state_free(s);
    lesson_free(l);
    return n;
}

/* The last non-empty line of text, into line. */
static void last_line(const char *text, char *line, size_t size)
{
    const char *end = text + strlen(text);
    while (end > text && (end[-1] == '\n' || end[-1] == ' '))
        end--;
    const char *start = end;
    while (start > text && start[-1] != '\n')
        start--;
    snprintf(line, size, "%.*s", (int)(end - start), start);
}

START_TEST(test_every_lesson_passes_attn_check)
{
    char **paths = shipped();
    ck_assert_msg(paths && paths[_i], "lesson %d of %s is missing", _i + 1, lessons_dir());
    const char *path = paths[_i];
    char why[1024] = "";
    int want = expected_results(path, why, sizeof why);
    ck_assert_msg(want > 0, "%s: no checks or exercises to verify (%s)", path, why);

    CmdResult r = cmd_runf("'%s' check '%s'", attn_bin(), path);
    char line[256], expect[64];
    last_line(r.out, line, sizeof line);
    snprintf(expect, sizeof expect, "%d passed, 0 failed", want);
    int status = r.status;
    char failed[2048] = "";
    for (const char *p = r.out; (p = strstr(p, "FAIL ")) != NULL; p++)
        if (p == r.out || p[-1] == '\n')
            appendf(failed, sizeof failed, "%.*s\n", (int)strcspn(p, "\n"), p);
    appendf(failed, sizeof failed, "%s", r.err);
    cmd_free(&r);
    ck_assert_msg(status == 0 && strcmp(line, expect) == 0,
                  "attn check %s: exit %d, closing line '%s', expected '%s':\n%s",
                  path, status, line, expect, failed);
    lessonfile_list_free(paths);
}
END_TEST

/* Shipped lesson i, loaded (the caller frees it, and *paths with
 * lessonfile_list_free). */
static Lesson *load_shipped(int i, char ***paths)
{
    *paths = shipped();
    ck_assert_msg(*paths && (*paths)[i], "lesson %d of %s is missing", i + 1, lessons_dir());
    LessonError err;
    Lesson *l = lessonfile_load((*paths)[i], &err);
    char buf[1024];
    ck_assert_msg(l != NULL, "%s", l ? "" : lesson_error_format(&err, buf, sizeof buf));
    return l;
}

/* The authoring rules of lessons/README.md that a machine can check. */
START_TEST(test_every_lesson_is_well_formed)
{
    char **paths;
    Lesson *l = load_shipped(_i, &paths);
    const char *path = paths[_i];

    char problems[4096] = "";
    if (!lesson_about(l)[0])
        appendf(problems, sizeof problems, "no 'about' line for the menu\n");
    else if (strlen(lesson_about(l)) > ABOUT_MAX)
        appendf(problems, sizeof problems, "the 'about' line has %zu characters; the menu shows %d\n",
                strlen(lesson_about(l)), ABOUT_MAX);
    if (lesson_n_tokens(l) == 0)
        appendf(problems, sizeof problems, "no 'tokens' line: token positions are unlabelled\n");
    if (lesson_n_steps(l) < 3)
        appendf(problems, sizeof problems, "only %d steps\n", lesson_n_steps(l));
    int heatmaps = 0;
    for (int i = 0; i < lesson_n_steps(l); i++) {
        const LessonStep *st = lesson_step(l, i);
        heatmaps += st->n_heatmap;
        if (!st->text || !st->text[0])
            appendf(problems, sizeof problems, "line %d: step '%s' has no text\n", st->line, st->title);
        if (st->n_defines > 0 && st->n_exercises == 0)
            appendf(problems, sizeof problems, "line %d: step '%s' defines %s but has no exercise\n",
                    st->line, st->title, st->defines[0]);
        for (int e = 0; e < st->n_exercises; e++) {
            const LessonExercise *ex = &st->exercises[e];
            if (!ex->has_expected)
                appendf(problems, sizeof problems, "line %d: the answer states no value (answer EXPR = VALUE)\n",
                        ex->line);
            if (ex->n_hints == 0)
                appendf(problems, sizeof problems, "line %d: an exercise without a hint\n", ex->line);
        }
    }
    if (heatmaps == 0)
        appendf(problems, sizeof problems, "no heatmap in the whole lesson\n");
    lesson_free(l);
    ck_assert_msg(problems[0] == '\0', "%s:\n%s", path, problems);
    lessonfile_list_free(paths);
}
END_TEST

/* `attn run --json` lists the same steps as the parser sees, with the
 * heatmap panes among the matrices. */
START_TEST(test_json_steps_match_the_lesson)
{
    char **paths;
    Lesson *l = load_shipped(_i, &paths);
    const char *path = paths[_i];
    JVal doc;
    char why[1024];
    ck_assert_msg(run_json(path, &doc, why, sizeof why) == 0, "%s", why);
    const JVal *title = json_get(&doc, "lesson"), *steps = json_get(&doc, "steps");
    ck_assert_msg(title && title->type == J_STR && strcmp(title->str, lesson_title(l)) == 0,
                  "%s: JSON title '%s', lesson '%s'", path, title && title->str ? title->str : "?",
                  lesson_title(l));
    ck_assert_msg(steps && steps->type == J_ARR && steps->n == lesson_n_steps(l),
                  "%s: %d steps in the JSON, %d in the lesson", path, steps ? steps->n : -1, lesson_n_steps(l));
    for (int i = 0; i < steps->n; i++) {
        const JVal *show = json_get(&steps->items[i], "show"), *heat = json_get(&steps->items[i], "heatmap");
        ck_assert_msg(show && show->type == J_ARR && show->n > 0, "%s: step %d shows nothing", path, i + 1);
        for (int h = 0; heat && h < heat->n; h++) {
            const char *name = heat->items[h].str;
            int shown = 0;
            for (int k = 0; name && k < show->n; k++)
                shown |= show->items[k].str && strcmp(show->items[k].str, name) == 0;
            ck_assert_msg(shown, "%s: step %d draws %s as a heatmap, but it is not among its panes",
                          path, i + 1, name ? name : "?");
        }
        for (int k = 0; k < show->n; k++) {
            const char *name = show->items[k].str;
            const JVal *m = name ? json_get(json_get(&doc, "matrices"), name) : NULL;
            ck_assert_msg(m != NULL, "%s: step %d shows %s, but it is not among the matrices",
                          path, i + 1, name ? name : "?");
        }
    }
    json_free(&doc);
    lesson_free(l);
    lessonfile_list_free(paths);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Limits: the reader and the comparison can fail                       */
/* ------------------------------------------------------------------ */

START_TEST(test_json_reader_reads_attn_shape)
{
    const char *text =
        "{\"lesson\": \"T\\u00e9st \\\"q\\\"\\n\", \"layout\": \"rows\",\n"
        " \"steps\": [{\"title\": \"a\", \"show\": [\"S\"], \"heatmap\": []}],\n"
        " \"matrices\": {\"M\": {\"rows\": 2, \"cols\": 3,\n"
        "   \"data\": [[1, -2.5e-3, \"-inf\"], [0.123456789, \"inf\", \"nan\"]]}, \"ok\": true, \"z\": null}}";
    JVal doc;
    char err[200];
    ck_assert_msg(json_parse(text, &doc, err, sizeof err) == 0, "%s", err);
    ck_assert_str_eq(json_get(&doc, "lesson")->str, "T\xc3\xa9st \"q\"\n");
    char why[200] = "";
    Mat *m = json_matrix(&doc, "M", why, sizeof why);
    ck_assert_msg(m != NULL, "%s", why);
    ck_assert_int_eq(m->rows, 2);
    ck_assert_int_eq(m->cols, 3);
    ck_assert_float_eq_tol(mat_get(m, 0, 1), -2.5e-3f, 1e-9f);
    ck_assert_float_eq_tol(mat_get(m, 1, 0), 0.123456789f, 1e-9f);
    ck_assert_msg(isinf(mat_get(m, 0, 2)) && mat_get(m, 0, 2) < 0, "M[1,3] = %g, want -inf", mat_get(m, 0, 2));
    ck_assert_msg(isinf(mat_get(m, 1, 1)) && mat_get(m, 1, 1) > 0, "M[2,2] = %g, want inf", mat_get(m, 1, 1));
    ck_assert_msg(isnan(mat_get(m, 1, 2)), "M[2,3] = %g, want nan", mat_get(m, 1, 2));
    mat_free(m);
    ck_assert_ptr_null(json_matrix(&doc, "missing", why, sizeof why));
    ck_assert_str_eq(why, "missing: not defined by the lesson");
    json_free(&doc);
}
END_TEST

START_TEST(test_json_reader_refuses_bad_input)
{
    static const struct { const char *text, *msg; } bad[] = {
        { "{", "JSON: expected a key string at offset 1" },
        { "[1, ]", "JSON: expected a value at offset 4" },
        { "{\"a\" 1}", "JSON: expected ':' at offset 5" },
        { "[1 2]", "JSON: expected ',' or ']' at offset 3" },
        { "\"open", "JSON: unterminated string at offset 5" },
        { "[1.]", "JSON: digits expected after '.' at offset 1" },
        { "{} x", "JSON: trailing characters after the value at offset 3" },
        { "\"\\q\"", "JSON: bad escape in a string at offset 2" },
        { "", "JSON: unexpected end of input at offset 0" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        JVal doc;
        char err[200] = "";
        ck_assert_msg(json_parse(bad[i].text, &doc, err, sizeof err) < 0, "'%s' was accepted", bad[i].text);
        ck_assert_msg(strcmp(err, bad[i].msg) == 0, "'%s': got '%s', want '%s'", bad[i].text, err, bad[i].msg);
    }
    char deep[200];
    memset(deep, '[', 100);
    memset(deep + 100, ']', 99);
    deep[199] = '\0';
    JVal doc;
    char err[200];
    ck_assert_int_lt(json_parse(deep, &doc, err, sizeof err), 0);
    ck_assert_msg(strstr(err, "nested too deeply") != NULL, "%s", err);
}
END_TEST

/* A lesson with one input number changed must fail the comparison, and the
 * report must name the lesson, the matrices and where they differ. */
START_TEST(test_comparison_catches_a_wrong_number)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/02-sky-is-blue.lesson", lessons_dir());
    char *text = slurp(path);
    ck_assert_msg(text != NULL, "cannot read %s", path);
    char *at = strstr(text, "-0.4311");   /* E[2,2] */
    ck_assert_msg(at != NULL, "E[2,2] = -0.4311 not found in %s", path);
    memcpy(at, "-0.4911", 7);
    char *checks = strstr(text, "\ncheck ");   /* its checks would now fail */
    if (checks)
        checks[1] = '\0';
    const char *tampered = write_temp(".lesson", text);
    free(text);
    ck_assert_ptr_nonnull(tampered);

    JVal doc;
    char why[1024];
    ck_assert_msg(run_json(tampered, &doc, why, sizeof why) == 0, "%s", why);
    RefFile rf;
    char msg[512];
    ck_assert_msg(ref_load(&rf, "001-sky-is-blue.ref", msg, sizeof msg) == 0, "%s", msg);
    const char *names[] = { "tampered.lesson" };
    char report[8192] = "";
    int failures = compare_reference(&rf, &doc, names, 1, report, sizeof report);
    json_free(&doc);
    ref_free(&rf);
    remove(tampered);
    /* E, Q, K, V, logits, scaled, A and O all depend on E[2,2]; the
     * weights do not. */
    ck_assert_msg(failures == 8, "%d failures, want 8:\n%s", failures, report);
    ck_assert_msg(strstr(report, "tampered.lesson: E: max relative difference 0.06 at [2,2]: got -0.491"),
                  "report does not name E[2,2]:\n%s", report);
    ck_assert_msg(strstr(report, "tampered.lesson: WQ") == NULL, "WQ did not change:\n%s", report);
}
END_TEST

START_TEST(test_comparison_reports_a_missing_name)
{
    const char *text = "{\"matrices\": {\"x\": {\"rows\": 1, \"cols\": 1, \"data\": [[2]]}}}";
    JVal doc;
    char err[200];
    ck_assert_msg(json_parse(text, &doc, err, sizeof err) == 0, "%s", err);
    RefFile rf;
    char msg[512];
    ck_assert_msg(ref_load(&rf, "003-transformer-encoder.ref", msg, sizeof msg) == 0, "%s", msg);
    const char *names[] = { "tiny.lesson" };
    char report[16384] = "";
    int failures = compare_reference(&rf, &doc, names, 1, report, sizeof report);
    int entries = rf.n;
    ref_free(&rf);
    json_free(&doc);
    /* x is there but wrong (shape); everything else is missing */
    ck_assert_msg(failures == entries, "%d failures for %d entries:\n%s", failures, entries, report);
    ck_assert_msg(strstr(report, "tiny.lesson: x: shape 1x1, reference 3x4") != NULL, "%s", report);
    ck_assert_msg(strstr(report, "cos_pe_paper_2_10 is not defined by tiny.lesson") != NULL, "%s", report);
}
END_TEST

/* Evaluation is cheap enough to redo on every keystroke of an edit: each
 * shipped lesson, with an edit, evaluates in well under 20 ms (it takes
 * about 0.1 ms; the margin absorbs a loaded machine and valgrind). */
/* Every lesson evaluates again with an edit of its first matrix, as the
 * screen does on each edit, and the edit lands. (How fast that is belongs
 * to a benchmark, not to a timed test on a shared machine.) */
START_TEST(test_every_lesson_reevaluates_with_an_edit)
{
    char **paths;
    Lesson *l = load_shipped(_i, &paths);
    LessonError err;
    LessonState *first = lesson_eval(l, NULL, 0, &err);
    ck_assert_msg(first != NULL, "%s: %s", paths[_i], err.msg);
    const Mat *m = lesson_state_at(first, 0);
    LessonEdit edit = { "", 0, 0, 0.5f };
    snprintf(edit.name, sizeof edit.name, "%s", m->name);
    lesson_state_free(first);
    LessonState *s = lesson_eval(l, &edit, 1, &err);
    ck_assert_msg(s != NULL, "%s with an edit of %s[1,1]: %s", paths[_i], edit.name, err.msg);
    const Mat *edited = lesson_state_get(s, edit.name);
    ck_assert_msg(edited && mat_get(edited, 0, 0) == 0.5f, "%s: the edit of %s[1,1] did not land", paths[_i],
                  edit.name);
    lesson_state_free(s);
    lesson_free(l);
    lessonfile_list_free(paths);
}
END_TEST

/* lessons/README.md documents the whole language: every function the
 * parser knows appears there called, and every directive starts a line of
 * an example. A function added without documentation fails here. */
START_TEST(test_readme_documents_the_language)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/README.md", lessons_dir());
    char *readme = slurp(path);
    ck_assert_msg(readme != NULL, "cannot read %s", path);
    char missing[1024] = "";
    for (int f = 0; f < OPT_COUNT; f++) {
        char call[64];
        if (!optable_is_fn(f))
            continue;
        snprintf(call, sizeof call, "%s(", optable_at(f)->name);
        if (!strstr(readme, call))
            appendf(missing, sizeof missing, " %s()", optable_at(f)->name);
    }
    static const char *const directives[] = { "lesson", "about", "layout", "tokens", "seed", "let", "labels",
                                              "step", "text", "end", "show", "heatmap", "exercise", "answer",
                                              "hint", "check" };
    for (size_t d = 0; d < sizeof directives / sizeof *directives; d++) {
        int found = 0;
        for (const char *p = readme; !found && (p = strstr(p, directives[d])) != NULL; p++) {
            const char *q = p;
            while (q > readme && (q[-1] == ' ' || q[-1] == '\t'))
                q--;
            size_t n = strlen(directives[d]);
            found = (q == readme || q[-1] == '\n') && (p[n] == ' ' || p[n] == '\n');
        }
        if (!found)
            appendf(missing, sizeof missing, " '%s'", directives[d]);
    }
    free(readme);
    ck_assert_msg(missing[0] == '\0', "%s does not show:%s", path, missing);
}
END_TEST

/* Every cell of every matrix of every shipped lesson can be explained,
 * and the explanation ends on the cell's own value ("= 0.3577"). */
START_TEST(test_every_cell_explains)
{
    char **paths;
    Lesson *l = load_shipped(_i, &paths);
    LessonError err;
    LessonState *s = lesson_eval(l, NULL, 0, &err);
    ck_assert_msg(s != NULL, "%s: %s", paths[_i], err.msg);
    int cells = 0;
    for (int k = 0; k < lesson_state_count(s); k++) {
        const Mat *m = lesson_state_at(s, k);
        for (int i = 0; i < m->rows; i++)
            for (int j = 0; j < m->cols; j++, cells++) {
                Explanation ex;
                AttnError ae = { 0 };
                ck_assert_msg(explain_cell(&ex, m, i, j, &ae) == ATTN_OK, "%s: %s[%d,%d]: %s", paths[_i], m->name,
                              i + 1, j + 1, ae.msg);
                const char *last = strrchr(ex.text, '\n');
                last = last && last[1] ? last + 1 : ex.text;
                float v = mat_get(m, i, j);
                ck_assert_msg(strncmp(last, "= ", 2) == 0, "%s: %s[%d,%d] ends '%s'", paths[_i], m->name, i + 1,
                              j + 1, last);
                if (isfinite(v)) {
                    double got = strtod(last + 2, NULL);
                    ck_assert_msg(fabs(got - v) <= 5e-5 * fmax(1.0, fabs(v)), "%s: %s[%d,%d] = %.9g, explained as %s",
                                  paths[_i], m->name, i + 1, j + 1, (double)v, last);
                }
                explain_free(&ex);
            }
    }
    ck_assert_msg(cells > 0, "%s: no cells", paths[_i]);
    lesson_state_free(s);
    lesson_free(l);
    lessonfile_list_free(paths);
}
END_TEST

Suite *lessons_suite(void)
{
    Suite *s = suite_create("lessons");
    TCase *core = tcase_create("core");
    tcase_set_timeout(core, 60);
    tcase_add_loop_test(core, test_lessons_reproduce_reference, 0, N_REF_LESSONS);
    tcase_add_test(core, test_every_reference_has_a_lesson);
    tcase_add_test(core, test_readme_documents_the_language);
    int n = n_shipped();
    /* With no lessons at all the loops below would run zero times: run one
     * iteration so the test fails and says why. */
    tcase_add_loop_test(core, test_every_lesson_passes_attn_check, 0, n > 0 ? n : 1);
    tcase_add_loop_test(core, test_every_lesson_is_well_formed, 0, n > 0 ? n : 1);
    tcase_add_loop_test(core, test_json_steps_match_the_lesson, 0, n > 0 ? n : 1);
    tcase_add_loop_test(core, test_every_lesson_reevaluates_with_an_edit, 0, n > 0 ? n : 1);
    tcase_add_loop_test(core, test_every_cell_explains, 0, n > 0 ? n : 1);
    suite_add_tcase(s, core);

    TCase *limits = tcase_create("limits");
    tcase_set_timeout(limits, 60);
    tcase_add_test(limits, test_json_reader_reads_attn_shape);
    tcase_add_test(limits, test_json_reader_refuses_bad_input);
    tcase_add_test(limits, test_comparison_catches_a_wrong_number);
    tcase_add_test(limits, test_comparison_reports_a_missing_name);
    suite_add_tcase(s, limits);
    return s;
}
