/*
 * tui_reload.h - what live reload needs that is not drawing: a file's
 * stamp (device, inode, size, modification time), to notice that a lesson
 * was saved, replaced or removed; and which of the user's cell edits still
 * apply to a new version of the lesson. No curses, no printing.
 */
#ifndef ATTN_TUI_RELOAD_H
#define ATTN_TUI_RELOAD_H

#include "lesson.h"

/* What stat(2) says about a file, enough to see that it changed. */
typedef struct {
    int exists;             /* 0: the file could not be stat'ed (the rest 0) */
    unsigned long long dev, ino;
    long long size;
    long long mtime_s, mtime_ns;
} FileStamp;

/* The stamp of path now. Never fails: a missing or unreadable file gives
 * a stamp with exists = 0. */
FileStamp file_stamp(const char *path);

/* 1 when a and b describe the same version of a file. */
int file_stamp_same(const FileStamp *a, const FileStamp *b);

/* Keep, in order, the edits that still apply to state s (the new version
 * evaluated without edits): the name is defined, is an input the screen
 * lets one edit (a literal or randn, not a computed matrix), and the cell
 * is inside it. The others are dropped. Works in place on edits[0..n-1];
 * returns how many are kept (they are edits[0..kept-1]). Pure. */
int edits_still_apply(LessonEdit *edits, int n, const LessonState *s);

#endif
