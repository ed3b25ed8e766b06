/*
 * lesson_access.c - a parsed Lesson's accessors (lesson.h) and its
 * release.
 */
#include "alloc.h"
#include "lesson_parse_state.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void free_strings(char **a, int n)
{
    for (int i = 0; i < n; i++)
        free(a[i]);
    free(a);
}

void lesson_free(Lesson *l)
{
    if (!l)
        return;
    for (int i = 0; i < l->n_steps; i++) {
        LessonStep *st = &l->steps[i];
        free(st->title);
        free(st->text);
        free_strings(st->show, st->n_show);
        free_strings(st->heatmap, st->n_heatmap);
        free_strings(st->defines, st->n_defines);
        for (int j = 0; j < st->n_exercises; j++) {
            free(st->exercises[j].question);
            free(st->exercises[j].answer);
            LessonExercise *ex = &st->exercises[j];
            free_strings(ex->hints, ex->n_hints);
            free(ex->hides);
            for (int k = 0; k < ex->n_mistakes; k++) {
                free(ex->mistakes[k].expr);
                free(ex->mistakes[k].message);
                expr_free(ex->mistakes[k].parsed);
            }
            free(ex->mistakes);
        }
        free(st->exercises);
    }
    free(l->steps);
    for (int i = 0; i < l->n_stmts; i++)
        expr_free(l->stmts[i].expr);
    free(l->stmts);
    for (int i = 0; i < l->n_labels; i++)
        free_strings(l->labels[i].names, l->labels[i].n);
    free(l->labels);
    for (int i = 0; i < l->n_items; i++) {
        expr_free(l->items[i].lhs);
        expr_free(l->items[i].rhs);
        free(l->items[i].what);
    }
    free(l->items);
    free(l->knobs);
    free_strings(l->names, l->n_names);
    free(l->name_lines);
    free(l->setup);
    free_strings(l->tokens, l->n_tokens);
    free(l->title);
    free(l->about);
    free(l->text);
    free(l->file);
    free(l);
}

const char *lesson_title(const Lesson *l) { return l->title; }
const char *lesson_about(const Lesson *l) { return l->about ? l->about : ""; }
const char *lesson_file(const Lesson *l) { return l->file; }

const char *lesson_source(const Lesson *l, size_t *len)
{
    *len = l->src.len;
    return l->src.text;
}
LessonLayout lesson_layout(const Lesson *l) { return l->layout; }
int lesson_n_tokens(const Lesson *l) { return l->n_tokens; }
const char *lesson_token(const Lesson *l, int i) { return i >= 0 && i < l->n_tokens ? l->tokens[i] : NULL; }
int lesson_n_steps(const Lesson *l) { return l->n_steps; }
const LessonStep *lesson_step(const Lesson *l, int i) { return i >= 0 && i < l->n_steps ? &l->steps[i] : NULL; }
int lesson_n_setup(const Lesson *l) { return l->n_setup; }
const char *lesson_setup_name(const Lesson *l, int i) { return i >= 0 && i < l->n_setup ? l->setup[i] : NULL; }

int lesson_n_exercises(const Lesson *l)
{
    int n = 0;
    for (int i = 0; i < l->n_steps; i++)
        n += l->steps[i].n_exercises;
    return n;
}

const LessonExercise *lesson_exercise_at(const Lesson *l, int i)
{
    int k = lesson_exercise_step(l, i);
    if (k < 0)
        return NULL;
    for (int j = 0; j < k; j++)
        i -= l->steps[j].n_exercises;
    return &l->steps[k].exercises[i];
}

int lesson_exercise_step(const Lesson *l, int i)
{
    for (int k = 0; i >= 0 && k < l->n_steps; k++) {
        if (i < l->steps[k].n_exercises)
            return k;
        i -= l->steps[k].n_exercises;
    }
    return -1;
}

int lesson_hidden_from(const Lesson *l, int first, const char *name, int row, int col)
{
    for (int i = first < 0 ? 0 : first; i < lesson_n_exercises(l); i++)
        if (lesson_exercise_hides(lesson_exercise_at(l, i), name, row, col))
            return 1;
    return 0;
}

int lesson_exercise_number(const Lesson *l, const LessonExercise *ex)
{
    for (int k = 0, n = 0; k < l->n_steps; n += l->steps[k].n_exercises, k++) {
        const LessonStep *st = &l->steps[k];
        if (st->n_exercises > 0 && ex >= st->exercises && ex < st->exercises + st->n_exercises)
            return n + (int)(ex - st->exercises) + 1;
    }
    return 0;
}

int lesson_answer_cell(const LessonExercise *ex, LessonCell *cell)
{
    if (!ex->has_cell)
        return 0;
    *cell = ex->cell;
    return 1;
}

int lesson_n_knobs(const Lesson *l) { return l->n_knobs; }
const LessonKnob *lesson_knob(const Lesson *l, int i) { return i >= 0 && i < l->n_knobs ? &l->knobs[i] : NULL; }

int lesson_knob_find(const Lesson *l, const char *name)
{
    for (int i = 0; name && i < l->n_knobs; i++)
        if (strcmp(l->knobs[i].name, name) == 0)
            return i;
    return -1;
}

int lesson_depends_on(const Lesson *l, const char *name, const char *on)
{
    if (!name || !on)
        return 0;
    int want = lesson_find_name(l, name, strlen(name)), from = lesson_find_name(l, on, strlen(on));
    if (want < 0 || from < 0)
        return 0;
    if (want == from)
        return 1;
    unsigned char *reached = attn_calloc((size_t)l->n_names, 1);
    unsigned char *used = attn_calloc((size_t)l->n_names, 1);
    int yes = 0;
    if (!reached || !used) {
        yes = 1;    /* without memory, say yes: a knob offered too often beats one missing */
        goto done;
    }
    reached[from] = 1;
    /* Statements run in order and a name is defined once, so one pass
     * carries the dependence as far as it goes. */
    for (int i = 0; i < l->n_stmts && !reached[want]; i++) {
        const Stmt *st = &l->stmts[i];
        if (st->kind != ST_LET || reached[st->slot])
            continue;
        memset(used, 0, (size_t)l->n_names);
        expr_mark_slots(st->expr, used);
        for (int k = 0; k < l->n_names; k++)
            if (used[k] && reached[k]) {
                reached[st->slot] = 1;
                break;
            }
    }
    yes = reached[want];
done:
    free(reached);
    free(used);
    return yes;
}

double lesson_knob_snap(const LessonKnob *k, double v)
{
    if (isnan(v))
        return k->value;
    double steps = floor((k->hi - k->lo) / k->step + 1e-9);
    double n = floor((v - k->lo) / k->step + 0.5 + 1e-9);    /* a half step rounds up, 2.05 too */
    n = n < 0 ? 0 : n > steps ? steps : n;
    /* rounded to the step's own precision, so 0.1 steps give 0.3, not 0.30000000000000004 */
    double snapped = k->lo + n * k->step;
    double unit = pow(10.0, floor(log10(k->step)) - 6);
    snapped = round(snapped / unit) * unit;
    return snapped > k->hi ? k->hi : snapped;
}

double lesson_knob_now(const LessonState *s, const LessonKnob *k)
{
    const Mat *m = s && k ? lesson_state_get(s, k->name) : NULL;
    return m ? (double)mat_get(m, 0, 0) : NAN;
}

const char *lesson_knob_text(const LessonKnob *k, double v, char *buf, size_t size)
{
    if (k->is_switch)
        snprintf(buf, size, "%s", v != 0 ? "on" : "off");
    else
        snprintf(buf, size, "%g", v);
    return buf;
}
