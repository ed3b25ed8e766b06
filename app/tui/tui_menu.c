/*
 * tui_menu.c - the lesson menu: every lesson of the default set with its
 * title and 'about' line, in file order; a lesson that does not parse is
 * listed with its error and cannot be opened. The menu's screen object
 * (tui_screen.h): its keys, layout and frame.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "catalogue.h"
#include "tui_put.h"
#include "tui_screen.h"
#include "tui_chrome.h"
#include "tui_menu.h"
#include "text.h"
#include "tui_state.h"

#include "minmax.h"

void menu_load(Tui *t, const char *dir)
{
    menu_free(t);
    snprintf(t->menu.dir, sizeof t->menu.dir, "%s", dir ? dir : "");
    if (catalogue_load(&t->menu.cat, dir) != 0)
        tui_fatal("out of memory");
    t->menu.sel = 0;
}

void menu_free(Tui *t)
{
    catalogue_free(&t->menu.cat);
}

void menu_reload(Tui *t)
{
    char dir[sizeof t->menu.dir], selected[4096] = "";
    snprintf(dir, sizeof dir, "%s", t->menu.dir);
    if (t->menu.cat.n > 0)
        snprintf(selected, sizeof selected, "%s", t->menu.cat.entries[t->menu.sel].path);
    int old_sel = t->menu.sel;
    menu_load(t, dir[0] ? dir : NULL);
    t->menu.sel = imin(old_sel, imax(t->menu.cat.n - 1, 0));
    for (int i = 0; i < t->menu.cat.n; i++)
        if (strcmp(t->menu.cat.entries[i].path, selected) == 0)
            t->menu.sel = i;
}

static void open_selected(Tui *t)
{
    if (t->menu.cat.n == 0)
        return;
    CatalogueEntry *it = &t->menu.cat.entries[t->menu.sel];
    if (it->error) {
        tui_message(t, 1, "this lesson has an error and cannot open: %s", it->error);
        return;
    }
    char msg[1024];
    if (lv_open(t, it->path, msg, sizeof msg) < 0) {
        char *nl = strchr(msg, '\n');
        if (nl)
            *nl = '\0';
        tui_message(t, 1, "%s", msg);
        return;
    }
    tui_set_base(t, &tui_screen_lesson);
}

static void menu_action(Tui *t, TuiAction a)
{
    switch (a) {
    case ACT_UP:
        t->menu.sel = imax(0, t->menu.sel - 1);
        break;
    case ACT_DOWN:
        t->menu.sel = imin(imax(t->menu.cat.n - 1, 0), t->menu.sel + 1);
        break;
    case ACT_FIRST:
        t->menu.sel = 0;
        break;
    case ACT_LAST:
        t->menu.sel = imax(t->menu.cat.n - 1, 0);
        break;
    case ACT_SELECT:
        open_selected(t);
        break;
    default:
        break;
    }
}

/* Each lesson takes two rows (title, about) under a two-row heading; the
 * first lesson of each part of the course one more, for the part's title. */
#define MENU_TOP 3

static int opens_part(const Tui *t, int i)
{
    const Catalogue *c = &t->menu.cat;
    return c->n_parts > 0 && c->entries[i].part >= 0 && c->parts[c->entries[i].part].first == i;
}

static int entry_rows(const Tui *t, int i) { return 2 + opens_part(t, i); }

/* The first lesson drawn: the selected one about the middle, the list's
 * end at the bottom. */
static int menu_first(const Tui *t)
{
    int room = imax(2, t->rows - MENU_TOP - 1), n = t->menu.cat.n;
    if (n == 0)
        return 0;
    int first = t->menu.sel, used = entry_rows(t, first);
    while (first > 0 && used + entry_rows(t, first - 1) <= room / 2 + 1)
        used += entry_rows(t, --first);
    int below = 0;
    for (int i = first; i < n; i++)
        below += entry_rows(t, i);
    while (first > 0 && below + entry_rows(t, first - 1) <= room)
        below += entry_rows(t, --first);
    return first;
}

static void menu_click(Tui *t, int y)
{
    for (int i = menu_first(t), top = MENU_TOP; i < t->menu.cat.n && top <= y; top += entry_rows(t, i), i++)
        if (y >= top + opens_part(t, i) && y < top + entry_rows(t, i))
            t->menu.sel = i;
}

/* 1 when another lesson of the menu has item i's title. */
static int title_shared(const Tui *t, int i)
{
    for (int k = 0; k < t->menu.cat.n; k++)
        if (k != i && t->menu.cat.entries[k].title && t->menu.cat.entries[i].title && strcmp(t->menu.cat.entries[k].title, t->menu.cat.entries[i].title) == 0)
            return 1;
    return 0;
}

static void menu_draw(Tui *t)
{
    int w = t->cols;
    ui_fill(&t->cv, 0, 0, w, tui_attr(t, C_TITLE));
    ui_put(&t->cv, 0, 1, w - 1, tui_attr(t, C_TITLE), "attn: self-attention, step by step");
    char buf[1200];
    if (t->menu.cat.n == 0) {
        snprintf(buf, sizeof buf, t->menu.dir[0] ? "No lessons in %s." : "No lesson directory found%s.",
                 t->menu.dir[0] ? t->menu.dir : "");
        ui_put_fit(&t->cv, 2, 2, w - 4, tui_attr(t, C_ERROR), buf);
        ui_put_fit(&t->cv, 4, 2, w - 4, A_NORMAL, "Set ATTN_LESSONS to a directory of .lesson files, or run attn FILE.lesson.");
        return;
    }
    const Catalogue *c = &t->menu.cat;
    if (c->course_error[0]) {
        snprintf(buf, sizeof buf, "COURSE refused, lessons in file order: %s", c->course_error);
        ui_put_fit(&t->cv, 1, 2, w - 4, tui_attr(t, C_ERROR), buf);
    } else {
        int finished = 0;
        for (int p = 0; p < c->n_parts; p++)
            finished += c->parts[p].finished;
        snprintf(buf, sizeof buf, "%d lesson%s in %s", c->n, c->n == 1 ? "" : "s", t->menu.dir);
        if (c->n_parts > 0) {
            size_t bl = strlen(buf);
            snprintf(buf + bl, sizeof buf - bl, " %s course: %d/%d finished", ui_glyph(&t->cv, "·", "-"), finished,
                     c->n);
        }
        ui_put_fit(&t->cv, 1, 2, w - 4, tui_attr(t, C_DIM), buf);
    }
    int first = menu_first(t);
    int y = MENU_TOP;
    /* on a wide screen the step counts stay near their titles */
    w = text_measure(w) + 2;
    for (int i = first; i < c->n && y + entry_rows(t, i) - 1 < t->rows - 1; y += 2, i++) {
        if (opens_part(t, i)) {
            const CataloguePart *part = &c->parts[c->entries[i].part];
            char done[80];
            snprintf(done, sizeof done, "%d/%d finished ", part->finished, part->n);
            int dw = fmt_display_width(done);
            ui_put_fit(&t->cv, y, 1, w - 3 - dw, tui_attr(t, C_TITLE), part->title);
            ui_put(&t->cv, y, w - dw - 1, dw, tui_attr(t, C_DIM), done);
            y++;
        }
        const CatalogueEntry *it = &t->menu.cat.entries[i];
        int sel = i == t->menu.sel;
        if (sel)
            ui_fill(&t->cv, y, 0, t->cols, tui_attr(t, C_SELECTED));
        snprintf(buf, sizeof buf, "%s%2d  %s", sel ? (t->utf8 ? "▶ " : "> ") : "  ", i + 1,
                 it->error ? "(does not open)" : it->title);
        if (!it->error && title_shared(t, i)) {
            /* two lessons of one title: their files tell them apart */
            const char *base = strrchr(it->path, '/');
            size_t bl = strlen(buf);
            snprintf(buf + bl, sizeof buf - bl, "  (%s)", base ? base + 1 : it->path);
        }
        char steps[32] = "";
        if (!it->error && it->n_exercises > 0)
            snprintf(steps, sizeof steps, "%d/%d %s  %d steps ", it->solved, it->n_exercises,
                     (it->rec && it->rec->finished) ? ui_glyph(&t->cv, "✓", "done") : ui_glyph(&t->cv, "·", "-"), it->n_steps);
        else if (!it->error)
            snprintf(steps, sizeof steps, "%s%d steps ", (it->rec && it->rec->finished) ? ui_glyph(&t->cv, "✓ ", "done ") : "",
                     it->n_steps);
        int sw = fmt_display_width(steps);
        ui_put_fit(&t->cv, y, 1, w - 3 - sw, sel ? tui_attr(t, C_SELECTED) : tui_attr(t, C_PANE_TITLE), buf);
        ui_put(&t->cv, y, w - sw - 1, sw, sel ? tui_attr(t, C_SELECTED) : tui_attr(t, C_DIM), steps);
        if (it->error)
            ui_put_fit(&t->cv, y + 1, 7, w - 8, tui_attr(t, C_ERROR), it->error);
        else
            ui_put_fit(&t->cv, y + 1, 7, w - 8, tui_attr(t, C_DIM), it->about);
    }
}

/* ---- the menu as a screen ----------------------------------------------- */

/* A digit of a lesson's number: with 9 lessons or fewer it opens that
 * lesson; with more, the number typed so far is selected, and it opens as
 * soon as no longer number begins with it (12 lessons: 1 waits for a
 * second digit or Enter, 2 opens the second, 1 then 2 the twelfth). */
static void menu_number(Tui *t, int digit)
{
    int n = t->menu.typed * 10 + digit;
    if (n < 1 || n > t->menu.cat.n) {
        t->menu.typed = 0;
        if (digit >= 1 && digit <= t->menu.cat.n)
            n = digit;      /* a fresh start */
        else {
            tui_message(t, 1, "no lesson %d: the menu has %d", n, t->menu.cat.n);
            return;
        }
    }
    t->menu.sel = n - 1;
    if (n * 10 > t->menu.cat.n) {
        t->menu.typed = 0;
        open_selected(t);
    } else {
        t->menu.typed = n;
        tui_message(t, 0, "lesson %d: another digit, or Enter to open it", n);
    }
}

static TuiAction menu_key(Tui *t, int ch)
{
    t->message[0] = '\0';
    TuiAction a = tui_key_action(ch, KEYS_MENU);
    if (a == ACT_OPEN_NUMBER && t->layout_ok) {
        menu_number(t, ch - '0');
        return ACT_NONE;
    }
    t->menu.typed = 0;
    if (tui_action_shared(a))
        return a;
    if (!t->layout_ok)
        return ACT_NONE;
    if (ch == KEY_MOUSE) {
        MEVENT ev;
        if (getmouse(&ev) == OK && (ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
            menu_click(t, ev.y);
        return ACT_NONE;
    }
    menu_action(t, a);
    return ACT_NONE;
}

static void menu_prepare(Tui *t)
{
    tui_prepare_min_size(t);
}

static void menu_frame(Tui *t)
{
    menu_draw(t);
    tui_keybar_draw(t, &(KeyBarWant){ .where = KEYS_MENU });
}

const TuiScreen tui_screen_menu = { "menu", menu_key, menu_prepare, menu_frame, NULL };
