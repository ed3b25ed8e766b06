/*
 * class_log.c - the class's answers as JSON lines, written and read back
 * (see class_log.h).
 */
#include "class_log.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fileread.h"
#include "filewrite.h"
#include "json_read.h"
#include "json_write.h"

#define LOG_MAX_BYTES (1L << 28)

struct ClassLog {
    int fd;                 /* O_APPEND: every answer goes at the end      */
    char path[1024];
};

ClassLog *class_log_open(const char *path, char *why, size_t size)
{
    /* never wait on a FIFO, never write into a device: a regular file only */
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0644);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, size, "cannot write the class log %s: %s", path,
                 fd < 0 ? strerror(errno) : "it is not a regular file");
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    int flags = fcntl(fd, F_GETFL);
    ClassLog *log = calloc(1, sizeof *log);
    if (!log || flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        snprintf(why, size, "cannot write the class log %s: %s", path, log ? strerror(errno) : "out of memory");
        free(log);
        close(fd);
        return NULL;
    }
    log->fd = fd;
    snprintf(log->path, sizeof log->path, "%s", path);
    return log;
}

int class_log_answer(ClassLog *log, const char *name, const char *lesson, int exercise, const char *answer,
                     const char *verdict, const char *diagnosis, char *why, size_t size)
{
    /* the whole line first, in memory; then one write, and a line the
     * disk took only part of is cut off again: each answer is one whole
     * line or none (a full disk once left half a line, the next answer
     * glued to it, and class-report refused the log) */
    JsonWriter w;
    jw_begin(&w);
    jw_int(&w, "time", (long long)time(NULL));
    jw_str(&w, "name", name);
    jw_str(&w, "lesson", lesson);
    jw_int(&w, "exercise", exercise);
    jw_str(&w, "answer", answer);
    jw_str(&w, "verdict", verdict);
    jw_str(&w, "diagnosis", diagnosis && diagnosis[0] ? diagnosis : NULL);
    jw_end(&w);
    if (w.out.failed) {
        strbuf_free(&w.out);
        snprintf(why, size, "the class log %s could not be written: out of memory; answers are not being recorded",
                 log->path);
        return -1;
    }
    int failed = filewrite_append_whole(log->fd, w.out.s, w.out.len) != 0;
    int err = errno;
    strbuf_free(&w.out);
    if (failed) {
        snprintf(why, size, "the class log %s could not be written: %s; answers are not being recorded", log->path,
                 strerror(err ? err : EIO));
        return -1;
    }
    return 0;
}

void class_log_close(ClassLog *log)
{
    if (!log)
        return;
    close(log->fd);
    free(log);
}

static char *string_of(const JVal *v)
{
    return strdup(v && v->type == J_STR ? v->str : "");
}

int class_log_read(const char *path, ClassLogEntry **out, int *n, int *skipped, char *why, size_t size)
{
    *out = NULL;
    *n = 0;
    *skipped = 0;
    why[0] = '\0';
    char *text, reason[300];
    size_t len;
    if (fileread_text(path, LOG_MAX_BYTES, &text, &len, reason, sizeof reason) != 0) {
        snprintf(why, size, "cannot read the class log %s: %s", path, reason);
        return -1;
    }
    int rc = 0, line = 0, cap = 0;
    char *p = text, *end = text + len;
    while (rc == 0 && p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *eol = nl ? nl : end;
        line++;
        size_t n_line = (size_t)(eol - p);
        char *one = strndup(p, n_line);
        p = nl ? nl + 1 : end;
        if (!one) {
            rc = -1;
            snprintf(why, size, "out of memory");
            break;
        }
        if (strspn(one, " \t\r") == n_line) {
            free(one);
            continue;
        }
        JVal v;
        char err[200];
        const JVal *ex = NULL, *t = NULL;
        int bad = 0;
        if (json_parse(one, &v, err, sizeof err) != 0) {
            bad = 1;
        } else if (v.type != J_OBJ || !(ex = json_get(&v, "exercise")) || ex->type != J_NUM ||
                   !json_get(&v, "name") || !json_get(&v, "verdict") || !(t = json_get(&v, "time"))) {
            bad = 1;
            snprintf(err, sizeof err, "not an answer of a class log (an object with time, name, exercise, answer, "
                                      "verdict)");
        } else if (!(ex->num >= 1 && ex->num <= CLASS_LOG_EXERCISE_MAX && ex->num == floor(ex->num))
                   || (t->type == J_NUM && !(t->num >= 0 && t->num <= 1e15))) {
            /* counts read from a file checked against their type */
            bad = 1;
            snprintf(err, sizeof err, "the exercise must be a whole number from 1 to %d, and the time a date",
                     CLASS_LOG_EXERCISE_MAX);
        }
        if (bad) {
            /* a torn or foreign line is named and skipped: every whole
             * line still counts */
            (*skipped)++;
            if (*skipped == 1)
                snprintf(why, size, "%s:%d: %s", path, line, err);
        } else {
            if (*n == cap) {
                cap = cap ? cap * 2 : 64;
                ClassLogEntry *more = realloc(*out, (size_t)cap * sizeof *more);
                if (!more) {
                    rc = -1;
                    snprintf(why, size, "out of memory");
                }
                else
                    *out = more;
            }
            if (rc == 0) {
                ClassLogEntry *e = &(*out)[(*n)++];
                e->time = t->type == J_NUM ? (long long)t->num : 0;
                e->exercise = (int)ex->num;
                e->name = string_of(json_get(&v, "name"));
                e->lesson = string_of(json_get(&v, "lesson"));
                e->answer = string_of(json_get(&v, "answer"));
                e->verdict = string_of(json_get(&v, "verdict"));
                e->diagnosis = string_of(json_get(&v, "diagnosis"));
                if (!e->name || !e->lesson || !e->answer || !e->verdict || !e->diagnosis) {
                    rc = -1;
                    snprintf(why, size, "out of memory");
                }
            }
        }
        json_free(&v);
        free(one);
    }
    free(text);
    if (rc != 0) {
        class_log_entries_free(*out, *n);
        *out = NULL;
        *n = 0;
    }
    return rc;
}

void class_log_entries_free(ClassLogEntry *e, int n)
{
    for (int i = 0; i < n; i++) {
        free(e[i].name);
        free(e[i].lesson);
        free(e[i].answer);
        free(e[i].verdict);
        free(e[i].diagnosis);
    }
    free(e);
}
