/*
 * tui_state.h - the screen's one state struct, shared by the screens
 * (tui_screen.h: the menu, the lesson, help and text, blank) and the main
 * loop (tui.c). Everything on the screen is drawn from this struct each
 * frame; only the main loop asks for a frame.
 */
#ifndef ATTN_TUI_STATE_H
#define ATTN_TUI_STATE_H

#include "bigtext.h"
#include "catalogue.h"
#include "explain.h"
#include "heat.h"
#include "lesson.h"
#include "tui_keys.h"
#include "tui_put.h"
#include "tui_layout.h"
#include "session.h"
#include "text.h"

/* Semantic colours: each indexes the attribute table set up for the
 * terminal (256 colours, 8 colours or none). */
#define TUI_COLORS(X)                                                          \
    X(C_NORMAL) X(C_TITLE) X(C_STEP) X(C_TEXT) X(C_PANE_TITLE) X(C_PANE_FOCUS) \
    X(C_LABEL) X(C_CURSOR) X(C_OPERAND) X(C_EDITED) X(C_STATUS) X(C_KEYBAR)    \
    X(C_KEY) X(C_ERROR) X(C_RIGHT) X(C_WRONG) X(C_HINT) X(C_MASKED) X(C_DIM)   \
    X(C_SELECTED) X(C_HEAT_INF)

typedef enum {
#define TUI_COLOR_ENUM(name) name,
    TUI_COLORS(TUI_COLOR_ENUM)
#undef TUI_COLOR_ENUM
    C_COUNT
} TuiColor;

typedef enum { COLORS_NONE, COLORS_8, COLORS_256 } ColorMode;

#define HEAT_SEQ_LEVELS 16
#define HEAT_DIV_HALF 8

/* A pane: one named matrix of the step. */
typedef struct {
    char name[MAT_NAME_MAX];
    int heat;           /* drawn as a heatmap */
    int heat_file;      /* what the lesson file asked for (heatmap NAME) */
    int overview;       /* 0 off, 1 block means, 2 block maxima */
    int cur_r, cur_c;   /* the cursor, in matrix cells */
    int first_r, first_c; /* scroll position (matrix or pooled cells) */
} Pane;

/* What the last frame computed for a pane: the geometry the drawing used,
 * kept for mouse hits. Rebuilt by tui_prepare before every draw. */
typedef struct {
    const Mat *m;       /* NULL when the name is not (yet) defined */
    PanePlace place;
    GridSpec grid;
    int compact;        /* heat cells too narrow for numbers */
    int scaled;         /* cells grown for a big screen: numbers centred */
    BigSize big;        /* and in the block font when they fit it        */
    int num_w;          /* width of a number */
    int decimals;       /* the decimals its numbers show (fewer than the
                         * view's when the step was fitted to the screen) */
    /* what the grid shows: the matrix, or its pooled overview */
    int rows, cols;     /* cells shown in total (pooled when overview) */
    int br, bc;         /* block size of the overview (1 x 1 otherwise) */
    float *pooled;      /* rows x cols when overview, owned */
    int fit_r, fit_c;   /* cells visible at once */
    HeatScale heat;     /* the one heat scale (heat.h) */
} PaneView;

typedef enum { PROMPT_NONE, PROMPT_EDIT, PROMPT_ANSWER } PromptKind;
typedef enum { OVERLAY_NONE, OVERLAY_HELP, OVERLAY_TEXT } Overlay;

#define INPUT_MAX 80
#define PRESENT_DECIMALS 2  /* the numbers' decimals in presenter mode */

/* The lesson screen: the session (the lesson, its values, the edits and
 * exercises: what the person did) and how it is shown (panes, cursors,
 * decimals: what the screen does). */
typedef struct {
    Session *ses;       /* owned; NULL when no lesson is open */
    Pane *panes;        /* the panes of the screen shown */
    PaneView *views;
    int n_panes, focus;
    int decimals;       /* what the person asked for (+/-), or the default */
    int decimals_chosen; /* they pressed + or -: the screen keeps to it   */
    int decimals_shown; /* the panes' decimals in the last frame          */
    int explain_on;     /* Enter: mark the operands of the cursor's cell */
    int ex_index;       /* the exercise of the step shown */
    char feedback[640]; /* what the judge said of the last answer */
    int feedback_ok;
    int reload_error_hidden; /* the user hid it (the title still says so) */
    int confirm_reveal; /* the next key: y reveals the exercise's answer */
    int knob;           /* the knob the keys move (tui_knobs.c)          */
    int zoom;           /* the focused pane fills the screen (z)          */
    int revealed;       /* presenter mode: panes shown so far on the step */
} LessonView;

/* The menu: the lessons of a folder and the student's progress in each
 * (app/session/catalogue.h), the one selected, the digits typed. */
typedef struct {
    Catalogue cat;
    int sel;
    int typed;          /* digits typed so far of a lesson's number (0: none) */
    char dir[1024];
} MenuView;

typedef enum { MODE_MENU, MODE_LESSON } Mode;

typedef struct CostView CostView;   /* tui_cost.c */

typedef struct {
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
    Mode mode;
    Overlay overlay;
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
        char ex_err[256];
    } frame;
    int big_numbers;    /* B: grown cells show their numbers in the block font */
    CostView *cost;     /* the cost of attention (C), owned; NULL: closed   */
    int blas_threads;   /* BLAS's threads before the screen set them to one */
    /* presenter mode (--present): a big step title, no key bar, the
     * panes revealed one at a time */
    int present;
    int title_h;        /* rows of the step title (1, or the big one's)   */
    int blank;          /* b: nothing on the screen until the next key     */
    int heat_numbers_off; /* N: heatmaps show colour (or shade) only       */
    /* progress saves: the session's count of notes last shown, and whether
     * any save failed (attn then exits with 1 and says why on stderr) */
    int save_notes_seen;
    int save_failed;
    char save_warning[600];
    int quit;
} Tui;

/* tui_lesson.c: the lesson view's life and actions. */
/* Open the lesson at path into t->lv. Returns 0, or -1 with the error
 * text in msg (the view is left empty). */
int lv_open(Tui *t, const char *path, char *msg, size_t size);
/* Adopt an opened session (ownership passes to the view). */
void lv_adopt(Tui *t, Session *ses);
void lv_close(LessonView *lv);
/* Go to a screen of the lesson. */
void lv_go(Tui *t, int screen);
/* Build the panes of the session's current screen; where prev (n_prev
 * panes of the screen shown before) has a pane of the same name, it keeps
 * its cursor, scroll and view. */
void lv_build_panes(Tui *t, const Pane *prev, int n_prev);
/* Handle one action of the lesson view. */
void lv_action(Tui *t, TuiAction a);
/* One key on the lesson screen: the prompt's typing, the reveal's y, the
 * shared actions, a click, or an action of the view. */
void lv_key(Tui *t, int ch);
/* tui_lesson_draw.c: the step's prose and then its exercise as it
 * stands, wrapped to width (what t shows whole). Returns the lines. */
int lv_whole_text(const Tui *t, char *buf, size_t size, int width);
/* Finish the prompt with the typed text. */
void lv_submit(Tui *t);
/* The key after "y shows the worked answer": y reveals it. */
void lv_confirm_reveal(Tui *t, int ch);
/* Whether pane i's numbers are shown: always, but in presenter mode only
 * once revealed. */
int lv_pane_shown(const Tui *t, int i);
/* The matrix of pane i in the current state (NULL when undefined). */
const Mat *lv_pane_mat(const LessonView *lv, int i);
/* Mouse: select the cell at screen (x, y) if there is one. */
void lv_click(Tui *t, int x, int y);

/* tui_live.c: live reload of the open lesson. */
/* Reload the lesson if its file changed since it was last read (every
 * time when by_hand). Returns 1 when the screen must be redrawn. */
int lv_reload_if_changed(Tui *t, int by_hand);
/* Hide the reload error (the title keeps a short note). */
void lv_hide_reload_error(Tui *t);
/* The rows the reload error would like under the title (0: none shown). */
int lv_banner_want(const Tui *t);
/* Draw the reload error in r. */
void lv_banner_draw(const Tui *t, Rect r);

/* tui_knobs.c: the knob bar of a lesson with knobs. */
/* 1 when the open lesson has knobs to show. */
int knobs_bar_want(const Tui *t);
/* Draw the knob bar in r (one row): every knob, the picked one marked. */
void knobs_bar_draw(const Tui *t, Rect r);
/* Handle ACT_KNOB_*: pick the next knob, move or flip the picked one. */
void lv_knob_action(Tui *t, TuiAction a);

/* tui_colors.c */
void tui_colors_init(Tui *t, int no_color);
/* For the blank rows of a tall heat cell: attr's twin with the terminal's
 * own foreground (the same to the eye, fewer bytes to send); attr itself
 * when it is not a plain heat colour (a cursor, a mark) or there is none. */
int tui_heat_fill(const Tui *t, int attr);
int tui_attr(const Tui *t, TuiColor c);

/* tui_pane.c: one matrix in its pane. */
/* What pane i would like (its whole matrix, its numbers with the given
 * decimals) and the least it can use: all of it for a matrix of up to
 * PANE_WHOLE_MAX x PANE_WHOLE_MAX, which goes to a page of its own rather
 * than scroll. */
void pane_need(Tui *t, int i, int decimals, PaneNeed *need);
/* Fit pane i to the rectangle it was placed in: compact heat cells, the
 * overview's pooling, what is visible, the scroll that keeps the cursor in
 * view. */
void pane_fit(Tui *t, int i);
/* Draw pane i; ex (or NULL) has the operand cells to mark. */
void pane_draw(const Tui *t, int i, const Explanation *ex);
void tui_views_free(LessonView *lv);

/* tui.c: after newterm, before the first frame: put curses in the state
 * in which a frame leaves in one write rather than one per cursor move. */
void tui_curses_running(void);
/* tui.c: a frame of the screen on top (tui_screen.h). */
/* Lay it out (regions, pane geometry, scroll) for the terminal's size. */
void tui_prepare(Tui *t);
/* Draw it, or the "too small" notice. */
void tui_draw(Tui *t);
/* tui_lesson_draw.c: the notice, and the key bar of a screen's keys
 * (KEYS_MENU or KEYS_LESSON), or the prompt, or the message. */
void tui_draw_too_small(const Tui *t);
void tui_keybar_draw(const Tui *t, int where);
/* Release what the last frame kept (its explanation). */
void tui_frame_free(Tui *t);

/* tui_menu.c */
void menu_load(Tui *t, const char *dir);
/* List the menu's directory again (lessons added, removed or changed),
 * keeping the selected lesson selected when it is still there. */
void menu_reload(Tui *t);
void menu_free(Tui *t);


/* tui.c */
void tui_message(Tui *t, int error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Leave curses, print msg to stderr and exit(2): the fatal error path. */
void tui_fatal(const char *msg) __attribute__((noreturn));

#endif
