/*
 * progress_cmd.c - `attn progress`: a table of the student's progress in
 * every lesson of the default set (exercises right of all, the step last
 * seen, finished or not), from the store of progress.h; and
 * `attn progress --reset [FILE]`, which forgets one lesson's progress or
 * all of it, asking first when a person is at the terminal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "format.h"
#include "lessonfile.h"
#include "progress.h"
#include "session.h"

static int usage(const char *what)
{
    fprintf(stderr, "attn: %s\nusage: attn progress [--reset [FILE.lesson]]\n", what);
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

/* One row of the table for lesson l (rec: its record, or NULL). */
static void row(const Lesson *l, const ProgressLesson *rec)
{
    int total, solved;
    session_lesson_progress(l, rec, &solved, &total);
    char title[44], done[32], step[40];
    snprintf(title, sizeof title, "%.40s", lesson_title(l));
    snprintf(done, sizeof done, "%d/%d", solved, total);
    snprintf(step, sizeof step, "%.36s", rec && rec->last_step[0] ? rec->last_step : rec ? "(set-up)" : "-");
    printf("%-40s  %-9s  %-36s  %s\n", title, done, step, rec && rec->finished ? "finished" : rec ? "" : "not begun");
}

int cli_progress(int argc, char **argv)
{
    int want_reset = 0;
    const char *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reset") == 0)
            want_reset = 1;
        else if (argv[i][0] == '-')
            return usage("unknown option");
        else if (!want_reset || file)
            return usage("progress takes a lesson file only after --reset");
        else
            file = argv[i];
    }
    char dirbuf[1024];
    const char *dir = progress_dir(dirbuf, sizeof dirbuf);
    if (!dir)
        return usage("no place for progress: set ATTN_STATE_DIR (or HOME)");
    if (want_reset)
        return reset(dir, file);
    ProgressLesson *recs = NULL;
    int n = 0;
    char warn[600];
    if (progress_load(dir, &recs, &n, warn, sizeof warn) != 0)
        fprintf(stderr, "%s\n", warn);
    const char *lessons = lessonfile_default_dir();
    char **paths = lessons ? lessonfile_list(lessons) : NULL;
    printf("Progress kept in %s/progress\n\n", dir);
    printf("%-40s  %-9s  %-36s  %s\n", "lesson", "exercises", "last step", "");
    for (int i = 0; paths && paths[i]; i++) {
        LessonError err;
        Lesson *l = lessonfile_load(paths[i], &err);
        if (!l)
            continue;
        row(l, progress_find(recs, n, lesson_title(l)));
        lesson_free(l);
    }
    lessonfile_list_free(paths);
    progress_free(recs, n);
    if (fflush(stdout) != 0)
        return 2;
    return 0;
}
