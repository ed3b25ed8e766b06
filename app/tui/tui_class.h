/*
 * tui_class.h - class mode on the screen (tui_class.c): the loop's wait
 * that polls the class beside the keyboard, the step and exercise told to
 * the class after each key (the instructor's) or followed and answered
 * (a student's), the class's keys (S the spread, X close the question; f
 * follow) and its bar.
 */
#ifndef ATTN_TUI_CLASS_H
#define ATTN_TUI_CLASS_H

typedef struct Tui Tui;

/* The most descriptors of a class polled with the keyboard. */
#define CLASS_POLL_MAX 640

/* The next key (ERR after a quiet POLL_MS), the class served meanwhile. */
int tui_class_next_key(Tui *t);
/* Tell the class what the screen shows now; 1 when the open exercise
 * changed (its tally is another: the screen is drawn again). */
int tui_class_sync(Tui *t);
/* The instructor's lesson was reloaded (changed on disk): the class takes
 * it too, and its students are told to join again for it. */
void tui_class_lesson_changed(Tui *t);
/* After a student's key: whether the screen still follows the class, and
 * a new answer to the open exercise sent to it. */
void tui_class_student_after_key(Tui *t);
/* 1 when ch was the class's key. */
int tui_class_key(Tui *t, int ch);
/* The class's keys in words for the help screen (static), NULL out of class. */
const char *tui_class_help(const Tui *t);
void tui_class_draw(Tui *t);

#endif
