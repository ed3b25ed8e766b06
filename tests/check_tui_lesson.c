/*
 * check_tui_lesson.c - the lesson screen in tmux: explanations and their operands, heatmaps, help, edits, exercises, mouse clicks, a projector's scaled cells, big matrices and long text.
 * ATTN_SKIP_TUI=1 registers none of the tmux tests (make valgrind).
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
#include "tmux.h"
#include "tui_fixtures.h"
#include "tui_keys.h"
#include "tui_layout.h"

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
    WAIT_FOR(&t, "Set-up, then 2 steps");
    WAIT_FOR(&t, "Set-up");
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "step 1/2: Products");
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

/* A weight a mask made 0 is exactly 0 and shows as a bare 0, told apart
 * from a computed weight that rounds to 0.0000; the legend says so. */
START_TEST(masked_zeros_told_apart)
{
    Tmux t;
    char line[1024];
    open_small_lesson(&t, 100, 30, NULL);
    tmux_keys(&t, "n");
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "step 2/2: Weights");
    WAIT_FOR(&t, "0 masked");
    /* row ab: S = 0.5000 -inf, A = 1.0000 0 */
    int ab = line_with(t.last, 0, "ab ", NULL);
    ck_assert_msg(ab > 0, "no row ab:\n%s", t.last);
    line_at(t.last, ab, line, sizeof line);
    const char *a = strstr(line, "1.0000");
    ck_assert_msg(a && strstr(a, " 0") && !strstr(a, "0.0000"), "A[1,2] is not a bare 0: \"%s\"", line);
    /* as numbers (h on A) it is still the bare 0 */
    tmux_keys(&t, "Tab");
    tmux_keys(&t, "h");
    ck_assert(tmux_wait_gone(&t, "0 masked"));
    line_at(t.last, ab, line, sizeof line);
    a = strstr(line, "1.0000");
    ck_assert_msg(a && strstr(a, " 0") && !strstr(a, "0.0000"), "as numbers, A[1,2] is not a bare 0: \"%s\"", line);
    tmux_stop(&t);
}
END_TEST

START_TEST(heatmap_toggles)
{
    Tmux t;
    open_small_lesson(&t, 100, 30, "NO_COLOR=1");
    tmux_keys(&t, "n");
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "step 2/2: Weights");
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
    const char *path = open_small_lesson(&t, 100, 30, NULL);
    tmux_keys(&t, "G");
    WAIT_FOR(&t, "step 2/2");
    usleep(100 * 1000);
    tmux_capture(&t, 1);
    /* viridis ends: A[1,1] = 1 on yellow (xterm 220 or near), zeros dark */
    ck_assert_msg(strstr(t.last, "48;5;"), "no 256-colour background in the heatmap:\n%s", t.last);
    /* opened directly, Esc goes to the menu of the lesson's folder, the
     * lesson selected; Esc there quits */
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "self-attention, step by step");
    ck_assert_msg(strstr(t.last, "Tiny attention"), "the lesson's folder is not the menu:\n%s", t.last);
    tmux_quit_and_check(&t, "Escape", "EXITED 0");
    tmux_stop(&t);
    /* --no-color: attributes only, no colour at all, shades for heat */
    snprintf(args, sizeof args, "--no-color %s", path);
    tmux_start(&t, 100, 30, NULL, args);
    WAIT_FOR(&t, "Set-up");
    tmux_keys(&t, "G");
    WAIT_FOR(&t, "step 2/2");
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
    WAIT_FOR(&t, "Set-up, then 2 steps");
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
    /* the notes under the keys do not fit: Down brings them, nothing is cut */
    WAIT_FOR(&t, "Down: more; any other key closes this help");
    ck_assert_msg(!strstr(t.last, "-inf is masked"), "the notes fit at 80x24 after all:\n%s", t.last);
    for (int i = 0; i < 4; i++)
        tmux_keys(&t, "Down");
    WAIT_FOR(&t, "-inf is masked");
    WAIT_FOR(&t, "the title bar counts the edits");
    WAIT_FOR(&t, "Up: back; any other key closes this help");
    tmux_keys(&t, "q");         /* closes the help */
    ck_assert_msg(tmux_wait_gone(&t, "Up: back"), "q did not close the help:\n%s", t.last);
    tmux_keys(&t, "q");
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
    /* a wider number widens the columns: what the screen knew of the old
     * matrix's numbers is not kept for the new one */
    tmux_keys(&t, "Right");
    WAIT_FOR(&t, "X[2,2] =");
    tmux_keys(&t, "e");
    tmux_type(&t, "12345");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "24690.0000");
    WAIT_FOR(&t, "12345.0000✎");
    tmux_stop(&t);
}
END_TEST

START_TEST(exercise_hints_and_answers)
{
    Tmux t;
    open_small_lesson(&t, 100, 30, NULL);
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "Exercise 1: What is P[2,2]?");
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
    WAIT_FOR(&t, "✓ 8: right");
    tmux_stop(&t);
}
END_TEST

/* Predict before you see: the hidden cell is '?' until answered; a name is
 * not an answer; a wrong answer is diagnosed; v reveals the worked answer
 * after asking; quit and come back, and the exercise is still revealed. */
START_TEST(exercise_hides_diagnoses_reveals_and_is_remembered)
{
    Tmux t;
    const char *path = open_small_lesson(&t, 100, 30, NULL);
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "Exercise 1: What is P[2,2]?");
    /* P's row ab is 0.5000 and P[1,2] (4.0000), kept hidden by the exercise */
    ck_assert_msg(strstr(t.last, "ab 0.5000      ?"), "P[1,2] is not hidden:\n%s", t.last);
    tmux_keys(&t, "a");
    tmux_type(&t, "P[2,2]");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "type the number itself: 'P[...]' names a cell of the lesson");
    tmux_keys(&t, "a");
    tmux_type(&t, "0-8");     /* (a leading - would be a tmux flag) */
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "the sign is the wrong way round");
    tmux_keys(&t, "v");
    WAIT_FOR(&t, "v again shows the worked answer");
    tmux_keys(&t, "v");
    WAIT_FOR(&t, "Answer (revealed): P[2,2] = 8.0000");
    WAIT_FOR(&t, "ab 0.5000 4.0000");
    /* the right answer after the reveal still gets its line */
    tmux_keys(&t, "a");
    tmux_type(&t, "8");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "✓ 8: right (revealed before)");
    char state[128];
    snprintf(state, sizeof state, "ATTN_STATE_DIR=%s", t.state);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    /* the same progress store: back on the step, the exercise revealed */
    Tmux again;
    char args[600];
    snprintf(args, sizeof args, "%s", path);
    tmux_start(&again, 100, 30, state, args);
    WAIT_FOR(&again, "Exercise 1 (revealed): What is P[2,2]?");
    /* and the verdict as it was given, from the progress file */
    WAIT_FOR(&again, "✓ 8: right (revealed before)");
    tmux_quit_and_check(&again, "q", "EXITED 0");
    tmux_stop(&again);
    tmux_stop(&t);
}
END_TEST

/* The screen and the progress file agree: an answer judged against the
 * lesson as written keeps its verdict through an edit, undo, reset, a
 * reload and reopening, and the file says what the screen says. */
START_TEST(verdicts_stand_through_undo_reset_reload_and_reopening)
{
    Tmux t;
    const char *path = open_small_lesson(&t, 100, 30, NULL);
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "Exercise 1: What is P[2,2]?");
    /* X[2,2] = 5 makes P[2,2] 10 on the screen; the exercise asks 8 */
    tmux_keys(&t, "Down");
    tmux_keys(&t, "Right");
    tmux_keys(&t, "e");
    WAIT_FOR(&t, "new value for X[2,2]");
    tmux_type(&t, "5");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "X[2,2] = 5");
    tmux_keys(&t, "a");
    tmux_type(&t, "10");
    tmux_keys(&t, "Enter");
    const char *said = "✗ 10: that is the value with your edits; the exercise asks about the lesson's own numbers";
    WAIT_FOR(&t, said);
    tmux_keys(&t, "u");
    WAIT_FOR(&t, "undone: X[2,2]");
    ck_assert_msg(strstr(t.last, said) && !strstr(t.last, "Exercise 1 ✓"), "undo changed the verdict:\n%s", t.last);
    tmux_keys(&t, "e");
    tmux_type(&t, "6");
    tmux_keys(&t, "Enter");
    tmux_keys(&t, "r");
    WAIT_FOR(&t, "1 edit reset");
    ck_assert_msg(strstr(t.last, said), "reset changed the verdict:\n%s", t.last);
    tmux_keys(&t, "R");
    WAIT_FOR(&t, "reloaded");
    ck_assert_msg(strstr(t.last, said), "a reload changed the verdict:\n%s", t.last);
    char state[128], file[300];
    snprintf(state, sizeof state, "ATTN_STATE_DIR=%s", t.state);
    snprintf(file, sizeof file, "%s/progress", t.state);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    char *text = slurp(file);
    ck_assert_msg(text && strstr(text, "\ttried\t1\t0\t0\n") && strstr(text, "\twrong\tedited\t10\t"), "%s",
                  text ? text : "(no progress file)");
    free(text);
    Tmux again;
    tmux_start(&again, 100, 30, state, path);
    WAIT_FOR(&again, "Exercise 1: What is P[2,2]?");
    WAIT_FOR(&again, said);
    tmux_keys(&again, "a");
    tmux_type(&again, "8");
    tmux_keys(&again, "Enter");
    WAIT_FOR(&again, "✓ 8: right");
    WAIT_FOR(&again, "Exercise 1 ✓");
    tmux_quit_and_check(&again, "q", "EXITED 0");
    text = slurp(file);
    ck_assert_msg(text && strstr(text, "\tright\t2\t0\t0\n"), "%s", text ? text : "(no progress file)");
    free(text);
    tmux_stop(&again);
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

/* On a projector's 250x70 small matrices scale up: numbers' rows at least
 * three apart, heat blocks as tall with the number in the middle; a click
 * on the top or bottom row of a tall cell selects that cell; a lesson's
 * panes reach into the lower half of the screen. */
START_TEST(projector_scales_up)
{
    Tmux t;
    char line[1024];
    open_small_lesson(&t, 250, 70, "NO_COLOR=1");
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "step 1/2: Products");
    int col = -1, ab = line_with(t.last, 0, "ab ", NULL), cd = line_with(t.last, 0, "cd ", NULL);
    ck_assert_msg(ab > 0 && cd >= ab + 3, "X's rows ab and cd are on lines %d and %d, not 3 apart:\n%s", ab, cd,
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
    WAIT_FOR(&t, "step 2/2: Weights");
    WAIT_FOR(&t, "row 2 masked");
    /* A[1,1] = 1: a full block at least three rows high, the number in
     * its middle */
    int heat = line_with(t.last, 0, "█ 1.0000 █", &col);
    ck_assert_msg(heat > 0, "no A[1,1] = 1.0000 on a shade block:\n%s", t.last);
    /* (A is the only pane with full blocks: S beside it has none) */
    int top = heat, bottom = heat;
    while (line_with(t.last, top - 1, "█████", NULL) == top - 1)
        top--;
    while (line_with(t.last, bottom + 1, "█████", NULL) == bottom + 1)
        bottom++;
    ck_assert_msg(bottom - top + 1 >= 3 && heat - top == (bottom - top) / 2,
                  "the block of A[1,1] is on lines %d-%d, its number on %d:\n%s", top, bottom, heat, t.last);
    /* the bottom row of A[2,1]'s block (masked, all blank) selects A[2,1],
     * whose explanation says its row is fully masked */
    tmux_click(&t, col + 1, bottom + 1 + (bottom - top));
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

/* The note about the panes (fewer decimals, more pages) goes on a row where
 * it covers no number: in lesson 12's second step at 80x24 it once sat on
 * V_rep's last row and hid a digit ("-1.0 2 decimals to fit"). */
START_TEST(the_panes_note_covers_no_number)
{
    Tmux t;
    char args[300];
    snprintf(args, sizeof args, "%s/12-grouped-query.lesson", lessons_dir());
    tmux_start(&t, 80, 24, NULL, args);
    WAIT_FOR(&t, "Set-up, then 4 steps");
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "step 1/4");
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "decimals to fit (+: more)");
    const char *note = strstr(t.last, "decimals to fit (+: more)");
    const char *line = note;
    while (line > t.last && line[-1] != '\n')
        line--;
    /* the row holds the note and blanks before it: "N decimals..." */
    for (const char *p = line; p < note - 2; p++)
        ck_assert_msg(*p == ' ', "the note shares its row with the panes:\n%.*s", (int)(strchr(note, '\n') - line),
                      line);
    ck_assert_msg(strstr(t.last, "it    1.00  1.00  1.00  1.00  3.00 -1.00  3.00 -1.00"),
                  "V_rep's last row is not whole:\n%s", t.last);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
}
END_TEST

/* Without colour a weight's shade stands against its own number: with a
 * space after the shade and one before, "6.0e-6 █ 0.9820" read as the
 * small weight's full block (lesson 8's second step, NO_COLOR). */
START_TEST(a_shade_without_colour_sits_on_its_own_number)
{
    Tmux t;
    char args[300];
    snprintf(args, sizeof args, "%s/08-causal-mask.lesson", lessons_dir());
    tmux_start(&t, 100, 30, "NO_COLOR=1", args);
    WAIT_FOR(&t, "The causal mask and the decoder");
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "step 1/");
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "What softmax does with -inf");
    ck_assert_msg(strstr(t.last, "6.0e-6  █0.9820   0.0180") && !strstr(t.last, "█ 0.9820"),
                  "the shade is not against its number:\n%s", t.last);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
}
END_TEST

/* The title bar's count of edits is never cut: at 80 columns lesson 1's
 * first step title took the room and the count went past the edge. */
START_TEST(the_edit_count_shows_beside_a_long_step_title)
{
    Tmux t;
    char args[300];
    snprintf(args, sizeof args, "%s/01-key-query.lesson", lessons_dir());
    tmux_start(&t, 80, 24, NULL, args);
    WAIT_FOR(&t, "Key and query");
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "step 1/7: Scores");
    tmux_keys(&t, "e");
    WAIT_FOR(&t, "new value for E[1,1]");
    tmux_type(&t, "2");
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "│ 1 edit");
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
}
END_TEST

Suite *tui_lesson_suite(void)
{
    Suite *s = suite_create("tui_lesson");
    TCase *tc = tcase_create("lesson");
    tcase_set_timeout(tc, 300);
    const char *skip = getenv("ATTN_SKIP_TUI");
    if (!(skip && strcmp(skip, "1") == 0)) {
        tcase_add_test(tc, softmax_weight_explained);
        tcase_add_test(tc, explain_marks_the_operands);
        tcase_add_test(tc, heatmap_toggles);
        tcase_add_test(tc, masked_zeros_told_apart);
        tcase_add_test(tc, heatmap_colours_on_256);
        tcase_add_test(tc, help_lists_the_bindings);
        tcase_add_test(tc, edit_undo_reset);
        tcase_add_test(tc, exercise_hints_and_answers);
        tcase_add_test(tc, exercise_hides_diagnoses_reveals_and_is_remembered);
        tcase_add_test(tc, verdicts_stand_through_undo_reset_reload_and_reopening);
        tcase_add_test(tc, mouse_click_selects_a_cell);
        tcase_add_test(tc, projector_scales_up);
        tcase_add_test(tc, big_matrix_scrolls_and_pools);
        tcase_add_test(tc, long_text_scrolls_in_its_reader);
        tcase_add_test(tc, the_panes_note_covers_no_number);
        tcase_add_test(tc, a_shade_without_colour_sits_on_its_own_number);
        tcase_add_test(tc, the_edit_count_shows_beside_a_long_step_title);
    }
    suite_add_tcase(s, tc);
    return s;
}
