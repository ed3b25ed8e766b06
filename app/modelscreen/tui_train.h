/*
 * tui_train.h - the screen of `attn train` on a terminal (tui_train.c):
 * the model trains between keys (the screen's idle) while the screen shows
 * the loss curves, the rate and the time left, each head's induction score
 * over the evaluations (the moment induction heads form), every head's
 * attention on a probe text as it changes, and a sample of text.
 *
 * Ownership: a TrainScreen owns its Trainer; the main loop's stack owns the
 * TrainScreen. When the loop ends with it on the stack (tui_screen_train's
 * at_exit), a run not finished is checkpointed and how to go on said on
 * the shell's screen; that gives the exit status.
 */
#ifndef ATTN_TUI_TRAIN_H
#define ATTN_TUI_TRAIN_H

#include "trainer.h"

typedef struct TrainScreen TrainScreen;

/* The screen of a run begun by trainer_open: NULL on no memory. */
TrainScreen *train_screen_new(Trainer *t);
/* Let it go with its Trainer, nothing written (the screen object's close;
 * NULL is fine). */
void train_screen_free(TrainScreen *s);

struct TuiScreen;
extern const struct TuiScreen tui_screen_train;

#endif
