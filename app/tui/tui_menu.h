/*
 * tui_menu.h - the menu screen's own state (the catalogue of a folder, the
 * one selected) and its life (tui_menu.c).
 *
 * Ownership: a MenuView owns its catalogue; the main loop's stack owns the
 * MenuView (tui_screen_menu's close).
 */
#ifndef ATTN_TUI_MENU_H
#define ATTN_TUI_MENU_H

#include "catalogue.h"

typedef struct TuiTerm TuiTerm;

/* The menu: the lessons of a folder and the student's progress in each
 * (app/session/catalogue.h), the one selected, the digits typed. */
typedef struct {
    Catalogue cat;
    int sel;
    int typed;          /* digits typed so far of a lesson's number (0: none) */
    char dir[1024];
    int open_asked;     /* the selected lesson is to open (ACT_OPEN_LESSON) */
    /* the folder is to be listed (again) when the menu is next laid out:
     * when it is made, and after it opened a lesson (lessons added,
     * removed or edited meanwhile, the progress made) */
    int stale;
    int loaded;         /* listed once: a listing again keeps the selection */
    char select[256];   /* the lesson (its file's name) selected at the first
                           listing ("": the first)                         */
} MenuView;

/* tui_menu.c: a menu of the lessons in dir (NULL: none found), the lesson
 * named select (a file's name; NULL: the first) selected; listed when first
 * laid out. NULL on no memory. */
MenuView *menu_new(const char *dir, const char *select);
void menu_free(MenuView *m);

/* The screen object (self: a MenuView of menu_new). */
struct TuiScreen;
extern const struct TuiScreen tui_screen_menu;

#endif
