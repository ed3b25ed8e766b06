/*
 * refdata.c - reader of the reference files for the golden tests.
 */
#include "refdata.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *ref_dir(void)
{
    static char dir[512];
    const char *env = getenv("ATTN_REF");
    snprintf(dir, sizeof dir, "%s", env && *env ? env : "tests/reference");
    return dir;
}

static double parse_number(const char *tok)
{
    if (strcmp(tok, "-inf") == 0)
        return -INFINITY;
    if (strcmp(tok, "inf") == 0)
        return INFINITY;
    return strtod(tok, NULL);
}

int ref_load(RefFile *rf, const char *name, char *msg, size_t msg_size)
{
    memset(rf, 0, sizeof *rf);
    snprintf(rf->path, sizeof rf->path, "%s/%s", ref_dir(), name);
    FILE *f = fopen(rf->path, "r");
    if (!f) {
        snprintf(msg, msg_size, "cannot open %s", rf->path);
        return -1;
    }
    char line[8192];
    long seed = -1;
    RefEntry *cur = NULL;
    int row = 0;
    while (fgets(line, sizeof line, f)) {
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#' || *p == '\n' || *p == '\0')
            continue;
        char word[64];
        if (sscanf(p, "%63s", word) != 1)
            continue;
        if (strcmp(word, "seed") == 0) {
            seed = strtol(p + 4, NULL, 10);
            continue;
        }
        if (strcmp(word, "matrix") == 0 || strcmp(word, "scalar") == 0) {
            RefEntry *bigger = realloc(rf->entries, (rf->n + 1) * sizeof *bigger);
            if (!bigger)
                break;
            rf->entries = bigger;
            cur = &rf->entries[rf->n++];
            memset(cur, 0, sizeof *cur);
            cur->seed = seed;
            char value[64];
            if (strcmp(word, "matrix") == 0) {
                sscanf(p, "matrix %63s %dx%d", cur->name, &cur->rows, &cur->cols);
            } else {
                sscanf(p, "scalar %63s %63s", cur->name, value);
                cur->rows = cur->cols = 1;
                cur->is_scalar = 1;
            }
            cur->data = calloc((size_t)cur->rows * cur->cols, sizeof *cur->data);
            if (cur->is_scalar) {
                cur->data[0] = parse_number(value);
                cur = NULL;
            }
            row = 0;
            continue;
        }
        if (cur && row < cur->rows) {
            char *tok = strtok(p, " \t\n");
            for (int j = 0; tok && j < cur->cols; j++, tok = strtok(NULL, " \t\n"))
                cur->data[(size_t)row * cur->cols + j] = parse_number(tok);
            if (++row == cur->rows)
                cur = NULL;
        }
    }
    fclose(f);
    return 0;
}

void ref_free(RefFile *rf)
{
    for (int i = 0; i < rf->n; i++)
        free(rf->entries[i].data);
    free(rf->entries);
    memset(rf, 0, sizeof *rf);
}

const RefEntry *ref_find(const RefFile *rf, const char *name, long seed)
{
    for (int i = 0; i < rf->n; i++)
        if (strcmp(rf->entries[i].name, name) == 0 && (seed < 0 || rf->entries[i].seed == seed))
            return &rf->entries[i];
    return NULL;
}

int ref_compare(const Mat *m, const RefEntry *e, double rel_tol, char *msg, size_t msg_size)
{
    if (!m) {
        snprintf(msg, msg_size, "%s: no matrix to compare", e->name);
        return 0;
    }
    if (m->rows != e->rows || m->cols != e->cols) {
        snprintf(msg, msg_size, "%s: shape %dx%d, reference %dx%d", e->name, m->rows, m->cols, e->rows, e->cols);
        return 0;
    }
    double worst = 0;
    int wi = -1, wj = -1;
    double got_at = 0, want_at = 0;
    for (int i = 0; i < e->rows; i++)
        for (int j = 0; j < e->cols; j++) {
            double got = mat_get(m, i, j), want = e->data[(size_t)i * e->cols + j];
            double excess;
            if (!isfinite(want) || !isfinite(got))
                excess = (got == want || (isnan(got) && isnan(want))) ? 0 : INFINITY;
            else
                excess = fabs(got - want) / fmax(1.0, fabs(want));
            if (excess > worst || (wi < 0 && excess > rel_tol)) {
                worst = excess;
                wi = i;
                wj = j;
                got_at = got;
                want_at = want;
            }
        }
    if (worst <= rel_tol)
        return 1;
    snprintf(msg, msg_size, "%s: max relative difference %.3g at [%d,%d]: got %.9g, reference %.9g",
             e->name, worst, wi + 1, wj + 1, got_at, want_at);
    return 0;
}
