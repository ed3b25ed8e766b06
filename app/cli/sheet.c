/*
 * sheet.c - what the handouts share (sheet.h): one rule for what a student's
 * sheet hides and one way to write a cell, a label and an answer, so the
 * plain, markdown and JSON handouts agree.
 */
#include "sheet.h"

#include <stdio.h>
#include <string.h>

#include "numfmt.h"
#include "panes.h"

const char *sheet_step_heading(char *buf, size_t size, int k, int n)
{
    snprintf(buf, size, "Step %d/%d: ", k + 1, n);
    return buf;
}

int sheet_is_heatmap(const LessonStep *st, const char *name)
{
    return panes_heat(st, name);
}

int sheet_hidden(const SheetHide *h, const char *name, int row, int col)
{
    if (!h || !h->l)
        return 0;
    int first = 0;      /* the step's first exercise, counted over the lesson */
    for (int k = 0; k < h->step && k < lesson_n_steps(h->l); k++)
        first += lesson_step(h->l, k)->n_exercises;
    return lesson_hidden_from(h->l, first, name, row, col);
}

int sheet_cell(char *buf, size_t size, float v, int hidden, int utf8)
{
    if (hidden)
        return snprintf(buf, size, "?");
    return num_format(buf, size, v, NUM_DECIMALS_DEFAULT, utf8);
}

int sheet_mat_cell(char *buf, size_t size, const Mat *m, int i, int j, int hidden, int utf8)
{
    if (!hidden && mat_cell_masked(m, i, j))
        return snprintf(buf, size, "%s", MASKED_ZERO_TEXT);
    return sheet_cell(buf, size, mat_get(m, i, j), hidden, utf8);
}

static const char *label_or_index(const char *lab, int k, char *buf, size_t size)
{
    if (lab)
        return lab;
    snprintf(buf, size, "%d", k + 1);
    return buf;
}

const char *sheet_row_label(const Mat *m, int i, char *buf, size_t size)
{
    return label_or_index(mat_row_label(m, i), i, buf, size);
}

const char *sheet_col_label(const Mat *m, int j, char *buf, size_t size)
{
    return label_or_index(mat_col_label(m, j), j, buf, size);
}

int sheet_answer_value(const LessonState *s, const LessonExercise *ex, double *value)
{
    LessonError err;
    Mat *v = lesson_eval_expr(s, ex->answer, &err);
    int one = v && v->rows == 1 && v->cols == 1;
    if (one)
        *value = mat_get(v, 0, 0);
    mat_free(v);
    return one;
}

const char *sheet_knob_line(char *buf, size_t size, const LessonState *s, const LessonKnob *k)
{
    double now = lesson_knob_now(s, k);
    char value[32], lesson_value[32], kind[160];
    lesson_knob_text(k, now, value, sizeof value);
    lesson_knob_text(k, k->value, lesson_value, sizeof lesson_value);
    if (k->is_switch)
        snprintf(kind, sizeof kind, "a switch, on or off");
    else
        snprintf(kind, sizeof kind, "a knob from %g to %g in steps of %g", k->lo, k->hi, k->step);
    if (strcmp(value, lesson_value) == 0)
        snprintf(buf, size, "%s = %s (%s)", k->name, value, kind);
    else
        snprintf(buf, size, "%s = %s (%s; the lesson has %s)", k->name, value, kind, lesson_value);
    return buf;
}

void sheet_put_masked(FILE *out, const Mat *m, const char *before, const char *after)
{
    int cells = 0;
    for (int i = 0; i < m->rows; i++)
        for (int j = 0; j < m->cols; j++)
            cells += mat_cell_masked(m, i, j);
    if (cells)
        fprintf(out, "%s%s (no decimals): masked, exactly 0 where the score was -inf%s", before, MASKED_ZERO_TEXT,
                after);
    for (int by_rows = 1; by_rows >= 0; by_rows--) {
        int n = by_rows ? m->rows : m->cols, count = 0;
        for (int k = 0; k < n; k++)
            count += mat_line_masked(m, k, by_rows);
        if (!count)
            continue;
        fprintf(out, "%s%s%s", before, by_rows ? "row" : "column", count > 1 ? "s" : "");
        for (int k = 0, i = 0; k < n; k++)
            if (mat_line_masked(m, k, by_rows))
                fprintf(out, i++ ? ", %d" : " %d", k + 1);
        fprintf(out, " fully masked: every score -inf, weights 0%s", after);
    }
}

char *sheet_text(const SheetView *v, const char *text)
{
    return lesson_bug_text(v->asked, v->bug, text ? text : "");
}
