/*
 * tui_state.h - the screen as a whole: the terminal, the stack of screens
 * and the shared chrome (tui_chrome.h), and each screen's own state in a
 * struct of its own (MenuView in tui_menu.h, LessonView in tui_lesson.h,
 * the cost view private to tui_cost.c). Only the main loop asks for a frame.
 */
#ifndef ATTN_TUI_STATE_H
#define ATTN_TUI_STATE_H

#include "tui_colors.h"
#include "tui_exlines.h"
#include "tui_layout.h"
#include "tui_lesson.h"
#include "tui_menu.h"
#include "tui_put.h"

#define TUI_STACK_MAX 8

struct TuiScreen;
typedef struct CostView CostView;   /* tui_cost.c */

struct Tui {
    /* the terminal */
    Canvas cv;          /* where the screen draws (stdscr in the main loop) */
    int utf8;
    ColorMode color;
    int attr[C_COUNT];
    int heat_seq[HEAT_SEQ_LEVELS];
    int heat_div[2 * HEAT_DIV_HALF + 1];
    /* the heat pairs are [heat_first, heat_first + heat_n); each has a
     * twin heat_fill pairs on with the same background and the terminal's
     * own foreground, for the blank rows of a tall cell (tui_heat_fill) */
    int heat_first, heat_n, heat_fill;
    int heat_inf_fill;  /* the same for the colour of -inf */
    int rows, cols;
    /* what is shown */
    /* the screens: stack[0] the menu or the lesson, above it help, the
     * whole text, the cost of attention or the blank screen (tui_chrome.h) */
    const struct TuiScreen *stack[TUI_STACK_MAX];
    int depth;
    int overlay_first, overlay_max; /* help's or text's scroll, when it does not fit */
    int direct;         /* opened on one file: Esc quits */
    MenuView menu;
    LessonView lv;
    ScreenLayout layout;
    int layout_ok;
    /* typing */
    PromptKind prompt;
    char input[INPUT_MAX];
    int input_len;
    char prompt_label[160];
    /* a one-line message in the key bar until the next key */
    char message[512];
    int message_error;
    int message_brief;  /* goes by itself after a few seconds too */
    int banner_h;       /* rows of the reload error under the title (0: none) */
    int knob_h;         /* rows of the knob bar under it (0: none)          */
    /* what the last tui_prepare computed for the frame: the explanation of
     * the focused cell (ex_ok), or why there is none (ex_err) */
    struct {
        Explanation ex;
        int ex_ok;
        Mat *as_written;    /* a bug hunt's cell as the lesson writes it (owned) */
        char ex_err[256];
        /* the lesson's prose and exercise area, wrapped once by its
         * prepare and drawn from here (owned): each exercise line with
         * its role (tui_lesson_draw.c's ExLineRole), so no colour is
         * chosen by reading the text back */
        char *text, *exercise;
        int text_n, exercise_n;
        unsigned char roles[EX_ROLES_MAX];
    } frame;
    unsigned frame_no;  /* frames laid out so far (tui_prepare)            */
    int big_numbers;    /* B: grown cells show their numbers in the block font */
    CostView *cost;     /* the cost of attention (C), owned; NULL: closed   */
    int blas_threads;   /* BLAS's threads before the screen set them to one */
    /* presenter mode (--present): a big step title, no key bar, the
     * panes revealed one at a time */
    int present;
    /* class mode (--class): the server, owned; whether the spread is
     * revealed; the exercise X closed; a redraw the class asks for */
    struct ClassServer *cls;
    int class_reveal, class_closed, class_dirty;
    int class_end_asked;        /* q or Esc asked once: the same again ends the class */
    int class_pending;          /* the tally changed since it was drawn      */
    double class_drawn_at;      /* when a change of the class was last drawn (ms) */
    /* a student in a class (attn join on a terminal): the connection,
     * owned (NULL once the class ended); where the class is; whether the
     * screen follows it; the open exercise's answers already sent */
    struct ClassClient *student;
    struct ClassPack *student_pack; /* the lesson and files the class sent, owned:
                                        the lesson reads them after the class ended */
    int class_step, class_open, class_follow, class_sent, class_ended;
    int class_h;                /* rows of the student's class bar (0 or 1)  */
    char class_title[256];
    int title_h;        /* rows of the step title (1, or the big one's)   */
    int heat_numbers_off; /* N: heatmaps show colour (or shade) only       */
    /* progress saves: the session's count of notes last shown, and whether
     * any save failed (attn then exits with 1 and says why on stderr) */
    int save_notes_seen;
    int save_failed;
    char save_warning[600];
    int quit;
};

/* tui.c: after newterm, before the first frame: put curses in the state
 * in which a frame leaves in one write rather than one per cursor move. */
void tui_curses_running(void);
/* tui.c: a frame of the screen on top (tui_screen.h). */
/* Lay it out (regions, pane geometry, scroll) for the terminal's size. */
void tui_prepare(Tui *t);
/* Draw it, or the "too small" notice. */
void tui_draw(Tui *t);
/* Release what the last frame kept (its explanation). */
void tui_frame_free(Tui *t);

#endif
