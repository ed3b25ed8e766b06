/*
 * progress_lines.c - the store's lines (progress_lines.h): one line read
 * into the records, all records written as lines. The file around them
 * (locks, atomic writes, damaged lines set aside) is progress.c's.
 */
#include "progress_lines.h"

#include "lesson.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const status_words[] = { "unanswered", "tried", "revealed", "right" };
static const char *const hunt_words[] = { "looking", "matrix", "revealed", "found" };
#define N_HUNT_WORDS ((int)(sizeof hunt_words / sizeof *hunt_words))
_Static_assert(N_HUNT_WORDS == PROGRESS_BUG_FOUND + 1, "a word for every status of a hunt");

const char *progress_bug_word(int status) { return hunt_words[status >= 0 && status < N_HUNT_WORDS ? status : 0]; }

/* Unescape field f (\t \n \\) into out; -1 when it does not fit or has a
 * bad escape. */
static int unescape(const char *f, char *out, size_t size)
{
    size_t o = 0;
    for (; *f; f++) {
        char c = *f;
        if (c == '\\') {
            f++;
            c = *f == 't' ? '\t' : *f == 'n' ? '\n' : *f == '\\' ? '\\' : 0;
            if (!c)
                return -1;
        }
        if (o + 1 >= size)
            return -1;
        out[o++] = c;
    }
    out[o] = '\0';
    return 0;
}

/* Split line into at most max tab-separated fields (in place). */
static int split(char *line, char **f, int max)
{
    int n = 0;
    for (char *p = line; n < max;) {
        f[n++] = p;
        char *t = strchr(p, '\t');
        if (!t)
            break;
        *t = '\0';
        p = t + 1;
    }
    return n;
}

ProgressLesson *progress_lesson_rec(ProgressLesson **recs, int *n, const char *lesson)
{
    for (int i = 0; i < *n; i++)
        if (strcmp((*recs)[i].lesson, lesson) == 0)
            return &(*recs)[i];
    ProgressLesson *bigger = realloc(*recs, (size_t)(*n + 1) * sizeof **recs);
    if (!bigger)
        return NULL;
    *recs = bigger;
    ProgressLesson *r = &bigger[(*n)++];
    memset(r, 0, sizeof *r);
    snprintf(r->lesson, sizeof r->lesson, "%s", lesson);
    return r;
}

/* The record of an exercise by key and question ("" for a record an older
 * attn wrote: it takes the question it is matched with). */
ProgressExercise *progress_exercise_rec(ProgressLesson *r, const char *key, const char *question)
{
    /* a lesson has at most LESSON_MAX_EXERCISES: a store with more records
     * of one lesson is refused line by line, so loading it stays bounded
     * (100,000 E lines of one lesson once took 43 s, and a verdict 48) */
    for (int i = 0; i < r->n_ex; i++)
        if (strcmp(r->ex[i].key, key) == 0
            && (!r->ex[i].question[0] || !question[0] || strcmp(r->ex[i].question, question) == 0)) {
            if (!r->ex[i].question[0])
                snprintf(r->ex[i].question, sizeof r->ex[i].question, "%s", question);
            return &r->ex[i];
        }
    if (r->n_ex >= LESSON_MAX_EXERCISES)
        return NULL;
    /* grown by doubling: the count is a power of two or not yet one */
    if ((r->n_ex & (r->n_ex - 1)) == 0) {
        ProgressExercise *bigger = realloc(r->ex, (size_t)(r->n_ex ? 2 * r->n_ex : 1) * sizeof *bigger);
        if (!bigger)
            return NULL;
        r->ex = bigger;
    }
    ProgressExercise *e = &r->ex[r->n_ex++];
    memset(e, 0, sizeof *e);
    snprintf(e->key, sizeof e->key, "%s", key);
    snprintf(e->question, sizeof e->question, "%s", question);
    return e;
}

ProgressBug *progress_bug_rec(ProgressLesson *r, unsigned seed)
{
    for (int i = 0; i < r->n_bugs; i++)
        if (r->bugs[i].seed == seed)
            return &r->bugs[i];
    ProgressBug *bigger = realloc(r->bugs, (size_t)(r->n_bugs + 1) * sizeof *bigger);
    if (!bigger)
        return NULL;
    r->bugs = bigger;
    ProgressBug *b = &bigger[r->n_bugs++];
    memset(b, 0, sizeof *b);
    b->seed = seed;
    return b;
}

/* B LESSON SEED STATUS MATRIX_TRIES KIND_TRIES KIND MATRIX WHEN */
static int parse_bug(char **f, ProgressLesson **recs, int *n)
{
    char a[PROGRESS_KEY_MAX], kind[32], matrix[64], *e1, *e2, *e3, *e4;
    int st = -1;
    for (int i = 0; i < N_HUNT_WORDS; i++)
        if (strcmp(f[3], hunt_words[i]) == 0)
            st = i;
    unsigned long seed = strtoul(f[2], &e1, 10);
    long mt = strtol(f[4], &e2, 10), kt = strtol(f[5], &e3, 10);
    long long when = strtoll(f[8], &e4, 10);
    if (st < 0 || !f[2][0] || *e1 || *e2 || *e3 || *e4 || f[2][0] == '-' || seed > 0xffffffffUL || mt < 0
        || kt < 0 || mt > PROGRESS_COUNT_MAX || kt > PROGRESS_COUNT_MAX || when < 0 || unescape(f[1], a, sizeof a)
        || unescape(f[6], kind, sizeof kind) || unescape(f[7], matrix, sizeof matrix))
        return -1;
    ProgressLesson *r = progress_lesson_rec(recs, n, a);
    ProgressBug *b = r ? progress_bug_rec(r, (unsigned)seed) : NULL;
    if (!b)
        return -1;
    b->status = st;
    b->matrix_tries = (int)mt;
    b->kind_tries = (int)kt;
    b->when = when;
    snprintf(b->kind, sizeof b->kind, "%s", kind);
    snprintf(b->matrix, sizeof b->matrix, "%s", matrix);
    return 0;
}

/* Parse one line into recs. 0, or -1 when it is not a line of the store. */
int progress_parse_line(char *line, ProgressLesson **recs, int *n)
{
    char *f[10], a[PROGRESS_KEY_MAX], b[PROGRESS_KEY_MAX];
    int k = split(line, f, 10);
    if ((k == 4 || k == 5) && strcmp(f[0], "L") == 0) {
        char *end, *e2 = "";
        long fin = strtol(f[3], &end, 10), step = k == 5 ? strtol(f[4], &e2, 10) : -1;
        if (*end || *e2 || (fin != 0 && fin != 1) || step < -1 || step > INT_MAX || unescape(f[1], a, sizeof a)
            || unescape(f[2], b, sizeof b))
            return -1;
        ProgressLesson *r = progress_lesson_rec(recs, n, a);
        if (!r)
            return -1;
        snprintf(r->last_step, sizeof r->last_step, "%s", b);
        r->finished = (int)fin;
        r->step_number = (int)step;
        return 0;
    }
    if (k == 9 && strcmp(f[0], "B") == 0)
        return parse_bug(f, recs, n);
    char q[PROGRESS_KEY_MAX];
    if (k == 9 && strcmp(f[0], "H") == 0) {
        ProgressAnswer h;
        memset(&h, 0, sizeof h);
        char *end;
        h.when = strtoll(f[4], &end, 10);
        if (*end || h.when < 0 || unescape(f[1], a, sizeof a) || unescape(f[2], b, sizeof b)
            || unescape(f[3], q, sizeof q) || unescape(f[5], h.verdict, sizeof h.verdict)
            || unescape(f[6], h.diagnosis, sizeof h.diagnosis) || unescape(f[7], h.typed, sizeof h.typed)
            || unescape(f[8], h.msg, sizeof h.msg))
            return -1;
        ProgressLesson *r = progress_lesson_rec(recs, n, a);
        ProgressExercise *e = r ? progress_exercise_rec(r, b, q) : NULL;
        if (!e)
            return -1;
        if (e->n_hist == PROGRESS_HISTORY_MAX) {
            memmove(e->hist, e->hist + 1, (PROGRESS_HISTORY_MAX - 1) * sizeof *e->hist);
            e->n_hist--;
        }
        e->hist[e->n_hist++] = h;
        return 0;
    }
    if ((k == 6 || k == 8) && strcmp(f[0], "E") == 0) {
        /* version 1: E LESSON KEY STATUS ATTEMPTS HINTS; 2 adds the
         * question after the key and FIRST at the end */
        char **v = k == 8 ? f + 1 : f;
        int st = -1;
        for (int i = 0; i < 4; i++)
            if (strcmp(v[3], status_words[i]) == 0)
                st = i;
        char *e1, *e2, *e3 = "";
        long att = strtol(v[4], &e1, 10), hints = strtol(v[5], &e2, 10), first = k == 8 ? strtol(v[6], &e3, 10) : 0;
        /* counts up to the store's ceiling, which counting never passes */
        if (st < 0 || *e1 || *e2 || *e3 || att < 0 || hints < 0 || att > PROGRESS_COUNT_MAX
            || hints > PROGRESS_COUNT_MAX
            || (first != 0 && first != 1) || unescape(f[1], a, sizeof a) || unescape(f[2], b, sizeof b)
            || (k == 8 ? unescape(f[3], q, sizeof q) : (q[0] = '\0', 0)))
            return -1;
        ProgressLesson *r = progress_lesson_rec(recs, n, a);
        ProgressExercise *e = r ? progress_exercise_rec(r, b, q) : NULL;
        if (!e)
            return -1;
        e->status = (ProgressStatus)st;
        e->attempts = (int)att;
        e->hints = (int)hints;
        e->first_try = (int)first;
        return 0;
    }
    return -1;
}

static void put_escaped(FILE *f, const char *s)
{
    for (; *s; s++)
        if (*s == '\t')
            fputs("\\t", f);
        else if (*s == '\n')
            fputs("\\n", f);
        else if (*s == '\\')
            fputs("\\\\", f);
        else
            fputc(*s, f);
}

/* "KIND <tab> LESSON <tab> KEY <tab> QUESTION": how an E line and each of
 * its H lines begin. */
static void put_exercise_fields(FILE *f, char kind, const char *lesson, const ProgressExercise *e)
{
    fprintf(f, "%c\t", kind);
    put_escaped(f, lesson);
    fputc('\t', f);
    put_escaped(f, e->key);
    fputc('\t', f);
    put_escaped(f, e->question);
}

void progress_write_lines(FILE *f, const ProgressLesson *recs, int n)
{
    fprintf(f, "%s %d\n", PROGRESS_MAGIC, PROGRESS_VERSION);
    for (int i = 0; i < n; i++) {
        fputs("L\t", f);
        put_escaped(f, recs[i].lesson);
        fputc('\t', f);
        put_escaped(f, recs[i].last_step);
        fprintf(f, "\t%d\t%d\n", recs[i].finished ? 1 : 0, recs[i].step_number);
        for (int k = 0; k < recs[i].n_ex; k++) {
            const ProgressExercise *e = &recs[i].ex[k];
            put_exercise_fields(f, 'E', recs[i].lesson, e);
            fprintf(f, "\t%s\t%d\t%d\t%d\n", status_words[e->status], e->attempts, e->hints, e->first_try ? 1 : 0);
            for (int h = 0; h < e->n_hist; h++) {
                const ProgressAnswer *a = &e->hist[h];
                put_exercise_fields(f, 'H', recs[i].lesson, e);
                fprintf(f, "\t%lld\t", a->when);
                put_escaped(f, a->verdict);
                fputc('\t', f);
                put_escaped(f, a->diagnosis);
                fputc('\t', f);
                put_escaped(f, a->typed);
                fputc('\t', f);
                put_escaped(f, a->msg);
                fputc('\n', f);
            }
        }
        for (int k = 0; k < recs[i].n_bugs; k++) {
            const ProgressBug *b = &recs[i].bugs[k];
            fputs("B\t", f);
            put_escaped(f, recs[i].lesson);
            fprintf(f, "\t%u\t%s\t%d\t%d\t", b->seed, progress_bug_word(b->status),
                    b->matrix_tries, b->kind_tries);
            put_escaped(f, b->kind);
            fputc('\t', f);
            put_escaped(f, b->matrix);
            fprintf(f, "\t%lld\n", b->when);
        }
    }
}
