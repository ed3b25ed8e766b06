/*
 * tui_layout.c - the screen's geometry: its regions, the panes placed in
 * shelves (short ones in columns beside a tall one) and then pages, and
 * the measure prose is wrapped to. Pure functions of their arguments; no
 * curses. How the panes grow on a big screen is tui_scale.c's; a matrix's
 * grid inside its pane is tui_grid.c's.
 */
#include "tui_layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"

#include "minmax.h"

int rect_overlap(Rect a, Rect b)
{
    if (a.w <= 0 || a.h <= 0 || b.w <= 0 || b.h <= 0)
        return 0;
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

int rect_inside(Rect in, Rect out)
{
    return in.x >= out.x && in.y >= out.y && in.x + in.w <= out.x + out.w
        && in.y + in.h <= out.y + out.h;
}

int layout_screen(int cols, int rows, int text_lines, int exercise_lines, int panes_want, int panes_min,
                  ScreenLayout *out)
{
    memset(out, 0, sizeof *out);
    if (cols < TUI_MIN_COLS || rows < TUI_MIN_ROWS)
        return 0;
    int free_rows = rows - 1 /* title */ - 1 /* keybar */ - STATUS_ROWS;
    text_lines = imax(text_lines, 0);
    int ex = imin(imax(exercise_lines, 0), imax(2, (free_rows - 6) / 3));
    int tx, pane_h;
    if (panes_want <= 0) {
        /* no matrices: the prose may use all the room */
        tx = imin(text_lines, free_rows - ex - (ex > 0));
        pane_h = ex > 0 && tx > 0;    /* a blank row before the exercise */
    } else {
        /* the prose takes what the panes do not want, and at least a
         * quarter of the room when it has that much to say; the panes
         * keep at least 6 rows, and at least panes_min when the prose and
         * the exercise can give way (to a line each: the rest of the prose
         * stays a key away) */
        int floor = imax(6, panes_min);
        int text_min = imin(text_lines, imax(2, free_rows / 4));
        tx = imin(text_lines, imax(text_min, free_rows - ex - 1 - panes_want));
        if (free_rows - ex - tx < floor)
            tx = imax(imin(text_lines, 1), free_rows - ex - floor);
        if (free_rows - ex - tx < floor)
            ex = imax(imin(ex, 1), free_rows - tx - floor);
        tx = imax(0, imin(tx, free_rows - ex - 6));
        pane_h = free_rows - ex - tx;
    }
    int y = 0;
    out->title = (Rect){ 0, y, cols, 1 };
    y += 1;
    out->text = (Rect){ 0, y, cols, tx };
    y += tx;
    /* a blank row between the prose and the panes when there is room */
    if (tx > 0 && pane_h > 6 && pane_h > panes_want) {
        y += 1;
        pane_h -= 1;
    }
    out->panes = (Rect){ 0, y, cols, pane_h };
    y += pane_h;
    out->exercise = (Rect){ 0, y, cols, ex };
    y += ex;
    out->status = (Rect){ 0, y, cols, STATUS_ROWS };
    y += STATUS_ROWS;
    out->keybar = (Rect){ 0, rows - 1, cols, 1 };
    return 1;
}

/* A shelf: panes [first, first+count) side by side. */
typedef struct {
    int first, count;
    int want_h, min_h;
} Shelf;

/* Panes side by side, greedily, in shelves that stack down. With squeeze,
 * a pane that does not fit at its width joins the shelf anyway when every
 * pane of the shelf fits at its minimum width. Returns the shelf count. */
static int build_shelves(const PaneNeed *need, int n, const int *w, const int *minw, Rect area, int squeeze,
                         Shelf *shelf)
{
    int n_shelves = 0;
    for (int i = 0; i < n;) {
        Shelf *s = &shelf[n_shelves++];
        s->first = i;
        s->count = 0;
        s->want_h = s->min_h = 0;
        int used = 0;
        while (i < n) {
            int add = w[i] + (s->count > 0 ? PANE_GAP_X : 0);
            if (s->count > 0 && used + add > area.w) {
                if (!squeeze)
                    break;
                int used_min = 0;
                for (int k = s->first; k <= i; k++)
                    used_min += minw[k] + (k > s->first ? PANE_GAP_X : 0);
                if (used_min > area.w)
                    break;
            }
            used += add;
            s->want_h = imax(s->want_h, imin(need[i].want_h, area.h));
            s->min_h = imax(s->min_h, imin(imin(need[i].min_h, need[i].want_h), area.h));
            s->count++;
            i++;
        }
    }
    return n_shelves;
}

/* The rows the shelves take at their minimum heights. */
static int shelves_height(const Shelf *shelf, int n_shelves)
{
    int h = 0;
    for (int k = 0; k < n_shelves; k++)
        h += shelf[k].min_h + (k > 0 ? PANE_GAP_Y : 0);
    return h;
}

/* Place units (single panes, or columns of short panes) in shelves and
 * pages; the body of layout_panes. */
static int place_units(const PaneNeed *need, int n, Rect area, int focus, PanePlace *out)
{
    if (n <= 0)
        return 0;
    memset(out, 0, (size_t)n * sizeof *out);
    int *w = malloc((size_t)n * sizeof *w);
    int *minw = malloc((size_t)n * sizeof *minw);
    Shelf *shelf = malloc((size_t)n * sizeof *shelf);
    if (!w || !minw || !shelf) {
        free(w);
        free(minw);
        free(shelf);
        /* no memory: everything on one page, stacked in the area */
        for (int i = 0; i < n; i++)
            out[i] = (PanePlace){ area, i == focus, i };
        return n;
    }
    /* widths: as wanted, within [min, area] */
    for (int i = 0; i < n; i++) {
        minw[i] = imin(imin(need[i].min_w, need[i].want_w), area.w);
        w[i] = imax(minw[i], imin(need[i].want_w, area.w));
    }
    /* shelves at the wanted widths; squeezed to minimum widths only when
     * the shelves would not fit down the area otherwise */
    int n_shelves = build_shelves(need, n, w, minw, area, 0, shelf);
    if (shelves_height(shelf, n_shelves) > area.h)
        n_shelves = build_shelves(need, n, w, minw, area, 1, shelf);
    /* pages: consecutive shelves whose minimum heights fit down */
    int page = 0, used_h = 0, focus_page = 0;
    int *shelf_page = malloc((size_t)n_shelves * sizeof *shelf_page);
    if (!shelf_page) {
        free(w);
        free(minw);
        free(shelf);
        for (int i = 0; i < n; i++)
            out[i] = (PanePlace){ area, i == focus, i };
        return n;
    }
    for (int s = 0; s < n_shelves; s++) {
        int add = shelf[s].min_h + (used_h > 0 ? PANE_GAP_Y : 0);
        if (used_h > 0 && used_h + add > area.h) {
            page++;
            used_h = 0;
            add = shelf[s].min_h;
        }
        used_h += add;
        shelf_page[s] = page;
        for (int k = shelf[s].first; k < shelf[s].first + shelf[s].count; k++) {
            out[k].page = page;
            if (k == focus)
                focus_page = page;
        }
    }
    int n_pages = page + 1;
    /* heights on the shown page: minimums first, then the rest shared in
     * proportion to what each shelf still wants */
    int s0 = -1, s1 = -1;
    for (int s = 0; s < n_shelves; s++)
        if (shelf_page[s] == focus_page) {
            if (s0 < 0)
                s0 = s;
            s1 = s;
        }
    int room = area.h, extra_want = 0;
    for (int s = s0; s <= s1; s++) {
        room -= shelf[s].min_h + (s > s0 ? PANE_GAP_Y : 0);
        extra_want += shelf[s].want_h - shelf[s].min_h;
    }
    int y = area.y;
    for (int s = s0; s <= s1; s++) {
        int extra = shelf[s].want_h - shelf[s].min_h;
        if (extra_want > room && extra_want > 0)
            extra = (int)((long)extra * imax(room, 0) / extra_want);
        int sh = shelf[s].min_h + extra;
        /* widths: share what is left across among panes that want more */
        int used = 0, more_want = 0;
        int first = shelf[s].first, count = shelf[s].count;
        for (int k = first; k < first + count; k++) {
            used += w[k] + (k > first ? PANE_GAP_X : 0);
            more_want += need[k].want_w - w[k];
        }
        if (used > area.w) {
            /* minimum widths fit (the shelf was built so): start from them */
            used = 0;
            more_want = 0;
            for (int k = first; k < first + count; k++) {
                w[k] = minw[k];
                used += w[k] + (k > first ? PANE_GAP_X : 0);
                more_want += need[k].want_w - w[k];
            }
        }
        int spare = area.w - used;
        int x = area.x;
        int nice_left = spare - imin(spare, imax(more_want, 0));
        for (int k = first; k < first + count; k++) {
            int pw = w[k];
            int more = need[k].want_w - w[k];
            if (more > 0 && spare > 0 && more_want > 0)
                pw += (int)((long)more * spare / more_want) > more ? more
                    : (int)((long)more * spare / more_want);
            /* room nobody needs: towards the width that would be nice */
            int nicer = imin(need[k].nice_w - pw, nice_left);
            if (nicer > 0) {
                pw += nicer;
                nice_left -= nicer;
            }
            pw = imin(pw, area.x + area.w - x);
            int ph = imin(imax(imin(need[k].want_h, sh), imin(need[k].min_h, sh)), sh);
            out[k].r = (Rect){ x, y, pw, imax(ph, 1) };
            out[k].visible = 1;
            x += pw + PANE_GAP_X;
        }
        y += sh + PANE_GAP_Y;
    }
    free(shelf_page);
    free(w);
    free(minw);
    free(shelf);
    return n_pages;
}

/* A column: panes [first, first+count) stacked beside a taller one. */
#define COLUMN_SLACK 3
typedef struct {
    int first, count;
} Column;

/* Panes from `from` on fit in a column beside pane `tall` when there are
 * two or more and their heights, with the gaps, are no more than its own
 * (and the title and column labels the column has more of, COLUMN_SLACK):
 * short panes beside a tall one (q and s beside E, Z1 and Z2 beside their
 * concatenation) then fill the room under one another instead of leaving
 * it empty. Returns how many do (0: not a column). */
static int column_beside(const PaneNeed *need, int n, int from, int tall)
{
    int h = -PANE_GAP_Y, k = from;
    while (k < n && k != tall && h + PANE_GAP_Y + need[k].want_h <= need[tall].want_h + COLUMN_SLACK)
        h += PANE_GAP_Y + need[k++].want_h;
    return k - from >= 2 ? k - from : 0;
}

/* A run of two or more panes from i that fits beside the pane right after
 * it (the column comes first): its length, or 0. */
static int column_before(const PaneNeed *need, int n, int i)
{
    for (int c = n - i - 1; c >= 2; c--)
        if (column_beside(need, i + c + 1, i, i + c) == c)
            return c;
    return 0;
}

/* What a column of panes [first, first+count) needs: as wide as its
 * widest, as tall as all of them with the gaps. */
static PaneNeed column_need(const PaneNeed *need, int first, int count)
{
    PaneNeed c = { 0, -PANE_GAP_Y, 0, -PANE_GAP_Y, 0, 0, 0, 0 };
    for (int k = first; k < first + count; k++) {
        c.want_w = imax(c.want_w, need[k].want_w);
        c.min_w = imax(c.min_w, imin(need[k].min_w, need[k].want_w));
        c.nice_w = imax(c.nice_w, need[k].nice_w);
        c.want_h += PANE_GAP_Y + need[k].want_h;
        c.min_h += PANE_GAP_Y + imin(need[k].min_h, need[k].want_h);
    }
    return c;
}

int layout_panes(const PaneNeed *need, int n, Rect area, int focus, PanePlace *out)
{
    if (n <= 0)
        return 0;
    PaneNeed *unit = malloc((size_t)n * sizeof *unit);
    Column *col = malloc((size_t)n * sizeof *col);
    int *unit_of = malloc((size_t)n * sizeof *unit_of);
    PanePlace *uplace = malloc((size_t)n * sizeof *uplace);
    if (!unit || !col || !unit_of || !uplace) {
        free(unit), free(col), free(unit_of), free(uplace);
        return place_units(need, n, area, focus, out);
    }
    /* the units: each pane alone, but a run of short panes beside a tall
     * one (after it, or before it) in a column */
    int n_units = 0;
    for (int i = 0; i < n;) {
        /* (a column must fit down the area even at its panes' minimums) */
        int b = column_before(need, n, i);
        if (b > 0 && column_need(need, i, b).min_h > area.h)
            b = 0;
        if (b > 0) {    /* a column, then the tall pane beside it */
            int v = n_units++;
            unit[v] = column_need(need, i, b);
            for (int k = i; k < i + b; k++)
                unit_of[k] = v;
            col[v] = (Column){ i, b };
            i += b;
        }
        int u = n_units++;
        unit[u] = need[i];
        col[u] = (Column){ i, 1 };
        unit_of[i] = u;
        int c = b > 0 ? 0 : column_beside(need, n, i + 1, i);
        if (c > 0 && column_need(need, i + 1, c).min_h > area.h)
            c = 0;
        i++;
        if (c > 0) {
            int v = n_units++;
            unit[v] = column_need(need, i, c);
            for (int k = i; k < i + c; k++)
                unit_of[k] = v;
            col[v] = (Column){ i, c };
            i += c;
        }
    }
    int pages = place_units(unit, n_units, area, unit_of[imax(0, imin(focus, n - 1))], uplace);
    /* each pane where its unit went; a column's panes one under another,
     * each at least its minimum and the rest of the column's height shared
     * in proportion to what each still wants */
    for (int u = 0; u < n_units; u++) {
        Rect r = uplace[u].r;
        int y = r.y, first = col[u].first, count = col[u].count;
        int extra = imax(0, r.h - unit[u].min_h), more = imax(0, unit[u].want_h - unit[u].min_h);
        for (int k = first; k < first + count; k++) {
            out[k] = uplace[u];
            if (count > 1) {
                int lo = imin(need[k].min_h, need[k].want_h), grow = need[k].want_h - lo;
                int h = lo + (more > 0 ? (int)((long)grow * imin(extra, more) / more) : 0);
                out[k].r = (Rect){ r.x, y, imin(r.w, imax(need[k].want_w, need[k].nice_w)), imax(h, 1) };
                y += h + PANE_GAP_Y;
            }
        }
    }
    free(unit), free(col), free(unit_of), free(uplace);
    return pages;
}

int layout_panes_height(const PaneNeed *need, int n, int w)
{
    if (n <= 0)
        return 0;
    PanePlace *place = malloc((size_t)n * sizeof *place);
    if (!place)
        return 0;
    Rect tall = { 0, 0, w, 1 << 20 };
    layout_panes(need, n, tall, 0, place);
    int bottom = 0;
    for (int i = 0; i < n; i++)
        bottom = imax(bottom, place[i].r.y + place[i].r.h);
    free(place);
    return bottom;
}

int text_measure(int cols)
{
    return imax(10, imin(cols - 2, TEXT_MEASURE_MAX));
}
