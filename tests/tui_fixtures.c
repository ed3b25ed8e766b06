/*
 * tui_fixtures.c - what the screen tests open: a small lesson with known
 * numbers, the shipped lessons loaded, stepping through a lesson, and
 * saving a lesson file as editors do (in place, or by rename).
 */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <signal.h>
#include <pty.h>
#include <poll.h>

#include "lessonfile.h"
#include "testutil.h"
#include "tmux.h"
#include "tui_fixtures.h"

/* A small lesson with known numbers: set-up, a product, a softmax with a
 * fully masked row, an exercise with hints. */
const char *small_lesson =
    "# a lesson for the screen tests\n"
    "lesson Tiny attention\n"
    "about  Two tokens, a mask, one exercise.\n"
    "tokens ab cd\n"
    "let X = [ 1 2 ; 3 4 ]\n"
    "let W = [ 0.5 0 ; 0 2 ]\n"
    "step Products\n"
    "  text\n"
    "    P is X times W. Every entry of P is a dot product.\n"
    "  end\n"
    "  let P = X @ W\n"
    "  show X W P\n"
    "  exercise What is P[2,2]?\n"
    "    answer P[2,2] within 0.001\n"
    /* the other tests read P[2,2]: the cell kept as '?' is P[1,2] */
    "    hide   P[1,2]\n"
    "    hint   Row 2 of X, column 2 of W.\n"
    "    hint   3*0 + 4*2.\n"
    "  end\n"
    "step Weights\n"
    "  text\n"
    "    A softmax of masked scores: the second row is all -inf.\n"
    "  end\n"
    "  let M = [ 0 -inf ; -inf -inf ]\n"
    "  let S = P + M\n"
    "  let A = softmax_rows(S)\n"
    "  show S A\n"
    "  heatmap A\n";

static char small_path[256];

const char *small_lesson_path(void)
{
    const char *p = write_temp(".lesson", small_lesson);
    ck_assert_msg(p != NULL, "cannot write a temporary lesson");
    snprintf(small_path, sizeof small_path, "%s", p);
    return small_path;
}

/* Start attn on a fresh copy of the small lesson at cols x rows (env as for
 * tmux_start) and wait for its set-up screen. Returns the lesson's path,
 * valid until the next call, for a test that starts it again. */
const char *open_small_lesson(Tmux *t, int cols, int rows, const char *env)
{
    const char *path = small_lesson_path();
    tmux_start(t, cols, rows, env, path);
    WAIT_FOR(t, "Set-up");
    return path;
}

Shipped shipped_load(void)
{
    Shipped s = { 0 };
    s.paths = lessonfile_list(lessons_dir());
    ck_assert_msg(s.paths != NULL, "cannot list the lessons in %s", lessons_dir());
    while (s.paths[s.n])
        s.n++;
    s.lessons = calloc((size_t)s.n + 1, sizeof *s.lessons);
    for (int i = 0; i < s.n; i++) {
        LessonError err;
        s.lessons[i] = lessonfile_load(s.paths[i], &err);
        ck_assert_msg(s.lessons[i] != NULL, "shipped lesson %s does not parse: %s:%d:%d: %s", s.paths[i], err.file,
                      err.line, err.col, err.msg);
    }
    return s;
}

void shipped_free(Shipped *s)
{
    for (int i = 0; i < s->n; i++)
        lesson_free(s->lessons[i]);
    free(s->lessons);
    lessonfile_list_free(s->paths);
}

int n_screens(const Lesson *l)
{
    return lesson_n_steps(l) + (lesson_n_setup(l) > 0);
}

const char *screen_label(const Lesson *l, int k, char *buf, size_t size)
{
    int setup = lesson_n_setup(l) > 0;
    if (setup && k == 1)
        snprintf(buf, size, "Set-up, then");
    else
        snprintf(buf, size, "step %d/%d", k - setup, lesson_n_steps(l));
    return buf;
}

/* Step through one lesson from its first screen to its end. */
void step_through(Tmux *t, const Lesson *l)
{
    int n = n_screens(l), setup = lesson_n_setup(l) > 0;
    for (int k = 1; k <= n; k++) {
        char want[64];
        screen_label(l, k, want, sizeof want);
        WAIT_FOR(t, want);
        if (k > setup) {
            /* the step's title, as far as the title bar has room for it */
            char title[24];
            snprintf(title, sizeof title, "%s", lesson_step(l, k - 1 - setup)->title);
            ck_assert_msg(strstr(t->last, title), "step %d of %s: title \"%s\" not shown:\n%s", k,
                          lesson_title(l), title, t->last);
        }
        tmux_keys(t, "n");
    }
    WAIT_FOR(t, "the end of the lesson");
}

/* The lesson among the shipped ones whose file name contains part. */
int find_lesson(const Shipped *s, const char *part)
{
    for (int i = 0; i < s->n; i++)
        if (strstr(s->paths[i], part))
            return i;
    return -1;
}

/* The screen (1-based) of the first step showing name, or 0. */
int screen_showing(const Lesson *l, const char *name)
{
    for (int k = 0; k < lesson_n_steps(l); k++) {
        const LessonStep *st = lesson_step(l, k);
        char **names = st->n_show ? st->show : st->defines;
        int n = st->n_show ? st->n_show : st->n_defines;
        for (int j = 0; j < n; j++)
            if (strcmp(names[j], name) == 0)
                return k + (lesson_n_setup(l) > 0) + 1;
    }
    return 0;
}

/* Open lesson l at 250x70 on the given screen. */
void open_at_screen(Tmux *t, const char *path, const Lesson *l, int screen)
{
    char args[600], want[64];
    snprintf(args, sizeof args, "%s", path);
    tmux_start(t, 250, 70, NULL, args);
    screen_label(l, 1, want, sizeof want);
    WAIT_FOR(t, want);
    for (int k = 1; k < screen; k++)
        tmux_keys(t, "n");
    screen_label(l, screen, want, sizeof want);
    WAIT_FOR(t, want);
}

/* small_lesson with the first `from` replaced by `to` (malloc'd); *line
 * gets the 1-based line of the replacement. */
char *small_lesson_with(const char *from, const char *to, int *line)
{
    const char *at = strstr(small_lesson, from);
    ck_assert_msg(at != NULL, "\"%s\" is not in the small lesson", from);
    size_t head = (size_t)(at - small_lesson), n = strlen(small_lesson) - strlen(from) + strlen(to) + 1;
    char *out = malloc(n);
    ck_assert_ptr_nonnull(out);
    snprintf(out, n, "%.*s%s%s", (int)head, small_lesson, to, at + strlen(from));
    if (line) {
        *line = 1;
        for (const char *p = small_lesson; p < at; p++)
            *line += *p == '\n';
    }
    return out;
}

/* Save text over path as an editor that writes in place does. */
void save_in_place(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot rewrite %s", path);
    fputs(text, f);
    fclose(f);
}

/* Save text over path as an editor that renames a new file over it does
 * (vim's writebackup, sed -i): a new inode. */
void save_by_rename(const char *path, const char *text)
{
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s.new", path);
    save_in_place(tmp, text);
    ck_assert_msg(rename(tmp, path) == 0, "cannot rename %s over %s", tmp, path);
}
