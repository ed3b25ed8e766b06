/*
 * train_state.h - what `attn train` keeps so nothing is lost
 * (train_state.c): its data (a text file's bytes, the first 90% to train
 * on and the last 10% to validate on), and the checkpoint: the settings,
 * the step, the generator that draws the batches, the losses so far, the
 * weights and AdamW's moments, written atomically so a run killed at any
 * moment resumes from the last one whole.
 *
 * Ownership: TrainData owns its bytes (train_data_free); a TrainCurve
 * point array is the TrainRun's (train_run_free).
 */
#ifndef ATTN_TRAIN_STATE_H
#define ATTN_TRAIN_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "model_train.h"
#include "rng.h"

/* The bytes of a text file to train on. */
typedef struct {
    unsigned char *bytes;
    size_t len;
    size_t train_len;           /* bytes [0, train_len) train               */
    size_t val_at;              /* bytes [val_at, len) validate             */
    uint64_t hash;              /* FNV-1a of every byte: the same file?     */
} TrainData;

/* Read path (regular files only) and split it for sequences of context
 * tokens: 90% and 10%, each at least context + 1 bytes (overlapping when
 * the file is that short). 0, or -1 with why. */
int train_data_load(const char *path, int context, TrainData *d, char *why, size_t size);
void train_data_free(TrainData *d);

/* The ranges of a run's settings: the command line's options and a
 * checkpoint read back are held to the same ones (train_settings_check). */
#define TRAIN_MAX_LAYERS 64
#define TRAIN_MAX_HEADS 1024
#define TRAIN_MAX_WIDTH 8192
#define TRAIN_MAX_CONTEXT 8192
#define TRAIN_MAX_BATCH 4096
#define TRAIN_MAX_STEPS 100000000L
#define TRAIN_MAX_SEED 4294967295L
#define TRAIN_MIN_LR 1e-9
#define TRAIN_MAX_LR 10.0
#define TRAIN_MAX_WD 10.0
#define TRAIN_VOCAB 256         /* attn trains on bytes */

/* The settings a run keeps (and a resumed run takes back). */
typedef struct {
    GptShape shape;
    int batch;
    int64_t steps;              /* the run's last step                       */
    double lr, weight_decay;
    int64_t warmup;
    int cosine;                 /* 1: cosine to lr / 10; 0: constant         */
    int seq;                    /* the sequences' length (0: the model's
                                   context, as checkpoints before it): a
                                   model of 32 positions trains at 16 when
                                   asked (this field sits where the struct
                                   had padding, so a checkpoint's layout is
                                   the same)                                 */
    uint64_t seed;
    int64_t eval_every;
} TrainSettings;

/* The length of the sequences s trains on: seq, else the context. */
int train_seq(const TrainSettings *s);

/* One evaluation: the step, the training loss (the mean since the last),
 * the validation loss, the rate. */
typedef struct {
    int64_t step;
    double train_loss, val_loss, lr;
} TrainPoint;

/* What the run is at. */
typedef struct {
    TrainSettings set;
    int64_t step;               /* steps done                                */
    Rng rng;                    /* the batches' generator                    */
    double loss_sum;            /* training losses since the last evaluation */
    int64_t loss_n;
    uint64_t data_len, data_hash;
    TrainPoint *curve;
    int n_curve, cap_curve;
    float *induction;           /* at each point, each head's induction score
                                   (layers x heads a point; zeros for points
                                   of a checkpoint older than it)            */
} TrainRun;

/* Are s's settings within the ranges above (the vocabulary the 256 bytes,
 * heads dividing the width, the warm-up no longer than the run)? 0, or -1
 * with why, naming the setting and its value. */
int train_settings_check(const TrainSettings *s, char *why, size_t size);

/* A point more on the curve, with each head's induction score then
 * (layers x heads; NULL: zeros): 0, or -1 (no memory). */
int train_run_add_point(TrainRun *r, const TrainPoint *p, const double *induction);
void train_run_free(TrainRun *r);

/* The learning rate at step (from 0): linear warm-up over warmup steps,
 * then cosine decay to a tenth of lr at the last step, or constant. */
double train_lr(const TrainSettings *s, int64_t step);

/* The checkpoint file dir/checkpoint.bin of r and t's model's weights and
 * moments, written atomically: 0, or -1 with why (the last good one kept). */
int train_checkpoint_save(const char *dir, const TrainRun *r, ModelTrain *t, char *why, size_t size);
/* Read dir/checkpoint.bin: its run into *r, then a model of its shape with
 * its weights (*m) and its training with the moments (*t). 0, or -1 with
 * why (not one, damaged, of another version, named). */
int train_checkpoint_load(const char *dir, TrainRun *r, Model **m, ModelTrain **t, char *why, size_t size);
/* The same from the file's bytes (what load reads; a fuzz target's
 * entry): every field held to what a run can have before it is used, the
 * weights' count to the settings, each number finite. */
int train_checkpoint_parse(const unsigned char *bytes, size_t len, TrainRun *r, Model **m, ModelTrain **t, char *why,
                           size_t size);

#endif
