/*
 * tui_menu.c - the lesson menu: every lesson of a folder (the default set,
 * or the folder of a lesson opened by name) with its title and 'about'
 * line, in the course's order; a lesson that does not parse is listed
 * with its error and cannot be opened. The menu's screen object
 * (tui_screen.h): its keys (a lesson asked for by its path), layout and
 * frame; the folder listed again when it is back on top after a lesson.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "catalogue.h"
#include "tui_put.h"
#include "tui_screen.h"
#include "tui_help.h"
#include "tui_keybar.h"
#include "tui_menu.h"
#include "text.h"

#include "minmax.h"

MenuView *menu_new(const char *dir, const char *select)
{
    MenuView *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    snprintf(m->dir, sizeof m->dir, "%s", dir ? dir : "");
    snprintf(m->select, sizeof m->select, "%s", select ? select : "");
    m->stale = 1;
    return m;
}

void menu_free(MenuView *m)
{
    if (!m)
        return;
    catalogue_free(&m->cat);
    free(m);
}

static void menu_load(MenuView *m, const char *dir)
{
    catalogue_free(&m->cat);
    snprintf(m->dir, sizeof m->dir, "%s", dir ? dir : "");
    if (catalogue_load(&m->cat, dir) != 0)
        tui_fatal("out of memory");
    m->sel = 0;
}

/* List the menu's directory again (lessons added, removed or changed),
 * keeping the selected lesson selected when it is still there. */
static void menu_reload(MenuView *m)
{
    char dir[sizeof m->dir], selected[4096] = "";
    snprintf(dir, sizeof dir, "%s", m->dir);
    if (m->cat.n > 0)
        snprintf(selected, sizeof selected, "%s", m->cat.entries[m->sel].path);
    int old_sel = m->sel;
    menu_load(m, dir[0] ? dir : NULL);
    m->sel = imin(old_sel, imax(m->cat.n - 1, 0));
    for (int i = 0; i < m->cat.n; i++)
        if (strcmp(m->cat.entries[i].path, selected) == 0)
            m->sel = i;
}

/* The folder listed: the first time with the lesson asked for selected,
 * after that again with the selection kept. */
static void menu_list(MenuView *m)
{
    m->stale = 0;
    if (m->loaded) {
        menu_reload(m);
        return;
    }
    char dir[sizeof m->dir];
    snprintf(dir, sizeof dir, "%s", m->dir);
    menu_load(m, dir[0] ? dir : NULL);
    m->loaded = 1;
    for (int i = 0; m->select[0] && i < m->cat.n; i++) {
        const char *b = strrchr(m->cat.entries[i].path, '/');
        if (strcmp(b ? b + 1 : m->cat.entries[i].path, m->select) == 0)
            m->sel = i;
    }
}

static void open_selected(TuiTerm *term, MenuView *m)
{
    if (m->cat.n == 0)
        return;
    CatalogueEntry *it = &m->cat.entries[m->sel];
    if (it->error) {
        tui_message(term, 1, "this lesson has an error and cannot open: %s", it->error);
        return;
    }
    m->open_asked = 1;     /* the loop opens it (ACT_OPEN_LESSON) */
}

static void menu_action(TuiTerm *term, MenuView *m, TuiAction a)
{
    switch (a) {
    case ACT_UP:
        m->sel = imax(0, m->sel - 1);
        break;
    case ACT_DOWN:
        m->sel = imin(imax(m->cat.n - 1, 0), m->sel + 1);
        break;
    case ACT_FIRST:
        m->sel = 0;
        break;
    case ACT_LAST:
        m->sel = imax(m->cat.n - 1, 0);
        break;
    case ACT_SELECT:
        open_selected(term, m);
        break;
    default:
        break;
    }
}

/* Each lesson takes two rows (title, about) under a two-row heading; the
 * first lesson of each part of the course one more, for the part's title. */
#define MENU_TOP 3

static int opens_part(const MenuView *m, int i)
{
    const Catalogue *c = &m->cat;
    return c->n_parts > 0 && c->entries[i].part >= 0 && c->parts[c->entries[i].part].first == i;
}

static int entry_rows(const MenuView *m, int i) { return 2 + opens_part(m, i); }

/* The first lesson drawn: the selected one about the middle, the list's
 * end at the bottom. */
static int menu_first(const TuiTerm *term, const MenuView *m)
{
    int room = imax(2, term->rows - MENU_TOP - 1), n = m->cat.n;
    if (n == 0)
        return 0;
    int first = m->sel, used = entry_rows(m, first);
    while (first > 0 && used + entry_rows(m, first - 1) <= room / 2 + 1)
        used += entry_rows(m, --first);
    int below = 0;
    for (int i = first; i < n; i++)
        below += entry_rows(m, i);
    while (first > 0 && below + entry_rows(m, first - 1) <= room)
        below += entry_rows(m, --first);
    return first;
}

static void menu_click(TuiTerm *term, MenuView *m, int y)
{
    for (int i = menu_first(term, m), top = MENU_TOP; i < m->cat.n && top <= y; top += entry_rows(m, i), i++)
        if (y >= top + opens_part(m, i) && y < top + entry_rows(m, i))
            m->sel = i;
}

/* 1 when another lesson of the menu has item i's title. */
static int title_shared(const MenuView *m, int i)
{
    for (int k = 0; k < m->cat.n; k++)
        if (k != i && m->cat.entries[k].title && m->cat.entries[i].title && strcmp(m->cat.entries[k].title, m->cat.entries[i].title) == 0)
            return 1;
    return 0;
}

static void menu_draw(TuiTerm *term, MenuView *m)
{
    int w = term->cols;
    ui_fill(&term->cv, 0, 0, w, tui_attr(term, C_TITLE));
    ui_put(&term->cv, 0, 1, w - 1, tui_attr(term, C_TITLE), "attn: self-attention, step by step");
    char buf[1200];
    if (m->cat.n == 0) {
        snprintf(buf, sizeof buf, m->dir[0] ? "No lessons in %s." : "No lesson directory found%s.",
                 m->dir[0] ? m->dir : "");
        ui_put_fit(&term->cv, 2, 2, w - 4, tui_attr(term, C_ERROR), buf);
        ui_put_fit(&term->cv, 4, 2, w - 4, A_NORMAL, "Set ATTN_LESSONS to a directory of .lesson files, or run attn FILE.lesson.");
        return;
    }
    const Catalogue *c = &m->cat;
    if (c->course_error[0]) {
        snprintf(buf, sizeof buf, "COURSE refused, lessons in file order: %s", c->course_error);
        ui_put_fit(&term->cv, 1, 2, w - 4, tui_attr(term, C_ERROR), buf);
    } else {
        int finished = 0;
        for (int p = 0; p < c->n_parts; p++)
            finished += c->parts[p].finished;
        snprintf(buf, sizeof buf, "%d lesson%s in %s", c->n, c->n == 1 ? "" : "s", m->dir);
        if (c->n_parts > 0) {
            size_t bl = strlen(buf);
            snprintf(buf + bl, sizeof buf - bl, " %s course: %d/%d finished", ui_glyph(&term->cv, "·", "-"), finished,
                     c->n);
        }
        ui_put_fit(&term->cv, 1, 2, w - 4, tui_attr(term, C_DIM), buf);
    }
    int first = menu_first(term, m);
    int y = MENU_TOP;
    /* on a wide screen the step counts stay near their titles */
    w = text_measure(w) + 2;
    for (int i = first; i < c->n && y + entry_rows(m, i) - 1 < term->rows - 1; y += 2, i++) {
        if (opens_part(m, i)) {
            const CataloguePart *part = &c->parts[c->entries[i].part];
            char done[80];
            snprintf(done, sizeof done, "%d/%d finished ", part->finished, part->n);
            int dw = fmt_display_width(done);
            ui_put_fit(&term->cv, y, 1, w - 3 - dw, tui_attr(term, C_TITLE), part->title);
            ui_put(&term->cv, y, w - dw - 1, dw, tui_attr(term, C_DIM), done);
            y++;
        }
        const CatalogueEntry *it = &m->cat.entries[i];
        int sel = i == m->sel;
        if (sel)
            ui_fill(&term->cv, y, 0, term->cols, tui_attr(term, C_SELECTED));
        snprintf(buf, sizeof buf, "%s%2d  %s", sel ? (term->utf8 ? "▶ " : "> ") : "  ", i + 1,
                 it->error ? "(does not open)" : it->title);
        if (!it->error && title_shared(m, i)) {
            /* two lessons of one title: their files tell them apart */
            const char *base = strrchr(it->path, '/');
            size_t bl = strlen(buf);
            snprintf(buf + bl, sizeof buf - bl, "  (%s)", base ? base + 1 : it->path);
        }
        char steps[32] = "";
        if (!it->error && it->n_exercises > 0)
            snprintf(steps, sizeof steps, "%d/%d %s  %d steps ", it->solved, it->n_exercises,
                     catalogue_finished(it) ? ui_glyph(&term->cv, "✓", "done") : ui_glyph(&term->cv, "·", "-"), it->n_steps);
        else if (!it->error)
            snprintf(steps, sizeof steps, "%s%d steps ", catalogue_finished(it) ? ui_glyph(&term->cv, "✓ ", "done ") : "",
                     it->n_steps);
        int sw = fmt_display_width(steps);
        ui_put_fit(&term->cv, y, 1, w - 3 - sw, sel ? tui_attr(term, C_SELECTED) : tui_attr(term, C_PANE_TITLE), buf);
        ui_put(&term->cv, y, w - sw - 1, sw, sel ? tui_attr(term, C_SELECTED) : tui_attr(term, C_DIM), steps);
        if (it->error)
            ui_put_fit(&term->cv, y + 1, 7, w - 8, tui_attr(term, C_ERROR), it->error);
        else
            ui_put_fit(&term->cv, y + 1, 7, w - 8, tui_attr(term, C_DIM), it->about);
    }
}

/* ---- the menu as a screen ----------------------------------------------- */

/* A digit of a lesson's number: with 9 lessons or fewer it opens that
 * lesson; with more, the number typed so far is selected, and it opens as
 * soon as no longer number begins with it (12 lessons: 1 waits for a
 * second digit or Enter, 2 opens the second, 1 then 2 the twelfth). */
static void menu_number(TuiTerm *term, MenuView *m, int digit)
{
    int n = m->typed * 10 + digit;
    if (n < 1 || n > m->cat.n) {
        m->typed = 0;
        if (digit >= 1 && digit <= m->cat.n)
            n = digit;      /* a fresh start */
        else {
            tui_message(term, 1, "no lesson %d: the menu has %d", n, m->cat.n);
            return;
        }
    }
    m->sel = n - 1;
    if (n * 10 > m->cat.n) {
        m->typed = 0;
        open_selected(term, m);
    } else {
        m->typed = n;
        tui_message(term, 0, "lesson %d: another digit, or Enter to open it", n);
    }
}

static TuiAction menu_key_of(TuiTerm *term, MenuView *m, int ch);

/* A key; what it leaves to the loop: the lesson chosen, the cost view and
 * the models (made by the app for the action), the help, the end. */
static TuiAsk menu_key(TuiTerm *term, MenuView *m, int ch)
{
    TuiAction asked = menu_key_of(term, m, ch);
    if (m->open_asked) {
        m->open_asked = 0;
        m->stale = 1;       /* listed again when the menu is back on top */
        return tui_ask_for(ACT_OPEN_LESSON, m->cat.entries[m->sel].path);
    }
    switch (asked) {
    case ACT_QUIT:
    case ACT_COST:
    case ACT_MODELS:
        return tui_ask(asked);
    case ACT_HELP:
        return tui_help_open(&(HelpWant){ .where = KEYS_MENU });
    case ACT_RELOAD:
        clearok(curscr, TRUE);  /* Ctrl-L: repaint the whole terminal too */
        menu_reload(m);
        tui_message(term, 0, "%d lesson%s in %s", m->cat.n, m->cat.n == 1 ? "" : "s", m->dir);
        return tui_ask(ACT_NONE);
    default:
        return tui_ask(ACT_NONE);
    }
}

static TuiAction menu_key_of(TuiTerm *term, MenuView *m, int ch)
{
    term->message[0] = '\0';
    TuiAction a = tui_key_action(ch, KEYS_MENU);
    if (a == ACT_OPEN_NUMBER && term->layout_ok) {
        menu_number(term, m, ch - '0');
        return ACT_NONE;
    }
    m->typed = 0;
    if (tui_action_shared(a))
        return a;
    if (!term->layout_ok)
        return ACT_NONE;
    if (ch == KEY_MOUSE) {
        MEVENT ev;
        if (getmouse(&ev) == OK && (ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
            menu_click(term, m, ev.y);
        return ACT_NONE;
    }
    menu_action(term, m, a);
    return ACT_NONE;
}

static void menu_frame(TuiTerm *term, MenuView *m)
{
    menu_draw(term, m);
    tui_keybar_draw(term, &(KeyBarWant){ .where = KEYS_MENU });
}

/* The screen object (self: a MenuView). */
static TuiAsk menu_screen_key(TuiTerm *term, void *self, int ch) { return menu_key(term, self, ch); }
static void menu_screen_draw(TuiTerm *term, void *self) { menu_frame(term, self); }

static void menu_prepare(TuiTerm *term, void *self)
{
    MenuView *m = self;
    if (m->stale)
        menu_list(m);
    tui_prepare_min_size(term, m);
}

static void menu_close(void *self) { menu_free(self); }

const TuiScreen tui_screen_menu = { .name = "menu", .key = menu_screen_key, .prepare = menu_prepare,
                                    .draw = menu_screen_draw, .close = menu_close };
