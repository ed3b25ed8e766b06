/*
 * tui_colors.h - the screen's semantic colours and the heat scale's colour
 * pairs, set up for the terminal (256 colours, 8 or none) by tui_colors.c.
 */
#ifndef ATTN_TUI_COLORS_H
#define ATTN_TUI_COLORS_H


typedef struct TuiTerm TuiTerm;

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
/* the levels of a half-block pixel (two a cell): a pair for each upper and
 * lower level */
#define HALF_LEVELS 8
#define HEAT_DIV_HALF 8

/* tui_colors.c */
void tui_colors_init(TuiTerm *t, int no_color);
/* For the blank rows of a tall heat cell: attr's twin with the terminal's
 * own foreground (the same to the eye, fewer bytes to send); attr itself
 * when it is not a plain heat colour (a cursor, a mark) or there is none. */
int tui_heat_fill(const TuiTerm *t, int attr);
int tui_attr(const TuiTerm *t, TuiColor c);
/* The heat colour of s on the sequential scale (0..1: viridis) or the
 * diverging one (-1..1), A_NORMAL without colour: the one mapping every
 * screen's heat goes through. */
int tui_heat_seq(const TuiTerm *t, float s);
int tui_heat_div(const TuiTerm *t, float s);

#endif
