/*
 * tui_menu.h - the menu screen's own state (the catalogue of a folder, the
 * one selected) and its life (tui_menu.c).
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
} MenuView;

/* tui_menu.c */
void menu_load(MenuView *m, const char *dir);
/* List the menu's directory again (lessons added, removed or changed),
 * keeping the selected lesson selected when it is still there. */
void menu_reload(MenuView *m);
void menu_free(MenuView *m);

/* The screen object (self: the MenuView). */
struct TuiScreen;
extern const struct TuiScreen tui_screen_menu;

#endif
