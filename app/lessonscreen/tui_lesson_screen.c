/*
 * tui_lesson_screen.c - the lesson screen as a screen of the stack
 * (tui_screen.h): its state made and let go, its keys (a plug-in's first
 * look, the prompt, the lesson's actions) and what they ask of the loop
 * (the help, the whole text, the blank screen, a hunt's lists, the cost
 * view, back), its saves of progress noted as they happen and kept for the
 * exit when one fails, and its file watched between keys (tui_live.c).
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>

#include "tui_help.h"
#include "tui_live.h"
#include "tui_lesson_internal.h"
#include "tui_text.h"

#define KEY_ESC 27
#define CTRL(c) ((c) & 0x1f)

LessonScreen *lesson_screen_new(LessonLook *look)
{
    LessonScreen *ls = calloc(1, sizeof *ls);
    if (!ls)
        return NULL;
    ls->look = look;
    if (look) {
        ls->present = look->present;
        ls->big_numbers = look->big_numbers;
        ls->heat_numbers_off = look->heat_numbers_off;
    }
    return ls;
}

static void lesson_close(void *self)
{
    LessonScreen *ls = self;
    if (ls->look) {
        ls->look->big_numbers = ls->big_numbers;
        ls->look->heat_numbers_off = ls->heat_numbers_off;
    }
    lv_close(&ls->lv);
    lv_frame_free(ls);
    free(ls);
}

/* A save of progress that failed or warned is said on the screen when it
 * happens, and a failure kept for the exit (term->exit_note): never lost
 * in silence. Returns 1 when there is something new to show. */
static int note_saves(TuiTerm *term, LessonScreen *ls)
{
    Session *ses = ls->lv.ses;
    if (!ses || session_save_notes(ses) == ls->save_notes_seen)
        return 0;
    ls->save_notes_seen = session_save_notes(ses);
    if (session_save_failures(ses) > 0)
        snprintf(term->exit_note, sizeof term->exit_note, "%s", session_progress_warning(ses));
    tui_message(term, 1, "%s", session_progress_warning(ses));
    return 1;
}

/* What waited for the frame: the step the person moved to is saved
 * (session_defer_step_saves), and how that went noted. */
static int lesson_frame_done(TuiTerm *term, void *self)
{
    LessonScreen *ls = self;
    if (ls->lv.ses)
        session_save_pending(ls->lv.ses);
    return note_saves(term, ls);
}

/* The process ends with the lesson open: its last save, noted. */
static int lesson_at_exit(TuiTerm *term, void *self)
{
    lesson_frame_done(term, self);
    return 0;
}

/* ---- keys ------------------------------------------------------------------ */

/* Typing into the prompt: printable characters, Backspace, Enter, Esc. */
static void prompt_key(TuiTerm *term, LessonScreen *ls, int ch)
{
    if (ch == KEY_ESC || ch == CTRL('g')) {
        ls->prompt.kind = PROMPT_NONE;
    } else if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
        lv_submit(term, ls);
    } else if (ch == KEY_BACKSPACE || ch == 127 || ch == CTRL('h')) {
        if (ls->prompt.len > 0)
            ls->prompt.input[--ls->prompt.len] = '\0';
    } else if (ch == CTRL('u')) {
        ls->prompt.len = 0;
        ls->prompt.input[0] = '\0';
    } else if (ch >= ' ' && ch < 127 && ls->prompt.len < INPUT_MAX - 1) {
        ls->prompt.input[ls->prompt.len++] = (char)ch;
        ls->prompt.input[ls->prompt.len] = '\0';
    }
}

/* A key: the lesson's own action done, or the one it leaves to the screen
 * (tui_action_shared). */
static TuiAction lv_key(TuiTerm *term, LessonScreen *ls, int ch)
{
    term->message[0] = '\0';
    if (ls->prompt.kind != PROMPT_NONE) {
        prompt_key(term, ls, ch);
        return ACT_NONE;
    }
    if (ls->lv.confirm_reveal) {
        lv_confirm_reveal(term, ls, ch);
        return ACT_NONE;
    }
    TuiAction a = tui_key_action(ch, KEYS_LESSON);
    if (tui_action_shared(a))
        return a;
    if (!term->layout_ok)
        return ACT_NONE;    /* (nothing to act on while the screen is too small) */
    if (ch == KEY_MOUSE) {
        MEVENT ev;
        if (getmouse(&ev) == OK && (ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED)))
            lv_click(ls, ev.x, ev.y);
        return ACT_NONE;
    }
    lv_action(term, ls, a);
    return ACT_NONE;
}

/* The help of the lesson screen: its keys in a hunt's words or a
 * lesson's, and the notes no key says (in class, the class's keys). */
static TuiAsk lesson_help(const TuiTerm *term, const LessonScreen *ls)
{
    char edited[200];
    snprintf(edited, sizeof edited, "%s marks an edited cell; the title bar counts the edits.",
             ui_glyph(&term->cv, "✎", "'"));
    HelpWant want = { KEYS_LESSON, session_bug(ls->lv.ses) ? KEYS_HUNT : ls->present ? KEYS_PRESENT : KEYS_LESSON,
                      { "Enter marks where a value came from; a click selects a cell; -inf is masked.", edited,
                        ls->plug ? ls->plug->help(ls->plug->self) : NULL } };
    return tui_help_open(&want);
}

/* What an action the lesson leaves asks of the loop. */
static TuiAsk lesson_ask(TuiTerm *term, LessonScreen *ls, TuiAction a)
{
    switch (a) {
    case ACT_QUIT:
    case ACT_COST:
    case ACT_MODELS:
        return tui_ask(a);      /* the end, or a screen the app makes */
    case ACT_HELP:
        return lesson_help(term, ls);
    case ACT_TEXT:
        return lv_text_open(ls);
    case ACT_BLANK:
        return tui_ask_open(&tui_screen_blank, NULL);
    case ACT_BUG_KINDS:
        return tui_ask_open(&tui_screen_bug_kinds, ls);
    case ACT_BUG_FIX:
        return tui_ask_open(&tui_screen_bug_fix, ls);
    case ACT_BACK:
        if (ls->lv.zoom) {      /* Esc leaves the zoom first */
            ls->lv.zoom = 0;
            return tui_ask(ACT_NONE);
        }
        lesson_frame_done(term, ls);    /* the last save, noted where it goes back to */
        return tui_ask(ACT_CLOSE);
    case ACT_RELOAD:
        clearok(curscr, TRUE);  /* Ctrl-L: repaint the whole terminal too */
        lv_reload_if_changed(term, ls, 1);
        return tui_ask(ACT_NONE);
    case ACT_HIDE_ERROR:
        lv_hide_reload_error(term, ls);
        return tui_ask(ACT_NONE);
    default:
        return tui_ask(ACT_NONE);
    }
}

/* ---- the screen object ------------------------------------------------------ */

/* A plug-in beside the lesson has the first look at each key. */
static TuiAsk lesson_key(TuiTerm *term, void *self, int ch)
{
    LessonScreen *ls = self;
    if (ch != KEY_RESIZE && ls->plug && ls->prompt.kind == PROMPT_NONE && ls->plug->key(ls->plug->self, term, ls, ch))
        return tui_ask(ACT_NONE);
    TuiAction a = lv_key(term, ls, ch);
    if (a == ACT_NONE) {        /* a screen the lesson asked for */
        a = ls->asks;
        ls->asks = ACT_NONE;
    }
    return lesson_ask(term, ls, a);
}

static void lesson_prepare(TuiTerm *term, void *self)
{
    note_saves(term, self);     /* what an action saved, said in this frame */
    lv_prepare(term, self);
}

static void lesson_draw(TuiTerm *term, void *self) { lv_draw(term, self); }

/* Its file saved in another window: read again and shown. */
static int lesson_tick(TuiTerm *term, void *self) { return lv_reload_if_changed(term, self, 0); }

const TuiScreen tui_screen_lesson = { .name = "lesson", .key = lesson_key, .prepare = lesson_prepare,
                                      .draw = lesson_draw, .tick = lesson_tick, .frame_done = lesson_frame_done,
                                      .at_exit = lesson_at_exit, .close = lesson_close };
