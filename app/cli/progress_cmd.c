/*
 * progress_cmd.c - `attn progress`: a table of the student's progress in
 * every lesson of the default set (exercises right of all, the step last
 * seen, finished or not), from the store of progress.h; and
 * `attn progress --reset [FILE]`, which forgets one lesson's progress or
 * all of it, asking first when a person is at the terminal.
 * `attn progress --json` gives all of it to a program or an instructor:
 * every lesson the store knows (shipped or not), each exercise's state and
 * its answers as they were judged. Where the folder has a course (COURSE,
 * app/session/course.h) the lessons come in its parts, each with how much
 * of it is done, and the whole course's completion closes the table.
 *
 * What the store holds came from a file anyone could have written: every
 * string of it reaches the terminal escaped (term_escape).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalogue.h"
#include "cli.h"
#include "escape.h"
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
            fputs(term_lesson_error(&err, buf, sizeof buf), stderr);
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

/* "bugs found 1/2" when rec hunted bugs (attn bug), else "". */
static const char *bugs_note(const ProgressLesson *rec, char *buf, size_t size)
{
    int found = 0;
    for (int k = 0; rec && k < rec->n_bugs; k++)
        found += rec->bugs[k].status == PROGRESS_BUG_FOUND;
    if (!rec || rec->n_bugs == 0)
        buf[0] = '\0';
    else
        snprintf(buf, size, "bugs found %d/%d", found, rec->n_bugs);
    return buf;
}

/* One row of the table for a lesson of the set. */
static void row(const CatalogueEntry *e)
{
    const ProgressLesson *rec = e->rec;
    int total = e->n_exercises, solved = e->solved;
    char title[200], done[32], step[200], safe[PROGRESS_KEY_MAX * 4];
    /* cut at a word, with a mark: "…attention by matrix product" lost its s */
    text_shorten(title, sizeof title, term_escape(e->title, safe, sizeof safe), 40, text_locale_utf8());
    snprintf(done, sizeof done, "%d/%d", solved, total);
    text_shorten(step, sizeof step,
                 rec && rec->last_step[0] ? term_escape(rec->last_step, safe, sizeof safe) : rec ? "(set-up)" : "-",
                 36, text_locale_utf8());
    pad(title, 40);
    printf("  %-9s  ", done);
    pad(step, 36);
    char bugs[64];
    char open[48] = "";
    if (rec && rec->finished && !catalogue_finished(e))
        snprintf(open, sizeof open, "read to the end, %d open", total - e->answered);
    const char *state = catalogue_finished(e) ? "finished" : open[0] ? open : rec ? "" : "not begun";
    bugs_note(rec, bugs, sizeof bugs);
    printf("  %s%s%s\n", state, state[0] && bugs[0] ? ", " : "", bugs);
}

/* A lesson the store knows that is not in the lesson set: its record. */
static void row_unknown(const ProgressLesson *rec)
{
    int solved = 0;
    for (int k = 0; k < rec->n_ex; k++)
        solved += rec->ex[k].status == PROG_RIGHT;
    char title[200], done[32], step[200], safe[PROGRESS_KEY_MAX * 4];
    text_shorten(title, sizeof title, term_escape(rec->lesson, safe, sizeof safe), 40, text_locale_utf8());
    snprintf(done, sizeof done, "%d right", solved);
    text_shorten(step, sizeof step, rec->last_step[0] ? term_escape(rec->last_step, safe, sizeof safe) : "(set-up)",
                 36, text_locale_utf8());
    pad(title, 40);
    printf("  %-9s  ", done);
    pad(step, 36);
    char bugs[64];
    printf("  %s%s%s\n", rec->finished ? "read to the end" : "(not in the lesson set)", rec->n_bugs ? ", " : "",
           bugs_note(rec, bugs, sizeof bugs));
}

/* The heading of a part: its title and how far the student is in it. */
static void part_heading(const CataloguePart *p)
{
    char safe[1200];
    printf("\n%s  (%d/%d lessons finished, %d/%d exercises right)\n", term_escape(p->title, safe, sizeof safe),
           p->finished, p->n, p->solved, p->n_exercises);
}

/* The course's totals over its parts. */
static void course_totals(const Catalogue *c, int *finished, int *lessons, int *solved, int *total)
{
    *finished = *lessons = *solved = *total = 0;
    for (int p = 0; p < c->n_parts; p++) {
        *finished += c->parts[p].finished;
        *lessons += c->parts[p].n;
        *solved += c->parts[p].solved;
        *total += c->parts[p].n_exercises;
    }
}

/* "course": its parts with their lessons (files) and completion, or null. */
static void json_course(JsonWriter *w, const Catalogue *c)
{
    jw_newline(w);
    if (c->n_parts == 0) {
        jw_null(w, "course");
        return;
    }
    int finished, lessons, solved, total;
    course_totals(c, &finished, &lessons, &solved, &total);
    jw_object(w, "course");
    jw_int(w, "lessons", lessons);
    jw_int(w, "finished", finished);
    jw_int(w, "solved", solved);
    jw_int(w, "total", total);
    jw_array(w, "parts");
    for (int p = 0; p < c->n_parts; p++) {
        const CataloguePart *cp = &c->parts[p];
        jw_object(w, NULL);
        jw_str(w, "title", cp->title);
        jw_inline(w, "files");
        for (int i = cp->first; i < cp->first + cp->n; i++)
            jw_str(w, NULL, c->entries[i].path);
        jw_close(w, ']');
        jw_int(w, "lessons", cp->n);
        jw_int(w, "finished", cp->finished);
        jw_int(w, "solved", cp->solved);
        jw_int(w, "total", cp->n_exercises);
        jw_close(w, '}');
    }
    jw_close(w, ']');
    jw_close(w, '}');
}

static const char *const status_json[] = { "unanswered", "tried", "revealed", "right" };

/* The bugs hunted in rec (attn bug), as "bugs": [...]. */
static void json_bugs(JsonWriter *w, const ProgressLesson *rec)
{
    jw_inline(w, "bugs");
    for (int k = 0; rec && k < rec->n_bugs; k++) {
        const ProgressBug *b = &rec->bugs[k];
        jw_object(w, NULL);
        jw_int(w, "seed", b->seed);
        jw_str(w, "status", progress_bug_word(b->status));
        jw_str(w, "kind", b->kind);
        jw_str(w, "matrix", b->matrix);
        jw_int(w, "matrix_tries", b->matrix_tries);
        jw_int(w, "kind_tries", b->kind_tries);
        jw_int(w, "time", b->when);
        jw_close(w, '}');
    }
    jw_close(w, ']');
}

/* A lesson of the set (l), or one the store knows outside it (rec). */
static void json_record(JsonWriter *w, const ProgressLesson *rec, const CatalogueEntry *l)
{
    if (l)
        rec = l->rec;
    jw_object(w, NULL);
    jw_str(w, "lesson", rec ? rec->lesson : l->title);
    jw_str(w, "file", l ? l->path : NULL);
    int solved = l ? l->solved : 0, total = l ? l->n_exercises : 0;
    for (int k = 0; !l && rec && k < rec->n_ex; k++)
        solved += rec->ex[k].status == PROG_RIGHT;
    jw_bool(w, "in_lesson_set", l != NULL);
    jw_bool(w, "begun", rec != NULL);
    jw_int(w, "solved", solved);
    if (l)
        jw_int(w, "total", total);
    else
        jw_null(w, "total");
    jw_str(w, "last_step", rec ? rec->last_step : NULL);
    int answered = 0;
    for (int k = 0; !l && rec && k < rec->n_ex; k++)
        answered += rec->ex[k].status == PROG_RIGHT || rec->ex[k].status == PROG_REVEALED;
    jw_bool(w, "finished", l ? catalogue_finished(l) : rec && rec->finished && answered == rec->n_ex);
    jw_array(w, "exercises");
    for (int k = 0; rec && k < rec->n_ex; k++) {
        const ProgressExercise *e = &rec->ex[k];
        jw_object(w, NULL);
        jw_str(w, "key", e->key);
        jw_str(w, "question", e->question[0] ? e->question : NULL);
        jw_str(w, "status", status_json[e->status]);
        jw_int(w, "attempts", e->attempts);
        jw_int(w, "hints", e->hints);
        jw_bool(w, "first_try", e->first_try);
        jw_inline(w, "answers");
        for (int h = 0; h < e->n_hist; h++) {
            const ProgressAnswer *a = &e->hist[h];
            jw_object(w, NULL);
            jw_str(w, "answer", a->typed);
            jw_str(w, "verdict", a->verdict);
            jw_str(w, "diagnosis", a->diagnosis[0] ? a->diagnosis : NULL);
            jw_str(w, "message", a->msg);
            jw_int(w, "time", a->when);
            jw_close(w, '}');
        }
        jw_close(w, ']');
        jw_close(w, '}');
    }
    jw_close(w, ']');
    json_bugs(w, rec);
    jw_close(w, '}');
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
    if (cat.course_error[0])
        fprintf(stderr, "attn: the course is not shown, its COURSE file is refused: %s\n", cat.course_error);
    char safe[4200];
    JsonWriter w;
    if (json) {
        char where[1100];
        snprintf(where, sizeof where, "%s/progress", cat.store);
        jw_begin(&w);
        jw_str(&w, "store", where);
        jw_array(&w, "lessons");
    } else {
        printf("Progress kept in %s/progress\n\n", term_escape(cat.store, safe, sizeof safe));
        printf("%-40s  %-9s  %-36s  %s\n", "lesson", "exercises", "last step", "");
    }
    for (int i = 0; i < cat.n; i++) {
        const CatalogueEntry *e = &cat.entries[i];
        if (!e->title)
            continue;
        if (json) {
            json_record(&w, NULL, e);
        } else {
            if (cat.n_parts > 0 && e->part >= 0 && cat.parts[e->part].first == i)
                part_heading(&cat.parts[e->part]);
            row(e);
        }
    }
    /* what the store keeps of lessons outside the set (a course's own) */
    for (int i = 0; i < cat.n_recs; i++) {
        if (cat.in_set[i])
            continue;
        if (json) {
            json_record(&w, &cat.recs[i], NULL);
        } else {
            row_unknown(&cat.recs[i]);
        }
    }
    if (json) {
        jw_close(&w, ']');
        json_course(&w, &cat);
        jw_end(&w);
        jw_print(&w, stdout);
    } else if (cat.n_parts > 0) {
        int finished, lessons, solved, total;
        course_totals(&cat, &finished, &lessons, &solved, &total);
        printf("\nCourse: %d of %d lessons finished, %d/%d exercises right\n", finished, lessons, solved, total);
    }
    catalogue_free(&cat);
    if (fflush(stdout) != 0)
        return 2;
    return 0;
}
