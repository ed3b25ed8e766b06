/*
 * tui.c - the terminal screen's one input loop (tig's view loop): read a
 * key, give it to the screen on top (tui_screen.h) and carry out what it
 * asks (open a screen it carries, or one the app's table makes for an
 * action; close the top; quit), then have the top lay out and draw one
 * frame from its state. It knows screens and poll sources, never a screen
 * by name: the screens it starts on and the table are tui_main.c's.
 * Resizes arrive as KEY_RESIZE in the same loop; each 200 ms timeout (and
 * each key) ticks every screen on the stack (a lesson watches its file)
 * and lets each one that works between keys take a step (idle: attn
 * train goes on under its help); a plug-in's descriptors are polled
 * beside the keyboard. SIGINT/SIGTERM/SIGHUP only set a flag here, and the
 * loop leaves through the one exit path that restores the terminal, then
 * gives each screen left its last word and closes it.
 */
#include <curses.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lesson.h"
#include "escape.h"
#include "tui_chrome.h"
#include "tui_plugin.h"
#include "tui_screen.h"
#include "tui_state.h"

#define BRIEF_TICKS 20  /* ticks: 4 s */

/* The only file-scope state of the screen, and it is the process's, not a
 * screen's: the signal that asked us to stop (a handler can only reach a
 * static). Everything else lives in Tui. */
static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
    got_signal = sig;   /* the loop notices within one getch timeout */
}

/* ---- what a key asks ----------------------------------------------------- */

/* A screen the app makes for action a, from the table tui_main gave. */
static TuiAsk made_for(Tui *t, TuiAsk a)
{
    for (const TuiOpener *o = t->openers; o && o->act != ACT_NONE; o++)
        if (o->act == a.act)
            return o->open(&t->term, t->open_ctx, a.arg);
    return tui_ask(ACT_NONE);
}

static void carry_out(Tui *t, TuiAsk a)
{
    if (a.act != ACT_NONE && a.act != ACT_QUIT && a.act != ACT_CLOSE && a.act != ACT_OPEN)
        a = made_for(t, a);
    switch (a.act) {
    case ACT_QUIT:
        t->quit = 1;
        break;
    case ACT_CLOSE:
        tui_close_top(t);
        if (t->depth == 0)
            t->quit = 1;    /* the last screen closed */
        break;
    case ACT_OPEN:
        tui_push(t, a.screen, a.self);
        break;
    default:
        break;
    }
}

void tui_key(Tui *t, int ch)
{
    carry_out(t, tui_top(t)->key(&t->term, tui_top_self(t), ch));
}

/* ---- frames ----------------------------------------------------------------- */

void tui_prepare(Tui *t)
{
    /* (without a window, at the size the caller set: the layout tests) */
    if (t->term.cv.win)
        getmaxyx(t->term.cv.win, t->term.rows, t->term.cols);
    t->term.frame_no++;      /* what a pane found of its matrix is this frame's */
    tui_top(t)->prepare(&t->term, tui_top_self(t));
}

void tui_draw(Tui *t)
{
    werase(t->term.cv.win);
    if (t->term.layout_ok)
        tui_top(t)->draw(&t->term, tui_top_self(t));
    else
        tui_draw_too_small(&t->term);
    wrefresh(t->term.cv.win);
}

/* Every screen on the stack, bottom first, at a tick or after a key:
 * what it watches. 1 when one of them changed. */
/* Between keys: each screen on the stack that works takes its step, the
 * one on top last, and the wait for the next key is the tick unless one
 * of them asks for none while it works (the help over attn train once
 * stopped the training, and before that spun on the no-wait it left).
 * With a plug-in its poll waits, as ever. */
static int idle(Tui *t)
{
    if (!t->plug)
        timeout(TUI_TICK_MS);
    int changed = 0;
    for (int i = 0; i < t->depth && !t->quit; i++)
        if (t->stack[i].screen->idle && t->stack[i].screen->idle(&t->term, t->stack[i].self))
            changed = 1;
    return changed;
}

static int tick(Tui *t)
{
    int changed = 0;
    for (int i = 0; i < t->depth && !t->quit; i++)
        if (t->stack[i].screen->tick && t->stack[i].screen->tick(&t->term, t->stack[i].self))
            changed = 1;
    return changed;
}

/* A frame, then what can wait until it is on the screen (a lesson's step
 * saved: a key is answered before the disk is touched), on every screen
 * of the stack; what that brings (a save that failed) is drawn at once. */
static void frame(Tui *t)
{
    tui_prepare(t);
    tui_draw(t);
    int again = 0;
    for (int i = 0; i < t->depth; i++)
        if (t->stack[i].screen->frame_done && t->stack[i].screen->frame_done(&t->term, t->stack[i].self))
            again = 1;
    if (again) {
        tui_prepare(t);
        tui_draw(t);
    }
}

/* ---- what runs beside ------------------------------------------------------ */

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
    if (p->pump(p->self, &t->term, NULL, 0)) {
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
    if (p->pump(p->self, &t->term, fds + 1, ready > 0 ? n : 0))
        *redraw = 1;
    return ERR;
}

/* The plug-in told what the last key (key 1) or tick (key 0) changed: 1
 * when the screen is to be drawn again. */
static int tell_plugin(Tui *t, int key)
{
    if (!t->plug)
        return 0;
    int redraw = t->plug->after(t->plug->self, &t->term, key);
    if (t->plug->quit)
        t->quit = 1;
    return redraw;
}

/* ---- the loop ---------------------------------------------------------------- */

/* The loop has ended: the terminal given back, each screen left on the
 * stack has its last word (top first) and is closed; the exit status. */
static int leave(Tui *t)
{
    tui_curses_end();
    int status = 0;
    for (int i = t->depth - 1; i >= 0; i--) {
        const TuiScreen *s = t->stack[i].screen;
        int asked = s->at_exit ? s->at_exit(&t->term, t->stack[i].self) : 0;
        if (!status)
            status = asked;
    }
    while (t->depth > 0)
        tui_close_top(t);
    if (got_signal)
        return status ? status : 128 + (int)got_signal;
    if (!status && t->term.exit_note[0]) {
        char shown[2400];
        fprintf(stderr, "%s\n", term_escape(t->term.exit_note, shown, sizeof shown));
        return 1;
    }
    return status;
}

void tui_begin(Tui *t, int no_color)
{
    tui_start_curses(&t->term, no_color, on_signal);
    if (t->plug)
        timeout(0);     /* the plug-in's poll waits, for keys and it alike */
}

int tui_run(Tui *t)
{
    tell_plugin(t, 1);
    frame(t);
    int brief_ticks = 0;
    while (!t->quit && !got_signal) {
        int plugin_redraw = 0;
        int ch = next_key(t, &plugin_redraw);
        if (ch == ERR) {
            /* a timeout or an interrupted read: check the flag; a
             * terminal that is gone ends the session */
            if (tui_terminal_gone())
                break;
            /* what the screens watch (a lesson's file saved in another
             * window); then their next steps of work */
            int changed = tick(t);
            if (idle(t))
                changed = 1;
            if (plugin_redraw || tell_plugin(t, 0))
                changed = 1;
            /* a brief message goes after BRIEF_TICKS quiet timeouts */
            if (changed) {
                brief_ticks = 0;
            } else if (t->term.message_brief && t->term.message[0] && ++brief_ticks >= BRIEF_TICKS) {
                t->term.message[0] = '\0';
                changed = 1;
            }
            if (changed && !t->quit)
                frame(t);
            continue;
        }
        brief_ticks = 0;
        if (ch != KEY_RESIZE)
            tui_key(t, ch);
        if (t->plug && t->plug->quit)
            t->quit = 1;
        if (!t->quit)
            tick(t);
        if (!t->quit)
            frame(t);
        /* what runs beside is told after the person sees it; what it
         * changes (another question's tally) is drawn at once */
        if (tell_plugin(t, 1) && !t->quit)
            frame(t);
    }
    return leave(t);
}
