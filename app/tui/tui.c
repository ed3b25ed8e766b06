/*
 * tui.c - the terminal screen's entry point and its one input loop: check
 * a lesson before the terminal is touched, set up curses, read a key, give
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
#include "class_server.h"
#include "tui_class.h"

#include <curses.h>
#include <term.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "blas.h"
#include "lessonfile.h"
#include "text.h"
#include "tui_screen.h"
#include "tui_chrome.h"
#include "tui_live.h"
#include "tui_state.h"

#define BRIEF_TICKS 20  /* getch timeouts of 200 ms: 4 s */

/* The only file-scope state of the screen, and it is the process's, not a
 * screen's: the signal that asked us to stop (a handler can only reach a
 * static), and whether the terminal is in curses mode (for the atexit and
 * fatal-error paths that must restore it). Everything else lives in Tui. */
static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
    got_signal = sig;   /* the loop notices within one getch timeout */
}

/* The terminal as it was before curses, for a crash: a signal that cannot
 * return to the loop (SIGSEGV, SIGABRT, ...) puts it back with what is
 * safe in a handler (tcsetattr, write), then dies of the signal as it
 * would have. */
static struct termios saved_tty;
static int saved_tty_ok;

static void on_crash(int sig)
{
    static const char leave[] = "\033[0m\033[?1000l\033[?1002l\033[?1006l\033[?25h\033[?1049l\r\n";
    if (saved_tty_ok)
        tcsetattr(STDIN_FILENO, TCSANOW, &saved_tty);
    ssize_t w = write(STDOUT_FILENO, leave, sizeof leave - 1);
    (void)w;
    signal(sig, SIG_DFL);
    raise(sig);
}

/* True when the terminal has gone away (hung up, closed, or stdin at end of
 * file): getch() then returns ERR at once, forever, and the loop must end
 * rather than spin. */
static int terminal_gone(void)
{
    struct pollfd in = { .fd = STDIN_FILENO, .events = POLLIN };
    if (poll(&in, 1, 0) < 0)
        return errno != EINTR;
    return (in.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0 || !isatty(STDIN_FILENO);
}

/* ncurses 6.4 flushes the terminal after every cursor move until the
 * screen has once been left and resumed (newterm leaves it in its
 * "initial" state, which is meant for terminfo-only programs), so a large
 * frame went out in some 300 writes; one endwin and refresh before the
 * first frame put it in its running state, and a frame leaves in one write
 * (strace). */
void tui_curses_running(void)
{
    endwin();
    refresh();
}

static void start_curses(Tui *t, int no_color)
{
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        fputs("attn: the lesson screen needs a terminal; to print a lesson, use 'attn run FILE'\n", stderr);
        exit(2);
    }
    char term[200];
    lesson_escape(getenv("TERM") ? getenv("TERM") : "", term, sizeof term);
    saved_tty_ok = tcgetattr(STDIN_FILENO, &saved_tty) == 0;
    if (!newterm(NULL, stdout, stdin)) {
        fprintf(stderr, "attn: cannot open the terminal (TERM=%s)\n", term);
        exit(2);
    }
    /* a terminal that cannot place the cursor (TERM=dumb) would get an
     * unusable screen: refused, as an unknown terminal is */
    char *cup = tigetstr("cup"), *clear = tigetstr("clear");
    if (!cup || cup == (char *)-1 || !clear || clear == (char *)-1) {
        endwin();
        fprintf(stderr, "attn: this terminal (TERM=%s) cannot move the cursor, which the lesson screen needs; "
                        "set TERM to your terminal's (e.g. xterm-256color), or print the lesson with 'attn run "
                        "FILE'\n", term);
        exit(2);
    }
    tui_curses_began();
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    t->cv.win = stdscr;
    t->cv.utf8 = t->utf8;
    set_escdelay(25);
    curs_set(0);
    timeout(200);
    mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
    mouseinterval(0);
    tui_colors_init(t, no_color);
    tui_curses_running();
    /* every signal that would end the process ends the loop instead, which
     * restores the terminal; SIGPIPE too (a terminal gone mid-write) */
    static const int ending[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE,
                                  SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGPOLL };
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof ending / sizeof *ending; i++)
        sigaction(ending[i], &sa, NULL);
    static const int crashing[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS };
    struct sigaction ca;
    memset(&ca, 0, sizeof ca);
    ca.sa_handler = on_crash;
    sigemptyset(&ca.sa_mask);
    ca.sa_flags = SA_RESETHAND;
    for (size_t i = 0; i < sizeof crashing / sizeof *crashing; i++)
        sigaction(crashing[i], &ca, NULL);
}

/* ---- the screens: which is on top, what they share ------------------- */

/* b: nothing on the screen; the next key only brings it back. */
static TuiAction blank_key(Tui *t, int ch)
{
    (void)ch;
    tui_pop(t, &tui_screen_blank);
    return ACT_NONE;
}

static void blank_prepare(Tui *t)
{
    t->layout_ok = 1;
}

static void blank_draw(Tui *t)
{
    (void)t;
}

const TuiScreen tui_screen_blank = { "blank", blank_key, blank_prepare, blank_draw, NULL };

/* A save of progress that failed or warned is said on the screen when it
 * happens, and remembered for the exit status: never lost in silence.
 * Returns 1 when there is something new to show. */
static int note_saves(Tui *t)
{
    Session *ses = t->lv.ses;
    if (!ses || session_save_notes(ses) == t->save_notes_seen)
        return 0;
    t->save_notes_seen = session_save_notes(ses);
    if (session_save_failures(ses) > 0) {
        t->save_failed = 1;
        snprintf(t->save_warning, sizeof t->save_warning, "%s", session_progress_warning(ses));
    }
    tui_message(t, 1, "%s", session_progress_warning(ses));
    return 1;
}

/* Close the lesson, with its last save noted. */
static void close_lesson(Tui *t)
{
    if (t->lv.ses) {
        session_save_pending(t->lv.ses);
        note_saves(t);
    }
    lv_close(&t->lv);
    t->save_notes_seen = 0;
}

/* Esc on the lesson: back to the menu it came from, or to the menu of the
 * folder of a lesson opened by name (with it selected). */
static void back_to_menu(Tui *t)
{
    if (t->direct) {
        char dir[1024];
        const char *path = session_path(t->lv.ses);
        const char *slash = path ? strrchr(path, '/') : NULL;
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
        char *was = path ? strdup(path) : NULL;
        close_lesson(t);
        t->direct = 0;
        tui_set_base(t, &tui_screen_menu);
        menu_load(t, dir[0] ? dir : "/");
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
        tui_set_base(t, &tui_screen_menu);
        menu_reload(t);     /* lessons added, removed or edited meanwhile */
    }
}

/* An action every screen hands back (tui_action_shared). */
static void shared_action(Tui *t, TuiAction a)
{
    switch (a) {
    case ACT_QUIT:
        t->quit = 1;
        break;
    case ACT_HELP:
        tui_push(t, &tui_screen_help);
        break;
    case ACT_BACK:
        if (t->lv.zoom)     /* Esc leaves the zoom first */
            t->lv.zoom = 0;
        else
            back_to_menu(t);
        break;
    case ACT_RELOAD:
        clearok(curscr, TRUE);  /* Ctrl-L: repaint the whole terminal too */
        if (tui_on_base(t, &tui_screen_menu)) {
            menu_reload(t);
            tui_message(t, 0, "%d lesson%s in %s", t->menu.cat.n, t->menu.cat.n == 1 ? "" : "s", t->menu.dir);
        } else {
            lv_reload_if_changed(t, 1);
        }
        break;
    case ACT_HIDE_ERROR:
        if (tui_on_base(t, &tui_screen_lesson))
            lv_hide_reload_error(t);
        break;
    case ACT_COST:
        cost_open(t);
        break;
    default:
        break;
    }
}

void tui_prepare(Tui *t)
{
    /* (without a window, at the size the caller set: the layout tests) */
    if (t->cv.win)
        getmaxyx(t->cv.win, t->rows, t->cols);
    tui_frame_free(t);
    t->frame_no++;      /* what a pane found of its matrix is this frame's */
    tui_screen(t)->prepare(t);
}

void tui_draw(Tui *t)
{
    werase(t->cv.win);
    if (t->layout_ok)
        tui_screen(t)->draw(t);
    else
        tui_draw_too_small(t);
    wrefresh(t->cv.win);
}

/* A frame, then what can wait until it is on the screen: the step the
 * person moved to is saved (session_defer_step_saves), so a key is
 * answered before the disk is touched. */
static void frame(Tui *t)
{
    note_saves(t);
    tui_prepare(t);
    tui_draw(t);
    if (t->lv.ses)
        session_save_pending(t->lv.ses);
    if (note_saves(t)) {
        tui_prepare(t);
        tui_draw(t);
    }
}

int tui_main(const char *file, const TuiOptions *opt)
{
    Tui t;
    memset(&t, 0, sizeof t);
    t.utf8 = text_locale_utf8();
    t.present = opt->present;
    t.big_numbers = opt->present;   /* read from the back of the room */
    /* a lesson's matrices are small: BLAS on one thread, so no worker
     * spins waiting for more work while the screen is drawn (on 2 cores
     * that took a core from the drawing); the cost screen gives them back */
    t.blas_threads = blas_threads();
    if (t.blas_threads > 1)
        blas_set_threads(1);
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
        t.student = class_client_connect(opt->join_addr, opt->join_code, opt->join_name, why, sizeof why);
        if (!t.student) {
            char shown[4800];   /* the address and the name, as typed */
            fprintf(stderr, "attn: %s\n", lesson_escape(why, shown, sizeof shown));
            return 1;
        }
        if (class_client_wait_ready(t.student, CLASS_READY_SECONDS * 1000, &m) != 0) {
            char shown[CLASS_LINE_MAX * 4];
            fprintf(stderr, m.what == CLIENT_REFUSED ? "attn: the class refused to let you in: %s\n" : "attn: %s\n",
                    lesson_escape(m.text, shown, sizeof shown));
            class_client_free(t.student);
            return 1;
        }
        LessonError err;
        t.student_pack = class_client_take_pack(t.student);
        Lesson *l = t.student_pack ? class_pack_lesson(t.student_pack, &err) : NULL;
        ses = l ? session_open_lesson(l, &err) : NULL;
        if (!ses) {
            char buf[2048];
            fprintf(stderr, "attn: the class's lesson does not open here: %s", lesson_error_format(&err, buf, sizeof buf));
            class_client_free(t.student);
            if (t.student_pack)
                class_pack_free(t.student_pack);
            free(t.student_pack);
            return 1;
        }
        t.class_follow = 1;
        file = "";      /* the lesson screen, not the menu */
    }
    if (opt->class_mode) {
        /* the class is open before the terminal changes: its errors print plainly */
        ClassOptions co = { opt->listen, opt->code, opt->log, 0 };
        char why[1200];
        if (!(t.cls = class_server_open(file, &co, why, sizeof why))) {
            char shown[4800];   /* --listen, --log and the file, as typed */
            fprintf(stderr, "attn: %s\n", lesson_escape(why, shown, sizeof shown));
            session_free(ses);
            return 2;
        }
    }
    start_curses(&t, opt->no_color);
    if (t.cls || t.student)
        timeout(0);     /* the class's poll waits, for keys and the class alike */
    if (file) {
        t.direct = 1;
        lv_adopt(&t, ses);
        tui_set_base(&t, &tui_screen_lesson);
    } else {
        menu_load(&t, lessonfile_default_dir());
        tui_set_base(&t, &tui_screen_menu);
    }
    tui_class_sync(&t);
    frame(&t);
    int brief_ticks = 0;
    while (!t.quit && !got_signal) {
        int ch = t.cls || t.student ? tui_class_next_key(&t) : getch();
        if (ch == ERR) {
            /* a timeout or an interrupted read: check the flag; a
             * terminal that is gone ends the session */
            if (terminal_gone())
                break;
            /* the lesson's file saved in another window: show it; a
             * screen that works in steps takes the next one */
            int changed = tui_on_base(&t, &tui_screen_lesson) && lv_reload_if_changed(&t, 0);
            const TuiScreen *top = tui_screen(&t);
            if (top->idle && top->idle(&t))
                changed = 1;
            if (t.class_dirty)
                changed = 1;
            t.class_dirty = 0;
            /* a brief message goes after BRIEF_TICKS quiet timeouts */
            if (changed) {
                brief_ticks = 0;
            } else if (t.message_brief && t.message[0] && ++brief_ticks >= BRIEF_TICKS) {
                t.message[0] = '\0';
                changed = 1;
            }
            if (changed)
                frame(&t);
            continue;
        }
        brief_ticks = 0;
        if (ch != KEY_RESIZE && !(tui_on_base(&t, &tui_screen_lesson) && tui_class_key(&t, ch))) {
            TuiAction left = tui_screen(&t)->key(&t, ch);
            if (left != ACT_NONE)
                shared_action(&t, left);
        }
        if (tui_on_base(&t, &tui_screen_lesson) && !t.quit)
            lv_reload_if_changed(&t, 0);
        tui_class_student_after_key(&t);
        if (!t.quit)
            frame(&t);
        /* the room is told after the instructor sees it; another question
         * has its own tally, drawn at once */
        if (tui_class_sync(&t) && !t.quit)
            frame(&t);
    }
    if (t.cls) {
        class_server_end(t.cls);    /* the students see that the class ended */
        class_server_free(t.cls);
    }
    class_client_free(t.student);
    close_lesson(&t);
    if (t.student_pack)
        class_pack_free(t.student_pack);   /* after the lesson that reads it */
    free(t.student_pack);
    tui_curses_end();
    cost_close(&t);
    menu_free(&t);
    tui_frame_free(&t);
    if (got_signal)
        return 128 + (int)got_signal;
    if (t.save_failed) {
        char shown[2400];
        fprintf(stderr, "%s\n", lesson_escape(t.save_warning, shown, sizeof shown));
        return 1;
    }
    return 0;
}
