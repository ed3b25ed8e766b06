/*
 * tui_draw.c - one frame of the lesson screen, drawn from the state: the
 * colour tables, the per-frame layout (tui_prepare), matrices as numbers or
 * heatmaps with labelled axes, the explanation of the cursor's cell, the
 * exercises, the key bar, help and the "too small" notice. Called only by
 * the main loop: erase, draw, refresh.
 */
#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "tui_ramp.h"
#include "tui_state.h"

static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }

/* The explanation of the focused cell, rebuilt by each tui_prepare. */
static Explanation frame_ex;
static int frame_ex_ok;
static char frame_ex_err[256];

void tui_frame_free(void)
{
    explain_free(&frame_ex);
    memset(&frame_ex, 0, sizeof frame_ex);
    frame_ex_ok = 0;
}

/* ---- colours ---------------------------------------------------------- */

int tui_attr(const Tui *t, TuiColor c)
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

void tui_colors_init(Tui *t, int no_color)
{
    const char *nc = getenv("NO_COLOR");
    if (no_color || (nc && *nc) || !has_colors()) {
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
        int seen[8] = { 0 };
        int pair_of[9];
        for (int c = -1; c < 8; c++) {
            int dark = c >= 0 && ramp_text_dark(ramp8_rgb(c));
            init_pair(pair, dark ? COLOR_BLACK : -1, (short)c);
            pair_of[c + 1] = (int)COLOR_PAIR(pair++);
            (void)seen;
        }
        for (int k = 0; k < HEAT_SEQ_LEVELS; k++)
            t->heat_seq[k] = pair_of[ramp8_sequential(((float)k + 0.5f) / HEAT_SEQ_LEVELS) + 1];
        for (int k = -HEAT_DIV_HALF; k <= HEAT_DIV_HALF; k++)
            t->heat_div[k + HEAT_DIV_HALF] = pair_of[ramp8_diverging((float)k / HEAT_DIV_HALF) + 1];
    }
}

/* ---- small drawing helpers ----------------------------------------------- */

static int g_utf8;

/* Draw s (cleaned of control characters) at (y, x), at most w columns. */
static void put(int y, int x, int w, int attr, const char *s)
{
    if (w <= 0 || y < 0 || y >= LINES || x >= COLS)
        return;
    char clean[1024], cut[1024];
    text_clean(clean, sizeof clean, s, 0, g_utf8);
    size_t n = text_fit(clean, imin(w, COLS - x));
    memcpy(cut, clean, n);
    cut[n] = '\0';
    attrset(attr);
    mvaddstr(y, x, cut);
    attrset(A_NORMAL);
}

static void putf(int y, int x, int w, int attr, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static void putf(int y, int x, int w, int attr, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    put(y, x, w, attr, buf);
}

static void fill(int y, int x, int w, int attr)
{
    if (w <= 0 || y < 0 || y >= LINES)
        return;
    attrset(attr);
    mvhline(y, x, ' ', imin(w, COLS - x));
    attrset(A_NORMAL);
}

/* s right-aligned in w columns. */
static void put_right(int y, int x, int w, int attr, const char *s)
{
    int sw = fmt_display_width(s);
    if (sw > w) {
        put(y, x, w, attr, s);
        return;
    }
    fill(y, x, w - sw, attr);
    put(y, x + w - sw, sw, attr, s);
}

static const char *glyph(const char *utf8, const char *ascii)
{
    return g_utf8 ? utf8 : ascii;
}

static void prepare_help(Tui *t);

/* ---- per-frame layout -------------------------------------------------- */

void tui_views_free(LessonView *lv)
{
    if (lv->views)
        for (int i = 0; i < lv->n_panes; i++)
            free(lv->views[i].pooled);
    free(lv->views);
    lv->views = NULL;
}

static int label_width(const Labels *l, int n)
{
    int w = 1;
    for (int k = n; k >= 10; k /= 10)
        w++;
    if (l)
        for (int i = 0; i < l->n; i++)
            w = imax(w, fmt_display_width(l->names[i]));
    return imin(w, 12);
}

/* The width of the widest value of m. */
static int values_width(const Mat *m, int decimals, int utf8)
{
    int w = 1;
    for (int i = 0; i < m->rows; i++)
        w = imax(w, fmt_width(mat_row(m, i), m->cols, decimals, utf8));
    return w;
}

/* The heat scale of m: sequential 0..1 for weights, 0..max for other
 * non-negative values, else diverging -max|v|..max|v|. */
static void heat_scale(const Mat *m, PaneView *v)
{
    float lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < m->rows; i++)
        for (int j = 0; j < m->cols; j++) {
            float x = mat_get(m, i, j);
            if (!isfinite(x))
                continue;
            lo = fminf(lo, x);
            hi = fmaxf(hi, x);
        }
    if (lo > hi)
        lo = hi = 0;
    if (lo >= 0 && hi <= 1) {
        v->diverging = 0;
        v->lo = 0;
        v->hi = 1;
    } else if (lo >= 0) {
        v->diverging = 0;
        v->lo = 0;
        v->hi = hi;
    } else {
        v->diverging = 1;
        v->lo = -fmaxf(fabsf(lo), fabsf(hi));
        v->hi = -v->lo;
    }
}

/* Lines of the exercise area, into buf ('\n'-separated); returns the count. */
static int exercise_lines(const Tui *t, char *buf, size_t size, int width)
{
    const LessonView *lv = &t->lv;
    const LessonStep *st = lv_step(lv);
    buf[0] = '\0';
    if (!st || st->n_exercises == 0)
        return 0;
    const LessonExercise *ex = &st->exercises[lv->ex_index];
    char raw[2048];
    size_t len = 0;
    const char *mark = lv->result[lv->ex_index] > 0 ? glyph(" ✓", " (done)") : "";
    len += (size_t)snprintf(raw + len, sizeof raw - len, "Exercise %d/%d%s: %s\n", lv->ex_index + 1,
                            st->n_exercises, mark, ex->question);
    for (int h = 0; h < lv->hints_shown[lv->ex_index] && len < sizeof raw; h++)
        len += (size_t)snprintf(raw + len, sizeof raw - len, "  Hint %d: %s\n", h + 1, ex->hints[h]);
    if (lv->feedback[0] && len < sizeof raw)
        snprintf(raw + len, sizeof raw - len, "  %s\n", lv->feedback);
    return text_wrap(buf, size, raw, width);
}

static int step_text(const Tui *t, char *buf, size_t size, int width)
{
    const LessonView *lv = &t->lv;
    const LessonStep *st = lv_step(lv);
    char intro[600];
    const char *text;
    if (st) {
        text = st->text ? st->text : "";
    } else {
        snprintf(intro, sizeof intro, "%s\n\nThe lesson's inputs, before any step. %s",
                 lesson_about(lv->lesson), "Press n (or Space) to begin; ? lists every key.");
        text = intro;
    }
    return text_wrap(buf, size, text, width);
}

/* How m was made, in the lesson's notation ("logits / sqrt(2)"), from its
 * provenance: named operands by name, unnamed ones spelled out a few levels
 * deep. Returns the length written (as snprintf, bounded by size). */
static int describe(const Mat *m, char *buf, size_t size, int depth)
{
    if (size == 0)
        return 0;
    buf[0] = '\0';
    if (!m)
        return 0;
    if (depth > 0 && m->name[0])
        return snprintf(buf, size, "%s", m->name);
    if (depth > 3)
        return snprintf(buf, size, "%s", g_utf8 ? "…" : "...");
    char a[160] = "", b[160] = "";
    const Prov *p = &m->prov;
    describe(p->a, a, sizeof a, depth + 1);
    describe(p->b, b, sizeof b, depth + 1);
    /* a compound operand inside a larger formula gets parentheses */
    int wrap = depth > 0;
    switch (p->op) {
    case OP_INPUT:
        if (depth > 0 && m->rows == 1 && m->cols == 1)
            return snprintf(buf, size, "%g", (double)mat_get(m, 0, 0));
        if (depth > 0)     /* an unnamed constant: its shape */
            return snprintf(buf, size, "[%dx%d]", m->rows, m->cols);
        return 0;
    case OP_RANDN:
        return snprintf(buf, size, "randn(%d, %d)", m->rows, m->cols);
    case OP_COPY:
        return snprintf(buf, size, "%s", a);
    case OP_MATMUL:
        return snprintf(buf, size, "%s%s%s @ %s%s%s", wrap ? "(" : "", a, p->trans_a ? "^T" : "", b,
                        p->trans_b ? "^T" : "", wrap ? ")" : "");
    case OP_TRANSPOSE:
        return snprintf(buf, size, "%s^T", a);
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV:
        return snprintf(buf, size, "%s%s %s %s%s", wrap ? "(" : "", a, mat_op_name(p->op), b, wrap ? ")" : "");
    case OP_NEG:
        return snprintf(buf, size, "-%s", a);
    case OP_SOFTMAX_ROWS: case OP_SOFTMAX_COLS: case OP_LAYERNORM_ROWS:
    case OP_RELU: case OP_EXP: case OP_LOG: case OP_SQRT:
        return snprintf(buf, size, "%s(%s)", mat_op_name(p->op), a);
    case OP_COSINE:
        return snprintf(buf, size, "cosine(%s, %s)", a, b);
    case OP_HCAT: case OP_VCAT: {
        int n = snprintf(buf, size, "%s(", mat_op_name(p->op));
        for (int k = 0; k < p->n_parts && n > 0 && (size_t)n < size; k++) {
            char part[160];
            describe(p->parts[k], part, sizeof part, depth + 1);
            n += snprintf(buf + n, size - (size_t)n, "%s%s", k ? ", " : "", part);
        }
        if (n > 0 && (size_t)n < size)
            n += snprintf(buf + n, size - (size_t)n, ")");
        return n;
    }
    case OP_ROWS: case OP_COLS:
        return snprintf(buf, size, "%s(%s, %d, %d)", mat_op_name(p->op), a, p->lo + 1, p->hi);
    case OP_ELEMENT:
        return snprintf(buf, size, "%s[%d,%d]", a, p->lo + 1, p->hi + 1);
    case OP_CAUSAL_MASK:
        return snprintf(buf, size, "causal_mask(%d)", m->rows);
    case OP_POSENC: case OP_POSENC_BOOK:
        return snprintf(buf, size, "%s(%d, %d)", mat_op_name(p->op), m->rows, m->cols);
    default:
        return snprintf(buf, size, "%s", mat_op_name(p->op));
    }
}

static void view_of(Tui *t, int i, PaneNeed *need)
{
    LessonView *lv = &t->lv;
    PaneView *v = &lv->views[i];
    Pane *p = &lv->panes[i];
    free(v->pooled);
    memset(v, 0, sizeof *v);
    v->br = v->bc = 1;
    v->m = lv_pane_mat(lv, i);
    *need = (PaneNeed){ PANE_MIN_W, 3, PANE_MIN_W, 3, 0 };
    if (!v->m)
        return;
    const Mat *m = v->m;
    v->num_w = values_width(m, lv->decimals, t->utf8);
    int col_w = imin(label_width(m->col_labels, m->cols), 10);
    int heat_mono = p->heat && t->color == COLORS_NONE;
    v->grid.cell_w = imax(v->num_w + (heat_mono ? 2 : 0), col_w);
    v->grid.label_w = label_width(m->row_labels, m->rows);
    v->grid.footer_h = p->heat ? 1 : 0;
    v->rows = m->rows;
    v->cols = m->cols;
    if (p->heat)
        heat_scale(m, v);
    /* wide enough for the title and its formula, within reason */
    char how[200];
    int title_w = 2 + (int)strlen(p->name) + 8 + (describe(m, how, sizeof how, 0) > 0 ? 3 + fmt_display_width(how) : 0);
    need->want_w = grid_want_w(&v->grid, m->cols);
    need->nice_w = imin(title_w, 48);
    if (p->heat) {
        /* the legend: scale, swatches, and the notes on masking */
        int infs = 0;
        for (int r = 0; r < m->rows && !infs; r++)
            for (int c = 0; c < m->cols && !infs; c++)
                infs = isinf(mat_get(m, r, c)) && mat_get(m, r, c) < 0;
        int legend_w = 26 + (infs ? 9 : 0) + (m->masked && m->n_masked > 0 ? 16 : 0);
        need->nice_w = imax(need->nice_w, legend_w);
    }
    need->want_h = grid_want_h(&v->grid, m->rows);
    need->min_w = PANE_MIN_W;
    need->min_h = PANE_MIN_H + v->grid.footer_h;
}

/* After placement: compact heat cells, the overview, what fits, scrolling. */
static void fit_view(Tui *t, int i)
{
    LessonView *lv = &t->lv;
    PaneView *v = &lv->views[i];
    Pane *p = &lv->panes[i];
    const Mat *m = v->m;
    if (!m)
        return;
    Rect r = v->place.r;
    p->cur_r = imin(p->cur_r, m->rows - 1);
    p->cur_c = imin(p->cur_c, m->cols - 1);
    if (p->heat && grid_want_w(&v->grid, m->cols) > r.w) {
        v->compact = 1;
        v->grid.cell_w = 2;
    }
    if (p->overview) {
        int br, bc;
        int digits = label_width(NULL, m->rows);
        v->grid.label_w = imax(v->grid.label_w, 2 * digits + 1);
        pool_blocks(m->rows, m->cols, grid_fit_rows(&v->grid, r.h), grid_fit_cols(&v->grid, r.w), &br, &bc);
        v->br = br;
        v->bc = bc;
        v->rows = (m->rows + br - 1) / br;
        v->cols = (m->cols + bc - 1) / bc;
        v->pooled = malloc((size_t)v->rows * (size_t)v->cols * sizeof *v->pooled);
        if (!v->pooled)
            tui_fatal("out of memory");
        pool_matrix(v->pooled, m->data, m->rows, m->cols, m->ld, br, bc, p->overview == 2);
        p->cur_r -= p->cur_r % br;
        p->cur_c -= p->cur_c % bc;
    }
    v->fit_r = imin(grid_fit_rows(&v->grid, r.h), v->rows);
    v->fit_c = imin(grid_fit_cols(&v->grid, r.w), v->cols);
    p->first_r = layout_scroll(p->cur_r / v->br, p->first_r, v->fit_r, v->rows);
    p->first_c = layout_scroll(p->cur_c / v->bc, p->first_c, v->fit_c, v->cols);
}

void tui_prepare(Tui *t)
{
    g_utf8 = t->utf8;
    getmaxyx(stdscr, t->rows, t->cols);
    tui_frame_free();
    frame_ex_err[0] = '\0';
    if (t->overlay == OVERLAY_HELP)
        prepare_help(t);
    if (t->mode != MODE_LESSON) {
        t->layout_ok = t->cols >= TUI_MIN_COLS && t->rows >= TUI_MIN_ROWS;
        return;
    }
    LessonView *lv = &t->lv;
    size_t size = 65536;
    char *buf = malloc(size);
    if (!buf)
        tui_fatal("out of memory");
    int text_n = step_text(t, buf, size, imax(t->cols - 2, 10));
    int ex_n = exercise_lines(t, buf, size, imax(t->cols - 2, 10));
    free(buf);
    PaneNeed *need = calloc((size_t)imax(lv->n_panes, 1), sizeof *need);
    PanePlace *place = calloc((size_t)imax(lv->n_panes, 1), sizeof *place);
    if (!need || !place)
        tui_fatal("out of memory");
    for (int i = 0; i < lv->n_panes; i++)
        view_of(t, i, &need[i]);
    int panes_want = lv->n_panes ? imax(1, layout_panes_height(need, lv->n_panes, t->cols)) : 0;
    t->layout_ok = layout_screen(t->cols, t->rows, text_n, ex_n, panes_want, &t->layout);
    if (!t->layout_ok || lv->n_panes == 0) {
        free(need);
        free(place);
        return;
    }
    layout_panes(need, lv->n_panes, t->layout.panes, lv->focus, place);
    for (int i = 0; i < lv->n_panes; i++) {
        lv->views[i].place = place[i];
        if (place[i].visible)
            fit_view(t, i);
    }
    free(need);
    free(place);
    /* the exercise and the explanation follow the panes closely; the
     * space left over goes to the bottom, above the key bar */
    int bottom = t->layout.panes.y;
    for (int i = 0; i < lv->n_panes; i++)
        if (lv->views[i].place.visible)
            bottom = imax(bottom, lv->views[i].place.r.y + lv->views[i].place.r.h);
    int spare = t->layout.panes.y + t->layout.panes.h - bottom - 1;
    if (spare > 0) {
        t->layout.panes.h -= spare;
        t->layout.exercise.y -= spare;
        t->layout.status.y -= spare;
    }
    /* the explanation of the focused cell */
    Pane *p = &lv->panes[lv->focus];
    const Mat *m = lv->views[lv->focus].m;
    if (m && !p->overview) {
        AttnError err;
        attn_error_clear(&err);
        if (explain_cell(&frame_ex, m, p->cur_r, p->cur_c, &err) == ATTN_OK && frame_ex.text)
            frame_ex_ok = 1;
        else
            snprintf(frame_ex_err, sizeof frame_ex_err, "%s", err.msg);
    }
}

/* ---- the lesson screen ------------------------------------------------- */

static int is_operand(const PaneView *v, const Pane *p, int i, int j)
{
    if (!frame_ex_ok)
        return 0;
    for (int k = 0; k < frame_ex.n_operands; k++) {
        const CellRef *c = &frame_ex.operands[k];
        if (c->row != i || c->col != j || !c->mat)
            continue;
        if (c->mat == v->m || (c->mat->name[0] && strcmp(c->mat->name, p->name) == 0))
            return 1;
    }
    return 0;
}

/* The attribute of a heat cell of value x. */
static int heat_attr(const Tui *t, const PaneView *v, float x)
{
    if (!isfinite(x))
        return t->attr[C_HEAT_INF];
    if (t->color == COLORS_NONE)
        return A_NORMAL;
    if (v->diverging) {
        float s = v->hi > 0 ? x / v->hi : 0;
        return t->heat_div[ramp_signed_level(s, HEAT_DIV_HALF) + HEAT_DIV_HALF];
    }
    float s = v->hi > v->lo ? (x - v->lo) / (v->hi - v->lo) : 0;
    return t->heat_seq[ramp_level(s, HEAT_SEQ_LEVELS)];
}

static const char *shade_of(const PaneView *v, float x)
{
    if (!isfinite(x))
        return " ";
    if (v->diverging)
        return ramp_shade_signed(v->hi > 0 ? x / v->hi : 0, g_utf8);
    return ramp_shade(v->hi > v->lo ? (x - v->lo) / (v->hi - v->lo) : 0, g_utf8);
}

/* Softmax marks its fully masked lines in m->masked, an array of
 * max(rows, cols) flags (n_masked counts the flagged ones): rows for
 * softmax_rows, columns for softmax_cols, followed through copies. */
static int masked_by_rows(const Mat *m)
{
    for (int depth = 0; m && m->prov.op == OP_COPY && depth < 16; depth++)
        m = m->prov.a;
    return !m || m->prov.op != OP_SOFTMAX_COLS;
}

static int line_masked(const Mat *m, int line, int by_rows)
{
    if (!m->masked || m->n_masked <= 0 || by_rows != masked_by_rows(m))
        return 0;
    return line < (by_rows ? m->rows : m->cols) && m->masked[line];
}

static void axis_label(char *buf, size_t size, const Mat *m, int k, int block, int by_rows)
{
    const char *l = by_rows ? mat_row_label(m, k) : mat_col_label(m, k);
    int n = by_rows ? m->rows : m->cols;
    if (block > 1)
        snprintf(buf, size, "%d-%d", k + 1, imin(k + block, n));
    else if (l)
        snprintf(buf, size, "%s", l);
    else
        snprintf(buf, size, "%d", k + 1);
}

static void draw_legend(const Tui *t, const PaneView *v, int y, int x, int w)
{
    const Mat *m = v->m;
    char lo[32], hi[32];
    int cx = x;
    if (t->color == COLORS_NONE) {
        /* shades: by value from lo to hi, or by size for signed values */
        if (v->diverging) {
            snprintf(lo, sizeof lo, "|v|: 0");
            fmt_value(hi, sizeof hi, v->hi, 2, t->utf8);
        } else {
            fmt_value(lo, sizeof lo, v->lo, 2, t->utf8);
            fmt_value(hi, sizeof hi, v->hi, 2, t->utf8);
        }
        put(y, cx, x + w - cx, t->attr[C_DIM], lo);
        cx += fmt_display_width(lo) + 1;
        for (int k = 1; k < RAMP_SHADE_LEVELS && cx < x + w; k++, cx++)
            put(y, cx, 1, A_NORMAL, ramp_shade(((float)k + 0.5f) / RAMP_SHADE_LEVELS, t->utf8));
    } else {
        fmt_value(lo, sizeof lo, v->diverging ? -v->hi : v->lo, 2, t->utf8);
        fmt_value(hi, sizeof hi, v->hi, 2, t->utf8);
        put(y, cx, x + w - cx, t->attr[C_DIM], lo);
        cx += fmt_display_width(lo) + 1;
        int steps = 8;
        for (int k = 0; k < steps && cx < x + w; k++, cx++) {
            float f = ((float)k + 0.5f) / (float)steps;
            float val = v->diverging ? -v->hi + 2 * v->hi * f : v->lo + (v->hi - v->lo) * f;
            fill(y, cx, 1, heat_attr(t, v, val));
        }
    }
    cx += 1;
    put(y, cx, x + w - cx, t->attr[C_DIM], hi);
    cx += fmt_display_width(hi) + 2;
    int infs = 0, masked = 0;
    for (int i = 0; i < m->rows; i++)
        for (int j = 0; j < m->cols; j++)
            infs += isinf(mat_get(m, i, j)) && mat_get(m, i, j) < 0;
    int by_rows = masked_by_rows(m), first = -1;
    for (int k = 0; k < (by_rows ? m->rows : m->cols); k++)
        if (line_masked(m, k, by_rows)) {
            masked++;
            if (first < 0)
                first = k;
        }
    if (infs && cx < x + w) {
        putf(y, cx, x + w - cx, t->attr[C_HEAT_INF], "%s", glyph("-∞", "-inf"));
        cx += g_utf8 ? 3 : 5;
        put(y, cx, x + w - cx, t->attr[C_DIM], "masked");
        cx += 8;
    }
    if (masked && cx < x + w) {
        char what[64];
        snprintf(what, sizeof what, "%s %d%s masked", by_rows ? "row" : "col", first + 1,
                 masked > 1 ? " ..." : "");
        put(y, cx, x + w - cx, t->attr[C_MASKED], what);
    }
}

static void draw_pane(const Tui *t, int idx)
{
    const LessonView *lv = &t->lv;
    const Pane *p = &lv->panes[idx];
    const PaneView *v = &lv->views[idx];
    Rect r = v->place.r;
    int focus = idx == lv->focus;
    /* the title: name, shape, how it was made, what is shown */
    char title[256], shape[32] = "";
    const Mat *m = v->m;
    if (m)
        mat_shape_str(m, shape, sizeof shape);
    int tl = snprintf(title, sizeof title, "%s%s %s", focus ? glyph("▶ ", "> ") : "  ", p->name, shape);
    if (p->overview && tl < (int)sizeof title)
        tl += snprintf(title + tl, sizeof title - (size_t)tl, " [%s of %dx%d blocks]",
                       p->overview == 2 ? "max" : "mean", v->br, v->bc);
    if (m && v->fit_r < v->rows && tl < (int)sizeof title)
        tl += snprintf(title + tl, sizeof title - (size_t)tl, " [rows %d-%d/%d]", p->first_r + 1,
                       p->first_r + v->fit_r, v->rows);
    if (m && v->fit_c < v->cols && tl < (int)sizeof title)
        tl += snprintf(title + tl, sizeof title - (size_t)tl, " [cols %d-%d/%d]", p->first_c + 1,
                       p->first_c + v->fit_c, v->cols);
    char how[200];
    if (m && describe(m, how, sizeof how, 0) > 0 && tl < (int)sizeof title)
        snprintf(title + tl, sizeof title - (size_t)tl, " = %s", how);
    put(r.y, r.x, r.w, t->attr[focus ? C_PANE_FOCUS : C_PANE_TITLE], title);
    if (!m) {
        put(r.y + 1, r.x + 2, r.w - 2, t->attr[C_ERROR], "not defined");
        return;
    }
    const GridSpec *g = &v->grid;
    int heat = p->heat, mono = t->color == COLORS_NONE;
    char buf[64];
    /* column labels */
    for (int k = 0; k < v->fit_c; k++) {
        int j = p->first_c + k;
        axis_label(buf, sizeof buf, m, j * v->bc, v->bc, 0);
        int a = line_masked(m, j, 0) && v->bc == 1 ? t->attr[C_MASKED] : t->attr[C_LABEL];
        if (v->compact) {
            /* two columns per cell: label every few cells */
            if (k % 4 == 0)
                put(r.y + 1, r.x + grid_cell_x(g, k), imin(8, r.w - grid_cell_x(g, k)), a, buf);
        } else {
            put_right(r.y + 1, r.x + grid_cell_x(g, k), g->cell_w, a, buf);
        }
    }
    for (int k = 0; k < v->fit_r; k++) {
        int i = p->first_r + k, y = r.y + GRID_HEADER_H + k;
        axis_label(buf, sizeof buf, m, i * v->br, v->br, 1);
        int masked = v->br == 1 && line_masked(m, i, 1);
        put(y, r.x, g->label_w, t->attr[masked ? C_MASKED : C_LABEL], buf);
        if (masked)
            put(y, r.x + g->label_w, 1, t->attr[C_MASKED], glyph("⊘", "!"));
        for (int c = 0; c < v->fit_c; c++) {
            int j = p->first_c + c, x = r.x + grid_cell_x(g, c);
            int mi = i * v->br, mj = j * v->bc;
            float val = p->overview ? v->pooled[i * v->cols + j] : mat_get(m, mi, mj);
            int cursor = focus && mi <= p->cur_r && p->cur_r < mi + v->br && mj <= p->cur_c && p->cur_c < mj + v->bc;
            int edited = !p->overview && lv_is_edited(lv, p->name, mi, mj);
            int operand = lv->explain_on && !p->overview && is_operand(v, p, mi, mj);
            int a = A_NORMAL;
            if (heat)
                a = heat_attr(t, v, val);
            else if (edited)
                a = t->attr[C_EDITED];
            if (heat && edited)
                a |= A_UNDERLINE | A_BOLD;
            /* on a heatmap the colour is the value: marks go on top of it */
            if (operand) {
                a = heat ? (int)(a | A_UNDERLINE | A_BOLD) : t->attr[C_OPERAND];
                put(y, x - 1, 1, t->attr[C_OPERAND], glyph("▸", ">"));
            }
            if (cursor)
                a = heat ? (int)((a ^ A_REVERSE) | A_BOLD) : t->attr[C_CURSOR];
            char num[48];
            fmt_value(num, sizeof num, val, lv->decimals, t->utf8);
            if (heat && mono) {
                const char *sh = shade_of(v, val);
                if (v->compact) {
                    char two[16];
                    snprintf(two, sizeof two, "%s%s", sh, sh);
                    put(y, x, 2, a, two);
                } else {
                    put(y, x, 1, a, sh);
                    fill(y, x + 1, 1, a);
                    put_right(y, x + 2, g->cell_w - 2, a, num);
                }
            } else if (heat && v->compact) {
                fill(y, x, g->cell_w, a);
                if (!isfinite(val))
                    put(y, x, 2, a, glyph("-∞", "-i"));
            } else {
                put_right(y, x, g->cell_w, a, num);
            }
            if (edited && x + g->cell_w < t->cols)
                put(y, x + g->cell_w, 1, t->attr[C_EDITED], "*");
        }
    }
    if (heat)
        draw_legend(t, v, r.y + GRID_HEADER_H + v->fit_r, r.x, r.w);
}

static void draw_title(const Tui *t)
{
    const LessonView *lv = &t->lv;
    Rect r = t->layout.title;
    fill(r.y, 0, r.w, t->attr[C_TITLE]);
    const LessonStep *st = lv_step(lv);
    char right[256];
    int rl = snprintf(right, sizeof right, " step %d/%d: %s ", lv->screen + 1, lv_n_screens(lv),
                      st ? st->title : "Set-up");
    if (lv->n_edits > 0)
        snprintf(right + rl, sizeof right - (size_t)rl, "%s %d edit%s ", glyph("│", "|"), lv->n_edits,
                 lv->n_edits == 1 ? "" : "s");
    char clean[256];
    text_clean(clean, sizeof clean, right, 0, t->utf8);
    int rw = imin(fmt_display_width(clean), r.w * 2 / 3);
    putf(r.y, 0, r.w - rw - 1, t->attr[C_TITLE], " attn %s %s", glyph("·", "-"), lesson_title(lv->lesson));
    put(r.y, r.w - rw, rw, t->attr[C_STEP], clean);
}

static void draw_lines(const char *text, Rect r, int attr, int more_attr, const char *more)
{
    const char *p = text;
    for (int k = 0; k < r.h && *p; k++) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char line[1024];
        n = n < sizeof line - 1 ? n : sizeof line - 1;
        memcpy(line, p, n);
        line[n] = '\0';
        int last = k == r.h - 1 && nl && nl[1];
        if (last && more) {
            int mw = fmt_display_width(more);
            put(r.y + k, r.x + 1, r.w - 2 - mw - 1, attr, line);
            put(r.y + k, r.x + r.w - mw - 1, mw, more_attr, more);
        } else {
            put(r.y + k, r.x + 1, r.w - 2, attr, line);
        }
        p = nl ? nl + 1 : p + n;
    }
}

static void draw_status(const Tui *t)
{
    const LessonView *lv = &t->lv;
    Rect r = t->layout.status;
    if (lv->n_panes == 0) {
        put(r.y, 1, r.w - 2, t->attr[C_DIM], "(this step shows no matrices)");
        return;
    }
    const Pane *p = &lv->panes[lv->focus];
    const PaneView *v = &lv->views[lv->focus];
    if (!v->m)
        return;
    if (p->overview) {
        int r1 = p->cur_r + 1, c1 = p->cur_c + 1;
        float val = v->pooled ? v->pooled[(p->cur_r / v->br) * v->cols + p->cur_c / v->bc] : 0;
        char num[48];
        fmt_value(num, sizeof num, val, lv->decimals, t->utf8);
        putf(r.y, 1, r.w - 2, t->attr[C_STATUS], "%s rows %d-%d, cols %d-%d: %s %s", p->name, r1,
             imin(r1 + v->br - 1, v->m->rows), c1, imin(c1 + v->bc - 1, v->m->cols),
             p->overview == 2 ? "max" : "mean", num);
        put(r.y + 1, 1, r.w - 2, t->attr[C_DIM], "Enter opens this block cell by cell; o: max / off");
        return;
    }
    if (!frame_ex_ok) {
        char name[64], num[48];
        explain_cell_name(v->m, p->cur_r, p->cur_c, name, sizeof name);
        fmt_value(num, sizeof num, mat_get(v->m, p->cur_r, p->cur_c), lv->decimals, t->utf8);
        putf(r.y, 1, r.w - 2, t->attr[C_STATUS], "%s = %s", name, num);
        if (frame_ex_err[0])
            put(r.y + 1, 1, r.w - 2, t->attr[C_DIM], frame_ex_err);
        return;
    }
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", frame_ex.text);
    Rect lines = { r.x, r.y, r.w, r.h };
    const char *tag = lv->explain_on ? "operands marked (Enter: off)" : "Enter: mark its operands";
    draw_lines(buf, lines, t->attr[C_STATUS], t->attr[C_DIM], NULL);
    int n_lines = 1, last_w = 0;
    for (const char *q = buf; *q; q++)
        if (*q == '\n')
            n_lines++;
    const char *last = strrchr(buf, '\n');
    last_w = fmt_display_width(last ? last + 1 : buf);
    if (n_lines < r.h)
        last_w = 0;
    if (*tag && last_w + fmt_display_width(tag) + 4 < r.w) {
        int tw = fmt_display_width(tag);
        put(r.y + r.h - 1, r.w - tw - 1, tw, t->attr[C_DIM], tag);
    }
}

/* The key bar: the main actions, their keys read from the table. */
static void draw_keybar(const Tui *t, int where)
{
    Rect r = t->layout.keybar;
    if (t->mode != MODE_LESSON)
        r = (Rect){ 0, t->rows - 1, t->cols, 1 };
    fill(r.y, 0, r.w, t->attr[C_KEYBAR]);
    if (t->prompt != PROMPT_NONE) {
        putf(r.y, 1, r.w - 2, t->attr[C_KEYBAR], "%s%s", t->prompt_label, t->input);
        int cx = 1 + fmt_display_width(t->prompt_label) + fmt_display_width(t->input);
        if (cx < r.w)
            fill(r.y, cx, 1, t->attr[C_CURSOR]);
        return;
    }
    if (t->message[0]) {
        put(r.y, 1, r.w - 2, t->message_error ? (int)(t->attr[C_ERROR] | A_REVERSE) : t->attr[C_KEYBAR], t->message);
        return;
    }
    /* what this screen offers, most useful first; keys from the table */
    static const struct {
        TuiAction a;
        const char *label;
    } lesson_keys[] = {
        { ACT_NEXT, "next" }, { ACT_PREV, "back" }, { ACT_HINT, "hint" }, { ACT_ANSWER, "answer" },
        { ACT_UP, "move" }, { ACT_PANE_NEXT, "pane" }, { ACT_SELECT, "explain" }, { ACT_HEAT, "heat" },
        { ACT_EDIT, "edit" }, { ACT_HELP, "help" }, { ACT_QUIT, "quit" }, { ACT_OVERVIEW, "overview" },
        { ACT_MORE, "digits" },
    }, menu_keys[] = {
        { ACT_UP, "move" }, { ACT_SELECT, "open" }, { ACT_HELP, "help" }, { ACT_QUIT, "quit" },
    };
    const LessonStep *st = where == KEYS_LESSON ? lv_step(&t->lv) : NULL;
    int has_ex = st && st->n_exercises > 0, scrolls = 0;
    for (int i = 0; where == KEYS_LESSON && i < t->lv.n_panes; i++) {
        const PaneView *v = &t->lv.views[i];
        scrolls |= v->m && (v->fit_r < v->rows || v->fit_c < v->cols || t->lv.panes[i].overview);
    }
    int n = where == KEYS_MENU ? (int)(sizeof menu_keys / sizeof *menu_keys)
                               : (int)(sizeof lesson_keys / sizeof *lesson_keys);
    int x = 1;
    for (int i = 0; i < n; i++) {
        TuiAction a = where == KEYS_MENU ? menu_keys[i].a : lesson_keys[i].a;
        const char *label = where == KEYS_MENU ? menu_keys[i].label : lesson_keys[i].label;
        if (((a == ACT_HINT || a == ACT_ANSWER) && !has_ex) || (a == ACT_OVERVIEW && !scrolls))
            continue;
        char keys[64];
        tui_action_keys(a, where, keys, sizeof keys);
        char *comma = strchr(keys, ',');
        if (comma)
            *comma = '\0';
        if (a == ACT_MORE)
            snprintf(keys, sizeof keys, "+/-");
        else if (a == ACT_UP)   /* the arrows, as one entry */
            snprintf(keys, sizeof keys, "%s", where == KEYS_MENU ? glyph("↑↓", "Up/Down")
                                                                 : glyph("←↑↓→", "arrows"));
        int need = fmt_display_width(keys) + 1 + (int)strlen(label) + 2;
        if (x + need > r.w - 1)
            break;
        put(r.y, x, r.w - x, t->attr[C_KEY], keys);
        x += fmt_display_width(keys) + 1;
        put(r.y, x, r.w - x, t->attr[C_KEYBAR], label);
        x += (int)strlen(label) + 2;
    }
}

/* The help screen, generated from the bindings table: one column when
 * it fits, two when the terminal is short, and scrolled when even two do
 * not fit. */
typedef struct {
    int acts[ACT_COUNT];
    char keys[ACT_COUNT][64];
    int n, key_w, help_w;
    int columns, per_col, col_w;
    int top, room;
} HelpLayout;

static void help_layout(const Tui *t, HelpLayout *h)
{
    int where = t->mode == MODE_MENU ? KEYS_MENU : KEYS_LESSON;
    h->n = h->key_w = h->help_w = 0;
    for (int a = ACT_NONE + 1; a < ACT_COUNT; a++) {
        tui_action_keys((TuiAction)a, where, h->keys[h->n], sizeof h->keys[h->n]);
        if (!h->keys[h->n][0])
            continue;
        h->key_w = imax(h->key_w, fmt_display_width(h->keys[h->n]));
        h->help_w = imax(h->help_w, fmt_display_width(tui_action_help((TuiAction)a)));
        h->acts[h->n++] = a;
    }
    h->top = 2;
    h->room = imax(1, t->rows - h->top - 2);
    int entry_w = h->key_w + 1 + h->help_w;
    h->columns = h->n > h->room && t->cols >= 1 + 2 * entry_w + 2 ? 2 : 1;
    h->per_col = (h->n + h->columns - 1) / h->columns;
    h->col_w = h->columns == 2 ? entry_w + 2 : t->cols - 2;
}

static void prepare_help(Tui *t)
{
    HelpLayout h;
    help_layout(t, &h);
    t->help_max = imax(0, h.per_col - h.room);
    t->help_first = imax(0, imin(t->help_first, t->help_max));
}

static void draw_help(const Tui *t)
{
    int where = t->mode == MODE_MENU ? KEYS_MENU : KEYS_LESSON;
    fill(0, 0, t->cols, t->attr[C_TITLE]);
    put(0, 1, t->cols - 2, t->attr[C_TITLE], where == KEYS_MENU ? "attn: keys of the lesson menu"
                                                               : "attn: keys of the lesson screen");
    HelpLayout h;
    help_layout(t, &h);
    for (int k = 0; k < h.n; k++) {
        int c = k / h.per_col, row = k % h.per_col - t->help_first;
        if (row < 0 || row >= h.room)
            continue;
        int x = 1 + c * h.col_w;
        put(h.top + row, x, h.key_w, t->attr[C_HINT], h.keys[k]);
        put(h.top + row, x + h.key_w + 1, t->cols - x - h.key_w - 1, A_NORMAL,
            tui_action_help((TuiAction)h.acts[k]));
    }
    int below = h.top + h.per_col - t->help_first + 1;
    if (where == KEYS_LESSON && below < t->rows - 2)
        put(below, 2, t->cols - 4, t->attr[C_DIM],
            "Enter marks the cells a value came from; a click selects a cell; -inf is masked.");
    put(t->rows - 1, 1, t->cols - 2, t->attr[C_DIM],
        t->help_max > 0 ? (t->help_first < t->help_max ? "Down: more keys; any other key closes this help"
                                                       : "Up: back; any other key closes this help")
                        : "any key closes this help");
}

static void draw_text_overlay(const Tui *t)
{
    fill(0, 0, t->cols, t->attr[C_TITLE]);
    const LessonStep *st = lv_step(&t->lv);
    putf(0, 1, t->cols - 2, t->attr[C_TITLE], "%s", st ? st->title : "Set-up");
    size_t size = 65536;
    char *buf = malloc(size);
    if (!buf)
        tui_fatal("out of memory");
    step_text(t, buf, size, t->cols - 4);
    draw_lines(buf, (Rect){ 1, 2, t->cols - 2, t->rows - 4 }, t->attr[C_TEXT], t->attr[C_DIM], glyph("…", "..."));
    free(buf);
    put(t->rows - 1, 1, t->cols - 2, t->attr[C_DIM], "any key closes the text");
}

static void draw_too_small(const Tui *t)
{
    char msg[128];
    snprintf(msg, sizeof msg, "terminal too small: need at least %dx%d, have %dx%d", TUI_MIN_COLS,
             TUI_MIN_ROWS, t->cols, t->rows);
    int w = (int)strlen(msg);
    int y = t->rows / 2, x = imax(0, (t->cols - w) / 2);
    if (w > t->cols) {
        /* split it so it still reads on a very narrow terminal */
        put(y, 0, t->cols, t->attr[C_ERROR], "terminal too small:");
        putf(y + 1, 0, t->cols, A_NORMAL, "need at least %dx%d,", TUI_MIN_COLS, TUI_MIN_ROWS);
        putf(y + 2, 0, t->cols, A_NORMAL, "have %dx%d", t->cols, t->rows);
    } else {
        put(y, x, t->cols - x, t->attr[C_ERROR], msg);
    }
}

static void draw_lesson(Tui *t)
{
    LessonView *lv = &t->lv;
    draw_title(t);
    size_t size = 65536;
    char *buf = malloc(size);
    if (!buf)
        tui_fatal("out of memory");
    step_text(t, buf, size, t->cols - 2);
    draw_lines(buf, t->layout.text, t->attr[C_TEXT], t->attr[C_DIM], glyph("… t: all", "... t: all"));
    for (int i = 0; i < lv->n_panes; i++)
        if (lv->views[i].place.visible)
            draw_pane(t, i);
    int pages = 0, page = lv->n_panes ? lv->views[lv->focus].place.page : 0;
    for (int i = 0; i < lv->n_panes; i++)
        pages = imax(pages, lv->views[i].place.page + 1);
    if (pages > 1) {
        Rect pr = t->layout.panes;
        char note[64];
        snprintf(note, sizeof note, " panes page %d/%d (Tab) ", page + 1, pages);
        int nw = (int)strlen(note);
        put(pr.y + pr.h - 1, pr.x + pr.w - nw, nw, t->attr[C_DIM] | A_REVERSE, note);
    }
    if (t->layout.exercise.h > 0) {
        exercise_lines(t, buf, size, t->cols - 2);
        Rect er = t->layout.exercise;
        const char *p = buf;
        for (int k = 0; k < er.h && *p; k++) {
            const char *nl = strchr(p, '\n');
            size_t n = nl ? (size_t)(nl - p) : strlen(p);
            char line[1024];
            n = n < sizeof line - 1 ? n : sizeof line - 1;
            memcpy(line, p, n);
            line[n] = '\0';
            int a = t->attr[C_HINT];
            const char *body = line + strspn(line, " ");
            if (strncmp(line, "Exercise", 8) == 0)
                a = t->attr[C_PANE_TITLE];
            else if (lv->feedback[0] && *body && strncmp(lv->feedback, body, strlen(body)) == 0)
                a = t->attr[lv->feedback_ok ? C_RIGHT : C_WRONG];
            put(er.y + k, 1, er.w - 2, a, line);
            p = nl ? nl + 1 : p + n;
        }
    }
    free(buf);
    draw_status(t);
    draw_keybar(t, KEYS_LESSON);
}

void tui_draw(Tui *t)
{
    g_utf8 = t->utf8;
    erase();
    if (!t->layout_ok)
        draw_too_small(t);
    else if (t->overlay == OVERLAY_HELP)
        draw_help(t);
    else if (t->overlay == OVERLAY_TEXT)
        draw_text_overlay(t);
    else if (t->mode == MODE_MENU) {
        menu_draw(t);
        draw_keybar(t, KEYS_MENU);
    } else
        draw_lesson(t);
    refresh();
}
