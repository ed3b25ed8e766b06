/*
 * tui_keys.c - the bindings table and the names of keys. Adding a key is
 * adding a line here; the help screen lists it from the same table.
 */
#include "tui_keys.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#define KEY_ESC 27
#define CTRL_L 12
#define BOTH (KEYS_MENU | KEYS_LESSON)
#define ALL (KEYS_MENU | KEYS_LESSON | KEYS_MODEL)
#define LESSON_MODEL (KEYS_LESSON | KEYS_MODEL)

const TuiBinding tui_bindings[] = {
    { 'n',           ACT_NEXT,      KEYS_LESSON },
    { ' ',           ACT_NEXT,      LESSON_MODEL },
    { KEY_NPAGE,     ACT_NEXT,      KEYS_LESSON },
    { 'p',           ACT_PREV,      KEYS_LESSON },
    { KEY_PPAGE,     ACT_PREV,      KEYS_LESSON },
    { KEY_HOME,      ACT_FIRST,     ALL },
    { 'g',           ACT_FIRST,     BOTH },
    { KEY_END,       ACT_LAST,      ALL },
    { 'G',           ACT_LAST,      ALL },
    { KEY_UP,        ACT_UP,        ALL },
    { 'k',           ACT_UP,        ALL },
    { KEY_DOWN,      ACT_DOWN,      ALL },
    { 'j',           ACT_DOWN,      ALL },
    { KEY_LEFT,      ACT_LEFT,      LESSON_MODEL },
    { KEY_RIGHT,     ACT_RIGHT,     LESSON_MODEL },
    { '\t',          ACT_PANE_NEXT, KEYS_LESSON },
    { KEY_BTAB,      ACT_PANE_PREV, KEYS_LESSON },
    { '\n',          ACT_SELECT,    ALL },
    { '\r',          ACT_SELECT,    ALL },
    { KEY_ENTER,     ACT_SELECT,    ALL },
    { '+',           ACT_MORE,      KEYS_LESSON },
    { '=',           ACT_MORE,      KEYS_LESSON },
    { '-',           ACT_LESS,      KEYS_LESSON },
    { 'h',           ACT_HEAT,      KEYS_LESSON },
    { 'o',           ACT_OVERVIEW,  KEYS_LESSON },
    { 'e',           ACT_EDIT,      KEYS_LESSON },
    { 'u',           ACT_UNDO,      KEYS_LESSON },
    { 'r',           ACT_RESET,     KEYS_LESSON },
    { 'i',           ACT_HINT,      KEYS_LESSON },
    { 'v',           ACT_REVEAL,    KEYS_LESSON },
    { 'a',           ACT_ANSWER,    KEYS_LESSON },
    { 'x',           ACT_EXERCISE,  KEYS_LESSON },
    { 't',           ACT_TEXT,      KEYS_LESSON },
    { 't',           ACT_TYPE,      KEYS_MODEL },
    { 'l',           ACT_HEAD_LESSON, KEYS_MODEL },
    { 'p',           ACT_PAUSE,     KEYS_TRAIN },
    { 'g',           ACT_GENERATE,  KEYS_MODEL },
    { 'a',           ACT_KEEP_TEXT, KEYS_MODEL },
    { 'v',           ACT_LINES,     KEYS_MODEL },
    { 'x',           ACT_ABLATE,    KEYS_MODEL },
    { 'P',           ACT_PATCH,     KEYS_MODEL },
    { 'L',           ACT_LENS,      KEYS_MODEL },
    { 'A',           ACT_ATTRIBUTION, KEYS_MODEL },
    { 'z',           ACT_ZOOM,      KEYS_LESSON },
    { 'B',           ACT_BIG,       KEYS_LESSON },
    { 'N',           ACT_HEAT_NUMBERS, KEYS_LESSON },
    { 'w',           ACT_WRITE_SVG, LESSON_MODEL },
    { 'b',           ACT_BLANK,     KEYS_LESSON },
    { 'K',           ACT_KNOB_NEXT, LESSON_MODEL },
    { '<',           ACT_KNOB_DOWN, LESSON_MODEL },
    { '[',           ACT_KNOB_DOWN, LESSON_MODEL },
    { '>',           ACT_KNOB_UP,   LESSON_MODEL },
    { ']',           ACT_KNOB_UP,   LESSON_MODEL },
    { '{',           ACT_KNOB_DOWN_BIG, KEYS_LESSON },
    { '}',           ACT_KNOB_UP_BIG, KEYS_LESSON },
    { 's',           ACT_KNOB_TOGGLE, KEYS_LESSON },
    { 'R',           ACT_RELOAD,    ALL },
    { CTRL_L,        ACT_RELOAD,    ALL },
    { 'c',           ACT_HIDE_ERROR, KEYS_LESSON },
    { '1',           ACT_OPEN_NUMBER, KEYS_MENU },
    { '2',           ACT_OPEN_NUMBER, KEYS_MENU },
    { '3',           ACT_OPEN_NUMBER, KEYS_MENU },
    { '4',           ACT_OPEN_NUMBER, KEYS_MENU },
    { '5',           ACT_OPEN_NUMBER, KEYS_MENU },
    { '6',           ACT_OPEN_NUMBER, KEYS_MENU },
    { '7',           ACT_OPEN_NUMBER, KEYS_MENU },
    { '8',           ACT_OPEN_NUMBER, KEYS_MENU },
    { '9',           ACT_OPEN_NUMBER, KEYS_MENU },
    { '0',           ACT_OPEN_NUMBER, KEYS_MENU },
    { 'C',           ACT_COST,      BOTH },
    { 'm',           ACT_MODELS,    KEYS_MENU },
    { '?',           ACT_HELP,      ALL | KEYS_TRAIN },
    { KEY_F(1),      ACT_HELP,      ALL | KEYS_TRAIN },
    { KEY_ESC,       ACT_BACK,      LESSON_MODEL | KEYS_TRAIN },
    { 'q',           ACT_QUIT,      ALL | KEYS_TRAIN },
    { KEY_ESC,       ACT_QUIT,      KEYS_MENU },
    { 0,             ACT_NONE,      0 },
};

TuiAction tui_key_action(int key, int where)
{
    for (const TuiBinding *b = tui_bindings; b->action != ACT_NONE; b++)
        if (b->key == key && (b->where & where))
            return b->action;
    return ACT_NONE;
}

const char *tui_action_help_in(TuiAction a, int where)
{
    /* the menu's words for the actions it shares with the lesson screen */
    if (where == KEYS_MENU) {
        switch (a) {
        case ACT_FIRST: return "first lesson";
        case ACT_LAST: return "last lesson";
        case ACT_UP: return "previous lesson";
        case ACT_DOWN: return "next lesson";
        case ACT_SELECT: return "open the lesson";
        case ACT_RELOAD: return "list the lessons again, redraw";
        case ACT_BACK: case ACT_QUIT: return "quit";
        default: break;
        }
    }
    /* the model screens' (app/modelscreen) */
    if (where == KEYS_MODEL) {
        switch (a) {
        case ACT_FIRST: return "the first model, head or token";
        case ACT_LAST: return "the last model, head or token";
        case ACT_UP: return "the model, layer or query above";
        case ACT_DOWN: return "the model, layer or query below";
        case ACT_LEFT: return "the head or key to the left";
        case ACT_RIGHT: return "the head or key to the right";
        case ACT_SELECT: return "open the model, the head; explain the weight; generating: run on";
        case ACT_KNOB_DOWN: return "the temperature (generating: the knob picked) down";
        case ACT_KNOB_UP: return "the temperature (generating: the knob picked) up";
        case ACT_KNOB_NEXT: return "generating: pick the next knob (temperature, top-k, top-p)";
        case ACT_NEXT: return "generating: one token";
        case ACT_RELOAD: return "list the models again, redraw";
        case ACT_BACK: return "back: head, lens, heads, models, menu";
        case ACT_WRITE_SVG: return "every head, or the head, as an SVG here";
        default: break;
        }
    }
    /* attn train's screen (tui_train.c) */
    if (where == KEYS_TRAIN) {
        switch (a) {
        case ACT_PAUSE: return "pause the training, or go on";
        case ACT_BACK: case ACT_QUIT: return "stop: the checkpoint is kept, attn train --resume goes on";
        default: break;
        }
    }
    /* attn train's once the run is over: nothing to pause */
    if (where == KEYS_TRAIN_OVER) {
        switch (a) {
        case ACT_PAUSE: return "";
        case ACT_BACK: case ACT_QUIT: return "quit: the run is over, its files are kept";
        default: break;
        }
    }
    /* a presenter's: each step's matrices come one at a time (tui_lesson.c) */
    if (where == KEYS_PRESENT && a == ACT_NEXT)
        return "the step's next matrix, then the next step";
    /* a bug hunt's: the exercise keys are the hunt's (tui_bug.c) */
    if (where == KEYS_HUNT) {
        switch (a) {
        case ACT_ANSWER: return "this pane? then name it";
        case ACT_HINT: return "a hint for the hunt";
        case ACT_REVEAL: return "the fix, as revealed";
        case ACT_EXERCISE: return "(none in a hunt)";
        default: break;
        }
    }
    return tui_action_help(a);
}

const char *tui_action_help(TuiAction a)
{
    static const char *const help[] = {
#define TUI_ACTION_HELP(name, text) text,
        TUI_ACTIONS(TUI_ACTION_HELP)
#undef TUI_ACTION_HELP
    };
    return (a >= 0 && a < ACT_COUNT) ? help[a] : "";
}

const char *tui_key_name(int key, char *buf, size_t size)
{
    static const struct {
        int key;
        const char *name;
    } named[] = {
        { ' ', "Space" }, { '\t', "Tab" }, { '\n', "Enter" }, { '\r', "Enter" },
        { KEY_ENTER, "Enter" }, { KEY_ESC, "Esc" }, { KEY_NPAGE, "PgDn" },
        { KEY_PPAGE, "PgUp" }, { KEY_HOME, "Home" }, { KEY_END, "End" },
        { KEY_UP, "Up" }, { KEY_DOWN, "Down" }, { KEY_LEFT, "Left" },
        { KEY_RIGHT, "Right" }, { KEY_BTAB, "Shift-Tab" }, { KEY_F(1), "F1" },
        { CTRL_L, "Ctrl-L" },
    };
    for (size_t i = 0; i < sizeof named / sizeof *named; i++)
        if (named[i].key == key) {
            snprintf(buf, size, "%s", named[i].name);
            return buf;
        }
    if (key > ' ' && key < 127)
        snprintf(buf, size, "%c", key);
    else
        snprintf(buf, size, "#%d", key);
    return buf;
}

const char *tui_action_keys(TuiAction a, int where, char *buf, size_t size)
{
    size_t len = 0;
    if (size == 0)
        return buf;
    buf[0] = '\0';
    for (const TuiBinding *b = tui_bindings; b->action != ACT_NONE; b++) {
        if (b->action != a || !(b->where & where))
            continue;
        char name[32];
        tui_key_name(b->key, name, sizeof name);
        /* \n, \r and KEY_ENTER are all "Enter": name each key once */
        int seen = 0;
        for (const TuiBinding *e = tui_bindings; e < b && !seen; e++) {
            char other[32];
            seen = e->action == a && (e->where & where)
                && strcmp(tui_key_name(e->key, other, sizeof other), name) == 0;
        }
        if (seen)
            continue;
        int n = snprintf(buf + len, size - len, "%s%s", len ? ", " : "", name);
        if (n < 0 || (size_t)n >= size - len)
            break;
        len += (size_t)n;
    }
    return buf;
}

int tui_action_shared(TuiAction a)
{
    return a == ACT_QUIT || a == ACT_HELP || a == ACT_BACK || a == ACT_RELOAD || a == ACT_HIDE_ERROR || a == ACT_COST
           || a == ACT_MODELS;
}
