/*
 * catalogue.h - the lessons of one folder with what the student has done in
 * each, as the menu (app/tui/tui_menu.c) and `attn progress`
 * (app/cli/progress_cmd.c) both show them: one reading of the folder and of
 * the progress store, in one place.
 *
 * Ownership: a Catalogue owns its entries, their strings and the store's
 * records; catalogue_free releases them all.
 */
#ifndef ATTN_CATALOGUE_H
#define ATTN_CATALOGUE_H

#include <stddef.h>

#include "course.h"
#include "progress.h"

typedef struct {
    char *path;
    char *title, *about;        /* NULL when the file does not parse        */
    char *error;                /* why it does not: the first line of the
                                   message, without the folder; else NULL   */
    int n_steps, n_exercises, solved;
    int answered;               /* right, or the worked answer revealed     */
    const ProgressLesson *rec;  /* its record in the store, or NULL         */
    int part;                   /* its part of the course; -1: none        */
} CatalogueEntry;

/* A part of the course: entries [first, first + n), and how far the
 * student is in them. */
typedef struct {
    const char *title;          /* the COURSE file's; "More lessons" for the
                                   folder's lessons it does not list        */
    int first, n;
    int finished;               /* lessons finished                         */
    int solved, n_exercises;    /* exercises right, of all                  */
} CataloguePart;

typedef struct {
    CatalogueEntry *entries;    /* the folder's *.lesson files: in the
                                   course's order, else by name             */
    int n;
    Course course;              /* the folder's COURSE file (course.h)      */
    CataloguePart *parts;       /* NULL, n_parts 0: no course, one list     */
    int n_parts;
    char course_error[600];     /* why COURSE was refused (FILE:LINE:COL), or "" */
    char store[1024];           /* the progress store's folder; "" for none */
    ProgressLesson *recs;       /* every record the store holds            */
    int n_recs;
    unsigned char *in_set;      /* in_set[i]: recs[i] is a lesson listed   */
    char warn[600];             /* why the store could not be read, or ""  */
} Catalogue;

/* Read the lessons of dir (NULL: none), its COURSE file and the default
 * progress store (progress_dir). 0, or -1 when out of memory (c is then
 * empty). A lesson that does not parse is an entry with its error; a store
 * that cannot be read leaves the entries without records and says why in
 * c->warn; a COURSE file refused leaves one list in file order and says
 * why in c->course_error. */
int catalogue_load(Catalogue *c, const char *dir);
/* Is e's lesson finished: read to its end with every exercise answered
 * (right, or revealed)? One reaching the end with exercises open is not:
 * the menu's mark, `attn progress` and the parts' counts all ask this. */
int catalogue_finished(const CatalogueEntry *e);
void catalogue_free(Catalogue *c);

#endif
