/*
 * session_progress.h - a session's progress in the store of progress.h
 * (session_progress.c). Included through session.h.
 */
#ifndef ATTN_SESSION_PROGRESS_H
#define ATTN_SESSION_PROGRESS_H

#include "lesson.h"
#include "progress.h"

typedef struct Session Session;

/* ---- progress (progress.h) ---- */
/* Keep this session's progress in the store in dir: what the store has
 * for this lesson is taken in (exercise states, and the screen goes to the
 * step last seen), and every later change of an exercise or the screen is
 * saved at once. 0, or -1 when the store could not be read (see
 * session_progress_warning; the session runs on, starting afresh). */
int session_keep_progress(Session *s, const char *dir);
/* The same in the default store (progress_dir: $ATTN_STATE_DIR, else under
 * $HOME); 1 when there is none to keep to. */
int session_keep_default_progress(Session *s);
/* A screen answers a key before it saves: with on, moving to another
 * screen (session_go) marks the step to be saved instead of saving it, and
 * session_save_pending saves it (the screen calls it once the frame is
 * drawn; any other save, and session_free, take it along). Off saves what
 * is pending. */
void session_defer_step_saves(Session *s, int on);
void session_save_pending(Session *s);
/* The last warning of the progress store ("" when none): the file was
 * damaged and set aside, or progress cannot be kept. */
const char *session_progress_warning(const Session *s);
/* How many saves failed (nothing was written; the old file stays), and how
 * many saves failed or warned: a screen shows the warning whenever this
 * count moves, and attn exits with 1 when any save failed. */
int session_save_failures(const Session *s);
int session_save_notes(const Session *s);
/* The key an exercise is known by in the store (its answer, #2 for a
 * second with the same answer), for exercise idx in lesson order. */
void session_exercise_key(const Lesson *l, int idx, char *buf, size_t size);
/* A lesson's progress as the menu and `attn progress` show it: its
 * exercises, how many rec (NULL: none kept) has right, and how many
 * answered (right, or the worked answer revealed). */
void session_lesson_progress(const Lesson *l, const ProgressLesson *rec, int *solved, int *answered, int *total);

#endif
