/*
 * tui_put.c - the few ways the screen puts text down: clipped to a width,
 * cleaned of control characters, right-aligned, a run of blanks, lines of
 * wrapped text; and the choice between UTF-8 and ASCII glyphs.
 */
#include "tui_put.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "text.h"
#include "tui_layout.h"

#include "minmax.h"

/* Draw s (cleaned of control characters) at (y, x), at most w columns. */
static UiPutWatch watch;
static void *watch_ctx;

void ui_put_watch(UiPutWatch fn, void *ctx)
{
    watch = fn;
    watch_ctx = ctx;
}

/* 1 when s holds nothing but blanks. */
static int blank(const char *s)
{
    return s[strspn(s, " ")] == '\0';
}

void ui_put(const Canvas *cv, int y, int x, int w, int attr, const char *s)
{
    int rows, cols;
    getmaxyx(cv->win, rows, cols);
    if (w <= 0 || y < 0 || y >= rows || x >= cols)
        return;
    char clean[1024], cut[1024];
    text_clean(clean, sizeof clean, s, 0, cv->utf8);
    int room = imin(w, cols - x);
    size_t n = text_fit(clean, room);
    if (clean[n] && !blank(clean + n) && room > (cv->utf8 ? 1 : 3)) {
        text_shorten(cut, sizeof cut, clean, room, cv->utf8);   /* at a word, with a mark */
    } else {
        memcpy(cut, clean, n);  /* whole, or only blanks lost (or no room for a mark) */
        cut[n] = '\0';
    }
    if (watch)
        watch(clean, cut, room, watch_ctx);
    wattrset(cv->win, attr);
    mvwaddstr(cv->win, y, x, cut);
    wattrset(cv->win, A_NORMAL);
}

void ui_put_fit(const Canvas *cv, int y, int x, int w, int attr, const char *s)
{
    ui_put(cv, y, x, w, attr, s);
}

void ui_putf(const Canvas *cv, int y, int x, int w, int attr, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    ui_put(cv, y, x, w, attr, buf);
}

void ui_fill(const Canvas *cv, int y, int x, int w, int attr)
{
    int rows, cols;
    getmaxyx(cv->win, rows, cols);
    if (w <= 0 || y < 0 || y >= rows)
        return;
    wattrset(cv->win, attr);
    mvwhline(cv->win, y, x, ' ', imin(w, cols - x));
    wattrset(cv->win, A_NORMAL);
}

/* s right-aligned in w columns. */
void ui_put_right(const Canvas *cv, int y, int x, int w, int attr, const char *s)
{
    int sw = fmt_display_width(s);
    if (sw > w) {
        ui_put(cv, y, x, w, attr, s);
        return;
    }
    ui_fill(cv, y, x, w - sw, attr);
    ui_put(cv, y, x + w - sw, sw, attr, s);
}

void ui_put_big(const Canvas *cv, int y, int x, int w, int attr, const char *text, BigSize size)
{
    char line[2048];
    for (int k = 0; k < big_rows(size); k++)
        ui_put(cv, y + k, x, w, attr, big_row(text, size, k, cv->utf8, line, sizeof line));
}

const char *ui_glyph(const Canvas *cv, const char *utf8, const char *ascii)
{
    return cv->utf8 ? utf8 : ascii;
}

void ui_lines(const Canvas *cv, const char *text, Rect r, int attr, int more_attr, const char *more)
{
    char line[1024];
    const char *p = text;
    for (int k = 0; k < r.h && (p = text_line(p, line, sizeof line)); k++) {
        int last = k == r.h - 1 && *p;
        if (last && more) {
            int mw = fmt_display_width(more);
            ui_put(cv, r.y + k, r.x + 1, r.w - 2 - mw - 1, attr, line);
            ui_put(cv, r.y + k, r.x + r.w - mw - 1, mw, more_attr, more);
        } else {
            ui_put(cv, r.y + k, r.x + 1, r.w - 2, attr, line);
        }
    }
}
