/*
 * panes.c - which matrices a screen of a lesson shows (panes.h).
 */
#include "panes.h"

#include <string.h>

int panes_count(const Lesson *l, const LessonStep *st)
{
    return st ? (st->n_show > 0 ? st->n_show : st->n_defines) : lesson_n_setup(l);
}

const char *panes_name(const Lesson *l, const LessonStep *st, int i)
{
    if (!st)
        return lesson_setup_name(l, i);
    return st->n_show > 0 ? st->show[i] : st->defines[i];
}

int panes_heat(const LessonStep *st, const char *name)
{
    for (int k = 0; st && k < st->n_heatmap; k++)
        if (strcmp(st->heatmap[k], name) == 0)
            return 1;
    return 0;
}
