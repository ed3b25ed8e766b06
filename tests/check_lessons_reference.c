/*
 * check_lessons_reference.c - the shipped lessons against the reference
 * numbers. For every reference file (the .ref files of tests/reference,
 * torch-randn.ref aside) the lesson(s) that reproduce it are run with
 * `attn run --json`, the matrices are read out of the JSON, and EVERY matrix
 * and scalar of the .ref is compared (1e-5 relative): a failure names the
 * lesson, the matrix, the max difference and where. The JSON is read with
 * app/present/json_read.c; the "limits" case tests that reader and shows the
 * comparison catches a wrong number and a missing name.
 */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "json_read.h"
#include "lesson.h"
#include "teach.h"
#include "lesson_tree.h"
#include "lessonfile.h"
#include "mat.h"
#include "refdata.h"
#include "testutil.h"

#define REL_TOL 1e-5

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
    { "010-online-softmax.ref", { "10-online-softmax.lesson" } },
    { "011-kv-cache.ref", { "11-kv-cache.lesson" } },
    { "012-grouped-query.ref", { "12-grouped-query.lesson" } },
    { "013-rotary-positions.ref", { "13-rotary-positions.lesson" } },
    { "014-masks.ref", { "14-masks.lesson" } },
    { "015-gradients.ref", { "15-gradients.lesson" } },
};
#define N_REF_LESSONS ((int)(sizeof REF_LESSONS / sizeof REF_LESSONS[0]))

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
        if (lesson_json(path, &docs[n_docs], why, sizeof why) < 0) {
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
    /* a surrogate pair is one character; a lone half is U+FFFD (two names
     * with different emoji once merged in class-report) */
    JVal pair;
    char perr[200];
    ck_assert_int_eq(json_parse("\"A\\ud83d\\ude00\"", &pair, perr, sizeof perr), 0);
    ck_assert_str_eq(pair.str, "A\xF0\x9F\x98\x80");
    json_free(&pair);
    ck_assert_int_eq(json_parse("\"A\\ud83dB\"", &pair, perr, sizeof perr), 0);
    ck_assert_str_eq(pair.str, "A\xEF\xBF\xBD" "B");
    json_free(&pair);
    /* the one depth limit of every reader (nest.h): 250 deep is refused */
    char deep[600];
    memset(deep, '[', 250);
    memset(deep + 250, ']', 250);
    deep[500] = '\0';
    JVal doc;
    char err[200];
    ck_assert_int_lt(json_parse(deep, &doc, err, sizeof err), 0);
    ck_assert_msg(strstr(err, "nested deeper than the limit of 200") != NULL, "%s", err);
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
    ck_assert_msg(lesson_json(tampered, &doc, why, sizeof why) == 0, "%s", why);
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

Suite *lessons_reference_suite(void)
{
    Suite *s = suite_create("lessons_reference");
    TCase *core = tcase_create("core");
    tcase_set_timeout(core, 60);
    tcase_add_loop_test(core, test_lessons_reproduce_reference, 0, N_REF_LESSONS);
    tcase_add_test(core, test_every_reference_has_a_lesson);
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
