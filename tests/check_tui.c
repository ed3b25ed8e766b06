/*
 * check_tui.c - the terminal screen, tested for real: attn runs inside a
 * private tmux server (tmux -L attn-test-PID-N), the test types keys with
 * send-keys and reads the screen with capture-pane, polling every 50 ms
 * until the expected text appears (5 s at most). It covers the menu,
 * every shipped lesson stepped to its end at 80x24 and 250x70, with
 * colour and with NO_COLOR, the explanation of a cell and its operands,
 * heatmaps, help, editing, exercises, mouse clicks, the scaled-up cells of
 * a 250x70 projector screen (and clicks on them), resizing below the
 * minimum and back, leaving by q, Esc and signals with the terminal
 * restored, and live reload: the lesson file saved, broken, fixed and
 * removed while attn shows it, and the menu re-listed. ATTN_SKIP_TUI=1 registers none of the tmux tests (make
 * valgrind); a missing tmux fails them with a message.
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

#include "format.h"
#include "lessonfile.h"
#include "refdata.h"
#include "testutil.h"
#include "tui_keys.h"
#include "tui_layout.h"

#define POLL_MS 50
#define WAIT_MS 5000
#define WATCHDOG_S 60   /* no test session outlives this */

typedef struct {
    char sock[64];
    char last[131072];  /* the last screen captured (250x70 with colours fits) */
} Tmux;

static int tmux_serial;

static int have_tmux(void)
{
    CmdResult r = cmd_run("command -v tmux");
    int ok = r.status == 0;
    cmd_free(&r);
    return ok;
}

/* Start attn in a new tmux session of cols x rows. env is put before the
 * command (e.g. "NO_COLOR=1"), args after it. The shell around it reports
 * how attn left: "EXITED <status>". SIGINT is ignored by that shell so ^C
 * reaches attn alone. */
static void tmux_start(Tmux *t, int cols, int rows, const char *env, const char *args)
{
    ck_assert_msg(have_tmux(), "tmux is not installed: the screen tests need it (apt-get install tmux)");
    snprintf(t->sock, sizeof t->sock, "attn-test-%d-%d", (int)getpid(), tmux_serial++);
    t->last[0] = '\0';
    char inner[2048];
    snprintf(inner, sizeof inner,
             "trap '' INT; sh -c 'echo ATTN PID $$; exec env LC_ALL=C.UTF-8 TERM=xterm-256color "
             "ATTN_LESSONS=%s %s %s %s'; echo EXITED $?; sleep 20",
             lessons_dir(), env ? env : "", attn_bin(), args ? args : "");
    /* the command goes to tmux as one argument: quote it for sh */
    char quoted[4096];
    size_t q = 0;
    quoted[q++] = '\'';
    for (const char *p = inner; *p && q < sizeof quoted - 8; p++) {
        if (*p == '\'') {
            memcpy(quoted + q, "'\\''", 4);
            q += 4;
        } else {
            quoted[q++] = *p;
        }
    }
    quoted[q++] = '\'';
    quoted[q] = '\0';
    CmdResult r = cmd_runf("tmux -u -f /dev/null -L %s new-session -d -x %d -y %d sh -c %s", t->sock, cols, rows,
                           quoted);
    ck_assert_msg(r.status == 0, "tmux new-session failed (%d): %s", r.status, r.err);
    cmd_free(&r);
    /* a watchdog: a test that fails half-way never reaches tmux_stop, and
     * attn would wait for keys forever; this ends the server regardless.
     * setsid: libcheck kills the test's process group when it ends. */
    r = cmd_runf("setsid sh -c 'sleep %d; tmux -L %s kill-server' >/dev/null 2>&1 &", WATCHDOG_S, t->sock);
    cmd_free(&r);
}

static void tmux_stop(Tmux *t)
{
    CmdResult r = cmd_runf("tmux -L %s kill-server", t->sock);
    cmd_free(&r);
}

/* Capture the screen into t->last; with_attrs keeps the escape codes. */
static void tmux_capture(Tmux *t, int with_attrs)
{
    CmdResult r = cmd_runf("tmux -L %s capture-pane -p %s", t->sock, with_attrs ? "-e" : "");
    snprintf(t->last, sizeof t->last, "%s", r.out ? r.out : "");
    cmd_free(&r);
}

/* Poll until the screen shows text; 1 on success. */
static int tmux_wait_for(Tmux *t, const char *text)
{
    for (int waited = 0; waited <= WAIT_MS; waited += POLL_MS) {
        tmux_capture(t, 0);
        if (strstr(t->last, text))
            return 1;
        usleep(POLL_MS * 1000);
    }
    return 0;
}

#define WAIT_FOR(t, text)                                                                               \
    ck_assert_msg(tmux_wait_for((t), (text)), "the screen never showed \"%s\"; it shows:\n%s", (text), \
                  (t)->last)

/* Poll until the screen no longer shows text. */
static int tmux_wait_gone(Tmux *t, const char *text)
{
    for (int waited = 0; waited <= WAIT_MS; waited += POLL_MS) {
        tmux_capture(t, 0);
        if (!strstr(t->last, text))
            return 1;
        usleep(POLL_MS * 1000);
    }
    return 0;
}

/* Send tmux key names ("Down", "Enter", "n", "C-c"). */
static void tmux_keys(Tmux *t, const char *keys)
{
    CmdResult r = cmd_runf("tmux -L %s send-keys %s", t->sock, keys);
    ck_assert_msg(r.status == 0, "send-keys %s failed: %s", keys, r.err);
    cmd_free(&r);
}

/* Send text literally (typing into a prompt, or a mouse escape sequence). */
static void tmux_type(Tmux *t, const char *text)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "tmux -L %s send-keys -l '%s'", t->sock, text);
    CmdResult r = cmd_run(cmd);
    ck_assert_msg(r.status == 0, "send-keys -l failed: %s", r.err);
    cmd_free(&r);
}

/* 1 when an SGR sequence in s sets a colour (30-37, 38, 40-47, 48, 90-97,
 * 100-107); the resets 39 and 49 do not count. */
static int has_colour_codes(const char *s)
{
    for (const char *p = s; (p = strstr(p, "\033[")); ) {
        p += 2;
        while (*p >= '0' && *p <= '9') {
            int v = atoi(p);
            if ((v >= 30 && v <= 38) || (v >= 40 && v <= 48) || (v >= 90 && v <= 97) || (v >= 100 && v <= 107))
                return 1;
            while (*p >= '0' && *p <= '9')
                p++;
            if (*p == ';')
                p++;
        }
    }
    return 0;
}

static void tmux_quit_and_check(Tmux *t, const char *key, const char *expect)
{
    tmux_keys(t, key);
    WAIT_FOR(t, expect);
    /* the terminal is restored: attn's screen is gone, the shell's is back */
    ck_assert_msg(strstr(t->last, "attn ·") == NULL && strstr(t->last, "step ") == NULL,
                  "attn's screen is still shown after it left:\n%s", t->last);
    ck_assert_msg(strstr(t->last, "ATTN PID"), "the shell's own screen did not come back:\n%s", t->last);
}

/* ---- lessons for the tests ------------------------------------------------ */

/* A small lesson with known numbers: set-up, a product, a softmax with a
 * fully masked row, an exercise with hints. */
static const char *small_lesson =
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

static const char *small_lesson_path(void)
{
    const char *p = write_temp(".lesson", small_lesson);
    ck_assert_msg(p != NULL, "cannot write a temporary lesson");
    snprintf(small_path, sizeof small_path, "%s", p);
    return small_path;
}

/* Start attn on a fresh copy of the small lesson at cols x rows (env as for
 * tmux_start) and wait for its set-up screen. Returns the lesson's path,
 * valid until the next call, for a test that starts it again. */
static const char *open_small_lesson(Tmux *t, int cols, int rows, const char *env)
{
    const char *path = small_lesson_path();
    tmux_start(t, cols, rows, env, path);
    WAIT_FOR(t, "Set-up");
    return path;
}

/* The shipped lessons, loaded. */
typedef struct {
    char **paths;
    Lesson **lessons;
    int n;
} Shipped;

static Shipped shipped_load(void)
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

static void shipped_free(Shipped *s)
{
    for (int i = 0; i < s->n; i++)
        lesson_free(s->lessons[i]);
    free(s->lessons);
    lessonfile_list_free(s->paths);
}

static int n_screens(const Lesson *l)
{
    return lesson_n_steps(l) + (lesson_n_setup(l) > 0);
}

/* Step through one lesson from its first screen to its end. */
static void step_through(Tmux *t, const Lesson *l)
{
    int n = n_screens(l), setup = lesson_n_setup(l) > 0;
    for (int k = 1; k <= n; k++) {
        char want[64];
        snprintf(want, sizeof want, "step %d/%d", k, n);
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

/* ---- core ------------------------------------------------------------------ */

START_TEST(menu_lists_every_lesson)
{
    Shipped s = shipped_load();
    ck_assert_msg(s.n > 0, "no lessons in %s", lessons_dir());
    Tmux t;
    tmux_start(&t, 120, 6 + 2 * s.n, NULL, NULL);
    WAIT_FOR(&t, "self-attention, step by step");
    for (int i = 0; i < s.n; i++) {
        WAIT_FOR(&t, lesson_title(s.lessons[i]));
        char about[60];
        snprintf(about, sizeof about, "%s", lesson_about(s.lessons[i]));
        ck_assert_msg(strstr(t.last, about), "the about line of %s is missing:\n%s", s.paths[i], t.last);
    }
    /* Enter opens the first lesson; Esc comes back to the menu; q quits */
    tmux_keys(&t, "Enter");
    char want[64];
    snprintf(want, sizeof want, "step 1/%d", n_screens(s.lessons[0]));
    WAIT_FOR(&t, want);
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, lesson_about(s.lessons[s.n - 1]));
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    shipped_free(&s);
}
END_TEST

/* Every shipped lesson, opened from the menu and stepped to its end. */
static void every_lesson_at(int cols, int rows, const char *env)
{
    Shipped s = shipped_load();
    Tmux t;
    tmux_start(&t, cols, rows, env, NULL);
    WAIT_FOR(&t, "self-attention, step by step");
    for (int i = 0; i < s.n; i++) {
        if (i > 0)
            tmux_keys(&t, "Down");
        tmux_keys(&t, "Enter");
        step_through(&t, s.lessons[i]);
        ck_assert_msg(strstr(t.last, "terminal too small") == NULL, "%dx%d is too small?\n%s", cols, rows, t.last);
        tmux_keys(&t, "Escape");
        WAIT_FOR(&t, "lessons in");
    }
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    shipped_free(&s);
}

START_TEST(every_lesson_80x24_colour)
{
    every_lesson_at(80, 24, NULL);
}
END_TEST

START_TEST(every_lesson_250x70_no_color)
{
    every_lesson_at(250, 70, "NO_COLOR=1");
}
END_TEST

START_TEST(every_lesson_100x30_eight_colours)
{
    every_lesson_at(100, 30, "TERM=xterm");
}
END_TEST

/* The reference numbers on the right step: sky-is-blue's A on the softmax
 * step, compared with tests/reference/001-sky-is-blue.ref. */
/* The lesson among the shipped ones whose file name contains part. */
static int find_lesson(const Shipped *s, const char *part)
{
    for (int i = 0; i < s->n; i++)
        if (strstr(s->paths[i], part))
            return i;
    return -1;
}

/* The screen (1-based) of the first step showing name, or 0. */
static int screen_showing(const Lesson *l, const char *name)
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
static void open_at_screen(Tmux *t, const char *path, const Lesson *l, int screen)
{
    char args[600], want[64];
    snprintf(args, sizeof args, "%s", path);
    tmux_start(t, 250, 70, NULL, args);
    snprintf(want, sizeof want, "step 1/%d", n_screens(l));
    WAIT_FOR(t, want);
    for (int k = 1; k < screen; k++)
        tmux_keys(t, "n");
    snprintf(want, sizeof want, "step %d/%d", screen, n_screens(l));
    WAIT_FOR(t, want);
}

/* Every number of a reference matrix is on the first screen that shows
 * it: the .ref files of tests/reference against what the student
 * sees. A value on a rounding boundary (-1.64215004 in the reference,
 * -1.64214993 in float) may show either way in its 4th decimal. */
START_TEST(reference_numbers_on_their_steps)
{
    static const struct {
        const char *lesson, *ref, *names[4];
    } cases[] = {
        { "sky-is-blue", "001-sky-is-blue.ref", { "logits", "A", "O", NULL } },
        { "self-attention-steps", "000-self-attention-exercises.ref", { "S", "A", "X_prime", NULL } },
        { "two-heads", "000-multihead.ref", { "A1", "X_prime", NULL } },
        { "attention-layer", "002-attention-layer.ref", { "A_1", "out_2", NULL } },
        { "encoder", "003-transformer-encoder.ref", { "A", "layernorm", "ffn_out", NULL } },
        { "key-query", "004-key-query.ref", { "alpha", "out_self", NULL } },
        { "causal-mask", "003-transformer-encoder.ref", { "A_causal", "Z_causal", NULL } },
    };
    Shipped s = shipped_load();
    int checked = 0;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        int which = find_lesson(&s, cases[c].lesson);
        if (which < 0)
            continue;   /* the shipped set decides which lessons there are */
        const Lesson *l = s.lessons[which];
        RefFile rf;
        char msg[256];
        ck_assert_msg(ref_load(&rf, cases[c].ref, msg, sizeof msg) == 0, "%s", msg);
        for (int k = 0; cases[c].names[k]; k++) {
            const char *name = cases[c].names[k];
            const RefEntry *e = ref_find(&rf, name, -1);
            int screen = screen_showing(l, name);
            ck_assert_msg(e != NULL, "no %s in %s", name, cases[c].ref);
            ck_assert_msg(screen > 0, "no step of %s shows %s", s.paths[which], name);
            Tmux t;
            open_at_screen(&t, s.paths[which], l, screen);
            for (int i = 0; i < e->rows; i++)
                for (int j = 0; j < e->cols; j++) {
                    double v = e->data[i * e->cols + j];
                    char num[32], lo[32], hi[32];
                    fmt_value(num, sizeof num, (float)v, 4, 1);
                    fmt_value(lo, sizeof lo, (float)(v - 1e-6), 4, 1);
                    fmt_value(hi, sizeof hi, (float)(v + 1e-6), 4, 1);
                    ck_assert_msg(strstr(t.last, num) || strstr(t.last, lo) || strstr(t.last, hi),
                                  "%s: %s[%d,%d] = %s (%s) is not on screen %d:\n%s", s.paths[which], name, i + 1,
                                  j + 1, num, cases[c].ref, screen, t.last);
                }
            tmux_stop(&t);
            checked++;
        }
        ref_free(&rf);
    }
    ck_assert_msg(checked > 0, "no shipped lesson matched a reference file");
    shipped_free(&s);
}
END_TEST

/* sky-is-blue's A[1,1] = 0.2801 on the softmax step, explained. */
START_TEST(softmax_weight_explained)
{
    Shipped s = shipped_load();
    int which = find_lesson(&s, "sky-is-blue");
    ck_assert_msg(which >= 0, "no sky-is-blue lesson among the %d in %s", s.n, lessons_dir());
    const Lesson *l = s.lessons[which];
    int screen = screen_showing(l, "A");
    ck_assert_msg(screen > 0, "no step of %s shows A", s.paths[which]);
    Tmux t;
    open_at_screen(&t, s.paths[which], l, screen);
    ck_assert_msg(strstr(t.last, "softmax"), "screen %d is not the softmax step:\n%s", screen, t.last);
    ck_assert_msg(strstr(t.last, "0.2801"), "A[1,1] 0.2801 missing:\n%s", t.last);
    /* focus A and explain A[1,1]: the softmax with its numbers */
    for (int k = 0; k < 8 && !strstr(t.last, "A[1,1] ="); k++) {
        tmux_keys(&t, "Tab");
        usleep(100 * 1000);
        tmux_capture(&t, 0);
    }
    WAIT_FOR(&t, "A[1,1] =");
    ck_assert_msg(strstr(t.last, "exp"), "the softmax explanation shows no exp:\n%s", t.last);
    ck_assert_msg(strstr(t.last, "= 0.2801"), "the explanation does not end in 0.2801:\n%s", t.last);
    tmux_stop(&t);
    shipped_free(&s);
}
END_TEST

START_TEST(explain_marks_the_operands)
{
    Tmux t;
    char args[300];
    snprintf(args, sizeof args, "%s", small_lesson_path());
    tmux_start(&t, 100, 30, NULL, args);
    WAIT_FOR(&t, "step 1/3");
    WAIT_FOR(&t, "Set-up");
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "step 2/3: Products");
    /* P is the third pane: its cell [2,2] = 3*0 + 4*2 = 8 */
    tmux_keys(&t, "Tab");
    tmux_keys(&t, "Tab");
    WAIT_FOR(&t, "P[1,1] =");
    tmux_keys(&t, "Down");
    tmux_keys(&t, "Right");
    WAIT_FOR(&t, "P[2,2] = X[2,:] . W[:,2]");
    ck_assert_msg(strstr(t.last, "3.0000*0.0000 + 4.0000*2.0000") || strstr(t.last, "3.0000*0.0000 + 4.0000*2.0000"),
                  "the arithmetic of P[2,2] is not shown with its numbers:\n%s", t.last);
    ck_assert_msg(strstr(t.last, "= 8.0000"), "P[2,2] = 8 missing:\n%s", t.last);
    /* precision: + shows more decimals in the panes, - fewer */
    tmux_keys(&t, "+");
    WAIT_FOR(&t, "8.00000");
    ck_assert_msg(strstr(t.last, "0.50000"), "+ did not widen W's numbers:\n%s", t.last);
    tmux_keys(&t, "-");
    tmux_keys(&t, "-");
    tmux_keys(&t, "-");
    WAIT_FOR(&t, "cd 1.50 8.00");
    ck_assert_msg(strstr(t.last, "0.50 ") && !strstr(t.last, "0.500 "), "- did not narrow the numbers:\n%s", t.last);
    tmux_keys(&t, "+");
    tmux_keys(&t, "+");
    WAIT_FOR(&t, "cd 1.5000 8.0000");
    /* Enter marks X's row 2 and W's column 2 in the operand colour
     * (xterm-256 colour 214 behind the numbers) */
    tmux_keys(&t, "Enter");
    usleep(150 * 1000);
    tmux_capture(&t, 1);
    ck_assert_msg(strstr(t.last, "48;5;214m▸3.0000▸4.0000"), "X's row 2 is not marked:\n%s", t.last);
    ck_assert_msg(strstr(t.last, "48;5;214m▸0.0000") && strstr(t.last, "48;5;214m▸2.0000"),
                  "W's column 2 is not marked:\n%s", t.last);
    tmux_capture(&t, 0);
    int marked = 0;
    for (const char *p = t.last; (p = strstr(p, "▸")); p++)
        marked++;
    ck_assert_msg(marked == 4, "Enter marked %d operand cells, expected X[2,1], X[2,2], W[1,2], W[2,2]:\n%s", marked,
                  t.last);
    tmux_keys(&t, "Enter");
    usleep(150 * 1000);
    tmux_capture(&t, 1);
    ck_assert_msg(strstr(t.last, "48;5;214m") == NULL && strstr(t.last, "▸") == NULL,
                  "a second Enter leaves the marks:\n%s", t.last);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
}
END_TEST

START_TEST(heatmap_toggles)
{
    Tmux t;
    open_small_lesson(&t, 100, 30, "NO_COLOR=1");
    tmux_keys(&t, "n");
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "step 3/3: Weights");
    /* A is a heatmap: shade blocks, its legend, the masked row flagged;
     * S shows -inf as -∞ */
    WAIT_FOR(&t, "row 2 masked");
    ck_assert_msg(strstr(t.last, "█"), "no full shade block for A[1,1] = 1:\n%s", t.last);
    ck_assert_msg(strstr(t.last, "0.00") && strstr(t.last, "1.00"), "no legend 0.00 .. 1.00:\n%s", t.last);
    ck_assert_msg(strstr(t.last, "-∞"), "-inf is not drawn as -∞:\n%s", t.last);
    /* h on S (the focused pane) turns it into a heatmap: its legend and
     * the -∞ key appear */
    tmux_keys(&t, "h");
    WAIT_FOR(&t, "masked");
    ck_assert_msg(strstr(t.last, "-∞ masked"), "S as a heatmap shows no -∞ key:\n%s", t.last);
    tmux_keys(&t, "h");
    ck_assert_msg(tmux_wait_gone(&t, "-∞ masked"), "h again did not turn S back to numbers:\n%s", t.last);
    /* Tab to A, h: numbers only, the shade gone */
    tmux_keys(&t, "Tab");
    tmux_keys(&t, "h");
    ck_assert_msg(tmux_wait_gone(&t, "█"), "A still shaded after h:\n%s", t.last);
    tmux_stop(&t);
}
END_TEST

START_TEST(heatmap_colours_on_256)
{
    Tmux t;
    char args[300];
    open_small_lesson(&t, 100, 30, NULL);
    tmux_keys(&t, "G");
    WAIT_FOR(&t, "step 3/3");
    usleep(100 * 1000);
    tmux_capture(&t, 1);
    /* viridis ends: A[1,1] = 1 on yellow (xterm 220 or near), zeros dark */
    ck_assert_msg(strstr(t.last, "48;5;"), "no 256-colour background in the heatmap:\n%s", t.last);
    /* opened directly, Esc quits */
    tmux_quit_and_check(&t, "Escape", "EXITED 0");
    tmux_stop(&t);
    /* --no-color: attributes only, no colour at all, shades for heat */
    snprintf(args, sizeof args, "--no-color %s", small_path);
    tmux_start(&t, 100, 30, NULL, args);
    WAIT_FOR(&t, "Set-up");
    tmux_keys(&t, "G");
    WAIT_FOR(&t, "step 3/3");
    ck_assert_msg(strstr(t.last, "█"), "no shade blocks with --no-color:\n%s", t.last);
    tmux_capture(&t, 1);
    ck_assert_msg(!has_colour_codes(t.last), "colour codes with --no-color:\n%s", t.last);
    tmux_stop(&t);
}
END_TEST

START_TEST(help_lists_the_bindings)
{
    Tmux t;
    const char *args = open_small_lesson(&t, 100, 40, NULL);
    tmux_keys(&t, "?");
    WAIT_FOR(&t, "keys of the lesson screen");
    for (int a = ACT_NONE + 1; a < ACT_COUNT; a++) {
        char keys[128];
        if (!tui_action_keys((TuiAction)a, KEYS_LESSON, keys, sizeof keys)[0])
            continue;
        ck_assert_msg(strstr(t.last, tui_action_help((TuiAction)a)), "help lacks \"%s\":\n%s",
                      tui_action_help((TuiAction)a), t.last);
        ck_assert_msg(strstr(t.last, keys), "help lacks the keys \"%s\":\n%s", keys, t.last);
    }
    ck_assert_msg(strstr(t.last, "n, Space, PgDn"), "next step keys missing:\n%s", t.last);
    ck_assert_msg(strstr(t.last, "R, Ctrl-L") && strstr(t.last, "re-read files, redraw"),
                  "the reload keys are missing:\n%s", t.last);
    tmux_keys(&t, "x");
    ck_assert_msg(tmux_wait_gone(&t, "keys of the lesson screen"), "a key did not close the help:\n%s", t.last);
    WAIT_FOR(&t, "step 1/3");
    tmux_stop(&t);
    /* at 80x24 every binding still shows (in two columns) */
    tmux_start(&t, 80, 24, NULL, args);
    WAIT_FOR(&t, "Set-up");
    tmux_keys(&t, "?");
    WAIT_FOR(&t, "keys of the lesson screen");
    for (int a = ACT_NONE + 1; a < ACT_COUNT; a++) {
        char keys[128];
        if (tui_action_keys((TuiAction)a, KEYS_LESSON, keys, sizeof keys)[0])
            ck_assert_msg(strstr(t.last, tui_action_help((TuiAction)a)), "80x24 help lacks \"%s\":\n%s",
                          tui_action_help((TuiAction)a), t.last);
    }
    tmux_keys(&t, "q");
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "EXITED 0");
    tmux_stop(&t);
}
END_TEST

START_TEST(edit_undo_reset)
{
    Tmux t;
    open_small_lesson(&t, 100, 30, NULL);
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "Products");
    /* X[2,2] = 4 -> 10: P[2,2] = 3*0 + 10*2 = 20 */
    tmux_keys(&t, "Down");
    tmux_keys(&t, "Right");
    WAIT_FOR(&t, "X[2,2] =");
    tmux_keys(&t, "e");
    WAIT_FOR(&t, "new value for X[2,2]");
    tmux_type(&t, "10");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "20.0000");
    ck_assert_msg(strstr(t.last, "1 edit"), "the title does not count the edit:\n%s", t.last);
    ck_assert_msg(strstr(t.last, "10.0000✎"), "the edited cell is not marked:\n%s", t.last);
    /* a computed matrix refuses an edit, and says why */
    tmux_keys(&t, "Tab");
    tmux_keys(&t, "Tab");
    tmux_keys(&t, "e");
    WAIT_FOR(&t, "P is computed");
    /* a bad value leaves the edits alone */
    tmux_keys(&t, "Tab");
    tmux_keys(&t, "e");
    WAIT_FOR(&t, "new value for X[2,2]");
    tmux_type(&t, "banana");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "not a number");
    ck_assert_msg(strstr(t.last, "20.0000"), "a refused edit lost the earlier one:\n%s", t.last);
    /* undo brings back 8, the lesson's value */
    tmux_keys(&t, "u");
    WAIT_FOR(&t, "undone: X[2,2]");
    ck_assert_msg(strstr(t.last, "8.0000") && !strstr(t.last, "20.0000"), "undo did not restore P:\n%s", t.last);
    /* two edits, reset */
    tmux_keys(&t, "e");
    tmux_type(&t, "1");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "1 edit");
    tmux_keys(&t, "Left");
    tmux_keys(&t, "e");
    tmux_type(&t, "X[1,1] * 5");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "2 edits");
    ck_assert_msg(strstr(t.last, "5.0000✎"), "an expression as a value was not applied:\n%s", t.last);
    tmux_keys(&t, "r");
    WAIT_FOR(&t, "2 edits reset");
    ck_assert_msg(strstr(t.last, "8.0000"), "reset did not restore P:\n%s", t.last);
    tmux_stop(&t);
}
END_TEST

START_TEST(exercise_hints_and_answers)
{
    Tmux t;
    open_small_lesson(&t, 100, 30, NULL);
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "Exercise 1/1: What is P[2,2]?");
    tmux_keys(&t, "i");
    WAIT_FOR(&t, "Hint 1: Row 2 of X, column 2 of W.");
    ck_assert_msg(!strstr(t.last, "Hint 2"), "two hints after one i:\n%s", t.last);
    tmux_keys(&t, "i");
    WAIT_FOR(&t, "Hint 2: 3*0 + 4*2.");
    tmux_keys(&t, "a");
    WAIT_FOR(&t, "your answer");
    tmux_type(&t, "7.5");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "not yet");
    tmux_keys(&t, "a");
    tmux_type(&t, "8");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "right: P[2,2] = 8.0000");
    tmux_stop(&t);
}
END_TEST

START_TEST(mouse_click_selects_a_cell)
{
    Tmux t;
    open_small_lesson(&t, 100, 30, NULL);
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "Products");
    /* find the row of X's second row label "cd" and click its second cell */
    tmux_capture(&t, 0);
    int row = 0, col = -1;
    for (const char *line = t.last; *line; row++) {
        const char *nl = strchr(line, '\n');
        if (strncmp(line, "cd ", 3) == 0) {
            const char *four = strstr(line, "4.0000");
            if (four && (!nl || four < nl))
                col = (int)(four - line);
            break;
        }
        if (!nl)
            break;
        line = nl + 1;
    }
    ck_assert_msg(col >= 0, "no row 'cd' with 4.0000 on the screen:\n%s", t.last);
    char click[64];
    snprintf(click, sizeof click, "\033[<0;%d;%dM", col + 3, row + 1);
    tmux_type(&t, click);
    snprintf(click, sizeof click, "\033[<0;%d;%dm", col + 3, row + 1);
    tmux_type(&t, click);
    WAIT_FOR(&t, "X[2,2] = a given value");
    tmux_stop(&t);
}
END_TEST

/* The 0-based index of the first line of screen s at or after line from
 * that contains needle, or -1; *col gets its display column. */
static int line_with(const char *s, int from, const char *needle, int *col)
{
    int k = 0;
    for (const char *line = s; line && *line; k++) {
        const char *nl = strchr(line, '\n');
        const char *hit = strstr(line, needle);
        if (k >= from && hit && (!nl || hit < nl)) {
            if (col) {
                *col = 0;
                for (const char *p = line; p < hit; p++)
                    *col += ((unsigned char)*p & 0xC0) != 0x80;
            }
            return k;
        }
        line = nl ? nl + 1 : NULL;
    }
    return -1;
}

/* Line k of screen s into buf. */
static const char *line_at(const char *s, int k, char *buf, size_t size)
{
    for (; k > 0 && s; k--)
        s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL;
    size_t n = s ? strcspn(s, "\n") : 0;
    n = n < size ? n : size - 1;
    memcpy(buf, s ? s : "", n);
    buf[n] = '\0';
    return buf;
}

/* A mouse click (press and release) at 0-based screen column x, row y. */
static void tmux_click(Tmux *t, int x, int y)
{
    char click[64];
    snprintf(click, sizeof click, "\033[<0;%d;%dM", x + 1, y + 1);
    tmux_type(t, click);
    snprintf(click, sizeof click, "\033[<0;%d;%dm", x + 1, y + 1);
    tmux_type(t, click);
}

/* On a projector's 250x70 small matrices scale up: numbers' rows three
 * apart, heat blocks three rows high with the number in the middle; a
 * click on the top or bottom row of a tall cell selects that cell; a
 * lesson's panes reach into the lower half of the screen. */
START_TEST(projector_scales_up)
{
    Tmux t;
    char line[1024];
    open_small_lesson(&t, 250, 70, "NO_COLOR=1");
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "step 2/3: Products");
    int col = -1, ab = line_with(t.last, 0, "ab ", NULL), cd = line_with(t.last, 0, "cd ", NULL);
    ck_assert_msg(ab > 0 && cd == ab + 3, "X's rows ab and cd are on lines %d and %d, not 3 apart:\n%s", ab, cd,
                  t.last);
    ck_assert_int_eq(line_with(t.last, cd, "4.0000", &col), cd);
    /* the top row of X[2,2]'s cell is blank; a click there selects it */
    ck_assert_msg(strspn(line_at(t.last, cd - 1, line, sizeof line), " ") == strlen(line),
                  "the row above cd is not blank: \"%s\"", line);
    tmux_click(&t, col + 3, cd - 1);
    WAIT_FOR(&t, "X[2,2] = a given value");
    /* Enter on P[1,1] marks X's row 1 and W's column 1, each mark right
     * before its number in the wider cells */
    tmux_keys(&t, "Tab");
    tmux_keys(&t, "Tab");
    WAIT_FOR(&t, "P[1,1] =");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "operands marked");
    line_at(t.last, ab, line, sizeof line);
    ck_assert_msg(strstr(line, "▸1.0000") && strstr(line, "▸2.0000") && !strstr(line, "▸ "),
                  "X's row 1 is not marked before its numbers: \"%s\"", line);
    int marks = 0;
    for (const char *p = t.last; (p = strstr(p, "▸")); p++)
        marks++;
    ck_assert_msg(marks == 4, "%d operand marks, expected X[1,1], X[1,2], W[1,1], W[2,1]:\n%s", marks, t.last);
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "step 3/3: Weights");
    WAIT_FOR(&t, "row 2 masked");
    /* A[1,1] = 1: a full block three rows high, the number in its middle */
    int heat = line_with(t.last, 0, "█ 1.0000 █", &col);
    ck_assert_msg(heat > 0, "no A[1,1] = 1.0000 on a shade block:\n%s", t.last);
    for (int dy = -1; dy <= 1; dy += 2) {
        int bc = -1;
        ck_assert_msg(line_with(t.last, heat + dy, "█████", &bc) == heat + dy && abs(bc - (col - 1)) <= 2,
                      "the block of A[1,1] is not 3 rows high (line %d):\n%s", heat + dy, t.last);
    }
    /* the bottom row of A[2,1]'s block (masked, all blank) selects A[2,1],
     * whose explanation says its row is fully masked */
    tmux_click(&t, col + 1, heat + 4);
    WAIT_FOR(&t, "A[2,1] = 0: row 2 is fully masked");
    ck_assert_msg(strstr(t.last, "weights are defined as 0"), "the masked weight is not explained:\n%s", t.last);
    tmux_stop(&t);

    /* a shipped lesson's step of three 6x6 panes and a 4x6 fills the room */
    Shipped sh = shipped_load();
    int which = find_lesson(&sh, "two-heads");
    ck_assert_msg(which >= 0, "no two-heads lesson in %s", lessons_dir());
    int screen = screen_showing(sh.lessons[which], "A2");
    ck_assert_msg(screen > 0, "no step of %s shows A2", sh.paths[which]);
    open_at_screen(&t, sh.paths[which], sh.lessons[which], screen);
    /* the explanation of the focused cell follows the panes: below the
     * middle of the screen (at scale 1 it was on row 24) */
    int status = line_with(t.last, 0, "[1,1] = ", NULL);
    ck_assert_msg(status >= 35, "the panes end above row %d of 70 at 250x70:\n%s", status, t.last);
    tmux_stop(&t);
    shipped_free(&sh);
}
END_TEST

/* ---- limits ---------------------------------------------------------------- */

START_TEST(resize_below_the_minimum_and_back)
{
    Tmux t;
    open_small_lesson(&t, 100, 30, NULL);
    CmdResult r = cmd_runf("tmux -L %s resize-window -x 56 -y 12", t.sock);
    cmd_free(&r);
    char want[128];
    snprintf(want, sizeof want, "terminal too small: need at least %dx%d, have 56x12", TUI_MIN_COLS, TUI_MIN_ROWS);
    WAIT_FOR(&t, want);
    /* keys while too small change nothing and break nothing */
    tmux_keys(&t, "n");
    r = cmd_runf("tmux -L %s resize-window -x 80 -y 24", t.sock);
    cmd_free(&r);
    WAIT_FOR(&t, "Tiny attention");
    ck_assert_msg(!strstr(t.last, "too small"), "the notice stayed after growing back:\n%s", t.last);
    ck_assert_msg(strstr(t.last, "step 1/3"), "growing back lost the step:\n%s", t.last);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
}
END_TEST

/* The first child process of parent, found in /proc (no procps needed on
 * a minimal machine), or 0. */
/* The state letter and parent of process pid from /proc/PID/stat. Returns 1,
 * or 0 when the process is gone. */
static int proc_stat(int pid, char *state, int *ppid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    char *stat = slurp(path);
    /* pid (comm) state ppid ...: comm may hold spaces, so start after ')' */
    char *close = stat ? strrchr(stat, ')') : NULL;
    int ok = close && sscanf(close + 1, " %c %d", state, ppid) == 2;
    free(stat);
    return ok;
}

static int child_of(int parent)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    struct dirent *e;
    int found = 0;
    while (!found && (e = readdir(d))) {
        int pid = atoi(e->d_name);
        if (pid <= 0)
            continue;
        int ppid = 0;
        char state;
        if (proc_stat(pid, &state, &ppid) && ppid == parent)
            found = pid;
    }
    closedir(d);
    return found;
}

START_TEST(signals_restore_the_terminal)
{
    Tmux t;
    const char *args = open_small_lesson(&t, 100, 30, NULL);
    tmux_quit_and_check(&t, "C-c", "EXITED 130");
    tmux_stop(&t);
    /* SIGTERM and SIGHUP from outside */
    const char *sigs[] = { "TERM", "HUP" };
    const char *codes[] = { "EXITED 143", "EXITED 129" };
    for (int k = 0; k < 2; k++) {
        tmux_start(&t, 100, 30, NULL, args);
        WAIT_FOR(&t, "Set-up");
        /* attn is the child of the pane's shell (the inner sh exec'd it) */
        CmdResult q = cmd_runf("tmux -L %s list-panes -F '#{pane_pid}'", t.sock);
        int sh = atoi(q.out ? q.out : "0");
        cmd_free(&q);
        int pid = child_of(sh);
        ck_assert_msg(pid > 0, "cannot find attn's pid");
        CmdResult kr = cmd_runf("kill -%s %d", sigs[k], pid);
        cmd_free(&kr);
        WAIT_FOR(&t, codes[k]);
        ck_assert_msg(strstr(t.last, "attn ·") == NULL, "SIG%s left attn's screen behind:\n%s", sigs[k], t.last);
        tmux_stop(&t);
    }
}
END_TEST

START_TEST(menu_lists_a_broken_lesson_with_its_error)
{
    char dir[] = "/tmp/attn-test-menu-XXXXXX";
    ck_assert_msg(mkdtemp(dir) != NULL, "mkdtemp failed");
    char path[300];
    snprintf(path, sizeof path, "%s/1-good.lesson", dir);
    FILE *f = fopen(path, "w");
    fputs(small_lesson, f);
    fclose(f);
    snprintf(path, sizeof path, "%s/2-broken.lesson", dir);
    f = fopen(path, "w");
    fputs("lesson Broken\nlet A = [ 1 2 ; 3 4 ]\nlet B = A @ Nope\n", f);
    fclose(f);
    /* a C1 control (CSI, U+009B) in a title: the parser lets it through,
     * the screen must not (a terminal would read "1m" as a colour) */
    snprintf(path, sizeof path, "%s/3-c1.lesson", dir);
    f = fopen(path, "w");
    fputs("lesson Sneaky \xc2\x9b" "1m title\nabout the C1 control\nstep One\n  let A = [ 1 ]\n", f);
    fclose(f);
    Tmux t;
    char env[400];
    snprintf(env, sizeof env, "ATTN_LESSONS=%s", dir);
    tmux_start(&t, 100, 24, env, NULL);
    WAIT_FOR(&t, "Tiny attention");
    WAIT_FOR(&t, "(does not open)");
    ck_assert_msg(strstr(t.last, "2-broken.lesson:3:"), "the error has no file:line:col:\n%s", t.last);
    ck_assert_msg(strstr(t.last, "Sneaky 1m title"), "the C1 control reached the terminal:\n%s", t.last);
    tmux_keys(&t, "Down");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "cannot open");
    ck_assert_msg(!strstr(t.last, "step 1/"), "a broken lesson opened:\n%s", t.last);
    tmux_keys(&t, "Up");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "step 1/3");
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "2-broken.lesson");    /* Esc went back to the menu */
    tmux_quit_and_check(&t, "Escape", "EXITED 0");
    tmux_stop(&t);
    CmdResult r = cmd_runf("rm -rf %s", dir);
    cmd_free(&r);
}
END_TEST

START_TEST(big_matrix_scrolls_and_pools)
{
    const char *text =
        "lesson Big\n"
        "step Encoding\n"
        "  text\n"
        "    Fifty positions, sixty-four dimensions.\n"
        "  end\n"
        "  let P = posenc(50, 64)\n"
        "  show P\n";
    const char *path = write_temp(".lesson", text);
    ck_assert_msg(path != NULL, "cannot write a lesson");
    char args[300];
    snprintf(args, sizeof args, "%s", path);
    Tmux t;
    tmux_start(&t, 80, 24, NULL, args);
    WAIT_FOR(&t, "[rows 1-");
    for (int k = 0; k < 45; k++)
        tmux_keys(&t, "Down");
    WAIT_FOR(&t, "P[46,1]");
    ck_assert_msg(strstr(t.last, "P[46,1] = "), "the cursor did not reach row 46:\n%s", t.last);
    ck_assert_msg(!strstr(t.last, "[rows 1-"), "the pane did not scroll with the cursor:\n%s", t.last);
    tmux_keys(&t, "o");
    WAIT_FOR(&t, "mean of");
    ck_assert_msg(strstr(t.last, "blocks]"), "no overview title:\n%s", t.last);
    tmux_keys(&t, "o");
    WAIT_FOR(&t, "max of");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "cell by cell");
    tmux_stop(&t);
}
END_TEST

START_TEST(long_text_scrolls_in_its_reader)
{
    char text[8192];
    size_t len = (size_t)snprintf(text, sizeof text, "lesson Long\nstep Many words\n  text\n");
    for (int i = 0; i < 30; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, "    Paragraph %d, long enough to wrap.\n\n", i);
    snprintf(text + len, sizeof text - len, "  end\n  let A = [ 1 ]\n");
    const char *path = write_temp(".lesson", text);
    ck_assert_msg(path != NULL, "cannot write a lesson");
    char args[300];
    snprintf(args, sizeof args, "%s", path);
    Tmux t;
    tmux_start(&t, 60, 16, NULL, args);
    WAIT_FOR(&t, "t: all");
    tmux_keys(&t, "t");
    WAIT_FOR(&t, "Down: more text");
    ck_assert_msg(strstr(t.last, "Paragraph 0,") && !strstr(t.last, "Paragraph 29,"), "the reader's first page:\n%s",
                  t.last);
    tmux_keys(&t, "End");   /* not a scroll key: closes the reader */
    ck_assert_msg(tmux_wait_gone(&t, "Down: more text"), "End did not close the reader:\n%s", t.last);
    tmux_keys(&t, "t");
    WAIT_FOR(&t, "Down: more text");
    for (int k = 0; k < 60; k++)
        tmux_keys(&t, "Down");
    WAIT_FOR(&t, "Paragraph 29,");
    WAIT_FOR(&t, "Up: back");
    tmux_stop(&t);
}
END_TEST

START_TEST(bad_lesson_file_exits_2_before_the_screen)
{
    const char *path = write_temp(".lesson", "lesson Bad\nlet A = [ 1 2 ; 3 ]\n");
    ck_assert_msg(path != NULL, "cannot write a lesson");
    CmdResult r = cmd_runf("%s %s", attn_bin(), path);
    ck_assert_msg(r.status == 2, "exit %d, want 2", r.status);
    char want[300];
    snprintf(want, sizeof want, "%s:2:", path);
    ck_assert_msg(strstr(r.err, want), "stderr lacks %s:\n%s", want, r.err);
    ck_assert_msg(strstr(r.out, "\033[") == NULL, "the terminal was touched:\n%s", r.out);
    cmd_free(&r);
    r = cmd_runf("%s /nonexistent/x.lesson", attn_bin());
    ck_assert_msg(r.status == 2 && strstr(r.err, "/nonexistent/x.lesson"), "exit %d: %s", r.status, r.err);
    cmd_free(&r);
}
END_TEST

/* Without a terminal (stdin not a tty) the screen refuses and says what to
 * use instead, at once: it used to spin on end of file at 100% CPU. */
START_TEST(no_terminal_is_refused)
{
    CmdResult r = cmd_runf("%s %s", attn_bin(), small_lesson_path());
    ck_assert_msg(r.status == 2, "exit %d, want 2; stderr: %s", r.status, r.err);
    ck_assert_msg(strstr(r.err, "attn: the lesson screen needs a terminal; to print a lesson, use 'attn run FILE'"),
                  "stderr: %s", r.err);
    ck_assert_str_eq(r.out, "");
    cmd_free(&r);
}
END_TEST

/* Whether process pid has ended (gone, or a zombie waiting for its parent). */
static int process_ended(int pid)
{
    char state;
    int ppid;
    return !proc_stat(pid, &state, &ppid) || state == 'Z' || state == 'X';
}

/* A terminal that hangs up under attn ends it, even when the hang-up signal
 * goes only to the shell that started it (attn is not the session leader):
 * its reads then fail at once, and the loop must notice rather than spin. */
START_TEST(hangup_ends_attn)
{
    const char *lesson = small_lesson_path();
    int master;
    struct winsize ws = { .ws_row = 30, .ws_col = 100 };
    pid_t sh = forkpty(&master, NULL, NULL, &ws);
    ck_assert_msg(sh >= 0, "forkpty failed");
    if (sh == 0) {
        setenv("TERM", "xterm-256color", 1);
        setenv("LC_ALL", "C.UTF-8", 1);
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "trap '' HUP; %s %s; sleep 30", attn_bin(), lesson);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    /* read the screen until attn has drawn its set-up step */
    char screen[65536];
    size_t got = 0;
    int attn = 0;
    for (int tries = 0; tries < 100 && !(attn && strstr(screen, "Set-up")); tries++) {
        struct pollfd in = { .fd = master, .events = POLLIN };
        if (poll(&in, 1, 50) > 0 && got < sizeof screen - 1) {
            ssize_t n = read(master, screen + got, sizeof screen - 1 - got);
            if (n > 0)
                got += (size_t)n;
        }
        screen[got] = '\0';
        if (!attn)
            attn = child_of(sh);
    }
    ck_assert_msg(attn > 0, "attn never started under the shell");
    ck_assert_msg(strstr(screen, "Set-up"), "attn never drew its screen");
    /* hang up: the shell ignores it and stays; attn's terminal is gone */
    close(master);
    int ended = 0;
    for (int tries = 0; tries < 60 && !ended; tries++) {
        usleep(50 * 1000);
        ended = process_ended(attn);
    }
    if (!ended)
        kill(attn, SIGKILL);
    kill(sh, SIGKILL);
    waitpid(sh, NULL, 0);
    ck_assert_msg(ended, "attn kept running for 3 s after its terminal hung up");
}
END_TEST

START_TEST(too_small_from_the_start_and_ascii)
{
    char args[300];
    snprintf(args, sizeof args, "%s", small_lesson_path());
    Tmux t;
    /* a C locale: ASCII only, -inf spelled out */
    tmux_start(&t, 59, 16, "LC_ALL=C", args);
    WAIT_FOR(&t, "terminal too small: need at least 60x16, have 59x16");
    CmdResult r = cmd_runf("tmux -L %s resize-window -x 90 -y 24", t.sock);
    cmd_free(&r);
    WAIT_FOR(&t, "Tiny attention");
    tmux_keys(&t, "G");
    WAIT_FOR(&t, "-inf");
    ck_assert_msg(!strstr(t.last, "∞") && !strstr(t.last, "▶"), "non-ASCII drawn in the C locale:\n%s", t.last);
    tmux_stop(&t);
}
END_TEST

/* ---- live reload ------------------------------------------------------------ */

/* small_lesson with the first `from` replaced by `to` (malloc'd); *line
 * gets the 1-based line of the replacement. */
static char *small_lesson_with(const char *from, const char *to, int *line)
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
static void save_in_place(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "cannot rewrite %s", path);
    fputs(text, f);
    fclose(f);
}

/* Save text over path as an editor that renames a new file over it does
 * (vim's writebackup, sed -i): a new inode. */
static void save_by_rename(const char *path, const char *text)
{
    char tmp[300];
    snprintf(tmp, sizeof tmp, "%s.new", path);
    save_in_place(tmp, text);
    ck_assert_msg(rename(tmp, path) == 0, "cannot rename %s over %s", tmp, path);
}

/* An author edits the open lesson: a changed number shows up with the
 * step and the user's edit kept; a syntax error shows file:line:col and
 * keeps the last good numbers; fixing it clears the error. At 80x24. */
START_TEST(live_reload_follows_the_file)
{
    Tmux t;
    const char *path = open_small_lesson(&t, 80, 24, NULL);
    char file[256];
    snprintf(file, sizeof file, "%s", path);
    /* step 2, X[2,2] = 4 -> 10: P[2,2] = 3*0 + 10*2 = 20 */
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "step 2/3");
    tmux_keys(&t, "Down");
    tmux_keys(&t, "Right");
    tmux_keys(&t, "e");
    WAIT_FOR(&t, "new value for X[2,2]");
    tmux_type(&t, "10");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "20.0000");
    /* W[2,2] 2 -> 3 in the file: P[2,2] = 10*3 = 30 with the edit kept */
    char *changed = small_lesson_with("let W = [ 0.5 0 ; 0 2 ]", "let W = [ 0.5 0 ; 0 3 ]", NULL);
    save_in_place(file, changed);
    WAIT_FOR(&t, "30.0000");
    char want[400];
    snprintf(want, sizeof want, "reloaded %s", file);
    ck_assert_msg(strstr(t.last, want), "no \"%s\" after the save:\n%s", want, t.last);
    ck_assert_msg(strstr(t.last, "step 2/3") && strstr(t.last, "1 edit"), "the step or the edit was lost:\n%s",
                  t.last);
    ck_assert_msg(strstr(t.last, "10.0000✎") && strstr(t.last, "3.0000"), "the edit or the new W is missing:\n%s",
                  t.last);
    ck_assert_msg(strstr(t.last, "X[2,2] = a given value"), "the cursor left X[2,2]:\n%s", t.last);
    /* a syntax error in a later step: the error with its place, the old numbers stay */
    int line;
    char *broken = small_lesson_with("  let S = P + M\n", "  let S = P + + M\n", &line);
    save_in_place(file, broken);
    snprintf(want, sizeof want, "%s:%d:15: error:", file, line);
    WAIT_FOR(&t, want);
    ck_assert_msg(strstr(t.last, "reload failed") && strstr(t.last, "let S = P + + M"),
                  "the error is not marked or lacks its line:\n%s", t.last);
    ck_assert_msg(strstr(t.last, "30.0000") && strstr(t.last, "10.0000✎") && strstr(t.last, "step 2/3"),
                  "the last good version did not stay:\n%s", t.last);
    ck_assert_msg(!strstr(t.last, "reloaded"), "\"reloaded\" is still claimed:\n%s", t.last);
    /* moving about with the error shown works, and it stays */
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "step 3/3");
    ck_assert_msg(strstr(t.last, want), "the error went away on a step:\n%s", t.last);
    tmux_keys(&t, "p");
    WAIT_FOR(&t, "step 2/3");
    /* fixed (saved by rename this time): the error goes, the numbers stay */
    save_by_rename(file, changed);
    ck_assert_msg(tmux_wait_gone(&t, "reload failed"), "the error stayed after the fix:\n%s", t.last);
    WAIT_FOR(&t, "reloaded");
    ck_assert_msg(strstr(t.last, "30.0000") && strstr(t.last, "1 edit"), "the fix lost the numbers:\n%s", t.last);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    free(changed);
    free(broken);
    unlink(file);
}
END_TEST

/* The keys: R and Ctrl-L reload by hand; c hides an error (the title
 * keeps a note), R brings it back while the file is still bad; an edit
 * whose cell is gone is dropped and counted. A deleted file keeps the
 * last version up with its error. At 250x70. */
START_TEST(live_reload_keys_and_dropped_edits)
{
    Tmux t;
    const char *path = open_small_lesson(&t, 250, 70, NULL);
    char file[256];
    snprintf(file, sizeof file, "%s", path);
    tmux_keys(&t, "R");
    WAIT_FOR(&t, "reloaded");
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "step 2/3");
    ck_assert_msg(tmux_wait_gone(&t, "reloaded"), "a key did not clear the message:\n%s", t.last);
    tmux_keys(&t, "C-l");
    WAIT_FOR(&t, "reloaded");
    ck_assert_msg(strstr(t.last, "step 2/3"), "Ctrl-L lost the step:\n%s", t.last);
    /* the file goes away: the lesson stays, with the error */
    CmdResult r = cmd_runf("mv %s %s.away", file, file);
    cmd_free(&r);
    WAIT_FOR(&t, "cannot open the lesson");
    ck_assert_msg(strstr(t.last, "reload failed") && strstr(t.last, "8.0000"), "the lesson did not stay:\n%s", t.last);
    /* c hides it, the title says so; R on the still-missing file shows it again */
    tmux_keys(&t, "c");
    ck_assert_msg(tmux_wait_gone(&t, "reload failed"), "c did not hide the error:\n%s", t.last);
    WAIT_FOR(&t, "file has an error");
    tmux_keys(&t, "R");
    WAIT_FOR(&t, "reload failed");
    WAIT_FOR(&t, "still has an error");
    /* back, with X[2,2] edited, then X made 1x2: the edit has no cell left */
    r = cmd_runf("mv %s.away %s", file, file);
    cmd_free(&r);
    ck_assert_msg(tmux_wait_gone(&t, "reload failed"), "the file came back, the error stayed:\n%s", t.last);
    tmux_keys(&t, "Down");
    tmux_keys(&t, "Right");
    tmux_keys(&t, "e");
    tmux_type(&t, "10");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "1 edit");
    char *narrow = small_lesson_with("let X = [ 1 2 ; 3 4 ]", "let X = [ 1 2 ]", NULL);
    save_by_rename(file, narrow);
    WAIT_FOR(&t, "1 edit dropped");
    ck_assert_msg(!strstr(t.last, "│ 1 edit") && !strstr(t.last, "10.0000✎"), "the dropped edit is still there:\n%s",
                  t.last);
    ck_assert_msg(strstr(t.last, "P 1x2"), "the new X did not reach P:\n%s", t.last);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    free(narrow);
    unlink(file);
}
END_TEST

/* Back from a lesson, the menu lists its directory again: a lesson added
 * meanwhile is there, R re-lists it by hand too. */
START_TEST(menu_relists_on_return)
{
    char dir[] = "/tmp/attn-test-relist-XXXXXX";
    ck_assert_msg(mkdtemp(dir) != NULL, "mkdtemp failed");
    char path[300];
    snprintf(path, sizeof path, "%s/1-tiny.lesson", dir);
    save_in_place(path, small_lesson);
    Tmux t;
    char env[400];
    snprintf(env, sizeof env, "ATTN_LESSONS=%s", dir);
    tmux_start(&t, 100, 24, env, NULL);
    WAIT_FOR(&t, "1 lesson in");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "step 1/3");
    snprintf(path, sizeof path, "%s/2-new.lesson", dir);
    save_in_place(path, "lesson Freshly added\nabout written while attn ran\nstep One\n  let A = [ 1 ]\n");
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "Freshly added");
    ck_assert_msg(strstr(t.last, "2 lessons in") && strstr(t.last, "▶  1  Tiny attention"),
                  "the menu did not re-list, or lost the selection:\n%s", t.last);
    snprintf(path, sizeof path, "%s/3-later.lesson", dir);
    save_in_place(path, "lesson Later still\nstep One\n  let A = [ 1 ]\n");
    tmux_keys(&t, "R");
    WAIT_FOR(&t, "Later still");
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
    CmdResult r = cmd_runf("rm -rf %s", dir);
    cmd_free(&r);
}
END_TEST

Suite *tui_suite(void)
{
    Suite *s = suite_create("tui");
    TCase *core = tcase_create("core");
    TCase *limits = tcase_create("limits");
    tcase_set_timeout(core, 300);
    tcase_set_timeout(limits, 120);
    tcase_add_test(limits, bad_lesson_file_exits_2_before_the_screen);
    tcase_add_test(limits, no_terminal_is_refused);
    tcase_add_test(limits, hangup_ends_attn);
    const char *skip = getenv("ATTN_SKIP_TUI");
    if (!(skip && strcmp(skip, "1") == 0)) {
        tcase_add_test(core, menu_lists_every_lesson);
        tcase_add_test(core, every_lesson_80x24_colour);
        tcase_add_test(core, every_lesson_250x70_no_color);
        tcase_add_test(core, every_lesson_100x30_eight_colours);
        tcase_add_test(core, reference_numbers_on_their_steps);
        tcase_add_test(core, softmax_weight_explained);
        tcase_add_test(core, explain_marks_the_operands);
        tcase_add_test(core, heatmap_toggles);
        tcase_add_test(core, heatmap_colours_on_256);
        tcase_add_test(core, help_lists_the_bindings);
        tcase_add_test(core, edit_undo_reset);
        tcase_add_test(core, exercise_hints_and_answers);
        tcase_add_test(core, mouse_click_selects_a_cell);
        tcase_add_test(core, projector_scales_up);
        tcase_add_test(core, live_reload_follows_the_file);
        tcase_add_test(core, live_reload_keys_and_dropped_edits);
        tcase_add_test(core, menu_relists_on_return);
        tcase_add_test(limits, resize_below_the_minimum_and_back);
        tcase_add_test(limits, signals_restore_the_terminal);
        tcase_add_test(limits, menu_lists_a_broken_lesson_with_its_error);
        tcase_add_test(limits, big_matrix_scrolls_and_pools);
        tcase_add_test(limits, too_small_from_the_start_and_ascii);
        tcase_add_test(limits, long_text_scrolls_in_its_reader);
    }
    suite_add_tcase(s, core);
    suite_add_tcase(s, limits);
    return s;
}
