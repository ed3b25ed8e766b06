/*
 * tui_colors.c - the attribute tables behind the semantic colours: 256
 * colours, 8 colours, or none (NO_COLOR, --no-color, a terminal without
 * colour), where attributes alone (bold, reverse, underline, dim) carry
 * every role. Heat levels get colour pairs from the ramps of ramp.c.
 */
#include <curses.h>
#include <stdlib.h>

#include "ramp.h"
#include "text.h"
#include "tui_term.h"

int tui_attr(const TuiTerm *t, TuiColor c)
{
    return t->attr[c];
}

typedef struct {
    int fg, bg, attr;
} Style;

/* 256 and 8 colours: the same styles, with fg/bg as curses numbers. */
static Style style_for(TuiColor c, int c256)
{
    switch (c) {
    case C_TITLE:      return (Style){ c256 ? 231 : COLOR_WHITE, c256 ? 24 : COLOR_BLUE, A_BOLD };
    case C_STEP:       return (Style){ c256 ? 222 : COLOR_YELLOW, c256 ? 24 : COLOR_BLUE, A_BOLD };
    case C_TEXT:       return (Style){ -1, -1, 0 };
    case C_PANE_TITLE: return (Style){ c256 ? 110 : COLOR_CYAN, -1, A_BOLD };
    case C_PANE_FOCUS: return (Style){ c256 ? 16 : COLOR_BLACK, c256 ? 117 : COLOR_CYAN, A_BOLD };
    case C_LABEL:      return (Style){ c256 ? 245 : COLOR_CYAN, -1, 0 };
    case C_CURSOR:     return (Style){ c256 ? 16 : COLOR_BLACK, c256 ? 231 : COLOR_WHITE, A_BOLD };
    case C_OPERAND:    return (Style){ c256 ? 16 : COLOR_BLACK, c256 ? 214 : COLOR_YELLOW, A_BOLD };
    case C_EDITED:     return (Style){ c256 ? 213 : COLOR_MAGENTA, -1, A_BOLD | A_UNDERLINE };
    case C_STATUS:     return (Style){ -1, -1, 0 };
    case C_KEYBAR:     return (Style){ c256 ? 252 : COLOR_WHITE, c256 ? 238 : COLOR_BLUE, 0 };
    case C_KEY:        return (Style){ c256 ? 222 : COLOR_YELLOW, c256 ? 238 : COLOR_BLUE, A_BOLD };
    case C_ERROR:      return (Style){ c256 ? 203 : COLOR_RED, -1, A_BOLD };
    case C_RIGHT:      return (Style){ c256 ? 114 : COLOR_GREEN, -1, A_BOLD };
    case C_WRONG:      return (Style){ c256 ? 203 : COLOR_RED, -1, A_BOLD };
    case C_HINT:       return (Style){ c256 ? 222 : COLOR_YELLOW, -1, 0 };
    case C_MASKED:     return (Style){ c256 ? 203 : COLOR_RED, -1, 0 };
    case C_DIM:        return (Style){ c256 ? 245 : -1, -1, c256 ? 0 : A_DIM };
    case C_SELECTED:   return (Style){ c256 ? 16 : COLOR_BLACK, c256 ? 117 : COLOR_CYAN, A_BOLD };
    case C_HEAT_INF:   return (Style){ c256 ? 250 : COLOR_WHITE, c256 ? 236 : COLOR_BLACK, 0 };
    default:           return (Style){ -1, -1, 0 };
    }
}

/* Without colour: attributes alone, so every role still reads. */
static int mono_attr(TuiColor c)
{
    switch (c) {
    case C_TITLE: case C_STEP: case C_PANE_FOCUS: case C_CURSOR: case C_SELECTED:
    case C_KEYBAR:
        return A_REVERSE | (c == C_KEYBAR ? 0 : A_BOLD);
    case C_KEY:        return A_REVERSE | A_BOLD;
    case C_PANE_TITLE: return A_BOLD;
    case C_LABEL:      return A_DIM;
    case C_OPERAND:    return A_UNDERLINE | A_BOLD;
    case C_EDITED:     return A_BOLD | A_UNDERLINE;
    case C_ERROR: case C_WRONG: case C_RIGHT:
        return A_BOLD;
    case C_MASKED: case C_DIM: case C_HEAT_INF:
        return A_DIM;
    default:           return A_NORMAL;
    }
}

void tui_colors_init(TuiTerm *t, int no_color)
{
    if (no_color || text_no_color() || !has_colors()) {
        t->color = COLORS_NONE;
    } else {
        start_color();
        use_default_colors();
        t->color = COLORS >= 256 ? COLORS_256 : COLORS_8;
    }
    if (t->color == COLORS_NONE) {
        for (int c = 0; c < C_COUNT; c++)
            t->attr[c] = mono_attr((TuiColor)c);
        return;
    }
    int c256 = t->color == COLORS_256;
    short pair = 1;
    for (int c = 0; c < C_COUNT; c++) {
        Style s = style_for((TuiColor)c, c256);
        if (s.fg == -1 && s.bg == -1) {
            t->attr[c] = s.attr;
            continue;
        }
        init_pair(pair, (short)s.fg, (short)s.bg);
        t->attr[c] = (int)COLOR_PAIR(pair) | s.attr;
        pair++;
    }
    /* heat levels: background from the ramp, text black or white by its
     * lightness */
    int heat_first = pair;
    if (c256) {
        int seq[HEAT_SEQ_LEVELS], div[2 * HEAT_DIV_HALF + 1];
        ramp_xterm256_sequential(seq, HEAT_SEQ_LEVELS);
        ramp_xterm256_diverging(div, HEAT_DIV_HALF);
        for (int k = 0; k < HEAT_SEQ_LEVELS; k++) {
            int dark = ramp_text_dark(ramp_xterm256_rgb(seq[k]));
            init_pair(pair, dark ? 16 : 231, (short)seq[k]);
            t->heat_seq[k] = (int)COLOR_PAIR(pair++);
        }
        for (int k = 0; k < 2 * HEAT_DIV_HALF + 1; k++) {
            int dark = ramp_text_dark(ramp_xterm256_rgb(div[k]));
            init_pair(pair, dark ? 16 : 231, (short)div[k]);
            t->heat_div[k] = (int)COLOR_PAIR(pair++);
        }
    } else {
        int pair_of[9];
        for (int c = -1; c < 8; c++) {
            int dark = c >= 0 && ramp_text_dark(ramp8_rgb(c));
            init_pair(pair, dark ? COLOR_BLACK : -1, (short)c);
            pair_of[c + 1] = (int)COLOR_PAIR(pair++);
        }
        for (int k = 0; k < HEAT_SEQ_LEVELS; k++)
            t->heat_seq[k] = pair_of[ramp8_sequential(((float)k + 0.5f) / HEAT_SEQ_LEVELS) + 1];
        for (int k = -HEAT_DIV_HALF; k <= HEAT_DIV_HALF; k++)
            t->heat_div[k + HEAT_DIV_HALF] = pair_of[ramp8_diverging((float)k / HEAT_DIV_HALF) + 1];
    }
    /* the twins for blank rows: a tall heat cell's rows without its number
     * need no foreground, and going from one to the gap beside it and on
     * to the next cell then costs the terminal a background change alone
     * (a quarter of the bytes of a heat frame on a projector) */
    t->heat_first = heat_first;
    t->heat_n = pair - heat_first;
    t->heat_fill = 0;
    if (pair + t->heat_n <= COLOR_PAIRS) {
        for (int k = 0; k < t->heat_n; k++) {
            short fg, bg;
            pair_content((short)(t->heat_first + k), &fg, &bg);
            init_pair((short)(pair + k), -1, bg);
        }
        t->heat_fill = pair;
        pair = (short)(pair + t->heat_n);
    }
    /* half-block pixels: the upper one the glyph's colour, the lower one
     * its background */
    if (pair + HALF_LEVELS * HALF_LEVELS <= COLOR_PAIRS && pair + HALF_LEVELS * HALF_LEVELS < 256) {
        int level[HALF_LEVELS];
        if (c256)
            ramp_xterm256_sequential(level, HALF_LEVELS);
        for (int k = 0; !c256 && k < HALF_LEVELS; k++)
            level[k] = ramp8_sequential(((float)k + 0.5f) / HALF_LEVELS);
        for (int up = 0; up < HALF_LEVELS; up++)
            for (int down = 0; down < HALF_LEVELS; down++) {
                init_pair(pair, (short)level[up], (short)level[down]);
                t->half[up * HALF_LEVELS + down] = (int)COLOR_PAIR(pair++);
            }
    }
    /* and the twin of the masked (-inf) cells' colour */
    t->heat_inf_fill = t->attr[C_HEAT_INF];
    if (pair < COLOR_PAIRS && PAIR_NUMBER(t->attr[C_HEAT_INF]) > 0) {
        short fg, bg;
        pair_content((short)PAIR_NUMBER(t->attr[C_HEAT_INF]), &fg, &bg);
        init_pair(pair, -1, bg);
        t->heat_inf_fill = (int)COLOR_PAIR(pair++) | (t->attr[C_HEAT_INF] & ~A_COLOR & ~A_DIM);
    }
    /* blanks and plain text in a pair of the terminal's own colours rather
     * than in none: leaving a colour for them is then a colour change, not
     * a reset of every attribute (6 bytes fewer at each heat cell's edge) */
    if (pair < COLOR_PAIRS) {
        init_pair(pair, -1, -1);
        bkgdset((chtype)COLOR_PAIR(pair) | ' ');
    }
}

int tui_heat_fill(const TuiTerm *t, int attr)
{
    int p = PAIR_NUMBER(attr);
    if (t->color == COLORS_NONE)
        return attr;
    if (attr == t->attr[C_HEAT_INF])
        return t->heat_inf_fill;
    if (!t->heat_fill || (attr & ~A_COLOR) != 0 || p < t->heat_first || p >= t->heat_first + t->heat_n)
        return attr;
    return (int)COLOR_PAIR(t->heat_fill + p - t->heat_first);
}

int tui_heat_seq(const TuiTerm *t, float s)
{
    return t->color != COLORS_NONE ? t->heat_seq[ramp_level(s, HEAT_SEQ_LEVELS)] : (int)A_NORMAL;
}

int tui_heat_div(const TuiTerm *t, float s)
{
    return t->color != COLORS_NONE ? t->heat_div[ramp_signed_level(s, HEAT_DIV_HALF) + HEAT_DIV_HALF] : (int)A_NORMAL;
}
