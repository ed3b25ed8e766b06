/*
 * tui_exercise.c - the lesson screen's exercise area, built once per frame
 * with each line's role (so its colour comes from what the line is, never
 * from reading the text back): the step's exercise as it stands (its
 * question, the hints shown, the worked answer once revealed, the verdict
 * as the session keeps it), or in a bug hunt the hunt (tui_bug.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "text.h"
#include "tui_bug.h"
#include "tui_exercise.h"
#include "tui_put.h"
#include "tui_lesson.h"

/* The worked answer of a revealed exercise: the value, and the arithmetic
 * of its cell when the answer is one cell. */
static size_t worked_answer(const TuiTerm *term, const LessonScreen *ls, const LessonExercise *ex, char *raw, size_t len, size_t size)
{
    const LessonView *lv = &ls->lv;
    /* what the exercise asks: the lesson as written, whatever the knobs */
    const LessonState *st = session_asked_state(lv->ses);
    LessonError err;
    Mat *v = lesson_eval_expr(st, ex->answer, &err);
    char num[48] = "?";
    if (v && v->rows == 1 && v->cols == 1)
        num_format(num, sizeof num, mat_get(v, 0, 0), num_decimals_for(ex->within, lv->decimals), term->utf8);
    mat_free(v);
    len += (size_t)snprintf(raw + len, size - len, "  Answer (revealed): %s = %s\n", ex->answer, num);
    LessonCell cell;
    const Mat *m = lesson_answer_cell(ex, &cell) ? lesson_state_get(st, cell.name) : NULL;
    Explanation e;
    memset(&e, 0, sizeof e);
    AttnError aerr;
    attn_error_clear(&aerr);
    if (m && len < size && explain_cell_digits(&e, m, cell.row, cell.col, lv->decimals, &aerr) == ATTN_OK && e.text) {
        char line[1024];
        for (const char *q = e.text; (q = text_line(q, line, sizeof line)) && len < size;)
            len += (size_t)snprintf(raw + len, size - len, "    %s\n", line);
    }
    explain_free(&e);
    return len < size ? len : size - 1;
}

int lv_exercise_lines(const TuiTerm *term, const LessonScreen *ls, char *buf, size_t size, int width, unsigned char *roles)
{
    const LessonView *lv = &ls->lv;
    const LessonStep *st = session_step(lv->ses);
    buf[0] = '\0';
    ExLines x = { buf, size, 0, 0, roles, width };
    if (session_bug(lv->ses))
        return bug_exercise_lines(term, ls, &x);
    if (!st || st->n_exercises == 0)
        return 0;
    const LessonExercise *ex = &st->exercises[lv->ex_index];
    const ExerciseState *es = session_exercise_state(lv->ses, lv->ex_index);
    const char *mark = es->status == EX_RIGHT ? ui_glyph(&term->cv, " ✓", " (done)")
                     : es->status == EX_REVEALED ? " (revealed)" : "";
    char of[32] = "";
    if (st->n_exercises > 1)
        snprintf(of, sizeof of, " (%d/%d)", lv->ex_index + 1, st->n_exercises);
    ex_add(&x, EXL_TITLE, "Exercise %d%s%s: %s", session_exercise_number(lv->ses, lv->ex_index), of, mark,
           ex->question);
    char note[300];
    if (session_asked_note(lv->ses, lv->ex_index, note, sizeof note))
        ex_add(&x, EXL_NOTE, "  (%s)", note);
    for (int h = 0; h < es->hints_shown && h < ex->n_hints; h++)
        ex_add(&x, EXL_HINT, "  Hint %d: %s", h + 1, ex->hints[h]);
    if (es->status == EX_REVEALED) {
        char worked[4096];
        worked[0] = '\0';
        worked_answer(term, ls, ex, worked, 0, sizeof worked);
        char line[1024];
        for (const char *q = worked; (q = text_line(q, line, sizeof line));)
            ex_add(&x, EXL_HINT, "%s", line);
    }
    /* the verdict as the session keeps it (and saved it), or in its place
     * what could not be judged, not a number: the latest thing done */
    const Judgement *j = &es->judged;
    if (lv->feedback[0]) {
        ex_add(&x, EXL_WRONG, "  %s", lv->feedback);
    } else if (j->verdict == VERDICT_RIGHT || j->verdict == VERDICT_REVEALED) {
        ex_add(&x, EXL_RIGHT, "  %s %s: %s", ui_glyph(&term->cv, "✓", "OK"), es->last, j->msg);
    } else if (j->verdict == VERDICT_WRONG) {
        const char *more = es->status == EX_REVEALED ? ""
                         : es->hints_shown < ex->n_hints ? " (i: a hint)" : " (v: the worked answer)";
        ex_add(&x, EXL_WRONG, "  %s %s: %s.%s", ui_glyph(&term->cv, "✗", "X"), es->last, j->msg, more);
    }
    return x.n;
}
