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
#include "lessonfile.h"
#include "progress.h"
#include "tui_put.h"
#include "tui_screen.h"
#include "tui_state.h"

#include "minmax.h"

static char *dup_str(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (!d)
        tui_fatal("out of memory");
    memcpy(d, s, n);
    return d;
}

void menu_load(Tui *t, const char *dir)
{
    menu_free(t);
    snprintf(t->menu_dir, sizeof t->menu_dir, "%s", dir ? dir : "");
    char **paths = dir ? lessonfile_list(dir) : NULL;
    if (!paths)
        return;
    int n = 0;
    while (paths[n])
        n++;
    t->items = calloc((size_t)imax(n, 1), sizeof *t->items);
    if (!t->items)
        tui_fatal("out of memory");
    /* what the student has done, lesson by lesson */
    char dirbuf[1024], warn[600];
    const char *state = progress_dir(dirbuf, sizeof dirbuf);
    ProgressLesson *recs = NULL;
    int n_recs = 0;
    if (state)
        progress_load(state, &recs, &n_recs, warn, sizeof warn);
    for (int i = 0; i < n; i++) {
        MenuItem *it = &t->items[i];
        it->path = dup_str(paths[i]);
        LessonError err;
        Lesson *l = lessonfile_load(paths[i], &err);
        if (l) {
            it->title = dup_str(lesson_title(l));
            it->about = dup_str(lesson_about(l));
            it->n_steps = lesson_n_steps(l);
            const ProgressLesson *rec = progress_find(recs, n_recs, lesson_title(l));
            session_lesson_progress(l, rec, &it->solved, &it->n_exercises);
            it->finished = rec && rec->finished;
            lesson_free(l);
        } else {
            char buf[1024];
            lesson_error_format(&err, buf, sizeof buf);
            char *nl = strchr(buf, '\n');
            if (nl)
                *nl = '\0';
            /* the file name is already on the line above the error */
            const char *base = strrchr(buf, '/');
            it->error = dup_str(base ? base + 1 : buf);
        }
    }
    t->n_items = n;
    t->sel = 0;
    lessonfile_list_free(paths);
    progress_free(recs, n_recs);
}

void menu_free(Tui *t)
{
    for (int i = 0; i < t->n_items; i++) {
        free(t->items[i].path);
        free(t->items[i].title);
        free(t->items[i].about);
        free(t->items[i].error);
    }
    free(t->items);
    t->items = NULL;
    t->n_items = 0;
}

void menu_reload(Tui *t)
{
    char dir[sizeof t->menu_dir], selected[4096] = "";
    snprintf(dir, sizeof dir, "%s", t->menu_dir);
    if (t->n_items > 0)
        snprintf(selected, sizeof selected, "%s", t->items[t->sel].path);
    int old_sel = t->sel;
    menu_load(t, dir[0] ? dir : NULL);
    t->sel = imin(old_sel, imax(t->n_items - 1, 0));
    for (int i = 0; i < t->n_items; i++)
        if (strcmp(t->items[i].path, selected) == 0)
            t->sel = i;
}

static void open_selected(Tui *t)
{
    if (t->n_items == 0)
        return;
    MenuItem *it = &t->items[t->sel];
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
    t->mode = MODE_LESSON;
}

static void menu_action(Tui *t, TuiAction a)
{
    switch (a) {
    case ACT_UP:
        t->sel = imax(0, t->sel - 1);
        break;
    case ACT_DOWN:
        t->sel = imin(imax(t->n_items - 1, 0), t->sel + 1);
        break;
    case ACT_FIRST:
        t->sel = 0;
        break;
    case ACT_LAST:
        t->sel = imax(t->n_items - 1, 0);
        break;
    case ACT_SELECT:
        open_selected(t);
        break;
    default:
        break;
    }
}

/* Each lesson takes two rows (title, about) under a two-row heading. */
#define MENU_TOP 3

static int menu_first(const Tui *t)
{
    int fit = imax(1, (t->rows - MENU_TOP - 2) / 2);
    return imax(0, imin(t->sel - fit / 2, t->n_items - fit));
}

static void menu_click(Tui *t, int y)
{
    int k = (y - MENU_TOP) / 2 + menu_first(t);
    if (y >= MENU_TOP && k >= 0 && k < t->n_items)
        t->sel = k;
}

/* 1 when another lesson of the menu has item i's title. */
static int title_shared(const Tui *t, int i)
{
    for (int k = 0; k < t->n_items; k++)
        if (k != i && t->items[k].title && t->items[i].title && strcmp(t->items[k].title, t->items[i].title) == 0)
            return 1;
    return 0;
}

static void menu_draw(Tui *t)
{
    int w = t->cols;
    ui_fill(&t->cv, 0, 0, w, tui_attr(t, C_TITLE));
    ui_put(&t->cv, 0, 1, w - 1, tui_attr(t, C_TITLE), "attn: self-attention, step by step");
    char buf[1200];
    if (t->n_items == 0) {
        snprintf(buf, sizeof buf, t->menu_dir[0] ? "No lessons in %s." : "No lesson directory found%s.",
                 t->menu_dir[0] ? t->menu_dir : "");
        ui_put_fit(&t->cv, 2, 2, w - 4, tui_attr(t, C_ERROR), buf);
        ui_put_fit(&t->cv, 4, 2, w - 4, A_NORMAL, "Set ATTN_LESSONS to a directory of .lesson files, or run attn FILE.lesson.");
        return;
    }
    snprintf(buf, sizeof buf, "%d lesson%s in %s", t->n_items, t->n_items == 1 ? "" : "s", t->menu_dir);
    ui_put_fit(&t->cv, 1, 2, w - 4, tui_attr(t, C_DIM), buf);
    int first = menu_first(t);
    int y = MENU_TOP;
    /* on a wide screen the step counts stay near their titles */
    w = text_measure(w) + 2;
    for (int i = first; i < t->n_items && y + 1 < t->rows - 1; i++, y += 2) {
        const MenuItem *it = &t->items[i];
        int sel = i == t->sel;
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
                     it->finished ? ui_glyph(&t->cv, "✓", "done") : ui_glyph(&t->cv, "·", "-"), it->n_steps);
        else if (!it->error)
            snprintf(steps, sizeof steps, "%s%d steps ", it->finished ? ui_glyph(&t->cv, "✓ ", "done ") : "",
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
    int n = t->typed * 10 + digit;
    if (n < 1 || n > t->n_items) {
        t->typed = 0;
        if (digit >= 1 && digit <= t->n_items)
            n = digit;      /* a fresh start */
        else {
            tui_message(t, 1, "no lesson %d: the menu has %d", n, t->n_items);
            return;
        }
    }
    t->sel = n - 1;
    if (n * 10 > t->n_items) {
        t->typed = 0;
        open_selected(t);
    } else {
        t->typed = n;
        tui_message(t, 0, "lesson %d: another digit, or Enter to open it", n);
    }
}

static void menu_key(Tui *t, int ch)
{
    t->message[0] = '\0';
    TuiAction a = tui_key_action(ch, KEYS_MENU);
    if (a == ACT_OPEN_NUMBER && t->layout_ok) {
        menu_number(t, ch - '0');
        return;
    }
    t->typed = 0;
    if (tui_common_action(t, a) || !t->layout_ok)
        return;
    if (ch == KEY_MOUSE) {
        MEVENT ev;
        if (getmouse(&ev) == OK && (ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
            menu_click(t, ev.y);
        return;
    }
    menu_action(t, a);
}

static void menu_prepare(Tui *t)
{
    t->layout_ok = t->cols >= TUI_MIN_COLS && t->rows >= TUI_MIN_ROWS;
}

static void menu_frame(Tui *t)
{
    menu_draw(t);
    tui_keybar_draw(t, KEYS_MENU);
}

const TuiScreen tui_screen_menu = { "menu", menu_key, menu_prepare, menu_frame, NULL };
