/*
 * tui_overlay.h - the state of the two screens that cover the others, the
 * help and the step's whole text (tui_overlay.c): where they are scrolled
 * to, and the lesson screen they cover (its words, its text, its
 * plug-in's help), borrowed.
 */
#ifndef ATTN_TUI_OVERLAY_H
#define ATTN_TUI_OVERLAY_H

typedef struct LessonScreen LessonScreen;

typedef struct {
    int first, max;             /* the first line shown, the most there is  */
    const LessonScreen *ls;     /* the lesson under it; NULL over the menu  */
    int where;                  /* KEYS_MODEL over the models; 0: as ls says */
} OverlayView;

/* The screen objects (self: an OverlayView). */
struct TuiScreen;
extern const struct TuiScreen tui_screen_help;
extern const struct TuiScreen tui_screen_text;

#endif
