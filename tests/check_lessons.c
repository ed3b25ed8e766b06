/*
 * check_lessons.c - every shipped lesson as its users meet it: it passes
 * `attn check` (closing line `N passed, 0 failed`, N = its checks and
 * exercises) and is built the way lessons/README.md asks (a title, a menu
 * line that fits the menu, labelled tokens, text on every step, an
 * exercise with a stated value and a hint on every step that defines
 * something, panes on every step, heatmaps among them); its JSON steps
 * match it, it evaluates again with an edit, every cell explains, and the
 * README documents the language. Against the reference numbers:
 * check_lessons_reference.c.
 */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
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
#define ABOUT_MAX 70    /* what the lesson menu shows of an 'about' line at 80 columns */

/* Lessons and their reference files                                   */

static char **shipped(void)
{
    return lessonfile_list(lessons_dir());
}

/* How many results `attn check` should report for path: its checks and
 * exercises, as the language counts them. -1 when it does not evaluate. */
static int expected_results(const char *path, char *why, size_t why_size)
{
    LessonError err;
    Lesson *l = lessonfile_load(path, &err);
    if (!l) {
        term_lesson_error(&err, why, why_size);
        return -1;
    }
    LessonState *s = lesson_eval(l, NULL, 0, &err);
    int n = -1;
    VerifyResult *results = NULL;
    if (!s)
        term_lesson_error(&err, why, why_size);
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
    ck_assert_msg(l != NULL, "%s", l ? "" : term_lesson_error(&err, buf, sizeof buf));
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
    ck_assert_msg(lesson_json(path, &doc, why, sizeof why) == 0, "%s", why);
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

/* Limits: the reader and the comparison can fail                       */

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
    tcase_add_test(core, test_readme_documents_the_language);
    int n = shipped_count();
    /* With no lessons at all the loops below would run zero times: run one
     * iteration so the test fails and says why. */
    tcase_add_loop_test(core, test_every_lesson_passes_attn_check, 0, n > 0 ? n : 1);
    tcase_add_loop_test(core, test_every_lesson_is_well_formed, 0, n > 0 ? n : 1);
    tcase_add_loop_test(core, test_json_steps_match_the_lesson, 0, n > 0 ? n : 1);
    tcase_add_loop_test(core, test_every_lesson_reevaluates_with_an_edit, 0, n > 0 ? n : 1);
    tcase_add_loop_test(core, test_every_cell_explains, 0, n > 0 ? n : 1);
    suite_add_tcase(s, core);
    return s;
}
