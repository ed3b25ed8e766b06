/*
 * handout.c - the plain-text handout of `attn run FILE`: prose wrapped by
 * the screen's wrapper (text.h), matrices with labelled axes and numbers by
 * the engine's one formatter, heatmaps with a row of shades on the screen's
 * scale (heat.h) and a legend, lines softmax found all -inf named under
 * their matrix, exercises with hints and, unless asked not to, answers.
 */
#include "handout.h"

#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "heat.h"
#include "text.h"

#define WRAP_COLUMNS 78

/* Print prose wrapped to WRAP_COLUMNS by the screen's wrapper (text.h),
 * each line after `indent` spaces; paragraphs stay one empty line apart. */
static void print_wrapped(FILE *out, const char *text, int indent)
{
    size_t size = 3 * strlen(text) + 16;
    char *wrapped = malloc(size), *line = malloc(size);
    if (wrapped && line) {
        text_wrap(wrapped, size, text, WRAP_COLUMNS - indent);
        for (const char *p = wrapped; (p = text_line(p, line, size));)
            fprintf(out, "%*s%s\n", line[0] ? indent : 0, "", line);
    }
    free(wrapped);
    free(line);
}

/* A line of c as wide as prefix + title. */
static void print_rule(FILE *out, const char *prefix, const char *title, char c)
{
    int w = fmt_display_width(prefix) + fmt_display_width(title);
    for (int i = 0; i < w; i++)
        fputc(c, out);
    fputc('\n', out);
}

static void pad(FILE *out, int n)
{
    for (int i = 0; i < n; i++)
        fputc(' ', out);
}

/* The lines softmax found all -inf, e.g. "  row 2 fully masked: every
 * score -inf, weights 0" (nothing when there are none). */
static void print_masked(FILE *out, const Mat *m)
{
    for (int by_rows = 1; by_rows >= 0; by_rows--) {
        int n = by_rows ? m->rows : m->cols, count = 0;
        for (int k = 0; k < n; k++)
            count += mat_line_masked(m, k, by_rows);
        if (!count)
            continue;
        fprintf(out, "  %s%s", by_rows ? "row" : "column", count > 1 ? "s" : "");
        for (int k = 0, i = 0; k < n; k++)
            if (mat_line_masked(m, k, by_rows))
                fprintf(out, i++ ? ", %d" : " %d", k + 1);
        fprintf(out, " fully masked: every score -inf, weights 0\n");
    }
}

static void print_matrix(FILE *out, const Mat *m, int heat)
{
    if (!m)
        return;
    fprintf(out, "%s  (%dx%d%s)\n", m->name, m->rows, m->cols, heat ? ", heatmap" : "");
    int label_w = 0;
    char buf[64];
    for (int i = 0; i < m->rows; i++) {
        const char *lab = mat_row_label(m, i);
        int w = lab ? fmt_display_width(lab) : snprintf(buf, sizeof buf, "%d", i + 1);
        if (w > label_w)
            label_w = w;
    }
    int *widths = calloc((size_t)m->cols, sizeof *widths);
    if (!widths)
        return;
    for (int j = 0; j < m->cols; j++) {
        const char *lab = mat_col_label(m, j);
        int w = lab ? fmt_display_width(lab) : snprintf(buf, sizeof buf, "%d", j + 1);
        for (int i = 0; i < m->rows; i++) {
            int vw = num_format(buf, sizeof buf, mat_get(m, i, j), NUM_DECIMALS_DEFAULT, 0);
            if (vw > w)
                w = vw;
        }
        widths[j] = w;
    }
    HeatScale scale = heat_scale(m);
    /* the header: column labels, right-aligned over their numbers */
    pad(out, 2 + label_w);
    for (int j = 0; j < m->cols; j++) {
        const char *lab = mat_col_label(m, j);
        if (!lab) {
            snprintf(buf, sizeof buf, "%d", j + 1);
            lab = buf;
        }
        pad(out, 2 + widths[j] - fmt_display_width(lab));
        fputs(lab, out);
    }
    fputc('\n', out);
    for (int i = 0; i < m->rows; i++) {
        const char *lab = mat_row_label(m, i);
        if (!lab) {
            snprintf(buf, sizeof buf, "%d", i + 1);
            lab = buf;
        }
        fputs("  ", out);
        fputs(lab, out);
        pad(out, label_w - fmt_display_width(lab));
        for (int j = 0; j < m->cols; j++) {
            int w = num_format(buf, sizeof buf, mat_get(m, i, j), NUM_DECIMALS_DEFAULT, 0);
            pad(out, 2 + widths[j] - w);
            fputs(buf, out);
        }
        if (heat) {
            fputs("   |", out);
            for (int j = 0; j < m->cols; j++)
                fputs(heat_shade(&scale, mat_get(m, i, j), 0), out);
            fputc('|', out);
        }
        fputc('\n', out);
    }
    if (heat) {
        /* say what the shades stand for, so a printed heatmap reads alone */
        char legend[200];
        heat_legend(&scale, legend, sizeof legend, NUM_DECIMALS_DEFAULT);
        fprintf(out, "  %s\n", legend);
    }
    print_masked(out, m);
    fputc('\n', out);
    free(widths);
}

static int in_list(char **names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return 1;
    return 0;
}

/* The lesson as a plain-text handout; with_answers 0 leaves the answers
 * out (hints stay) so the sheet can be handed to students. */
void handout_print(FILE *out, const Lesson *l, const LessonState *s, int with_answers)
{
    fputs(lesson_title(l), out);
    fputc('\n', out);
    print_rule(out, "", lesson_title(l), '=');
    if (*lesson_about(l)) {
        fputc('\n', out);
        print_wrapped(out, lesson_about(l), 0);
    }
    if (lesson_n_tokens(l) > 0) {
        fprintf(out, "\nTokens (%s):", lesson_layout(l) == LAYOUT_ROWS ? "one per row" : "one per column");
        for (int i = 0; i < lesson_n_tokens(l); i++)
            fprintf(out, " %s", lesson_token(l, i));
        fputc('\n', out);
    }
    if (lesson_n_setup(l) > 0) {
        fputs("\nSet-up\n------\n\n", out);
        for (int i = 0; i < lesson_n_setup(l); i++)
            print_matrix(out, lesson_state_get(s, lesson_setup_name(l, i)), 0);
    }
    int n = lesson_n_steps(l);
    for (int k = 0; k < n; k++) {
        const LessonStep *st = lesson_step(l, k);
        char head[64];
        snprintf(head, sizeof head, "Step %d/%d: ", k + 1, n);
        fprintf(out, "\n%s%s\n", head, st->title);
        print_rule(out, head, st->title, '-');
        if (st->text[0]) {
            fputc('\n', out);
            print_wrapped(out, st->text, 0);
        }
        fputc('\n', out);
        for (int i = 0; i < st->n_show; i++)
            print_matrix(out, lesson_state_get(s, st->show[i]), in_list(st->heatmap, st->n_heatmap, st->show[i]));
        for (int e = 0; e < st->n_exercises; e++) {
            const LessonExercise *ex = &st->exercises[e];
            fputs("Exercise: ", out);
            print_wrapped(out, ex->question, 0);
            for (int h = 0; h < ex->n_hints; h++) {
                fprintf(out, "  Hint %d: ", h + 1);
                print_wrapped(out, ex->hints[h], 0);
            }
            if (!with_answers) {
                fputs("  Answer: ____________\n\n", out);
                continue;
            }
            LessonError err;
            Mat *v = lesson_eval_expr(s, ex->answer, &err);
            if (v && v->rows == 1 && v->cols == 1) {
                char buf[64];
                num_format(buf, sizeof buf, mat_get(v, 0, 0), NUM_DECIMALS_DEFAULT, 0);
                fprintf(out, "  Answer: %s = %s\n", ex->answer, buf);
            } else {
                fprintf(out, "  Answer: %s\n", ex->answer);
            }
            mat_free(v);
            fputc('\n', out);
        }
    }
}

