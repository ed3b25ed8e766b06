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

/* "data": [[...], ...] of m, a hidden cell as "?". */
/* Which cells a student's sheet hides: in a step's pane, those sheet_hidden
 * keeps on that step (as the plain handout); in the set-up and in the
 * document's "matrices", those any exercise hides. */
static void put_data(JsonWriter *w, const Mat *m, const SheetHide *h)
{
    jw_inline(w, "data");
    for (int r = 0; r < m->rows; r++) {
        jw_inline(w, NULL);
        for (int c = 0; c < m->cols; c++) {
            if (sheet_hidden(h, m->name, r, c))
                jw_str(w, NULL, "?");
            else
                jw_num(w, NULL, mat_get(m, r, c), -1);
        }
        jw_close(w, ']');
    }
    jw_close(w, ']');
}

/* The labels of one axis of m under key, or null when it has none. */
static void put_labels(JsonWriter *w, const char *key, const Mat *m, int rows)
{
    int n = rows ? m->rows : m->cols, any = 0;
    for (int k = 0; k < n; k++)
        any |= (rows ? mat_row_label(m, k) : mat_col_label(m, k)) != NULL;
    if (!any) {
        jw_null(w, key);
        return;
    }
    jw_inline(w, key);
    for (int k = 0; k < n; k++)
        jw_str(w, NULL, rows ? mat_row_label(m, k) : mat_col_label(m, k));
    jw_close(w, ']');
}

/* A list of strings on one line under key. */
static void put_strings(JsonWriter *w, const char *key, char *const *names, int n)
{
    jw_inline(w, key);
    for (int i = 0; i < n; i++)
        jw_str(w, NULL, names[i]);
    jw_close(w, ']');
}

/* [{"name", "heatmap", "rows", "cols", "row_labels", "col_labels",
 * "data"}, ...] of the names[0..n) that s defines, under key; st says
 * which are heatmaps (none when NULL). */
static void put_panes(JsonWriter *w, const char *key, const LessonState *s, const char *const *names, int n,
                      const LessonStep *st, const SheetHide *h)
{
    jw_array(w, key);
    for (int i = 0; i < n; i++) {
        const Mat *m = lesson_state_get(s, names[i]);
        if (!m)
            continue;
        jw_object(w, NULL);
        jw_str(w, "name", names[i]);
        jw_bool(w, "heatmap", st && sheet_is_heatmap(st, names[i]));
        jw_int(w, "rows", m->rows);
        jw_int(w, "cols", m->cols);
        put_labels(w, "row_labels", m, 1);
        put_labels(w, "col_labels", m, 0);
        put_data(w, m, h);
        jw_close(w, '}');
    }
    jw_close(w, ']');
}

static void put_exercise(JsonWriter *w, const SheetView *v, const LessonExercise *ex, int number)
{
    jw_object(w, NULL);
    jw_int(w, "number", number);
    jw_int(w, "line", ex->line);
    jw_str(w, "question", ex->question);
    jw_inline(w, "hints");
    for (int h = 0; h < ex->n_hints; h++) {
        char *hint = sheet_text(v, ex->hints[h]);
        jw_str(w, NULL, hint ? hint : "");
        free(hint);
    }
    jw_close(w, ']');
    jw_inline(w, "hides");
    for (int i = 0; i < ex->n_hides; i++) {
        char cell[MAT_NAME_MAX + 32];
        snprintf(cell, sizeof cell, "%s[%d,%d]", ex->hides[i].name, ex->hides[i].row + 1, ex->hides[i].col + 1);
        jw_str(w, NULL, cell);
    }
    jw_close(w, ']');
    if (v->with_answers) {
        double value;
        jw_str(w, "answer", ex->answer);
        if (sheet_answer_value(v->asked, ex, &value))
            jw_num(w, "expected", (float)value, -1);
        else
            jw_null(w, "expected");
        jw_num(w, "within", ex->within, -1);
    }
    jw_close(w, '}');
}

static void put_step(JsonWriter *w, const Lesson *l, const SheetView *v, int k)
{
    const LessonStep *st = lesson_step(l, k);
    jw_object(w, NULL);
    jw_str(w, "title", st->title);
    put_strings(w, "show", st->show, st->n_show);
    put_strings(w, "heatmap", st->heatmap, st->n_heatmap);
    char *text = sheet_text(v, st->text);
    jw_newline(w);
    jw_str(w, "text", text ? text : "");
    free(text);
    SheetHide h = { v->with_answers ? NULL : l, k };
    jw_newline(w);
    put_panes(w, "panes", v->shown, (const char *const *)st->show, st->n_show, st, &h);
    jw_newline(w);
    jw_array(w, "exercises");
    for (int e = 0; e < st->n_exercises; e++)
        put_exercise(w, v, &st->exercises[e], lesson_exercise_number(l, &st->exercises[e]));
    jw_close(w, ']');
    jw_close(w, '}');
}

/* Knob k: its value as this document was computed (after --set), the
 * lesson's own, and its range; a switch's values are 0 (off) and 1 (on). */
static void put_knob(JsonWriter *w, const LessonState *s, const LessonKnob *k)
{
    jw_object(w, NULL);
    jw_str(w, "name", k->name);
    jw_bool(w, "switch", k->is_switch);
    jw_num(w, "value", lesson_knob_now(s, k), -1);
    jw_num(w, "default", k->value, -1);
    jw_num(w, "from", k->lo, -1);
    jw_num(w, "to", k->hi, -1);
    jw_num(w, "step", k->step, -1);
    jw_close(w, '}');
}

int json_print(FILE *out, const Lesson *l, const SheetView *v, int with_bug)
{
    const LessonState *s = v->shown;
    const LessonBug *bug = with_bug ? v->bug : NULL;
    JsonWriter w;
    jw_begin(&w);
    jw_str(&w, "lesson", lesson_title(l));
    jw_str(&w, "layout", lesson_layout(l) == LAYOUT_ROWS ? "rows" : "columns");
    jw_newline(&w);
    jw_array(&w, "steps");
    for (int k = 0; k < lesson_n_steps(l); k++)
        put_step(&w, l, v, k);
    jw_close(&w, ']');
    jw_newline(&w);
    jw_object_lines(&w, "matrices");
    SheetHide everywhere = { v->with_answers ? NULL : l, -1 };
    for (int i = 0; i < lesson_state_count(s); i++) {
        const Mat *m = lesson_state_at(s, i);
        jw_object(&w, m->name);
        jw_int(&w, "rows", m->rows);
        jw_int(&w, "cols", m->cols);
        put_data(&w, m, &everywhere);
        jw_close(&w, '}');
    }
    jw_close(&w, '}');
    jw_newline(&w);
    jw_str(&w, "about", lesson_about(l));
    jw_inline(&w, "tokens");
    for (int i = 0; i < lesson_n_tokens(l); i++)
        jw_str(&w, NULL, lesson_token(l, i));
    jw_close(&w, ']');
    jw_inline(&w, "knobs");
    for (int i = 0; i < lesson_n_knobs(l); i++)
        put_knob(&w, s, lesson_knob(l, i));
    jw_close(&w, ']');
    jw_bool(&w, "answers", v->with_answers);
    int n_setup = lesson_n_setup(l);
    const char **setup = calloc(n_setup > 0 ? (size_t)n_setup : 1, sizeof *setup);
    for (int i = 0; setup && i < n_setup; i++)
        setup[i] = lesson_setup_name(l, i);
    jw_newline(&w);
    put_panes(&w, "setup", s, setup, setup ? n_setup : 0, NULL, &everywhere);
    free(setup);
    if (bug) {
        jw_newline(&w);
        jw_object(&w, "bug");
        jw_int(&w, "seed", bug->seed);
        jw_str(&w, "step", lesson_step(l, bug->step) ? lesson_step(l, bug->step)->title : NULL);
        jw_str(&w, "matrix", bug->matrix);
        jw_str(&w, "kind", bug->kind);
        jw_str(&w, "statement", bug->planted);
        jw_str(&w, "fixed", bug->written);
        jw_close(&w, '}');
    }
    jw_end(&w);
    return jw_print(&w, out);
}
