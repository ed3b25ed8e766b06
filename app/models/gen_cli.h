/*
 * gen_cli.h - `attn model ... --generate N` for scripts (gen_cli.c): the
 * options, the run, and the text or JSON written out. Called by
 * app/cli/model_cmd.c.
 */
#ifndef ATTN_GEN_CLI_H
#define ATTN_GEN_CLI_H

#include "json_write.h"
#include "look_gen.h"
#include "model_look.h"

typedef struct {
    int n;              /* --generate N; 0: none                          */
    ModelSampling s;
    long seed;
    int no_cache;
    const char *knob;   /* a knob given (named, for "needs --generate")   */
} GenOptions;

/* argv[*i] when it is one of --generate's options (its value consumed):
 * 1; 0 when it is not one; -1 with *why when its value is wrong. */
int gen_option(int argc, char **argv, int *i, GenOptions *g, const char **why);
/* The N tokens generated into *g after lk's text: 0 (a note on stderr
 * when the model's context stopped it), or 2 with the reason said. */
int gen_run(ModelLook *lk, const GenOptions *o, LookGen *g);
/* "generated" and "generation" in w. */
void gen_json(JsonWriter *w, const ModelLook *lk, const LookGen *g);
/* The text and then what was generated, as it reads, on stdout: 0, or 2. */
int gen_print(const ModelLook *lk, const LookGen *g);

#endif
