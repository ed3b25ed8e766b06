/*
 * tui_plugin.h - what runs beside a lesson screen in the same loop (class
 * mode: the instructor's server, a student's connection, in tui_class.c),
 * made for that lesson. The main loop polls its descriptors beside the
 * keyboard, hands it what they bring, and after each key tells it to look
 * at what its lesson's last actions changed (the lesson's SessionChange
 * bits); the lesson screen gives it the first look at each key, room for
 * its bar and a line of help. Neither knows what the plug-in is.
 *
 * Ownership: whoever made the plug-in frees it (tui_class_free, after the
 * lesson it runs beside is closed); the loop and the lesson screen only
 * borrow it.
 */
#ifndef ATTN_TUI_PLUGIN_H
#define ATTN_TUI_PLUGIN_H

#include <poll.h>

typedef struct TuiTerm TuiTerm;
typedef struct LessonScreen LessonScreen;

/* The most descriptors a plug-in polls beside the keyboard. */
#define TUI_PLUGIN_POLL_MAX 640

typedef struct TuiPlugin {
    void *self;
    /* The descriptors to poll beside the keyboard (at most max): how many,
     * and in *wait_ms the longest wait (it comes set to the loop's tick). */
    int (*fds)(void *self, struct pollfd *fds, int max, int *wait_ms);
    /* What poll reported on them (n = 0 and fds NULL: before waiting,
     * what was read last time): 1 when the screen is to be drawn again. */
    int (*pump)(void *self, TuiTerm *term, const struct pollfd *fds, int n);
    /* A key on the lesson screen before the screen has it: 1 when it was
     * the plug-in's. */
    int (*key)(void *self, TuiTerm *term, LessonScreen *ls, int ch);
    /* After a key (key 1: told even when its lesson's actions changed
     * nothing the session knows), or a tick (key 0: only when they changed
     * something): what they changed (the lesson's SessionChange bits, taken
     * and cleared). 1 when the screen is to be drawn again. */
    int (*after)(void *self, TuiTerm *term, int key);
    /* Rows of its bar under the lesson's title and bars (0 or 1), and the
     * bar drawn; help in words for the help screen. */
    int (*bar_rows)(void *self);
    void (*draw)(void *self, TuiTerm *term, const LessonScreen *ls);
    const char *(*help)(void *self);
    /* The plug-in ended the session (the class ended with attn): the loop
     * leaves. */
    int quit;
} TuiPlugin;

#endif
