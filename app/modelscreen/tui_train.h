/*
 * tui_train.h - the screen of `attn train` on a terminal (tui_train.c):
 * the model trains between keys (the screen's idle) while the screen shows
 * the loss curves, the rate and the time left, each head's induction score
 * over the evaluations (the moment induction heads form), every head's
 * attention on a probe text as it changes, and a sample of text.
 *
 * Ownership: a TrainScreen owns its Trainer (train_screen_free, which
 * writes the checkpoint of a run not finished and says how to go on).
 */
#ifndef ATTN_TUI_TRAIN_H
#define ATTN_TUI_TRAIN_H

#include "trainer.h"

typedef struct TrainScreen TrainScreen;

/* The screen of a run begun by trainer_open: NULL on no memory. */
TrainScreen *train_screen_new(Trainer *t);
/* Let it go: a run not finished is checkpointed first; what happened is
 * said on stderr (the terminal is the shell's again by then). Returns the
 * exit status: 0 done, 1 a checkpoint or the model not written, 130
 * stopped before the end. */
int train_screen_free(TrainScreen *s);

struct TuiScreen;
extern const struct TuiScreen tui_screen_train;

#endif
