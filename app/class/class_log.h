/*
 * class_log.h - the class's record of answers (`attn --class --log FILE`):
 * one JSON line per answer, appended and flushed before the answer counts,
 *
 *   {"time": 1764070000, "name": "Ada", "lesson": "Sky is blue: ...",
 *    "exercise": 3, "answer": "0.36", "verdict": "wrong",
 *    "diagnosis": "wrong-axis"}
 *
 * ("diagnosis" null when none is named); and the reading of such a file
 * back for `attn class-report`.
 *
 * Ownership: a ClassLog owns its file; class_log_close closes it. The
 * entries class_log_read returns are the caller's (class_log_entries_free).
 */
#ifndef ATTN_CLASS_LOG_H
#define ATTN_CLASS_LOG_H

#include <stddef.h>

typedef struct ClassLog ClassLog;

/* Open path for appending (a regular file, made if missing). NULL with why. */
ClassLog *class_log_open(const char *path, char *why, size_t size);
/* Append one answer and flush it. 0, or -1 with why. */
int class_log_answer(ClassLog *log, const char *name, const char *lesson, int exercise, const char *answer,
                     const char *verdict, const char *diagnosis, char *why, size_t size);
void class_log_close(ClassLog *log);

typedef struct {
    long long time;
    char *name, *lesson, *answer, *verdict, *diagnosis;  /* diagnosis "" when none */
    int exercise;
} ClassLogEntry;

/* The highest exercise number a log line may hold. */
#define CLASS_LOG_EXERCISE_MAX 100000

/* Read the log at path: every whole answer line's entry, in order. A line
 * that is no answer (torn by a full disk, or foreign) is skipped and
 * counted in *skipped, the first named in why ("log.jsonl:7: ..."). 0, or
 * -1 with why when the file cannot be read at all. */
int class_log_read(const char *path, ClassLogEntry **out, int *n, int *skipped, char *why, size_t size);
void class_log_entries_free(ClassLogEntry *e, int n);

#endif
