/*
 * tui.h - the terminal screen: the lesson menu and the lesson screen.
 */
#ifndef ATTN_TUI_H
#define ATTN_TUI_H

/* Open the menu of the default lesson set (file == NULL) or one lesson.
 * no_color forces monochrome (NO_COLOR in the environment does too).
 * Returns the exit status: 0, or 2 when the lesson could not be loaded
 * (the error printed after the terminal is restored). */
int tui_main(const char *file, int no_color);

#endif
