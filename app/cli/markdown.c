/*
 * markdown.c - the markdown handout of `attn run --markdown FILE`. Lesson
 * text is data, not markup: every character markdown would act on is
 * escaped, so a title with '#', a token with '|' or prose with '*' and '_'
 * read on the page as they read in the file. Prose is wrapped by the
 * screen's wrapper (text.h); a line indented deeper than its paragraph (a
 * formula) becomes a code block. Matrices are tables, row labels in the
 * first column and column labels in the header, numbers by the engine's
 * num_format; a heatmap's cells carry the screen's shade blocks (heat.h)
 * and a legend says what they stand for.
 */
#include "markdown.h"

#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "heat.h"
#include "ramp.h"
#include "sheet.h"
#include "text.h"

#define WRAP_COLUMNS 78

/* s escaped for markdown (malloc'd; NULL when out of memory): characters
 * that mark up inline text always, and at the start of a line those that
 * make a list, a heading or a rule ("- ", "1. ", "===") as well. */
static char *md_escaped(const char *s, int line_start)
{
    char *out = malloc(2 * strlen(s) + 1), *o = out;
    if (!out)
        return NULL;
    size_t digits = line_start ? strspn(s, "0123456789") : 0;
    for (const char *p = s; *p; p++) {
        int lead = line_start && p == s && strchr("+-=", *p);
        int numbered = digits > 0 && p == s + digits && (*p == '.' || *p == ')');
        if (strchr("\\`*_[]<>|~$&#", *p) || lead || numbered)
            *o++ = '\\';
        *o++ = *p;
    }
    *o = '\0';
    return out;
}

static void md_put(FILE *out, const char *s, int line_start)
{
    char *e = md_escaped(s, line_start);
    if (e)
        fputs(e, out);
    free(e);
}

/* The fence for a code block holding text: backticks, more than the
 * longest run inside it. */
static int fence_length(const char *text)
{
    int longest = 0, run = 0;
    for (const char *p = text; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    return longest < 3 ? 3 : longest + 1;
}

static void put_fence(FILE *out, int n)
{
    for (int i = 0; i < n; i++)
        fputc('`', out);
    fputc('\n', out);
}

/* Prose as paragraphs, wrapped to WRAP_COLUMNS; runs of indented lines
 * (formulas) as code blocks, a blank line around each. */
static void md_prose(FILE *out, const char *text)
{
    size_t size = 3 * strlen(text) + 16;
    char *wrapped = malloc(size), *line = malloc(size);
    if (wrapped && line) {
        text_wrap(wrapped, size, text, WRAP_COLUMNS);
        int fence = fence_length(wrapped), in_code = 0, blank = 1;
        for (const char *p = wrapped; (p = text_line(p, line, size));) {
            int code = line[0] == ' ';
            if (in_code && !code) {
                put_fence(out, fence);
                in_code = 0;
                if (line[0])
                    fputc('\n', out);
            }
            if (code && !in_code) {
                if (!blank)
                    fputc('\n', out);
                put_fence(out, fence);
                in_code = 1;
            }
            if (in_code || !line[0])
                fputs(line, out);
            else
                md_put(out, line, 1);
            fputc('\n', out);
            blank = !line[0];
        }
        if (in_code)
            put_fence(out, fence);
    }
    free(wrapped);
    free(line);
}

/* The UTF-8 block of the ASCII shade c, or NULL when c is no shade. */
static const char *block_of(char c)
{
    for (int k = 0; k < RAMP_SHADE_LEVELS; k++) {
        float t = ((float)k + 0.5f) / RAMP_SHADE_LEVELS;
        if (ramp_shade(t, 0)[0] == c)
            return ramp_shade(t, 1);
    }
    return NULL;
}

/* The legend of heat_legend, its quoted ASCII shades turned into the
 * blocks the cells carry. */
static void md_legend(FILE *out, const HeatScale *scale)
{
    char legend[200];
    heat_legend(scale, legend, sizeof legend, NUM_DECIMALS_DEFAULT);
    int quoted = 0;
    for (const char *p = legend; *p; p++) {
        const char *block = quoted && *p != '\'' ? block_of(*p) : NULL;
        if (*p == '\'')
            quoted = !quoted;
        if (block)
            fputs(block, out);
        else
            fputc(*p, out);
    }
    fputc('\n', out);
}

/* Cell (i, j) of m's table, malloc'd: i == -1 is the header (the column
 * labels), j == -1 the row labels (in bold); the corner is empty. A
 * heatmap's number carries its shade; a hidden cell is "?". */
static char *table_cell(const Mat *m, int i, int j, const HeatScale *heat, const SheetHide *hide)
{
    char buf[64], *cell;
    if (i < 0 && j < 0)
        return strdup("");
    if (i < 0 || j < 0) {
        char *lab = md_escaped(i < 0 ? sheet_col_label(m, j, buf, sizeof buf) : sheet_row_label(m, i, buf, sizeof buf), 0);
        if (!lab || i < 0)
            return lab;
        cell = malloc(strlen(lab) + 5);
        if (cell)
            sprintf(cell, "**%s**", lab);
        free(lab);
        return cell;
    }
    float v = mat_get(m, i, j);
    int hidden = sheet_hidden(hide, m->name, i, j);
    sheet_mat_cell(buf, sizeof buf, m, i, j, hidden, 0);
    const char *shade = heat && !hidden ? heat_shade(heat, v, 1) : "";
    cell = malloc(strlen(buf) + strlen(shade) + 2);
    if (cell)
        sprintf(cell, "%s%s%s", buf, *shade ? " " : "", shade);
    return cell;
}

static void put_padded(FILE *out, const char *cell, int width, int right)
{
    int pad = width - fmt_display_width(cell);
    fprintf(out, "| %*s%s%*s ", right ? pad : 0, "", cell, right ? 0 : pad, "");
}

/* m as a table with labelled axes (widths computed first, so the columns
 * line up in the file too), then the heatmap's legend and the masked lines. */
static void md_matrix(FILE *out, const Mat *m, int heat, const SheetHide *hide)
{
    if (!m)
        return;
    fputs("\n**", out);
    md_put(out, m->name, 0);
    fprintf(out, "** (%dx%d%s)\n\n", m->rows, m->cols, heat ? ", heatmap" : "");
    HeatScale scale = heat_scale(m);
    const HeatScale *h = heat ? &scale : NULL;
    int *width = calloc((size_t)m->cols + 1, sizeof *width);
    if (!width)
        return;
    for (int i = -1; i < m->rows; i++)
        for (int j = -1; j < m->cols; j++) {
            char *cell = table_cell(m, i, j, h, hide);
            int w = cell ? fmt_display_width(cell) : 0;
            if (w > width[j + 1])
                width[j + 1] = w;
            free(cell);
        }
    for (int i = -1; i < m->rows; i++) {
        for (int j = -1; j < m->cols; j++) {
            char *cell = table_cell(m, i, j, h, hide);
            put_padded(out, cell ? cell : "", width[j + 1] < 3 ? 3 : width[j + 1], j >= 0);
            free(cell);
        }
        fputs("|\n", out);
        if (i >= 0)
            continue;
        /* the delimiter row: labels left, numbers right */
        for (int j = -1; j < m->cols; j++) {
            int w = width[j + 1] < 3 ? 3 : width[j + 1];
            fputs(j < 0 ? "|:" : "|", out);
            for (int k = 0; k < w + 1; k++)
                fputc('-', out);
            fputs(j < 0 ? "" : ":", out);
        }
        fputs("|\n", out);
    }
    free(width);
    if (heat) {
        fputc('\n', out);
        md_legend(out, &scale);
    }
    sheet_put_masked(out, m, "\n", "\n");
}

static void md_exercise(FILE *out, const SheetView *v, const LessonExercise *ex, int number)
{
    fprintf(out, "\n**Exercise %d:** ", number);
    md_put(out, ex->question, 0);
    fputc('\n', out);
    if (ex->n_hints > 0)
        fputc('\n', out);
    for (int h = 0; h < ex->n_hints; h++) {
        fprintf(out, "- Hint %d: ", h + 1);
        char *hint = sheet_text(v, ex->hints[h]);
        md_put(out, hint ? hint : "", 0);
        free(hint);
        fputc('\n', out);
    }
    fputs("\n**Answer:** ", out);
    double value;
    if (!v->with_answers) {
        fputs("____________\n", out);
        return;
    }
    if (strchr(ex->answer, '`'))
        md_put(out, ex->answer, 0);
    else
        fprintf(out, "`%s`", ex->answer);
    if (sheet_answer_value(v->asked, ex, &value)) {
        char buf[64];
        num_format(buf, sizeof buf, value, num_decimals_for(ex->within, NUM_DECIMALS_DEFAULT), 0);
        fprintf(out, " = %s", buf);
    }
    fputc('\n', out);
}

void markdown_print(FILE *out, const Lesson *l, const SheetView *v)
{
    const LessonState *s = v->shown;
    int with_answers = v->with_answers;
    fputs("# ", out);
    md_put(out, lesson_title(l), 0);
    fputc('\n', out);
    if (*lesson_about(l)) {
        fputc('\n', out);
        md_prose(out, lesson_about(l));
    }
    if (lesson_n_tokens(l) > 0) {
        fprintf(out, "\nTokens (%s):", lesson_layout(l) == LAYOUT_ROWS ? "one per row" : "one per column");
        for (int i = 0; i < lesson_n_tokens(l); i++) {
            fputc(' ', out);
            md_put(out, lesson_token(l, i), 0);
        }
        fputc('\n', out);
    }
    if (lesson_n_knobs(l) > 0) {
        fprintf(out, "\n%s\n\n", SHEET_KNOBS_HEADING);
        for (int i = 0; i < lesson_n_knobs(l); i++) {
            char line[MAT_NAME_MAX + 200];
            fputs("- ", out);
            md_put(out, sheet_knob_line(line, sizeof line, s, lesson_knob(l, i)), 0);
            fputc('\n', out);
        }
    }
    if (lesson_n_setup(l) > 0) {
        fputs("\n## Set-up\n", out);
        SheetHide hide = { with_answers ? NULL : l, -1 };
        for (int i = 0; i < lesson_n_setup(l); i++)
            md_matrix(out, lesson_state_get(s, lesson_setup_name(l, i)), 0, &hide);
    }
    int n = lesson_n_steps(l);
    for (int k = 0; k < n; k++) {
        const LessonStep *st = lesson_step(l, k);
        char head[64];
        fprintf(out, "\n## %s", sheet_step_heading(head, sizeof head, k, n));
        md_put(out, st->title, 0);
        fputc('\n', out);
        if (st->text[0]) {
            fputc('\n', out);
            char *text = sheet_text(v, st->text);
            md_prose(out, text ? text : "");
            free(text);
        }
        SheetHide hide = { with_answers ? NULL : l, k };
        for (int i = 0; i < st->n_show; i++)
            md_matrix(out, lesson_state_get(s, st->show[i]), sheet_is_heatmap(st, st->show[i]), &hide);
        for (int e = 0; e < st->n_exercises; e++)
            md_exercise(out, v, &st->exercises[e], lesson_exercise_number(l, &st->exercises[e]));
    }
}
