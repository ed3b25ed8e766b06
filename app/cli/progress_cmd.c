/*
 * progress_cmd.c - `attn progress`: a table of the student's progress in
 * every lesson of the default set (exercises right of all, the step last
 * seen, finished or not), from the store of progress.h; and
 * `attn progress --reset [FILE]`, which forgets one lesson's progress or
 * all of it, asking first when a person is at the terminal.
 * `attn progress --json` gives all of it to a program or an instructor:
 * every lesson the store knows (shipped or not), each exercise's state and
 * its answers as they were judged.
 *
 * What the store holds came from a file anyone could have written: every
 * string of it reaches the terminal escaped (lesson_escape).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalogue.h"
#include "cli.h"
#include "format.h"
#include "json_write.h"
#include "lessonfile.h"
#include "progress.h"
#include "session.h"
#include "text.h"

static int usage(const char *what)
{
    fprintf(stderr, "attn: %s\nusage: attn progress [--json | --reset [FILE.lesson]]\n", what);
    return 2;
}

/* Ask on a terminal; without one (a script), go ahead. */
static int confirmed(const char *question)
{
    if (!isatty(STDIN_FILENO))
        return 1;
    fprintf(stderr, "%s [y/N] ", question);
    char line[32];
    return fgets(line, sizeof line, stdin) && (line[0] == 'y' || line[0] == 'Y');
}

static int reset(const char *dir, const char *file)
{
    char title[PROGRESS_KEY_MAX] = "", question[400], warn[600];
    if (file) {
        LessonError err;
        Lesson *l = lessonfile_load(file, &err);
        if (!l) {
            char buf[1024];
            fputs(lesson_error_format(&err, buf, sizeof buf), stderr);
            return 2;
        }
        snprintf(title, sizeof title, "%s", lesson_title(l));
        lesson_free(l);
        snprintf(question, sizeof question, "Forget your progress in \"%s\"?", title);
    } else {
        snprintf(question, sizeof question, "Forget your progress in every lesson?");
    }
    if (!confirmed(question)) {
        printf("nothing was reset\n");
        return 0;
    }
    if (progress_reset(dir, file ? title : NULL, warn, sizeof warn) != 0) {
        fprintf(stderr, "%s\n", warn);
        return 2;
    }
    printf(file ? "progress in \"%s\" reset\n" : "progress in every lesson reset%s\n", title);
    return 0;
}

/* A column of the table, padded to w display columns. */
static void pad(const char *s, int w)
{
    fputs(s, stdout);
    for (int k = fmt_display_width(s); k < w; k++)
        putchar(' ');
}

/* One row of the table for a lesson of the set. */
static void row(const CatalogueEntry *e)
{
    const ProgressLesson *rec = e->rec;
    int total = e->n_exercises, solved = e->solved;
    char title[200], done[32], step[200], safe[PROGRESS_KEY_MAX * 4];
    /* cut at a word, with a mark: "…attention by matrix product" lost its s */
    text_shorten(title, sizeof title, lesson_escape(e->title, safe, sizeof safe), 40, text_locale_utf8());
    snprintf(done, sizeof done, "%d/%d", solved, total);
    text_shorten(step, sizeof step,
                 rec && rec->last_step[0] ? lesson_escape(rec->last_step, safe, sizeof safe) : rec ? "(set-up)" : "-",
                 36, text_locale_utf8());
    pad(title, 40);
    printf("  %-9s  ", done);
    pad(step, 36);
    printf("  %s\n", rec && rec->finished ? "finished" : rec ? "" : "not begun");
}

/* A lesson the store knows that is not in the lesson set: its record. */
static void row_unknown(const ProgressLesson *rec)
{
    int solved = 0;
    for (int k = 0; k < rec->n_ex; k++)
        solved += rec->ex[k].status == PROG_RIGHT;
    char title[200], done[32], step[200], safe[PROGRESS_KEY_MAX * 4];
    text_shorten(title, sizeof title, lesson_escape(rec->lesson, safe, sizeof safe), 40, text_locale_utf8());
    snprintf(done, sizeof done, "%d right", solved);
    text_shorten(step, sizeof step, rec->last_step[0] ? lesson_escape(rec->last_step, safe, sizeof safe) : "(set-up)",
                 36, text_locale_utf8());
    pad(title, 40);
    printf("  %-9s  ", done);
    pad(step, 36);
    printf("  %s\n", rec->finished ? "finished" : "(not in the lesson set)");
}

static const char *const status_json[] = { "unanswered", "tried", "revealed", "right" };

/* A lesson of the set (l), or one the store knows outside it (rec). */
static void json_record(const ProgressLesson *rec, const CatalogueEntry *l)
{
    if (l)
        rec = l->rec;
    fputs("{\"lesson\": ", stdout);
    jw_string(stdout, rec ? rec->lesson : l->title);
    fputs(", \"file\": ", stdout);
    jw_string(stdout, l ? l->path : NULL);
    int solved = l ? l->solved : 0, total = l ? l->n_exercises : 0;
    for (int k = 0; !l && rec && k < rec->n_ex; k++)
        solved += rec->ex[k].status == PROG_RIGHT;
    printf(", \"in_lesson_set\": %s, \"begun\": %s, \"solved\": %d, \"total\": ", l ? "true" : "false",
           rec ? "true" : "false", solved);
    if (l)
        printf("%d", total);
    else
        fputs("null", stdout);
    fputs(", \"last_step\": ", stdout);
    jw_string(stdout, rec ? rec->last_step : NULL);
    printf(", \"finished\": %s, \"exercises\": [", rec && rec->finished ? "true" : "false");
    for (int k = 0; rec && k < rec->n_ex; k++) {
        const ProgressExercise *e = &rec->ex[k];
        fputs(k ? ",\n  {\"key\": " : "\n  {\"key\": ", stdout);
        jw_string(stdout, e->key);
        fputs(", \"question\": ", stdout);
        jw_string(stdout, e->question[0] ? e->question : NULL);
        printf(", \"status\": \"%s\", \"attempts\": %d, \"hints\": %d, \"first_try\": %s, \"answers\": [",
               status_json[e->status], e->attempts, e->hints, e->first_try ? "true" : "false");
        for (int h = 0; h < e->n_hist; h++) {
            const ProgressAnswer *a = &e->hist[h];
            fputs(h ? ", {\"answer\": " : "{\"answer\": ", stdout);
            jw_string(stdout, a->typed);
            fputs(", \"verdict\": ", stdout);
            jw_string(stdout, a->verdict);
            fputs(", \"diagnosis\": ", stdout);
            jw_string(stdout, a->diagnosis[0] ? a->diagnosis : NULL);
            fputs(", \"message\": ", stdout);
            jw_string(stdout, a->msg);
            printf(", \"time\": %lld}", a->when);
        }
        fputs("]}", stdout);
    }
    fputs("]}", stdout);
}

int cli_progress(int argc, char **argv)
{
    int want_reset = 0, json = 0;
    const char *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0 && !want_reset)
            json = 1;
        else if (strcmp(argv[i], "--reset") == 0 && !json)
            want_reset = 1;
        else if (argv[i][0] == '-')
            return usage("unknown option");
        else if (!want_reset || file)
            return usage("progress takes a lesson file only after --reset");
        else
            file = argv[i];
    }
    if (want_reset) {
        char dirbuf[1024];
        const char *dir = progress_dir(dirbuf, sizeof dirbuf);
        if (!dir)
            return usage("no place for progress: set ATTN_STATE_DIR (or HOME)");
        return reset(dir, file);
    }
    Catalogue cat;
    if (catalogue_load(&cat, lessonfile_default_dir()) != 0) {
        fprintf(stderr, "attn: out of memory\n");
        return 2;
    }
    if (!cat.store[0]) {
        catalogue_free(&cat);
        return usage("no place for progress: set ATTN_STATE_DIR (or HOME)");
    }
    if (cat.warn[0])
        fprintf(stderr, "%s\n", cat.warn);
    char safe[4200];
    if (json) {
        fputs("{\"store\": ", stdout);
        char where[1100];
        snprintf(where, sizeof where, "%s/progress", cat.store);
        jw_string(stdout, where);
        fputs(", \"lessons\": [", stdout);
    } else {
        printf("Progress kept in %s/progress\n\n", lesson_escape(cat.store, safe, sizeof safe));
        printf("%-40s  %-9s  %-36s  %s\n", "lesson", "exercises", "last step", "");
    }
    int first = 1;
    for (int i = 0; i < cat.n; i++) {
        const CatalogueEntry *e = &cat.entries[i];
        if (!e->title)
            continue;
        if (json) {
            fputs(first ? "\n" : ",\n", stdout);
            json_record(NULL, e);
        } else {
            row(e);
        }
        first = 0;
    }
    /* what the store keeps of lessons outside the set (a course's own) */
    for (int i = 0; i < cat.n_recs; i++) {
        if (cat.in_set[i])
            continue;
        if (json) {
            fputs(first ? "\n" : ",\n", stdout);
            json_record(&cat.recs[i], NULL);
        } else {
            row_unknown(&cat.recs[i]);
        }
        first = 0;
    }
    if (json)
        fputs("\n]}\n", stdout);
    catalogue_free(&cat);
    if (fflush(stdout) != 0)
        return 2;
    return 0;
}
