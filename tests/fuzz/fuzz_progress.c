/*
 * fuzz_progress.c - libFuzzer target for the reader of the progress store
 * (app/session/progress.c): any bytes as the `progress` file are read
 * without a crash, a leak or undefined behaviour (ASan + UBSan); what was
 * read, written back by the writer, reads back the same (what attn writes
 * its own reader accepts, at any extreme the reader let through). Built
 * and run by `make fuzz`; seeds in tests/fuzz/progress.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "progress.h"

static char dir_in[64], dir_out[64];

static void put(const char *dir, const uint8_t *data, size_t size)
{
    char path[128];
    snprintf(path, sizeof path, "%s/progress", dir);
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    fwrite(data, 1, size, f);
    fclose(f);
}

static void clear(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        abort();
    struct dirent *e;
    char path[512];
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir_in[0]) {
        snprintf(dir_in, sizeof dir_in, "/tmp/attn-fuzz-progress-in-XXXXXX");
        snprintf(dir_out, sizeof dir_out, "/tmp/attn-fuzz-progress-out-XXXXXX");
        if (!mkdtemp(dir_in) || !mkdtemp(dir_out))
            abort();
    }
    clear(dir_in);
    clear(dir_out);
    put(dir_in, data, size);
    ProgressLesson *recs = NULL;
    int n = 0;
    char warn[600];
    if (progress_load(dir_in, &recs, &n, warn, sizeof warn) == 0) {
        /* each record, saved by the writer, reads back as it was */
        for (int i = 0; i < n && i < 4; i++) {
            if (progress_save(dir_out, &recs[i], 0, warn, sizeof warn) != 0)
                abort();
            ProgressLesson *back = NULL;
            int m = 0;
            if (progress_load(dir_out, &back, &m, warn, sizeof warn) != 0 || warn[0])
                abort();    /* the writer wrote what its reader refused */
            const ProgressLesson *b = progress_find(back, m, recs[i].lesson);
            if (!b || b->n_ex < recs[i].n_ex || strcmp(b->last_step, recs[i].last_step) != 0)
                abort();
            for (int k = 0; k < recs[i].n_ex; k++)
                if (b->ex[k].status < recs[i].ex[k].status || b->ex[k].hints < recs[i].ex[k].hints)
                    abort();
            progress_free(back, m);
        }
    }
    progress_free(recs, n);
    return 0;
}
