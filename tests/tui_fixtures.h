/*
 * tui_fixtures.h - lessons and files for the screen tests (tui_fixtures.c).
 */
#ifndef ATTN_TEST_TUI_FIXTURES_H
#define ATTN_TEST_TUI_FIXTURES_H

#include "lesson.h"
#include "tmux.h"

/* A small lesson with known numbers: set-up, a product, a softmax with a
 * fully masked row, an exercise with hints. */
extern const char *small_lesson;
/* A fresh temporary copy of small_lesson; the path is valid until the next call. */
const char *small_lesson_path(void);
/* Start attn on a fresh copy of the small lesson at cols x rows (env as
 * for tmux_start) and wait for its set-up screen; returns its path. */
const char *open_small_lesson(Tmux *t, int cols, int rows, const char *env);

/* The shipped lessons, loaded. */
typedef struct {
    char **paths;
    Lesson **lessons;
    int n;
} Shipped;

Shipped shipped_load(void);
void shipped_free(Shipped *s);
/* Screens of a lesson: its steps, and the set-up screen when it has one. */
int n_screens(const Lesson *l);
/* What the title bar says of screen k (1-based): "Set-up", or "step i/N"
 * numbered as the handout numbers steps. Returns buf. */
const char *screen_label(const Lesson *l, int k, char *buf, size_t size);
/* Step through one lesson from its first screen to its end. */
void step_through(Tmux *t, const Lesson *l);
/* The lesson among the shipped ones whose file name contains part. */
int find_lesson(const Shipped *s, const char *part);
/* The screen (1-based) of the first step showing name, or 0. */
int screen_showing(const Lesson *l, const char *name);
/* Open lesson l at 250x70 on the given screen. */
void open_at_screen(Tmux *t, const char *path, const Lesson *l, int screen);

/* small_lesson with the first `from` replaced by `to` (malloc'd); *line
 * gets the 1-based line of the replacement. */
char *small_lesson_with(const char *from, const char *to, int *line);
/* Save text over path as an editor that writes in place does / that
 * renames a new file over it. */
void save_in_place(const char *path, const char *text);
void save_by_rename(const char *path, const char *text);

#endif
