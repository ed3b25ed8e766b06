/*
 * tui_class.h - class mode on the screen (tui_class.c): the instructor's
 * class or a student's, each a plug-in beside a lesson screen
 * (tui_plugin.h), made by tui_main for that lesson and handed to the loop
 * and the lesson.
 */
#ifndef ATTN_TUI_CLASS_H
#define ATTN_TUI_CLASS_H

#include "tui_plugin.h"

struct ClassServer;
struct ClassClient;
struct ClassPack;

/* The instructor's class beside the lesson screen ls (borrowed: it must
 * live as long as the class): the server, owned from here. NULL on no
 * memory. */
TuiPlugin *tui_class_instructor(struct ClassServer *server, LessonScreen *ls);
/* A student's: the connection and the pack the lesson reads, owned from
 * here. NULL on no memory. */
TuiPlugin *tui_class_student(struct ClassClient *client, struct ClassPack *pack, LessonScreen *ls);
/* End the class (its students told) and free it all: after the lesson
 * that reads the pack is closed. NULL is fine. */
void tui_class_free(TuiPlugin *p);

#endif
