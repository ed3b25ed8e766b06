/*
 * tui.c - the terminal screen's entry point and its one input loop: check
 * a lesson before the terminal is touched, set up curses (tui_start.c), read a key, give
 * it to the screen on top (tui_screen.h), then have that screen lay out
 * and draw one frame from the state; the blank screen, and the actions
 * the menu and the lesson share, are here too. Resizes arrive as
 * KEY_RESIZE in the same loop, and each 200 ms timeout (and each key)
 * checks whether the open lesson's file was saved (tui_live.c);
 * SIGINT/SIGTERM/SIGHUP only set a flag here,
 * and the loop leaves through the one exit path that restores the terminal.
 */
#include "tui.h"
#include "class_client.h"
#include "class_pack.h"
#include "class_server.h"
#include "tui_class.h"

#include <curses.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lessonfile.h"
#include "text.h"
#include "tui_screen.h"
#include "tui_chrome.h"
#include "tui_keybar.h"
#include "tui_plugin.h"
#include "tui_live.h"
#include "tui_state.h"

#define BRIEF_TICKS 20  /* ticks: 4 s */

/* The only file-scope state of the screen, and it is the process's, not a
 * screen's: the signal that asked us to stop (a handler can only reach a
 * static), and whether the terminal is in curses mode (for the atexit and
 * fatal-error paths that must restore it). Everything else lives in Tui. */
static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
    got_signal = sig;   /* the loop notices within one getch timeout */
}

/* ---- the screens: which is on top, what they share ------------------- */

/* b: nothing on the screen; the next key only brings it back. */
static TuiAction blank_key(TuiTerm *term, void *self, int ch)
{
    (void)term;
    (void)self;
    (void)ch;
    return ACT_CLOSE;
}

static void blank_prepare(TuiTerm *term, void *self)
{
    (void)self;
    term->layout_ok = 1;
}

static void blank_draw(TuiTerm *term, void *self)
{
    (void)term;
    (void)self;
}

const TuiScreen tui_screen_blank = { "blank", blank_key, blank_prepare, blank_draw, NULL };

/* A save of progress that failed or warned is said on the screen when it
 * happens, and remembered for the exit status: never lost in silence.
 * Returns 1 when there is something new to show. */
static int note_saves(Tui *t)
{
    Session *ses = t->ls.lv.ses;
    if (!ses || session_save_notes(ses) == t->save_notes_seen)
        return 0;
    t->save_notes_seen = session_save_notes(ses);
    if (session_save_failures(ses) > 0) {
        t->save_failed = 1;
        snprintf(t->save_warning, sizeof t->save_warning, "%s", session_progress_warning(ses));
    }
    tui_message(&t->term, 1, "%s", session_progress_warning(ses));
    return 1;
}

/* Close the lesson, with its last save noted. */
static void close_lesson(Tui *t)
{
    if (t->ls.lv.ses) {
        session_save_pending(t->ls.lv.ses);
        note_saves(t);
    }
    lv_close(&t->ls.lv);
    lv_frame_free(&t->ls);
    t->save_notes_seen = 0;
}

/* The lesson screen at the bottom of the stack, on the session it holds. */
static void show_lesson(Tui *t)
{
    t->ls.plug = t->plug;
    tui_set_base(t, &tui_screen_lesson, &t->ls);
}

static void show_menu(Tui *t)
{
    tui_set_base(t, &tui_screen_menu, &t->menu);
}

/* Esc on the lesson: back to the menu it came from, or to the menu of the
 * folder of a lesson opened by name (with it selected). */
static void back_to_menu(Tui *t)
{
    if (t->lesson_of_model && t->models) {
        /* a model's head as a lesson: back to the model, on that head */
        close_lesson(t);
        t->lesson_of_model = 0;
        show_menu(t);
        tui_push(t, &tui_screen_models, t->models);
    } else if (t->direct) {
        char dir[1024];
        const char *path = session_path(t->ls.lv.ses);
        const char *slash = path ? strrchr(path, '/') : NULL;
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
        char *was = path ? strdup(path) : NULL;
        close_lesson(t);
        t->direct = 0;
        show_menu(t);
        menu_load(&t->menu, dir[0] ? dir : "/");
        const char *base = was ? (slash ? was + (slash - path) + 1 : was) : NULL;
        for (int i = 0; base && i < t->menu.cat.n; i++) {
            const char *b = strrchr(t->menu.cat.entries[i].path, '/');
            if (strcmp(b ? b + 1 : t->menu.cat.entries[i].path, base) == 0)
                t->menu.sel = i;
        }
        free(was);
    } else if (t->menu.cat.n == 0) {
        t->quit = 1;
    } else {
        close_lesson(t);
        show_menu(t);
        menu_reload(&t->menu);     /* lessons added, removed or edited meanwhile */
    }
}

/* The menu's chosen lesson, opened on the lesson screen. */
static void open_chosen(Tui *t)
{
    const CatalogueEntry *it = t->menu.cat.n > 0 ? &t->menu.cat.entries[t->menu.sel] : NULL;
    char msg[1024];
    if (!it)
        return;
    if (lv_open(&t->term, &t->ls, it->path, msg, sizeof msg) < 0) {
        char *nl = strchr(msg, '\n');
        if (nl)
            *nl = '\0';
        tui_message(&t->term, 1, "%s", msg);
        return;
    }
    show_lesson(t);
}

/* The screen on top closes (the cost view and the models are let go with
 * their screens). */
static void close_top(Tui *t)
{
    if (tui_screen(t) == &tui_screen_cost) {
        cost_free(t->cost);
        t->cost = NULL;
    }
    if (tui_screen(t) == &tui_screen_models) {
        model_screen_free(t->models);
        t->models = NULL;
    }
    tui_pop_top(t);
}

/* The model's head, written as a lesson, on the lesson screen; the model
 * waits under it for Esc. */
static void open_head_lesson(Tui *t)
{
    char msg[1024];
    if (lv_open(&t->term, &t->ls, t->models->lesson, msg, sizeof msg) < 0) {
        char *nl = strchr(msg, '\n');
        if (nl)
            *nl = '\0';
        tui_message(&t->term, 1, "%s", msg);
        return;
    }
    tui_pop_top(t);
    t->lesson_of_model = 1;
    show_lesson(t);
}

/* An action a screen hands back: the ones every screen shares
 * (tui_action_shared), and the screens they ask to open or close. */
static void shared_action(Tui *t, TuiAction a)
{
    int on_lesson = tui_on_base(t, &tui_screen_lesson);
    switch (a) {
    case ACT_QUIT:
        t->quit = 1;
        break;
    case ACT_HELP:
    case ACT_TEXT:
        t->overlay = (OverlayView){ 0, 0, on_lesson ? &t->ls : NULL, 0 };
        if (tui_screen(t) == &tui_screen_models)
            t->overlay = (OverlayView){ 0, 0, NULL, KEYS_MODEL };
        tui_push(t, a == ACT_HELP ? &tui_screen_help : &tui_screen_text, &t->overlay);
        break;
    case ACT_BLANK:
        tui_push(t, &tui_screen_blank, NULL);
        break;
    case ACT_BUG_KINDS:
        tui_push(t, &tui_screen_bug_kinds, &t->ls);
        break;
    case ACT_BUG_FIX:
        tui_push(t, &tui_screen_bug_fix, &t->ls);
        break;
    case ACT_CLOSE:
        close_top(t);
        break;
    case ACT_OPEN_LESSON:
        open_chosen(t);
        break;
    case ACT_MODELS:
        if (!t->models && !(t->models = model_screen_new()))
            tui_fatal("out of memory");
        tui_push(t, &tui_screen_models, t->models);
        break;
    case ACT_OPEN_HEAD_LESSON:
        if (t->models)
            open_head_lesson(t);
        break;
    case ACT_BACK:
        if (t->ls.lv.zoom)     /* Esc leaves the zoom first */
            t->ls.lv.zoom = 0;
        else
            back_to_menu(t);
        break;
    case ACT_RELOAD:
        clearok(curscr, TRUE);  /* Ctrl-L: repaint the whole terminal too */
        if (tui_on_base(t, &tui_screen_menu)) {
            menu_reload(&t->menu);
            tui_message(&t->term, 0, "%d lesson%s in %s", t->menu.cat.n, t->menu.cat.n == 1 ? "" : "s", t->menu.dir);
        } else {
            lv_reload_if_changed(&t->term, &t->ls, 1);
        }
        break;
    case ACT_HIDE_ERROR:
        if (on_lesson)
            lv_hide_reload_error(&t->term, &t->ls);
        break;
    case ACT_COST:
        if (!t->cost && !(t->cost = cost_new()))
            tui_fatal("out of memory");
        tui_push(t, &tui_screen_cost, t->cost);
        break;
    default:
        break;
    }
}

void tui_prepare(Tui *t)
{
    /* (without a window, at the size the caller set: the layout tests) */
    if (t->term.cv.win)
        getmaxyx(t->term.cv.win, t->term.rows, t->term.cols);
    t->term.frame_no++;      /* what a pane found of its matrix is this frame's */
    tui_screen(t)->prepare(&t->term, tui_screen_self(t));
}

void tui_draw(Tui *t)
{
    werase(t->term.cv.win);
    if (t->term.layout_ok)
        tui_screen(t)->draw(&t->term, tui_screen_self(t));
    else
        tui_draw_too_small(&t->term);
    wrefresh(t->term.cv.win);
}

/* A frame, then what can wait until it is on the screen: the step the
 * person moved to is saved (session_defer_step_saves), so a key is
 * answered before the disk is touched. */
static void frame(Tui *t)
{
    note_saves(t);
    tui_prepare(t);
    tui_draw(t);
    if (t->ls.lv.ses)
        session_save_pending(t->ls.lv.ses);
    if (note_saves(t)) {
        tui_prepare(t);
        tui_draw(t);
    }
}

/* The next key (ERR after a quiet tick). With a plug-in, its descriptors
 * are polled beside the keyboard and what they bring handed to it; the
 * keyboard goes first. *redraw is set when the plug-in changed the screen. */
static int next_key(Tui *t, int *redraw)
{
    TuiPlugin *p = t->plug;
    if (!p)
        return getch();
    /* a key curses already holds (the rest of an escape sequence) first */
    int ch = getch();
    if (ch != ERR)
        return ch;
    if (p->pump(p->self, &t->term, &t->ls, NULL, 0)) {
        *redraw = 1;    /* what the last read brought: drawn before waiting */
        return ERR;
    }
    static struct pollfd fds[1 + TUI_PLUGIN_POLL_MAX];
    fds[0] = (struct pollfd){ .fd = STDIN_FILENO, .events = POLLIN };
    int wait = TUI_TICK_MS;
    int n = p->fds(p->self, fds + 1, TUI_PLUGIN_POLL_MAX, &wait);
    int ready = poll(fds, (nfds_t)(1 + n), wait);
    if (ready > 0 && fds[0].revents && (ch = getch()) != ERR)
        return ch;
    if (p->pump(p->self, &t->term, &t->ls, fds + 1, ready > 0 ? n : 0))
        *redraw = 1;
    return ERR;
}

/* What the last action changed, told to the plug-in: 1 when the screen is
 * to be drawn again. */
static int tell_plugin(Tui *t)
{
    unsigned changed = t->ls.changed;
    t->ls.changed = 0;
    if (!t->plug || !t->ls.lv.ses)
        return 0;
    int redraw = t->plug->after(t->plug->self, &t->term, &t->ls, changed);
    if (t->plug->quit)
        t->quit = 1;
    return redraw;
}

int tui_main(const char *file, const TuiOptions *opt)
{
    Tui t;
    memset(&t, 0, sizeof t);
    t.term.utf8 = text_locale_utf8();
    t.ls.present = opt->present;
    t.ls.big_numbers = opt->present;   /* read from the back of the room */
    /* a lesson named on the command line is checked before the terminal
     * changes, so its error prints plainly */
    Session *ses = NULL;
    if (file) {
        LessonError err;
        ses = session_open(file, &err);
        if (!ses) {
            char buf[2048];
            fputs(lesson_error_format(&err, buf, sizeof buf), stderr);
            return 2;
        }
        /* the bug is planted before the progress is read: the hunt's
         * record is the one taken in */
        if (opt->bug && (session_plant_bug(ses, opt->bug_seed) & SESSION_REFUSED)) {
            char shown[1400];
            fprintf(stderr, "attn: %s: %s\n", lesson_escape(file, shown, sizeof shown), session_message(ses));
            session_free(ses);
            return 2;
        }
    }
    if (opt->join_addr) {
        /* a student: the lesson comes from the class, before the terminal changes */
        char why[1200];
        ClientMsg m;
        ClassClient *student = class_client_connect(opt->join_addr, opt->join_code, opt->join_name, why, sizeof why);
        if (!student) {
            char shown[4800];   /* the address and the name, as typed */
            fprintf(stderr, "attn: %s\n", lesson_escape(why, shown, sizeof shown));
            return 1;
        }
        if (class_client_wait_ready(student, CLASS_READY_SECONDS * 1000, &m) != 0) {
            char shown[CLASS_LINE_MAX * 4];
            fprintf(stderr, m.what == CLIENT_REFUSED ? "attn: the class refused to let you in: %s\n" : "attn: %s\n",
                    lesson_escape(m.text, shown, sizeof shown));
            class_client_free(student);
            return 1;
        }
        LessonError err;
        ClassPack *pack = class_client_take_pack(student);
        Lesson *l = pack ? class_pack_lesson(pack, &err) : NULL;
        ses = l ? session_open_lesson(l, &err) : NULL;
        if (!ses || !(t.plug = tui_class_student(student, pack))) {
            char buf[2048];
            fprintf(stderr, "attn: the class's lesson does not open here: %s",
                    ses ? "out of memory\n" : lesson_error_format(&err, buf, sizeof buf));
            session_free(ses);
            class_client_free(student);
            if (pack)
                class_pack_free(pack);
            free(pack);
            return 1;
        }
        file = "";      /* the lesson screen, not the menu */
    }
    if (opt->class_mode) {
        /* the class is open before the terminal changes: its errors print plainly */
        ClassOptions co = { opt->listen, opt->code, opt->log, 0 };
        char why[1200];
        ClassServer *server = class_server_open(ses, &co, why, sizeof why);
        if (!server || !(t.plug = tui_class_instructor(server))) {
            char shown[4800];   /* --listen, --log and the file, as typed */
            fprintf(stderr, "attn: %s\n", server ? "out of memory" : lesson_escape(why, shown, sizeof shown));
            class_server_free(server);
            session_free(ses);
            return 2;
        }
    }
    if (opt->trainer && !(t.train = train_screen_new(opt->trainer))) {
        fputs("attn: out of memory\n", stderr);
        trainer_free(opt->trainer);
        return 2;
    }
    if (opt->model_dir) {
        /* a model named on the command line opens before the terminal
         * changes, so its error prints plainly */
        char why[2048], shown[4200];
        if (!(t.models = model_screen_new())
            || model_screen_open(t.models, opt->model_dir, opt->model_text, why, sizeof why) != 0) {
            fprintf(stderr, "attn: %s\n", t.models ? lesson_escape(why, shown, sizeof shown) : "out of memory");
            model_screen_free(t.models);
            session_free(ses);
            return 2;
        }
        t.models->direct = 1;
    }
    tui_start_curses(&t.term, opt->no_color, on_signal);
    if (t.plug)
        timeout(0);     /* the plug-in's poll waits, for keys and it alike */
    if (file) {
        t.direct = 1;
        lv_adopt(&t.term, &t.ls, ses);
        show_lesson(&t);
    } else {
        menu_load(&t.menu, lessonfile_default_dir());
        show_menu(&t);
        if (t.models)
            tui_push(&t, &tui_screen_models, t.models);
        if (t.train)
            tui_push(&t, &tui_screen_train, t.train);
    }
    tell_plugin(&t);
    frame(&t);
    int brief_ticks = 0;
    while (!t.quit && !got_signal) {
        int plugin_redraw = 0;
        int ch = next_key(&t, &plugin_redraw);
        if (ch == ERR) {
            /* a timeout or an interrupted read: check the flag; a
             * terminal that is gone ends the session */
            if (tui_terminal_gone())
                break;
            /* the lesson's file saved in another window: show it; a
             * screen that works in steps takes the next one */
            int changed = tui_on_base(&t, &tui_screen_lesson) && lv_reload_if_changed(&t.term, &t.ls, 0);
            const TuiScreen *top = tui_screen(&t);
            if (top->idle && top->idle(&t.term, tui_screen_self(&t)))
                changed = 1;
            if (plugin_redraw || (t.ls.changed && tell_plugin(&t)))
                changed = 1;
            /* a brief message goes after BRIEF_TICKS quiet timeouts */
            if (changed) {
                brief_ticks = 0;
            } else if (t.term.message_brief && t.term.message[0] && ++brief_ticks >= BRIEF_TICKS) {
                t.term.message[0] = '\0';
                changed = 1;
            }
            if (changed)
                frame(&t);
            continue;
        }
        brief_ticks = 0;
        if (ch != KEY_RESIZE) {
            TuiAction left = tui_screen(&t)->key(&t.term, tui_screen_self(&t), ch);
            if (left != ACT_NONE)
                shared_action(&t, left);
        }
        if (t.plug && t.plug->quit)
            t.quit = 1;
        if (tui_on_base(&t, &tui_screen_lesson) && !t.quit)
            lv_reload_if_changed(&t.term, &t.ls, 0);
        if (!t.quit)
            frame(&t);
        /* what runs beside is told after the person sees it; what it
         * changes (another question's tally) is drawn at once */
        if (tell_plugin(&t) && !t.quit)
            frame(&t);
    }
    close_lesson(&t);
    tui_class_free(t.plug);     /* after the lesson that reads its pack */
    tui_curses_end();
    cost_free(t.cost);
    model_screen_free(t.models);
    menu_free(&t.menu);
    if (t.train) {
        /* the run checkpointed and said how to go on, on the shell's screen */
        int trained = train_screen_free(t.train);
        return got_signal && trained == 0 ? 128 + (int)got_signal : trained;
    }
    if (got_signal)
        return 128 + (int)got_signal;
    if (t.save_failed) {
        char shown[2400];
        fprintf(stderr, "%s\n", lesson_escape(t.save_warning, shown, sizeof shown));
        return 1;
    }
    return 0;
}
