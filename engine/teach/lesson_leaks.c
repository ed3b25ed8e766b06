/*
 * lesson_leaks.c - an exercise's value shown before it is asked, the rule
 * attn-lesson(5) states and `attn check --strict` applies. The value is
 * written as the screen writes it (num_format at the default decimals:
 * 0.4754, 10.0000, 4.5e-5); until the exercise is answered it must show
 * nowhere a student looks on its step or an earlier one (the set-up
 * included):
 *
 *   - no visible cell reads as that text (a cell kept as '?' by it or by a
 *     later exercise does not count). A value of three significant digits
 *     or more is given away by any cell; a shorter one (0, 1, 10, 0.5,
 *     0.25, 4.5e-5) meets its like by chance on most screens, so only a
 *     neighbour gives it away: a cell of the very matrix asked, in the
 *     asked cell's row or column;
 *   - no text, question or hint writes it: a decimal or a fraction (0.4754,
 *     0.475, 1/4) the judge would take as the answer, or the value rounded
 *     to three significant digits or more. A whole number written plainly
 *     is a count, an index or a size, never taken for a quote, and a short
 *     value in the exercise's own hints is an operand of the arithmetic
 *     they spell out ([0.5 0] . [1 1]), not the answer;
 *   - it is not the one hidden cell of a row or column that sums to 0 or 1.
 */
#include "numfmt.h"
#include "teach_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


typedef struct {
    const Lesson *l;
    const LessonExercise *ex;
    int at;                 /* ex's place among the lesson's exercises       */
    int step;               /* the step asking it                            */
    double v;
    char text[40];          /* v as the screen writes it                     */
    int long_value;         /* three significant digits or more              */
    char *why;
    size_t size;
    LessonCell *cell;       /* the visible cell that gives it, when one does */
} Probe;

static const char *screen_name(const Probe *p, int k, char *buf, size_t size)
{
    if (k < 0)
        snprintf(buf, size, "the set-up");
    else if (k == p->step)
        snprintf(buf, size, "its own screen");
    else
        snprintf(buf, size, "step %d", k + 1);
    return buf;
}

/* A visible cell of m, shown on step k (-1: the set-up), that reads as the
 * value: 1 with why. */
static int cell_leak(const Probe *p, const Mat *m, int k)
{
    int own = p->ex->has_cell && strcmp(m->name, p->ex->cell.name) == 0;
    if (!p->long_value && !own)
        return 0;
    for (int r = 0; r < m->rows; r++)
        for (int c = 0; c < m->cols; c++) {
            double x = mat_get(m, r, c);
            char buf[40], where[32];
            if (!isfinite(x) || (!p->long_value && r != p->ex->cell.row && c != p->ex->cell.col))
                continue;
            num_format(buf, sizeof buf, x, NUM_DECIMALS_DEFAULT, 0);
            if (strcmp(buf, p->text) != 0 || lesson_hidden_from(p->l, p->at, m->name, r, c))
                continue;
            snprintf(p->why, p->size, "its value %.6g can be read on %s at %s[%d,%d] (--strict): hide that cell too, "
                     "or ask another", p->v, screen_name(p, k, where, sizeof where), m->name, r + 1, c + 1);
            if (p->cell) {
                snprintf(p->cell->name, sizeof p->cell->name, "%s", m->name);
                p->cell->row = r;
                p->cell->col = c;
            }
            return 1;
        }
    return 0;
}

/* A number text writes that gives the value: 1 with why, naming where.
 * own: text is a hint of the exercise asked. */
static int text_leak(const Probe *p, const char *text, const char *where, int own)
{
    ProseNumber n;
    for (const char *at = text; text && (p->long_value || !own) && prose_number(&at, text, &n);) {
        double d = lesson_judge_distance(n.value, p->v);
        int taken = d <= p->ex->within;
        int rounded = n.unit > 0 && reading_significant(n.text) >= 3 && d <= 0.5 * n.unit * (1 + 1e-9);
        if (!taken && !rounded)
            continue;
        snprintf(p->why, p->size, "its value %.6g is written in %s before it is asked (\"%s\") (--strict): reword "
                 "it, or ask another", p->v, where, n.text);
        return 1;
    }
    return 0;
}

/* The asked cell m[i,j], kept hidden on step k, is the only hidden cell
 * of a row (by_rows) or a column that sums to 0 or 1: found by
 * subtraction. */
static int sum_leak(const Probe *p, const Mat *m, int k, int by_rows)
{
    int i = p->ex->cell.row, j = p->ex->cell.col;
    int n = by_rows ? m->cols : m->rows, hidden = 0;
    double sum = 0;
    if (n < 2 || i >= m->rows || j >= m->cols)
        return 0;
    for (int t = 0; t < n; t++) {
        int r = by_rows ? i : t, c = by_rows ? t : j;
        double x = mat_get(m, r, c);
        if (!isfinite(x))
            return 0;
        sum += x;
        hidden += lesson_hidden_from(p->l, p->at, m->name, r, c);
    }
    double target = fabs(sum) < 1e-4 ? 0 : fabs(sum - 1) < 1e-4 ? 1 : -1;
    if (hidden != 1 || target < 0 || !lesson_hidden_from(p->l, p->at, m->name, i, j))
        return 0;
    char where[32];
    snprintf(p->why, p->size, "its value follows from %s %d of %s, which sums to %g with only this cell hidden (on %s; "
             "--strict): hide another cell of it, or ask another", by_rows ? "row" : "column", by_rows ? i + 1 : j + 1,
             m->name, target, screen_name(p, k, where, sizeof where));
    return 1;
}

int lesson_exercise_leaks(const Lesson *l, const LessonState *s, const LessonExercise *ex, char *why, size_t size)
{
    return lesson_exercise_leak_cell(l, s, ex, NULL, why, size);
}

int lesson_exercise_leak_cell(const Lesson *l, const LessonState *s, const LessonExercise *ex, LessonCell *cell,
                              char *why, size_t size)
{
    Probe p = { l, ex, -1, -1, NAN, "", 0, why, size, cell };
    if (cell)
        *cell = (LessonCell){ 0 };
    reading_locate(l, ex, &p.at, &p.step);
    LessonError err;
    Mat *got = p.step >= 0 ? lesson_state_eval(s, &l->src, ex->parsed, &err) : NULL;
    int one = got && got->rows == 1 && got->cols == 1;
    p.v = one ? mat_get(got, 0, 0) : NAN;
    mat_free(got);
    if (!one || !isfinite(p.v) || p.at < 0)
        return 0;
    num_format(p.text, sizeof p.text, p.v, NUM_DECIMALS_DEFAULT, 0);
    p.long_value = reading_significant(p.text) >= 3;
    /* its own screen first, then back to the set-up */
    for (int k = p.step; k >= -1; k--) {
        const LessonStep *st = k >= 0 ? lesson_step(l, k) : NULL;
        int n = st ? st->n_show : lesson_n_setup(l);
        for (int i = 0; i < n; i++) {
            const Mat *m = lesson_state_get(s, st ? st->show[i] : lesson_setup_name(l, i));
            int own = m && ex->has_cell && strcmp(m->name, ex->cell.name) == 0;
            if (m && (cell_leak(&p, m, k) || (own && (sum_leak(&p, m, k, 1) || sum_leak(&p, m, k, 0)))))
                return 1;
        }
        if (!st)
            continue;
        char where[96];
        snprintf(where, sizeof where, "the text of step %d", k + 1);
        if (text_leak(&p, st->text, where, 0))
            return 1;
        for (int e = 0; e < st->n_exercises; e++) {
            const LessonExercise *x = &st->exercises[e];
            int number = lesson_exercise_number(l, x);
            snprintf(where, sizeof where, "the question of exercise %d", number);
            if (text_leak(&p, x->question, where, 0))
                return 1;
            for (int h = 0; h < x->n_hints; h++) {
                snprintf(where, sizeof where, "hint %d of exercise %d", h + 1, number);
                if (text_leak(&p, x->hints[h], where, x == ex))
                    return 1;
            }
        }
    }
    return 0;
}
