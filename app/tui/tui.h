/*
 * tui.h - the terminal screen (tui_main.c): the lesson menu, a lesson, the
 * real models, attn train's run, a class, each a screen of one loop.
 */
#ifndef ATTN_TUI_H
#define ATTN_TUI_H

/* How the screen is opened. */
typedef struct {
    int no_color;   /* monochrome (NO_COLOR in the environment does too) */
    int present;    /* presenter mode: for a class watching a projector  */
    /* class mode (attn --class): presenter mode and a class server */
    int class_mode;
    const char *listen, *code, *log;    /* NULL: the defaults (class_server.h) */
    /* a student joining a class on a terminal (attn join): its address,
     * code and name; the lesson comes from the class */
    const char *join_addr, *join_code, *join_name;
    /* a real model (attn model PATH on a terminal): its directory, and the
     * text to look at (NULL: attn's sentence) */
    const char *model_dir, *model_text;
    /* a training run begun (attn train on a terminal): the screen trains it
     * and owns it from then on */
    struct Trainer *trainer;
    /* find the bug (attn bug): a classic mistake planted by bug_seed */
    int bug;
    unsigned bug_seed;
} TuiOptions;

/* Open the menu of the default lesson set (file == NULL) or one lesson.
 * Returns the exit status: 2 when the lesson, the class or the model could
 * not be opened, 1 when a student could not join (each error printed
 * before the terminal changes), else the loop's (tui_run in
 * tui_state.h: 0; 1 when a save of progress failed; 128 + a signal's
 * number; a training run's own when it could not be checkpointed). */
int tui_main(const char *file, const TuiOptions *opt);

#endif
