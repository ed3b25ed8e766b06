/*
 * tui_keys.h - every action of the screen, its help text and its keys, in
 * one place: an X-macro of actions and a {key, action} table. The key
 * loop and the help screen both read them, so the help cannot drift from
 * the bindings (nnn's bindings[], tig's REQ_INFO).
 */
#ifndef ATTN_TUI_KEYS_H
#define ATTN_TUI_KEYS_H

#include <stddef.h>

/* X(name, help text) */
#define TUI_ACTIONS(X)                                   \
    X(ACT_NONE,      "")                                 \
    X(ACT_NEXT,      "next step")                        \
    X(ACT_PREV,      "previous step")                    \
    X(ACT_FIRST,     "first step")                       \
    X(ACT_LAST,      "last step")                        \
    X(ACT_UP,        "move up")                          \
    X(ACT_DOWN,      "move down")                        \
    X(ACT_LEFT,      "move left")                        \
    X(ACT_RIGHT,     "move right")                       \
    X(ACT_PANE_NEXT, "next pane")                        \
    X(ACT_PANE_PREV, "previous pane")                    \
    X(ACT_SELECT,    "open / explain the cell")          \
    X(ACT_MORE,      "more decimals")                    \
    X(ACT_LESS,      "fewer decimals")                   \
    X(ACT_HEAT,      "heatmap or numbers")               \
    X(ACT_OVERVIEW,  "overview: mean/max/off")           \
    X(ACT_EDIT,      "edit an input cell")               \
    X(ACT_UNDO,      "undo the last edit")               \
    X(ACT_RESET,     "reset all edits")                  \
    X(ACT_HINT,      "reveal the next hint")             \
    X(ACT_REVEAL,    "the worked answer") \
    X(ACT_ANSWER,    "answer the exercise")              \
    X(ACT_EXERCISE,  "next exercise")                    \
    X(ACT_TEXT,      "the step's whole text")            \
    X(ACT_ZOOM,      "zoom the pane, and back")          \
    X(ACT_BIG,       "big numbers on or off")            \
    X(ACT_HEAT_NUMBERS, "numbers on heatmaps")           \
    X(ACT_WRITE_SVG, "the pane as SVG, here")           \
    X(ACT_BLANK,     "blank the screen")                 \
    X(ACT_KNOB_NEXT, "next knob")                        \
    X(ACT_KNOB_DOWN, "knob one step down")               \
    X(ACT_KNOB_UP, "knob one step up")                   \
    X(ACT_KNOB_DOWN_BIG, "knob ten steps down")          \
    X(ACT_KNOB_UP_BIG, "knob ten steps up")              \
    X(ACT_KNOB_TOGGLE, "flip a switch")                  \
    X(ACT_RELOAD,    "re-read files, redraw")            \
    X(ACT_HIDE_ERROR, "hide the reload error")           \
    X(ACT_HELP,      "this help")                        \
    X(ACT_OPEN_NUMBER, "open the lesson of that number") \
    X(ACT_COST,      "the cost of attention")            \
    X(ACT_MODELS,    "real models: every head of a trained transformer") \
    X(ACT_TYPE,      "type a new text")                  \
    X(ACT_HEAD_LESSON, "walk the head through the lesson's steps") \
    X(ACT_PAUSE,     "pause the training, or go on")     \
    X(ACT_GENERATE,  "generate after the text, a token at a time") \
    X(ACT_KEEP_TEXT, "keep the generated text as the text") \
    X(ACT_LINES,     "one query's lines to its keys, or the matrix") \
    X(ACT_ABLATE,    "take the head out (ablate it), or put it back") \
    X(ACT_PATCH,     "patch the head from a second text") \
    X(ACT_LENS,      "the logit lens: each layer's next token") \
    X(ACT_ATTRIBUTION, "each head's direct share of the next token") \
    X(ACT_BACK,      "back to the menu")                 \
    X(ACT_QUIT,      "quit")                             \
    X(ACT_BUG_KINDS, "")    /* a screen asks: the list of bug kinds on top */ \
    X(ACT_BUG_FIX,   "")    /* the fix of a found bug on top                  */ \
    X(ACT_CLOSE,     "")    /* the screen on top closes                       */ \
    X(ACT_OPEN,      "")    /* a screen the key carries goes on top           */ \
    X(ACT_OPEN_LESSON, "")  /* a lesson at a path opens (the menu's, a head's) */

typedef enum {
#define TUI_ACTION_ENUM(name, help) name,
    TUI_ACTIONS(TUI_ACTION_ENUM)
#undef TUI_ACTION_ENUM
    ACT_COUNT
} TuiAction;

/* Where a binding applies. KEYS_HUNT, KEYS_PRESENT and KEYS_TRAIN_OVER are
 * no places of their own but words (tui_action_help_in): the lesson
 * screen's keys in a bug hunt, or a presenter's (Space shows the next
 * matrix first), and attn train's once its run is over (nothing to
 * pause). KEYS_TRAIN: attn train's screen (pause, stop, help). */
enum { KEYS_MENU = 1, KEYS_LESSON = 2, KEYS_HUNT = 4, KEYS_MODEL = 8, KEYS_TRAIN = 16, KEYS_PRESENT = 32,
       KEYS_TRAIN_OVER = 64 };

typedef struct {
    int key;            /* a character or a curses KEY_* code */
    TuiAction action;
    int where;          /* KEYS_MENU | KEYS_LESSON | KEYS_MODEL | KEYS_TRAIN */
} TuiBinding;

/* The table, ended by an entry with action ACT_NONE. */
extern const TuiBinding tui_bindings[];

/* The action bound to key where (KEYS_MENU or KEYS_LESSON), or ACT_NONE. */
TuiAction tui_key_action(int key, int where);

/* 1 for the actions every screen hands back to the main loop: quit, help,
 * back, reload, hide the reload error, the cost view. */
int tui_action_shared(TuiAction a);

/* The action's help text (static, "" for ACT_NONE). */
const char *tui_action_help(TuiAction a);
/* The same in the words of a screen (KEYS_MENU: "first lesson", ...); ""
 * for an action the screen has a key for but cannot take now (a help
 * leaves it out). */
const char *tui_action_help_in(TuiAction a, int where);

/* A key's name for people: "n", "Space", "PgDn", "Up", "Tab", "Esc" ...
 * Returns buf. */
const char *tui_key_name(int key, char *buf, size_t size);

/* All keys of action a in where, joined with ", " into buf. Returns buf
 * ("" when the action has no key there). */
const char *tui_action_keys(TuiAction a, int where, char *buf, size_t size);

#endif
