/*
 * progress.c - the progress store (see progress.h): a versioned text file,
 * one line per lesson and per exercise, fields separated by tabs (tabs,
 * newlines and backslashes in titles escaped), replaced atomically under a
 * lock on every save.
 *
 *   attn-progress 2
 *   L <tab> LESSON <tab> LAST STEP <tab> FINISHED <tab> STEP NUMBER
 *   E <tab> LESSON <tab> EXERCISE <tab> QUESTION <tab> STATUS <tab> ATTEMPTS <tab> HINTS <tab> FIRST
 *   H <tab> LESSON <tab> EXERCISE <tab> QUESTION <tab> WHEN <tab> VERDICT <tab> DIAGNOSIS <tab> TYPED
 *     <tab> MESSAGE
 *
 * An exercise is known by its key (its answer, #2 for a second with the
 * same answer) and its question. Version 1 (no STEP NUMBER, no QUESTION, no
 * FIRST, no H lines) is read as well. H lines of one exercise come oldest
 * first, after its E line.
 */
#include "progress.h"
#include "filewrite.h"
#include "progress_file.h"
#include "progress_lines.h"
#include "strbuf.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PROGRESS_MAX_LINE 8192
#define PROGRESS_LOCK_TRIES 30   /* 10 ms each */
#define PROGRESS_MAX_BYTES (16L << 20)


const char *progress_dir(char *buf, size_t size)
{
    const char *v = getenv("ATTN_STATE_DIR");
    if (v && *v) {
        snprintf(buf, size, "%s", v);
        return buf;
    }
    v = getenv("XDG_STATE_HOME");
    if (v && *v) {
        snprintf(buf, size, "%s/attn", v);
        return buf;
    }
    v = getenv("HOME");
    if (v && *v) {
        snprintf(buf, size, "%s/.local/state/attn", v);
        return buf;
    }
    return NULL;
}

void progress_free(ProgressLesson *recs, int n)
{
    for (int i = 0; recs && i < n; i++) {
        free(recs[i].ex);
        free(recs[i].bugs);
    }
    free(recs);
}

int progress_same_key(const char *stored, const char *name)
{
    /* a name longer than a key is stored cut to PROGRESS_KEY_MAX - 1 bytes:
     * compared as it was stored, so a long title still finds its record */
    char cut[PROGRESS_KEY_MAX];
    snprintf(cut, sizeof cut, "%s", name);
    return strcmp(stored, cut) == 0;
}

/* The answer a key is made of: the key without a #N suffix. */
static size_t answer_len(const char *key)
{
    size_t n = strlen(key), d = n;
    while (d > 0 && key[d - 1] >= '0' && key[d - 1] <= '9')
        d--;
    return d > 0 && d < n && key[d - 1] == '#' ? d - 1 : n;
}

const ProgressExercise *progress_find_exercise(const ProgressLesson *rec, const char *key, const char *question)
{
    char q[PROGRESS_KEY_MAX];
    snprintf(q, sizeof q, "%s", question);
    size_t al = answer_len(key);
    /* the same exercise; then the same one renumbered (#2 became #1 when
     * an exercise with its answer was removed); then an older attn's
     * record, which knows no question. Never another exercise's record. */
    for (int pass = 0; rec && pass < 3; pass++)
        for (int i = 0; i < rec->n_ex; i++) {
            const ProgressExercise *e = &rec->ex[i];
            int same_key = progress_same_key(e->key, key);
            int same_q = e->question[0] && strcmp(e->question, q) == 0;
            if ((pass == 0 && same_key && same_q)
                || (pass == 1 && same_q && answer_len(e->key) == al && strncmp(e->key, key, al) == 0)
                || (pass == 2 && same_key && !e->question[0]))
                return e;
        }
    return NULL;
}

const ProgressBug *progress_find_bug(const ProgressLesson *rec, unsigned seed)
{
    for (int i = 0; rec && i < rec->n_bugs; i++)
        if (rec->bugs[i].seed == seed)
            return &rec->bugs[i];
    return NULL;
}

const ProgressLesson *progress_find(const ProgressLesson *recs, int n, const char *lesson)
{
    for (int i = 0; i < n; i++)
        if (progress_same_key(recs[i].lesson, lesson))
            return &recs[i];
    return NULL;
}

/* ---- reading ---- */
/* Read the store at path. A bad header, or one from a newer attn, sets the
 * whole file aside; a bad line is skipped alone, and when lines_aside (the
 * writer, under the lock) kept in a file of its own. */
static int read_store(const char *path, ProgressLesson **out, int *n, char *warn, size_t size, int lines_aside)
{
    *out = NULL;
    *n = 0;
    FILE *f = progress_open_regular(path);
    if (!f) {
        if (errno == ENOENT)
            return 0;
        snprintf(warn, size, "attn: progress is not kept: cannot read %s: %s", path,
                 errno == EINVAL ? "it is not a regular file" : strerror(errno));
        return -1;
    }
    char line[PROGRESS_MAX_LINE];
    int lineno = 0, bad = 0, newer = 0, rejected = 0;
    StrBuf rej = { 0 };         /* the records set aside, a line each */
    long total = 0;
    while (fgets(line, sizeof line, f)) {
        size_t len = strlen(line);
        total += (long)len;
        if (total > PROGRESS_MAX_BYTES) {
            bad = 1;
            break;
        }
        int whole = len > 0 && line[len - 1] == '\n';
        if (!whole && len == sizeof line - 1) {
            /* a line too long for any record: skip the rest of it */
            int c;
            while ((c = fgetc(f)) != EOF && c != '\n')
                total++;
        }
        if (whole)
            line[len - 1] = '\0';
        if (lineno++ == 0) {
            int version;
            char magic[32];
            if (!whole || sscanf(line, "%31s %d", magic, &version) != 2 || strcmp(magic, PROGRESS_MAGIC) != 0
                || version < 1)
                bad = 1;
            else if (version > PROGRESS_VERSION)
                newer = 1;
            if (bad || newer)
                break;
            continue;
        }
        char copy[PROGRESS_MAX_LINE];
        snprintf(copy, sizeof copy, "%s", line);
        if (whole && progress_parse_line(line, out, n) == 0)
            continue;
        /* one bad record: kept aside alone, the others stand */
        rejected++;
        strbuf_add(&rej, "%s\n", copy);
    }
    if (lineno == 0 && !bad && !newer)
        bad = 1;                /* empty: not even a header */
    fclose(f);
    if (bad || newer) {
        strbuf_free(&rej);
        progress_free(*out, *n);
        *out = NULL;
        *n = 0;
        progress_set_aside(path, newer ? "was written by a newer attn" : "is damaged", newer ? "newer" : "damaged", warn,
                  size);
        return -1;
    }
    if (rejected && lines_aside && rej.s && !rej.failed)
        progress_set_aside_lines(path, rej.s, rej.len, rejected, warn, size);
    else if (rejected)
        snprintf(warn, size, "attn: %d line%s of %s could not be read; the rest of your progress is kept", rejected,
                 rejected == 1 ? "" : "s", path);
    strbuf_free(&rej);
    return 0;
}

int progress_load(const char *dir, ProgressLesson **out, int *n, char *warn, size_t size)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/progress", dir);
    warn[0] = '\0';
    return read_store(path, out, n, warn, size, 0);
}

/* ---- writing ---- */
/* Write recs to path whole, through filewrite_replace_as (a temporary
 * file of attn's own, renamed over it); durable: synced before the rename
 * and the folder after, so it outlives a crash of the machine too (a
 * killed process never leaves half a file either way). */
static int write_store(const char *path, const ProgressLesson *recs, int n, int durable, char *warn, size_t size)
{
    /* a store made read-only is a person's choice: not replaced */
    struct stat old;
    if (stat(path, &old) == 0 && !(old.st_mode & S_IWUSR)) {
        snprintf(warn, size, "attn: progress is not saved: %s is read-only", path);
        return -1;
    }
    char *text = NULL, why[600];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        snprintf(warn, size, "attn: progress is not kept: out of memory");
        return -1;
    }
    progress_write_lines(f, recs, n);
    int ok = fclose(f) == 0;
    if (!ok || filewrite_replace_as(path, text, len, 0600, durable, why, sizeof why) != 0) {
        snprintf(warn, size, "attn: progress is not kept: %s: %s", path, ok ? why : "out of memory");
        free(text);
        return -1;
    }
    free(text);
    return 0;
}

/* Run change on the store in dir under its lock: read, change, write. */
static int with_store(const char *dir, int (*change)(ProgressLesson **, int *, const void *), const void *arg,
                      int durable, char *warn, size_t size)
{
    warn[0] = '\0';
    if (filewrite_dirs(dir) != 0) {
        snprintf(warn, size, "attn: progress is not kept: cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    char path[1100], lock[1100];
    snprintf(path, sizeof path, "%s/progress", dir);
    snprintf(lock, sizeof lock, "%s/progress.lock", dir);
    int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0600);
    int locked = 0;
    /* another attn saving takes milliseconds; one that holds the lock for
     * longer must not freeze this one's screen: a moment, then a warning */
    for (int tries = 0; fd >= 0 && !locked && tries < PROGRESS_LOCK_TRIES; tries++) {
        locked = flock(fd, LOCK_EX | LOCK_NB) == 0;
        if (!locked && errno != EWOULDBLOCK && errno != EINTR)
            break;
        if (!locked)
            usleep(10000);
    }
    if (!locked) {
        snprintf(warn, size, "attn: progress is not saved: %s %s", lock,
                 fd >= 0 && errno == EWOULDBLOCK ? "is held by another attn" : strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    ProgressLesson *recs;
    int n;
    char read_warn[1400] = "";
    read_store(path, &recs, &n, read_warn, sizeof read_warn, 1);   /* a bad file was set aside: start afresh */
    int rc = change(&recs, &n, arg);
    if (rc == 0)
        rc = write_store(path, recs, n, durable, warn, size);
    if (read_warn[0] && rc == 0)
        snprintf(warn, size, "%s", read_warn);
    progress_free(recs, n);
    flock(fd, LOCK_UN);
    close(fd);
    return rc;
}

static int same_answer(const ProgressAnswer *a, const ProgressAnswer *b)
{
    return a->when == b->when && strcmp(a->typed, b->typed) == 0 && strcmp(a->verdict, b->verdict) == 0;
}

/* Both histories, oldest first, each answer once, the latest kept. */
static void merge_history(ProgressExercise *into, const ProgressExercise *in)
{
    ProgressAnswer all[2 * PROGRESS_HISTORY_MAX];
    int n = 0, a = 0, b = 0;
    while (a < into->n_hist || b < in->n_hist) {
        const ProgressAnswer *next;
        if (b >= in->n_hist || (a < into->n_hist && into->hist[a].when <= in->hist[b].when))
            next = &into->hist[a++];
        else
            next = &in->hist[b++];
        int dup = 0;
        for (int k = 0; k < n && !dup; k++)
            dup = same_answer(&all[k], next);
        if (!dup)
            all[n++] = *next;
    }
    int skip = n > PROGRESS_HISTORY_MAX ? n - PROGRESS_HISTORY_MAX : 0;
    memcpy(into->hist, all + skip, (size_t)(n - skip) * sizeof *all);
    into->n_hist = n - skip;
}

static int merge(ProgressLesson **recs, int *n, const void *arg)
{
    const ProgressLesson *in = arg;
    ProgressLesson *r = progress_lesson_rec(recs, n, in->lesson);
    if (!r)
        return -1;
    if (in->step_number != PROGRESS_STEP_KEPT) {
        snprintf(r->last_step, sizeof r->last_step, "%s", in->last_step);
        r->step_number = in->step_number;
    }
    r->finished |= in->finished;
    for (int i = 0; i < in->n_bugs; i++) {
        const ProgressBug *b = &in->bugs[i];
        ProgressBug *mine = progress_bug_rec(r, b->seed);
        if (!mine)
            return -1;
        if (strcmp(mine->kind, b->kind) != 0 || strcmp(mine->matrix, b->matrix) != 0) {
            *mine = *b;     /* the seed gives another bug now: this one */
            continue;
        }
        /* the better of the two, as for exercises */
        if (b->status > mine->status)
            mine->status = b->status;
        if (b->matrix_tries > mine->matrix_tries)
            mine->matrix_tries = b->matrix_tries;
        if (b->kind_tries > mine->kind_tries)
            mine->kind_tries = b->kind_tries;
        if (b->when > mine->when)
            mine->when = b->when;
    }
    for (int i = 0; i < in->n_ex; i++) {
        ProgressExercise *e = progress_exercise_rec(r, in->ex[i].key, in->ex[i].question);
        if (!e)
            return -1;
        /* the better of the two: another attn may have saved since */
        if (in->ex[i].status > e->status)
            e->status = in->ex[i].status;
        if (in->ex[i].attempts > e->attempts)
            e->attempts = in->ex[i].attempts;
        if (in->ex[i].hints > e->hints)
            e->hints = in->ex[i].hints;
        e->first_try |= in->ex[i].first_try;
        merge_history(e, &in->ex[i]);
    }
    return 0;
}

int progress_save(const char *dir, const ProgressLesson *rec, int durable, char *warn, size_t size)
{
    return with_store(dir, merge, rec, durable, warn, size);
}

static int forget(ProgressLesson **recs, int *n, const void *arg)
{
    const char *lesson = arg;
    int kept = 0;
    for (int i = 0; i < *n; i++) {
        if (!lesson || strcmp((*recs)[i].lesson, lesson) == 0)
            free((*recs)[i].ex);
        else
            (*recs)[kept++] = (*recs)[i];
    }
    *n = kept;
    return 0;
}

int progress_reset(const char *dir, const char *lesson, char *warn, size_t size)
{
    return with_store(dir, forget, lesson, 1, warn, size);
}
