/*
 * model_write.h - a model trained by attn saved as an ordinary checkpoint
 * in the real-models layout (model_write.c): config.json (model_type gpt2),
 * model.safetensors (F32, GPT-2's tensor names), and the byte-level
 * tokenizer of the 256 bytes with no merges (vocab.json, merges.txt), so
 * `attn model` opens it, and so would other tools; and how often each
 * byte came in the text it was trained on (token_counts.json), the tokens
 * its heads are probed with. Each file is written atomically.
 */
#ifndef ATTN_MODEL_WRITE_H
#define ATTN_MODEL_WRITE_H

#include <stddef.h>

#include "model.h"

/* m's weights (its block, model_to_block) as a model directory dir (made
 * if missing), counts (vocab numbers; NULL: none) its training text's: 0,
 * or -1 with why ("FILE: message"). */
int model_write_gpt2(const char *dir, Model *m, const double *counts, char *why, size_t size);

#endif
