/*
 * filestamp.h - a file's stamp (device, inode, size, modification time),
 * to notice that a lesson was saved, replaced or removed: what live reload
 * (session.c) checks on each tick. No curses, no printing.
 */
#ifndef ATTN_FILESTAMP_H
#define ATTN_FILESTAMP_H

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

#endif
