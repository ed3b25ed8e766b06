/*
 * tui_class.c - class mode on the screen, a plug-in beside the lesson
 * screen (tui_plugin.h). The instructor's (`attn --class`): a class server
 * (app/class) polled beside the keyboard, the step and exercise shown told
 * to the class after each action (and the lesson when it is reloaded), the
 * join line and the roll on the bottom row, the open exercise's tally, and
 * its spread of diagnoses when S reveals it; X closes the question; q or
 * Esc twice ends the class; names are never drawn. A student's (`attn
 * join` on a terminal): the lesson the class sent, the screen following
 * the instructor's step (moving away looks around, f follows again), an
 * answer to the open exercise sent once it is judged here, and the class's
 * end said while the student's progress stays.
 *
 * Ownership: the plug-in owns the server, or the connection and the pack
 * the student's lesson reads (tui_class_free, after that lesson closed).
 */
#include "tui_class.h"
#include "clock.h"

#include <curses.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bigtext.h"
#include "class_client.h"
#include "class_pack.h"
#include "class_server.h"
#include "lesson.h"
#include "teach.h"
#include "session.h"
#include "session_exercises.h"
#include "tui_lesson.h"
#include "tui_plugin.h"
#include "tui_put.h"

#define TALLY_MS 100    /* the tally redrawn at most this often: keys first */
#define PUMP_MS 2       /* the class served this long, then the keyboard again */

/* The class beside the lesson: the instructor's server or a student's
 * connection, and what the screen keeps of the class. */
typedef struct {
    TuiPlugin plug;             /* what the loop and the lesson see; first  */
    ClassServer *cls;           /* the instructor's: owned                   */
    ClassClient *student;       /* a student's: owned (NULL once it ended)   */
    ClassPack *pack;            /* the lesson and files the class sent: owned */
    LessonScreen *ls;           /* the lesson it runs beside: borrowed (it
                                   lives as long as the class: q and Esc on
                                   it are the class's, the instructor's and
                                   a student's alike)                       */
    /* the instructor's: whether the spread is revealed, the exercise X
     * closed, q or Esc asked once, a tally not yet drawn and when one was */
    int reveal, closed, end_asked, pending;
    double drawn_at;
    /* a student's: where the class is, whether the screen follows it, the
     * open exercise's answers already sent, whether the class ended; a
     * redraw the class asks for */
    int step, open, follow, sent, ended, dirty;
    int counted, counted_right;     /* the open exercise's answer the class counted, and how */
    char title[256];
} ClassPlug;

static double now_ms(void) { return clock_seconds() * 1e3; }

/* The screen of step n as the handout numbers steps (0: the set-up). */
static int screen_of_step(const LessonScreen *ls, int n)
{
    int screen = n - 1 + session_has_setup(ls->lv.ses);
    return screen < 0 ? 0 : screen;
}

/* Where the class is, on the screen when it follows. */
static void follow(ClassPlug *c, LessonScreen *ls)
{
    if (!c->follow || !ls->lv.ses)
        return;
    int screen = screen_of_step(ls, c->step);
    if (session_screen(ls->lv.ses) != screen)
        lv_go(ls, screen);
    for (int k = 0; c->open > 0 && k < session_n_exercises(ls->lv.ses); k++)
        if (session_exercise_number(ls->lv.ses, k) == c->open)
            ls->lv.ex_index = k;
}

/* What the class said since the last look. */
static void student_messages(ClassPlug *c, TuiTerm *term, LessonScreen *ls)
{
    ClientMsg m;
    for (;;) {
        class_client_next(c->student, &m);
        switch (m.what) {
        case CLIENT_NOTHING:
        case CLIENT_READY:
            return;
        case CLIENT_STEP:
            c->step = (int)m.n;
            snprintf(c->title, sizeof c->title, "%.255s", m.text);
            break;
        case CLIENT_EXERCISE:
            c->open = (int)m.n;
            c->sent = -1;     /* what is there already was not an answer to the class */
            c->counted = 0;
            break;
        case CLIENT_COUNTED:
            /* the verdict the class counted for the open exercise: the bar says it */
            if (m.n == c->open) {
                c->counted = (int)m.n;
                c->counted_right = strcmp(m.text, "right") == 0;
            }
            break;
        case CLIENT_CLOSED:
            if (c->open == m.n)
                c->open = 0;
            /* closing gives the value: the cells it kept as ? show */
            if (ls->lv.ses && session_close_number(ls->lv.ses, (int)m.n))
                c->dirty = 1;
            break;
        case CLIENT_NOTE:
            tui_message(term, 0, "%s", m.text);
            break;
        case CLIENT_ENDED:
        case CLIENT_REFUSED:
        case CLIENT_LOST:
            tui_message(term, 0, "%s; your answers stay in your progress", m.what == CLIENT_ENDED
                                  ? "the class ended" : m.text);
            c->ended = 1;
            c->open = 0;
            class_client_free(c->student);
            c->student = NULL;
            c->dirty = 1;
            return;
        }
        follow(c, ls);
        c->dirty = 1;
    }
}

static int sync_class(ClassPlug *c, const LessonScreen *ls)
{
    Session *ses = ls->lv.ses;
    if (!c->cls || !ses)
        return 0;
    const LessonStep *st = session_step(ses);
    int n_steps = lesson_n_steps(session_lesson(ses));
    int k = st && session_n_exercises(ses) > 0 ? session_exercise_number(ses, ls->lv.ex_index) : 0;
    if (c->closed == k && k > 0)
        k = 0;          /* closed by X: stays closed while it is shown */
    else if (c->closed != k)
        c->closed = 0;
    if (!class_server_show(c->cls, session_step_number(ses), n_steps, st ? st->title : "Set-up", k))
        return 0;
    /* another question: its own tally, and its spread hidden until S */
    c->reveal = 0;
    return 1;
}

static void lesson_changed(ClassPlug *c, TuiTerm *term, LessonScreen *ls)
{
    if (!c->cls || !ls->lv.ses)
        return;
    char why[1200];
    if (class_server_reload(c->cls, why, sizeof why) != 0) {
        tui_message(term, 1, "the students keep the lesson they have: %.200s", why);
        return;
    }
    c->closed = 0;
    c->reveal = 0;
    sync_class(c, ls);
    c->dirty = 1;
}

static int student_after(ClassPlug *c, LessonScreen *ls, unsigned changed)
{
    Session *ses = ls->lv.ses;
    if (!c->student || !ses)
        return 0;
    /* looking around: a key took the screen off the class's step */
    int was = c->follow;
    if ((changed & SESSION_SCREEN) && session_screen(ses) != screen_of_step(ls, c->step))
        c->follow = 0;
    /* an answer to the open exercise, judged here, goes to the class */
    for (int k = 0; c->open > 0 && k < session_n_exercises(ses); k++) {
        if (session_exercise_number(ses, k) != c->open)
            continue;
        const ExerciseState *es = session_exercise_state(ses, k);
        if (c->sent < 0)
            c->sent = es->attempts;
        else if (es->attempts > c->sent) {
            c->sent = es->attempts;
            class_client_answer(c->student, c->open, es->last, ls->lv.decimals_shown);
        }
    }
    return c->follow != was;   /* the bar says so */
}

static int class_key(void *self, TuiTerm *term, LessonScreen *ls, int ch)
{
    ClassPlug *c = self;
    /* (a key typed into an answer or an edit is theirs, "-inf" keeps its f:
     * the lesson screen asks only outside its prompt) */
    if (c->student && ch == 'f') {
        c->follow = 1;
        follow(c, ls);
        return 1;
    }
    /* a student's Esc (outside a zoom) would close the lesson the class
     * runs beside (it once did, and the class wrote into the freed screen):
     * the lesson is the class's, q leaves */
    if (c->student && ch == 27 && !ls->lv.zoom) {
        tui_message(term, 0, "this lesson is the class's: q leaves the class");
        return 1;
    }
    if (!c->cls)
        return 0;
    /* q, or Esc (outside a zoom), ends the class for everyone who joined:
     * asked once, done on the same key again */
    int ends = ch == 'q' || (ch == 27 && !ls->lv.zoom);
    if (ends && c->end_asked == ch) {
        c->plug.quit = 1;    /* the class ends with attn; never the menu with students left waiting */
        return 1;
    }
    c->end_asked = 0;
    if (ends) {
        c->end_asked = ch;    /* asked on the class's own bar */
        return 1;
    }
    if (ch == 'S') {
        c->reveal = !c->reveal;
        return 1;
    }
    if (ch == 'X') {
        ClassTally tally;
        class_server_tally(c->cls, &tally);
        if (tally.exercise > 0) {
            c->closed = tally.exercise;
            class_server_close_question(c->cls);
            session_close_number(ls->lv.ses, tally.exercise);   /* and its value shows */
        }
        return 1;
    }
    return 0;
}

static const char *class_help(void *self)
{
    const ClassPlug *c = self;
    if (c->student)
        return "In class: f follows the instructor's step again after you look around.";
    if (c->cls)
        return "In class: S shows or hides the answers' spread; X closes the open exercise.";
    return NULL;
}

static void student_bar(const ClassPlug *c, TuiTerm *term, const LessonScreen *ls)
{
    char bar[600];
    const char *sep = ui_glyph(&term->cv, "│", "|");
    int n;
    if (c->ended)
        n = snprintf(bar, sizeof bar, " class ended %s your answers stay in your progress", sep);
    else if (c->follow)
        n = snprintf(bar, sizeof bar, " class: step %d %s following", c->step, sep);
    else
        n = snprintf(bar, sizeof bar, " class: step %d%s%s %s you are looking around: f follows", c->step,
                     c->title[0] ? ", " : "", c->title, sep);
    if (c->open && !c->ended && n >= 0 && (size_t)n < sizeof bar && c->counted == c->open)
        snprintf(bar + n, sizeof bar - (size_t)n, " %s exercise %d: the class counted your answer %s", sep, c->open,
                 c->counted_right ? "right" : "wrong");
    else if (c->open && !c->ended && n >= 0 && (size_t)n < sizeof bar)
        snprintf(bar + n, sizeof bar - (size_t)n, " %s exercise %d is open%s", sep, c->open,
                 c->follow ? ": a answers it" : "");
    /* under the title and the bars beside it; with no row to spare, the key bar's */
    Rect kb = ls->layout.keybar;
    int y = ls->bar_h ? ls->layout.title.y + ls->title_h + ls->banner_h + ls->knob_h : kb.y;
    ui_fill(&term->cv, y, 0, term->cols, term->attr[C_TITLE]);
    ui_put(&term->cv, y, 0, term->cols, term->attr[C_TITLE], bar);
}

static void class_draw(void *self, TuiTerm *term, const LessonScreen *ls)
{
    ClassPlug *c = self;
    if (c->student || c->ended) {
        student_bar(c, term, ls);
        return;
    }
    if (!c->cls)
        return;
    ClassTally tally;
    class_server_tally(c->cls, &tally);
    char bar[1024];
    int n = snprintf(bar, sizeof bar, " %s %s %d joined", class_server_join_line(c->cls), ui_glyph(&term->cv, "│", "|"),
                     tally.joined);
    if (tally.exercise > 0)
        n += snprintf(bar + n, sizeof bar - (size_t)n, " %s exercise %d: %d answered%s", ui_glyph(&term->cv, "│", "|"),
                      tally.exercise, tally.answered, c->reveal ? "" : " (S: the spread, X: close)");
    else if (c->closed > 0)
        n += snprintf(bar + n, sizeof bar - (size_t)n, " %s exercise %d closed", ui_glyph(&term->cv, "│", "|"),
                      c->closed);
    if (c->end_asked)
        snprintf(bar, sizeof bar, " %s again ends the class for the %d who joined; any other key keeps it going",
                 c->end_asked == 'q' ? "q" : "Esc", tally.joined);
    const char *log_error = class_server_log_error(c->cls);
    Rect kb = ls->layout.keybar;
    ui_fill(&term->cv, kb.y, kb.x, kb.w, term->attr[C_TITLE]);
    ui_put(&term->cv, kb.y, kb.x, kb.w, term->attr[C_TITLE], bar);
    Rect st = ls->layout.status;
    if (log_error && st.h > 0) {
        ui_fill(&term->cv, st.y, st.x, st.w, term->attr[C_ERROR]);
        ui_put(&term->cv, st.y, st.x + 1, st.w - 2, term->attr[C_ERROR], log_error);
        return;
    }
    if (!c->reveal || tally.exercise <= 0 || st.h <= 0)
        return;
    /* the spread: right first, then each diagnosis, most common first */
    char spread[2048];
    int m = snprintf(spread, sizeof spread, "%d right", tally.right);
    for (int i = 0; i < tally.n_spread && m < (int)sizeof spread; i++) {
        const char *words = tally.spread[i].id[0] ? lesson_diagnosis_words(tally.spread[i].id) : NULL;
        m += snprintf(spread + m, sizeof spread - (size_t)m, ", %d %s", tally.spread[i].count,
                      words ? words : "wrong, no mistake named");
    }
    /* the whole status area is the spread's: no line of the explanation
     * under it is left to read as part of it */
    for (int r = 0; r < st.h; r++)
        ui_fill(&term->cv, st.y + r, st.x, st.w, term->attr[C_STATUS]);
    /* a presenter's room reads it in the block font where it fits */
    BigSize big = ls->present ? big_fit(spread, st.w - 2, st.h, term->utf8) : BIG_NONE;
    if (big != BIG_NONE)
        ui_put_big(&term->cv, st.y, st.x + 1, st.w - 2, term->attr[C_STATUS] | A_BOLD, spread, big);
    else
        ui_put(&term->cv, st.y, st.x + 1, st.w - 2, term->attr[C_STATUS] | A_BOLD, spread);
}

/* What the loop polls beside the keyboard, and how long it waits. */
static int class_fds(void *self, struct pollfd *fds, int max, int *wait_ms)
{
    ClassPlug *c = self;
    if (c->student) {
        if (max < 1)
            return 0;
        fds[0] = (struct pollfd){ .fd = class_client_fd(c->student), .events = POLLIN };
        int stall = class_client_wait_ms(c->student);  /* a file begun and then left: said in time */
        if (stall >= 0 && (*wait_ms < 0 || stall < *wait_ms))
            *wait_ms = stall;
        return 1;
    }
    if (!c->cls)
        return 0;
    if (c->pending) {
        int wait = (int)(TALLY_MS - (now_ms() - c->drawn_at));
        *wait_ms = wait < 0 ? 0 : wait;
    }
    return class_server_fds(c->cls, fds, max);
}

/* What poll found (fds NULL: before waiting, what the last read brought). */
static int class_pump(void *self, TuiTerm *term, const struct pollfd *fds, int n)
{
    ClassPlug *c = self;
    LessonScreen *ls = c->ls;
    if (c->student || c->ended) {
        if (!fds) {
            if (c->student)
                student_messages(c, term, ls);
            int dirty = c->dirty;
            c->dirty = 0;
            return dirty;
        }
        if (c->student && n > 0 && fds[0].revents)
            class_client_read(c->student);
        return 0;
    }
    if (!fds || !c->cls)
        return 0;
    if (class_server_pump(c->cls, fds, n, PUMP_MS))
        c->pending = 1;
    /* the room's numbers change with every answer: redrawn TALLY_MS apart */
    double now = now_ms();
    if (c->pending && now - c->drawn_at >= TALLY_MS) {
        c->pending = 0;
        c->drawn_at = now;
        return 1;
    }
    return 0;
}

/* After a key (key 1), or a tick on which the lesson changed: the
 * instructor's class told what the screen shows now (the lesson too when
 * it was reloaded); a student's answer sent. */
static int class_after(void *self, TuiTerm *term, int key)
{
    ClassPlug *c = self;
    LessonScreen *ls = c->ls;
    unsigned changed = ls->changed;
    if (!key && !changed)
        return 0;
    ls->changed = 0;
    if (!ls->lv.ses)
        return 0;
    if (c->cls) {
        if (changed & SESSION_LESSON)
            lesson_changed(c, term, ls);
        return sync_class(c, ls);
    }
    return student_after(c, ls, changed);
}

static int class_bar_rows(void *self)
{
    const ClassPlug *c = self;
    return c->student || c->ended;
}

static ClassPlug *class_new(LessonScreen *ls)
{
    ClassPlug *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->ls = ls;
    c->plug = (TuiPlugin){ c, class_fds, class_pump, class_key, class_after, class_bar_rows, class_draw, class_help, 0 };
    return c;
}

TuiPlugin *tui_class_instructor(ClassServer *server, LessonScreen *ls)
{
    ClassPlug *c = class_new(ls);
    if (!c)
        return NULL;
    c->cls = server;
    return &c->plug;
}

TuiPlugin *tui_class_student(ClassClient *client, ClassPack *pack, LessonScreen *ls)
{
    ClassPlug *c = class_new(ls);
    if (!c)
        return NULL;
    c->student = client;
    c->pack = pack;
    c->follow = 1;
    return &c->plug;
}

void tui_class_free(TuiPlugin *p)
{
    if (!p)
        return;
    ClassPlug *c = p->self;
    if (c->cls) {
        class_server_end(c->cls);   /* the students see that the class ended */
        class_server_free(c->cls);
    }
    class_client_free(c->student);
    if (c->pack)
        class_pack_free(c->pack);
    free(c->pack);
    free(c);
}
