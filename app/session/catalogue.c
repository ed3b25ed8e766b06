/*
 * catalogue.c - a folder of lessons and the student's progress in each
 * (see catalogue.h).
 */
#include "catalogue.h"

#include <stdlib.h>
#include <string.h>

#include "lesson.h"
#include "lessonfile.h"
#include "session.h"

static int dup_into(char **out, const char *s)
{
    *out = strdup(s ? s : "");
    return *out ? 0 : -1;
}

/* The entry of the lesson at path; -1 when out of memory. */
static int read_entry(Catalogue *c, CatalogueEntry *e, const char *path)
{
    if (dup_into(&e->path, path) != 0)
        return -1;
    LessonError err;
    Lesson *l = lessonfile_load(path, &err);
    if (!l) {
        if (err.code == ATTN_E_NOMEM)
            return -1;
        char buf[1024];
        lesson_error_format(&err, buf, sizeof buf);
        char *nl = strchr(buf, '\n');
        if (nl)
            *nl = '\0';
        /* the menu shows the file's name beside it: the message without the folder */
        const char *base = strrchr(buf, '/');
        return dup_into(&e->error, base ? base + 1 : buf);
    }
    int rc = dup_into(&e->title, lesson_title(l)) | dup_into(&e->about, lesson_about(l));
    e->n_steps = lesson_n_steps(l);
    e->rec = progress_find(c->recs, c->n_recs, lesson_title(l));
    if (e->rec && c->in_set)
        c->in_set[e->rec - c->recs] = 1;
    session_lesson_progress(l, e->rec, &e->solved, &e->n_exercises);
    lesson_free(l);
    return rc;
}

int catalogue_load(Catalogue *c, const char *dir)
{
    memset(c, 0, sizeof *c);
    const char *store = progress_dir(c->store, sizeof c->store);
    if (!store)
        c->store[0] = '\0';
    else if (progress_load(store, &c->recs, &c->n_recs, c->warn, sizeof c->warn) == 0)
        c->warn[0] = '\0';
    c->in_set = calloc((size_t)(c->n_recs > 0 ? c->n_recs : 1), 1);
    char **paths = dir ? lessonfile_list(dir) : NULL;
    int n = 0;
    while (paths && paths[n])
        n++;
    c->entries = calloc((size_t)(n > 0 ? n : 1), sizeof *c->entries);
    int rc = c->in_set && c->entries ? 0 : -1;
    for (int i = 0; rc == 0 && i < n; i++, c->n++)
        rc = read_entry(c, &c->entries[i], paths[i]);
    lessonfile_list_free(paths);
    if (rc != 0)
        catalogue_free(c);
    return rc;
}

void catalogue_free(Catalogue *c)
{
    for (int i = 0; i < c->n; i++) {
        free(c->entries[i].path);
        free(c->entries[i].title);
        free(c->entries[i].about);
        free(c->entries[i].error);
    }
    free(c->entries);
    free(c->in_set);
    progress_free(c->recs, c->n_recs);
    memset(c, 0, sizeof *c);
}
