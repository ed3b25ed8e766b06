/*
 * json_out.c - the JSON object of `attn run --json FILE`. The keys of the
 * contract (LESSON-FORMAT.md) come first and keep their order; what the
 * full document adds (step text, panes with labels, exercises, about,
 * tokens, knobs, set-up) follows them, so a reader of the short form still
 * reads the long one. The shape is documented in lessons/README.md.
 */
#include "json_out.h"

#include <stdlib.h>

#include "json_write.h"
#include "sheet.h"

/* Which cells a student's sheet hides: in a step's pane, those an exercise
 * of that step hides (as the plain handout); in the document's "matrices",
 * those an exercise of any step of lesson hides. Both NULL with the
 * answers, and for the set-up panes, which no exercise belongs to. */
typedef struct {
    const LessonStep *step;
    const Lesson *lesson;
} Hiding;

static int hidden(const Hiding *h, const char *name, int i, int j)
{
    if (h->step)
        return sheet_step_hides(h->step, name, i, j);
    return h->lesson && sheet_lesson_hides(h->lesson, name, i, j);
}

/* "data": [[...], ...] of m, a hidden cell as "?". */
static void put_data(FILE *out, const Mat *m, const Hiding *h)
{
    fputs("\"data\": [", out);
    for (int r = 0; r < m->rows; r++) {
        fputs(r ? ", [" : "[", out);
        for (int c = 0; c < m->cols; c++) {
            if (c)
                fputs(", ", out);
            if (hidden(h, m->name, r, c))
                fputs("\"?\"", out);
            else
                jw_number(out, mat_get(m, r, c));
        }
        fputc(']', out);
    }
    fputc(']', out);
}

/* The labels of one axis of m, or null when it has none. */
static void put_labels(FILE *out, const Mat *m, int rows)
{
    int n = rows ? m->rows : m->cols, any = 0;
    for (int k = 0; k < n; k++)
        any |= (rows ? mat_row_label(m, k) : mat_col_label(m, k)) != NULL;
    if (!any) {
        fputs("null", out);
        return;
    }
    fputc('[', out);
    for (int k = 0; k < n; k++) {
        if (k)
            fputs(", ", out);
        jw_string(out, rows ? mat_row_label(m, k) : mat_col_label(m, k));
    }
    fputc(']', out);
}

/* [{"name", "heatmap", "rows", "cols", "row_labels", "col_labels",
 * "data"}, ...] of the names[0..n) that s defines; st says which are
 * heatmaps (none when NULL). */
static void put_panes(FILE *out, const LessonState *s, const char *const *names, int n, const LessonStep *st,
                      const Hiding *h)
{
    fputc('[', out);
    for (int i = 0, put = 0; i < n; i++) {
        const Mat *m = lesson_state_get(s, names[i]);
        if (!m)
            continue;
        fputs(put++ ? ",\n    {\"name\": " : "\n    {\"name\": ", out);
        jw_string(out, names[i]);
        fprintf(out, ", \"heatmap\": %s, \"rows\": %d, \"cols\": %d, \"row_labels\": ",
                st && sheet_is_heatmap(st, names[i]) ? "true" : "false", m->rows, m->cols);
        put_labels(out, m, 1);
        fputs(", \"col_labels\": ", out);
        put_labels(out, m, 0);
        fputs(", ", out);
        put_data(out, m, h);
        fputc('}', out);
    }
    fputc(']', out);
}

static void put_exercise(FILE *out, const SheetView *v, const LessonExercise *ex, int number)
{
    fprintf(out, "{\"number\": %d, \"line\": %d, \"question\": ", number, ex->line);
    jw_string(out, ex->question);
    fputs(", \"hints\": [", out);
    for (int h = 0; h < ex->n_hints; h++) {
        char *hint = sheet_text(v, ex->hints[h]);
        fputs(h ? ", " : "", out);
        jw_string(out, hint ? hint : "");
        free(hint);
    }
    fputc(']', out);
    fputs(", \"hides\": [", out);
    for (int i = 0; i < ex->n_hides; i++) {
        char cell[MAT_NAME_MAX + 32];
        snprintf(cell, sizeof cell, "%s[%d,%d]", ex->hides[i].name, ex->hides[i].row + 1, ex->hides[i].col + 1);
        fputs(i ? ", " : "", out);
        jw_string(out, cell);
    }
    fputc(']', out);
    if (v->with_answers) {
        double value;
        fputs(", \"answer\": ", out);
        jw_string(out, ex->answer);
        fputs(", \"expected\": ", out);
        if (sheet_answer_value(v->asked, ex, &value))
            jw_number(out, (float)value);
        else
            fputs("null", out);
        fputs(", \"within\": ", out);
        jw_number(out, ex->within);
    }
    fputc('}', out);
}

static void put_step(FILE *out, const Lesson *l, const SheetView *v, const LessonStep *st)
{
    const LessonState *s = v->shown;
    int with_answers = v->with_answers;
    fputs("{\"title\": ", out);
    jw_string(out, st->title);
    fputs(", \"show\": ", out);
    jw_strings(out, st->show, st->n_show);
    fputs(", \"heatmap\": ", out);
    jw_strings(out, st->heatmap, st->n_heatmap);
    fputs(",\n   \"text\": ", out);
    char *text = sheet_text(v, st->text);
    jw_string(out, text ? text : "");
    free(text);
    fputs(",\n   \"panes\": ", out);
    Hiding h = { with_answers ? NULL : st, NULL };
    put_panes(out, s, (const char *const *)st->show, st->n_show, st, &h);
    fputs(",\n   \"exercises\": [", out);
    for (int e = 0; e < st->n_exercises; e++) {
        fputs(e ? ",\n    " : "\n    ", out);
        put_exercise(out, v, &st->exercises[e], lesson_exercise_number(l, &st->exercises[e]));
    }
    fputs("]}", out);
}

/* Knob k: its value as this document was computed (after --set), the
 * lesson's own, and its range; a switch's values are 0 (off) and 1 (on). */
static void put_knob(FILE *out, const LessonState *s, const LessonKnob *k, int i)
{
    fputs(i ? ", {\"name\": " : "{\"name\": ", out);
    jw_string(out, k->name);
    fprintf(out, ", \"switch\": %s, \"value\": ", k->is_switch ? "true" : "false");
    jw_number(out, lesson_knob_now(s, k));
    const char *key[] = { ", \"default\": ", ", \"from\": ", ", \"to\": ", ", \"step\": " };
    double v[] = { k->value, k->lo, k->hi, k->step };
    for (int j = 0; j < 4; j++) {
        fputs(key[j], out);
        jw_number(out, v[j]);
    }
    fputc('}', out);
}

void json_print(FILE *out, const Lesson *l, const SheetView *v, int with_bug)
{
    const LessonState *s = v->shown;
    int with_answers = v->with_answers;
    const LessonBug *bug = with_bug ? v->bug : NULL;
    fputs("{\"lesson\": ", out);
    jw_string(out, lesson_title(l));
    fprintf(out, ", \"layout\": \"%s\",\n \"steps\": [", lesson_layout(l) == LAYOUT_ROWS ? "rows" : "columns");
    for (int k = 0; k < lesson_n_steps(l); k++) {
        fputs(k ? ",\n  " : "\n  ", out);
        put_step(out, l, v, lesson_step(l, k));
    }
    fputs("],\n \"matrices\": {", out);
    Hiding everywhere = { NULL, with_answers ? NULL : l };
    for (int i = 0; i < lesson_state_count(s); i++) {
        const Mat *m = lesson_state_at(s, i);
        fputs(i ? ",\n  " : "\n  ", out);
        jw_string(out, m->name);
        fprintf(out, ": {\"rows\": %d, \"cols\": %d, ", m->rows, m->cols);
        put_data(out, m, &everywhere);
        fputc('}', out);
    }
    fputs("},\n \"about\": ", out);
    jw_string(out, lesson_about(l));
    fputs(", \"tokens\": [", out);
    for (int i = 0; i < lesson_n_tokens(l); i++) {
        fputs(i ? ", " : "", out);
        jw_string(out, lesson_token(l, i));
    }
    fputs("], \"knobs\": [", out);
    for (int i = 0; i < lesson_n_knobs(l); i++)
        put_knob(out, s, lesson_knob(l, i), i);
    fprintf(out, "], \"answers\": %s,\n \"setup\": ", with_answers ? "true" : "false");
    int n_setup = lesson_n_setup(l);
    const char **setup = calloc(n_setup > 0 ? (size_t)n_setup : 1, sizeof *setup);
    for (int i = 0; setup && i < n_setup; i++)
        setup[i] = lesson_setup_name(l, i);
    Hiding none = { NULL, NULL };
    put_panes(out, s, setup, setup ? n_setup : 0, NULL, &none);
    free(setup);
    if (bug) {
        fprintf(out, ",\n \"bug\": {\"seed\": %u, \"step\": ", bug->seed);
        jw_string(out, lesson_step(l, bug->step) ? lesson_step(l, bug->step)->title : NULL);
        fputs(", \"matrix\": ", out);
        jw_string(out, bug->matrix);
        fputs(", \"kind\": ", out);
        jw_string(out, bug->kind);
        fputs(", \"statement\": ", out);
        jw_string(out, bug->planted);
        fputs(", \"fixed\": ", out);
        jw_string(out, bug->written);
        fputs("}", out);
    }
    fputs("}\n", out);
}
