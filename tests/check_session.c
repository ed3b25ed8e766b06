/*
 * check_session.c - the session model (app/session/session.c) action by
 * action, without a terminal: screens, the editable rule, edits with undo
 * and an undoable reset, answers judged by the engine's one judge, hints,
 * reveal, progress, and live reload that finds the step by its title and
 * keeps exercise states and the edits that still apply.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "session_fixtures.h"
#include "testutil.h"

static const char *lesson_text =
    "lesson Session\n"
    "let X = [ 1 2 ; 3 4 ]\n"
    "step One\n"
    "  let P = X @ X\n"
    "  show X P\n"
    "  exercise What is P[2,2]?\n"
    "    answer P[2,2] = 22\n"
    "    hint Row 2 of X times column 2 of X.\n"
    "    hint 3*2 + 4*4.\n"
    "  end\n"
    "  exercise What is P[1,1]?\n"
    "    answer P[1,1]\n"
    "  end\n"
    "step Two\n"
    "  let S = softmax_rows(P)\n"
    "  show S\n"
    "  exercise What is S[1,1] + S[1,2]?\n"
    "    answer S[1,1] + S[1,2] within 0.01\n"
    "  end\n";

START_TEST(screens_count_the_setup_screen)
{
    Session *s = session_of_text(lesson_text, "session.lesson");
    ck_assert_int_eq(session_n_screens(s), 3);
    ck_assert_int_eq(session_has_setup(s), 1);
    ck_assert_ptr_null(session_step(s));
    ck_assert_uint_eq(session_go(s, 2), SESSION_SCREEN);
    ck_assert_str_eq(session_step(s)->title, "Two");
    ck_assert_uint_eq(session_go(s, 9), SESSION_NOTHING);   /* clamped to 2: already there */
    ck_assert_uint_eq(session_go(s, -4), SESSION_SCREEN);
    ck_assert_int_eq(session_screen(s), 0);
    session_free(s);
}
END_TEST

START_TEST(only_input_cells_are_editable)
{
    Session *s = session_of_text(lesson_text, "session.lesson");
    char why[200];
    ck_assert(session_editable(session_state(s), "X", 1, 1, why, sizeof why));
    ck_assert(!session_editable(session_state(s), "P", 0, 0, why, sizeof why));
    ck_assert_str_eq(why, "P is computed (@): edit one of its inputs, and it follows");
    ck_assert(!session_editable(session_state(s), "X", 2, 0, why, sizeof why));
    ck_assert_str_eq(why, "X has no cell [3,1]: it is 2x2");
    ck_assert(!session_editable(session_state(s), "Nope", 0, 0, why, sizeof why));
    ck_assert_str_eq(why, "there is no matrix Nope to edit");
    ck_assert_uint_eq(session_edit(s, "P", 0, 0, 5), SESSION_REFUSED);
    ck_assert_int_eq(session_n_edits(s), 0);
    session_free(s);
}
END_TEST

START_TEST(an_edit_flows_downstream_and_undo_takes_it_back)
{
    Session *s = session_of_text(lesson_text, "session.lesson");
    ck_assert_float_eq(session_cell(s, "P", 1, 1), 22);
    ck_assert_uint_eq(session_edit(s, "X", 1, 1, 5), SESSION_VALUES);
    ck_assert_str_eq(session_message(s), "X[2,2] = 5; everything after it follows");
    ck_assert_float_eq(session_cell(s, "P", 1, 1), 31);     /* 3*2 + 5*5 */
    ck_assert(session_is_edited(s, "X", 1, 1));
    ck_assert(!session_is_edited(s, "X", 0, 0));
    /* an expression as the value */
    ck_assert_uint_eq(session_edit_text(s, "X", 0, 0, "X[2,2] * 2"), SESSION_VALUES);
    ck_assert_float_eq(session_cell(s, "X", 0, 0), 10);
    ck_assert_uint_eq(session_edit_text(s, "X", 0, 0, "abc"), SESSION_REFUSED);
    ck_assert_msg(strncmp(session_message(s), "'abc' is not a number: ", 23) == 0, "%s", session_message(s));
    ck_assert_int_eq(session_n_edits(s), 2);
    ck_assert_uint_eq(session_undo(s), SESSION_VALUES);
    ck_assert_str_eq(session_message(s), "undone: X[1,1]");
    ck_assert_float_eq(session_cell(s, "X", 0, 0), 1);
    ck_assert_uint_eq(session_undo(s), SESSION_VALUES);
    ck_assert_float_eq(session_cell(s, "P", 1, 1), 22);
    ck_assert_uint_eq(session_undo(s), SESSION_REFUSED);
    ck_assert_str_eq(session_message(s), "no edits to undo");
    session_free(s);
}
END_TEST

START_TEST(a_reset_can_be_undone)
{
    Session *s = session_of_text(lesson_text, "session.lesson");
    session_edit(s, "X", 0, 0, 7);
    session_edit(s, "X", 0, 1, 8);
    ck_assert_uint_eq(session_reset(s), SESSION_VALUES);
    ck_assert_str_eq(session_message(s), "2 edits reset: the lesson's own values again");
    ck_assert_int_eq(session_n_edits(s), 0);
    ck_assert_float_eq(session_cell(s, "X", 0, 0), 1);
    ck_assert_uint_eq(session_reset(s), SESSION_REFUSED);
    ck_assert_uint_eq(session_undo(s), SESSION_VALUES);
    ck_assert_str_eq(session_message(s), "the reset undone: 2 edits back");
    ck_assert_int_eq(session_n_edits(s), 2);
    ck_assert_float_eq(session_cell(s, "X", 0, 0), 7);
    ck_assert_float_eq(session_cell(s, "X", 0, 1), 8);
    /* and then each edit, one by one */
    session_undo(s);
    ck_assert_float_eq(session_cell(s, "X", 0, 1), 2);
    ck_assert_float_eq(session_cell(s, "X", 0, 0), 7);
    session_free(s);
}
END_TEST

START_TEST(answers_are_judged_and_remembered_across_steps)
{
    Session *s = session_of_text(lesson_text, "session.lesson");
    ck_assert_uint_eq(session_answer(s, 0, "22"), SESSION_REFUSED);   /* the set-up screen has none */
    ck_assert_str_eq(session_message(s), "no exercise on this step");
    session_go(s, 1);
    ck_assert_int_eq(session_n_exercises(s), 2);
    ck_assert_int_eq(session_exercise_state(s, 0)->status, EX_UNANSWERED);
    ck_assert_uint_eq(session_answer(s, 0, "21"), SESSION_EXERCISE);
    const ExerciseState *e = session_exercise_state(s, 0);
    ck_assert_int_eq(e->status, EX_TRIED);
    ck_assert_int_eq(e->judged.verdict, VERDICT_WRONG);
    ck_assert_double_eq(e->judged.want, 22);
    ck_assert_int_eq(e->attempts, 1);
    ck_assert_uint_eq(session_answer(s, 0, "what"), SESSION_REFUSED);
    ck_assert_int_eq(e->attempts, 1);       /* unreadable: not an attempt */
    ck_assert_int_eq(e->judged.verdict, VERDICT_WRONG);     /* and the verdict kept is the last judged */
    ck_assert_uint_eq(session_answer(s, 0, "P[2,2]"), SESSION_REFUSED);  /* a name */
    ck_assert_uint_eq(session_answer(s, 0, "3*2 + 4*4"), SESSION_EXERCISE);
    ck_assert_int_eq(e->status, EX_RIGHT);
    ck_assert_int_eq(e->attempts, 2);
    ck_assert_str_eq(e->last, "3*2 + 4*4");
    /* hints */
    ck_assert_uint_eq(session_hint(s, 0), SESSION_EXERCISE);
    ck_assert_uint_eq(session_hint(s, 0), SESSION_EXERCISE);
    ck_assert_uint_eq(session_hint(s, 0), SESSION_REFUSED);
    ck_assert_str_eq(session_message(s), "no more hints");
    ck_assert_uint_eq(session_hint(s, 1), SESSION_REFUSED);
    ck_assert_str_eq(session_message(s), "this exercise has no hints");
    /* reveal: the one rule of it is the session's */
    ck_assert_int_eq(session_reveal_offer(s, 0), REVEAL_SOLVED);
    ck_assert_uint_eq(session_reveal(s, 0), SESSION_REFUSED);
    ck_assert_int_eq(session_reveal_offer(s, 1), REVEAL_OFFERED);
    ck_assert_uint_eq(session_reveal(s, 1), SESSION_EXERCISE);
    ck_assert_int_eq(session_reveal_offer(s, 1), REVEAL_SHOWN);
    ck_assert_int_eq(session_reveal_offer(s, 7), REVEAL_NO_EXERCISE);
    ck_assert_uint_eq(session_hint(s, 1), SESSION_REFUSED);
    ck_assert_str_eq(session_message(s), "the worked answer is shown");
    session_answer(s, 1, "7");
    ck_assert_int_eq(session_exercise_state(s, 1)->status, EX_REVEALED);
    /* away and back: nothing is lost */
    session_go(s, 2);
    session_go(s, 1);
    ck_assert_int_eq(session_exercise_state(s, 0)->status, EX_RIGHT);
    ck_assert_int_eq(session_exercise_state(s, 0)->hints_shown, 2);
    int solved, total;
    session_progress(s, &solved, &total);
    ck_assert_int_eq(solved, 1);
    ck_assert_int_eq(total, 3);
    session_free(s);
}
END_TEST

/* An exercise asks about the lesson as written: edits and knobs change what
 * the screen shows, never the value asked nor a verdict given. */
START_TEST(verdicts_stand_whatever_is_edited)
{
    Session *s = session_of_text(lesson_text, "session.lesson");
    session_go(s, 1);
    session_edit(s, "X", 1, 1, 5);
    /* 31 is the value with the edit: named as such, and wrong */
    session_answer(s, 0, "31");
    const ExerciseState *e = session_exercise_state(s, 0);
    ck_assert_int_eq(e->status, EX_TRIED);
    ck_assert_str_eq(e->judged.diagnosis, "edited");
    ck_assert_str_eq(e->judged.msg,
                     "that is the value with your edits; the exercise asks about the lesson's own numbers");
    /* the lesson's own value is right, edits or not */
    session_answer(s, 0, "22");
    ck_assert_int_eq(e->status, EX_RIGHT);
    ck_assert_int_eq(e->judged.verdict, VERDICT_RIGHT);
    /* undo, reset and new edits change no verdict */
    session_undo(s);
    ck_assert_int_eq(e->status, EX_RIGHT);
    session_edit(s, "X", 1, 1, 6);
    session_reset(s);
    ck_assert_int_eq(e->status, EX_RIGHT);
    ck_assert_int_eq(e->judged.verdict, VERDICT_RIGHT);
    /* a wrong answer after a right one is said, and the exercise stays solved */
    session_answer(s, 0, "23");
    ck_assert_int_eq(e->judged.verdict, VERDICT_WRONG);
    ck_assert_int_eq(e->status, EX_RIGHT);
    ck_assert_int_eq(e->n_history, 3);
    ck_assert_str_eq(e->history[0].typed, "31");
    ck_assert_int_eq(e->history[0].verdict, VERDICT_WRONG);
    ck_assert_str_eq(e->history[0].diagnosis, "edited");
    ck_assert_int_eq(e->history[1].verdict, VERDICT_RIGHT);
    session_free(s);
}
END_TEST

START_TEST(an_open_exercise_hides_its_cell)
{
    Session *s = session_of_text(lesson_text, "session.lesson");
    ck_assert(session_cell_hidden(s, 0, "P", 1, 1));       /* the set-up keeps what the steps ask */
    ck_assert(!session_cell_hidden(s, 0, "P", 0, 1));
    /* which exercise keeps it, by the screen's number, and on which step
     * (the screen names it: the one answered may not be the one hiding) */
    ck_assert_int_eq(session_cell_hidden(s, 0, "P", 1, 1), 1);
    ck_assert_int_eq(session_cell_hidden(s, 0, "P", 0, 0), 2);
    ck_assert_int_eq(lesson_exercise_step(session_lesson(s), 0), 0);
    ck_assert_int_eq(lesson_exercise_step(session_lesson(s), 1), 0);
    ck_assert_int_eq(lesson_exercise_step(session_lesson(s), 2), 1);
    ck_assert_int_eq(lesson_exercise_step(session_lesson(s), 3), -1);
    session_go(s, 1);
    ck_assert(session_cell_hidden(s, 0, "P", 1, 1));
    ck_assert(session_cell_hidden(s, 0, "P", 0, 0));
    ck_assert(!session_cell_hidden(s, 0, "P", 0, 1));
    ck_assert(!session_cell_hidden(s, 0, "X", 1, 1));
    session_answer(s, 0, "21");                        /* tried: still hidden */
    ck_assert(session_cell_hidden(s, 0, "P", 1, 1));
    session_answer(s, 0, "22");
    ck_assert(!session_cell_hidden(s, 0, "P", 1, 1));
    session_reveal(s, 1);
    ck_assert(!session_cell_hidden(s, 0, "P", 0, 0));
    session_free(s);
}
END_TEST

/* An exercise passed over (x: the next one asked) stops hiding its cell,
 * as the next exercise may need it; the one asked and those after it
 * still hide theirs. */
START_TEST(a_passed_exercise_hides_nothing)
{
    Session *s = session_of_text(lesson_text, "session.lesson");
    session_go(s, 1);
    session_answer(s, 0, "21");                        /* tried, then passed over */
    ck_assert(session_cell_hidden(s, 0, "P", 1, 1));
    ck_assert(!session_cell_hidden(s, 1, "P", 1, 1));
    ck_assert(session_cell_hidden(s, 1, "P", 0, 0));   /* the one asked now */
    ck_assert(session_cell_hidden(s, 0, "P", 0, 0));   /* ahead of the one asked */
    session_free(s);
}
END_TEST

/* The one judge: equal infinities and two NaNs agree, one NaN or infinity
 * against anything else is infinitely far. */
START_TEST(the_judge_treats_nan_and_infinity_one_way)
{
    ck_assert_double_eq(lesson_judge_distance(1.5, 1.25), 0.25);
    ck_assert_double_eq(lesson_judge_distance(INFINITY, INFINITY), 0);
    ck_assert_double_eq(lesson_judge_distance(-INFINITY, -INFINITY), 0);
    ck_assert(isinf(lesson_judge_distance(INFINITY, -INFINITY)));
    ck_assert_double_eq(lesson_judge_distance(NAN, NAN), 0);
    ck_assert(isinf(lesson_judge_distance(NAN, 0)));
    ck_assert(isinf(lesson_judge_distance(1e30, INFINITY)));
}
END_TEST

START_TEST(a_student_may_answer_minus_infinity)
{
    const char *text = "lesson Inf\nlet M = [ 0 -inf ]\nstep S\n  show M\n  exercise What is M[1,2]?\n"
                       "    answer M[1,2]\n  end\n";
    Session *s = session_of_text(text, "session.lesson");
    session_go(s, 1);
    session_answer(s, 0, "-inf");
    ck_assert_int_eq(session_exercise_state(s, 0)->status, EX_RIGHT);
    session_free(s);
}
END_TEST

START_TEST(reload_finds_the_step_by_title_and_keeps_what_was_done)
{
    const char *path = write_temp(".lesson", lesson_text);
    ck_assert_ptr_nonnull(path);
    char file[512];
    snprintf(file, sizeof file, "%s", path);
    LessonError err;
    Session *s = session_open(file, &err);
    ck_assert_ptr_nonnull(s);
    session_go(s, 1);
    session_edit(s, "X", 1, 1, 5);
    session_answer(s, 0, "22");     /* asked of the lesson as written */
    session_hint(s, 0);
    ck_assert_uint_eq(session_reload(s, 0), SESSION_NOTHING);     /* unchanged */
    /* a new step before "One": "One" is screen 2 now */
    char *text = malloc(strlen(lesson_text) + 64);
    const char *at = strstr(lesson_text, "step One");
    sprintf(text, "%.*sstep Zero\n  show X\n%s", (int)(at - lesson_text), lesson_text, at);
    write_text_file(file, text);
    unsigned c = session_reload(s, 1);
    ck_assert_uint_eq(c & SESSION_LESSON, SESSION_LESSON);
    ck_assert_int_eq(session_screen(s), 2);
    ck_assert_str_eq(session_step(s)->title, "One");
    ck_assert_int_eq(session_exercise_state(s, 0)->status, EX_RIGHT);
    ck_assert_int_eq(session_exercise_state(s, 0)->hints_shown, 1);
    ck_assert_int_eq(session_n_edits(s), 1);
    ck_assert_float_eq(session_cell(s, "P", 1, 1), 31);
    ck_assert_ptr_null(session_reload_error(s));
    /* a broken save: everything stays, the error is kept */
    write_text_file(file, "lesson Broken\nlet X = [ 1 2\n");
    c = session_reload(s, 1);
    ck_assert_uint_eq(c, SESSION_RELOAD_FAILED);
    ck_assert_ptr_nonnull(session_reload_error(s));
    ck_assert_msg(strstr(session_reload_error(s), ":2:"), "%s", session_reload_error(s));
    ck_assert_str_eq(session_step(s)->title, "One");
    ck_assert_float_eq(session_cell(s, "P", 1, 1), 31);
    /* X becomes computed: the edit is dropped and said so */
    write_text_file(file, "lesson Computed\nlet Y = [ 1 2 ; 3 4 ]\nstep One\n  let X = Y * 1\n  let P = X @ X\n"
                     "  show X P\n");
    c = session_reload(s, 1);
    ck_assert_uint_eq(c & SESSION_LESSON, SESSION_LESSON);
    ck_assert_int_eq(session_reload_dropped(s), 1);
    ck_assert_int_eq(session_n_edits(s), 0);
    ck_assert_msg(strstr(session_message(s), "1 edit dropped"), "%s", session_message(s));
    ck_assert_ptr_null(session_reload_error(s));
    free(text);
    session_free(s);
}
END_TEST

/* A class closing an exercise gives its value: unsolved, it is revealed
 * and its cells show; solved, it stays solved. */
START_TEST(a_closed_exercise_gives_its_value)
{
    Session *s = session_of_text(lesson_text, "session.lesson");
    session_go(s, 1);
    ck_assert(session_cell_hidden(s, 0, "P", 1, 1));
    ck_assert_uint_eq(session_close_number(s, 1), SESSION_EXERCISE);
    ck_assert_int_eq(session_exercise_state(s, 0)->status, EX_REVEALED);
    ck_assert(!session_cell_hidden(s, 0, "P", 1, 1));
    session_answer(s, 1, "7");
    ck_assert_uint_eq(session_close_number(s, 2), 0);
    ck_assert_int_eq(session_exercise_state(s, 1)->status, EX_RIGHT);
    ck_assert_uint_eq(session_close_number(s, 99), 0);
    session_free(s);
}
END_TEST

Suite *session_suite(void)
{
    Suite *s = suite_create("session");
    TCase *c = tcase_create("core");
    tcase_add_test(c, screens_count_the_setup_screen);
    tcase_add_test(c, only_input_cells_are_editable);
    tcase_add_test(c, an_edit_flows_downstream_and_undo_takes_it_back);
    tcase_add_test(c, a_reset_can_be_undone);
    tcase_add_test(c, answers_are_judged_and_remembered_across_steps);
    tcase_add_test(c, verdicts_stand_whatever_is_edited);
    tcase_add_test(c, an_open_exercise_hides_its_cell);
    tcase_add_test(c, a_closed_exercise_gives_its_value);
    tcase_add_test(c, a_passed_exercise_hides_nothing);
    tcase_add_test(c, the_judge_treats_nan_and_infinity_one_way);
    tcase_add_test(c, a_student_may_answer_minus_infinity);
    tcase_add_test(c, reload_finds_the_step_by_title_and_keeps_what_was_done);
    suite_add_tcase(s, c);
    return s;
}
