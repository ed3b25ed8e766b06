/*
 * trainer.h - a training run as `attn train` and its screen drive it
 * (trainer.c): begun from scratch, from a model directory or taken back
 * from a checkpoint; one step at a time (a batch drawn, forward, backward,
 * AdamW); an evaluation on the validation text every so many steps, with a
 * checkpoint written; and what the screen shows of the model as it learns:
 * every head's attention on a probe text, each head's induction score, a
 * sample of text.
 *
 * Ownership: the Trainer owns its model, data and run (trainer_free).
 */
#ifndef ATTN_TRAINER_H
#define ATTN_TRAINER_H

#include <stddef.h>

#include "train_state.h"

/* The settings a person gave on the command line (TrainerOptions' given):
 * on --resume each must be the run's own, and with --init the shape the
 * model's (--context may be shorter: the sequences are). */
enum {
    GIVEN_LAYERS = 1 << 0, GIVEN_HEADS = 1 << 1, GIVEN_D = 1 << 2, GIVEN_CONTEXT = 1 << 3, GIVEN_BATCH = 1 << 4,
    GIVEN_STEPS = 1 << 5, GIVEN_LR = 1 << 6, GIVEN_WD = 1 << 7, GIVEN_WARMUP = 1 << 8, GIVEN_SCHEDULE = 1 << 9,
    GIVEN_SEED = 1 << 10, GIVEN_EVAL = 1 << 11,
};

/* How a run is begun. */
typedef struct {
    TrainSettings set;          /* from scratch or --init (ignored on resume) */
    const char *data, *out, *init;
    int resume;
    int validate;               /* only measure: --out is not written */
    unsigned given;             /* GIVEN_* of the settings set holds         */
} TrainerOptions;

typedef struct Trainer Trainer;

/* The files a run writes in its folder (--out): the checkpoint, the model
 * in the real-models layout, the log. */
extern const char *const trainer_files[];

/* The run of o, its data read, its folder taken (made, or one attn wrote:
 * a folder holding another model is refused): NULL, having put why. */
Trainer *trainer_open(const TrainerOptions *o, char *why, size_t size);
void trainer_free(Trainer *t);
const TrainRun *trainer_run(const Trainer *t);
Model *trainer_model(Trainer *t);
const TrainData *trainer_data(const Trainer *t);
/* The folder it writes to (--out). */
const char *trainer_out(const Trainer *t);

/* One step. 1 when it ended in an evaluation (a point more on the curve
 * with each head's induction score, its line appended to DIR/train.log,
 * *rate its tokens per second since the one before, the checkpoint
 * written), 0 when not, -1 with why (the checkpoint could not be written:
 * the last good one is kept). */
int trainer_step(Trainer *t, double *rate, char *why, size_t size);
int trainer_done(const Trainer *t);
/* The seconds the run's steps left take at rate tokens a second (0 with
 * no rate yet): the time left the lines and the screen say. */
double trainer_seconds_left(const Trainer *t, double rate);
/* Tokens a second over the steps since the last evaluation (0 before the
 * first step): what the screen says before an evaluation has measured it. */
double trainer_rate_now(const Trainer *t);

/* The induction score a head reaches to be called an induction head. */
#define TRAINER_INDUCTION_MARK 0.4
/* The line of the last evaluation (rate its tokens a second), as `attn
 * train` prints it and DIR/train.log keeps it: "step 100/5000  train ...". */
void trainer_point_line(const Trainer *t, double rate, char *buf, size_t size);
/* When no head reached the induction mark at the last evaluation: a line
 * saying so and how to watch one form, and 1; else 0. */
int trainer_induction_note(const Trainer *t, char *buf, size_t size);
/* At the run's end: that note, when there is one, kept in train.log. */
void trainer_log_end(Trainer *t);
/* The checkpoint now (a stop asked for): 0, or -1 with why. */
int trainer_checkpoint(Trainer *t, char *why, size_t size);
/* The model saved in the out folder as an ordinary checkpoint. */
int trainer_save_model(Trainer *t, char *why, size_t size);
/* The mean loss on the validation text's evaluation batches. */
double trainer_validate(Trainer *t);

/* Every head's attention on text's bytes (at most the context): *n
 * tokens, out layers x heads x n x n (the caller's, context^2 x heads x
 * layers floats). 0, or -1 (no memory). */
int trainer_probe(Trainer *t, const char *text, float *out, int *n);
/* Each head's induction score (layers x heads): the model screen's probe
 * (model_probe_heads), each byte drawn as often as the training text uses
 * it, the counts the saved model carries (token_counts.json): attn model
 * gives the saved model these very scores. 0, or -1. */
int trainer_induction(Trainer *t, double *scores);
/* The temperature of a sample. */
#define TRAINER_SAMPLE_T 0.8
/* Text the model writes after prompt (its bytes), at most len - 1 bytes
 * and a NUL, through the one generator (model_gen.h: a key/value cache,
 * each byte computing its own row; when the context is full it goes on
 * from the context's last half) at TRAINER_SAMPLE_T, its draws from the
 * trainer's own generator (seeded 7 when the run opens); a 0 byte drawn
 * is written as 0x7f, so the text stays one string (the screen shows either
 * as '?'). */
void trainer_sample(Trainer *t, const char *prompt, char *out, size_t len);

#endif
