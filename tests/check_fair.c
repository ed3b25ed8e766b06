/*
 * check_fair.c - every shipped lesson is fair to a student who reads the
 * screen before answering (issue 44), measured from the outside, on the
 * handouts a student is given:
 *
 *   - no exercise's value, at the screen's four decimals, shows in a pane,
 *     a text, a hint or a question of `attn run --json --no-answers` up to
 *     its step (by attn-lesson(5)'s rule: a value of three significant
 *     digits or more in any cell, a shorter one in its own matrix's row or
 *     column; a decimal or a fraction in the prose that the judge takes);
 *   - the right value rounded to 1..6 decimals is never named a mistake;
 *   - every "expected" of `attn run --json` is the very double the
 *     handout's answer is, so the key reads back as itself.
 */
#include <check.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "lesson.h"
#include "lessonfile.h"
#include "mat.h"
#include "numfmt.h"
#include "testutil.h"

static char **shipped(void) { return lessonfile_list(lessons_dir()); }

/* The JSON of `attn run --json [--no-answers] path`. */
static void run_json(const char *path, int answers, JVal *root)
{
    CmdResult r = cmd_runf("%s run --json %s '%s'", attn_bin(), answers ? "" : "--no-answers", path);
    ck_assert_msg(r.status == 0, "%s: %s", path, r.err);
    char jerr[160];
    ck_assert_msg(json_parse(r.out, root, jerr, sizeof jerr) == 0, "%s: %s", path, jerr);
    cmd_free(&r);
}

/* The exercises of a `attn run --json` document in lesson order, with the
 * step each is on (0-based): how many (at most max). */
#define EXERCISES_MAX 64
static int exercises_of(const JVal *doc, const JVal **ex, int *step, int max)
{
    const JVal *steps = json_get(doc, "steps");
    int n = 0;
    for (int k = 0; k < steps->n; k++) {
        const JVal *exs = json_get(&steps->items[k], "exercises");
        for (int e = 0; e < exs->n && n < max; e++, n++) {
            ex[n] = &exs->items[e];
            step[n] = k;
        }
    }
    return n;
}

/* Shipped lesson i with its key (`attn run --json`) and its exercises in
 * order, each with its step; closed by shipped_close. */
typedef struct {
    char **paths;
    const char *path;
    JVal key;
    const JVal *ex[EXERCISES_MAX];
    int step[EXERCISES_MAX], n;
} Shipped;

static void shipped_open(Shipped *sh, int i)
{
    sh->paths = shipped();
    sh->path = sh->paths[i];
    run_json(sh->path, 1, &sh->key);
    sh->n = exercises_of(&sh->key, sh->ex, sh->step, EXERCISES_MAX);
}

static void shipped_close(Shipped *sh)
{
    json_free(&sh->key);
    lessonfile_list_free(sh->paths);
}

/* Digits that carry the value in a number as written: no sign, no point,
 * no zeros before the first other digit or after the last. */
static int digits_that_count(const char *t)
{
    int first = -1, last = -1, k = 0;
    for (const char *p = t; *p && *p != 'e'; p++, k++)
        if (isdigit((unsigned char)*p) && *p != '0') {
            if (first < 0)
                first = k;
            last = k;
        }
    if (first < 0)
        return 0;
    int n = 0;
    for (int i = first; i <= last; i++)
        n += isdigit((unsigned char)t[i]) != 0;
    return n;
}

typedef struct {
    double v, within;
    char text[40];          /* v at the screen's decimals                 */
    char cell[64];          /* the asked matrix when the answer is a cell */
    int row, col;           /* 0-based                                    */
    int step, number;
} Asked;

/* A cell of pane p that reads as the asked value: where, into out. */
static int pane_shows(const JVal *p, const Asked *a, char *out, size_t size)
{
    const char *name = json_get(p, "name")->str;
    const JVal *data = json_get(p, "data");
    int own = strcmp(name, a->cell) == 0, long_value = digits_that_count(a->text) >= 3;
    for (int r = 0; r < data->n; r++)
        for (int c = 0; c < data->items[r].n; c++) {
            const JVal *x = &data->items[r].items[c];
            char buf[40];
            if (x->type != J_NUM)
                continue;   /* "?", or a value that is not finite */
            num_format(buf, sizeof buf, x->num, NUM_DECIMALS_DEFAULT, 0);
            if (strcmp(buf, a->text) == 0 && (long_value || (own && (r == a->row || c == a->col)))) {
                snprintf(out, size, "%s[%d,%d]", name, r + 1, c + 1);
                return 1;
            }
        }
    return 0;
}

/* A number text writes that gives the value: "0.4754", "0.475" within
 * 1e-3, "1/4" for 0.25, the value to three significant digits. */
static int text_quotes(const char *text, const Asked *a, char *out, size_t size)
{
    for (const char *p = text; *p; p++) {
        if (!isdigit((unsigned char)*p) || (p > text && (isalnum((unsigned char)p[-1]) || strchr("._^", p[-1]))))
            continue;
        char *end;
        double x = strtod(p, &end);
        if (end[-1] == '.')
            end--;      /* a sentence's full stop */
        const char *dot = memchr(p, '.', (size_t)(end - p));
        double unit = 0;
        if (*end == '/' && isdigit((unsigned char)end[1]) && !dot) {
            double den = strtod(end + 1, &end);
            x /= den;
        } else if (dot && !memchr(p, 'e', (size_t)(end - p))) {
            unit = pow(10, -(double)(end - dot - 1));
        } else {
            p = end - 1;
            continue;
        }
        if (p > text && p[-1] == '-')
            x = -x;
        char tok[48];
        snprintf(tok, sizeof tok, "%.*s", (int)(end - p), p);
        if (fabs(x - a->v) <= a->within || (unit > 0 && digits_that_count(tok) >= 3 && fabs(x - a->v) <= 0.5 * unit)) {
            snprintf(out, size, "\"%s\"", tok);
            return 1;
        }
        p = end - 1;
    }
    return 0;
}

/* Where on screen k (-1: the set-up) of the student's sheet the asked
 * value shows: 1 and where, into out. */
static int sheet_shows(const JVal *sheet, int k, const Asked *a, char *out, size_t size)
{
    const JVal *st = k >= 0 ? &json_get(sheet, "steps")->items[k] : NULL;
    const JVal *panes = st ? json_get(st, "panes") : json_get(sheet, "setup");
    char where[96];
    for (int i = 0; i < panes->n; i++)
        if (pane_shows(&panes->items[i], a, where, sizeof where)) {
            snprintf(out, size, "%s on %s%d", where, k >= 0 ? "step " : "the set-up ", k + 1);
            return 1;
        }
    if (!st)
        return 0;
    if (text_quotes(json_get(st, "text")->str, a, where, sizeof where)) {
        snprintf(out, size, "%s in the text of step %d", where, k + 1);
        return 1;
    }
    const JVal *exs = json_get(st, "exercises");
    for (int e = 0; e < exs->n; e++) {
        const JVal *hints = json_get(&exs->items[e], "hints");
        int number = (int)json_get(&exs->items[e], "number")->num;
        if (text_quotes(json_get(&exs->items[e], "question")->str, a, where, sizeof where)) {
            snprintf(out, size, "%s in the question of exercise %d", where, number);
            return 1;
        }
        for (int h = 0; h < hints->n; h++)
            if (text_quotes(hints->items[h].str, a, where, sizeof where)) {
                snprintf(out, size, "%s in hint %d of exercise %d", where, h + 1, number);
                return 1;
            }
    }
    return 0;
}

START_TEST(no_value_shows_before_it_is_asked)
{
    Shipped sh;
    shipped_open(&sh, _i);
    const char *path = sh.path;
    JVal sheet;
    run_json(path, 0, &sheet);
    char found[4000] = "";
    for (int i = 0; i < sh.n; i++) {
        const JVal *ex = sh.ex[i];
        int k = sh.step[i];
        Asked a = { 0 };
        if (json_number(json_get(ex, "expected"), &a.v) != 0 || !isfinite(a.v))
            continue;
        a.within = json_get(ex, "within")->num;
        a.step = k;
        a.number = (int)json_get(ex, "number")->num;
        num_format(a.text, sizeof a.text, a.v, NUM_DECIMALS_DEFAULT, 0);
        const char *ans = json_get(ex, "answer")->str;
        int len = 0;
        if (sscanf(ans, "%63[A-Za-z0-9_][%d,%d]%n", a.cell, &a.row, &a.col, &len) == 3 && ans[len] == '\0') {
            a.row--;
            a.col--;
        } else {
            a.cell[0] = '\0';
        }
        char where[200];
        for (int s = -1; s <= k; s++)
            if (sheet_shows(&sheet, s, &a, where, sizeof where)) {
                appendf(found, sizeof found, "  exercise %d (%s = %s) shows at %s\n", a.number, ans, a.text,
                        where);
                break;
            }
    }
    ck_assert_msg(found[0] == '\0', "%s gives values away before they are asked:\n%s", path, found);
    json_free(&sheet);
    shipped_close(&sh);
}
END_TEST

/* The right value rounded to 1..6 decimals, typed on a sheet for every
 * exercise, is right (within the tolerance) or told "not yet: more
 * digits", never named a mistake. */
START_TEST(a_rounded_right_value_is_no_mistake)
{
    Shipped sh;
    shipped_open(&sh, _i);
    const char *path = sh.path;
    char named[4000] = "";
    for (int d = 1; d <= 6; d++) {
        char sheet[8000] = "";
        for (int i = 0; i < sh.n; i++) {
            double v;
            if (json_number(json_get(sh.ex[i], "expected"), &v) == 0 && isfinite(v))
                appendf(sheet, sizeof sheet, "%d: %.*f\n", (int)json_get(sh.ex[i], "number")->num, d, v);
        }
        const char *file = write_temp(".txt", sheet);
        CmdResult r = cmd_runf("%s grade --json '%s' '%s'", attn_bin(), path, file);
        JVal graded;
        char jerr[160];
        ck_assert_msg(json_parse(r.out, &graded, jerr, sizeof jerr) == 0, "%s: %s\n%s", path, jerr, r.err);
        const JVal *exs = json_get(&graded, "exercises");
        for (int i = 0; i < exs->n; i++) {
            const JVal *x = &exs->items[i];
            const char *verdict = json_get(x, "verdict")->str, *msg = json_get(x, "message")->str;
            const JVal *id = json_get(x, "diagnosis");
            if (strcmp(verdict, "right") == 0 || strcmp(verdict, "unanswered") == 0)
                continue;
            if (id->type != J_NULL || strncmp(msg, "not yet: more digits", 20) != 0)
                appendf(named, sizeof named, "  exercise %d, %s: %s (%s)\n", (int)json_get(x, "number")->num,
                        json_get(x, "answer")->str, msg, id->type == J_STR ? id->str : "no id");
        }
        json_free(&graded);
        cmd_free(&r);
    }
    ck_assert_msg(named[0] == '\0', "%s names a rounded right value a mistake:\n%s", path, named);
    shipped_close(&sh);
}
END_TEST

/* The "expected" of each exercise in `attn run --json` is its answer's
 * value exactly (the double the judge compares with), and the handout
 * prints that value rounded. */
START_TEST(json_expected_is_the_answer)
{
    Shipped sh;
    shipped_open(&sh, _i);
    const char *path = sh.path;
    LessonError err;
    Lesson *l = lessonfile_load(path, &err);
    ck_assert_msg(l != NULL, "%s: %s", path, err.msg);
    LessonState *s = lesson_eval(l, NULL, 0, &err);
    ck_assert_msg(s != NULL, "%s: %s", path, err.msg);
    CmdResult handout = cmd_runf("%s run '%s'", attn_bin(), path);
    ck_assert_int_eq(handout.status, 0);
    const char *line = handout.out;
    char wrong[2000] = "";
    for (int i = 0; i < sh.n; i++) {
        const JVal *ex = sh.ex[i];
        double expected;
        ck_assert_int_eq(json_number(json_get(ex, "expected"), &expected), 0);
        Mat *m = lesson_eval_expr(s, json_get(ex, "answer")->str, &err);
        ck_assert_msg(m && m->rows == 1 && m->cols == 1, "%s: %s", path, json_get(ex, "answer")->str);
        double want = mat_get(m, 0, 0);
        mat_free(m);
        if (expected != want)
            appendf(wrong, sizeof wrong, "  exercise %d: \"expected\" %.17g, the answer %.17g\n",
                    (int)json_get(ex, "number")->num, expected, want);
        /* the handout's "Answer: EXPR = VALUE" line for it, in order */
        line = strstr(line, "  Answer: ");
        ck_assert_msg(line != NULL, "%s: the handout has fewer answers than the JSON", path);
        const char *eq = strstr(line, " = ");
        const char *eol = strchr(line, '\n');
        ck_assert_msg(eq && eol && eq < eol, "%s: an answer line without its value", path);
        const char *dot = memchr(eq, '.', (size_t)(eol - eq));
        int decimals = dot ? (int)(eol - dot - 1) : 0;
        char printed[48], again[48];
        snprintf(printed, sizeof printed, "%.*s", (int)(eol - eq - 3), eq + 3);
        num_format(again, sizeof again, expected, decimals, 0);
        if (strcmp(printed, again) != 0)
            appendf(wrong, sizeof wrong, "  exercise %d: the handout says %s, \"expected\" reads %s\n",
                    (int)json_get(ex, "number")->num, printed, again);
        line = eol;
    }
    ck_assert_msg(wrong[0] == '\0', "%s:\n%s", path, wrong);
    cmd_free(&handout);
    lesson_state_free(s);
    lesson_free(l);
    shipped_close(&sh);
}
END_TEST

/* A question says what its key asks: which token queries and which is the
 * key (lesson 8's masked[3,2]), and which way a ratio goes (lesson 16's
 * copying_score / plain_score, 8.9, not its inverse). */
START_TEST(questions_say_what_their_key_asks)
{
    static const struct {
        const char *lesson, *answer, *words[2];
    } cases[] = {
        { "08-causal-mask.lesson", "masked[3,2]", { "query token 3", "key token 2" } },
        { "16-a-model-trained-here.lesson", "copying_score[1,1] / plain_score[1,1]",
          { "The twice model's copying score is how many times the plain model's", "copying_score / plain_score" } },
        { "04-two-heads.lesson", "A1[2,4]", { "query 4", "key 2" } },
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char path[600];
        snprintf(path, sizeof path, "%s/%s", lessons_dir(), cases[c].lesson);
        JVal key;
        run_json(path, 1, &key);
        const JVal *ex[EXERCISES_MAX];
        int step[EXERCISES_MAX], n = exercises_of(&key, ex, step, EXERCISES_MAX), found = 0;
        for (int i = 0; i < n; i++)
            if (strcmp(json_get(ex[i], "answer")->str, cases[c].answer) == 0) {
                const char *q = json_get(ex[i], "question")->str;
                ck_assert_msg(strstr(q, cases[c].words[0]) && strstr(q, cases[c].words[1]), "%s: %s", path, q);
                found = 1;
            }
        ck_assert_msg(found, "%s asks %s no more", path, cases[c].answer);
        json_free(&key);
    }
}
END_TEST

Suite *fair_suite(void)
{
    Suite *s = suite_create("fair");
    TCase *c = tcase_create("core");
    tcase_set_timeout(c, 120);
    int n = shipped_count();
    tcase_add_loop_test(c, no_value_shows_before_it_is_asked, 0, n > 0 ? n : 1);
    tcase_add_loop_test(c, json_expected_is_the_answer, 0, n > 0 ? n : 1);
    tcase_add_loop_test(c, a_rounded_right_value_is_no_mistake, 0, n > 0 ? n : 1);
    tcase_add_test(c, questions_say_what_their_key_asks);
    suite_add_tcase(s, c);
    return s;
}
