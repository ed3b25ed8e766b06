/*
 * fuzz_csv.c - libFuzzer target for the CSV reader (engine/io/csv.c): any
 * bytes end in a matrix within the limit, with labels on whole axes only,
 * or a refusal that says why; never a crash, a leak or undefined behaviour
 * (ASan + UBSan). Built and run by `make fuzz`; seeds are the .csv files of tests/data.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

#define MAX_ELEMS (1L << 16)

/* Refuse labels with a byte below 0x20 (the lesson's check is stricter). */
static int no_controls(const char *label)
{
    for (const unsigned char *p = (const unsigned char *)label; *p; p++)
        if (*p < 0x20)
            return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Mat *m = NULL;
    AttnError err = { 0 };
    if (csv_read(&m, (const char *)data, size, MAX_ELEMS, no_controls, &err) != ATTN_OK) {
        if (m || !err.msg[0])
            abort();
        return 0;
    }
    if (!m || m->rows < 1 || m->cols < 1 || (long)m->rows * m->cols > MAX_ELEMS)
        abort();
    for (int i = 0; i < m->rows; i++)
        if (mat_row_label(m, i) && !no_controls(mat_row_label(m, i)))
            abort();
    for (int j = 0; j < m->cols; j++)
        if (mat_col_label(m, j) && strlen(mat_col_label(m, j)) > 64)
            abort();
    mat_free(m);
    return 0;
}
