/*
 * fuzz_safetensors.c - libFuzzer target for the safetensors reader
 * (engine/io/safetensors.c): any bytes end in tensors that lie inside them
 * or a refusal that says why, never a crash, a leak, an out-of-bounds read
 * or undefined behaviour (ASan + UBSan); every tensor read is converted to
 * float32 whole. Built and run by `make fuzz`; seeds in
 * tests/fuzz/safetensors.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "safetensors.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    SafeTensors st;
    AttnError err = { 0 };
    if (safetensors_parse(data, size, &st, &err) != ATTN_OK) {
        if (st.n || !err.msg[0])
            abort();
        return 0;
    }
    for (int i = 0; i < st.n; i++) {
        const StTensor *t = &st.tensors[i];
        if (t->data < data || t->data + t->count * safetensors_dtype_size(t->dtype) > data + size)
            abort();
        float buf[64];
        for (int64_t at = 0; at < t->count; at += 64)
            safetensors_to_f32(t, at, t->count - at < 64 ? t->count - at : 64, buf);
    }
    safetensors_free(&st);
    return 0;
}
