/*
 * fuzz_npy.c - libFuzzer target for the .npy reader (engine/io/npy.c): any
 * bytes end in a matrix within the limit or a refusal that says why; never
 * a crash, a leak, an out-of-bounds read or undefined behaviour (ASan +
 * UBSan). Built and run by `make fuzz`; seeds are the .npy files of tests/data.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "npy.h"

#define MAX_ELEMS (1L << 16)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Mat *m = NULL;
    AttnError err = { 0 };
    if (npy_read(&m, (const char *)data, size, MAX_ELEMS, &err) != ATTN_OK) {
        if (m || !err.msg[0])
            abort();
        return 0;
    }
    if (!m || m->rows < 1 || m->cols < 1 || (long)m->rows * m->cols > MAX_ELEMS)
        abort();
    mat_free(m);
    return 0;
}
