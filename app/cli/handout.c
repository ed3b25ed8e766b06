/*
 * handout.c - the plain-text handout of `attn run FILE`: prose wrapped by
 * the screen's wrapper (text.h), matrices with labelled axes and numbers by
 * the engine's one formatter, heatmaps with a row of shades on the screen's
 * scale (heat.h) and a legend, lines softmax found all -inf named under
 * their matrix, exercises with hints and, unless asked not to, answers.
 * The same panes as pictures for slides: one SVG each, drawn as the screen
 * draws them by the one SVG writer (svg.h).
 */
#include "handout.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "explain.h"
#include "fileclaim.h"
#include "filewrite.h"
#include "format.h"
#include "heat.h"
#include "panes.h"
#include "sheet.h"
#include "svg.h"
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

/* m with its labelled axes, numbers right-aligned in columns; a heatmap
 * gets a row of shades and a legend. The cells hide keeps (sheet_hidden)
 * print as "?" and shade as '?'. */
static void print_matrix(FILE *out, const Mat *m, int heat, const SheetHide *hide)
{
    if (!m)
        return;
    fprintf(out, "%s  (%dx%d%s)\n", m->name, m->rows, m->cols, heat ? ", heatmap" : "");
    int label_w = 0;
    char buf[64];
    for (int i = 0; i < m->rows; i++) {
        int w = fmt_display_width(sheet_row_label(m, i, buf, sizeof buf));
        if (w > label_w)
            label_w = w;
    }
    int *widths = calloc((size_t)m->cols, sizeof *widths);
    if (!widths)
        return;
    for (int j = 0; j < m->cols; j++) {
        int w = fmt_display_width(sheet_col_label(m, j, buf, sizeof buf));
        for (int i = 0; i < m->rows; i++) {
            int vw = sheet_mat_cell(buf, sizeof buf, m, i, j, 0, 0);
            if (vw > w)
                w = vw;
        }
        widths[j] = w;
    }
    HeatScale scale = heat_scale(m);
    /* the header: column labels, right-aligned over their numbers */
    pad(out, 2 + label_w);
    for (int j = 0; j < m->cols; j++) {
        const char *lab = sheet_col_label(m, j, buf, sizeof buf);
        pad(out, 2 + widths[j] - fmt_display_width(lab));
        fputs(lab, out);
    }
    fputc('\n', out);
    for (int i = 0; i < m->rows; i++) {
        const char *lab = sheet_row_label(m, i, buf, sizeof buf);
        fputs("  ", out);
        fputs(lab, out);
        pad(out, label_w - fmt_display_width(lab));
        for (int j = 0; j < m->cols; j++) {
            int hidden = sheet_hidden(hide, m->name, i, j);
            int w = sheet_mat_cell(buf, sizeof buf, m, i, j, hidden, 0);
            pad(out, 2 + widths[j] - w);
            fputs(buf, out);
        }
        if (heat) {
            fputs("   |", out);
            for (int j = 0; j < m->cols; j++)
                fputs(sheet_hidden(hide, m->name, i, j) ? "?"
                                                                          : heat_shade(&scale, mat_get(m, i, j), 0),
                      out);
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
    sheet_put_masked(out, m, "  ", "\n");
    fputc('\n', out);
    free(widths);
}

/* An exercise: its question, its hints, and its answer or a blank. */
static void print_exercise(FILE *out, const SheetView *v, const LessonExercise *ex, int number)
{
    fprintf(out, "Exercise %d: ", number);
    print_wrapped(out, ex->question, 0);
    for (int h = 0; h < ex->n_hints; h++) {
        fprintf(out, "  Hint %d: ", h + 1);
        char *hint = sheet_text(v, ex->hints[h]);
        print_wrapped(out, hint ? hint : "", 0);
        free(hint);
    }
    double value;
    if (!v->with_answers) {
        fputs("  Answer: ____________\n", out);
    } else if (sheet_answer_value(v->asked, ex, &value)) {
        char buf[64];
        /* as many digits as the exercise checks */
        num_format(buf, sizeof buf, value, num_decimals_for(ex->within, NUM_DECIMALS_DEFAULT), 0);
        fprintf(out, "  Answer: %s = %s\n", ex->answer, buf);
    } else {
        fprintf(out, "  Answer: %s\n", ex->answer);
    }
    fputc('\n', out);
}

void handout_print(FILE *out, const Lesson *l, const SheetView *v)
{
    const LessonState *s = v->shown;
    int with_answers = v->with_answers;
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
    if (lesson_n_knobs(l) > 0) {
        /* the values this handout was computed with */
        fprintf(out, "\n%s\n", SHEET_KNOBS_HEADING);
        for (int i = 0; i < lesson_n_knobs(l); i++) {
            char line[MAT_NAME_MAX + 200];
            fprintf(out, "  %s\n", sheet_knob_line(line, sizeof line, s, lesson_knob(l, i)));
        }
    }
    if (lesson_n_setup(l) > 0) {
        fputs("\nSet-up\n------\n\n", out);
        SheetHide hide = { with_answers ? NULL : l, -1 };
        for (int i = 0; i < lesson_n_setup(l); i++)
            print_matrix(out, lesson_state_get(s, lesson_setup_name(l, i)), 0, &hide);
    }
    int n = lesson_n_steps(l);
    for (int k = 0; k < n; k++) {
        const LessonStep *st = lesson_step(l, k);
        char head[64];
        sheet_step_heading(head, sizeof head, k, n);
        fprintf(out, "\n%s%s\n", head, st->title);
        print_rule(out, head, st->title, '-');
        if (st->text[0]) {
            fputc('\n', out);
            char *text = sheet_text(v, st->text);
            print_wrapped(out, text ? text : "", 0);
            free(text);
        }
        fputc('\n', out);
        SheetHide hide = { with_answers ? NULL : l, k };
        for (int i = 0; i < st->n_show; i++)
            print_matrix(out, lesson_state_get(s, st->show[i]), sheet_is_heatmap(st, st->show[i]), &hide);
        for (int e = 0; e < st->n_exercises; e++)
            print_exercise(out, v, &st->exercises[e], lesson_exercise_number(l, &st->exercises[e]));
    }
}

/* ---- the panes as pictures ------------------------------------------------ */

/* A cell a student's picture keeps: one an exercise of this screen's step
 * or of a later one asks, in every pane, as the screen keeps it until
 * answered (sheet_hidden). */
typedef struct {
    const Lesson *l;
    const char *name;
    int step;       /* 0-based; -1 the set-up */
} Hides;

static int svg_hides(const void *ctx, int i, int j)
{
    const Hides *h = ctx;
    return sheet_hidden(&(SheetHide){ h->l, h->step }, h->name, i, j);
}

/* One pane as dir/NN-NAME.svg (svg_file_stem's); its path printed. 0, or
 * 2 after saying why. */
static int write_pane_svg(const char *dir, int k, const Lesson *l, const LessonStep *st, const Mat *m,
                          const SheetView *v)
{
    char how[200], path[1400], why[300], shown[1500], stem[MAT_NAME_MAX + 16];
    Hides hides = { l, m->name, k - 1 };
    SvgPane pane = { m, explain_how(m, how, sizeof how), panes_heat(st, m->name), NUM_DECIMALS_DEFAULT, 0,
                     v->with_answers ? NULL : svg_hides, &hides, text_no_color() };
    snprintf(stem, sizeof stem, "%02d-%s", k, m->name);
    snprintf(path, sizeof path, "%s/%s.svg", dir, svg_file_stem(stem, sizeof stem, stem));
    char *doc = svg_pane(&pane);
    FILE *f = doc ? filewrite_create(path, why, sizeof why) : NULL;
    int failed = !f;
    errno = 0;
    if (f) {
        failed = fputs(doc, f) == EOF;
        failed |= fclose(f) != 0;
    }
    if (failed)
        fprintf(stderr, "attn: cannot write %s: %s\n", term_escape(path, shown, sizeof shown),
                !doc ? "out of memory" : f ? strerror(errno ? errno : EIO) : why);
    else
        printf("%s\n", term_escape(path, shown, sizeof shown));
    free(doc);
    return failed ? 2 : 0;
}

int handout_svg(const char *dir, const Lesson *l, const SheetView *v)
{
    char why[700], shown[1100], why_shown[1100];
    if (fileclaim_marks(dir, SVG_MARK, why, sizeof why) != 0) {
        fprintf(stderr, "attn: --svg %s: %s\n", term_escape(dir, shown, sizeof shown),
                term_escape(why, why_shown, sizeof why_shown));
        return 2;
    }
    /* the set-up is screen 0, as the screen shows it before step 1 */
    for (int k = 0; k <= lesson_n_steps(l); k++) {
        const LessonStep *st = k ? lesson_step(l, k - 1) : NULL;
        for (int i = 0; i < panes_count(l, st); i++) {
            const Mat *m = lesson_state_get(v->shown, panes_name(l, st, i));
            if (m && write_pane_svg(dir, k, l, st, m, v) != 0)
                return 2;
        }
    }
    return 0;
}
