/*
 * model_report.h - what `attn model` says of a pass beyond its heads and
 * its next token (model_report.c): the loss at every position, the logit
 * lens at the last position, the direct logit attribution of the top next
 * token; made first (so nothing is printed of a report that failed), then
 * written into the --json document or as plain text.
 *
 * Ownership: a ModelReport owns its lens arrays (model_report_free); its
 * losses and attribution are the ModelLook's, valid while the look is not
 * looked at again.
 */
#ifndef ATTN_MODEL_REPORT_H
#define ATTN_MODEL_REPORT_H

#include <stdio.h>

#include "json_write.h"
#include "model_effect.h"

typedef struct {
    int lens, attribution, k;   /* what was asked, and the lens's top k  */
    const double *losses;       /* n - 1 (the look's)                    */
    double loss;
    int *lens_ids;              /* (layers + 1) x k                      */
    double *lens_p;
    const ModelAttribution *attr;       /* the look's, or NULL          */
} ModelReport;

/* Make the report of lk's run: 0, or -1 with why. */
int model_report_make(ModelLook *lk, int lens, int attribution, int k, ModelReport *r, char *why, size_t size);
/* "loss", "losses" and, asked for, "lens" and "attribution" as fields of
 * the document w is writing. */
void model_report_json(JsonWriter *w, const ModelLook *lk, const ModelReport *r);
/* The same as lines of text, a token's text escaped for the terminal. */
void model_report_text(FILE *f, const ModelLook *lk, const ModelReport *r);
void model_report_free(ModelReport *r);

#endif
