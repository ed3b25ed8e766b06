/*
 * tui_start.c - the terminal taken and given back: curses set up for the
 * screen (refused with a clear message where the terminal cannot place
 * the cursor), every signal that would end the process turned into a flag
 * the loop reads, and a crash that cannot return to the loop putting the
 * terminal back before it dies.
 */
#include <curses.h>
#include <term.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "lesson.h"
#include "escape.h"
#include "tui_screen.h"
#include "tui_state.h"

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
int tui_terminal_gone(void)
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

void tui_start_curses(TuiTerm *term, int no_color, void (*on_signal)(int))
{
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        fputs("attn: the lesson screen needs a terminal; to print a lesson, use 'attn run FILE'\n", stderr);
        exit(2);
    }
    char term_name[200];
    term_escape(getenv("TERM") ? getenv("TERM") : "", term_name, sizeof term_name);
    saved_tty_ok = tcgetattr(STDIN_FILENO, &saved_tty) == 0;
    if (!newterm(NULL, stdout, stdin)) {
        fprintf(stderr, "attn: cannot open the terminal (TERM=%s)\n", term_name);
        exit(2);
    }
    /* a terminal that cannot place the cursor (TERM=dumb) would get an
     * unusable screen: refused, as an unknown terminal is */
    char *cup = tigetstr("cup"), *clear = tigetstr("clear");
    if (!cup || cup == (char *)-1 || !clear || clear == (char *)-1) {
        endwin();
        fprintf(stderr, "attn: this terminal (TERM=%s) cannot move the cursor, which the lesson screen needs; "
                        "set TERM to your terminal's (e.g. xterm-256color), or print the lesson with 'attn run "
                        "FILE'\n", term_name);
        exit(2);
    }
    tui_curses_began();
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    term->cv.win = stdscr;
    term->cv.utf8 = term->utf8;
    set_escdelay(25);
    curs_set(0);
    timeout(TUI_TICK_MS);
    mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED, NULL);
    mouseinterval(0);
    tui_colors_init(term, no_color);
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

