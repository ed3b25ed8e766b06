/*
 * tui.h - the terminal screen: the lesson menu and the lesson screen.
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
 * Returns the exit status: 0, or 2 when the lesson could not be loaded
 * (the error printed after the terminal is restored); for a training run,
 * train_screen_free's. */
int tui_main(const char *file, const TuiOptions *opt);

#endif
