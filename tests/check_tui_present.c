/*
 * check_tui_present.c - the screen for a class, in tmux: presenter mode
 * (--present: a big step title, no key bar, the matrices revealed one at a
 * time with Space, N for colour-only heatmaps, b to blank the screen),
 * zoom by keys, steps numbered on the screen as on the handout, the
 * cost of attention timed live (C), and tall heat cells one colour top
 * to bottom (their blank rows in a twin colour that is cheaper to send).
 * ATTN_SKIP_TUI=1 registers none of the tmux tests (make valgrind).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tmux.h"
#include "tui_fixtures.h"
#include "tui_state.h"

/* 1 when every line of the screen is blank. */
static int screen_blank(const char *s)
{
    return strspn(s, " \n") == strlen(s);
}

START_TEST(presenter_reveals_one_matrix_at_a_time)
{
    Tmux t;
    char args[512];
    snprintf(args, sizeof args, "--present %s", small_lesson_path());
    tmux_start(&t, 120, 40, NULL, args);
    WAIT_FOR(&t, "Set-up: the lesson's inputs");
    /* no key bar for the class */
    ck_assert_msg(!strstr(t.last, "n next") && !strstr(t.last, "q quit"), "a key bar in presenter mode:\n%s", t.last);
    ck_assert_msg(strstr(t.last, "X 2x2") && strstr(t.last, "W 2x2"), "the panes should be there:\n%s", t.last);
    /* plain numbers, to read them here: the given inputs show at once,
     * there is nothing to predict about them */
    tmux_keys(&t, "B");
    WAIT_FOR(&t, "1.00");
    ck_assert_msg(strstr(t.last, "0.50") && strstr(t.last, "4.00") && strstr(t.last, "2.00"),
                  "a given input kept from the room:\n%s", t.last);
    /* Space goes on to step 1, its title large: X and W given, P to predict */
    tmux_keys(&t, "Space");
    WAIT_FOR(&t, "Products");
    ck_assert_msg(strstr(t.last, "▀") || strstr(t.last, "█"), "no big step number:\n%s", t.last);
    ck_assert_msg(strstr(t.last, "1.00") && !strstr(t.last, "8.00"), "step 1: X shown, P kept:\n%s", t.last);
    tmux_keys(&t, "Space");
    WAIT_FOR(&t, "8.00");
    /* on to the heatmap of step 2: S, then A */
    tmux_keys(&t, "Space");
    WAIT_FOR(&t, "Weights");
    tmux_keys(&t, "Space");
    tmux_keys(&t, "Space");
    WAIT_FOR(&t, "A 2x2");
    /* row ab: S's 0.50 and -inf, then A's 1.00 and 0.00 */
    char line[1024];
    int ab = line_with(t.last, 0, "ab ", NULL);
    ck_assert_msg(ab > 0 && strstr(line_at(t.last, ab, line, sizeof line), "1.00"), "A[1,1] not shown:\n%s", t.last);
    /* N: the heatmap's colours without its numbers, and back */
    tmux_keys(&t, "N");
    WAIT_FOR(&t, "colour only");
    ck_assert_msg(!strstr(line_at(t.last, ab, line, sizeof line), "1.00") && strstr(line, "0.50"),
                  "N left A's numbers (or took S's):\n%s", t.last);
    tmux_keys(&t, "N");
    WAIT_FOR(&t, "colour and numbers");
    ck_assert_msg(strstr(line_at(t.last, ab, line, sizeof line), "1.00"), "N again: no numbers:\n%s", t.last);
    /* Enter still explains: A[1,1] with its arithmetic */
    tmux_keys(&t, "Enter");
    WAIT_FOR(&t, "A[1,1] =");
    /* b blanks the screen; the next key only brings it back */
    /* the help says what Space does here: the next matrix first */
    tmux_keys(&t, "?");
    WAIT_FOR(&t, "attn: keys of the lesson screen, presenting");
    ck_assert_msg(strstr(t.last, "the step's next matrix, then the next step"), "presenter's help:\n%s", t.last);
    tmux_keys(&t, "x");
    ck_assert_msg(tmux_wait_gone(&t, "keys of the lesson screen"), "the help did not close:\n%s", t.last);
    tmux_keys(&t, "b");
    for (int k = 0; k < 40 && !screen_blank(t.last); k++)
        tmux_wait_for(&t, "");
    ck_assert_msg(screen_blank(t.last), "b did not blank the screen:\n%s", t.last);
    tmux_keys(&t, "q");
    WAIT_FOR(&t, "Weights");
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
}
END_TEST

/* z at 80x24: the focused pane alone, then z or Esc back to the step (not
 * to the menu). */
START_TEST(zoom_by_keys)
{
    Tmux t;
    open_small_lesson(&t, 80, 24, NULL);
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "step 1/2: Products");
    tmux_keys(&t, "Tab");
    tmux_keys(&t, "z");
    WAIT_FOR(&t, "zoomed: z or Esc goes back");
    ck_assert_msg(strstr(t.last, "W 2x2") && !strstr(t.last, "X 2x2") && !strstr(t.last, "P 2x2"),
                  "zoomed, W alone should show:\n%s", t.last);
    ck_assert_msg(!strstr(t.last, "P is X times W"), "zoomed, the prose stayed:\n%s", t.last);
    tmux_keys(&t, "Escape");
    ck_assert(tmux_wait_gone(&t, "zoomed"));
    ck_assert_msg(strstr(t.last, "X 2x2") && strstr(t.last, "P 2x2") && strstr(t.last, "step 1/2"),
                  "Esc did not bring the step back:\n%s", t.last);
    tmux_keys(&t, "z");
    WAIT_FOR(&t, "zoomed");
    tmux_keys(&t, "z");
    ck_assert(tmux_wait_gone(&t, "zoomed"));
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
}
END_TEST

/* The screen and the handout number the steps alike: the set-up is not a
 * step on either. */
START_TEST(steps_numbered_as_on_the_handout)
{
    const char *path = small_lesson_path();
    CmdResult r = cmd_runf("%s run %s", attn_bin(), path);
    ck_assert_msg(r.status == 0 && strstr(r.out, "Step 1/2: Products") && strstr(r.out, "Step 2/2: Weights"),
                  "the handout's steps:\n%s", r.out);
    cmd_free(&r);
    Tmux t;
    tmux_start(&t, 100, 30, NULL, path);
    WAIT_FOR(&t, "Set-up, then 2 steps");
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "step 1/2: Products");
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "step 2/2: Weights");
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
}
END_TEST

/* C: the cost of attention timed on this machine, size after size, with
 * the plot once two are in; c restarts it causal; Esc goes back to where
 * it was opened (the menu, or the lesson's step). */
START_TEST(cost_of_attention_from_menu_and_lesson)
{
    Tmux t;
    tmux_start(&t, 100, 30, NULL, NULL);
    WAIT_FOR(&t, "lessons in");
    tmux_keys(&t, "C");
    WAIT_FOR(&t, "the cost of attention on this machine: d=512, 8 heads");
    WAIT_FOR(&t, "timing n = ");
    WAIT_FOR(&t, "(log-log)");
    ck_assert_msg(strstr(t.last, "     64 ") && strstr(t.last, "    128 "), "the sizes timed are not listed:\n%s",
                  t.last);
    WAIT_FOR(&t, "slope of log time against log n");
    tmux_keys(&t, "c");
    WAIT_FOR(&t, "8 heads, causal");
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "lessons in");
    tmux_stop(&t);
    /* from a lesson's step, and back to it */
    open_small_lesson(&t, 100, 30, NULL);
    tmux_keys(&t, "n");
    WAIT_FOR(&t, "step 1/2: Products");
    tmux_keys(&t, "C");
    WAIT_FOR(&t, "the cost of attention");
    tmux_keys(&t, "Escape");
    WAIT_FOR(&t, "step 1/2: Products");
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
}
END_TEST

/* A tall heat cell on a projector is one colour top to bottom: its rows
 * above and below the number have the number row's background. */
START_TEST(tall_heat_cells_one_colour_top_to_bottom)
{
    Tmux t;
    open_small_lesson(&t, 250, 70, NULL);
    tmux_keys(&t, "G");
    WAIT_FOR(&t, "step 2/2");
    tmux_capture(&t, 1);
    /* A[1,1] = 1.0000 in the row ab, on its colour */
    char line[4096], bg[32] = "";
    int row = -1;
    for (int k = 0; row < 0 && line_at(t.last, k, line, sizeof line); k++) {
        char *num = strstr(line, "1.0000");
        char *esc = num ? strstr(line, "48;5;") : NULL, *last = NULL;
        while (esc && esc < num) {
            last = esc;
            esc = strstr(esc + 1, "48;5;");
        }
        if (last && sscanf(last, "48;5;%31[0-9]", bg) == 1)
            row = k;
    }
    ck_assert_msg(row > 0, "no coloured 1.0000 on the heatmap:\n%s", t.last);
    /* the rows above and below: the same background, spaces, no foreground */
    char want[64], with_fg[64];
    snprintf(want, sizeof want, "\033[48;5;%sm        ", bg);
    snprintf(with_fg, sizeof with_fg, "m\033[48;5;%sm        ", bg);
    for (int d = -1; d <= 1; d += 2) {
        ck_assert_ptr_nonnull(line_at(t.last, row + d, line, sizeof line));
        ck_assert_msg(strstr(line, want) && !strstr(line, with_fg),
                      "the row %s A[1,1] (on 48;5;%s) is not its colour alone:\n%s", d < 0 ? "above" : "below", bg,
                      line);
    }
    tmux_stop(&t);
}
END_TEST

/* The twins the blank rows of tall heat cells are drawn in: for every
 * heat colour (and -inf's), a pair with the same background and the
 * terminal's own foreground, so leaving it costs a background change; a
 * cell with a mark (cursor, operand) keeps its own colours; without
 * colour nothing changes. On a real curses writing to /dev/null. */
START_TEST(heat_twins_keep_the_background)
{
    FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
    ck_assert(out && in);
    SCREEN *scr = newterm("xterm-256color", out, in);
    ck_assert_msg(scr != NULL, "no xterm-256color terminfo");
    TuiTerm t;
    memset(&t, 0, sizeof t);
    tui_colors_init(&t, 0);
    ck_assert_int_eq(t.color, COLORS_256);
    int levels[HEAT_SEQ_LEVELS + 2 * HEAT_DIV_HALF + 2], n = 0;
    for (int k = 0; k < HEAT_SEQ_LEVELS; k++)
        levels[n++] = t.heat_seq[k];
    for (int k = 0; k < 2 * HEAT_DIV_HALF + 1; k++)
        levels[n++] = t.heat_div[k];
    levels[n++] = t.attr[C_HEAT_INF];
    for (int k = 0; k < n; k++) {
        int twin = tui_heat_fill(&t, levels[k]);
        short fg, bg, tfg, tbg;
        pair_content((short)PAIR_NUMBER(levels[k]), &fg, &bg);
        pair_content((short)PAIR_NUMBER(twin), &tfg, &tbg);
        ck_assert_msg(PAIR_NUMBER(twin) != PAIR_NUMBER(levels[k]) && tbg == bg && tfg == -1 && fg != -1,
                      "heat colour %d (pair %d: %d on %d) has the twin pair %d: %d on %d", k, PAIR_NUMBER(levels[k]),
                      fg, bg, PAIR_NUMBER(twin), tfg, tbg);
        ck_assert_int_eq(tui_heat_fill(&t, levels[k] | A_REVERSE | A_BOLD), levels[k] | A_REVERSE | A_BOLD);
    }
    ck_assert_int_eq(tui_heat_fill(&t, t.attr[C_TITLE]), t.attr[C_TITLE]);
    ck_assert_int_eq(tui_heat_fill(&t, A_NORMAL), A_NORMAL);
    /* without colour: attributes only, nothing to twin */
    TuiTerm mono;
    memset(&mono, 0, sizeof mono);
    tui_colors_init(&mono, 1);
    ck_assert_int_eq(tui_heat_fill(&mono, mono.attr[C_HEAT_INF]), mono.attr[C_HEAT_INF]);
    endwin();
    delscreen(scr);
    fclose(out);
    fclose(in);
}
END_TEST

/* A room's column reads in one form: lesson 02's E at 80x24 keeps the
 * decimals that write -0.0050 as a number beside -0.0120 (it read
 * "-5.0e-3" beside "-0.01"). */
START_TEST(a_room_column_has_one_form)
{
    Tmux t;
    char args[512];
    snprintf(args, sizeof args, "--present %s/02-sky-is-blue.lesson", lessons_dir());
    tmux_start(&t, 80, 24, NULL, args);
    WAIT_FOR(&t, "E 3x2");
    WAIT_FOR(&t, "blue -0.005");
    ck_assert_msg(!strstr(t.last, "e-3") && strstr(t.last, "is   -0.012"), "%s", t.last);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
}
END_TEST

/* On a projector (250x70) the step's title, the knobs, the panes' names
 * and labels are in the block font too, and -inf in a grown cell is spelt
 * in it. */
START_TEST(a_projector_title_is_big)
{
    Tmux t;
    char args[512];
    snprintf(args, sizeof args, "--present %s/08-causal-mask.lesson", lessons_dir());
    tmux_start(&t, 250, 70, NULL, args);
    WAIT_FOR(&t, "The lesson's inputs, before any step");
    /* the set-up's four inputs are given, shown at once: Space is step 1 */
    tmux_keys(&t, "Space");
    WAIT_FOR(&t, "attention must be stopped from looking ahead");
    /* the title's rows: block glyphs, and no plain title left */
    char line[1024];
    line_at(t.last, 0, line, sizeof line);
    ck_assert_msg(strstr(line, "▀█▀ █ █ █▀▀"), "the title is not in the block font:\n%.1500s", t.last);
    ck_assert_msg(!strstr(t.last, "The causal mask and the decoder"), "the plain title is still there:\n%.1500s", t.last);
    /* the switch, causal on, in the block font under the title ("CAUSAL") */
    ck_assert_msg(strstr(t.last, "▄▀▀ ▄▀▄ █ █ ▄▀▀ ▄▀▄ █"), "the knob is not in the block font:\n%.3000s", t.last);
    /* the scores, then the mask, revealed */
    tmux_keys(&t, "Space");
    tmux_keys(&t, "Space");
    WAIT_FOR(&t, "mask 3x3");
    /* mask[1,2] is -inf: spelt -INF in the block font ("▀█▀" of the I) */
    ck_assert_msg(strstr(t.last, "▀█▀ █▀▄ █▀▀"), "-inf is not spelt in the block font:\n%.3000s", t.last);
    /* and the labels too: the row label in1 ("IN1") */
    ck_assert_msg(strstr(t.last, "▀█▀ █▀▄ ▄█"), "the labels are not in the block font:\n%.3000s", t.last);
    tmux_quit_and_check(&t, "q", "EXITED 0");
    tmux_stop(&t);
}
END_TEST

Suite *tui_present_suite(void)
{
    Suite *s = suite_create("tui_present");
    TCase *tc = tcase_create("present");
    tcase_set_timeout(tc, 120);
    const char *skip = getenv("ATTN_SKIP_TUI");
    if (!(skip && strcmp(skip, "1") == 0)) {
        tcase_add_test(tc, presenter_reveals_one_matrix_at_a_time);
        tcase_add_test(tc, zoom_by_keys);
        tcase_add_test(tc, tall_heat_cells_one_colour_top_to_bottom);
        tcase_add_test(tc, steps_numbered_as_on_the_handout);
        tcase_add_test(tc, cost_of_attention_from_menu_and_lesson);
        tcase_add_test(tc, a_projector_title_is_big);
        tcase_add_test(tc, a_room_column_has_one_form);
    }
    suite_add_tcase(s, tc);
    TCase *colours = tcase_create("colours");
    tcase_add_test(colours, heat_twins_keep_the_background);
    suite_add_tcase(s, colours);
    return s;
}
