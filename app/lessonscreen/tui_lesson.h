/*
 * tui_lesson.h - the lesson screen as the main loop and the screens over it
 * see it: its state (LessonScreen: the open session, its panes and what the
 * last frame computed for each, the cursor, the decimals, the exercise
 * shown, the prompt, the bars), its life, its whole text and its screen
 * objects (tui_screen.h). What its parts share beyond this is tui_lesson_internal.h's.
 */
#ifndef ATTN_TUI_LESSON_H
#define ATTN_TUI_LESSON_H

#include "tui_view.h"
#include "bigtext.h"
#include "explain.h"
#include "heat.h"
#include "lesson.h"
#include "session.h"
#include "tui_keys.h"
#include "tui_layout.h"
#include "tui_put.h"
#include "tui_exlines.h"
#include "tui_term.h"

/* What the lesson screen is typing: an answer or an edit, with its label. */
typedef struct {
    PromptKind kind;    /* PROMPT_NONE: nothing is typed                    */
    char input[INPUT_MAX];
    int len;
    char label[160];
} LessonPrompt;

struct TuiPlugin;

/* What a person set on one lesson screen and keeps on the next: the
 * presenter's settings. Owned by whoever opens lessons (tui_main.c); a
 * lesson screen reads it when made and writes B and N back as it closes. */
typedef struct {
    int present, big_numbers, heat_numbers_off;
} LessonLook;

/* The lesson screen's state, all of it (its functions take the terminal and
 * this): the view of the session, the prompt, the frame's layout and what
 * the last frame computed, the presenter's settings, the bars' heights.
 * Ownership: the view's session and the frame's text and explanation; the
 * stack owns the LessonScreen (tui_screen_lesson's close). */
typedef struct LessonScreen {
    LessonView lv;
    LessonPrompt prompt;
    ScreenLayout layout;
    /* what the last prepare computed for the frame: the explanation of
     * the focused cell (ex_ok), or why there is none (ex_err) */
    struct {
        Explanation ex;
        int ex_ok;
        Mat *as_written;    /* a bug hunt's cell as the lesson writes it (owned) */
        char ex_err[256];
        /* the lesson's prose and exercise area, wrapped once by its
         * prepare and drawn from here (owned): each exercise line with
         * its role (tui_exlines.h's ExLineRole), so no colour is chosen by
         * reading the text back */
        char *text, *exercise;
        int text_n, exercise_n;
        unsigned char roles[EX_ROLES_MAX];
    } frame;
    /* presenter mode (--present): a big step title, no key bar, the
     * panes revealed one at a time */
    int present;
    int big_numbers;    /* B: grown cells show their numbers in the block font */
    int heat_numbers_off; /* N: heatmaps show colour (or shade) only       */
    int title_h;        /* rows of the step title (1, or the big one's)   */
    int banner_h;       /* rows of the reload error under the title (0: none) */
    int knob_h;         /* rows of the knob bar under it (0: none)          */
    int bar_h;          /* rows of the plug-in's bar under them (0 or 1)    */
    /* a plug-in beside the lesson (class mode, tui_plugin.h): its bar, its
     * keys, its help; NULL: none. Not owned. */
    struct TuiPlugin *plug;
    /* what the last action changed (SessionChange bits), for the plug-in */
    unsigned changed;
    /* a screen the main loop is asked to open (ACT_TEXT, ACT_BLANK,
     * ACT_BUG_KINDS, ACT_BUG_FIX), handed back by the key */
    TuiAction asks;
    int save_notes_seen;  /* the session's notes of saves last shown       */
    LessonLook *look;     /* kept from lesson to lesson (borrowed; NULL: none) */
} LessonScreen;

/* tui_lesson_screen.c: a lesson screen with nothing open yet (lv_open,
 * lv_adopt), its presenter's settings from look (NULL: none); NULL on no
 * memory. Freed by tui_screen_lesson's close. */
LessonScreen *lesson_screen_new(LessonLook *look);

/* tui_lesson.c: the lesson screen's life, as the loop and the screens over
 * it see it. Open the lesson at path into ls. Returns 0, or -1 with the
 * error text in msg (the view is left empty). */
int lv_open(TuiTerm *term, LessonScreen *ls, const char *path, char *msg, size_t size);
/* Adopt an opened session (ownership passes to the view). */
void lv_adopt(TuiTerm *term, LessonScreen *ls, Session *ses);
void lv_close(LessonView *lv);
/* Go to a screen of the lesson. */
void lv_go(LessonScreen *ls, int screen);
/* Handle one action of the lesson view. */
void lv_action(TuiTerm *term, LessonScreen *ls, TuiAction a);
/* tui_lesson_draw.c: release what the last frame kept (its text, its
 * explanation). */
void lv_frame_free(LessonScreen *ls);
/* The step's prose and then its exercise as it stands, wrapped to width
 * (what t shows whole). Returns the lines. */
int lv_whole_text(const TuiTerm *term, const LessonScreen *ls, char *buf, size_t size, int width);

/* The screen objects: the lesson (self: a LessonScreen of
 * lesson_screen_new, the stack's), and a bug hunt's list of kinds and its
 * fix (tui_bug.c; self: the LessonScreen under them, borrowed). */
struct TuiScreen;
extern const struct TuiScreen tui_screen_lesson;
extern const struct TuiScreen tui_screen_bug_kinds;
extern const struct TuiScreen tui_screen_bug_fix;
#endif
