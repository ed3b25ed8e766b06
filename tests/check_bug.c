/*
 * check_bug.c - find the bug (engine/teach/lesson_bug.c): for every
 * shipped lesson and seeds 1..50 the planted bug keeps the lesson
 * evaluable, its matrix is the first shown matrix (steps in order, panes in
 * order) that differs from the lesson without it, its kind is a diagnosis
 * of the catalogue, and the same seed plants the same bug; six kinds or
 * more occur over the shipped lessons. Then `attn run --bug N --key` and
 * its JSON, and the lesson's file never written. The judge of a hunt: the
 * bug's own matrix and kind are right (by number too), a matrix before it
 * is right and told so, a kind that gives the very numbers is right, one
 * that cannot be made is told so; a hunt kept in the progress store comes
 * back; `attn grade --bug N` grades a sheet's `bug: MATRIX KIND`.
 */
#include <check.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "session.h"

#include "lessonfile.h"
#include "testutil.h"
#include "tui_fixtures.h"

static int differ(const Mat *a, const Mat *b)
{
    if (a->rows != b->rows || a->cols != b->cols)
        return 1;
    for (int i = 0; i < a->rows; i++)
        for (int j = 0; j < a->cols; j++) {
            float x = mat_get(a, i, j), y = mat_get(b, i, j);
            if (isinf(x) || isinf(y) ? x != y : fabsf(x - y) > 1e-6f * fmaxf(1.0f, fabsf(x)))
                return 1;
        }
    return 0;
}

START_TEST(every_lesson_every_seed)
{
    Shipped s = shipped_load();
    char kinds[32][32];
    int n_kinds = 0;
    for (int i = 0; i < s.n; i++) {
        LessonError err;
        LessonState *asked = lesson_eval(s.lessons[i], NULL, 0, &err);
        ck_assert_msg(asked != NULL, "%s: %s", s.paths[i], err.msg);
        for (unsigned seed = 1; seed <= 50; seed++) {
            LessonBug bug, again;
            ck_assert_msg(lesson_bug_plant(s.lessons[i], asked, seed, &bug, &err) == 0, "%s seed %u: %s",
                          s.paths[i], seed, err.msg);
            ck_assert_ptr_nonnull(bug.state);
            ck_assert_msg(lesson_diagnosis_words(bug.kind) != NULL, "%s: %s is not in the catalogue", s.paths[i],
                          bug.kind);
            /* the first matrix shown, in order, that the bug changed */
            const char *first = NULL;
            int first_step = -1;
            for (int k = 0; k < lesson_n_steps(s.lessons[i]) && !first; k++) {
                const LessonStep *st = lesson_step(s.lessons[i], k);
                for (int p = 0; p < st->n_show && !first; p++)
                    if (differ(lesson_state_get(asked, st->show[p]), lesson_state_get(bug.state, st->show[p]))) {
                        first = st->show[p];
                        first_step = k;
                    }
            }
            ck_assert_msg(first && strcmp(first, bug.matrix) == 0 && first_step == bug.step,
                          "%s seed %u: the bug says %s (step %d), the first changed is %s (step %d)", s.paths[i],
                          seed, bug.matrix, bug.step + 1, first ? first : "none", first_step + 1);
            ck_assert_msg(strcmp(bug.planted, bug.written) != 0, "%s seed %u: planted as written: %s", s.paths[i],
                          seed, bug.planted);
            /* the same seed, the same bug */
            ck_assert_int_eq(lesson_bug_plant(s.lessons[i], asked, seed, &again, &err), 0);
            ck_assert_str_eq(again.kind, bug.kind);
            ck_assert_str_eq(again.planted, bug.planted);
            ck_assert_int_eq(again.stmt, bug.stmt);
            lesson_bug_free(&again);
            int known = 0;
            for (int k = 0; k < n_kinds; k++)
                known |= strcmp(kinds[k], bug.kind) == 0;
            if (!known && n_kinds < 32)
                snprintf(kinds[n_kinds++], sizeof kinds[0], "%s", bug.kind);
            lesson_bug_free(&bug);
        }
        lesson_state_free(asked);
    }
    ck_assert_msg(n_kinds >= 6, "only %d kinds of bug over the shipped lessons", n_kinds);
    shipped_free(&s);
}
END_TEST

START_TEST(a_bug_handout_and_its_key)
{
    char path[600];
    snprintf(path, sizeof path, "%s/02-sky-is-blue.lesson", lessons_dir());
    struct stat before, after;
    ck_assert_int_eq(stat(path, &before), 0);
    CmdResult r = cmd_runf("%s run --bug 1 %s", attn_bin(), path);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(!strstr(r.out, "The bug") && !strstr(r.out, "wrong-axis"), "the handout gives the bug away");
    cmd_free(&r);
    r = cmd_runf("%s run --bug 1 --key %s", attn_bin(), path);
    ck_assert_msg(strstr(r.out, "The bug (seed 1)\n  the first wrong matrix: A (step 5: Softmax along each row)\n"
                                "  the mistake: wrong-axis (softmax along the wrong axis)\n"
                                "  as planted: A = softmax_cols(scaled)\n  as written: A = softmax_rows(scaled)\n"),
                  "%s", r.out);
    cmd_free(&r);
    r = cmd_runf("%s run --bug 1 --key --json %s", attn_bin(), path);
    ck_assert_msg(strstr(r.out, "\"bug\": {\"seed\": 1, \"step\": \"Softmax along each row\", \"matrix\": \"A\", "
                                "\"kind\": \"wrong-axis\", \"statement\": \"A = softmax_cols(scaled)\", "
                                "\"fixed\": \"A = softmax_rows(scaled)\"}}"), "%.400s", r.out);
    cmd_free(&r);
    /* JSON carries its answers, the bug's too, unless --no-answers */
    r = cmd_runf("%s run --bug 1 --json %s", attn_bin(), path);
    ck_assert_msg(strstr(r.out, "\"bug\": {\"seed\": 1, \"step\": \"Softmax along each row\", \"matrix\": \"A\", "
                                "\"kind\": \"wrong-axis\""), "%.400s", r.out);
    cmd_free(&r);
    r = cmd_runf("%s run --bug 1 --json --no-answers %s", attn_bin(), path);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(!strstr(r.out, "\"bug\"") && !strstr(r.out, "wrong-axis"), "--no-answers gave the bug away");
    cmd_free(&r);
    r = cmd_runf("%s run --key %s", attn_bin(), path);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--key goes with --bug N"), "%s", r.err);
    cmd_free(&r);
    r = cmd_runf("%s run --bug x %s", attn_bin(), path);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--bug needs a seed"), "%s", r.err);
    cmd_free(&r);
    /* one reader of a seed: past 4294967295 is refused, never wrapped
     * (4294967296 planted seed 0, 2^64 + 1 seed 4294967295) */
    static const char *const wraps[] = { "4294967296", "18446744073709551617", "+5", " 5" };
    for (size_t k = 0; k < sizeof wraps / sizeof *wraps; k++) {
        r = cmd_runf("%s run --bug '%s' %s", attn_bin(), wraps[k], path);
        ck_assert_msg(r.status == 2 && strstr(r.err, "--bug needs a seed, a whole number from 0 to 4294967295"),
                      "%s: %s", wraps[k], r.err);
        cmd_free(&r);
        r = cmd_runf("%s grade --bug '%s' %s /dev/null", attn_bin(), wraps[k], path);
        ck_assert_msg(r.status == 2 && strstr(r.err, "--bug needs the handout's seed"), "%s: %s", wraps[k], r.err);
        cmd_free(&r);
    }
    unsigned seed;
    ck_assert_int_eq(lesson_bug_seed_parse("4294967295", &seed), 0);
    ck_assert_uint_eq(seed, 4294967295u);
    ck_assert_int_eq(lesson_bug_seed_parse("4294967296", &seed), -1);
    ck_assert_int_eq(stat(path, &after), 0);
    ck_assert_msg(before.st_mtime == after.st_mtime && before.st_size == after.st_size, "the lesson file changed");
}
END_TEST


/* The judge gives the planted bug's own answers right, on every lesson,
 * and a verdict for every other kind named. */
START_TEST(the_bug_itself_is_right)
{
    Shipped s = shipped_load();
    for (int i = 0; i < s.n; i++) {
        const Lesson *l = s.lessons[i];
        LessonError err;
        LessonState *asked = lesson_eval(l, NULL, 0, &err);
        for (unsigned seed = 1; seed <= 8; seed++) {
            LessonBug bug;
            ck_assert_int_eq(lesson_bug_plant(l, asked, seed, &bug, &err), 0);
            BugVerdict v;
            lesson_bug_judge_matrix(l, asked, &bug, bug.matrix, &v);
            ck_assert_msg(v.right == 1, "%s seed %u: %s judged %d: %s", s.paths[i], seed, bug.matrix, v.right, v.msg);
            lesson_bug_judge_kind(l, asked, &bug, bug.kind, &v);
            ck_assert_msg(v.right == 1 && strcmp(v.msg, bug.explain) == 0, "%s seed %u: %s: %s", s.paths[i], seed,
                          bug.kind, v.msg);
            char number[16] = "";
            for (int k = 1; k <= lesson_bug_n_kinds(); k++)
                if (strcmp(lesson_bug_kind_id(k), bug.kind) == 0)
                    snprintf(number, sizeof number, " %d ", k);
            lesson_bug_judge_kind(l, asked, &bug, number, &v);
            ck_assert_msg(v.right == 1, "%s seed %u: kind '%s' by number: %s", s.paths[i], seed, number, v.msg);
            /* every other kind named gets a verdict too: one the bug's
             * statement cannot hold (the axis of a softmax where the bug
             * is a division) was evaluated there and crashed */
            for (int k = 1; k <= lesson_bug_n_kinds(); k++) {
                lesson_bug_judge_kind(l, asked, &bug, lesson_bug_kind_id(k), &v);
                ck_assert_msg((v.right == 0 || v.right == 1) && v.msg[0], "%s seed %u, %s: %d '%s'", s.paths[i],
                              seed, lesson_bug_kind_id(k), v.right, v.msg);
            }
            /* a matrix shown before the bug's step is right, and told so */
            const LessonStep *st0 = lesson_step(l, 0);
            if (bug.step > 0 && st0->n_show > 0) {
                lesson_bug_judge_matrix(l, asked, &bug, st0->show[0], &v);
                ck_assert_msg(v.right == 0 && strstr(v.msg, "is right: its numbers are what the lesson computes"),
                              "%s seed %u: %s: %s", s.paths[i], seed, st0->show[0], v.msg);
            }
            lesson_bug_judge_matrix(l, asked, &bug, "NoSuchMatrix", &v);
            ck_assert_int_eq(v.right, -1);
            lesson_bug_judge_kind(l, asked, &bug, "16", &v);
            ck_assert_msg(v.right == -1 && strstr(v.msg, "'16' is not a kind of mistake: type its number (1-15)"),
                          "%s", v.msg);
            lesson_bug_free(&bug);
        }
        lesson_state_free(asked);
    }
    shipped_free(&s);
}
END_TEST

static const char twice_lesson[] = "lesson Twice or by d\nabout One scaling, wrong two ways alike.\nlayout rows\n"
                                   "step Scale\n  let X = [ 1 2 ; 3 4 ]\n  let d = 4\n  let Y = X / sqrt(d)\n"
                                   "  show X Y\n";

/* Dividing by sqrt(d) twice is dividing by d: named either way, right.
 * A kind with nowhere to be made, or other numbers, is told why not. */
START_TEST(the_same_numbers_are_right)
{
    LessonError err;
    Lesson *l = lesson_parse(twice_lesson, strlen(twice_lesson), "twice.lesson", &err);
    ck_assert_ptr_nonnull(l);
    LessonState *asked = lesson_eval(l, NULL, 0, &err);
    LessonBug bug;
    ck_assert_int_eq(lesson_bug_plant(l, asked, 1, &bug, &err), 0);
    ck_assert_str_eq(bug.kind, "scale-by-d");
    ck_assert_str_eq(bug.matrix, "Y");
    BugVerdict v;
    lesson_bug_judge_kind(l, asked, &bug, "scaled-twice", &v);
    ck_assert_msg(v.right == 1 && strstr(v.msg, "it gives these very numbers (the bug planted was scale-by-d"), "%s",
                  v.msg);
    lesson_bug_judge_kind(l, asked, &bug, "no-mask", &v);
    ck_assert_msg(v.right == 0 && strcmp(v.msg, "this lesson has nowhere to make that mistake") == 0, "%s", v.msg);
    lesson_bug_judge_kind(l, asked, &bug, "unscaled", &v);
    ck_assert_msg(v.right == 0 && strstr(v.msg, "that mistake would make Y wrong too, but with other numbers"), "%s",
                  v.msg);
    lesson_bug_judge_matrix(l, asked, &bug, "X", &v);
    ck_assert_msg(v.right == 0 && strstr(v.msg, "X is right"), "%s", v.msg);
    lesson_bug_free(&bug);
    lesson_state_free(asked);
    lesson_free(l);
}
END_TEST

/* A hunt in the progress store: guesses counted, the stage kept, the
 * lesson's own place untouched; the same seed opened again takes it in. */
START_TEST(a_hunt_is_kept)
{
    char dir[] = "/tmp/attn-bug-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s", write_temp(".lesson", twice_lesson));
    LessonError err;
    Session *ses = session_open(path, &err);
    ck_assert_ptr_nonnull(ses);
    ck_assert_int_eq(session_plant_bug(ses, 1) & SESSION_REFUSED, 0);
    ck_assert_int_eq(session_keep_progress(ses, dir), 0);
    ck_assert(session_bug_name(ses, "scale-by-d") & SESSION_REFUSED);   /* the matrix first */
    ck_assert(session_bug_point(ses, "X") & SESSION_EXERCISE);
    ck_assert_int_eq(session_bug(ses)->stage, HUNT_LOOKING);
    session_bug_point(ses, "Y");
    ck_assert_int_eq(session_bug(ses)->stage, HUNT_MATRIX);
    /* what the screen shows: Y with the bug, X / 4 */
    ck_assert_float_eq_tol(mat_get(lesson_state_get(session_shown_state(ses), "Y"), 1, 1), 1.0f, 1e-6f);
    ck_assert_float_eq_tol(mat_get(lesson_state_get(session_state(ses), "Y"), 1, 1), 2.0f, 1e-6f);
    session_bug_name(ses, "2");
    session_bug_name(ses, "scaled-twice");
    ck_assert_int_eq(session_bug(ses)->stage, HUNT_FOUND);
    ck_assert_int_eq(session_bug(ses)->matrix_tries, 2);
    ck_assert_int_eq(session_bug(ses)->kind_tries, 2);
    /* found is found: more guesses are not counted */
    ck_assert_int_eq(session_bug_name(ses, "1"), SESSION_NOTHING);
    ck_assert_str_eq(session_message(ses), "the mistake is named already: scale-by-d");
    ck_assert_int_eq(session_bug_point(ses, "X"), SESSION_NOTHING);
    ck_assert_int_eq(session_bug(ses)->kind_tries, 2);
    /* an edit follows the bug: X[1,1] = 8 makes Y[1,1] 2 with it */
    ck_assert(session_edit(ses, "X", 0, 0, 8.0f) & SESSION_VALUES);
    ck_assert_float_eq_tol(mat_get(lesson_state_get(session_shown_state(ses), "Y"), 0, 0), 2.0f, 1e-6f);
    session_free(ses);
    ProgressLesson *recs;
    int n;
    char warn[600];
    ck_assert_int_eq(progress_load(dir, &recs, &n, warn, sizeof warn), 0);
    const ProgressLesson *rec = progress_find(recs, n, "Twice or by d");
    ck_assert_ptr_nonnull(rec);
    const ProgressBug *b = progress_find_bug(rec, 1);
    ck_assert_ptr_nonnull(b);
    ck_assert_int_eq(b->status, PROGRESS_BUG_FOUND);
    ck_assert_str_eq(b->kind, "scale-by-d");
    ck_assert_str_eq(b->matrix, "Y");
    ck_assert_int_eq(rec->n_ex, 0);
    progress_free(recs, n);
    /* again: the hunt as it was */
    ses = session_open(path, &err);
    session_plant_bug(ses, 1);
    session_keep_progress(ses, dir);
    ck_assert_int_eq(session_bug(ses)->stage, HUNT_FOUND);
    ck_assert_int_eq(session_bug(ses)->kind_tries, 2);
    session_free(ses);
    /* another seed is another hunt */
    ses = session_open(path, &err);
    session_plant_bug(ses, 2);
    session_keep_progress(ses, dir);
    ck_assert_int_eq(session_bug(ses)->stage, HUNT_LOOKING);
    session_free(ses);
    unlink(path);
    CmdResult r = cmd_runf("rm -rf '%s'", dir);
    cmd_free(&r);
}
END_TEST

/* attn grade --bug N: the sheet's `bug: MATRIX KIND`, judged. */
START_TEST(grade_a_bug_sheet)
{
    char lesson[128], right[128], wrong[128], half[128];     /* write_temp's path is its own */
    snprintf(lesson, sizeof lesson, "%s", write_temp(".lesson", twice_lesson));
    snprintf(right, sizeof right, "%s", write_temp(".txt", "# a bug handout\nbug: Y 4\n"));
    CmdResult r = cmd_runf("%s grade --bug 1 %s %s", attn_bin(), lesson, right);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "bug ✓ the first wrong matrix, Y: Y is the first wrong matrix (step 1, Scale): everything "
                                "before it is as the lesson says\nbug ✓ the mistake, 4 (scale-by-d): that divides by d where Y = X / sqrt(d)"), "%s",
                  r.out);
    ck_assert_msg(strstr(r.out, "1 right, 0 wrong, 0 unanswered"), "%s", r.out);
    cmd_free(&r);
    snprintf(wrong, sizeof wrong, "%s", write_temp(".txt", "bug: X unscaled\n"));
    r = cmd_runf("%s grade --bug 1 --json %s %s", attn_bin(), lesson, wrong);
    ck_assert_int_eq(r.status, 1);
    ck_assert_msg(strstr(r.out, "\"bug\": {\"seed\": 1, \"matrix\": \"X\", \"kind\": \"unscaled\", \"verdict\": "
                                "\"wrong\", \"matrix_right\": false, \"matrix_message\": \"X is right: its numbers"),
                  "%s", r.out);
    cmd_free(&r);
    /* a bug line needs the seed; a half line is an error at its column */
    r = cmd_runf("%s grade %s %s", attn_bin(), lesson, right);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, ":2:1: error: a 'bug:' line answers a bug handout: grade it with --bug N"), "%s",
                  r.err);
    cmd_free(&r);
    snprintf(half, sizeof half, "%s", write_temp(".txt", "bug:   Y\n"));
    r = cmd_runf("%s grade --bug 1 %s %s", attn_bin(), lesson, half);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, ":1:9: error: expected 'bug: MATRIX KIND'"), "%s", r.err);
    cmd_free(&r);
    r = cmd_runf("%s grade --bug -3 %s %s", attn_bin(), lesson, right);
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--bug needs the handout's seed"), "%s", r.err);
    cmd_free(&r);
    unlink(lesson);
    unlink(right);
    unlink(wrong);
    unlink(half);
}
END_TEST

/* Only what a person writes is planted: a scale's mistakes where a scale
 * is. Lesson 10's running max and sum are not scales (seeds 1, 4 and 5
 * planted 'o2 = alpha / o1 + p2 @ V2'), nor is a coefficient written on a
 * literal (b * [0 1]); and c * x inverted reads x / c. */
START_TEST(a_scale_mistake_only_where_a_scale_is)
{
    Shipped s = shipped_load();
    int i = find_lesson(&s, "online-softmax");
    ck_assert_int_ge(i, 0);
    LessonError err;
    LessonState *asked = lesson_eval(s.lessons[i], NULL, 0, &err);
    ck_assert_msg(asked != NULL, "%s", err.msg);
    int scales = 0;
    for (unsigned seed = 1; seed <= 50; seed++) {
        LessonBug bug;
        ck_assert_int_eq(lesson_bug_plant(s.lessons[i], asked, seed, &bug, &err), 0);
        if (strstr(bug.kind, "scale")) {
            scales++;
            ck_assert_msg(strncmp(bug.planted, "s = q @ K^T", 11) == 0, "seed %u planted %s as %s", seed,
                          bug.planted, bug.kind);
        }
        ck_assert_msg(!strstr(bug.planted, "alpha /") && !strstr(bug.planted, "/ b"), "seed %u: %s", seed,
                      bug.planted);
        lesson_bug_free(&bug);
    }
    ck_assert_msg(scales > 0, "no scale mistake planted on lesson 10's real scale, sqrt(2)");
    lesson_state_free(asked);
    shipped_free(&s);
    /* c * x inverted is x / c */
    const char text[] = "lesson Temperature\nabout A scale on the left.\nlet S = [1 2; 3 4]\n"
                        "step S\n  let A = softmax_rows(0.5 * S)\n  show A\n";
    Lesson *l = lesson_parse(text, sizeof text - 1, "t.lesson", &err);
    ck_assert_msg(l != NULL, "%s", err.msg);
    asked = lesson_eval(l, NULL, 0, &err);
    int inverted = 0;
    for (unsigned seed = 1; seed <= 40; seed++) {
        LessonBug bug;
        ck_assert_int_eq(lesson_bug_plant(l, asked, seed, &bug, &err), 0);
        if (strcmp(bug.kind, "scale-inverted") == 0) {
            inverted++;
            ck_assert_str_eq(bug.planted, "A = softmax_rows(S / 0.5)");
        }
        lesson_bug_free(&bug);
    }
    ck_assert_int_gt(inverted, 0);
    lesson_state_free(asked);
    lesson_free(l);
}
END_TEST

/* A hunt's text never quotes the right number beside the bug's: a number
 * a changed cell reads as becomes the bug's, or '?' where the cells that
 * read so disagree (lesson_bug_text); the handout prints it so. */
START_TEST(the_hunt_text_quotes_the_bugs_numbers)
{
    const char text[] = "lesson Twice\nabout A scale.\nlet S = [1 2]\n"
                        "step S\n  let A = S * 2\n  show A\n";
    LessonError err;
    Lesson *l = lesson_parse(text, sizeof text - 1, "t.lesson", &err);
    ck_assert_msg(l != NULL, "%s", err.msg);
    LessonState *asked = lesson_eval(l, NULL, 0, &err);
    int planted = 0;
    for (unsigned seed = 1; seed <= 40 && !planted; seed++) {
        LessonBug bug;
        ck_assert_int_eq(lesson_bug_plant(l, asked, seed, &bug, &err), 0);
        if (strcmp(bug.kind, "scaled-twice") == 0) {
            planted = 1;
            /* 2.00 is S[1,2] (kept) and A[1,1] (now 4): hidden; 4.00 is
             * only A[1,2], now 8; 2 has no decimals: not a quote */
            char *shown = lesson_bug_text(asked, &bug, "A is 2.00 and 4.00 (4.000), twice S; x1.25 stays.");
            ck_assert_str_eq(shown, "A is ? and 8.00 (8.000), twice S; x1.25 stays.");
            free(shown);
        }
        lesson_bug_free(&bug);
    }
    ck_assert(planted);
    lesson_state_free(asked);
    lesson_free(l);
    /* lesson 02, seed 1 (softmax down the columns): the prose's (0.28) and
     * the hint's 0.2801*0.3048 named A[1,1] as written beside the bug's */
    char path[600];
    snprintf(path, sizeof path, "%s/02-sky-is-blue.lesson", lessons_dir());
    CmdResult r = cmd_runf("%s run --bug 1 %s", attn_bin(), path);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(!strstr(r.out, "(0.28)") && !strstr(r.out, "0.2801*"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "?*0.3048 + ?*0.0763 + ?*0.0921"), "%s", r.out);
    cmd_free(&r);
    r = cmd_runf("%s run --bug 1 --json %s", attn_bin(), path);
    ck_assert_msg(!strstr(r.out, "(0.28)") && !strstr(r.out, "0.2801*"), "%s", r.out);
    cmd_free(&r);
}
END_TEST

/* Does some cell of s read as v at decimals (rounded), changed in
 * other (when other is given) or in any case? */
static int some_cell_reads(const LessonState *s, const LessonState *other, double v, int decimals)
{
    double unit = pow(10.0, -decimals);
    for (int i = 0; i < lesson_state_count(s); i++) {
        const Mat *m = lesson_state_at(s, i);
        const Mat *o = other ? lesson_state_get(other, m->name) : NULL;
        for (int r = 0; r < m->rows; r++)
            for (int c = 0; c < m->cols; c++) {
                double x = mat_get(m, r, c);
                if (!isfinite(x) || fabs(round(x / unit) * unit - v) >= unit / 2)
                    continue;
                if (!other || (o && o->rows == m->rows && o->cols == m->cols
                               && fabs(round(mat_get(o, r, c) / unit) * unit - v) >= unit / 2))
                    return 1;
            }
    }
    return 0;
}

/* Every number of text with two decimals or more that a cell the bug
 * changed reads as written is also read by a cell with the bug: 1, or 0
 * with the number in bad. */
static int text_is_fair(const LessonState *asked, const LessonState *bugged, const char *text, char *bad, size_t size)
{
    for (const char *p = text; *p; p++) {
        if (!isdigit((unsigned char)*p) || (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '.')))
            continue;
        const char *q = p;
        while (isdigit((unsigned char)*q))
            q++;
        if (*q != '.' || !isdigit((unsigned char)q[1]) || !isdigit((unsigned char)q[2])) {
            p = q - 1;
            continue;
        }
        const char *d = q + 1;
        while (isdigit((unsigned char)*d))
            d++;
        int decimals = (int)(d - q - 1), neg = p > text && p[-1] == '-';
        double v = strtod(p, NULL) * (neg ? -1 : 1);
        /* a changed cell reads so as written (other: bugged), and no
         * bugged cell does */
        if (some_cell_reads(asked, bugged, v, decimals) && !some_cell_reads(bugged, NULL, v, decimals)) {
            snprintf(bad, size, "%.*s", (int)(d - p), p);
            return 0;
        }
        p = d - 1;
    }
    return 1;
}

/* The rule over every shipped lesson and seeds 1..50: the hunt's text
 * (each step's prose, each hint) quotes no number that only the lesson as
 * written has: each one a changed cell reads as written, a cell with the
 * bug reads too. */
START_TEST(no_hunt_text_quotes_a_right_number)
{
    Shipped s = shipped_load();
    int rewritten = 0;
    for (int i = 0; i < s.n; i++) {
        const Lesson *l = s.lessons[i];
        LessonError err;
        LessonState *asked = lesson_eval(l, NULL, 0, &err);
        ck_assert_msg(asked != NULL, "%s: %s", s.paths[i], err.msg);
        for (unsigned seed = 1; seed <= 50; seed++) {
            LessonBug bug;
            ck_assert_int_eq(lesson_bug_plant(l, asked, seed, &bug, &err), 0);
            for (int k = 0; k < lesson_n_steps(l); k++) {
                const LessonStep *st = lesson_step(l, k);
                int n_texts = 1;
                for (int e = 0; e < st->n_exercises; e++)
                    n_texts += st->exercises[e].n_hints;
                for (int x = 0; x < n_texts; x++) {
                    const char *text = st->text;
                    for (int e = 0, at = 1; x > 0 && e < st->n_exercises; e++)
                        for (int h = 0; h < st->exercises[e].n_hints; h++, at++)
                            if (at == x)
                                text = st->exercises[e].hints[h];
                    char *once = lesson_bug_text(asked, &bug, text), bad[64];
                    rewritten += strcmp(once, text) != 0;
                    ck_assert_msg(text_is_fair(asked, bug.state, once, bad, sizeof bad),
                                  "%s seed %u step %d: %s is a right number beside the bug's:\n%s", s.paths[i], seed,
                                  k + 1, bad, once);
                    /* and the rule bites: the text as written fails it
                     * wherever the hunt changed it */
                    if (strcmp(once, text) != 0)
                        rewritten += !text_is_fair(asked, bug.state, text, bad, sizeof bad);
                    free(once);
                }
            }
            lesson_bug_free(&bug);
        }
        lesson_state_free(asked);
    }
    ck_assert_msg(rewritten > 0, "no hunt rewrote any text: the rule was never tried");
    shipped_free(&s);
}
END_TEST

/* One source for a bug handout's answers: the key, the JSON and the
 * grader agree (lesson 14 seed 2 printed the bug's A_alibi[5,1] = 0.1006
 * as the answer, which grade --bug 2 wronged); a handout for people prints
 * no answer without --key (beside the bug's numbers it points at it). */
START_TEST(a_bug_handouts_answers_have_one_source)
{
    char path[600];
    snprintf(path, sizeof path, "%s/14-masks.lesson", lessons_dir());
    CmdResult r = cmd_runf("%s run --bug 2 %s", attn_bin(), path);
    ck_assert_msg(!strstr(r.out, "Answer: A_alibi") && strstr(r.out, "Answer: ____"), "%s", r.out);
    cmd_free(&r);
    r = cmd_runf("%s run --bug 2 --key %s", attn_bin(), path);
    ck_assert_msg(strstr(r.out, "Answer: A_alibi[5,1] = 0.0259"), "%s", r.out);
    cmd_free(&r);
    r = cmd_runf("%s run --bug 2 --json %s", attn_bin(), path);
    ck_assert_msg(strstr(r.out, "\"answer\": \"A_alibi[5,1]\", \"expected\": 0.0259"), "%.2000s", r.out);
    cmd_free(&r);
    char sheet[] = "/tmp/attn-bugsheet-XXXXXX";
    int fd = mkstemp(sheet);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_gt(write(fd, "4: 0.0259\n", 10), 0);
    close(fd);
    r = cmd_runf("%s grade --bug 2 %s %s", attn_bin(), path, sheet);
    ck_assert_msg(strstr(r.out, "4 ✓ 0.0259: right"), "%s", r.out);
    cmd_free(&r);
    unlink(sheet);
}
END_TEST

Suite *bug_suite(void)
{
    Suite *s = suite_create("bug");
    TCase *c = tcase_create("core");
    tcase_set_timeout(c, 300);
    tcase_add_test(c, every_lesson_every_seed);
    tcase_add_test(c, a_bug_handout_and_its_key);
    tcase_add_test(c, the_hunt_text_quotes_the_bugs_numbers);
    tcase_add_test(c, a_bug_handouts_answers_have_one_source);
    tcase_add_test(c, no_hunt_text_quotes_a_right_number);
    tcase_add_test(c, the_bug_itself_is_right);
    tcase_add_test(c, the_same_numbers_are_right);
    tcase_add_test(c, a_hunt_is_kept);
    tcase_add_test(c, grade_a_bug_sheet);
    tcase_add_test(c, a_scale_mistake_only_where_a_scale_is);
    suite_add_tcase(s, c);
    return s;
}
