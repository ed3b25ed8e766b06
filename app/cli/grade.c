/*
 * grade.c - `attn grade LESSON SHEET...`: the engine's judge on answers
 * handed in on paper or by script. A sheet has lines `N: ANSWER` (N the
 * exercise's number, as `attn run` and the screen number them; ANSWER what
 * a student would type on the screen), `#` comments and blank lines. Each
 * exercise of the lesson gets one line, `N ✓ ANSWER: right`, `N ✗ ANSWER:
 * MESSAGE` or `N - unanswered`, then `R right, W wrong, U unanswered`;
 * several sheets add a summary of the diagnoses most common per exercise.
 * --json and --tap give the same verdicts to programs. Nothing is saved:
 * grading never touches anyone's progress.
 *
 * A sheet for a bug handout (`attn run --bug N`) graded with --bug N may
 * hold one line `bug: MATRIX KIND`: the first wrong matrix and the
 * mistake (its id or its number in the list `attn bug` shows), each judged
 * by the engine as the screen judges them; the bug counts as one more item,
 * right when both are.
 *
 * Exit status: 0 every exercise of every sheet right, 1 otherwise, 2 the
 * lesson or a sheet cannot be read (or a usage error).
 */
#include "cli.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "fileread.h"
#include "json_write.h"
#include "lesson.h"
#include "teach.h"
#include "report.h"
#include "session.h"

/* The largest sheet read (bytes). */
#define SHEET_MAX_BYTES (1L << 20)

typedef enum { GRADE_TEXT, GRADE_JSON, GRADE_TAP } GradeFormat;

/* One exercise of one sheet: the answer as written (NULL: none) and the
 * judge's verdict on it. */
typedef struct {
    char *answer;
    int line;               /* the sheet's line, 0 when unanswered          */
    Judgement j;
} Graded;

typedef struct {
    const char *path;
    Graded *g;              /* one per exercise of the lesson               */
    int right, wrong, unanswered;
    /* a bug handout's `bug: MATRIX KIND` (NULL: none given) and verdicts */
    char *bug_matrix, *bug_kind;
    int bug_line;
    BugVerdict on_matrix, on_kind;
} Sheet;

static int grade_usage(const char *why, const char *arg)
{
    char shown[512];
    fputs("attn: ", stderr);
    fprintf(stderr, why, arg ? term_escape(arg, shown, sizeof shown) : "");
    fputs("\nusage: attn grade [--json | --tap] [--bug N] LESSON SHEET...\n"
          "       a sheet has lines 'N: ANSWER' (N the exercise's number), '#' comments and blank lines;\n"
          "       with --bug N (a bug handout's seed), one line 'bug: MATRIX KIND'\n",
          stderr);
    return 2;
}

/* A sheet's error at line:col, in the form of the lesson's errors. */
static int sheet_error(const char *path, int line, int col, const char *msg, const char *text, size_t len)
{
    char name[512], shown[256], src[256];
    size_t n = len < sizeof src - 1 ? len : sizeof src - 1;
    memcpy(src, text, n);
    src[n] = '\0';
    fprintf(stderr, "%s:%d:%d: error: %s\n  %s\n  %*s^\n", term_escape(path, name, sizeof name), line, col, msg,
            term_escape(src, shown, sizeof shown), col - 1, "");
    return -1;
}

/* A `bug: MATRIX KIND` line (ln[i..ll) from "bug") into sh. 0, or -1
 * after saying why. */
static int read_bug_line(const char *path, int lineno, const char *ln, size_t i, size_t ll, int bug_given, Sheet *sh)
{
    if (!bug_given)
        return sheet_error(path, lineno, (int)i + 1, "a 'bug:' line answers a bug handout: grade it with --bug N, "
                           "N the handout's seed", ln, ll);
    if (sh->bug_matrix) {
        char msg[120];
        snprintf(msg, sizeof msg, "the bug is answered twice (first on line %d)", sh->bug_line);
        return sheet_error(path, lineno, (int)i + 1, msg, ln, ll);
    }
    size_t a = i + 3;
    while (a < ll && (ln[a] == ' ' || ln[a] == '\t'))
        a++;
    a++;    /* the colon */
    while (a < ll && (ln[a] == ' ' || ln[a] == '\t'))
        a++;
    size_t m_end = a;
    while (m_end < ll && ln[m_end] != ' ' && ln[m_end] != '\t')
        m_end++;
    size_t k = m_end;
    while (k < ll && (ln[k] == ' ' || ln[k] == '\t'))
        k++;
    size_t k_end = ll;
    while (k_end > k && (ln[k_end - 1] == ' ' || ln[k_end - 1] == '\t'))
        k_end--;
    if (a == m_end || k == k_end)
        return sheet_error(path, lineno, (int)(a == m_end ? a : k) + 1,
                           "expected 'bug: MATRIX KIND': the first wrong matrix, then the mistake", ln, ll);
    sh->bug_matrix = strndup(ln + a, m_end - a);
    sh->bug_kind = strndup(ln + k, k_end - k);
    if (!sh->bug_matrix || !sh->bug_kind) {
        fputs("attn: out of memory\n", stderr);
        return -1;
    }
    sh->bug_line = lineno;
    return 0;
}

/* Read the sheet at path into its answers (one slot per exercise, and the
 * bug's when bug_given). 0, or -1 after saying why on stderr. */
static int read_sheet(const char *path, int n_ex, Sheet *sh, int bug_given)
{
    Graded *g = sh->g;
    char *text, why[300], name[512];
    size_t len;
    if (fileread_text(path, SHEET_MAX_BYTES, &text, &len, why, sizeof why) != 0) {
        fprintf(stderr, "attn: cannot read the answer sheet %s: %s\n", term_escape(path, name, sizeof name), why);
        return -1;
    }
    int rc = 0, lineno = 0;
    for (size_t p = 0; p < len && rc == 0;) {
        size_t end = p;
        while (end < len && text[end] != '\n')
            end++;
        const char *ln = text + p;
        size_t ll = end - p;
        if (ll > 0 && ln[ll - 1] == '\r')
            ll--;
        lineno++;
        p = end + 1;
        size_t i = 0;
        while (i < ll && (ln[i] == ' ' || ln[i] == '\t'))
            i++;
        if (i == ll || ln[i] == '#')
            continue;
        if (memchr(ln, '\0', ll)) {
            rc = sheet_error(path, lineno, 1, "this line holds a NUL byte: a sheet is text", ln, 0);
            break;
        }
        size_t w = i + 3;
        while (w < ll && (ln[w] == ' ' || ln[w] == '\t'))
            w++;
        if (ll - i >= 3 && strncmp(ln + i, "bug", 3) == 0 && w < ll && ln[w] == ':') {
            rc = read_bug_line(path, lineno, ln, i, ll, bug_given, sh);
            continue;
        }
        size_t d = i;
        long num = 0;
        while (d < ll && isdigit((unsigned char)ln[d]) && num < 1000000)
            num = num * 10 + (ln[d++] - '0');
        size_t colon = d;
        while (colon < ll && (ln[colon] == ' ' || ln[colon] == '\t'))
            colon++;
        if (d == i || colon >= ll || ln[colon] != ':') {
            rc = sheet_error(path, lineno, (int)(d == i ? i : colon) + 1,
                             "expected 'N: ANSWER', N the exercise's number", ln, ll);
            break;
        }
        if (num < 1 || num > n_ex) {
            char msg[120];
            snprintf(msg, sizeof msg, "the lesson has exercises 1 to %d; there is no exercise %ld", n_ex, num);
            rc = sheet_error(path, lineno, (int)i + 1, msg, ln, ll);
            break;
        }
        Graded *at = &g[num - 1];
        if (at->answer) {
            char msg[120];
            snprintf(msg, sizeof msg, "exercise %ld is answered twice (first on line %d)", num, at->line);
            rc = sheet_error(path, lineno, (int)i + 1, msg, ln, ll);
            break;
        }
        size_t a = colon + 1, b = ll;
        while (a < b && (ln[a] == ' ' || ln[a] == '\t'))
            a++;
        while (b > a && (ln[b - 1] == ' ' || ln[b - 1] == '\t'))
            b--;
        if (a == b)
            continue;       /* "3:" left blank: unanswered */
        at->answer = malloc(b - a + 1);
        if (!at->answer) {
            fputs("attn: out of memory\n", stderr);
            rc = -1;
            break;
        }
        memcpy(at->answer, ln + a, b - a);
        at->answer[b - a] = '\0';
        at->line = lineno;
    }
    free(text);
    return rc;
}

/* The sheet's bug, judged as the screen judges it; the bug is one item. */
static void judge_bug(const Lesson *l, const LessonState *asked, const LessonBug *bug, Sheet *sh)
{
    if (!sh->bug_matrix) {
        sh->unanswered++;
        return;
    }
    lesson_bug_judge_matrix(l, asked, bug, sh->bug_matrix, &sh->on_matrix);
    lesson_bug_judge_kind(l, asked, bug, sh->bug_kind, &sh->on_kind);
    if (sh->on_matrix.right == 1 && sh->on_kind.right == 1)
        sh->right++;
    else
        sh->wrong++;
}

static void judge_sheet(LessonJudge *judge, const Lesson *l, Sheet *sh)
{
    for (int i = 0; i < lesson_n_exercises(l); i++) {
        Graded *g = &sh->g[i];
        if (!g->answer) {
            sh->unanswered++;
            continue;
        }
        lesson_judge(judge, lesson_exercise_at(l, i), g->answer, NULL, &g->j);
        if (g->j.verdict == VERDICT_RIGHT)
            sh->right++;
        else
            sh->wrong++;
    }
}

static const char *mark(const BugVerdict *v) { return v->right == 1 ? "✓" : "✗"; }

static void print_text(const Lesson *l, const Sheet *sh, int n_sheets, const LessonBug *bug)
{
    char shown[256], name[512];
    if (n_sheets > 1)
        printf("%s\n", term_escape(sh->path, name, sizeof name));
    for (int i = 0; i < lesson_n_exercises(l); i++) {
        const Graded *g = &sh->g[i];
        if (!g->answer)
            printf("%d - unanswered\n", i + 1);
        else
            printf("%d %s %s: %s\n", i + 1, g->j.verdict == VERDICT_RIGHT ? "✓" : "✗",
                   term_escape(g->answer, shown, sizeof shown), g->j.msg);
    }
    if (bug && !sh->bug_matrix) {
        printf("bug - unanswered\n");
    } else if (bug) {
        char kind[256];
        const char *id = lesson_bug_kind_named(sh->bug_kind);
        printf("bug %s the first wrong matrix, %s: %s\n", mark(&sh->on_matrix),
               term_escape(sh->bug_matrix, shown, sizeof shown), sh->on_matrix.msg);
        printf("bug %s the mistake, %s%s%s%s: %s\n", mark(&sh->on_kind), term_escape(sh->bug_kind, kind, sizeof kind),
               id && strcmp(id, sh->bug_kind) ? " (" : "", id && strcmp(id, sh->bug_kind) ? id : "",
               id && strcmp(id, sh->bug_kind) ? ")" : "", sh->on_kind.msg);
    }
    printf("%d right, %d wrong, %d unanswered\n", sh->right, sh->wrong, sh->unanswered);
}

/* Which diagnoses a class made on each exercise, most common first. */
static void print_summary(const Lesson *l, const Sheet *sheets, int n)
{
    printf("\n%d sheets: the mistakes named, exercise by exercise\n", n);
    for (int i = 0; i < lesson_n_exercises(l); i++) {
        int right = 0, wrong = 0, open = 0, counts[64] = { 0 }, unnamed = 0;
        for (int s = 0; s < n; s++) {
            const Graded *g = &sheets[s].g[i];
            if (!g->answer) {
                open++;
                continue;
            }
            if (g->j.verdict == VERDICT_RIGHT) {
                right++;
                continue;
            }
            wrong++;
            int found = 0;
            for (int d = 0; d < lesson_n_diagnoses() && d < 64; d++)
                if (strcmp(lesson_diagnosis_id(d), g->j.diagnosis) == 0) {
                    counts[d]++;
                    found = 1;
                }
            unnamed += !found;
        }
        printf("%d: %d right, %d wrong, %d unanswered", i + 1, right, wrong, open);
        const char *sep = "; ";
        for (;;) {
            int best = -1;
            for (int d = 0; d < lesson_n_diagnoses() && d < 64; d++)
                if (counts[d] > 0 && (best < 0 || counts[d] > counts[best]))
                    best = d;
            if (best < 0)
                break;
            printf("%s%d %s", sep, counts[best], lesson_diagnosis_words(lesson_diagnosis_id(best)));
            counts[best] = 0;
            sep = ", ";
        }
        if (unnamed)
            printf("%s%d not named", sep, unnamed);
        putchar('\n');
    }
}

/* The sheet's bug: "bug": {...}, what was answered of it (null when not). */
static void json_bug(JsonWriter *w, const LessonBug *bug, const Sheet *sh)
{
    const char *kind = sh->bug_kind && lesson_bug_kind_named(sh->bug_kind) ? lesson_bug_kind_named(sh->bug_kind)
                                                                           : sh->bug_kind;
    jw_object(w, "bug");
    jw_int(w, "seed", bug->seed);
    jw_str(w, "matrix", sh->bug_matrix);
    jw_str(w, "kind", sh->bug_matrix ? kind : NULL);
    jw_str(w, "verdict", !sh->bug_matrix ? "unanswered"
                         : sh->on_matrix.right == 1 && sh->on_kind.right == 1 ? "right" : "wrong");
    jw_bool(w, "matrix_right", sh->bug_matrix && sh->on_matrix.right == 1);
    jw_str(w, "matrix_message", sh->bug_matrix ? sh->on_matrix.msg : NULL);
    jw_bool(w, "kind_right", sh->bug_matrix && sh->on_kind.right == 1);
    jw_str(w, "kind_message", sh->bug_matrix ? sh->on_kind.msg : NULL);
    jw_close(w, '}');
}

/* "exercises": [...] of a sheet, then its counts. */
static void json_exercises(JsonWriter *w, const Lesson *l, const Sheet *sh)
{
    jw_array(w, "exercises");
    for (int i = 0; i < lesson_n_exercises(l); i++) {
        const Graded *g = &sh->g[i];
        jw_object(w, NULL);
        jw_int(w, "number", i + 1);
        jw_str(w, "question", lesson_exercise_at(l, i)->question);
        jw_str(w, "answer", g->answer);
        jw_str(w, "verdict", g->answer ? verdict_word(g->j.verdict) : "unanswered");
        jw_str(w, "diagnosis", g->answer && g->j.diagnosis[0] ? g->j.diagnosis : NULL);
        jw_str(w, "message", g->answer ? g->j.msg : "unanswered");
        jw_close(w, '}');
    }
    jw_close(w, ']');
    jw_int(w, "right", sh->right);
    jw_int(w, "wrong", sh->wrong);
    jw_int(w, "unanswered", sh->unanswered);
}

static int print_json(const Lesson *l, const Sheet *sheets, int n, const LessonBug *bug)
{
    JsonWriter w;
    jw_begin(&w);
    jw_str(&w, "lesson", lesson_title(l));
    if (n == 1) {
        json_exercises(&w, l, &sheets[0]);
        if (bug)
            json_bug(&w, bug, &sheets[0]);
    } else {
        jw_array(&w, "sheets");
        for (int s = 0; s < n; s++) {
            jw_object(&w, NULL);
            jw_str(&w, "sheet", sheets[s].path);
            json_exercises(&w, l, &sheets[s]);
            if (bug)
                json_bug(&w, bug, &sheets[s]);
            jw_close(&w, '}');
        }
        jw_close(&w, ']');
    }
    jw_end(&w);
    return jw_print(&w, stdout);
}

/* One TAP test point per exercise of each sheet. */
static int print_tap(const Lesson *l, const Sheet *sheets, int n, const LessonBug *bug)
{
    ReportList list = { 0 };
    char shown[256];
    for (int s = 0; s < n; s++)
        for (int i = 0; i < lesson_n_exercises(l); i++) {
            const Graded *g = &sheets[s].g[i];
            ReportItem *it = report_add(&list, sheets[s].path);
            if (!it) {
                free(list.items);
                fputs("attn: out of memory\n", stderr);
                return -1;
            }
            it->kind = REPORT_EXERCISE;
            it->line = g->line;
            it->passed = g->answer && g->j.verdict == VERDICT_RIGHT;
            snprintf(it->what, sizeof it->what, "%d: %s", i + 1, lesson_exercise_at(l, i)->question);
            if (!g->answer)
                snprintf(it->detail, sizeof it->detail, "unanswered");
            else if (!it->passed)
                snprintf(it->detail, sizeof it->detail, "%s: %s%s%s%s",
                         term_escape(g->answer, shown, sizeof shown), g->j.msg, g->j.diagnosis[0] ? " [" : "",
                         g->j.diagnosis, g->j.diagnosis[0] ? "]" : "");
        }
    for (int s = 0; bug && s < n; s++) {
        const Sheet *sh = &sheets[s];
        ReportItem *it = report_add(&list, sh->path);
        if (!it) {
            free(list.items);
            fputs("attn: out of memory\n", stderr);
            return -1;
        }
        it->kind = REPORT_EXERCISE;
        it->line = sh->bug_line;
        it->passed = sh->bug_matrix && sh->on_matrix.right == 1 && sh->on_kind.right == 1;
        snprintf(it->what, sizeof it->what, "bug (seed %u): the first wrong matrix and the mistake", bug->seed);
        if (!sh->bug_matrix)
            snprintf(it->detail, sizeof it->detail, "unanswered");
        else if (!it->passed)
            snprintf(it->detail, sizeof it->detail, "%s", sh->on_matrix.right != 1 ? sh->on_matrix.msg : sh->on_kind.msg);
    }
    report_tap(stdout, list.items, list.n);
    free(list.items);
    return 0;
}

int cli_grade(int argc, char **argv)
{
    GradeFormat fmt = GRADE_TEXT;
    const char *lesson = NULL;
    int bug_given = 0;
    unsigned long bug_seed = 0;
    const char **paths = calloc((size_t)argc, sizeof *paths);
    int n_paths = 0;
    if (!paths)
        return 2;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0 || strcmp(argv[i], "--tap") == 0) {
            GradeFormat f = argv[i][2] == 'j' ? GRADE_JSON : GRADE_TAP;
            if (fmt != GRADE_TEXT && fmt != f) {
                free(paths);
                return grade_usage("--json and --tap do not go together%s", NULL);
            }
            fmt = f;
        } else if (strcmp(argv[i], "--bug") == 0) {
            unsigned seed;
            if (i + 1 >= argc || lesson_bug_seed_parse(argv[i + 1], &seed) != 0) {
                free(paths);
                return grade_usage("--bug needs the handout's seed, a whole number (e.g. --bug 7)%s", NULL);
            }
            bug_seed = seed;
            bug_given = 1;
            i++;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            free(paths);
            return grade_usage("unknown option '%s'", argv[i]);
        } else if (!lesson) {
            lesson = argv[i];
        } else {
            paths[n_paths++] = argv[i];
        }
    }
    if (!lesson || n_paths == 0) {
        free(paths);
        return grade_usage(lesson ? "no answer sheet given%s" : "no lesson given%s", NULL);
    }
    LessonError err;
    Session *ses = session_open(lesson, &err);
    if (!ses) {
        char buf[1024];
        fputs(term_lesson_error(&err, buf, sizeof buf), stderr);
        free(paths);
        return 2;
    }
    const Lesson *l = session_lesson(ses);
    int n_ex = lesson_n_exercises(l);
    LessonBug bug = { 0 };
    if (bug_given && lesson_bug_plant(l, session_asked_state(ses), (unsigned)bug_seed, &bug, &err) != 0) {
        char shown[512];
        fprintf(stderr, "attn: %s: %s\n", term_escape(lesson, shown, sizeof shown), err.msg);
        session_free(ses);
        free(paths);
        return 2;
    }
    LessonJudge *judge = lesson_judge_new(l, session_asked_state(ses));
    Sheet *sheets = calloc((size_t)n_paths, sizeof *sheets);
    int rc = judge && sheets ? 0 : 2, unreadable = 0, n_read = 0;
    /* a sheet that cannot be read is named (on stderr, with its line and
     * column) and left out; the others are graded all the same, and the
     * exit status says one was not */
    for (int s = 0; s < n_paths && rc == 0; s++) {
        Sheet *sh = &sheets[n_read];
        sh->path = paths[s];
        sh->g = calloc((size_t)(n_ex > 0 ? n_ex : 1), sizeof *sh->g);
        if (!sh->g) {
            rc = 2;
        } else if (read_sheet(paths[s], n_ex, sh, bug_given) != 0) {
            for (int i = 0; i < n_ex; i++)
                free(sh->g[i].answer);
            free(sh->g);
            free(sh->bug_matrix);
            free(sh->bug_kind);
            memset(sh, 0, sizeof *sh);
            unreadable++;
        } else {
            judge_sheet(judge, l, sh);
            if (bug_given)
                judge_bug(l, session_asked_state(ses), &bug, sh);
            n_read++;
        }
    }
    n_paths = n_read;
    if (rc == 0 && n_paths > 0) {
        if (fmt == GRADE_JSON)
            rc = print_json(l, sheets, n_paths, bug_given ? &bug : NULL) == 0 ? 0 : 2;
        else if (fmt == GRADE_TAP)
            rc = print_tap(l, sheets, n_paths, bug_given ? &bug : NULL) == 0 ? 0 : 2;
        else {
            for (int s = 0; s < n_paths; s++) {
                if (s)
                    putchar('\n');
                print_text(l, &sheets[s], n_paths, bug_given ? &bug : NULL);
            }
            if (n_paths > 1)
                print_summary(l, sheets, n_paths);
        }
        for (int s = 0; s < n_paths && rc == 0; s++)
            if (sheets[s].right != n_ex + bug_given)
                rc = 1;
    }
    if (unreadable) {
        fprintf(stderr, "attn: %d sheet%s of %d could not be read and %s not graded (the others were)\n", unreadable,
                unreadable == 1 ? "" : "s", n_read + unreadable, unreadable == 1 ? "was" : "were");
        rc = 2;
    }
    for (int s = 0; sheets && s < n_paths; s++) {
        for (int i = 0; sheets[s].g && i < n_ex; i++)
            free(sheets[s].g[i].answer);
        free(sheets[s].g);
        free(sheets[s].bug_matrix);
        free(sheets[s].bug_kind);
    }
    free(sheets);
    lesson_bug_free(&bug);
    lesson_judge_free(judge);
    session_free(ses);
    free(paths);
    return rc;
}
