/*
 * catalogue.c - a folder of lessons and the student's progress in each
 * (see catalogue.h), in the order of the folder's course (course.h).
 */
#include "catalogue.h"

#include <stdlib.h>
#include <string.h>

#include "escape.h"
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
        term_lesson_error(&err, buf, sizeof buf);
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
    session_lesson_progress(l, e->rec, &e->solved, &e->answered, &e->n_exercises);
    lesson_free(l);
    return rc;
}

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

/* paths (n of them) put in the course's order, the ones it does not list
 * after, each entry's part set; the parts' ranges. -1: out of memory. */
static int order_by_course(Catalogue *c, char **paths, int n, int *part_of)
{
    int parts = c->course.n_parts;
    char **ordered = calloc((size_t)(n > 0 ? n : 1), sizeof *ordered);
    c->parts = calloc((size_t)parts + 1, sizeof *c->parts);
    if (!ordered || !c->parts) {
        free(ordered);
        return -1;
    }
    int k = 0;
    for (int p = 0; p < parts; p++) {
        const CoursePart *cp = &c->course.parts[p];
        c->parts[p] = (CataloguePart){ .title = cp->title, .first = k };
        for (int f = 0; f < cp->n; f++)
            for (int i = 0; i < n; i++)
                if (paths[i] && strcmp(base_name(paths[i]), cp->files[f]) == 0) {
                    part_of[k] = p;
                    ordered[k++] = paths[i];
                    paths[i] = NULL;
                }
        c->parts[p].n = k - c->parts[p].first;
    }
    c->n_parts = parts;
    if (k < n) {
        c->parts[parts] = (CataloguePart){ .title = "More lessons", .first = k, .n = n - k };
        c->n_parts++;
    }
    for (int i = 0; i < n; i++)
        if (paths[i]) {
            part_of[k] = parts;
            ordered[k++] = paths[i];
        }
    memcpy(paths, ordered, (size_t)n * sizeof *paths);
    free(ordered);
    return 0;
}

static void count_parts(Catalogue *c)
{
    for (int p = 0; p < c->n_parts; p++) {
        CataloguePart *cp = &c->parts[p];
        for (int i = cp->first; i < cp->first + cp->n; i++) {
            const CatalogueEntry *e = &c->entries[i];
            cp->finished += catalogue_finished(e);
            cp->solved += e->solved;
            cp->n_exercises += e->n_exercises;
        }
    }
}

int catalogue_finished(const CatalogueEntry *e)
{
    return e->rec && e->rec->finished && e->answered >= e->n_exercises;
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
    int *part_of = calloc((size_t)(n > 0 ? n : 1), sizeof *part_of);
    int rc = c->in_set && c->entries && part_of ? 0 : -1;
    if (rc == 0 && n > 0 && course_read(dir, &c->course, c->course_error, sizeof c->course_error) == 0)
        rc = order_by_course(c, paths, n, part_of);
    for (int i = 0; rc == 0 && i < n; i++, c->n++) {
        c->entries[i].part = c->n_parts ? part_of[i] : -1;
        rc = read_entry(c, &c->entries[i], paths[i]);
    }
    if (rc == 0)
        count_parts(c);
    free(part_of);
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
    free(c->parts);
    course_free(&c->course);
    progress_free(c->recs, c->n_recs);
    memset(c, 0, sizeof *c);
}
