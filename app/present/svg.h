/*
 * svg.h - the one SVG writer of attn, for slides and papers: a lesson's
 * pane (`attn run --svg`, `w` on the lesson screen), a model's every head
 * and one head (`attn model --svg`, `w` on the model screen) are drawn
 * through it. svg.c writes the document (sizes in the SVG's own units, so
 * it scales; a monospace family list; every text cleaned as the screen
 * cleans it, then XML-escaped; every colour through one gate, which makes
 * it the grey of its lightness for NO_COLOR); svg_map.c draws a heatmap
 * (labelled axes, cells coloured by the screen's heat scale, numbers),
 * its colour bar, and a lesson's pane as the screen draws it.
 *
 * Ownership: an Svg owns its text until svg_end hands it over.
 */
#ifndef ATTN_SVG_H
#define ATTN_SVG_H

#include <stddef.h>

#include "heat.h"
#include "mat.h"
#include "ramp.h"
#include "strbuf.h"

/* In every SVG attn writes, near its start: a folder holding only files
 * with it holds only what attn wrote. */
#define SVG_MARK "<!-- written by attn"

/* The font sizes (SVG units) of a title, of labels and numbers; the
 * page's margin; the ink of text and of labels. */
#define SVG_TITLE_SIZE 16.0
#define SVG_FONT_SIZE 14.0
#define SVG_MARGIN 16.0
#define SVG_INK 0x000000
#define SVG_DIM 0x666666

typedef struct {
    StrBuf b;
    int grey;           /* every colour the grey of its lightness */
} Svg;

/* Begin a document w x h units (a white page), what it shows in its
 * comment; grey: NO_COLOR. */
void svg_begin(Svg *s, double w, double h, int grey, const char *what);
/* Close it: the text, the caller's to free; NULL when memory ran out. */
char *svg_end(Svg *s);

/* text made fit for a file's name: each byte but a letter, a digit, '_',
 * '-' and '.' as '_' (a leading '.' too). Into buf; returns buf. */
const char *svg_file_stem(char *buf, size_t size, const char *text);

/* The colour as written: c, or its grey when s->grey. */
Rgb svg_colour(const Svg *s, Rgb c);
/* An sRGB colour from a hex 0xRRGGBB. */
Rgb svg_hex(unsigned rgb);

/* A filled rectangle; cls (or NULL) its class, for a reader. */
void svg_rect(Svg *s, const char *cls, double x, double y, double w, double h, Rgb fill);

typedef enum { SVG_START, SVG_MIDDLE, SVG_END } SvgAnchor;
typedef struct {
    const char *cls;    /* its class, or NULL */
    double size;        /* font size */
    SvgAnchor anchor;
    Rgb fill;
    int bold;
    int vertical;       /* read upwards, turned about (x, y) */
} SvgFont;
/* text at (x, y) (its baseline), cleaned of control characters as the
 * screen cleans it and escaped. */
void svg_text(Svg *s, const SvgFont *f, double x, double y, const char *text);
/* The width text takes at font size `size` (a monospace advance). */
double svg_text_width(const char *text, double size);
/* A group of what follows, of class cls, up to svg_group_end. */
void svg_group(Svg *s, const char *cls);
void svg_group_end(Svg *s);

/* ---- svg_map.c ---------------------------------------------------------- */

/* What a cell is beyond its value. */
enum { SVG_CELL_VALUE, SVG_CELL_HIDDEN, SVG_CELL_MASKED_ZERO, SVG_CELL_BLANK };

/* A heatmap, or a matrix of numbers, to draw: its values, how each cell
 * and each axis reads (callbacks on ctx), the scale, the decimals. */
typedef struct {
    int rows, cols;
    const float *v;         /* [i,j] at v[i * ld + j] */
    size_t ld;
    /* the label of row i (by_rows) or column i into buf: returns it */
    const char *(*label)(const void *ctx, int i, int by_rows, char *buf, size_t size);
    /* what cell [i,j] is (SVG_CELL_*); NULL: every cell a value */
    int (*cell)(const void *ctx, int i, int j);
    /* 1 when line i (a row when by_rows) was masked whole; NULL: none */
    int (*line_masked)(const void *ctx, int i, int by_rows);
    const void *ctx;
    int heat;               /* cells coloured by the scale; 0: numbers alone */
    HeatScale scale;
    int decimals;           /* the numbers' decimals; -1: colour alone */
    double thumb;           /* > 0: a thumbnail, squares this size alone */
} SvgMap;

/* A blank cell (SVG_CELL_BLANK: a key after its query) is left out, as
 * the screen leaves it blank. */
/* The largest matrix whose cells hold numbers: past it, colour alone. */
#define SVG_NUMBERS_MAX_COLS 32
#define SVG_NUMBERS_MAX_ROWS 64

/* The size m takes (labels included); with draw, draw it at (x, y). */
void svg_map(Svg *s, const SvgMap *m, double x, double y, double *w, double *h, int draw);

/* The colour bar of scale h at (x, y), at most w wide: its ends labelled
 * at HEAT_LEGEND_DECIMALS. Returns its height. */
double svg_colour_bar(Svg *s, const HeatScale *h, double x, double y, double w);

/* What is drawn under a figure's colour bar: with draw 0, whether there
 * is anything (1) or not (0). */
typedef int (*SvgNotes)(Svg *s, const void *ctx, double x, double y, int draw);

/* A document of one map: title above it, its colour bar under it (bar),
 * then the notes (NULL: none); what for its comment. The caller's to free;
 * NULL on no memory. */
char *svg_figure(const char *title, const char *what, const SvgMap *map, int bar, int grey, SvgNotes notes,
                 const void *ctx);

/* A lesson's pane as the screen draws it: the title (its name, shape and
 * how it was made), the labelled axes (the lesson's labels or indices),
 * the cells (heat colours or plain numbers, -inf and masked zeros marked,
 * hidden ones "?"), the colour bar and its notes for a heatmap. */
typedef struct {
    const Mat *m;
    const char *how;        /* how it was made ("" unknown) */
    int heat;
    int decimals;           /* -1: colour alone (the screen's N) */
    int all_hidden;         /* not revealed yet: every cell "?" */
    /* 1 when cell [i,j] is kept from the student; NULL: none */
    int (*hidden)(const void *ctx, int i, int j);
    const void *ctx;
    int grey;               /* NO_COLOR */
} SvgPane;

/* The pane's SVG document: the caller's to free; NULL on no memory. */
char *svg_pane(const SvgPane *p);

#endif
