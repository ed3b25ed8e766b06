/*
 * tui_class.c - class mode on the screen. The instructor's (`attn
 * --class`): the presenter's lesson screen with a class server (app/class)
 * beside the keyboard in one poll, the join line and the roll on the
 * bottom row, the open exercise's tally, and its spread of diagnoses when
 * S reveals it; X closes the question; names are never drawn. A
 * student's (`attn join` on a terminal): the lesson the class sent, the
 * screen following the instructor's step (moving away looks around, f
 * follows again), an answer to the open exercise sent once it is judged
 * here, and the class's end said while the student's progress stays.
 */
#include <curses.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "class_client.h"
#include "class_server.h"
#include "lesson.h"
#include "teach.h"
#include "session.h"
#include "session_exercises.h"
#include "tui_class.h"
#include "tui_put.h"
#include "tui_chrome.h"
#include "tui_lesson.h"
#include "tui_screen.h"
#include "tui_state.h"

#define POLL_MS 200     /* as the plain loop's getch timeout */
#define TALLY_MS 100    /* the tally redrawn at most this often: keys first */
#define PUMP_MS 2       /* the class served this long, then the keyboard again */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The screen of step n as the handout numbers steps (0: the set-up). */
static int screen_of_step(Tui *t, int n)
{
    int screen = n - 1 + session_has_setup(t->lv.ses);
    return screen < 0 ? 0 : screen;
}

/* Where the class is, on the screen when it follows. */
static void follow(Tui *t)
{
    if (!t->class_follow || !t->lv.ses)
        return;
    int screen = screen_of_step(t, t->class_step);
    if (session_screen(t->lv.ses) != screen)
        lv_go(t, screen);
    for (int k = 0; t->class_open > 0 && k < session_n_exercises(t->lv.ses); k++)
        if (session_exercise_number(t->lv.ses, k) == t->class_open)
            t->lv.ex_index = k;
}

/* What the class said since the last look. */
static void student_messages(Tui *t)
{
    ClientMsg m;
    for (;;) {
        class_client_next(t->student, &m);
        switch (m.what) {
        case CLIENT_NOTHING:
        case CLIENT_READY:
            return;
        case CLIENT_STEP:
            t->class_step = (int)m.n;
            snprintf(t->class_title, sizeof t->class_title, "%.255s", m.text);
            break;
        case CLIENT_EXERCISE:
            t->class_open = (int)m.n;
            t->class_sent = -1;     /* what is there already was not an answer to the class */
            break;
        case CLIENT_CLOSED:
            if (t->class_open == m.n)
                t->class_open = 0;
            break;
        case CLIENT_ENDED:
        case CLIENT_REFUSED:
        case CLIENT_LOST:
            tui_message(t, 0, "%s; your answers stay in your progress", m.what == CLIENT_ENDED
                                  ? "the class ended" : m.text);
            t->class_ended = 1;
            t->class_open = 0;
            class_client_free(t->student);
            t->student = NULL;
            t->class_dirty = 1;
            return;
        }
        follow(t);
        t->class_dirty = 1;
    }
}

int tui_class_next_key(Tui *t)
{
    /* a key curses already holds (the rest of an escape sequence) first */
    int ch = getch();
    if (ch != ERR)
        return ch;
    static struct pollfd fds[1 + CLASS_POLL_MAX];
    fds[0] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
    if (t->student) {
        student_messages(t);    /* what the last read brought first */
        if (t->class_dirty || !t->student)
            return ERR;
        fds[1] = (struct pollfd){ .fd = class_client_fd(t->student), .events = POLLIN };
        int ready = poll(fds, 2, POLL_MS);
        if (ready > 0 && fds[0].revents && (ch = getch()) != ERR)
            return ch;
        if (ready > 0 && fds[1].revents)
            class_client_read(t->student);
        return ERR;
    }
    int n = 1 + class_server_fds(t->cls, fds + 1, CLASS_POLL_MAX);
    double now = now_ms();
    int wait = t->class_pending ? (int)(TALLY_MS - (now - t->class_drawn_at)) : POLL_MS;
    int ready = poll(fds, (nfds_t)n, wait < 0 ? 0 : wait);
    /* the instructor's key before any student's message */
    if (ready > 0 && fds[0].revents && (ch = getch()) != ERR)
        return ch;
    if (class_server_pump(t->cls, fds + 1, ready > 0 ? n - 1 : 0, PUMP_MS))
        t->class_pending = 1;
    /* the room's numbers change with every answer: redrawn TALLY_MS apart */
    now = now_ms();
    if (t->class_pending && now - t->class_drawn_at >= TALLY_MS) {
        t->class_dirty = 1;
        t->class_pending = 0;
        t->class_drawn_at = now;
    }
    return ERR;
}

int tui_class_sync(Tui *t)
{
    Session *ses = t->lv.ses;
    if (!t->cls || !ses)
        return 0;
    const LessonStep *st = session_step(ses);
    int n_steps = lesson_n_steps(session_lesson(ses));
    int k = st && session_n_exercises(ses) > 0 ? session_exercise_number(ses, t->lv.ex_index) : 0;
    if (t->class_closed == k && k > 0)
        k = 0;          /* closed by X: stays closed while it is shown */
    else if (t->class_closed != k)
        t->class_closed = 0;
    if (!class_server_show(t->cls, session_step_number(ses), n_steps, st ? st->title : "Set-up", k))
        return 0;
    /* another question: its own tally, and its spread hidden until S */
    t->class_reveal = 0;
    return 1;
}

void tui_class_lesson_changed(Tui *t)
{
    if (!t->cls || !t->lv.ses)
        return;
    char why[1200];
    const char *file = lesson_file(session_lesson(t->lv.ses));
    if (class_server_reload(t->cls, file, why, sizeof why) != 0) {
        tui_message(t, 1, "the class keeps the lesson as it was: %.200s", why);
        return;
    }
    t->class_closed = 0;
    t->class_reveal = 0;
    tui_class_sync(t);
    t->class_dirty = 1;
}

void tui_class_student_after_key(Tui *t)
{
    Session *ses = t->lv.ses;
    if (!t->student || !ses)
        return;
    /* looking around: the screen left the class's step */
    if (session_screen(ses) != screen_of_step(t, t->class_step))
        t->class_follow = 0;
    /* an answer to the open exercise, judged here, goes to the class */
    for (int k = 0; t->class_open > 0 && k < session_n_exercises(ses); k++) {
        if (session_exercise_number(ses, k) != t->class_open)
            continue;
        const ExerciseState *es = session_exercise_state(ses, k);
        if (t->class_sent < 0)
            t->class_sent = es->attempts;
        else if (es->attempts > t->class_sent) {
            t->class_sent = es->attempts;
            class_client_answer(t->student, t->class_open, es->last, t->lv.decimals_shown);
        }
    }
}

int tui_class_key(Tui *t, int ch)
{
    /* a key typed into an answer or an edit, or on a help screen, is theirs:
     * "-inf" keeps its f */
    if (t->prompt != PROMPT_NONE || tui_screen(t) != &tui_screen_lesson)
        return 0;
    if (t->student && ch == 'f') {
        t->class_follow = 1;
        follow(t);
        return 1;
    }
    if (!t->cls)
        return 0;
    /* q, or Esc (outside a zoom), ends the class for everyone who joined:
     * asked once, done on the same key again */
    int ends = ch == 'q' || (ch == 27 && !t->lv.zoom);
    if (ends && t->class_end_asked == ch) {
        t->quit = 1;    /* the class ends with attn; never the menu with students left waiting */
        return 1;
    }
    t->class_end_asked = 0;
    if (ends) {
        t->class_end_asked = ch;    /* asked on the class's own bar */
        return 1;
    }
    if (ch == 'S') {
        t->class_reveal = !t->class_reveal;
        return 1;
    }
    if (ch == 'X') {
        ClassTally tally;
        class_server_tally(t->cls, &tally);
        if (tally.exercise > 0) {
            t->class_closed = tally.exercise;
            class_server_close_question(t->cls);
        }
        return 1;
    }
    return 0;
}

const char *tui_class_help(const Tui *t)
{
    if (t->student)
        return "In class: f follows the instructor's step again after you look around.";
    if (t->cls)
        return "In class: S shows or hides the answers' spread; X closes the open exercise.";
    return NULL;
}

static void student_bar(Tui *t)
{
    char bar[600];
    const char *sep = ui_glyph(&t->cv, "│", "|");
    int n;
    if (t->class_ended)
        n = snprintf(bar, sizeof bar, " class ended %s your answers stay in your progress", sep);
    else if (t->class_follow)
        n = snprintf(bar, sizeof bar, " class: step %d %s following", t->class_step, sep);
    else
        n = snprintf(bar, sizeof bar, " class: step %d%s%s %s you are looking around: f follows", t->class_step,
                     t->class_title[0] ? ", " : "", t->class_title, sep);
    if (t->class_open && !t->class_ended && n >= 0 && (size_t)n < sizeof bar)
        snprintf(bar + n, sizeof bar - (size_t)n, " %s exercise %d is open%s", sep, t->class_open,
                 t->class_follow ? ": a answers it" : "");
    /* under the title and the bars beside it; with no row to spare, the key bar's */
    Rect kb = t->layout.keybar;
    int y = t->class_h ? t->layout.title.y + t->title_h + t->banner_h + t->knob_h : kb.y;
    ui_fill(&t->cv, y, 0, t->cols, t->attr[C_TITLE]);
    ui_put(&t->cv, y, 0, t->cols, t->attr[C_TITLE], bar);
}

void tui_class_draw(Tui *t)
{
    if (t->student || t->class_ended) {
        student_bar(t);
        return;
    }
    if (!t->cls)
        return;
    ClassTally tally;
    class_server_tally(t->cls, &tally);
    char bar[1024];
    int n = snprintf(bar, sizeof bar, " %s %s %d joined", class_server_join_line(t->cls), ui_glyph(&t->cv, "│", "|"),
                     tally.joined);
    if (tally.exercise > 0)
        n += snprintf(bar + n, sizeof bar - (size_t)n, " %s exercise %d: %d answered%s", ui_glyph(&t->cv, "│", "|"),
                      tally.exercise, tally.answered, t->class_reveal ? "" : " (S: the spread, X: close)");
    else if (t->class_closed > 0)
        n += snprintf(bar + n, sizeof bar - (size_t)n, " %s exercise %d closed", ui_glyph(&t->cv, "│", "|"),
                      t->class_closed);
    if (t->class_end_asked)
        snprintf(bar, sizeof bar, " %s again ends the class for the %d who joined; any other key keeps it going",
                 t->class_end_asked == 'q' ? "q" : "Esc", tally.joined);
    const char *log_error = class_server_log_error(t->cls);
    Rect kb = t->layout.keybar;
    ui_fill(&t->cv, kb.y, kb.x, kb.w, t->attr[C_TITLE]);
    ui_put(&t->cv, kb.y, kb.x, kb.w, t->attr[C_TITLE], bar);
    Rect st = t->layout.status;
    if (log_error && st.h > 0) {
        ui_fill(&t->cv, st.y, st.x, st.w, t->attr[C_ERROR]);
        ui_put(&t->cv, st.y, st.x + 1, st.w - 2, t->attr[C_ERROR], log_error);
        return;
    }
    if (!t->class_reveal || tally.exercise <= 0 || st.h <= 0)
        return;
    /* the spread: right first, then each diagnosis, most common first */
    char spread[2048];
    int m = snprintf(spread, sizeof spread, "%d right", tally.right);
    for (int i = 0; i < tally.n_spread && m < (int)sizeof spread; i++) {
        const char *words = tally.spread[i].id[0] ? lesson_diagnosis_words(tally.spread[i].id) : NULL;
        m += snprintf(spread + m, sizeof spread - (size_t)m, ", %d %s", tally.spread[i].count,
                      words ? words : "wrong, no mistake named");
    }
    ui_fill(&t->cv, st.y, st.x, st.w, t->attr[C_STATUS]);
    ui_put(&t->cv, st.y, st.x + 1, st.w - 2, t->attr[C_STATUS] | A_BOLD, spread);
}
