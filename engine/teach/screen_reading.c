/*
 * screen_reading.c - what a student can read before answering: the numbers
 * a text writes, how many significant digits a number shows, which cells
 * are kept as '?' while an exercise is open, and the cell of the screen a
 * typed number was most likely read off. The leak rule (lesson_leaks.c)
 * and the judge (lesson_judge.c) both stand on these; neither calls the
 * other for them.
 */
#include "numfmt.h"
#include "teach_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int prose_number(const char **at, const char *text, ProseNumber *out)
{
    for (const char *p = *at; *p; p++) {
        /* a number on its own: not inside a word (W_k, e^10, x2) */
        if (!isdigit((unsigned char)*p) || (p > text && (isalnum((unsigned char)p[-1]) || strchr("_^.", p[-1]))))
            continue;
        const char *q = p;
        while (isdigit((unsigned char)*q))
            q++;
        int decimal = *q == '.' && isdigit((unsigned char)q[1]);
        int fraction = !decimal && *q == '/' && isdigit((unsigned char)q[1]);
        const char *end = q + 1;
        while ((decimal || fraction) && isdigit((unsigned char)*end))
            end++;
        if ((!decimal && !fraction) || isalnum((unsigned char)*end) || (*end == '.' && isdigit((unsigned char)end[1]))) {
            p = (decimal || fraction ? end : q) - 1;
            continue;
        }
        int neg = p > text && p[-1] == '-';
        snprintf(out->text, sizeof out->text, "%s%.*s", neg ? "-" : "", (int)(end - p < 40 ? end - p : 40), p);
        if (decimal) {
            out->value = strtod(out->text, NULL);
            out->unit = pow(10.0, -(double)(end - q - 1));
        } else {
            double den = strtod(q + 1, NULL);
            out->value = den > 0 ? strtod(out->text, NULL) / den : NAN;
            out->unit = 0;
        }
        *at = end;
        return 1;
    }
    return 0;
}
int reading_significant(const char *t)
{
    char digits[48];
    int n = 0;
    for (; *t && *t != 'e' && *t != 'E' && n < (int)sizeof digits - 1; t++)
        if (isdigit((unsigned char)*t) && (n > 0 || *t != '0'))
            digits[n++] = *t;
    while (n > 0 && digits[n - 1] == '0')
        n--;
    return n;
}

void reading_locate(const Lesson *l, const LessonExercise *ex, int *at, int *step)
{
    *at = *step = -1;
    for (int i = 0; i < lesson_n_exercises(l); i++)
        if (lesson_exercise_at(l, i) == ex)
            *at = i;
    for (int k = 0; k < lesson_n_steps(l) && *step < 0; k++) {
        const LessonStep *st = lesson_step(l, k);
        if (st->n_exercises > 0 && ex >= st->exercises && ex < st->exercises + st->n_exercises)
            *step = k;
    }
}

int screen_cell_reading(const Lesson *l, const LessonState *s, const LessonExercise *ex, double got, double res,
                        char *cell, size_t size, int *same_place)
{
    int at, step;
    reading_locate(l, ex, &at, &step);
    char typed[40];
    snprintf(typed, sizeof typed, "%.*f", res < 1 ? (int)lround(-log10(res)) : 0, got);
    /* a number of one or two significant digits meets its like by chance;
     * one of more decimals than the screen shows was not read off it */
    if (at < 0 || step < 0 || !(res > 0) || res < 0.5 * pow(10.0, -NUM_DECIMALS_DEFAULT) || !isfinite(got)
        || reading_significant(typed) < 3)
        return 0;
    const LessonStep *st = lesson_step(l, step);
    /* first the cells at the asked cell's place, the likeliest misread */
    for (int pass = ex->has_cell ? 0 : 1; pass < 2; pass++)
        for (int i = 0; i < st->n_show; i++) {
            const Mat *m = lesson_state_get(s, st->show[i]);
            for (int r = 0; m && r < m->rows; r++)
                for (int c = 0; c < m->cols; c++)
                    if ((pass || (r == ex->cell.row && c == ex->cell.col))
                        && fabs(mat_get(m, r, c) - got) <= 0.5 * res * (1 + 1e-9) && !lesson_hidden_from(l, at, m->name, r, c)) {
                        snprintf(cell, size, "%s[%d,%d]", m->name, r + 1, c + 1);
                        /* the matrix holds the number at the asked place
                         * too (kept as '?' or not): a stage of the cell */
                        *same_place = ex->has_cell && ex->cell.row < m->rows && ex->cell.col < m->cols
                                      && fabs(mat_get(m, ex->cell.row, ex->cell.col) - got) <= 0.5 * res * (1 + 1e-9);
                        return 1;
                    }
        }
    return 0;
}
