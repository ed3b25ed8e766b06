/*
 * tui_view.h - the lesson screen's state as its parts share it: the view of
 * the open session (LessonView), its panes (Pane) and what the last frame
 * computed for each (PaneView). The lesson's actions (tui_lesson.c), its
 * frame (tui_lesson_draw.c), the panes (tui_pane.c), the knobs
 * (tui_knobs.c) and live reload (tui_live.c) read it; no function lives
 * here.
 */
#ifndef ATTN_TUI_VIEW_H
#define ATTN_TUI_VIEW_H

#include "bigtext.h"
#include "heat.h"
#include "mat.h"
#include "format.h"
#include "session.h"
#include "tui_layout.h"

#define INPUT_MAX 80
#define PRESENT_DECIMALS 2  /* the numbers' decimals in presenter mode */
#define PROJECTOR_COLS 200  /* a presenter's screen this wide is a projector's:
                               its titles and knobs in the block font */
#define PROJECTOR_ROWS 50   /* and this tall: its knobs and labels too */

typedef enum { PROMPT_NONE, PROMPT_EDIT, PROMPT_ANSWER } PromptKind;

/* A pane: one named matrix of the step. */
typedef struct {
    char name[MAT_NAME_MAX];
    int heat;           /* drawn as a heatmap */
    int heat_file;      /* what the lesson file asked for (heatmap NAME) */
    int overview;       /* 0 off, 1 block means, 2 block maxima */
    int cur_r, cur_c;   /* the cursor, in matrix cells */
    int first_r, first_c; /* scroll position (matrix or pooled cells) */
    /* what was found of the matrix's numbers, once for as long as it is
     * the same matrix (at 512 x 512 each look is a pass over 262144
     * numbers, and the layout looks several times a frame): for the matrix
     * numbered memo_serial only (mat.h) */
    unsigned long memo_serial;
    FmtExtremes memo_extremes;  /* what decides its numbers' width (format.h) */
    int memo_heat_ok;           /* the heatmap's findings below are made:  */
    HeatScale memo_heat;
    int memo_infs;              /* a -inf among the numbers                 */
    int memo_zeros;             /* a cell that softmax's masking zeroed     */
    int memo_masked, memo_first_masked; /* masked lines, the first (0-based) */
    /* how it was made, for the title ("": unknown), found once a frame (in
     * a bug hunt it depends on more than the matrix): for frame memo_frame
     * and matrix memo_m */
    unsigned memo_frame;
    const Mat *memo_m;
    char memo_how[200];
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
    char how[200];      /* how it was made, for the title ("" unknown)     */
} PaneView;

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
    /* a bug hunt (tui_bug.c): the kind picked in the list and the text
     * typed there, the hint shown at this stage, the matrix the fix shows */
    struct {
        int pick, hints, fix_at;
        char typed[32];
    } hunt;
} LessonView;

#endif
