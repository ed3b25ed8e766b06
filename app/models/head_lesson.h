/*
 * head_lesson.h - one head of a real model written as a lesson
 * (head_lesson.c): the `.lesson` language, the head's real matrices beside
 * it as .npy files (the layer's normalized input, the head's slice of the
 * query, key, value and output weights, and the attention the model's own
 * forward pass computed), and the lessons' steps on them: Q, K, V, rotary
 * positions for the Llama family, the scores, the scale, the causal mask
 * (a sliding window where the model has one), the softmax, the weighted
 * sum, what the head adds back. Its `check` line proves the lesson's
 * softmax equals the model's; its exercises ask for numbers a student can
 * work out from the panes before them.
 *
 * The lesson lives in the state directory (progress_dir), under
 * heads/MODEL-layerL-headH/, written atomically each time it is asked for.
 */
#ifndef ATTN_HEAD_LESSON_H
#define ATTN_HEAD_LESSON_H

#include <stddef.h>

#include "model_look.h"

/* Write head head of layer layer (both from 1) of lk, on its tokens and
 * its text (for the lesson's words; NULL or "" when tokens were given), in
 * dir (NULL: the state directory's). 0 with the lesson's path in path, or
 * -1 with why (also when lk has heads taken out or patched). */
int head_lesson_write(ModelLook *lk, int layer, int head, const char *text, const char *dir, char *path,
                      size_t path_size, char *why, size_t why_size);

#endif
