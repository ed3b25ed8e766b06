/*
 * framebench.c - what a frame costs attn itself, with no terminal to wait
 * for: part of `make bench-screen`. Every screen of every lesson given is
 * laid out (tui_prepare), drawn into curses (the lesson screen's draw) and
 * turned into terminal output by curses (doupdate), on a real xterm-256color
 * curses writing to /dev/null, at each size asked for. Reports the median,
 * 95th percentile and maximum of each part over the screens (the first
 * pass warms up and is not counted). screenbench.c times the same frames
 * through a pseudo-terminal, key to last byte: the difference is the
 * terminal's and the scheduler's. Reported, never asserted.
 *
 * usage: framebench LESSON... [--size COLSxROWS]...
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tui_chrome.h"
#include "tui_lesson.h"
#include "tui_screen.h"
#include "tui_state.h"

#define PASSES 4            /* the first warms up */
#define MAX_FRAMES 8192

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void report(const char *what, double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    printf("%-10s %8.3f %8.3f %8.3f\n", what, v[n / 2], v[(n * 95) / 100], v[n - 1]);
}

/* Every screen of the lessons at cols x rows; 0, or 1 when one fails. */
static int bench_size(char **paths, int n_paths, int cols, int rows)
{
    static double part[4][MAX_FRAMES];
    FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
    SCREEN *scr = out && in ? newterm("xterm-256color", out, in) : NULL;
    if (!scr) {
        fprintf(stderr, "framebench: no xterm-256color curses\n");
        return 1;
    }
    resizeterm(rows, cols);
    static Tui t;
    memset(&t, 0, sizeof t);
    t.term.utf8 = t.term.cv.utf8 = 1;
    t.term.cv.win = stdscr;
    tui_colors_init(&t.term, 0);
    tui_curses_running();   /* as attn's own start does */
    int n = 0;
    for (int pass = 0; pass < PASSES; pass++)
        for (int i = 0; i < n_paths; i++) {
            char msg[512];
            LessonScreen *ls = lesson_screen_new(NULL);
            if (!ls)
                return 1;
            tui_push(&t, &tui_screen_lesson, ls);
            if (lv_open(&t.term, ls, paths[i], msg, sizeof msg) != 0) {
                fprintf(stderr, "framebench: %s\n", msg);
                return 1;
            }
            for (int k = 0; k < session_n_screens(ls->lv.ses); k++) {
                lv_go(ls, k);
                double a = now_ms();
                tui_prepare(&t);
                double b = now_ms();
                werase(stdscr);
                if (t.term.layout_ok)
                    tui_top(&t)->draw(&t.term, tui_top_self(&t));
                wnoutrefresh(stdscr);
                double c = now_ms();
                doupdate();
                double d = now_ms();
                if (pass > 0 && n < MAX_FRAMES) {
                    part[0][n] = b - a;
                    part[1][n] = c - b;
                    part[2][n] = d - c;
                    part[3][n++] = d - a;
                }
            }
            tui_close_top(&t);
        }
    endwin();
    delscreen(scr);
    fclose(out);
    fclose(in);
    printf("\nframe %dx%d, no terminal: ms per screen, %d screens x %d passes\n", cols, rows, n / (PASSES - 1),
           PASSES - 1);
    printf("%-10s %8s %8s %8s\n", "part", "median", "p95", "max");
    report("layout", part[0], n);
    report("draw", part[1], n);
    report("curses", part[2], n);
    report("frame", part[3], n);
    return 0;
}

int main(int argc, char **argv)
{
    char *paths[256];
    int n_paths = 0, sizes[8][2], n_sizes = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--size") == 0 && i + 1 < argc && n_sizes < 8) {
            if (sscanf(argv[++i], "%dx%d", &sizes[n_sizes][0], &sizes[n_sizes][1]) == 2)
                n_sizes++;
        } else if (n_paths < 256) {
            paths[n_paths++] = argv[i];
        }
    }
    if (n_paths == 0) {
        fprintf(stderr, "usage: framebench LESSON... [--size COLSxROWS]...\n");
        return 2;
    }
    if (n_sizes == 0) {
        sizes[0][0] = 250, sizes[0][1] = 70;
        sizes[1][0] = 80, sizes[1][1] = 24;
        n_sizes = 2;
    }
    /* progress kept aside */
    char state[] = "/tmp/attn-framebench-XXXXXX";
    if (!mkdtemp(state))
        return 1;
    setenv("ATTN_STATE_DIR", state, 1);
    int rc = 0;
    for (int s = 0; s < n_sizes && !rc; s++)
        rc = bench_size(paths, n_paths, sizes[s][0], sizes[s][1]);
    char rm[128];
    snprintf(rm, sizeof rm, "rm -rf '%s'", state);
    if (system(rm) != 0)
        rc = 1;
    return rc;
}
